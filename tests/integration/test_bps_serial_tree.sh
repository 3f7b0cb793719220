#!/bin/sh
# The BPS union of a serial program whose interval store compacts stays
# exact: tar over a tree of 6000 small files made here, traced at the
# default IOLENS_MEMORY and at 64M.
#
# tar is one thread making blocking calls, so no two of its accesses
# overlap and the true union of their times is their summed duration,
# access_time in --bps: that is the oracle, by arithmetic, in the same
# run.  At 64M the store holds every access (intervals == accesses) and
# the union is access_time up to the log's nanosecond rounding.  At the
# default budget the store holds a few thousand entries, so it must merge
# same-file neighbours across idle gaps (error_bound > 0: the premise);
# the union must still be within 2% of access_time (it was the union of
# the widened spans before, tens of times the summed access time), never
# above it, and within the printed bounds, which are tight.
. "$(dirname "$0")/common.sh"
iolens_setup
# Its figures are times: no other test beside it.
run_alone

TREE=$T/tree
FILES=6000
i=0
while [ "$i" -lt 60 ]; do
    mkdir -p "$TREE/d$i"
    i=$((i + 1))
done
# File k holds (k % 23) * 700 + 1 bytes: up to 15 KiB, so tar reads most
# in one or two calls.
if ! awk -v dir="$TREE" -v n="$FILES" 'BEGIN {
        line = sprintf("%0699d\n", 0)
        for (k = 0; k < n; k++) {
            f = dir "/d" (k % 60) "/f" k
            for (j = 0; j < k % 23; j++)
                printf "%s", line > f
            printf "x" > f
            close(f)
        } }'; then
    fail "making the tree"
    finish
fi

# bps LOG METRIC: the whole POSIX layer's figure.
bps() {
    "$IOLENS_PARSER" --bps "$1" | awk -F'\t' -v m="$2" '$1 == "POSIX" && $2 == "*" && $3 == m { print $4 }'
}

# within A B FRACTION N WHAT: |A - B| <= FRACTION * B + N ns (the log
# rounds each of N intervals to whole nanoseconds)
within() {
    if awk -v a="$1" -v b="$2" -v f="$3" -v n="$4" \
        'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= f * b + 1e-9 * n) }'; then
        pass
    else
        fail "$5: $1 not within $3 of $2 (+ $4 ns)"
    fi
}

# trace NAME [VAR=VALUE...]: tar the tree into $T/NAME.tar, log $T/NAME.iolens.
trace() {
    name=$1
    shift
    run_traced "$T/$name.iolens" IOLENS_INCLUDE="$TREE" "$@" tar cf "$T/$name.tar" -C "$T" tree ||
        fail "tar under iolens ($name)"
    require_log "$T/$name.iolens"
}

# Checks of one log; $2: the slack allowed between the union and the
# summed access time, as a fraction.
check_log() {
    log=$T/$1.iolens
    t=$(bps "$log" time)
    lo=$(bps "$log" time_lower)
    hi=$(bps "$log" time_upper)
    busy=$(bps "$log" access_time)
    echo "$1: intervals $(bps "$log" intervals) accesses $(bps "$log" accesses)" \
        "union $t [$lo, $hi] access_time $busy error_bound $(bps "$log" error_bound)"
    check_gt "$busy" 0 "$1: tar's reads took time"
    check_le "$lo" "$t" "$1: lower bound <= union"
    check_le "$t" "$hi" "$1: union <= upper bound"
    # The log rounds each interval to ns: 1 ns per access of slack.
    nslack=$(awk -v b="$busy" -v n="$(bps "$log" accesses)" 'BEGIN { printf "%.9f", b + 1e-9 * n }')
    check_le "$hi" "$nslack" "$1: upper bound <= summed access time"
    within "$t" "$busy" "$2" "$(bps "$log" accesses)" \
        "$1: union against the summed access time (a serial program)"
    check_eq tight "$(bps "$log" time_bounds)" "$1: bounds are tight for a serial program"
}

trace default
trace big IOLENS_MEMORY=64M
check_eq "$(bps "$T/big.iolens" accesses)" "$(bps "$T/big.iolens" intervals)" \
    "64M: the store kept every access"
check_gt "$(bps "$T/default.iolens" error_bound)" 0 \
    "default budget: the store merged across gaps (the premise)"
check_gt "$(bps "$T/default.iolens" accesses)" "$(bps "$T/default.iolens" intervals)" \
    "default budget: fewer intervals than accesses"
check_log big 0
check_log default 0.02
finish
