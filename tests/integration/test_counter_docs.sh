#!/bin/sh
# Every counter iolens-parser knows (from the X-macro tables of
# include/iolens/log_format.h) has an entry in man/iolens-log.5, and every
# entry there is a counter that exists: the documentation cannot fall out
# of step with the format.  (scripts/gen-counter-man.sh regenerates the
# entries.)  The check is first tried on a copy of the page with one entry
# removed, which it must reject.
. "$(dirname "$0")/common.sh"

for var in IOLENS_PARSER IOLENS_SRCDIR; do
    eval "value=\${$var:-}"
    [ -n "$value" ] || { echo "SKIP: $var is not set (run through make check)"; exit 77; }
done
T=$(mktemp -d /tmp/iolens-test.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
LC_ALL=C
export LC_ALL

page=$IOLENS_SRCDIR/man/iolens-log.5
[ -r "$page" ] || { fail "$page is missing"; finish; }
"$IOLENS_PARSER" --list-counters >"$T/counters" || { fail "--list-counters failed"; finish; }
cut -f2 "$T/counters" | sort >"$T/known"
check_gt "$(wc -l <"$T/known")" 0 "number of counters listed"

layers=$(cut -f1 "$T/counters" | sort -u | paste -sd'|' -)

# Counter entries of a man page: ".B NAME" lines whose NAME looks like a
# counter of a known layer (LAYER_...).
entries_of() {
    sed -En "s/^\.B (($layers)_[A-Z0-9_]*) *\$/\1/p" "$1" | sort -u
}

# Prints the problems of PAGE (nothing when it is in step).
problems_of() {
    entries_of "$1" >"$T/documented"
    comm -23 "$T/known" "$T/documented" | sed 's/^/undocumented counter: /'
    comm -13 "$T/known" "$T/documented" | sed 's/^/documented but unknown: /'
}

# The check must catch a missing entry and a stale one.
victim=$(sed -n '10p' "$T/known")
grep -v "^\.B $victim *\$" "$page" >"$T/missing.5"
check_eq "undocumented counter: $victim" "$(problems_of "$T/missing.5")" "self-check, missing entry"
{ cat "$page"; printf '.TP\n.B POSIX_NO_SUCH_COUNTER\nnothing\n'; } >"$T/stale.5"
check_eq "documented but unknown: POSIX_NO_SUCH_COUNTER" "$(problems_of "$T/stale.5")" \
    "self-check, stale entry"

problems_of "$page" >"$T/problems"
if [ -s "$T/problems" ]; then
    fail "$page is out of step with the counters (run scripts/gen-counter-man.sh):"
    cat "$T/problems"
else
    pass
fi
finish
