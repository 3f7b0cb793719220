#!/bin/sh
# iolens-pio-perf's command line and output: bad options (usage, exit 1),
# sizes with K/M/G, the classic text layout line by line, --json (parsed
# with python3; the average MB/s comes from the average time), -o's raw
# lines, --keep, and where a strided pattern's transfers land, as iolens
# sees them (POSIX_STRIDE1_STRIDE and the access size of a traced run).
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/job_common.sh"
. "$(dirname "$0")/pio_perf_common.sh"
pio_setup

# ------------------------------------------------------------ bad input --
expect_usage_error() {
    what=$1
    shift
    pio_run bad 1 "$@"
    check_eq 1 "$STATUS" "exit status for $what"
    check_eq 1 "$(grep -c '^usage: iolens-pio-perf' "$ERR")" "usage on stderr for $what"
    check_eq "" "$(cat "$OUT")" "nothing on stdout for $what"
}
expect_usage_error "an unknown option" -Z
expect_usage_error "a size with a bad suffix" -f 12Q
expect_usage_error "a size that is no number" -x K
expect_usage_error "a missing value" -f
expect_usage_error "-x above -X" -x 2M -X 1M
expect_usage_error "-p above -P" -p 2 -P 1
expect_usage_error "a zero count" -d 0
expect_usage_error "an unknown pattern" --pattern diagonal
expect_usage_error "--stride without a strided pattern" --stride 8K
expect_usage_error "a stray argument" extra
# Cases that cannot be run: a message, exit 1, no usage needed.
pio_run bad 1 -P 2
check_eq 1 "$STATUS" "exit status for -P above the job's processes"
check_eq 1 "$(grep -c 'more than the 1 processes' "$ERR")" "message for -P above the job's processes"
pio_run bad 2 -p 2 -P 2 -r -f 1M -x 3K -X 3K
check_eq 1 "$STATUS" "exit status for a share that is no whole number of transfers"
# An I/O error: the failing call named, the job aborted with status 2.
RUN=$T/ioerr
mkdir -p "$RUN"
mpi_run -n 2 "$PIO" -p 2 -P 2 -r -f 1M -X 256K --dir "$T/missing" >"$RUN/out" 2>"$RUN/err"
check_eq 2 "$?" "exit status when the data directory is missing"
# Each rank that got there first may say so before the abort.
check_gt "$(grep -c "^iolens-pio-perf: open: $T/missing/iolens-pio-perf\.[0-9]*\.posix\.0\.dat\$" "$RUN/err")" 0 \
    "message naming the failed open"
pio_run help 1 --help
check_eq 0 "$STATUS" "exit status of --help"
check_eq 1 "$(grep -c '^usage: iolens-pio-perf' "$OUT")" "usage on stdout for --help"

# --------------------------------------------------------- text layout --
pio_run text 2 -p 1 -P 2 -x 128K -X 256K -f 1M -d 2 -r -m -i 2 -o "$T/raw"
check_eq 0 "$STATUS" "exit status of the text run"
check_eq "" "$(cat "$ERR")" "stderr of the text run"
grep -v 'Time: [0-9.]* ([0-9.]* MB/s)$\|^            Open Time\|^            Close Time\|^            S \|^            T of all' \
    "$OUT" >"$RUN/layout"
{
    for n in 1 2; do
        echo "Number of processors = $n"
        for x in 131072 262144; do
            echo "Transfer Buffer Size: $x bytes, File size: 1.00 MBs"
            echo "      # of files: 1, # of dsets: 2, # of elmts per dset: 131072"
            for api in RAW MPIO; do
                echo "      Type of IO = $api"
                echo "      Write (2 iterations)"
                echo "      Read (2 iterations)"
            done
        done
    done
} >"$RUN/expected"
check_eq "$(cat "$RUN/expected")" "$(cat "$RUN/layout")" "classic layout"
check_eq 16 "$(grep -c '^            Minimum Time: [0-9.]* ([0-9.]* MB/s)$' "$OUT")" "Minimum Time lines"
check_eq 16 "$(grep -c '^            Average Time: [0-9.]* ([0-9.]* MB/s)$' "$OUT")" "Average Time lines"
# -o: one line per rank, phase and iteration: (1 + 2) ranks x 2 sizes x
# 2 APIs x 2 phases x 2 iterations, after a header.
check_eq 49 "$(wc -l <"$T/raw" | tr -d ' ')" "lines of the raw output"
check_eq 0 "$(count_in "$RUN/data" '*')" "data files removed without --keep"

# ----------------------------------------------------------------- JSON --
pio_run json 2 -p 2 -P 2 -x 64K -X 64K -f 2M -F 2 -m -i 3 --json --keep
check_eq 0 "$STATUS" "exit status of the JSON run"
check_eq 2 "$(count_in "$RUN/data" '*.mpiio.*')" "files kept with --keep"
python3 - "$OUT" >"$RUN/json.check" <<'PY' || fail "JSON records: $(cat "$RUN/json.check")"
import json, math, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert [(r["api"], r["op"]) for r in recs] == [("mpiio", "write"), ("mpiio", "read")], recs
for r in recs:
    assert (r["procs"], r["xfer"], r["iterations"], r["files"], r["dsets"]) == (2, 65536, 3, 2, 1)
    assert r["bytes"] == 2 * 2 * 1048576 and r["elmts_per_dset"] == 524288
    assert r["type"] == "MPIO" and r["pattern"] == "contiguous"
    assert r["min_time"] <= r["avg_time"] <= r["max_time"]
    for k in ("min", "max", "avg"):
        want = r["bytes"] / 1048576 / r[k + "_time"]
        assert math.isclose(r[k + "_time_mb_s"], want, rel_tol=1e-5, abs_tol=1e-3), (k, r)
    # The average MB/s is not the one of the maximum time.
    assert r["avg_time_mb_s"] >= r["max_time_mb_s"]
    assert math.isclose(r["t_all_mb_s"], r["bytes"] / 1048576 / r["t_all"], rel_tol=1e-5, abs_tol=1e-3)
    assert r["t_all"] >= r["t_avg"] - 1e-9 and r["stb"] >= r["t_all"] - 1e-9
print("ok")
PY
check_eq ok "$(cat "$RUN/json.check")" "JSON records"

# ------------------------------------------------------ strided, traced --
# 2 ranks, 64 KiB: blocks of 8 KiB, 32 KiB apart, accessed in 4 KiB
# transfers.  Rank 0 accesses 0-8K, 32K-40K, 64K-72K, 96K-104K (rank 1
# 8 KiB later): the file spans 112 KiB.  Per rank and phase, 8 transfers:
# inside a block each starts right after the previous one (Darshan's
# stride, the gap after the previous access's last byte, is 0: not
# counted), and three times the next block starts 24 KiB after the end of
# the last (stride 24576); the shared record adds up both ranks and both
# phases.
pio_traced strided 2 -p 2 -P 2 -x 4K -X 4K -f 64K -r --pattern strided --block 8K \
    --stride 32K --keep
DATAFILE=$(first_in "$RUN/data" '*.posix.0.dat')
check_eq 114688 "$(stat -c %s "$DATAFILE")" "size of the strided file"
expect_counters "$LOG" "$DATAFILE" <<'COUNTERS'
POSIX_BYTES_WRITTEN 65536
POSIX_BYTES_READ 65536
POSIX_ACCESS1_ACCESS 4096
POSIX_ACCESS1_COUNT 32
POSIX_STRIDE1_STRIDE 24576
POSIX_STRIDE1_COUNT 12
POSIX_STRIDE2_STRIDE 0
POSIX_STRIDE2_COUNT 0
COUNTERS
finish
