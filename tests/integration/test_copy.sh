#!/bin/sh
# In-kernel copies (copy_file_range, sendfile, splice): the bytes count as
# a read on the source and a write on the destination, but the call's time
# is charged once (split between the two; iolens(7)), so no share of the
# run time exceeds 100%.
. "$(dirname "$0")/common.sh"
iolens_setup
if ! command -v strace >/dev/null 2>&1; then
    echo "SKIP: strace is needed to measure the copy calls' time"
    exit 77
fi

# A real figure of FILE's record, in microseconds (the parser prints 6
# decimals), so that sums compare exactly.
usec() {
    counter "$1" "$2" "$3" | awk '{ printf "%.0f\n", $1 * 1e6 }'
}

# coreutils cp copies with copy_file_range; strace -T times every call.
src=$T/src
dst=$T/dst
log=$T/cp.iolens
size=52428800
head -c $size /dev/zero >"$src" || fail "cannot make the source"
# strace runs outside the traced process, or its own log would replace cp's.
strace -f -qq -T -e trace=copy_file_range -o "$T/strace" \
    env IOLENS_NONMPI=1 IOLENS_LOGFILE="$log" LD_PRELOAD="$IOLENS_LIB" cp "$src" "$dst" ||
    fail "traced cp exited with status $?"
require_log "$log"
calls=$(grep -c 'copy_file_range(' "$T/strace")
if [ "$calls" -eq 0 ]; then
    echo "SKIP: this cp does not use copy_file_range"
    exit 77
fi
check_eq $size "$(stat -c %s "$dst")" "size of the copy"
expect_counters "$log" "$src" <<END
POSIX_BYTES_READ $size
POSIX_BYTES_WRITTEN 0
POSIX_READS $calls
END
expect_counters "$log" "$dst" <<END
POSIX_BYTES_WRITTEN $size
POSIX_BYTES_READ 0
POSIX_WRITES $calls
END

# Read time + write time is the calls' time: no more than the span from
# the first call's start to the last one's end (the log's own timestamps),
# and no less than what strace measured inside the calls.
rtime=$(usec "$log" "$src" POSIX_F_READ_TIME)
wtime=$(usec "$log" "$dst" POSIX_F_WRITE_TIME)
first=$(usec "$log" "$src" POSIX_F_READ_START_TIMESTAMP)
last=$(usec "$log" "$dst" POSIX_F_WRITE_END_TIMESTAMP)
strace_us=$(sed -n 's/.*copy_file_range(.*<\([0-9.]*\)>$/\1/p' "$T/strace" |
    awk '{ s += $1 } END { printf "%.0f\n", s * 1e6 }')
check_le $((rtime + wtime)) $((last - first + 2)) "read + write time (us) within the calls' span"
check_le "$strace_us" $((rtime + wtime + 2)) "strace's copy_file_range time (us) within read + write time"
check_eq 0 "$(usec "$log" "$src" POSIX_F_WRITE_TIME)" "write time of the source"
check_eq 0 "$(usec "$log" "$dst" POSIX_F_READ_TIME)" "read time of the destination"

"$IOLENS_PARSER" --perf "$log" >"$T/perf" || fail "iolens-parser --perf"
# The union of the access intervals is the same time once: the read's and
# the write's intervals of a call follow the split and do not overlap.
union_us=$(awk -F'\t' '$1 == "POSIX" && $2 == "union_time" { printf "%.0f\n", $3 * 1e6 }' "$T/perf")
check_le $((rtime + wtime)) $((union_us + 3)) "read + write time (us) within the intervals' union"
check_le "$union_us" $((rtime + wtime + 3)) "the intervals' union (us) within read + write time"
for layer in POSIX job; do
    pct=$(awk -F'\t' -v l=$layer '$1 == l && $2 == "io_pct_of_runtime" { print $3 }' "$T/perf")
    check_le "$pct" 100 "$layer io_pct_of_runtime"
    check_gt "$pct" 0 "$layer io_pct_of_runtime"
done

# splice through a pipe (each call has one file side) and sendfile (both
# sides files) move 4096 + 1000 bytes; the pipe is never a record.
src2=$T/src2
dst2=$T/dst2
log2=$T/splice.iolens
head -c 8192 /dev/zero >"$src2" || fail "cannot make the second source"
out=$(run_traced "$log2" "$PROGS/prog_copy" "$src2" "$dst2") ||
    fail "prog_copy exited with status $?"
check_eq "4096 4096 1000" "$(echo $out)" "bytes prog_copy's calls moved"
require_log "$log2"
check_eq 5096 "$(stat -c %s "$dst2")" "size of the spliced copy"
expect_counters "$log2" "$src2" <<END
POSIX_READS 2
POSIX_BYTES_READ 5096
POSIX_MAX_BYTE_READ 5095
POSIX_WRITES 0
END
expect_counters "$log2" "$dst2" <<END
POSIX_WRITES 2
POSIX_BYTES_WRITTEN 5096
POSIX_MAX_BYTE_WRITTEN 5095
POSIX_READS 0
END
finish
