#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# carry.sh - bring the engine's runtime libraries to the device machine.
#
#   qa/gpu/carry.sh download        (here) apt-get download the runtime .debs
#                                   and their dependency closure into
#                                   .gpucarry/debs, and build the probe into
#                                   .gpucarry/bin
#   qa/gpu/carry.sh unpack PREFIX   (device) dpkg -x every .deb into PREFIX
#                                   (never into /: that can break the image)
#   qa/gpu/carry.sh env PREFIX      print the LD_LIBRARY_PATH line to eval
#   qa/gpu/carry.sh probe PREFIX    unpack, then run the probe with it
#
# The base system (libc, libgcc, libstdc++) is left to the device image:
# carrying an older libc next to a newer loader breaks programs.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
carry=$top/.gpucarry
roots="libpcap0.8 libyaml-0-2 libjansson4 libhtp2 libpcre2-8-0 libhyperscan5"
skip='^(libc6|libgcc-s1|libstdc\+\+6|gcc-[0-9]+-base|c?debconf|.*-common|adduser|dpkg|perl-base|libcrypt1|init-system-helpers|tar|install-info|libnewt0.52|libslang2|libreadline8|libtinfo6|libtextwrap1|libdebian-installer4|libelogind0)$'

closure() {
	apt-cache depends --recurse --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances \
		$roots 2>/dev/null |
		awk '/^[a-z0-9]/ { print $1 }' | grep -v '^<' | sed 's/:.*//' |
		sort -u | grep -Ev "$skip"
}

case "${1:-}" in
download)
	mkdir -p "$carry/debs" "$carry/bin"
	pkgs=$(closure)
	echo "carry: $(echo $pkgs | wc -w) packages: $(echo $pkgs)"
	(cd "$carry/debs" && rm -f ./*.deb && apt-get download $pkgs)
	du -sh "$carry/debs"
	make -C "$top/qa/gpu" probe B=/tmp/qa-gpu-build
	cp /tmp/qa-gpu-build/probe "$carry/bin/probe"
	;;
unpack)
	prefix=${2:?prefix}
	mkdir -p "$prefix"
	for f in "$carry"/debs/*.deb; do dpkg -x "$f" "$prefix"; done
	echo "carry: unpacked $(ls "$carry"/debs/*.deb | wc -l) packages into $prefix"
	;;
env)
	prefix=${2:?prefix}
	echo "export LD_LIBRARY_PATH=$prefix/usr/lib/x86_64-linux-gnu:$prefix/lib/x86_64-linux-gnu\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
	;;
probe)
	prefix=${2:?prefix}
	"$0" unpack "$prefix"
	eval "$("$0" env "$prefix")"
	echo "carry: ldd of the probe:"
	ldd "$carry/bin/probe" | sed 's/^/  /'
	"$carry/bin/probe"
	;;
*)
	sed -n '3,13p' "$0"
	exit 2
	;;
esac
