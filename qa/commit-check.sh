#!/bin/sh
# Commit messages as the style notes ask (design/STYLE.md, "Commits"):
# a subject of at most 72 characters, a blank line, then a body saying what
# and why. Merge commits are left out (git writes their subject).
#
#   qa/commit-check.sh                 HEAD (a merge: the commits it brings)
#   qa/commit-check.sh REV..REV        every commit of a range
#   qa/commit-check.sh --msg FILE      one message (the commit-msg hook)
#
# Prints PASS/FAIL per commit; exits 1 when any fails.
MAX=72

# check NAME < message: 0 when it is well formed, else says why
check() {
	awk -v name="$1" -v max="$MAX" '
		/^#/ { next }                  # git comments (the hook sees them)
		{ line[++n] = $0 }
		END {
			while (n > 0 && line[n] ~ /^[ \t]*$/) n--
			subj = line[1]
			body = 0
			for (i = 3; i <= n; i++) if (line[i] !~ /^[ \t]*$/) body = 1
			why = ""
			if (subj ~ /^[ \t]*$/) why = "no subject"
			else if (length(subj) > max) why = "subject of " length(subj) " characters (at most " max ")"
			else if (n >= 2 && line[2] !~ /^[ \t]*$/) why = "no blank line after the subject"
			else if (!body) why = "no body (what changed and why)"
			if (why != "") { printf "FAIL: %s: %s\n", name, why; exit 1 }
			printf "PASS: %s\n", name
		}'
}

if [ "$1" = "--msg" ]; then
	check "message" < "$2"
	exit $?
fi

range=${1:-HEAD}
if [ -z "$1" ] && git rev-parse -q --verify HEAD^2 > /dev/null; then
	range=HEAD^1..HEAD
elif [ -z "$1" ]; then
	range="HEAD^!"
fi
fail=0
for c in $(git rev-list --no-merges "$range"); do
	git log -1 --format=%B "$c" | check "$(git log -1 --format='%h %s' "$c" | cut -c1-60)" ||
		fail=1
done
exit $fail
