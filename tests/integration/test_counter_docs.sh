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

# The generated part has, for every layer, an integer and a floating-point
# section, and lists each counter in its own layer's section of its type
# (the names with _F_ are the floating-point ones, as in Darshan).
sections_problems_of() {
    awk -F '\t' -v layers="$layers" '
    FNR == NR { layer[$2] = $1; next }
    /^\.\\" BEGIN GENERATED COUNTERS/ { in_gen = 1; next }
    /^\.\\" END GENERATED COUNTERS/ { in_gen = 0; next }
    !in_gen { next }
    /^\.SS "/ { sec = $0; sub(/^\.SS "/, "", sec); sub(/" *$/, "", sec); seen[sec] = 1; next }
    /^\.B / {
        name = $0; sub(/^\.B /, "", name); sub(/ *$/, "", name)
        if (!(name in layer)) next
        want = layer[name] (name ~ /_F_/ ? " floating-point counters (seconds)" : " integer counters")
        if (sec != want) print "misplaced: " name " under \"" sec "\""
    }
    END {
        n = split(layers, names, "|")
        for (i = 1; i <= n; i++) {
            if (!((names[i] " integer counters") in seen)) print "no section: " names[i] " integer counters"
            if (!((names[i] " floating-point counters (seconds)") in seen))
                print "no section: " names[i] " floating-point counters (seconds)"
        }
    }' "$T/counters" "$1"
}
check_eq 5 "$(printf '%s\n' "$layers" | tr '|' '\n' | wc -l)" "layers listed by --list-counters"
# Self-checks: a section heading dropped, an entry moved to another layer.
grep -vxF '.SS "STDIO integer counters"' "$page" >"$T/nosection.5"
check_eq "misplaced: STDIO_OPENS under \"POSIX floating-point counters (seconds)\"" \
    "$(sections_problems_of "$T/nosection.5" | sed -n 1p)" "self-check, section dropped (entry)"
check_eq "no section: STDIO integer counters" \
    "$(sections_problems_of "$T/nosection.5" | grep '^no section')" "self-check, section dropped"
sed 's/^\.B MPIIO_BYTES_READ$/.B POSIX_F_META_TIME/' "$page" >"$T/moved.5"
check_eq "misplaced: POSIX_F_META_TIME under \"MPIIO integer counters\"" \
    "$(sections_problems_of "$T/moved.5")" "self-check, entry in another layer's section"
check_eq "" "$(sections_problems_of "$page")" "sections of $page"
finish
