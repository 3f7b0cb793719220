#!/bin/sh
# BPS of 4 ranks each making 10^6 small accesses at once
# (tests/mpi/bps_small_prog.c), whose interval stores compact.
#
# At IOLENS_MEMORY=256K every rank's POSIX store holds 455 intervals, so
# it compacts thousands of times.  The figures must keep their promises:
# time_lower <= time <= time_upper, time_upper never above the summed
# access time nor the job's run time.
#
# The estimate against the truth.  Two runs take different times, so the
# truth must come from the same accesses: a run at IOLENS_MEMORY=1G keeps
# every access (intervals == accesses: its union is exact), and
# bench/union_replay adds those same intervals again, in the order they
# ended, to stores of 455 entries and estimates the union from what they
# keep, as the parser does.  That estimate must be within 5% of the exact
# union, which must lie within its bounds.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/job_common.sh"
job_setup
# Four busy ranks on this machine's CPUs: no other test beside it.
run_alone
PROG=$T/bps_small_prog
if ! "$IOLENS_MPICC" -Wall -Wextra -Werror "$IOLENS_SRCDIR/tests/mpi/bps_small_prog.c" -o "$PROG"; then
    fail "compiling tests/mpi/bps_small_prog.c with $IOLENS_MPICC"
    finish
fi
REPLAY=$IOLENS_BUILDDIR/bench/union_replay
N=4
WRITES=1000000

# bps LOG METRIC: the whole POSIX layer's figure.
bps() {
    "$IOLENS_PARSER" --bps "$1" | awk -F'\t' -v m="$2" '$1 == "POSIX" && $2 == "*" && $3 == m { print $4 }'
}

# small MEMORY: runs the job, sets LOG.
small() {
    dir=$T/run.$1
    mkdir -p "$dir/data" "$dir/logs"
    if ! mpi_run -n "$N" -genv LD_PRELOAD "$IOLENS_LIB" -genv IOLENS_LOGDIR "$dir/logs" \
        -genv IOLENS_MEMORY "$1" "$PROG" "$dir/data" "$WRITES" >"$dir/out" 2>"$dir/err"; then
        fail "bps_small_prog at IOLENS_MEMORY=$1: $(cat "$dir/err")"
        finish
    fi
    LOG=$(first_in "$dir/logs" '*.iolens')
    require_log "$LOG"
    check_eq $((N * WRITES)) "$(bps "$LOG" accesses)" "accesses at IOLENS_MEMORY=$1"
}

small 256K
t=$(bps "$LOG" time)
lo=$(bps "$LOG" time_lower)
hi=$(bps "$LOG" time_upper)
busy=$(bps "$LOG" access_time)
echo "256K: intervals $(bps "$LOG" intervals) union $t [$lo, $hi] ($(bps "$LOG" time_bounds))" \
    "access_time $busy error_bound $(bps "$LOG" error_bound)"
check_gt $((N * 455 + 1)) "$(bps "$LOG" intervals)" "256K: the stores kept at most 455 intervals each"
check_gt "$t" 0 "256K: a union"
check_le "$lo" "$t" "256K: lower bound <= union"
check_le "$t" "$hi" "256K: union <= upper bound"
check_le "$hi" "$busy" "256K: upper bound <= summed access time"
check_le "$hi" "$(header "$LOG" run_time)" "256K: upper bound <= run time"

small 1G
check_eq "$(bps "$LOG" accesses)" "$(bps "$LOG" intervals)" "1G: every access kept"
if ! "$REPLAY" "$LOG" 455 >"$T/replay" 2>"$T/replay.err"; then
    fail "union_replay: $(cat "$T/replay.err")"
    finish
fi
cat "$T/replay"
check_eq "" "$(cat "$T/replay.err")" "union_replay: the 1G log is exact"
# "exact union E s (...); with 455 per store: X s in [L, H] (...), error P%, ..."
set -- $(awk '{ for (i = 1; i <= NF; i++) { if ($i == "union") e = $(i + 1)
        if ($i == "store:") x = $(i + 1); if ($i == "in") { l = $(i + 1); h = $(i + 2) } }
        gsub(/[\[,\]]/, "", l); gsub(/[\[,\]]/, "", h); print e, x, l, h }' "$T/replay")
check_le "$3" "$1" "replay: lower bound <= the exact union"
check_le "$1" "$4" "replay: the exact union <= upper bound"
if awk -v e="$1" -v x="$2" 'BEGIN { d = x - e; if (d < 0) d = -d; exit !(d <= 0.05 * e) }'; then
    pass
else
    fail "replay at 455 intervals per store: estimate $2 not within 5% of the exact $1"
fi
finish
