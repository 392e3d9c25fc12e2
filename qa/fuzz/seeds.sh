#!/bin/bash
# Builds the run-time corpora of the harnesses under qa/fuzz/work/corpus/<name>/
# from the small seeds in the tree (qa/fuzz/corpus/), the test data
# (tests/data) and, when present, the shared data ($SURICATA_SHARED, default
# ../shared: captures and ET Open rules). Existing corpora are kept and only
# added to (a corpus grows across runs); --fresh starts them again.
#   qa/fuzz/seeds.sh [--fresh] [--large]
# --large takes more of the shared data (longer runs; the default suits CI).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
shared=${SURICATA_SHARED:-$top/../shared}
work=$here/work/corpus
fresh=0 large=0
for a in "$@"; do
	case $a in
	--fresh) fresh=1 ;;
	--large) large=1 ;;
	*) echo "usage: $0 [--fresh] [--large]" >&2; exit 2 ;;
	esac
done
[ $fresh = 1 ] && rm -rf "$work"
mkdir -p "$work"/{pcap,pipeline,rule,yaml,http}
if [ $large = 1 ]; then max_pcap=262144 n_pcap=400 n_rules=5000; else max_pcap=32768 n_pcap=40 n_rules=300; fi

add() { # add DIR FILE...: copies under a content name, so re-runs add nothing twice
	local dir=$1 f sum; shift
	for f in "$@"; do
		[ -f "$f" ] || continue
		sum=$(sha1sum "$f" | cut -c1-16)
		[ -e "$dir/seed-$sum" ] || cp "$f" "$dir/seed-$sum"
	done
}

# captures: the test pcaps, then the smallest shared ones
caps=("$top"/tests/data/pcaps/*.pcap* "$top"/tests/data/pcaps/dir3/*)
if [ -d "$shared/data/pcaps" ]; then
	while IFS= read -r f; do caps+=("$f"); done < <(
		find "$shared/data/pcaps" -type f \( -name '*.pcap' -o -name '*.pcapng' -o -name '*.cap' \) \
			-size -$((max_pcap / 1024 + 1))k -printf '%s %p\n' | sort -n | head -n "$n_pcap" | cut -d' ' -f2-)
fi
add "$work/pcap" "${caps[@]}" "$here"/corpus/pcap/* "$here"/corpus/pipeline/*
add "$work/pipeline" "${caps[@]}" "$here"/corpus/pipeline/*

# fuzz_pcap's raw-frame form (link type byte, then length-prefixed frames) of
# the test pcaps, so the fuzzer mutates frames without a pcap header in the way
python3 - "$work/pcap" "$top"/tests/data/pcaps/*.pcap <<'PY'
import hashlib, os, struct, sys
out = sys.argv[1]
links = [1, 113, 276, 0, 108, 12, 14, 101, 228, 229, 9]
for path in sys.argv[2:]:
    d = open(path, "rb").read()
    if len(d) < 24 or d[:4] not in (b"\xd4\xc3\xb2\xa1", b"\xa1\xb2\xc3\xd4"):
        continue
    e = "<" if d[:4] == b"\xd4\xc3\xb2\xa1" else ">"
    lt = struct.unpack(e + "I", d[20:24])[0]
    if lt not in links:
        continue
    res, off = bytes([links.index(lt)]), 24
    while off + 16 <= len(d):
        incl = struct.unpack(e + "I", d[off + 8:off + 12])[0]
        frame = d[off + 16:off + 16 + incl][:65535]
        res += struct.pack(">H", len(frame)) + frame
        off += 16 + incl
    name = "frames-" + hashlib.sha1(res).hexdigest()[:16]
    open(os.path.join(out, name), "wb").write(res)
PY

# rules: the tree's seeds, one rule per file from our rule files and the ET subset,
# then a sample of ET Open
add "$work/rule" "$here"/corpus/rule/*
split_rules() { # split_rules N FILE...: every Nth rule line, one per seed
	local every=$1; shift
	awk -v every="$every" -v dir="$work/rule" '
		/^(alert|drop|pass|reject)/ { if (n++ % every == 0) {
			b = FILENAME; sub(/.*\//, "", b); f = dir "/r-" b "-" n
			print > f; close(f) } }' "$@"
}
(cd "$top" && split_rules 1 rules/*.rules qa/fuzz/pipeline.rules tests/data/rules/*.rules)
if [ -d "$shared/data/rules/et-open-4.0" ]; then
	(cd "$shared/data/rules/et-open-4.0" && cat emerging-*.rules | grep -E '^(alert|drop|pass)' |
		awk -v n="$n_rules" -v dir="$work/rule" 'NR % 29 == 0 && c++ < n {
			f = dir "/et-" NR; print > f; close(f) }')
fi

# yaml: the tree's seeds, the shipped yaml (no --set line), the test configs
add "$work/yaml" "$here"/corpus/yaml/* "$top"/suricata.yaml.in "$top"/tests/data/conf/*.yaml \
	"$top"/tests/data/conf/sub/* "$top"/tests/data/rules/*.yaml

# http: the tree's seeds (qa/fuzz/gen-http-seeds.py makes them)
add "$work/http" "$here"/corpus/http/*

# dns: the payloads of the DNS captures in the tree and in suricata-verify;
# tls: the tests/data/tls handshakes as chunks (their own seed writers)
mkdir -p "$work/dns" "$work/tls"
dnscaps=$(ls "$top"/tests/data/pcaps/dns/*.pcap 2>/dev/null || true)
if [ -d "$shared/suricata-verify/tests" ]; then
	dnscaps="$dnscaps $(find "$shared/suricata-verify/tests" -path '*dns*' -name '*.pcap' | sort)"
fi
if [ -n "${dnscaps// /}" ]; then
	# shellcheck disable=SC2086 # one path a word
	python3 "$here/dns-seeds.py" "$work/dns" $dnscaps > /dev/null
fi
python3 "$here/tls-seeds.py" "$work/tls" > /dev/null

# smtp: suricata-verify's SMTP sessions as chunks
mkdir -p "$work/smtp"
if [ -d "$shared/suricata-verify/tests" ]; then
	# shellcheck disable=SC2046 # one path a word
	python3 "$here/smtp-seeds.py" "$work/smtp" $(find "$shared/suricata-verify/tests" \
		\( -path '*smtp*' -o -path '*mime*' -o -path '*email*' \) -name '*.pcap' | sort) > /dev/null
fi

# ssh, ftp: the SSH and FTP flows of the tree's captures and suricata-verify's
mkdir -p "$work/ssh" "$work/ftp"
sfcaps=$(ls "$top"/tests/data/pcaps/*ssh*.pcap "$top"/tests/data/pcaps/*ftp*.pcap 2>/dev/null || true)
if [ -d "$shared/suricata-verify/tests" ]; then
	sfcaps="$sfcaps $(find "$shared/suricata-verify/tests" \( -path '*ftp*' -o -path '*ssh*' \) -name '*.pcap' | sort)"
fi
if [ -n "${sfcaps// /}" ]; then
	# shellcheck disable=SC2086 # one path a word
	python3 "$here/ssh-ftp-seeds.py" "$work/ssh" "$work/ftp" $sfcaps > /dev/null
fi

# dcerpc: the DCE/RPC flows of suricata-verify's captures (TCP and UDP)
mkdir -p "$work/dcerpc"
if [ -d "$shared/suricata-verify/tests" ]; then
	# shellcheck disable=SC2046 # one path a word
	python3 "$here/dcerpc-seeds.py" "$work/dcerpc" $(find "$shared/suricata-verify/tests" \
		\( -path '*dce*' -o -path '*smb*' -o -path '*dns-dcerpc*' \) -name '*.pcap' | sort) > /dev/null
fi


# smb: suricata-verify's SMB flows as chunks
mkdir -p "$work/smb"
if [ -d "$shared/suricata-verify/tests" ]; then
	# shellcheck disable=SC2046 # one path a word
	python3 "$here/smb-seeds.py" "$work/smb" $(find "$shared/suricata-verify/tests" \
		\( -path '*smb*' -o -path '*dcerpc*' \) -name '*.pcap' | sort) > /dev/null
fi

# mqtt: suricata-verify's MQTT flows as chunks
mkdir -p "$work/mqtt"
if [ -d "$shared/suricata-verify/tests" ]; then
	# shellcheck disable=SC2046 # one path a word
	python3 "$here/mqtt-seeds.py" "$work/mqtt" $(find "$shared/suricata-verify/tests" \
		-path '*mqtt*' -name '*.pcap' | sort) > /dev/null
fi

# sip: suricata-verify's SIP captures as chunks (UDP datagrams, TCP flows)
mkdir -p "$work/sip"
if [ -d "$shared/suricata-verify/tests" ]; then
	# shellcheck disable=SC2046 # one path a word
	python3 "$here/sip-seeds.py" "$work/sip" $(find "$shared/suricata-verify/tests" \
		-path '*sip*' -name '*.pcap' | sort) > /dev/null
fi

# ber: the LDAP, Kerberos and SNMP flows of suricata-verify and the shared captures
mkdir -p "$work/ber"
if [ -d "$shared/suricata-verify/tests" ]; then
	# shellcheck disable=SC2046 # one path a word
	python3 "$here/ber-seeds.py" "$work/ber" $(find "$shared/suricata-verify/tests" \
		\( -path '*ldap*' -o -path '*krb5*' -o -path '*snmp*' \) -name '*.pcap' | sort) \
		$(ls "$shared"/data/pcaps/ndpi/*kerberos*.pcap "$shared"/data/pcaps/ndpi/*snmp*.pcap \
			"$shared"/data/pcaps/ndpi/*ldap*.pcap 2>/dev/null) > /dev/null
fi

# pop3: suricata-verify's POP3 flows and mDNS datagrams as chunks
mkdir -p "$work/pop3"
if [ -d "$shared/suricata-verify/tests" ]; then
	# shellcheck disable=SC2046 # one path a word
	python3 "$here/sip-seeds.py" --pop3 "$work/pop3" $(find "$shared/suricata-verify/tests" \
		\( -path '*pop3*' -o -path '*mdns*' -o -name 'frag-9.pcap' \) -name '*.pcap' | sort) > /dev/null
fi

# pgsql: suricata-verify's and nDPI's PostgreSQL flows as chunks
mkdir -p "$work/pgsql"
if [ -d "$shared/suricata-verify/tests" ]; then
	# shellcheck disable=SC2046 # one path a word
	python3 "$here/pgsql-seeds.py" "$work/pgsql" $(find "$shared/suricata-verify/tests" \
		-path '*pgsql*' -name '*.pcap' | sort) "$shared"/data/pcaps/ndpi/pgsql.pcap > /dev/null
fi

# udp: the DHCP, TFTP and NTP datagrams of the shared captures and suricata-verify
mkdir -p "$work/udp"
# shellcheck disable=SC2046 # one path a word
python3 "$here/udp-seeds.py" "$work/udp" $(ls "$shared"/data/pcaps/packets/dhcp_*.pcapng \
	"$shared"/data/pcaps/ndpi/tftp.pcap "$shared"/data/pcaps/ndpi/NTPv4.pcap 2>/dev/null) \
	$( [ -d "$shared/suricata-verify/tests" ] && find "$shared/suricata-verify/tests" \
		\( -path '*dhcp-eve*' -o -path '*tftp*' -o -path '*ntp*' \) -name '*.pcap' | sort) \
	> /dev/null

# dnp3: suricata-verify's DNP3 flows and the shared capture, raw and framed
mkdir -p "$work/dnp3"
if [ -d "$shared/suricata-verify/tests" ]; then
	# shellcheck disable=SC2046 # one path a word
	python3 "$here/dnp3-seeds.py" "$work/dnp3" $(find "$shared/suricata-verify/tests" \
		-path '*dnp3*' -name '*.pcap' | sort) \
		$(ls "$shared"/data/pcaps/ndpi/dnp3.pcap 2>/dev/null) > /dev/null
fi

# remote: the RFB, RDP and telnet flows of suricata-verify and the shared captures
mkdir -p "$work/remote"
if [ -d "$shared/suricata-verify/tests" ]; then
	# shellcheck disable=SC2046 # one path a word
	python3 "$here/remote-seeds.py" "$work/remote" $(find "$shared/suricata-verify/tests" \
		\( -path '*rfb*' -o -path '*rdp*' -o -path '*telnet*' \) -name '*.pcap' | sort) \
		$(ls "$shared"/data/pcaps/ndpi/rdp*.pcap "$shared"/data/pcaps/ndpi/telnet*.pcap \
			2>/dev/null) > /dev/null
fi

# http2: suricata-verify's HTTP/2 flows (prior knowledge and h2c) as chunks
mkdir -p "$work/http2"
if [ -d "$shared/suricata-verify/tests" ]; then
	# shellcheck disable=SC2046 # one path a word
	python3 "$here/http2-seeds.py" "$work/http2" $(find "$shared/suricata-verify/tests" \
		-path '*http2*' -name '*.pcap' | sort) > /dev/null
fi

# ics: the EtherNet/IP and Modbus flows of suricata-verify and the shared captures
mkdir -p "$work/ics"
if [ -d "$shared/suricata-verify/tests" ]; then
	# shellcheck disable=SC2046 # one path a word
	python3 "$here/ics-seeds.py" "$work/ics" $(find "$shared/suricata-verify/tests" \
		\( -path '*enip*' -o -path '*modbus*' \) -name '*.pcap' | sort) \
		$(ls "$shared"/data/pcaps/ndpi/cip_io.pcap "$shared"/data/pcaps/ndpi/modbus.pcap \
			2>/dev/null) > /dev/null
fi

# misc: suricata-verify's IKE and NFS flows, the shared captures' DHT and NFS
mkdir -p "$work/misc"
if [ -d "$shared/suricata-verify/tests" ]; then
	# shellcheck disable=SC2046 # one path a word
	python3 "$here/misc-seeds.py" "$work/misc" $(find "$shared/suricata-verify/tests" \
		\( -path '*ike*' -o -path '*nfs*' \) -name '*.pcap' | sort) \
		$(ls "$shared"/data/pcaps/ndpi/targusdataspeed_false_positives.pcap \
			"$shared"/data/pcaps/ndpi/nfsv3.pcap 2>/dev/null) > /dev/null
fi

# quic: the QUIC captures of suricata-verify and ndpi as datagram chunks,
# and a ClientHello as a CRYPTO frame for the harness to protect
mkdir -p "$work/quic"
if [ -d "$shared/suricata-verify/tests" ]; then
	# shellcheck disable=SC2046 # one path a word
	python3 "$here/quic-seeds.py" "$work/quic" $(find "$shared/suricata-verify/tests" \
		\( -path '*quic*' -o -path '*ja4*' \) -name '*.pcap' | sort) \
		$(ls "$shared"/data/pcaps/ndpi/quic*.pcap 2>/dev/null) > /dev/null
fi

for h in pcap pipeline rule yaml http dns tls smtp ssh ftp dcerpc smb mqtt sip ber pop3 pgsql udp dnp3 remote http2 ics misc quic; do
	printf '%-9s %5d seeds %8s\n' "$h" "$(ls "$work/$h" | wc -l)" "$(du -sh "$work/$h" | cut -f1)"
done
