# Sourced by the shell tests (tests/ops/*.sh): the PASS:/FAIL: lines and the
# "N passed, N failed" summary run-all.sh counts, and the unix-socket client
# calls, written once. Set before sourcing:
#   T_NAME   what the PASS:/FAIL: lines name ("guards")
#   uclient, sock   (for uc / wait_for) tests/live/uclient.py and the socket
pass=0 fail=0

ok() { echo "PASS: $T_NAME: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $T_NAME: $1"; fail=$((fail + 1)); }
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }

# one command over the unix socket; its JSON answer on stdout
uc() { python3 "$uclient" "$sock" "$@"; }
# a field of an answer: jq ANSWER PYTHON-EXPR (a = the answer)
jq() { python3 -c 'import json,sys; a=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2" 2> /dev/null; }
expect() { # WHAT ANSWER EXPR
	if [ "$(jq "$2" "$3")" = True ]; then ok "$1"; else bad "$1: got $2"; fi
}
wait_for() { # SECONDS PYTHON-CONDITION-ON-ANSWER COMMAND...
	local n=$(($1 * 10)) cond=$2 a; shift 2
	for _ in $(seq 1 $n); do
		a=$(uc "$@" 2> /dev/null)
		[ "$(jq "$a" "$cond")" = True ] && return 0
		sleep 0.1
	done
	return 1
}
