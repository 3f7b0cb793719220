#!/bin/sh
# Parallel h5py (driver 'mpio', h5py_mpio_prog.py) at 4 ranks under Open
# MPI: Debian's h5py takes its MPI build under mpiexec.  The program runs
# as it does untraced, leaves one log with nprocs 4, and the H5D layer
# counts exactly the dataset's bytes: 4 x 250 x 1000 float64, 8,000,000
# bytes written and read, in one H5Dwrite and one H5Dread a rank; a
# dataset made as f[name] = array counts under its name.  The
# MPI-IO layer below carries them and HDF5's own metadata besides.
. "$(dirname "$0")/../integration/common.sh"
. "$(dirname "$0")/../mpi/mpiio_common.sh"
. "$(dirname "$0")/../mpi/python_mpi_common.sh"
python_mpi_setup mpi4py h5py numpy
PROG=$IOLENS_SRCDIR/tests/hdf5/h5py_mpio_prog.py
BYTES=$((4 * 250 * 1000 * 8))

run_python 4 plain "$PROG" "$T/plain/data/d.h5"
check_eq 0 "$(cat "$T/plain.rc")" "exit status untraced"
check_eq "d: 1000x1000 float64 by 4 ranks, read back" "$(cat "$T/plain.out")" "output untraced"

run_python 4 traced "$PROG" "$T/traced/data/d.h5"
check_eq 0 "$(cat "$T/traced.rc")" "exit status traced"
check_eq "$(cat "$T/plain.out")" "$(cat "$T/traced.out")" "output traced"
check_eq "$(cat "$T/plain.err")" "$(cat "$T/traced.err")" "stderr traced (as untraced)"
check_eq 1 "$(find "$T/traced/logs" -name '*.iolens' | wc -l | tr -d ' ')" "logs of the job"
LOG=$(find "$T/traced/logs" -name '*.iolens' | head -n 1)
require_log "$LOG"
check_eq 4 "$(header "$LOG" nprocs)" "nprocs"
F=$T/traced/data/d.h5
check_eq "$BYTES" "$(sum_counter "$LOG" "$F:/d" H5D_BYTES_WRITTEN)" "H5D bytes written"
check_eq "$BYTES" "$(sum_counter "$LOG" "$F:/d" H5D_BYTES_READ)" "H5D bytes read"
check_eq 4 "$(sum_counter "$LOG" "$F:/d" H5D_WRITES)" "H5D writes (one a rank)"
check_eq 4 "$(sum_counter "$LOG" "$F:/d" H5D_READS)" "H5D reads (one a rank)"
# f["s"] = array: made anonymous, written whole by each rank (80 bytes),
# linked: counted as /s, in the job's one record of it.
check_eq 320 "$(sum_counter "$LOG" "$F:/s" H5D_BYTES_WRITTEN)" "H5D bytes written to /s"
check_eq 4 "$(sum_counter "$LOG" "$F:/s" H5D_WRITES)" "H5D writes to /s (one a rank)"
check_eq 4 "$(sum_counter "$LOG" "$F:/s" H5D_OPENS)" "H5D opens of /s (the anonymous creates)"
check_eq 1 "$(records_of "$LOG" "$F:/s" H5D)" "H5D records of /s (shared by the 4 ranks)"
check_eq 0 "$(records_of "$LOG" "$F:<anonymous>" H5D)" "H5D records of $F:<anonymous>"
check_le "$BYTES" "$(sum_counter "$LOG" "$F" MPIIO_BYTES_WRITTEN)" "MPI-IO bytes written below H5D"
check_le "$BYTES" "$(sum_counter "$LOG" "$F" MPIIO_BYTES_READ)" "MPI-IO bytes read below H5D"
finish
