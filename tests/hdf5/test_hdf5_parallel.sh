#!/bin/sh
# Parallel HDF5 at 4 ranks (h5_prog.c, mode parallel): one reduced record
# per file and dataset with exact sums, the collective and independent
# transfers told apart, the MPI-IO driver and collective metadata seen on
# the file, and the three layers stacked on the same file: H5D bytes
# exact, MPI-IO at least those, POSIX at least the MPI-IO bytes.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/../mpi/mpiio_common.sh"
. "$(dirname "$0")/hdf5_common.sh"
hdf5_setup

run_parallel 4
F=$DATA/par.h5

expect_counters "$LOG" "$F" <<END
H5F_OPENS 4
H5F_CREATES 4
H5F_USE_MPIIO 1
H5F_COLL_METADATA 1
H5F_RANKS_OPENED 4
END
check_eq 1 "$(records_of "$LOG" "$F" H5F)" "H5F records of $F (reduced)"

# /x: 1024 doubles a rank; each wrote twice (independent, collective) and
# read twice (collective, independent with an explicit dxpl).
expect_counters "$LOG" "$F:/x" <<END
H5D_OPENS 4
H5D_WRITES 8
H5D_READS 8
H5D_BYTES_WRITTEN 65536
H5D_BYTES_READ 65536
H5D_RW_SWITCHES 4
H5D_REGULAR_HYPERSLAB_SELECTS 16
H5D_ALL_SELECTS 0
H5D_COLL_ACCESSES 8
H5D_INDEP_ACCESSES 8
H5D_SIZE_WRITE_AGG_1K_10K 8
H5D_SIZE_READ_AGG_1K_10K 8
H5D_ACCESS_TOP_STATE 0
H5D_ACCESS1_ACCESS 8192
H5D_ACCESS1_LENGTH_D1 0
H5D_ACCESS1_LENGTH_D5 1024
H5D_ACCESS1_COUNT 16
H5D_ACCESS2_COUNT 0
H5D_DATASPACE_NDIMS 1
H5D_DATASPACE_NPOINTS 4096
H5D_DATASPACE_DIM1 4096
H5D_DATATYPE_SIZE 8
H5D_LAYOUT 1
H5D_RANKS_OPENED 4
H5D_RANKS_IO 4
H5D_FASTEST_RANK_BYTES 32768
H5D_SLOWEST_RANK_BYTES 32768
END

# /y: 8 x 16 ints in chunks of 2 x 16; two rows a rank, collectively.
expect_counters "$LOG" "$F:/y" <<END
H5D_OPENS 4
H5D_WRITES 4
H5D_READS 0
H5D_BYTES_WRITTEN 512
H5D_COLL_ACCESSES 4
H5D_INDEP_ACCESSES 0
H5D_REGULAR_HYPERSLAB_SELECTS 4
H5D_ACCESS1_ACCESS 128
H5D_ACCESS1_LENGTH_D1 0
H5D_ACCESS1_LENGTH_D4 2
H5D_ACCESS1_LENGTH_D5 16
H5D_ACCESS1_COUNT 4
H5D_DATASPACE_NDIMS 2
H5D_DATASPACE_DIM1 8
H5D_DATASPACE_DIM2 16
H5D_LAYOUT 2
H5D_CHUNK_NDIMS 2
H5D_CHUNK_DIM1 2
H5D_CHUNK_DIM2 16
H5D_FILTERS 0
H5D_RANKS_OPENED 4
END
check_eq 1 "$(records_of "$LOG" "$F:/x" H5D)" "H5D records of /x (reduced)"
file_id=$(record_id "$LOG" H5F "$F")
check_eq "$file_id" "$(file_rec_id "$LOG" "$F:/x")" "H5D_FILE_REC_ID of /x"
check_eq "$file_id" "$(file_rec_id "$LOG" "$F:/y")" "H5D_FILE_REC_ID of /y"
check_eq "$file_id" "$(record_id "$LOG" MPIIO "$F")" "the MPI-IO record is the same file's"

# ------------------------------------------------------------ stacking --
h5d_written=$(($(counter "$LOG" "$F:/x" H5D_BYTES_WRITTEN) + $(counter "$LOG" "$F:/y" H5D_BYTES_WRITTEN)))
check_eq 66048 "$h5d_written" "H5D bytes written on $F"
mpiio_written=$(sum_counter "$LOG" "$F" MPIIO_BYTES_WRITTEN)
posix_written=$(sum_counter "$LOG" "$F" POSIX_BYTES_WRITTEN)
check_at_least "$h5d_written" "$mpiio_written" "MPIIO_BYTES_WRITTEN vs H5D (HDF5 adds metadata)"
check_at_least "$mpiio_written" "$posix_written" "POSIX_BYTES_WRITTEN vs MPI-IO"
mpiio_read=$(sum_counter "$LOG" "$F" MPIIO_BYTES_READ)
check_at_least 65536 "$mpiio_read" "MPIIO_BYTES_READ vs H5D"
check_at_least "$mpiio_read" "$(sum_counter "$LOG" "$F" POSIX_BYTES_READ)" "POSIX_BYTES_READ vs MPI-IO"

finish
