#!/bin/sh
# Installs what the engine needs to build and test on Debian 12 (or Ubuntu 24.04).
# Runs apt-get as root (sudo when needed). CUDA is not installed here: --enable-cuda
# expects the toolkit at /usr/local/cuda. tcpreplay and iproute2 serve the live
# capture tests (tests/live/run.sh: a veth pair in a network namespace); clang and
# its runtime (libFuzzer) serve make fuzz (qa/fuzz). libhiredis-dev builds eve-log
# filetype redis; redis-server serves its test (tests/sinks/run.sh). suricata-update
# serves tests/ops/suricata-update.sh, and python3-matplotlib qa/bench/plot.py.
# liblua5.4-dev builds the lua rule keyword (optional: configure finds it).
# libnetfilter-queue-dev builds the NFQUEUE source (-q); iptables serves its
# test (tests/live/ips.sh: iptables-legacy sends forwarded traffic to a queue).
set -e
PKGS="build-essential autoconf automake libtool pkg-config \
 libpcap-dev libyaml-dev libpcre2-dev libhtp-dev libjansson-dev libssl-dev libmagic-dev \
 libbrotli-dev libpsl-dev liblua5.4-dev libnetfilter-queue-dev iptables \
 wireshark-common tshark time python3 python3-yaml python3-jsonschema \
 tcpreplay iproute2 ethtool clang libclang-rt-dev libhiredis-dev redis-server \
 suricata-update python3-matplotlib"
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
