#!/bin/sh
# The budget under stress, scaled down (bench/run-stress.sh runs 10^6
# files and 10^8 operations): NFILES files and NOPS 1-byte pwrites under
# a 256 KiB budget.  The runtime's own accounting stays inside the budget,
# every total is exact, the folding is reported (folded opens exact, the
# folded-files estimate close) and so is the BPS error bound.
#   STRESS_FILES, STRESS_OPS, STRESS_MEMORY override the sizes.
. "$(dirname "$0")/common.sh"
iolens_setup
nfiles=${STRESS_FILES:-100000}
nops=${STRESS_OPS:-1000000}
memory=${STRESS_MEMORY:-256K}
dir=$T/many
log=$T/stress.iolens
mkdir "$dir"
start=$(date +%s.%N)
run_traced "$log" IOLENS_MEMORY="$memory" "$PROGS/prog_stress" "$dir" "$nfiles" "$nops" ||
    fail "prog_stress exited with status $?"
end=$(date +%s.%N)
echo "traced run: $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s"
require_log "$log"

n=$((nfiles + 1)) # the files and big
check_eq $n "$(total "$log" POSIX_OPENS)" "total_POSIX_OPENS"
check_eq $((nfiles + nops)) "$(total "$log" POSIX_WRITES)" "total_POSIX_WRITES"
check_eq $((nfiles + nops)) "$(total "$log" POSIX_BYTES_WRITTEN)" "total_POSIX_BYTES_WRITTEN"

budget=$(header "$log" "memory budget")
used=$(header "$log" "memory used")
echo "budget $budget, used $used, needed $(header "$log" "memory needed")"
check_le "$used" "$budget" "memory used within the budget"
other_opens=$(counter "$log" "<other files>" POSIX_OPENS)
check_eq "$other_opens" "$(header "$log" "folded opens")" "folded opens = POSIX_OPENS of <other files>"
check_gt "$other_opens" 0 "opens folded"
# Each folded file was opened once: the estimate of distinct folded files
# against the exact count (HyperLogLog, standard error about 3.3%; 4
# standard errors allowed here, the figure itself is printed).
folded_files=$(header "$log" "folded files")
err=$(awk -v f="$folded_files" -v o="$other_opens" 'BEGIN { d = f - o; if (d < 0) d = -d; printf "%.4f", d / o }')
echo "folded opens $other_opens, folded files estimated $folded_files (relative error $err)"
check_le "$err" 0.13 "relative error of the folded-files estimate"
# The BPS figures and their error bound are reported.
"$IOLENS_PARSER" --bps "$log" >"$T/bps" 2>&1
check_eq 0 "$?" "exit status of --bps"
grep -i "error" "$T/bps" | head -n 5
check_gt "$(grep -ci 'error.bound\|error_bound\|bound' "$T/bps")" 0 "the BPS error bound in --bps"
finish
