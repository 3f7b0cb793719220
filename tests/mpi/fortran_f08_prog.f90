! The same job through the mpi_f08 module, for test_fortran.sh (Open MPI's
! f08 bindings reach the PMPI_ names through their own layer).
! Usage: fortran_f08_prog DIR.  Each of the N ranks, in DIR/shared.dat:
! 256 integers (1024 bytes) with MPI_File_write_at_all at rank*1024, and
! with MPI_File_iwrite_at and MPI_Wait at (N + rank)*1024.  Rank 0 prints
! "ok N".
program fortran_f08_prog
  use mpi_f08
  implicit none
  integer :: rank, nprocs
  integer(kind=MPI_OFFSET_KIND) :: block
  integer :: buf(256)
  type(MPI_File) :: fh
  type(MPI_Status) :: status
  type(MPI_Request) :: request
  character(len=4096) :: dir

  call get_command_argument(1, dir)
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  buf = rank
  block = 1024
  call MPI_File_open(MPI_COMM_WORLD, trim(dir) // '/shared.dat', &
                     MPI_MODE_CREATE + MPI_MODE_WRONLY, MPI_INFO_NULL, fh)
  call MPI_File_write_at_all(fh, rank * block, buf, 256, MPI_INTEGER, status)
  call MPI_File_iwrite_at(fh, (nprocs + rank) * block, buf, 256, MPI_INTEGER, request)
  call MPI_Wait(request, status)
  call MPI_File_close(fh)
  if (rank == 0) print '(A,I0)', 'ok ', nprocs
  call MPI_Finalize()
end program fortran_f08_prog
