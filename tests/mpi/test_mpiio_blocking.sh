#!/bin/sh
# Blocking MPI-IO with exact MPIIO counters (mpiio_prog.c says what each
# mode does): independent write_at of known sizes, the individual file
# pointer (read, read_all), derived memory datatypes, and the MPI-4
# large-count _c calls.  The POSIX layer underneath is traced too, but
# ROMIO may add I/O of its own, so POSIX numbers are not checked exactly.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/mpiio_common.sh"
mpiio_setup

# ------------------------------------------------- independent write_at --
run_mpiio 1 indep
f=$DATA/indep.0
expect_counters "$LOG" "$f" <<END
MPIIO_INDEP_OPENS 1
MPIIO_COLL_OPENS 0
MPIIO_INDEP_WRITES 4
MPIIO_INDEP_READS 0
MPIIO_COLL_WRITES 0
MPIIO_SPLIT_WRITES 0
MPIIO_NB_WRITES 0
MPIIO_SYNCS 1
MPIIO_HINTS 0
MPIIO_VIEWS 0
MPIIO_MODE 5
MPIIO_BYTES_WRITTEN 8332
MPIIO_BYTES_READ 0
MPIIO_RW_SWITCHES 0
MPIIO_DERIVED_DATATYPES 0
MPIIO_DERIVED_VIEWS 0
MPIIO_SIZE_WRITE_AGG_0_100 2
MPIIO_SIZE_WRITE_AGG_100_1K 0
MPIIO_SIZE_WRITE_AGG_1K_10K 2
MPIIO_SIZE_WRITE_AGG_10K_100K 0
MPIIO_SIZE_READ_AGG_0_100 0
MPIIO_ACCESS1_ACCESS 4096
MPIIO_ACCESS1_COUNT 2
MPIIO_ACCESS2_ACCESS 100
MPIIO_ACCESS2_COUNT 1
MPIIO_ACCESS3_ACCESS 40
MPIIO_ACCESS3_COUNT 1
MPIIO_ACCESS4_ACCESS 0
MPIIO_ACCESS4_COUNT 0
MPIIO_MAX_READ_TIME_SIZE 0
MPIIO_RANKS_OPENED 1
MPIIO_RANKS_IO 1
MPIIO_F_READ_TIME 0.000000
MPIIO_F_READ_START_TIMESTAMP 0.000000
END
case $(counter "$LOG" "$f" MPIIO_MAX_WRITE_TIME_SIZE) in
    100 | 4096 | 40) pass ;;
    *) fail "MPIIO_MAX_WRITE_TIME_SIZE is not the size of one of the writes" ;;
esac
ts() { counter "$LOG" "$f" "MPIIO_F_$1"; }
check_le "$(ts OPEN_START_TIMESTAMP)" "$(ts OPEN_END_TIMESTAMP)" "open start <= open end"
check_le "$(ts OPEN_END_TIMESTAMP)" "$(ts WRITE_START_TIMESTAMP)" "open end <= first write"
check_le "$(ts WRITE_START_TIMESTAMP)" "$(ts WRITE_END_TIMESTAMP)" "first write <= last write"
check_le "$(ts WRITE_END_TIMESTAMP)" "$(ts CLOSE_START_TIMESTAMP)" "last write <= close"
check_le "$(ts CLOSE_START_TIMESTAMP)" "$(ts CLOSE_END_TIMESTAMP)" "close start <= close end"
check_gt "$(ts OPEN_START_TIMESTAMP)" 0 "MPIIO_F_OPEN_START_TIMESTAMP"
check_gt "$(ts WRITE_TIME)" 0 "MPIIO_F_WRITE_TIME"
check_gt "$(ts META_TIME)" 0 "MPIIO_F_META_TIME"
check_le "$(ts MAX_WRITE_TIME)" "$(ts WRITE_TIME)" "slowest write <= write time"

# The MPI-IO record hangs on the same file entry as the POSIX one.
id_of() {
    base_of "$LOG" | awk -F'\t' -v l="$1" -v f="$2" '$1 == l && $6 == f { print $3; exit }'
}
check_eq "$(id_of POSIX "$f")" "$(id_of MPIIO "$f")" "record id of indep.0 in POSIX and MPIIO"
check_gt "$(counter "$LOG" "$f" POSIX_WRITES)" 0 "POSIX_WRITES under MPI-IO (ROMIO's own)"

# "ufs:" names the ROMIO driver, not the file (MPICH; Open MPI's OMPIO
# refuses such names and mpiio_prog does not use one there); a relative
# name is resolved against the working directory.
names="ufs.0 rel.0"
[ "$(mpi_flavour)" = openmpi ] && names=rel.0
for name in $names; do
    expect_counters "$LOG" "$DATA/$name" <<END
MPIIO_INDEP_OPENS 1
MPIIO_INDEP_WRITES 1
MPIIO_BYTES_WRITTEN 10
END
done
check_eq 0 "$(base_of "$LOG" | awk -F'\t' '$1 == "MPIIO" && $6 ~ /(^|\/)ufs:/' | wc -l)" \
    "records named with the ufs: prefix"

# File per process at 2 ranks: each rank's record, with its rank.
run_mpiio 2 indep
for r in 0 1; do
    expect_counters "$LOG" "$DATA/indep.$r" <<END
MPIIO_INDEP_OPENS 1
MPIIO_INDEP_WRITES 4
MPIIO_BYTES_WRITTEN 8332
MPIIO_RANKS_OPENED 1
END
    check_eq "$r" "$(base_of "$LOG" | awk -F'\t' -v f="$DATA/indep.$r" \
        '$1 == "MPIIO" && $6 == f { print $2; exit }')" "rank of indep.$r's MPIIO record"
done
# Each rank: 4 writes to indep.<r>, 1 to ufs.<r> (not under Open MPI), 1 to rel.<r>.
per_rank=$((4 + $(echo "$names" | wc -w)))
check_eq $((2 * per_rank)) "$(total "$LOG" MPIIO_INDEP_WRITES)" \
    "total_MPIIO_INDEP_WRITES at 2 ranks (4 + 1 a file of $names, each)"

# --------------------------------------- individual pointer: read, read_all --
run_mpiio 1 read
f=$DATA/read.0
expect_counters "$LOG" "$f" <<END
MPIIO_INDEP_OPENS 1
MPIIO_INDEP_WRITES 4
MPIIO_INDEP_READS 2
MPIIO_COLL_READS 2
MPIIO_COLL_WRITES 0
MPIIO_MODE 9
MPIIO_BYTES_WRITTEN 4096
MPIIO_BYTES_READ 4096
MPIIO_RW_SWITCHES 1
MPIIO_SIZE_WRITE_AGG_100_1K 4
MPIIO_SIZE_READ_AGG_100_1K 4
MPIIO_SIZE_READ_AGG_1K_10K 0
MPIIO_ACCESS1_ACCESS 1024
MPIIO_ACCESS1_COUNT 8
MPIIO_ACCESS2_COUNT 0
MPIIO_MAX_READ_TIME_SIZE 1024
MPIIO_MAX_WRITE_TIME_SIZE 1024
END
check_le "$(ts WRITE_END_TIMESTAMP)" "$(ts READ_START_TIMESTAMP)" "writes end before reads start"
check_le "$(ts READ_START_TIMESTAMP)" "$(ts READ_END_TIMESTAMP)" "first read <= last read"
check_gt "$(ts READ_TIME)" 0 "MPIIO_F_READ_TIME"

# -------------------------------------------------- derived memory types --
run_mpiio 1 derived
expect_counters "$LOG" "$DATA/derived.0" <<END
MPIIO_INDEP_WRITES 3
MPIIO_BYTES_WRITTEN 168
MPIIO_DERIVED_DATATYPES 2
MPIIO_DERIVED_VIEWS 0
MPIIO_ACCESS1_ACCESS 128
MPIIO_ACCESS2_ACCESS 24
MPIIO_ACCESS3_ACCESS 16
END

# ------------------------------------------------- MPI-4 large-count _c --
# MPICH 4 has them; Open MPI 4.1 (MPI-3.1) has not.
mpi_version=$(mpi_header_version)
if [ "$(mpi_flavour)" = mpich ]; then
    check_le 4 "$mpi_version" "MPI version of MPICH's mpi.h"
fi
if [ "$mpi_version" -lt 4 ]; then
    echo "note: $IOLENS_MPICC's mpi.h is MPI-$mpi_version: no large-count _c calls to trace"
    finish
fi
run_mpiio 1 large
expect_counters "$LOG" "$DATA/large.0" <<END
MPIIO_INDEP_OPENS 1
MPIIO_INDEP_WRITES 2
MPIIO_INDEP_READS 1
MPIIO_NB_WRITES 1
MPIIO_COLL_WRITES 1
MPIIO_BYTES_WRITTEN 88
MPIIO_BYTES_READ 40
MPIIO_RW_SWITCHES 2
MPIIO_SIZE_WRITE_AGG_0_100 4
MPIIO_SIZE_READ_AGG_0_100 1
MPIIO_ACCESS1_ACCESS 40
MPIIO_ACCESS1_COUNT 2
MPIIO_MAX_READ_TIME_SIZE 40
END
finish
