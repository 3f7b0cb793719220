#!/bin/sh
# A process with more files than fit one region (IOLENS_REGION_RECORDS,
# 8192, lib/log/log_regions.h): its names and POSIX records are written as
# several regions of at most 8192 entries, so that a reader holds one
# bounded region at a time, and the parser reads them as one.
. "$(dirname "$0")/common.sh"
iolens_setup

n=9000
dir=$T/many
log=$T/x.iolens
mkdir "$dir" || fail "cannot make $dir"
run_traced "$log" IOLENS_MEMORY=64M "$PROGS/prog_many_files" "$dir" $n ||
    fail "prog_many_files exited with status $?"
require_log "$log"

# Two POSIX regions, 8192 records and the other 808, in name order
# (f000000 ... f008191 first).  A region's raw size is its 16-byte head
# and a code byte per column (the id, the rank and every counter:
# log_format.h) plus its records, all of one size.
region_sizes "$log" 16 >"$T/posix"
head=$((16 + 2 + $("$IOLENS_PARSER" --list-counters | grep -c '^POSIX	')))
check_eq 2 "$(wc -l <"$T/posix" | tr -d ' ')" "POSIX regions for $n files"
check_eq "8192 808" "$(awk -v head="$head" 'NR == 1 { a = $1 - head } NR == 2 { b = $1 - head }
    END { r = (a + b) / 9000; print a / r, b / r }' "$T/posix")" "records in each POSIX region"
check_eq 2 "$(region_sizes "$log" 3 | wc -l | tr -d ' ')" "names regions for $n files"
check_eq 0 "$(header "$log" "folded opens")" "folded opens under a 64 MiB budget"

# Read as one: every file once, with its own name, and exact totals.
check_eq $n "$(base_of "$log" | awk -F'\t' -v d="$dir/" '$1 == "POSIX" &&
    $4 == "POSIX_OPENS" && index($6, d) == 1 && $5 == 1 { f[$6] = 1 }
    END { n = 0; for (k in f) n++; print n }')" "files with a POSIX record named once"
check_eq 1 "$(records_of "$log" "$dir/f008191" POSIX)" "POSIX records of the last file of region 1"
check_eq 1 "$(records_of "$log" "$dir/f008192" POSIX)" "POSIX records of the first file of region 2"
check_eq $n "$(total "$log" POSIX_OPENS)" "total_POSIX_OPENS"
check_eq $((n * 10)) "$(total "$log" POSIX_BYTES_WRITTEN)" "total_POSIX_BYTES_WRITTEN"
finish
