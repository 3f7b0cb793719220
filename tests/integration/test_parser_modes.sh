#!/bin/sh
# iolens-parser's output modes on a log of known content (make_test_log):
# the header lines, every nonzero --base line, every nonzero --total value
# and the --file table, all compared exactly.  Zero-valued lines are
# checked by count, so a counter added to log_format.h needs no edit here.
# The log is an MPI job's: a ranks region, two names and two POSIX regions
# (which must be concatenated), shared records (rank -1) with their
# sharing counters, an MPI-IO record, and a region of unknown kind, which
# must be skipped.
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

log=$T/known.iolens
IOLENS_DISABLE=1 "$IOLENS_TESTBIN/integration/make_test_log" "$log" || fail "make_test_log failed"

# Compares two files; on a difference shows it and records a failure.
same() {
    if diff -u "$1" "$2" >"$T/diff"; then
        pass
    else
        fail "$3:"
        cat "$T/diff"
    fi
}

run_parser() {
    "$IOLENS_PARSER" "$@" >"$T/out" 2>"$T/err"
    status=$?
    check_eq 0 "$status" "exit status of iolens-parser $*"
    check_eq "" "$(cat "$T/err")" "stderr of iolens-parser $*"
}

nonzero() {
    grep -v '^#' "$1" | awk -F'\t' '$5 != "0" && $5 != "0.000000"'
}

# ------------------------------------------------------------------ header --
cat >"$T/header.expected" <<END
# iolens log format version: 3
# exe: /opt/app/bin/sim -n 4 in put.dat
# uid: 1000
# user: alice
# jobid: 4242
# start_time: 1700000000.250000000 (2023-11-14 22:13:20 UTC)
# end_time: 1700000003.750000000 (2023-11-14 22:13:23 UTC)
# run_time: 3.500000
# nprocs: 4
# nnodes: 2
# pid: 4321
# hosts: node001 node002
# iolens version: 0.1.0-test
# mpi library: MPICH Version: 4.1.2
# memory budget: 2097152
# memory used: 65536
# memory needed: 65536
# folded files: 0
# folded opens: 0
# unknown regions skipped: 1
# mount: /${TAB}ext4${TAB}4096
# mount: /scratch${TAB}lustre${TAB}1048576
# mount: /scratch/runs${TAB}xfs${TAB}4096
# mount: /home dir${TAB}nfs4${TAB}0
# rank 0: host node001 start 1700000000.250000 end 1700000003.500000
# rank 1: host node001 start 1700000000.500000 end 1700000003.625000
# rank 2: host node002 start 1700000000.750000 end 1700000003.750000
# rank 3: host node002 start 1700000001.000000 end 1700000003.875000
END
nheader=$(wc -l <"$T/header.expected")

# Default mode is --base.
run_parser "$log"
cp "$T/out" "$T/default"
run_parser --base "$log"
cp "$T/out" "$T/base"
same "$T/base" "$T/default" "output without a mode differs from --base"
head -n "$nheader" "$T/base" >"$T/header"
same "$T/header.expected" "$T/header" "--base header"

# A forked child's log names its parent, right after the pid.
IOLENS_DISABLE=1 "$IOLENS_TESTBIN/integration/make_test_log" --forked "$T/forked.iolens" ||
    fail "make_test_log --forked failed"
"$IOLENS_PARSER" "$T/forked.iolens" | sed -n '11,13p' >"$T/forked"
printf '# pid: 4321\n# parent_pid: 4000\n# hosts: node001 node002\n' >"$T/forked.expected"
same "$T/forked.expected" "$T/forked" "header of a forked child's log"

# -------------------------------------------------------------------- base --
"$IOLENS_PARSER" --list-counters >"$T/counters" || fail "--list-counters failed"
nposix=$(grep -c '^POSIX	' "$T/counters")
nstdio=$(grep -c '^STDIO	' "$T/counters")
nmpiio=$(grep -c '^MPIIO	' "$T/counters")

check_eq "#<layer>${TAB}<rank>${TAB}<record id>${TAB}<counter>${TAB}<value>${TAB}<file name>${TAB}<mount pt>${TAB}<fs type>" \
    "$(sed -n "$((nheader + 1))p" "$T/base")" "--base column line"
check_eq "$((nheader + 1 + 2 * nposix + nstdio + nmpiio))" "$(wc -l <"$T/base")" "--base line count"

# Every line of a record carries its file, mount point and file system.
grep -v '^#' "$T/base" | awk -F'\t' '{ print $1 "\t" $2 "\t" $3 "\t" $6 "\t" $7 "\t" $8 }' |
    sort | uniq -c | sed 's/^ *//' >"$T/tails"
cat >"$T/tails.expected" <<END
$nmpiio MPIIO	-1	6148914691236517205	/scratch/run/ckpt.dat	/scratch	lustre
$nposix POSIX	-1	2459565876494606882	/home dir/in put.dat	/home dir	nfs4
$nposix POSIX	0	1229782938247303441	/scratch/run/out.dat	/scratch	lustre
$nstdio STDIO	0	3689348814741910323	/tmp/cfg\\011file.txt	/	ext4
END
same "$T/tails.expected" "$T/tails" "record ids, file names, mount points"

out_rec() { printf 'POSIX\t0\t1229782938247303441\t%s\t%s\t/scratch/run/out.dat\t/scratch\tlustre\n' "$1" "$2"; }
in_rec() { printf 'POSIX\t-1\t2459565876494606882\t%s\t%s\t/home dir/in put.dat\t/home dir\tnfs4\n' "$1" "$2"; }
cfg_rec() { printf 'STDIO\t0\t3689348814741910323\t%s\t%s\t/tmp/cfg\\011file.txt\t/\text4\n' "$1" "$2"; }
ckpt_rec() { printf 'MPIIO\t-1\t6148914691236517205\t%s\t%s\t/scratch/run/ckpt.dat\t/scratch\tlustre\n' "$1" "$2"; }
each() {
    fn=$1
    shift
    while [ $# -gt 1 ]; do
        $fn "$1" "$2"
        shift 2
    done
}
{
    each out_rec POSIX_OPENS 1 POSIX_WRITES 1000 POSIX_STATS 1 POSIX_FSYNCS 1 POSIX_MODE 420 \
        POSIX_BYTES_WRITTEN 4088832 POSIX_MAX_BYTE_READ -1 POSIX_MAX_BYTE_WRITTEN 4088831 \
        POSIX_CONSEC_WRITES 999 POSIX_SEQ_WRITES 999 POSIX_MEM_ALIGNMENT 8 \
        POSIX_FILE_NOT_ALIGNED 999 POSIX_FILE_ALIGNMENT 1048576 \
        POSIX_SIZE_WRITE_100_1K 2 POSIX_SIZE_WRITE_1K_10K 998 \
        POSIX_STRIDE1_STRIDE 4096 POSIX_STRIDE2_STRIDE -4096 \
        POSIX_STRIDE1_COUNT 997 POSIX_STRIDE2_COUNT 2 \
        POSIX_ACCESS1_ACCESS 4096 POSIX_ACCESS2_ACCESS 512 \
        POSIX_ACCESS1_COUNT 998 POSIX_ACCESS2_COUNT 2 POSIX_MAX_WRITE_TIME_SIZE 4096 \
        POSIX_RANKS_OPENED 1 POSIX_RANKS_IO 1 POSIX_FASTEST_RANK_BYTES 4088832 \
        POSIX_SLOWEST_RANK_BYTES 4088832 \
        POSIX_F_OPEN_START_TIMESTAMP 0.001000 POSIX_F_WRITE_START_TIMESTAMP 0.003000 \
        POSIX_F_CLOSE_START_TIMESTAMP 1.600000 POSIX_F_OPEN_END_TIMESTAMP 0.002000 \
        POSIX_F_WRITE_END_TIMESTAMP 1.500000 POSIX_F_CLOSE_END_TIMESTAMP 1.601000 \
        POSIX_F_WRITE_TIME 1.250000 POSIX_F_META_TIME 0.010000 POSIX_F_MAX_WRITE_TIME 0.020000 \
        POSIX_F_FASTEST_RANK_TIME 1.260000 POSIX_F_SLOWEST_RANK_TIME 1.260000
    each in_rec POSIX_OPENS 2 POSIX_READS 11 POSIX_WRITES 2 POSIX_SEEKS 3 POSIX_MODE -1 \
        POSIX_BYTES_READ 10250 POSIX_BYTES_WRITTEN 200 POSIX_MAX_BYTE_READ 20479 \
        POSIX_MAX_BYTE_WRITTEN 199 POSIX_CONSEC_READS 4 POSIX_SEQ_READS 9 POSIX_RW_SWITCHES 1 \
        POSIX_MEM_ALIGNMENT 8 POSIX_SIZE_READ_0_100 1 POSIX_SIZE_READ_100_1K 10 \
        POSIX_SIZE_WRITE_0_100 2 POSIX_STRIDE1_STRIDE 2048 POSIX_STRIDE2_STRIDE 4096 \
        POSIX_STRIDE1_COUNT 5 POSIX_STRIDE2_COUNT 4 POSIX_STRIDE3_COUNT 1 \
        POSIX_ACCESS1_ACCESS 1024 POSIX_ACCESS2_ACCESS 100 POSIX_ACCESS3_ACCESS 10 \
        POSIX_ACCESS1_COUNT 10 POSIX_ACCESS2_COUNT 2 POSIX_ACCESS3_COUNT 1 \
        POSIX_MAX_READ_TIME_SIZE 1024 POSIX_MAX_WRITE_TIME_SIZE 100 \
        POSIX_RANKS_OPENED 4 POSIX_RANKS_IO 3 POSIX_FASTEST_RANK 2 POSIX_SLOWEST_RANK 1 \
        POSIX_SLOWEST_RANK_BYTES 10240 \
        POSIX_F_OPEN_START_TIMESTAMP 0.500000 POSIX_F_READ_START_TIMESTAMP 0.600000 \
        POSIX_F_WRITE_START_TIMESTAMP 2.100000 POSIX_F_CLOSE_START_TIMESTAMP 2.400000 \
        POSIX_F_OPEN_END_TIMESTAMP 2.500000 POSIX_F_READ_END_TIMESTAMP 2.000000 \
        POSIX_F_WRITE_END_TIMESTAMP 2.200000 POSIX_F_CLOSE_END_TIMESTAMP 2.600000 \
        POSIX_F_READ_TIME 0.750000 POSIX_F_WRITE_TIME 0.125000 POSIX_F_META_TIME 0.062500 \
        POSIX_F_MAX_READ_TIME 0.250000 POSIX_F_MAX_WRITE_TIME 0.062500 \
        POSIX_F_SLOWEST_RANK_TIME 0.625000 POSIX_F_VARIANCE_RANK_TIME 0.059326 \
        POSIX_F_VARIANCE_RANK_BYTES 19399518.750000
    each cfg_rec STDIO_OPENS 1 STDIO_READS 3 STDIO_SEEKS 1 STDIO_BYTES_READ 300 \
        STDIO_MAX_BYTE_READ 299 STDIO_MAX_BYTE_WRITTEN -1 \
        STDIO_RANKS_OPENED 1 STDIO_RANKS_IO 1 STDIO_FASTEST_RANK_BYTES 300 \
        STDIO_SLOWEST_RANK_BYTES 300 \
        STDIO_F_OPEN_START_TIMESTAMP 0.100000 STDIO_F_READ_START_TIMESTAMP 0.200000 \
        STDIO_F_CLOSE_START_TIMESTAMP 0.400000 STDIO_F_OPEN_END_TIMESTAMP 0.110000 \
        STDIO_F_READ_END_TIMESTAMP 0.300000 STDIO_F_CLOSE_END_TIMESTAMP 0.410000 \
        STDIO_F_READ_TIME 0.050000 STDIO_F_META_TIME 0.020000 \
        STDIO_F_FASTEST_RANK_TIME 0.070000 STDIO_F_SLOWEST_RANK_TIME 0.070000
    each ckpt_rec MPIIO_COLL_OPENS 2 MPIIO_COLL_WRITES 4 MPIIO_SYNCS 2 MPIIO_HINTS 2 \
        MPIIO_MODE 37 MPIIO_BYTES_WRITTEN 4194304 MPIIO_SIZE_WRITE_AGG_100K_1M 4 \
        MPIIO_ACCESS1_ACCESS 1048576 MPIIO_ACCESS1_COUNT 4 MPIIO_MAX_WRITE_TIME_SIZE 1048576 \
        MPIIO_RANKS_OPENED 2 MPIIO_RANKS_IO 2 MPIIO_FASTEST_RANK 1 \
        MPIIO_FASTEST_RANK_BYTES 2097152 MPIIO_SLOWEST_RANK 3 MPIIO_SLOWEST_RANK_BYTES 2097152 \
        MPIIO_F_OPEN_START_TIMESTAMP 1.000000 MPIIO_F_WRITE_START_TIMESTAMP 1.250000 \
        MPIIO_F_CLOSE_START_TIMESTAMP 2.000000 MPIIO_F_OPEN_END_TIMESTAMP 1.125000 \
        MPIIO_F_WRITE_END_TIMESTAMP 1.875000 MPIIO_F_CLOSE_END_TIMESTAMP 2.125000 \
        MPIIO_F_WRITE_TIME 0.500000 MPIIO_F_META_TIME 0.250000 MPIIO_F_MAX_WRITE_TIME 0.250000 \
        MPIIO_F_FASTEST_RANK_TIME 0.250000 MPIIO_F_SLOWEST_RANK_TIME 0.500000 \
        MPIIO_F_VARIANCE_RANK_TIME 0.015625
} >"$T/base.expected"
nonzero "$T/base" >"$T/base.nonzero"
same "$T/base.expected" "$T/base.nonzero" "nonzero --base lines"

# ------------------------------------------------------------------- total --
run_parser --total "$log"
cp "$T/out" "$T/total"
head -n "$nheader" "$T/total" >"$T/header"
same "$T/header.expected" "$T/header" "--total header"
check_eq "$((nheader + nposix + nstdio + nmpiio))" "$(wc -l <"$T/total")" "--total line count"
# Every counter of the log's layers once, in --list-counters order.
grep -v '^#' "$T/total" | sed 's/^total_\([A-Z0-9_]*\): .*/\1/' >"$T/total.names"
grep -E "^(POSIX|STDIO|MPIIO)${TAB}" "$T/counters" | cut -f2 >"$T/counters.names"
same "$T/counters.names" "$T/total.names" "--total counter names"

# Sums; MAX_BYTE_* and MODE maxima; FILE_ALIGNMENT disagrees (-1) while
# MEM_ALIGNMENT agrees (8); STRIDE/ACCESS re-ranked across records (4096
# adds up to 1001 strides; 512 and 100 tie at 2 and the larger goes
# first; access size 10 falls out of the top 4, so the access table is
# exact but not complete: ACCESS_TOP_STATE 1); the slowest read and
# write are in the second record; start timestamps are the smallest
# nonzero, end timestamps and F_MAX_* the largest.  The sharing counters
# are the rank statistics over the records, each record one "rank": both
# POSIX records opened and did I/O; the shared one (rank -1: 0.9375 s,
# 10450 bytes) is the fastest, out.dat (rank 0: 1.26 s, 4088832 bytes)
# the slowest; time variance 0.16125^2 = 0.0260015625, bytes variance
# 2039191^2 = 4158299934481.  The single MPI-IO record is its own fastest
# and slowest (rank -1, 0.5 + 0.25 s).
cat >"$T/total.expected" <<END
total_POSIX_OPENS: 3
total_POSIX_READS: 11
total_POSIX_WRITES: 1002
total_POSIX_SEEKS: 3
total_POSIX_STATS: 1
total_POSIX_FSYNCS: 1
total_POSIX_MODE: 420
total_POSIX_BYTES_READ: 10250
total_POSIX_BYTES_WRITTEN: 4089032
total_POSIX_MAX_BYTE_READ: 20479
total_POSIX_MAX_BYTE_WRITTEN: 4088831
total_POSIX_CONSEC_READS: 4
total_POSIX_CONSEC_WRITES: 999
total_POSIX_SEQ_READS: 9
total_POSIX_SEQ_WRITES: 999
total_POSIX_RW_SWITCHES: 1
total_POSIX_MEM_ALIGNMENT: 8
total_POSIX_FILE_NOT_ALIGNED: 999
total_POSIX_FILE_ALIGNMENT: -1
total_POSIX_SIZE_READ_0_100: 1
total_POSIX_SIZE_READ_100_1K: 10
total_POSIX_SIZE_WRITE_0_100: 2
total_POSIX_SIZE_WRITE_100_1K: 2
total_POSIX_SIZE_WRITE_1K_10K: 998
total_POSIX_STRIDE1_STRIDE: 4096
total_POSIX_STRIDE2_STRIDE: 2048
total_POSIX_STRIDE3_STRIDE: -4096
total_POSIX_STRIDE1_COUNT: 1001
total_POSIX_STRIDE2_COUNT: 5
total_POSIX_STRIDE3_COUNT: 2
total_POSIX_STRIDE4_COUNT: 1
total_POSIX_ACCESS_TOP_STATE: 1
total_POSIX_ACCESS1_ACCESS: 4096
total_POSIX_ACCESS2_ACCESS: 1024
total_POSIX_ACCESS3_ACCESS: 512
total_POSIX_ACCESS4_ACCESS: 100
total_POSIX_ACCESS1_COUNT: 998
total_POSIX_ACCESS2_COUNT: 10
total_POSIX_ACCESS3_COUNT: 2
total_POSIX_ACCESS4_COUNT: 2
total_POSIX_MAX_READ_TIME_SIZE: 1024
total_POSIX_MAX_WRITE_TIME_SIZE: 100
total_POSIX_RANKS_OPENED: 2
total_POSIX_RANKS_IO: 2
total_POSIX_FASTEST_RANK: -1
total_POSIX_FASTEST_RANK_BYTES: 10450
total_POSIX_SLOWEST_RANK_BYTES: 4088832
total_POSIX_F_OPEN_START_TIMESTAMP: 0.001000
total_POSIX_F_READ_START_TIMESTAMP: 0.600000
total_POSIX_F_WRITE_START_TIMESTAMP: 0.003000
total_POSIX_F_CLOSE_START_TIMESTAMP: 1.600000
total_POSIX_F_OPEN_END_TIMESTAMP: 2.500000
total_POSIX_F_READ_END_TIMESTAMP: 2.000000
total_POSIX_F_WRITE_END_TIMESTAMP: 2.200000
total_POSIX_F_CLOSE_END_TIMESTAMP: 2.600000
total_POSIX_F_READ_TIME: 0.750000
total_POSIX_F_WRITE_TIME: 1.375000
total_POSIX_F_META_TIME: 0.072500
total_POSIX_F_MAX_READ_TIME: 0.250000
total_POSIX_F_MAX_WRITE_TIME: 0.062500
total_POSIX_F_FASTEST_RANK_TIME: 0.937500
total_POSIX_F_SLOWEST_RANK_TIME: 1.260000
total_POSIX_F_VARIANCE_RANK_TIME: 0.026002
total_POSIX_F_VARIANCE_RANK_BYTES: 4158299934481.000000
total_STDIO_OPENS: 1
total_STDIO_READS: 3
total_STDIO_SEEKS: 1
total_STDIO_BYTES_READ: 300
total_STDIO_MAX_BYTE_READ: 299
total_STDIO_MAX_BYTE_WRITTEN: -1
total_STDIO_RANKS_OPENED: 1
total_STDIO_RANKS_IO: 1
total_STDIO_FASTEST_RANK_BYTES: 300
total_STDIO_SLOWEST_RANK_BYTES: 300
total_STDIO_F_OPEN_START_TIMESTAMP: 0.100000
total_STDIO_F_READ_START_TIMESTAMP: 0.200000
total_STDIO_F_CLOSE_START_TIMESTAMP: 0.400000
total_STDIO_F_OPEN_END_TIMESTAMP: 0.110000
total_STDIO_F_READ_END_TIMESTAMP: 0.300000
total_STDIO_F_CLOSE_END_TIMESTAMP: 0.410000
total_STDIO_F_READ_TIME: 0.050000
total_STDIO_F_META_TIME: 0.020000
total_STDIO_F_FASTEST_RANK_TIME: 0.070000
total_STDIO_F_SLOWEST_RANK_TIME: 0.070000
total_MPIIO_COLL_OPENS: 2
total_MPIIO_COLL_WRITES: 4
total_MPIIO_SYNCS: 2
total_MPIIO_HINTS: 2
total_MPIIO_MODE: 37
total_MPIIO_BYTES_WRITTEN: 4194304
total_MPIIO_SIZE_WRITE_AGG_100K_1M: 4
total_MPIIO_ACCESS1_ACCESS: 1048576
total_MPIIO_ACCESS1_COUNT: 4
total_MPIIO_MAX_WRITE_TIME_SIZE: 1048576
total_MPIIO_RANKS_OPENED: 1
total_MPIIO_RANKS_IO: 1
total_MPIIO_FASTEST_RANK: -1
total_MPIIO_FASTEST_RANK_BYTES: 4194304
total_MPIIO_SLOWEST_RANK: -1
total_MPIIO_SLOWEST_RANK_BYTES: 4194304
total_MPIIO_F_OPEN_START_TIMESTAMP: 1.000000
total_MPIIO_F_WRITE_START_TIMESTAMP: 1.250000
total_MPIIO_F_CLOSE_START_TIMESTAMP: 2.000000
total_MPIIO_F_OPEN_END_TIMESTAMP: 1.125000
total_MPIIO_F_WRITE_END_TIMESTAMP: 1.875000
total_MPIIO_F_CLOSE_END_TIMESTAMP: 2.125000
total_MPIIO_F_WRITE_TIME: 0.500000
total_MPIIO_F_META_TIME: 0.250000
total_MPIIO_F_MAX_WRITE_TIME: 0.250000
total_MPIIO_F_FASTEST_RANK_TIME: 0.750000
total_MPIIO_F_SLOWEST_RANK_TIME: 0.750000
END
grep -v '^#' "$T/total" | awk '$2 != "0" && $2 != "0.000000"' >"$T/total.nonzero"
same "$T/total.expected" "$T/total.nonzero" "nonzero --total lines"

# -------------------------------------------------------------------- file --
run_parser --file "$log"
cp "$T/out" "$T/file"
# out.dat: written only, rank 0; "in put.dat": read and written, shared
# (rank -1) by all 4 ranks; cfg file: read only, and only in STDIO;
# ckpt.dat: written only, only in MPI-IO (no byte offsets there: -1),
# shared by 2 of the 4 ranks.
cat "$T/header.expected" - >"$T/file.expected" <<END
# <type>${TAB}<files>${TAB}<bytes>${TAB}<max_offset>
total${TAB}4${TAB}8293886${TAB}4088831
read_only${TAB}1${TAB}300${TAB}299
write_only${TAB}2${TAB}8283136${TAB}4088831
read_write${TAB}1${TAB}10450${TAB}20479
unique${TAB}2${TAB}4089132${TAB}4088831
shared${TAB}2${TAB}4204754${TAB}20479
shared_all${TAB}1${TAB}10450${TAB}20479
shared_partial${TAB}1${TAB}4194304${TAB}-1
END
same "$T/file.expected" "$T/file" "--file output"

# A file with records in both layers counts once, from its POSIX record:
# the STDIO twin of out.dat (50 bytes, max offset 9999999) changes nothing.
IOLENS_DISABLE=1 "$IOLENS_TESTBIN/integration/make_test_log" --stdio-twin "$T/twin.iolens" ||
    fail "make_test_log --stdio-twin failed"
"$IOLENS_PARSER" --file "$T/twin.iolens" >"$T/twin.file" || fail "--file on the twin log failed"
same "$T/file.expected" "$T/twin.file" "--file output with a STDIO twin of a POSIX file"
"$IOLENS_PARSER" --total "$T/twin.iolens" >"$T/twin.total" || fail "--total on the twin log failed"
check_eq "total_STDIO_BYTES_WRITTEN: 50" "$(grep '^total_STDIO_BYTES_WRITTEN:' "$T/twin.total")" \
    "the twin is in the STDIO totals"

# -------------------------------------------------------------- HDF5 --
# make_test_log --hdf5 adds /scratch/run/field.h5 at every layer: an H5F
# record, two datasets (one shared record, two per-rank records), and
# MPI-IO and POSIX records (see make_test_log.c for the numbers).
h5log=$T/hdf5.iolens
IOLENS_DISABLE=1 "$IOLENS_TESTBIN/integration/make_test_log" --hdf5 "$h5log" ||
    fail "make_test_log --hdf5 failed"

# --stack: H5D sums the two datasets (1200 read, 3200 written, time
# 0.3125 + 0.53125 + 0.28125); rank 3's /grid/press record has no file id
# and is found by its name prefix.  "-": no record of the file there.
run_parser --stack "$h5log"
grep -v '^# [a-z_ 0-9]*:' "$T/out" >"$T/stack"
cat >"$T/stack.expected" <<END
# <file>${TAB}H5D_bytes_read${TAB}H5D_bytes_written${TAB}H5D_time${TAB}MPIIO_bytes_read${TAB}MPIIO_bytes_written${TAB}MPIIO_time${TAB}POSIX_bytes_read${TAB}POSIX_bytes_written${TAB}POSIX_time${TAB}STDIO_bytes_read${TAB}STDIO_bytes_written${TAB}STDIO_time
/home dir/in put.dat${TAB}-${TAB}-${TAB}-${TAB}-${TAB}-${TAB}-${TAB}10250${TAB}200${TAB}0.937500${TAB}-${TAB}-${TAB}-
/scratch/run/ckpt.dat${TAB}-${TAB}-${TAB}-${TAB}0${TAB}4194304${TAB}0.750000${TAB}-${TAB}-${TAB}-${TAB}-${TAB}-${TAB}-
/scratch/run/field.h5${TAB}1200${TAB}3200${TAB}1.125000${TAB}1600${TAB}3712${TAB}1.125000${TAB}3648${TAB}4096${TAB}0.812500${TAB}-${TAB}-${TAB}-
/scratch/run/out.dat${TAB}-${TAB}-${TAB}-${TAB}-${TAB}-${TAB}-${TAB}0${TAB}4088832${TAB}1.260000${TAB}-${TAB}-${TAB}-
/tmp/cfg\\011file.txt${TAB}-${TAB}-${TAB}-${TAB}-${TAB}-${TAB}-${TAB}-${TAB}-${TAB}-${TAB}300${TAB}0${TAB}0.070000
END
same "$T/stack.expected" "$T/stack" "--stack output"
head -n "$nheader" "$T/out" >"$T/stack.header"
same "$T/header.expected" "$T/stack.header" "--stack header"

# Only the layers the log has get columns: the plain log has no H5D.
run_parser --stack "$log"
check_eq "# <file>${TAB}MPIIO_bytes_read${TAB}MPIIO_bytes_written${TAB}MPIIO_time${TAB}POSIX_bytes_read${TAB}POSIX_bytes_written${TAB}POSIX_time${TAB}STDIO_bytes_read${TAB}STDIO_bytes_written${TAB}STDIO_time" \
    "$(sed -n "$((nheader + 1))p" "$T/out")" "--stack header line without HDF5"
check_eq "/scratch/run/out.dat${TAB}-${TAB}-${TAB}-${TAB}0${TAB}4088832${TAB}1.260000${TAB}-${TAB}-${TAB}-" \
    "$(grep '^/scratch/run/out.dat' "$T/out")" "--stack row without HDF5"
check_eq 4 "$(grep -vc '^#' "$T/out")" "--stack rows without HDF5"

# --total of the HDF5 layers.  The access shapes are (size, extents)
# tuples ranked by count, ties by the larger tuple; SAME counters that
# differ between the datasets are -1; the sharing counters are over the
# records (temp: rank -1, 3200 bytes, 0.3125 s; press: ranks 1 and 3).
run_parser --total "$h5log"
grep '^total_H5' "$T/out" | awk '$2 != "0" && $2 != "0.000000"' >"$T/h5total"
cat >"$T/h5total.expected" <<END
total_H5F_OPENS: 2
total_H5F_CREATES: 2
total_H5F_FLUSHES: 1
total_H5F_USE_MPIIO: 1
total_H5F_RANKS_OPENED: 1
total_H5F_FASTEST_RANK: -1
total_H5F_SLOWEST_RANK: -1
total_H5F_F_OPEN_START_TIMESTAMP: 0.750000
total_H5F_F_CLOSE_START_TIMESTAMP: 3.000000
total_H5F_F_OPEN_END_TIMESTAMP: 0.875000
total_H5F_F_CLOSE_END_TIMESTAMP: 3.125000
total_H5F_F_META_TIME: 0.125000
total_H5F_F_FASTEST_RANK_TIME: 0.125000
total_H5F_F_SLOWEST_RANK_TIME: 0.125000
total_H5D_OPENS: 4
total_H5D_READS: 2
total_H5D_WRITES: 2
total_H5D_BYTES_READ: 1200
total_H5D_BYTES_WRITTEN: 3200
total_H5D_ALL_SELECTS: 1
total_H5D_REGULAR_HYPERSLAB_SELECTS: 3
total_H5D_COLL_ACCESSES: 2
total_H5D_INDEP_ACCESSES: 2
total_H5D_MAX_READ_TIME_SIZE: 800
total_H5D_MAX_WRITE_TIME_SIZE: 1600
total_H5D_SIZE_READ_AGG_100_1K: 2
total_H5D_SIZE_WRITE_AGG_1K_10K: 2
total_H5D_ACCESS1_ACCESS: 1600
total_H5D_ACCESS1_LENGTH_D4: 10
total_H5D_ACCESS1_LENGTH_D5: 20
total_H5D_ACCESS1_COUNT: 2
total_H5D_ACCESS2_ACCESS: 800
total_H5D_ACCESS2_LENGTH_D5: 100
total_H5D_ACCESS2_COUNT: 1
total_H5D_ACCESS3_ACCESS: 400
total_H5D_ACCESS3_LENGTH_D5: 50
total_H5D_ACCESS3_COUNT: 1
total_H5D_DATASPACE_NDIMS: -1
total_H5D_DATASPACE_NPOINTS: -1
total_H5D_DATASPACE_DIM1: -1
total_H5D_DATASPACE_DIM2: -1
total_H5D_DATATYPE_SIZE: 8
total_H5D_LAYOUT: -1
total_H5D_CHUNK_NDIMS: -1
total_H5D_CHUNK_DIM1: -1
total_H5D_CHUNK_DIM2: -1
total_H5D_FILE_REC_ID: -1
total_H5D_RANKS_OPENED: 3
total_H5D_RANKS_IO: 3
total_H5D_FASTEST_RANK: 3
total_H5D_FASTEST_RANK_BYTES: 400
total_H5D_SLOWEST_RANK: 1
total_H5D_SLOWEST_RANK_BYTES: 800
total_H5D_F_OPEN_START_TIMESTAMP: 1.000000
total_H5D_F_READ_START_TIMESTAMP: 2.125000
total_H5D_F_WRITE_START_TIMESTAMP: 1.250000
total_H5D_F_OPEN_END_TIMESTAMP: 2.031250
total_H5D_F_READ_END_TIMESTAMP: 2.625000
total_H5D_F_WRITE_END_TIMESTAMP: 1.500000
total_H5D_F_READ_TIME: 0.750000
total_H5D_F_WRITE_TIME: 0.250000
total_H5D_F_META_TIME: 0.125000
total_H5D_F_MAX_READ_TIME: 0.500000
total_H5D_F_MAX_WRITE_TIME: 0.187500
total_H5D_F_FASTEST_RANK_TIME: 0.281250
total_H5D_F_SLOWEST_RANK_TIME: 0.531250
total_H5D_F_VARIANCE_RANK_TIME: 0.012370
total_H5D_F_VARIANCE_RANK_BYTES: 1528888.888889
END
same "$T/h5total.expected" "$T/h5total" "nonzero --total lines of H5F and H5D"
# The log has every layer: every counter once, in --list-counters order.
grep -v '^#' "$T/out" | sed 's/^total_\([A-Z0-9_]*\): .*/\1/' >"$T/h5total.names"
cut -f2 "$T/counters" >"$T/all.names"
same "$T/all.names" "$T/h5total.names" "--total counter names with HDF5 layers"

# --file stays about files: field.h5 counts once, from its POSIX record
# (read and written, shared by 2 of 4 ranks); the H5F and H5D records
# add nothing.
run_parser --file "$h5log"
grep -v '^#' "$T/out" >"$T/h5file"
cat >"$T/h5file.expected" <<END
total${TAB}5${TAB}8301630${TAB}4088831
read_only${TAB}1${TAB}300${TAB}299
write_only${TAB}2${TAB}8283136${TAB}4088831
read_write${TAB}2${TAB}18194${TAB}20479
unique${TAB}2${TAB}4089132${TAB}4088831
shared${TAB}3${TAB}4212498${TAB}20479
shared_all${TAB}1${TAB}10450${TAB}20479
shared_partial${TAB}2${TAB}4202048${TAB}4095
END
same "$T/h5file.expected" "$T/h5file" "--file output with HDF5 records"

# --base names the dataset records "<file>:<dataset>".
run_parser --base "$h5log"
check_eq "H5D${TAB}1${TAB}$((0x1888888888888888))${TAB}H5D_BYTES_READ${TAB}800${TAB}/scratch/run/field.h5:/grid/press${TAB}/scratch${TAB}lustre" \
    "$(grep "^H5D${TAB}1${TAB}.*${TAB}H5D_BYTES_READ${TAB}" "$T/out")" "--base line of an H5D record"
check_eq 3 "$(grep -c "${TAB}H5D_OPENS${TAB}" "$T/out")" "--base H5D records"

# --------------------------------------------------------- list-counters --
check_eq "POSIX${TAB}POSIX_OPENS${TAB}open, open64, openat, creat and their fortified forms" \
    "$(head -n 1 "$T/counters")" "first --list-counters line"
check_eq "H5D${TAB}H5D_F_VARIANCE_RANK_BYTES${TAB}population variance of per-rank bytes read and written" \
    "$(tail -n 1 "$T/counters")" "last --list-counters line"
check_eq "${TAB}H5D_ACCESS1_LENGTH_D1${TAB}extent in the 5th-last dimension of the first most common access shape (right-aligned as Darshan: 0 for a selection of rank below 5)" \
    "$(grep "^H5D${TAB}H5D_ACCESS1_LENGTH_D1${TAB}" "$T/counters" | sed 's/^H5D//')" \
    "--list-counters line of an access shape counter"
check_eq "POSIX STDIO MPIIO H5F H5D" "$(cut -f1 "$T/counters" | uniq | tr '\n' ' ' | sed 's/ $//')" \
    "--list-counters layers, in order"
check_eq 0 "$(awk -F'\t' 'NF != 3' "$T/counters" | wc -l)" "--list-counters lines with 3 columns"

finish
