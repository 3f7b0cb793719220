#!/bin/sh
# Measures the time iolens adds to each intercepted call (make bench).
#
#   run-overhead.sh BUILD_DIR
#
# Each op of bench/overhead runs RUNS times untraced and RUNS times traced,
# alternating (and swapping which goes first) so that drift in machine
# speed hits both alike.  Many short runs beat a few long ones here: most
# of the noise is from one process to the next.
#
# Every figure comes from pairs, never from two medians taken apart:
# - in_process (the read and write ops): each traced run also times a
#   twin file that iolens does not trace, in the same process, batch for
#   batch (overhead's TWIN_DIR mode), and prints the median of the paired
#   differences and of the paired ratios (traced over twin): the cost of
#   tracing a call over passing it through.  The run's figure is that
#   median; the table shows the median over the RUNS runs and their
#   min..max.
# - adjacent runs (open+close and stat, where an untraced path still pays
#   for resolving the path, so that the twin is no baseline): run i traced
#   against run i untraced, the difference and the ratio of the two, then
#   the median and min..max over the RUNS pairs.
# - call sites (the read and write ops): each run i traced as above is
#   paired with an adjacent run i traced with IOLENS_DISABLE_SITES=1 (the
#   three processes of a round go in a rotating order); each gives its own
#   in-process added cost, and what the sites add is the difference of the
#   two, then the median and min..max over the RUNS pairs (target: at most
#   5 ns, issue 18).
# - the clock counter (time-stamp counter on x86_64): one reading, in a
#   loop without calls, RUNS times; the runtime reads it twice a traced
#   call.  Each reading in such a loop waits for the one before; around a
#   system call most of that is hidden, so twice this figure is not what
#   the readings add to a pwrite.
# - the timing floor (each read and write op): what any tool that times
#   a call must add to it, measured untraced in one process, batch for
#   batch: a bare timing wrapper (the clock read, the function called
#   through a pointer, the clock read again) against a pass-through (a
#   tail call through the same pointer, the way an untraced call goes;
#   for fprintf a call of vfprintf, as iolens's untraced fprintf makes),
#   RUNS runs (bench/overhead floor1, floor4k, floorfw16, floorfp1).  Two
#   costs make it: the two readings, and the return into the wrapper
#   after the call, which the pass-through does not make.  Each figure
#   above is its floor plus iolens's own work.
# A median added cost below 0, or a traced/untraced ratio below 1, is the
# machine's noise: the summary says "noise, not measured" (summary.sh).
# A figure, not a test: nothing here passes or fails.
set -eu
. "$(dirname "$0")/summary.sh"

BUILD=${1:?usage: run-overhead.sh BUILD_DIR}
BUILD=$(cd "$BUILD" && pwd)
BENCH=$BUILD/bench/overhead
LIB=$BUILD/.libs/libiolens.so
PARSER=$BUILD/iolens-parser
RUNS=${RUNS:-11}

for f in "$BENCH" "$LIB"; do
    if [ ! -e "$f" ]; then
        echo "run-overhead: $f is missing; run 'make bench' in the build directory" >&2
        exit 1
    fi
done
if [ ! -d /dev/shm ] || [ ! -w /dev/shm ]; then
    echo "run-overhead: /dev/shm is not a writable directory" >&2
    exit 1
fi

# Traced scratch files go to $SHM/traced, the twins to $SHM/twin, which
# the default IOLENS_EXCLUDE (/dev) leaves untraced.  Under /dev/shm, not
# TMPDIR: a memory file system, so that the figure is the call's cost and
# not a disk's, and the exclusion the twins rely on.
SHM=$(mktemp -d /dev/shm/iolens-bench.XXXXXX)
LOGS=$(mktemp -d "${TMPDIR:-/tmp}/iolens-bench-logs.XXXXXX") || { rm -rf "$SHM"; exit 1; }
trap 'rm -rf "$SHM" "$LOGS"' EXIT
trap 'exit 130' INT TERM
mkdir "$SHM/traced" "$SHM/twin"

# Calls per run: enough for a stable median, a fraction of a second each.
iterations() {
    case $1 in
        fwrite16 | fprintf1) echo 1800000 ;;
        openclose) echo 180000 ;;
        *) echo 360000 ;;
    esac
}

# The counter that counts the op's calls, to show they were really traced.
counter_of() {
    case $1 in
        pwrite1 | pwrite4k) echo total_POSIX_WRITES ;;
        openclose) echo total_POSIX_OPENS ;;
        stat) echo total_POSIX_STATS ;;
        fwrite16 | fprintf1) echo total_STDIO_WRITES ;;
    esac
}

# Half the iterations: the traced runs split theirs between the traced
# file and the twin, so that each file gets as many calls in both.
run_untraced() {
    "$BENCH" "$1" $(($2 / 2)) "$SHM/traced"
}

# run_traced OP ITERATIONS LOG [SITES_OFF]
run_traced() {
    IOLENS_DISABLE_SITES=${4:-0} IOLENS_NONMPI=1 IOLENS_INCLUDE=$SHM/traced LD_PRELOAD=$LIB IOLENS_LOGFILE=$3 \
        "$BENCH" "$1" "$2" "$SHM/traced" "$SHM/twin"
}

echo "iolens call overhead: $RUNS runs of each op traced and untraced, alternating"
echo "scratch files in $SHM; $(nproc) CPUs; $(uname -r)"
echo
printf '%-10s %11s %10s %9s %-17s %7s %-13s %-10s %12s\n' op untraced_ns traced_ns added_ns \
    spread ratio spread paired calls_in_log
: >"$LOGS/sites"
for op in pwrite1 pwrite4k fwrite16 fprintf1 openclose stat; do
    n=$(iterations "$op")
    # One line a run: untraced process's ns, then the traced process's
    # traced ns, twin ns, paired difference and paired ratio; for the
    # read and write ops the same four of the process traced with
    # IOLENS_DISABLE_SITES=1.  The three go in a rotating order.
    : >"$LOGS/runs"
    i=1
    while [ "$i" -le "$RUNS" ]; do
        o="- - - -"
        case $op in
        openclose | stat) sites=0 ;;
        *) sites=1 ;;
        esac
        for step in 0 1 2; do
            case $(((i + step) % 3)) in
            0) u=$(run_untraced "$op" "$n") ;;
            1) t=$(run_traced "$op" "$n" "$LOGS/$op-$i.iolens") ;;
            2) if [ "$sites" -eq 1 ]; then
                   o=$(run_traced "$op" "$n" "$LOGS/$op-$i-nosites.iolens" 1)
               fi ;;
            esac
        done
        echo "$u $t $o" >>"$LOGS/runs"
        i=$((i + 1))
    done
    plain=$(awk '{ print $1 }' "$LOGS/runs" | summary_stats %.1f)
    traced=$(awk '{ print $2 }' "$LOGS/runs" | summary_stats %.1f)
    case $op in
    openclose | stat)
        paired="adjacent"
        added=$(awk '{ print $2 - $1 }' "$LOGS/runs" | summary_stats %.1f)
        ratio=$(awk '{ print ($1 > 0 ? $2 / $1 : "noise") }' "$LOGS/runs" | summary_stats %.3f)
        ;;
    *)
        paired="in_process"
        added=$(awk '{ print $4 }' "$LOGS/runs" | summary_stats %.1f)
        ratio=$(awk '{ print $5 }' "$LOGS/runs" | summary_stats %.3f)
        ;;
    esac
    seen="-"
    if [ -x "$PARSER" ] && [ -f "$LOGS/$op-1.iolens" ]; then
        seen=$("$PARSER" --total "$LOGS/$op-1.iolens" 2>/dev/null |
            awk -v c="$(counter_of "$op"):" '$1 == c { print $2 }')
    elif [ ! -f "$LOGS/$op-1.iolens" ]; then
        seen="no log!"
    fi
    printf '%-10s %11s %10s %9s %-17s %7s %-13s %-10s %12s\n' "$op" "${plain%% *}" \
        "${traced%% *}" "${added%% *}" "${added#* }" "${ratio%% *}" "${ratio#* }" "$paired" \
        "${seen:--}" | tee -a "$LOGS/table"
    case $op in
    openclose)
        summary_row "open+close: ns added (adjacent runs)" "${added%% *}" ns "<= 500" \
            "${added#* }" 0 ;;
    stat) summary_row "stat: ns added (adjacent runs)" "${added%% *}" ns - "${added#* }" 0 ;;
    *) summary_row "$op: ns added (in process)" "${added%% *}" ns "<= 25" "${added#* }" 0 ;;
    esac
    case $op in
    openclose | stat) ;;
    *)
        off=$(awk '{ print $8 }' "$LOGS/runs" | summary_stats %.1f)
        sites_add=$(awk '{ print $4 - $8 }' "$LOGS/runs" | summary_stats %.1f)
        echo "$op ${off%% *} ${off#* } ${sites_add%% *} ${sites_add#* }" >>"$LOGS/sites"
        summary_row "$op: ns added, IOLENS_DISABLE_SITES=1 (in process)" "${off%% *}" ns \
            "<= 25" "${off#* }" 0
        summary_row "$op: ns call sites add (adjacent runs, on - off)" "${sites_add%% *}" ns \
            "<= 5" "${sites_add#* }" 0
        ;;
    esac
    if [ "$op" = pwrite4k ]; then
        summary_row "pwrite4k: traced/untraced (in process)" "${ratio%% *}" ratio "<= 1.05" \
            "${ratio#* }" 1
    fi
done
# The floor under the four read and write figures: the counter the
# runtime reads twice a traced call, read in a loop (no call, untraced).
: >"$LOGS/tsc"
i=1
while [ "$i" -le "$RUNS" ]; do
    "$BENCH" tsc 9000000 "$SHM/traced" >>"$LOGS/tsc"
    i=$((i + 1))
done
tsc=$(summary_stats %.1f <"$LOGS/tsc")
echo "clock counter: ${tsc%% *} ns a reading (${tsc#* }) in a loop of readings, read twice a traced call"
summary_row "clock counter: ns a reading in a loop (twice a traced call)" "${tsc%% *}" ns - \
    "${tsc#* }" 0
# The timing floor under the read and write figures (untraced, in
# process), op by op.
for op in pwrite1 pwrite4k fwrite16 fprintf1; do
    case $op in
    pwrite1) fop=floor1 ;;
    pwrite4k) fop=floor4k ;;
    fwrite16) fop=floorfw16 ;;
    fprintf1) fop=floorfp1 ;;
    esac
    : >"$LOGS/$fop"
    i=1
    while [ "$i" -le "$RUNS" ]; do
        "$BENCH" "$fop" "$(iterations "$op")" "$SHM/traced" | awk '{ print $3 }' >>"$LOGS/$fop"
        i=$((i + 1))
    done
    floor=$(summary_stats %.1f <"$LOGS/$fop")
    echo "timing floor, $op: ${floor%% *} ns (${floor#* }) added by a bare timing wrapper"
    summary_row "$op: ns a bare timing wrapper adds (the floor, in process)" \
        "${floor%% *}" ns - "${floor#* }" 0
done
echo
echo "untraced_ns, traced_ns: medians over the runs (the untraced process; the traced process's"
echo "traced file).  added_ns, ratio: medians over the pairs (paired: in_process, the traced"
echo "file against its untraced twin batch by batch in one process, each run's median a pair;"
echo "adjacent, a traced run against the untraced run next to it); spread: their min..max."
echo "Targets: at most 25 ns added per read or write call (pwrite1, pwrite4k, fwrite16,"
echo "fprintf1), at most 500 ns per open+close, a ratio of at most 1.05 for pwrite4k."
echo "calls_in_log: the op's counter in the first traced run's log (warm-up included)."
echo "timing floor: a bare timing wrapper (two clock readings around a call through a"
echo "pointer) against a pass-through, untraced, in process: what any tool that times the"
echo "call adds to it here; each read and write figure is its floor plus iolens's own work."
echo "A host that runs this guest slower (a busy neighbour) raises the floors with the rest."
echo
echo "call sites: ns added with sites on (added_ns above) and with IOLENS_DISABLE_SITES=1"
printf '%-10s %9s %-17s %9s %-17s %9s %-17s\n' op on_ns spread off_ns spread sites_ns spread
while read -r op off off_spread add add_spread; do
    on=$(awk -v op="$op" '$1 == op { print $4, $5 }' "$LOGS/table")
    printf '%-10s %9s %-17s %9s %-17s %9s %-17s\n' "$op" "${on%% *}" "${on#* }" "$off" \
        "$off_spread" "$add" "$add_spread"
done <"$LOGS/sites"
echo "off_ns: the in-process added cost of the runs traced with IOLENS_DISABLE_SITES=1;"
echo "sites_ns: each run's added cost minus that of the sites-off run next to it, median"
echo "and min..max over the pairs (target: at most 5 ns; below 0: noise, not measured)."
