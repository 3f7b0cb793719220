#!/bin/sh
# A program that goes over its files more than once keeps more of them
# apart in a larger budget, never fewer.  prog_churn makes 12,000 files
# (open, write 10 bytes, close), stats each, then opens each again,
# fstats it and writes 5 bytes.  Past the live records' eighth of the
# budget the closed files' records are parked, and each revisit unparks
# one and parks another that has grown since (a stat, an open, a write
# more).  The blob an unparked record leaves served only forms no larger
# than it, so once the budget was full every revisit took new memory and
# the files revisited were folded whole (one run): 3,568 opens folded in 4,000,000
# bytes (1,753 files), 20,090 in 5,500,000 (9,870 files) and 7,826 in
# 8,000,000 (3,899 files).  Blobs now have a grain of room to grow
# (layers/record_park.c) and doubles holding whole clock units pack as
# numbers: from 4,750,000 bytes up nothing folds, and at every budget
# each file kept apart shows all its calls.
# (Before, this test failed 3 of its 11 checks.)
. "$(dirname "$0")/common.sh"
iolens_setup

files=12000
previous=""
for budget in 4000000 5500000 8000000; do
    rm -rf "$T/churn" && mkdir "$T/churn"
    IOLENS_MEMORY=$budget run_traced "$T/churn$budget.iolens" "$PROGS/prog_churn" "$T/churn" 1 \
        $files || fail "prog_churn in $budget bytes exited with status $?"
    log=$T/churn$budget.iolens
    require_log "$log"
    folded=$(header "$log" "folded opens")
    # Every row of a file apart: 2 opens, 2 writes, 15 bytes, 2 stats.
    base_of "$log" | awk -F'\t' -v d="$T/churn/t" '$1 == "POSIX" && index($6, d) == 1 &&
        ($4 == "POSIX_OPENS" || $4 == "POSIX_WRITES" || $4 == "POSIX_BYTES_WRITTEN" ||
         $4 == "POSIX_STATS") { n[$4 " " $5]++ } END { for (k in n) print k, n[k] }' |
        sort >"$T/rows$budget.txt"
    kept=$(awk '$1 == "POSIX_OPENS" && $2 == 2 { print $3 }' "$T/rows$budget.txt")
    cat >"$T/rows$budget.expected" <<END
POSIX_BYTES_WRITTEN 15 $kept
POSIX_OPENS 2 $kept
POSIX_STATS 2 $kept
POSIX_WRITES 2 $kept
END
    if ! cmp -s "$T/rows$budget.expected" "$T/rows$budget.txt"; then
        diff "$T/rows$budget.expected" "$T/rows$budget.txt"
        fail "prog_churn's files in $budget bytes: counters by value (counter value files)"
    fi
    check_eq $((2 * files)) $((2 * ${kept:-0} + folded)) \
        "opens of the files kept apart and folded in $budget bytes"
    if [ -n "$previous" ]; then
        check_le "$folded" "$previous" "opens folded in $budget bytes, against the smaller budget"
    fi
    previous=$folded
done
check_gt "$(header "$T/churn4000000.iolens" "folded opens")" 0 "opens folded in 4,000,000 bytes"
check_eq 0 "$(header "$T/churn5500000.iolens" "folded opens")" "opens folded in 5,500,000 bytes"
check_eq 0 "$(header "$T/churn8000000.iolens" "folded opens")" "opens folded in 8,000,000 bytes"
finish
