#!/bin/sh
# Installs what the engine needs on Debian 12 (or Ubuntu 24.04), as root
# (sudo when needed). CUDA is not installed here: --enable-cuda expects the
# toolkit at /usr/local/cuda.
#   ./install-deps.sh               the build and every test tool: development, CI
#   ./install-deps.sh --build-only  what a sensor's build needs, no test tool
# The build: the libraries configure requires, and the optional ones a sensor
# wants (libmagic: filemagic, file.magic; brotli: HTTP br bodies; hiredis:
# eve-log filetype redis; Hyperscan: mpm-algo hs; liblz4: pcap-log
# compression, lz4 its reader for the tests; libmaxminddb: geoip). The tests: tcpreplay and
# iproute2 serve the live capture tests (tests/live/run.sh: a veth pair in a
# network namespace); clang and its runtime (libFuzzer) serve make fuzz
# (qa/fuzz); redis-server tests/sinks/run.sh; suricata-update
# tests/ops/suricata-update.sh; logrotate and systemd (systemd-analyze verify
# of the installed unit) tests/ops/install.sh; python3-matplotlib
# qa/bench/plot.py (tests/ops/charts.sh); valgrind the instruction counts of
# qa/bench and qa/gpu; python3-scapy tests/data/gen-pcaps.py; xz-utils the
# compressed captures; libmaxmind-db-writer-perl the geoip e2e case's tiny
# .mmdb. libpsl-dev builds the domain and tld
# transforms, liblua5.4-dev the lua rule keyword, libnetfilter-queue-dev the
# NFQUEUE source (-q); iptables and ethtool serve tests/live/ips.sh.
set -e
PKGS="build-essential autoconf automake libtool pkg-config \
 libpcap-dev libyaml-dev libpcre2-dev libhtp-dev libjansson-dev libssl-dev libmagic-dev \
 libbrotli-dev libpsl-dev liblua5.4-dev libnetfilter-queue-dev \
 libhiredis-dev libnghttp2-dev liblz4-dev libmaxminddb-dev"
TEST_PKGS="wireshark-common tshark lz4 time python3 python3-yaml python3-jsonschema \
 tcpreplay iproute2 iptables ethtool clang libclang-rt-dev redis-server logrotate \
 suricata-update python3-matplotlib systemd valgrind python3-scapy xz-utils libmaxmind-db-writer-perl"
case "$1" in
"") PKGS="$PKGS $TEST_PKGS" ;;
--build-only) ;;
*)
	echo "usage: $0 [--build-only]" >&2
	exit 1
	;;
esac
# Hyperscan exists for x86-64 only.
case "$(uname -m)" in x86_64|amd64) PKGS="$PKGS libhyperscan-dev" ;; esac
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
# wireshark-common asks whether non-root users may capture; the default (no) is fine.
echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections 2>/dev/null || true
missing=
for p in $PKGS; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
	$SUDO apt-get update -q
	$SUDO apt-get install -y -q --no-install-recommends $missing
fi
echo "dependencies installed"
