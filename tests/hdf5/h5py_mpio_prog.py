"""Parallel h5py (driver 'mpio') for test_h5py_mpio.sh.

    h5py_mpio_prog.py PATH

All ranks create PATH with a contiguous (N * 250) x 1000 float64 dataset
"d"; rank r writes its 250 rows (2,000,000 bytes) in one call; in h5py's
usual way (f[name] = array: an anonymous dataset, written by every rank,
then linked under its name) they make "s", 10 float64; the file is
closed, opened again read-only, and each rank reads its rows back in
one call and checks them.  Rank 0 prints one line; the exit status is 1
if any rank read back other values."""
import sys

from mpi4py import MPI
import h5py
import numpy

ROWS, COLS = 250, 1000
comm = MPI.COMM_WORLD
rank = comm.Get_rank()
size = comm.Get_size()
path = sys.argv[1]
rows = slice(rank * ROWS, (rank + 1) * ROWS)
written = numpy.arange(ROWS * COLS, dtype=numpy.float64).reshape(ROWS, COLS) + rank * 0.25

with h5py.File(path, "w", driver="mpio", comm=comm) as f:
    d = f.create_dataset("d", (size * ROWS, COLS), dtype="f8")
    d[rows] = written
    f["s"] = numpy.arange(10, dtype=numpy.float64)
with h5py.File(path, "r", driver="mpio", comm=comm) as f:
    read = f["d"][rows]

same = comm.allreduce(1 if numpy.array_equal(read, written) else 0, op=MPI.SUM) == size
if rank == 0:
    print("d: %dx%d float64 by %d ranks, %s"
          % (size * ROWS, COLS, size, "read back" if same else "DIFFERS"))
sys.exit(0 if same else 1)
