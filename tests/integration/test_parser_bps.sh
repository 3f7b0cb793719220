#!/bin/sh
# iolens-parser --bps and --timeseries on make_test_log --intervals, whose
# intervals (tests/integration/make_test_log.c, build_intervals) give these
# figures, all checked exactly:
#
#   POSIX, whole job: rank 0 [0.5, 1.0] [1.0, 1.25] [2.0, 2.5]; rank 1,
#     clock offset +0.5 s: [0.5, 1.0] [2.0, 2.25] -> [1.0, 1.5] [2.5, 2.75].
#     The spans cover [0.5, 1.5] + [2.0, 2.75] = 1.75 s, but rank 1's
#     [1.0, 1.5] holds two reads of 0.1875 s 0.125 s apart (busy 0.375,
#     error bound 0.125): the true union is 0.75 + 0.1875 + 0.75 =
#     T = 1.6875 s (1.25 s if the offset were not applied), within the
#     bounds [1.75 - 0.125, 1.75] = [1.625, 1.75], 7.4% of T apart: wide.
#     bytes 1835008 + 1052672 = 2887680, B = 2887680 / 512 = 5640, BPS =
#     5640 / 1.6875 = 3342.222222, bps_min 5640 / 1.75 = 3222.857143,
#     bps_max 5640 / 1.625 = 3470.769231.  MiB/s = 2887680 / 2^20 / 1.6875
#     = 1.631944.  Run time 3.5 s -> busy 0.482143.  Accesses 4 + 3
#     = 7, summed durations 1.25 + 0.625 = 1.875 -> IOPS 7 / 1.875 =
#     3.733333, conventional MiB/s 2887680 / 2^20 / 1.875 = 1.468750,
#     average response time 1.875 / 7 = 0.267857.
#   POSIX, "/home dir/in put.dat" (shared: a rank -1 record, and intervals
#     on ranks 0 and 1): intervals [0.5, 1.0] [2.0, 2.5] [1.0, 1.5]
#     [2.5, 2.75], busy 0.5 0.5 0.375 0.25, no two ranks' overlapping ->
#     T = 1.625 exactly (tight); bytes 1048576 + 262144 + 1048576 + 4096 =
#     2363392, B = 4616, BPS 4616 / 1.625 = 2840.615385; accesses 1 + 1 + 2 + 1 = 5; the summed access time is
#     the record's read + write time, 0.75 + 0.125 = 0.875 -> IOPS
#     5.714286, conventional MiB/s 2.575893, response time 0.175.
#   out.dat (rank 0 alone) and the STDIO file are not shared: no file rows.
#   STDIO, whole job: [0.25, 0.375], 100 bytes -> B = 0.195312 (not
#     rounded), T = 0.125, BPS 1.5625, busy 0.125 / 3.5 = 0.035714.
#   The unknown layer kind 99 in rank 1's region is skipped.
. "$(dirname "$0")/common.sh"

for var in IOLENS_PARSER IOLENS_TESTBIN; do
    eval "value=\${$var:-}"
    [ -n "$value" ] || { echo "SKIP: $var is not set (run through make check)"; exit 77; }
done
T=$(mktemp -d /tmp/iolens-test.XXXXXX) || exit 1
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
TZ=UTC
LC_ALL=C
export TZ LC_ALL
TAB=$(printf '\t')

log=$T/iv.iolens
plain=$T/plain.iolens
IOLENS_DISABLE=1 "$IOLENS_TESTBIN/integration/make_test_log" --intervals "$log" ||
    fail "make_test_log --intervals failed"
IOLENS_DISABLE=1 "$IOLENS_TESTBIN/integration/make_test_log" "$plain" ||
    fail "make_test_log failed"

same() {
    if diff -u "$1" "$2" >"$T/diff"; then
        pass
    else
        fail "$3:"
        cat "$T/diff"
    fi
}

# Runs the parser; expects status 0, an empty stderr, and the same header
# lines as --base; leaves the lines after the header in $T/body.
run_parser() {
    "$IOLENS_PARSER" "$@" >"$T/out" 2>"$T/err"
    check_eq 0 "$?" "exit status of iolens-parser $*"
    check_eq "" "$(cat "$T/err")" "stderr of iolens-parser $*"
    last=$(eval echo "\${$#}")
    "$IOLENS_PARSER" --base "$last" | grep '^# [a-z]' | grep -v '^# bps\|^# timeseries' \
        >"$T/header.expected"
    n=$(wc -l <"$T/header.expected")
    head -n "$n" "$T/out" >"$T/header"
    same "$T/header.expected" "$T/header" "header of iolens-parser $*"
    tail -n +"$((n + 1))" "$T/out" >"$T/body"
}

# ----------------------------------------------------------------- --bps --
# Each layer's read_* and write_* lines are the union of its read-only
# (write-only) intervals: POSIX reads [0.5, 1.0], [1.0, 1.5] (busy 0.375)
# and the failed [2.5, 2.75] (rank 1's on rank 0's clock) give 1.125 s;
# writes [1.0, 1.25] and [2.0, 2.5] give 0.75 s.
cat >"$T/bps.expected" <<'END'
# bps block size: 512
# bps rank 0: clock offset 0.000000000 uncertainty 0.000001000
# bps rank 1: clock offset 0.500000000 uncertainty 0.000002000
#<layer>	<file>	<metric>	<value>
POSIX	*	intervals	5
POSIX	*	accesses	7
POSIX	*	bytes	2887680
POSIX	*	block_size	512
POSIX	*	blocks	5640.000000
POSIX	*	time	1.687500
POSIX	*	time_lower	1.625000
POSIX	*	time_upper	1.750000
POSIX	*	time_bounds	wide
POSIX	*	error_bound	0.125000
POSIX	*	bps	3342.222222
POSIX	*	bps_min	3222.857143
POSIX	*	bps_max	3470.769231
POSIX	*	mib_per_s	1.631944
POSIX	*	mib_per_s_min	1.573661
POSIX	*	mib_per_s_max	1.694712
POSIX	*	busy_fraction	0.482143
POSIX	*	access_time	1.875000
POSIX	*	iops	3.733333
POSIX	*	conv_mib_per_s	1.468750
POSIX	*	avg_response_time	0.267857
POSIX	*	mixed_intervals	0
POSIX	*	read_intervals	3
POSIX	*	read_accesses	4
POSIX	*	read_bytes	2101248
POSIX	*	read_time	1.125000
POSIX	*	read_mib_per_s	1.781250
POSIX	*	read_rw_merged	0
POSIX	*	write_intervals	2
POSIX	*	write_accesses	3
POSIX	*	write_bytes	786432
POSIX	*	write_time	0.750000
POSIX	*	write_mib_per_s	1.000000
POSIX	*	write_rw_merged	0
POSIX	/home dir/in put.dat	intervals	4
POSIX	/home dir/in put.dat	accesses	5
POSIX	/home dir/in put.dat	bytes	2363392
POSIX	/home dir/in put.dat	block_size	512
POSIX	/home dir/in put.dat	blocks	4616.000000
POSIX	/home dir/in put.dat	time	1.625000
POSIX	/home dir/in put.dat	time_lower	1.625000
POSIX	/home dir/in put.dat	time_upper	1.625000
POSIX	/home dir/in put.dat	time_bounds	tight
POSIX	/home dir/in put.dat	error_bound	0.125000
POSIX	/home dir/in put.dat	bps	2840.615385
POSIX	/home dir/in put.dat	bps_min	2840.615385
POSIX	/home dir/in put.dat	bps_max	2840.615385
POSIX	/home dir/in put.dat	mib_per_s	1.387019
POSIX	/home dir/in put.dat	mib_per_s_min	1.387019
POSIX	/home dir/in put.dat	mib_per_s_max	1.387019
POSIX	/home dir/in put.dat	busy_fraction	0.464286
POSIX	/home dir/in put.dat	access_time	0.875000
POSIX	/home dir/in put.dat	iops	5.714286
POSIX	/home dir/in put.dat	conv_mib_per_s	2.575893
POSIX	/home dir/in put.dat	avg_response_time	0.175000
STDIO	*	intervals	1
STDIO	*	accesses	1
STDIO	*	bytes	100
STDIO	*	block_size	512
STDIO	*	blocks	0.195312
STDIO	*	time	0.125000
STDIO	*	time_lower	0.125000
STDIO	*	time_upper	0.125000
STDIO	*	time_bounds	tight
STDIO	*	error_bound	0.000000
STDIO	*	bps	1.562500
STDIO	*	bps_min	1.562500
STDIO	*	bps_max	1.562500
STDIO	*	mib_per_s	0.000763
STDIO	*	mib_per_s_min	0.000763
STDIO	*	mib_per_s_max	0.000763
STDIO	*	busy_fraction	0.035714
STDIO	*	access_time	0.125000
STDIO	*	iops	8.000000
STDIO	*	conv_mib_per_s	0.000763
STDIO	*	avg_response_time	0.125000
STDIO	*	mixed_intervals	0
STDIO	*	read_intervals	1
STDIO	*	read_accesses	1
STDIO	*	read_bytes	100
STDIO	*	read_time	0.125000
STDIO	*	read_mib_per_s	0.000763
STDIO	*	read_rw_merged	0
STDIO	*	write_intervals	0
STDIO	*	write_accesses	0
STDIO	*	write_bytes	0
STDIO	*	write_time	0.000000
STDIO	*	write_mib_per_s	-
STDIO	*	write_rw_merged	0
END
run_parser --bps "$log"
same "$T/bps.expected" "$T/body" "--bps"

# --block-size changes B and every rate built on it, nothing else.
run_parser --bps --block-size 4096 "$log"
grep -E '	(block_size|blocks|bps|bps_min|bps_max|time)	' "$T/body" >"$T/bs"
cat >"$T/bs.expected" <<'END'
POSIX	*	block_size	4096
POSIX	*	blocks	705.000000
POSIX	*	time	1.687500
POSIX	*	bps	417.777778
POSIX	*	bps_min	402.857143
POSIX	*	bps_max	433.846154
POSIX	/home dir/in put.dat	block_size	4096
POSIX	/home dir/in put.dat	blocks	577.000000
POSIX	/home dir/in put.dat	time	1.625000
POSIX	/home dir/in put.dat	bps	355.076923
POSIX	/home dir/in put.dat	bps_min	355.076923
POSIX	/home dir/in put.dat	bps_max	355.076923
STDIO	*	block_size	4096
STDIO	*	blocks	0.024414
STDIO	*	time	0.125000
STDIO	*	bps	0.195312
STDIO	*	bps_min	0.195312
STDIO	*	bps_max	0.195312
END
same "$T/bs.expected" "$T/bs" "--bps --block-size 4096"
check_eq "# bps block size: 4096" "$(head -n 1 "$T/body")" "--block-size in the bps header"
# Options may come after the log too (getopt permutes).
"$IOLENS_PARSER" "$log" --block-size=1 --bps >"$T/out2" 2>"$T/err"
check_eq 0 "$?" "exit status of --block-size=1 after the log"
check_eq "POSIX${TAB}*${TAB}bps${TAB}1711217.777778" \
    "$(grep "^POSIX	\*	bps	" "$T/out2")" "BPS with 1-byte blocks (2887680 / 1.6875)"

# A log without intervals: the bps header and nothing else.
run_parser --bps "$plain"
printf '# bps block size: 512\n#<layer>\t<file>\t<metric>\t<value>\n' \
    >"$T/empty.expected"
same "$T/empty.expected" "$T/body" "--bps on a log without intervals"

# --intervals-extra adds rank 2 (clock offset -0.25 s; make_test_log.c,
# build_intervals_extra): [2.75, 3.0] of out.dat, 1024 bytes of merged
# reads and writes, and [3.0, 3.125] merged across files (id 1, MIXED),
# 2048 bytes; MPI-IO [2.75, 3.25] of ckpt.dat, 4096 bytes, and two reads
# of 512 bytes, [3.5, 3.625] and [3.75, 3.875], of an unnamed file that
# only rank 2 accessed.
#   MPIIO: T = 0.5 + 0.125 + 0.125 = 0.75, B = 5120 / 512 = 10, BPS
#     13.333333; the unnamed file has two intervals but one rank and no
#     reduced record: not shared, no file row.
#   POSIX: spans [0.5, 1.5] + [2.0, 3.125] = 2.125, T = 1.6875 + 0.375 =
#     2.0625 within [2.0, 2.125]; bytes 2887680 + 3072 = 2890752, B = 5646,
#     BPS 5646 / 2.0625 = 2737.454545, bps_max 5646 / 2 = 2823; accesses 11, access time 1.875 + 0.3125 = 2.1875; one mixed
#     interval, which counts for the layer but for no file.
#   out.dat: shared by its intervals alone (on ranks 0 and 2; its only
#     record is rank 0's): [1.0, 1.25] + [2.75, 3.0], T = 0.5, bytes
#     524288 + 1024, B = 1026, exact (tight): bps_max 1026 / 0.5; access
#     time 1.25, its record's write time.
#   ckpt.dat: shared by its record (rank -1), intervals on one rank only.
extra=$T/extra.iolens
IOLENS_DISABLE=1 "$IOLENS_TESTBIN/integration/make_test_log" --intervals --intervals-extra \
    "$extra" || fail "make_test_log --intervals --intervals-extra failed"
cat >"$T/extra.expected" <<'END'
# bps block size: 512
# bps rank 0: clock offset 0.000000000 uncertainty 0.000001000
# bps rank 1: clock offset 0.500000000 uncertainty 0.000002000
# bps rank 2: clock offset -0.250000000 uncertainty 0.000004000
#<layer>	<file>	<metric>	<value>
POSIX	*	intervals	7
POSIX	*	accesses	11
POSIX	*	bytes	2890752
POSIX	*	block_size	512
POSIX	*	blocks	5646.000000
POSIX	*	time	2.062500
POSIX	*	time_lower	2.000000
POSIX	*	time_upper	2.125000
POSIX	*	time_bounds	wide
POSIX	*	error_bound	0.125000
POSIX	*	bps	2737.454545
POSIX	*	bps_min	2656.941176
POSIX	*	bps_max	2823.000000
POSIX	*	mib_per_s	1.336648
POSIX	*	mib_per_s_min	1.297335
POSIX	*	mib_per_s_max	1.378418
POSIX	*	busy_fraction	0.589286
POSIX	*	access_time	2.187500
POSIX	*	iops	5.028571
POSIX	*	conv_mib_per_s	1.260268
POSIX	*	avg_response_time	0.198864
POSIX	*	mixed_intervals	1
POSIX	*	read_intervals	3
POSIX	*	read_accesses	4
POSIX	*	read_bytes	2101248
POSIX	*	read_time	1.125000
POSIX	*	read_mib_per_s	1.781250
POSIX	*	read_rw_merged	1
POSIX	*	write_intervals	3
POSIX	*	write_accesses	5
POSIX	*	write_bytes	788480
POSIX	*	write_time	0.875000
POSIX	*	write_mib_per_s	0.859375
POSIX	*	write_rw_merged	1
POSIX	/scratch/run/out.dat	intervals	2
POSIX	/scratch/run/out.dat	accesses	4
POSIX	/scratch/run/out.dat	bytes	525312
POSIX	/scratch/run/out.dat	block_size	512
POSIX	/scratch/run/out.dat	blocks	1026.000000
POSIX	/scratch/run/out.dat	time	0.500000
POSIX	/scratch/run/out.dat	time_lower	0.500000
POSIX	/scratch/run/out.dat	time_upper	0.500000
POSIX	/scratch/run/out.dat	time_bounds	tight
POSIX	/scratch/run/out.dat	error_bound	0.125000
POSIX	/scratch/run/out.dat	bps	2052.000000
POSIX	/scratch/run/out.dat	bps_min	2052.000000
POSIX	/scratch/run/out.dat	bps_max	2052.000000
POSIX	/scratch/run/out.dat	mib_per_s	1.001953
POSIX	/scratch/run/out.dat	mib_per_s_min	1.001953
POSIX	/scratch/run/out.dat	mib_per_s_max	1.001953
POSIX	/scratch/run/out.dat	busy_fraction	0.142857
POSIX	/scratch/run/out.dat	access_time	1.250000
POSIX	/scratch/run/out.dat	iops	3.200000
POSIX	/scratch/run/out.dat	conv_mib_per_s	0.400781
POSIX	/scratch/run/out.dat	avg_response_time	0.312500
MPIIO	*	intervals	3
MPIIO	*	accesses	3
MPIIO	*	bytes	5120
MPIIO	*	block_size	512
MPIIO	*	blocks	10.000000
MPIIO	*	time	0.750000
MPIIO	*	time_lower	0.750000
MPIIO	*	time_upper	0.750000
MPIIO	*	time_bounds	tight
MPIIO	*	error_bound	0.000000
MPIIO	*	bps	13.333333
MPIIO	*	bps_min	13.333333
MPIIO	*	bps_max	13.333333
MPIIO	*	mib_per_s	0.006510
MPIIO	*	mib_per_s_min	0.006510
MPIIO	*	mib_per_s_max	0.006510
MPIIO	*	busy_fraction	0.214286
MPIIO	*	access_time	0.750000
MPIIO	*	iops	4.000000
MPIIO	*	conv_mib_per_s	0.006510
MPIIO	*	avg_response_time	0.250000
MPIIO	*	mixed_intervals	0
MPIIO	*	read_intervals	2
MPIIO	*	read_accesses	2
MPIIO	*	read_bytes	1024
MPIIO	*	read_time	0.250000
MPIIO	*	read_mib_per_s	0.003906
MPIIO	*	read_rw_merged	0
MPIIO	*	write_intervals	1
MPIIO	*	write_accesses	1
MPIIO	*	write_bytes	4096
MPIIO	*	write_time	0.500000
MPIIO	*	write_mib_per_s	0.007812
MPIIO	*	write_rw_merged	0
MPIIO	/scratch/run/ckpt.dat	intervals	1
MPIIO	/scratch/run/ckpt.dat	accesses	1
MPIIO	/scratch/run/ckpt.dat	bytes	4096
MPIIO	/scratch/run/ckpt.dat	block_size	512
MPIIO	/scratch/run/ckpt.dat	blocks	8.000000
MPIIO	/scratch/run/ckpt.dat	time	0.500000
MPIIO	/scratch/run/ckpt.dat	time_lower	0.500000
MPIIO	/scratch/run/ckpt.dat	time_upper	0.500000
MPIIO	/scratch/run/ckpt.dat	time_bounds	tight
MPIIO	/scratch/run/ckpt.dat	error_bound	0.000000
MPIIO	/scratch/run/ckpt.dat	bps	16.000000
MPIIO	/scratch/run/ckpt.dat	bps_min	16.000000
MPIIO	/scratch/run/ckpt.dat	bps_max	16.000000
MPIIO	/scratch/run/ckpt.dat	mib_per_s	0.007812
MPIIO	/scratch/run/ckpt.dat	mib_per_s_min	0.007812
MPIIO	/scratch/run/ckpt.dat	mib_per_s_max	0.007812
MPIIO	/scratch/run/ckpt.dat	busy_fraction	0.142857
MPIIO	/scratch/run/ckpt.dat	access_time	0.500000
MPIIO	/scratch/run/ckpt.dat	iops	2.000000
MPIIO	/scratch/run/ckpt.dat	conv_mib_per_s	0.007812
MPIIO	/scratch/run/ckpt.dat	avg_response_time	0.500000
END
run_parser --bps "$extra"
# in put.dat's and STDIO's lines are as without rank 2 (checked above).
grep -v 'in put\.dat\|^STDIO' "$T/body" >"$T/extra"
same "$T/extra.expected" "$T/extra" "--bps with rank 2's intervals"
grep 'in put\.dat\|^STDIO' "$T/bps.expected" >"$T/unchanged.expected"
grep 'in put\.dat\|^STDIO' "$T/body" >"$T/unchanged"
same "$T/unchanged.expected" "$T/unchanged" "--bps of in put.dat and STDIO with rank 2's intervals"

# ---------------------------------------------------------- --timeseries --
# Default bin 1 s.  Rank 0's [0.5, 1.0] read ends on a bin edge: all in
# bin 0.  Rank 1's [1.0, 1.5] (after the offset) in bin 1, its failed
# [2.5, 2.75] read of 4096 bytes in bin 2 (failed accesses count, like B).
cat >"$T/ts1.expected" <<'END'
# timeseries bin: 1.000000000
#<layer>	<rank>	<bin>	<start>	<end>	<bytes_read>	<bytes_written>	<bytes_read_write>
POSIX	all	0	0.000000	1.000000	1048576	0	0
POSIX	all	1	1.000000	2.000000	1048576	524288	0
POSIX	all	2	2.000000	3.000000	4096	262144	0
POSIX	0	0	0.000000	1.000000	1048576	0	0
POSIX	0	1	1.000000	2.000000	0	524288	0
POSIX	0	2	2.000000	3.000000	0	262144	0
POSIX	1	1	1.000000	2.000000	1048576	0	0
POSIX	1	2	2.000000	3.000000	4096	0	0
STDIO	all	0	0.000000	1.000000	100	0	0
STDIO	0	0	0.000000	1.000000	100	0	0
END
run_parser --timeseries "$log"
same "$T/ts1.expected" "$T/body" "--timeseries (1 s bins)"

# 0.25 s bins: an interval spanning two bins splits its bytes in
# proportion to the time in each; bins without bytes are left out.
cat >"$T/ts025.expected" <<'END'
# timeseries bin: 0.250000000
#<layer>	<rank>	<bin>	<start>	<end>	<bytes_read>	<bytes_written>	<bytes_read_write>
POSIX	all	2	0.500000	0.750000	524288	0	0
POSIX	all	3	0.750000	1.000000	524288	0	0
POSIX	all	4	1.000000	1.250000	524288	524288	0
POSIX	all	5	1.250000	1.500000	524288	0	0
POSIX	all	8	2.000000	2.250000	0	131072	0
POSIX	all	9	2.250000	2.500000	0	131072	0
POSIX	all	10	2.500000	2.750000	4096	0	0
POSIX	0	2	0.500000	0.750000	524288	0	0
POSIX	0	3	0.750000	1.000000	524288	0	0
POSIX	0	4	1.000000	1.250000	0	524288	0
POSIX	0	8	2.000000	2.250000	0	131072	0
POSIX	0	9	2.250000	2.500000	0	131072	0
POSIX	1	4	1.000000	1.250000	524288	0	0
POSIX	1	5	1.250000	1.500000	524288	0	0
POSIX	1	10	2.500000	2.750000	4096	0	0
STDIO	all	1	0.250000	0.500000	100	0	0
STDIO	0	1	0.250000	0.500000	100	0	0
END
run_parser --timeseries --bin 0.25 "$log"
same "$T/ts025.expected" "$T/body" "--timeseries --bin 0.25"

# Bins that cut intervals at inexact fractions: the pieces are integers
# that still add up to every byte, per layer for the job and per rank.
run_parser --timeseries --bin 0.3 "$log"
sums=$(awk -F'\t' '!/^#/ { s[$1 " " $2] += $6 + $7 + $8 }
    END { printf "%s %s %s %s", s["POSIX all"], s["POSIX 0"], s["POSIX 1"], s["STDIO all"] }' \
    "$T/body")
check_eq "2887680 1835008 1052672 100" "$sums" "bytes in 0.3 s bins (job, rank 0, rank 1, STDIO)"
check_eq 0 "$(awk -F'\t' '!/^#/ && ($6 < 0 || $7 < 0 || $8 < 0)' "$T/body" | wc -l)" \
    "negative byte counts in 0.3 s bins"
check_eq "POSIX${TAB}all${TAB}1${TAB}0.300000${TAB}0.600000${TAB}209715${TAB}0${TAB}0" \
    "$(grep "^POSIX	all	1	" "$T/body")" "first 0.3 s bin: 0.1 / 0.5 of 1048576, rounded down"

# Rank 2's merged read and write (1024 bytes) has no direction: the third
# column.  The MPI-IO interval [2.75, 3.25] is cut in half by a bin edge.
cat >"$T/tsx.expected" <<'END'
POSIX	all	2	2.000000	3.000000	4096	262144	1024
POSIX	all	3	3.000000	4.000000	0	2048	0
POSIX	2	2	2.000000	3.000000	0	0	1024
POSIX	2	3	3.000000	4.000000	0	2048	0
MPIIO	all	2	2.000000	3.000000	0	2048	0
MPIIO	all	3	3.000000	4.000000	1024	2048	0
MPIIO	2	2	2.000000	3.000000	0	2048	0
MPIIO	2	3	3.000000	4.000000	1024	2048	0
END
run_parser --timeseries "$extra"
grep -E '^(POSIX	(all|2)	[23]|MPIIO)	' "$T/body" >"$T/tsx"
same "$T/tsx.expected" "$T/tsx" "--timeseries with rank 2's intervals"
check_eq 17 "$(grep -vc '^#' "$T/body")" "--timeseries lines with rank 2's intervals"

run_parser --timeseries "$plain"
printf '# timeseries bin: 1.000000000\n#<layer>\t<rank>\t<bin>\t<start>\t<end>\t<bytes_read>\t<bytes_written>\t<bytes_read_write>\n' \
    >"$T/tsempty.expected"
same "$T/tsempty.expected" "$T/body" "--timeseries on a log without intervals"

# ---------------------------------------------------------------- errors --
# Usage errors: status 1, nothing on stdout, the reason first on stderr.
expect_usage_error() {
    reason=$1
    shift
    "$IOLENS_PARSER" "$@" >"$T/out" 2>"$T/err"
    check_eq 1 "$?" "exit status of iolens-parser $*"
    check_eq 0 "$(wc -c <"$T/out")" "stdout bytes of iolens-parser $*"
    check_eq "iolens-parser: $reason" "$(head -n 1 "$T/err")" "message of iolens-parser $*"
}
bs_msg="--block-size wants a whole number of bytes from 1 to 2^40, not"
for bad in 0 -1 abc 12x "" 1099511627777 99999999999999999999999; do
    expect_usage_error "$bs_msg '$bad'" --bps --block-size "$bad" "$log"
done
bin_msg="--bin wants a number of seconds of at least 1e-9, not"
for bad in 0 -1 abc 1s "" nan inf 1e-10 1e400; do
    expect_usage_error "$bin_msg '$bad'" --timeseries --bin "$bad" "$log"
done
expect_usage_error "option '--block-size' needs a value" --bps --block-size
expect_usage_error "option '--bin' needs a value" --timeseries --bin
expect_usage_error "--block-size goes with --bps, --json or --summary" --block-size 512 "$log"
expect_usage_error "--block-size goes with --bps, --json or --summary" --timeseries --block-size 512 "$log"
expect_usage_error "--bin goes with --timeseries" --bps --bin 1 "$log"
expect_usage_error "--bin goes with --timeseries" --total --bin 1 "$log"
expect_usage_error "give at most one of --base, --total, --file, --stack, --bps, --timeseries, \
--perf, --patterns, --json, --csv, --summary, --advice, --sites, --list-counters" --bps --timeseries "$log"
expect_usage_error "expected at least one LOG argument" --bps
expect_usage_error "--list-counters takes no LOG argument" --list-counters "$log"

# Too fine a bin for the log: refused before anything large is allocated
# (2.75 s of intervals at 1 ns is 2.75e9 pieces, above the 2^22 limit).
"$IOLENS_PARSER" --timeseries --bin 1e-9 "$log" >"$T/out" 2>"$T/err"
check_eq 1 "$?" "exit status of --bin 1e-9"
check_eq "iolens-parser: $log: --bin 1e-09 makes more than 4194304 bin pieces; use a wider bin" \
    "$(cat "$T/err")" "message of --bin 1e-9"
check_eq 0 "$(grep -vc '^#' "$T/out")" "data lines of --bin 1e-9"
# A fine bin within the limit: 0.1 ms bins, 20000 POSIX pieces.
run_parser --timeseries --bin 0.0001 "$log"
sum=$(awk -F'\t' '!/^#/ && $1 == "POSIX" && $2 == "all" { s += $6 + $7 + $8 } END { print s }' \
    "$T/body")
check_eq 2887680 "$sum" "POSIX bytes in 0.1 ms bins"

# A damaged log: status 2 in both modes, as in every other mode.
head -c 200 "$log" >"$T/short"
for mode in --bps --timeseries; do
    "$IOLENS_PARSER" $mode "$T/short" >"$T/out" 2>"$T/err"
    check_eq 2 "$?" "exit status of $mode on a truncated log"
    check_eq 0 "$(wc -c <"$T/out")" "stdout bytes of $mode on a truncated log"
done

# Ranks of one node read one clock: with both ranks on node001, rank 1's
# estimated offset of 0.5 s is not applied, and T is the union of the
# unshifted POSIX intervals, 1.25 s (make_test_log.c, build_intervals).
onenode=$T/onenode.iolens
IOLENS_DISABLE=1 "$IOLENS_TESTBIN/integration/make_test_log" --intervals --one-node "$onenode" ||
    fail "make_test_log --intervals --one-node failed"
check_eq "POSIX${TAB}*${TAB}time${TAB}1.250000" \
    "$("$IOLENS_PARSER" --bps "$onenode" | awk -F'\t' '$1 == "POSIX" && $2 == "*" && $3 == "time"')" \
    "POSIX union with the ranks on one node (offsets not applied)"
finish
