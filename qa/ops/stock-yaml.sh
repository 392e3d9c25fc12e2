#!/bin/sh
# qa/ops/stock-yaml.sh: does a stock Suricata suricata.yaml pass our -T unchanged?
#
#   qa/ops/stock-yaml.sh [-b SURICATA] [-r RULES] [-k] SURICATA.YAML.IN [VERSION]
#
# Renders a suricata.yaml.in from Suricata's own source tree (any 7.x or 8.x)
# the way its configure + make would with the default prefix (/usr/local),
# then runs `SURICATA -T -c rendered.yaml`. The stock text is not part of this
# tree (it is Suricata's, GPL-2.0): give the path of one you fetched.
#
# Only the @...@ substitutions are made; nothing else in the file is changed.
# Paths that a fresh install would have created are pointed at a temporary
# folder so -T sees what an installed system sees after suricata-update:
#   @e_sysconfdir@       -> TMP/etc/  (classification.config, reference.config
#                                      copied from this tree's etc/)
#   @e_defaultruledir@   -> TMP/rules (suricata.rules: -r RULES, or this tree's
#                                      rules/suricata.rules)
#   @e_logdir@, @e_rundir@ -> TMP/log/, TMP/run/
# The rest take their configure defaults: @e_enable_evelog@ yes, plugins
# commented out (@pfring_comment@ and friends "#"), @e_magic_file_comment@ "#"
# (configure comments magic-file out unless it finds the database), @prefix@
# /usr/local, @PACKAGE_NAME@ suricata, @PACKAGE_VERSION@ VERSION (default 8.0.7),
# @MAJOR_MINOR@ its first two numbers.
#
# Output: the -T output, then "stock-yaml: PASS <file>" or "stock-yaml: FAIL
# <file> (exit N)". Exit status is -T's. -k keeps TMP and prints its path.
set -u

here=$(cd "$(dirname "$0")/../.." && pwd)
bin=$here/src/suricata
rules=$here/rules/suricata.rules
keep=0
while getopts b:r:k opt; do
    case $opt in
    b) bin=$OPTARG ;;
    r) rules=$OPTARG ;;
    k) keep=1 ;;
    *) echo "usage: $0 [-b SURICATA] [-r RULES] [-k] SURICATA.YAML.IN [VERSION]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ] || [ ! -r "$1" ]; then
    echo "usage: $0 [-b SURICATA] [-r RULES] [-k] SURICATA.YAML.IN [VERSION]" >&2
    [ $# -ge 1 ] && echo "stock-yaml: cannot read $1" >&2
    exit 2
fi
in=$1
version=${2:-8.0.7}
major_minor=$(echo "$version" | cut -d. -f1,2)
[ -x "$bin" ] || { echo "stock-yaml: no engine binary at $bin (build first, or -b)" >&2; exit 2; }
[ -r "$rules" ] || { echo "stock-yaml: cannot read rules $rules" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/stock-yaml.XXXXXX")
[ "$keep" = 1 ] || trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/etc" "$tmp/rules" "$tmp/log" "$tmp/run"
cp "$here/etc/classification.config" "$here/etc/reference.config" "$tmp/etc/"
cp "$rules" "$tmp/rules/suricata.rules"

# '|' never occurs in the substituted paths (mktemp names are [A-Za-z0-9.]).
sed -e "s|@e_sysconfdir@|$tmp/etc/|g" \
    -e "s|@e_defaultruledir@|$tmp/rules|g" \
    -e "s|@e_logdir@|$tmp/log/|g" \
    -e "s|@e_rundir@|$tmp/run/|g" \
    -e "s|@e_localstatedir@|$tmp/run|g" \
    -e "s|@e_datarulesdir@|$tmp/rules|g" \
    -e "s|@e_datadir@|$tmp/rules|g" \
    -e "s|@e_enable_evelog@|yes|g" \
    -e "s|@e_magic_file_comment@|#|g" \
    -e "s|@e_magic_file@||g" \
    -e "s|@pfring_comment@|#|g" \
    -e "s|@napatech_comment@|#|g" \
    -e "s|@ndpi_comment@|#|g" \
    -e "s|@prefix@|/usr/local|g" \
    -e "s|@PACKAGE_NAME@|suricata|g" \
    -e "s|@PACKAGE_VERSION@|$version|g" \
    -e "s|@MAJOR_MINOR@|$major_minor|g" \
    "$in" > "$tmp/suricata.yaml"

# Anything of the form @name@ left over is a substitution this script does not
# know: say so rather than hand the engine a half-rendered file. ("@cee: " in
# a comment is not one: the pattern needs a closing @ after a name.)
left=$(grep -v '^[[:space:]]*#' "$tmp/suricata.yaml" | grep -o '@[A-Za-z_][A-Za-z0-9_]*@' | sort -u | tr '\n' ' ')
if [ -n "$left" ]; then
    echo "stock-yaml: FAIL $in: unknown substitutions left: $left" >&2
    exit 2
fi

"$bin" -T -c "$tmp/suricata.yaml" -l "$tmp/log"
rc=$?
if [ "$rc" = 0 ]; then
    echo "stock-yaml: PASS $in"
else
    echo "stock-yaml: FAIL $in (exit $rc)"
fi
[ "$keep" = 1 ] && echo "stock-yaml: rendered into $tmp"
exit $rc
