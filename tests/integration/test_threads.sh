#!/bin/sh
# 2 to 8 threads do I/O at once on shared descriptors and on one file
# each (see prog_threads.c): the counts must be exact, no update lost
# between threads.
. "$(dirname "$0")/common.sh"
iolens_setup

# check_threads N: run prog_threads with N threads and check every count.
check_threads() {
    n=$1
    shared=$T/shared.$n
    log=$T/x.$n.iolens
    run_traced "$log" "$PROGS/prog_threads" "$shared" "$T/own.$n" "$n" ||
        fail "prog_threads ($n threads) exited with status $?"
    require_log "$log"

    # n x 2000 pwrites of 1 KiB, each thread in its own region; n x 20000
    # reads of 0 bytes (no access size, as Darshan).
    expect_counters "$log" "$shared" <<END
POSIX_OPENS 1
POSIX_WRITES $((n * 2000))
POSIX_BYTES_WRITTEN $((n * 2048000))
POSIX_MAX_BYTE_WRITTEN $((n * 2048000 - 1))
POSIX_SIZE_WRITE_100_1K $((n * 2000))
POSIX_READS $((n * 20000))
POSIX_BYTES_READ 0
POSIX_SIZE_READ_0_100 $((n * 20000))
POSIX_ACCESS1_ACCESS 1024
POSIX_ACCESS1_COUNT $((n * 2000))
POSIX_ACCESS2_ACCESS 0
POSIX_ACCESS2_COUNT 0
END
    # n x 2000 write()s of 100 bytes advancing one shared offset: each
    # starts where another ended, so the tracked offsets cover the file
    # exactly.
    expect_counters "$log" "$shared.seq" <<END
POSIX_OPENS 1
POSIX_WRITES $((n * 2000))
POSIX_BYTES_WRITTEN $((n * 200000))
POSIX_MAX_BYTE_WRITTEN $((n * 200000 - 1))
POSIX_SIZE_WRITE_0_100 $((n * 2000))
END
    t=0
    while [ $t -lt "$n" ]; do
        expect_counters "$log" "$T/own.$n.$t" <<END
POSIX_OPENS 1
POSIX_WRITES 2000
POSIX_BYTES_WRITTEN 1024000
POSIX_MAX_BYTE_WRITTEN 1023999
POSIX_CONSEC_WRITES 1999
POSIX_SEQ_WRITES 1999
POSIX_STRIDE1_STRIDE 0
POSIX_STRIDE1_COUNT 0
POSIX_PAT_STRIDE 512
POSIX_PAT_STRIDE_STEPS 1999
POSIX_ACCESS1_COUNT 2000
END
        t=$((t + 1))
    done
    check_eq $((n * 6000)) "$(total "$log" POSIX_WRITES)" "total_POSIX_WRITES ($n threads)"
    check_eq $((n * 3272000)) "$(total "$log" POSIX_BYTES_WRITTEN)" "total_POSIX_BYTES_WRITTEN ($n threads)"
    check_eq $((n * 20000)) "$(total "$log" POSIX_READS)" "total_POSIX_READS ($n threads)"
    check_eq $((n + 2)) "$(total "$log" POSIX_OPENS)" "total_POSIX_OPENS ($n threads)"
}

for n in 2 4 8; do
    check_threads $n
done

# 4 threads fputs 3000 lines of 11 bytes each into one stream at once
# (prog_inline_stdio --threads-calls).  Every call counts; under
# ThreadSanitizer, two threads' calls noting the stream's buffer marks
# at once were a data race (the marks count nothing with threads).
run_traced "$T/stream.iolens" "$PROGS/prog_inline_stdio" --threads-calls "$T/stream" ||
    fail "prog_inline_stdio --threads-calls exited with status $?"
require_log "$T/stream.iolens"
check_eq 132000 "$(stat -c %s "$T/stream")" "size of $T/stream"
expect_counters "$T/stream.iolens" "$T/stream" <<END
STDIO_OPENS 1
STDIO_WRITES 12000
STDIO_BYTES_WRITTEN 132000
END

# 4 threads each make 500 files, stat them and open them again
# (prog_churn.c), in the default budget: the closed files' records are
# parked and unparked while the other threads open and close theirs.
# Every file must show exactly its calls, and nothing may fold.  The
# budget the run used is less than the 2000 files' entries and live POSIX
# records alone (96 + 896 bytes each): they were parked.
mkdir "$T/churn"
run_traced "$T/churn.iolens" "$PROGS/prog_churn" "$T/churn" 4 500 ||
    fail "prog_churn exited with status $?"
require_log "$T/churn.iolens"
check_eq 0 "$(header "$T/churn.iolens" "folded opens")" "opens folded by prog_churn"
check_gt $((2000 * (96 + 896))) "$(header "$T/churn.iolens" "memory used")" \
    "2000 files' entries and live records against the memory prog_churn used"
base_of "$T/churn.iolens" | awk -F'\t' -v d="$T/churn/t" '$1 == "POSIX" && index($6, d) == 1 &&
    ($4 == "POSIX_OPENS" || $4 == "POSIX_WRITES" || $4 == "POSIX_BYTES_WRITTEN" ||
     $4 == "POSIX_MAX_BYTE_WRITTEN" || $4 == "POSIX_STATS" || $4 == "POSIX_CONSEC_WRITES") {
        n[$4 " " $5]++ } END { for (k in n) print k, n[k] }' | sort >"$T/churn.txt"
cat >"$T/churn.expected" <<END
POSIX_BYTES_WRITTEN 15 2000
POSIX_CONSEC_WRITES 0 2000
POSIX_MAX_BYTE_WRITTEN 14 2000
POSIX_OPENS 2 2000
POSIX_STATS 2 2000
POSIX_WRITES 2 2000
END
if ! cmp -s "$T/churn.expected" "$T/churn.txt"; then
    diff "$T/churn.expected" "$T/churn.txt"
    fail "prog_churn's files: counters by value (counter value files)"
fi

# The same with 100 files a thread, then every thread stats all 400 files
# 5 times over (prog_churn's ROUNDS): the threads lock the same idle
# records while the pool parks them under them.  In 768 KiB the live
# records may take an eighth of it, 109 of 896 bytes, fewer than the
# 400 files: the others are parked.  The log shows it: the memory needed,
# which counts every POSIX record live, is above the memory used with
# nothing folded.  (In 384 KiB, which the budget alone showed too small
# for 400 live records, the parked forms' growth sometimes found no room
# under ThreadSanitizer and a few opens folded: iolens(7), MEMORY
# BUDGET.)  Under ThreadSanitizer (make check-tsan) this found the
# parking copying a record's lock word while another thread was taking
# the lock (4 runs of 4 at 768 KiB before the fix).  Each file: 2 opens,
# 2 writes, 15 bytes, and 1 + 1 + 4 * 5 = 22 stats.
mkdir "$T/churn_shared"
IOLENS_MEMORY=768K run_traced "$T/churn_shared.iolens" "$PROGS/prog_churn" "$T/churn_shared" \
    4 100 5 || fail "prog_churn with shared stats exited with status $?"
require_log "$T/churn_shared.iolens"
check_eq 0 "$(header "$T/churn_shared.iolens" "folded opens")" "opens folded by the shared stats"
check_gt "$(header "$T/churn_shared.iolens" "memory needed")" \
    "$(header "$T/churn_shared.iolens" "memory used")" \
    "memory needed (every record live) above the memory the shared stats used: records parked"
base_of "$T/churn_shared.iolens" | awk -F'\t' -v d="$T/churn_shared/t" '$1 == "POSIX" &&
    index($6, d) == 1 && ($4 == "POSIX_OPENS" || $4 == "POSIX_WRITES" ||
    $4 == "POSIX_BYTES_WRITTEN" || $4 == "POSIX_STATS") {
        n[$4 " " $5]++ } END { for (k in n) print k, n[k] }' | sort >"$T/churn_shared.txt"
cat >"$T/churn_shared.expected" <<END
POSIX_BYTES_WRITTEN 15 400
POSIX_OPENS 2 400
POSIX_STATS 22 400
POSIX_WRITES 2 400
END
if ! cmp -s "$T/churn_shared.expected" "$T/churn_shared.txt"; then
    diff "$T/churn_shared.expected" "$T/churn_shared.txt"
    fail "prog_churn's files with shared stats: counters by value (counter value files)"
fi
# The same 4 threads with 1500 files each in 256K, where most files fold
# into <other files>: a parked file revisited without room, or whose
# descriptor got no state, is folded whole (layers/park_pool.h), so every
# file kept apart still shows all of its calls, and the totals are the
# program's (before, 547 of 579 rows showed one open, one write and no
# stat).
mkdir "$T/churn_full"
IOLENS_MEMORY=256K run_traced "$T/churn_full.iolens" "$PROGS/prog_churn" "$T/churn_full" 4 1500 ||
    fail "prog_churn in 256K exited with status $?"
require_log "$T/churn_full.iolens"
base_of "$T/churn_full.iolens" | awk -F'\t' -v d="$T/churn_full/t" '$1 == "POSIX" &&
    index($6, d) == 1 && ($4 == "POSIX_OPENS" || $4 == "POSIX_WRITES" ||
    $4 == "POSIX_BYTES_WRITTEN" || $4 == "POSIX_STATS") {
        n[$4 " " $5]++ } END { for (k in n) print k, n[k] }' | sort >"$T/churn_full.txt"
kept=$(awk '$1 == "POSIX_OPENS" { print $3 }' "$T/churn_full.txt")
check_gt "$kept" 100 "files kept apart in 256K"
check_gt 6000 "$kept" "files kept apart in 256K, fewer than 6000"
cat >"$T/churn_full.expected" <<END
POSIX_BYTES_WRITTEN 15 $kept
POSIX_OPENS 2 $kept
POSIX_STATS 2 $kept
POSIX_WRITES 2 $kept
END
if ! cmp -s "$T/churn_full.expected" "$T/churn_full.txt"; then
    diff "$T/churn_full.expected" "$T/churn_full.txt"
    fail "prog_churn's files in 256K: every file kept apart has all of its calls"
fi
check_eq 12000 "$(total "$T/churn_full.iolens" POSIX_OPENS)" "total_POSIX_OPENS in 256K"
check_eq 12000 "$(total "$T/churn_full.iolens" POSIX_WRITES)" "total_POSIX_WRITES in 256K"
check_eq 12000 "$(total "$T/churn_full.iolens" POSIX_STATS)" "total_POSIX_STATS in 256K"
check_eq 90000 "$(total "$T/churn_full.iolens" POSIX_BYTES_WRITTEN)" "total_POSIX_BYTES_WRITTEN in 256K"
check_eq $((12000 - 2 * kept)) "$(header "$T/churn_full.iolens" "folded opens")" \
    "folded opens: every open not in a file's own row"
finish
