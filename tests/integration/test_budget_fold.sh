#!/bin/sh
# 100,000 files under a 64 KiB budget: the program is unharmed, totals stay
# exact through the <other files> record, and the log reports the folding.
. "$(dirname "$0")/common.sh"
iolens_setup

n=100000
dir=$T/many
log=$T/x.iolens
mkdir "$dir" || fail "cannot make $dir"
run_traced "$log" IOLENS_MEMORY=64K "$PROGS/prog_many_files" "$dir" $n ||
    fail "prog_many_files exited with status $?"
check_eq $n "$(find "$dir" -type f -size 10c | wc -l)" "files of 10 bytes the program made"
require_log "$log"

check_eq $n "$(total "$log" POSIX_OPENS)" "total_POSIX_OPENS"
check_eq $n "$(total "$log" POSIX_WRITES)" "total_POSIX_WRITES"
check_eq $((n * 10)) "$(total "$log" POSIX_BYTES_WRITTEN)" "total_POSIX_BYTES_WRITTEN"

# Folded opens are exact: they are what <other files> counted.
other_opens=$(counter "$log" "<other files>" POSIX_OPENS)
check_eq "$other_opens" "$(header "$log" "folded opens")" "folded opens vs. POSIX_OPENS of <other files>"
check_gt "$other_opens" $((n * 9 / 10)) "opens folded under a 64 KiB budget"
check_eq $((other_opens * 10)) "$(counter "$log" "<other files>" POSIX_BYTES_WRITTEN)" \
    "POSIX_BYTES_WRITTEN of <other files>"
# Every file is either its own record or folded.
own=$(base_of "$log" | awk -F'\t' -v d="$dir/" '$1 == "POSIX" && $4 == "POSIX_OPENS" &&
      index($6, d) == 1 && $5 == 1 { n++ } END { print n + 0 }')
check_eq $n $((own + other_opens)) "files with a record + folded opens"
check_gt "$own" 0 "files that got a record of their own"

# Each folded file was opened once, so the distinct-file estimate must be
# close to the folded opens.  The sketch's standard error is about 3.3%
# (1024 registers) and the file names change with $T from run to run, so
# allow 4 standard errors: a false alarm about once in 15,000 runs.
folded_files=$(header "$log" "folded files")
check_le "$(awk -v f="$folded_files" -v o="$other_opens" 'BEGIN { d = f - o; if (d < 0) d = -d; print d / o }')" \
    0.13 "relative error of the folded-files estimate ($folded_files for $other_opens)"

check_eq 65536 "$(header "$log" "memory budget")" "memory budget"
check_le "$(header "$log" "memory used")" 65536 "memory used within the budget"
check_gt "$(header "$log" "memory needed")" 65536 "memory needed beyond the budget"
finish
