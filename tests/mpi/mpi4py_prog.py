"""An mpi4py program for test_mpi4py.sh.

    mpi4py_prog.py DIR

Rank r of N writes 4096 * (r + 1) bytes, each byte r, to DIR/shared at
offset 4096 * r * (r + 1) / 2 in one collective MPI_File_write_at_all,
closes the file, opens it again read-only and reads its block back with
one independent MPI_File_read_at.  Rank 0 prints one line with the
job's totals; the exit status is 1 if any rank read back other bytes."""
import sys

from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
size = comm.Get_size()
path = sys.argv[1] + "/shared"
block = 4096 * (rank + 1)
offset = 4096 * rank * (rank + 1) // 2
written = bytearray([rank]) * block

fh = MPI.File.Open(comm, path, MPI.MODE_CREATE | MPI.MODE_WRONLY)
fh.Write_at_all(offset, written)
fh.Close()

read = bytearray(block)
fh = MPI.File.Open(comm, path, MPI.MODE_RDONLY)
fh.Read_at(offset, read)
fh.Close()

same = comm.allreduce(1 if read == written else 0, op=MPI.SUM) == size
total = comm.allreduce(block, op=MPI.SUM)
if rank == 0:
    print("mpi4py: %d ranks wrote and read %d bytes, %s"
          % (size, total, "read back" if same else "DIFFERS"))
sys.exit(0 if same else 1)
