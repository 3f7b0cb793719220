! A Fortran MPI program for test_fortran.sh.  Usage: fortran_prog MODE DIR
!   MODE init: MPI_Init; thread: MPI_Init_thread (MPI_THREAD_FUNNELED)
! Each of the N ranks, in DIR/shared.dat (opened by all): 256 integers
! (1024 bytes) with MPI_File_write_at at rank*1024, with
! MPI_File_write_at_all at (N + rank)*1024, with MPI_File_iwrite_at and
! MPI_Wait at (2N + rank)*1024; reads its first block back with
! MPI_File_read_at_all and checks it.  Then, through the Fortran runtime,
! DIR/rank<r>.txt: 100 formatted lines of 6 digits and a newline (700
! bytes), and DIR/rank<r>.bin: the 256 integers as a stream (1024 bytes).
! Rank 0 prints "ok N" when every rank read back what it wrote; the exit
! status is 1 otherwise.
program fortran_prog
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, fh, i, provided, good, allgood
  integer(kind=MPI_OFFSET_KIND) :: block
  integer :: buf(256), back(256)
  integer :: status(MPI_STATUS_SIZE), request
  character(len=16) :: mode
  character(len=4096) :: dir
  character(len=4200) :: name

  call get_command_argument(1, mode)
  call get_command_argument(2, dir)
  if (trim(mode) == 'thread') then
    call MPI_Init_thread(MPI_THREAD_FUNNELED, provided, ierr)
  else
    call MPI_Init(ierr)
  end if
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  do i = 1, 256
    buf(i) = rank * 1000 + i
  end do
  back = 0

  call MPI_File_open(MPI_COMM_WORLD, trim(dir) // '/shared.dat', &
                     MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
  block = 1024
  call MPI_File_write_at(fh, rank * block, buf, 256, MPI_INTEGER, status, ierr)
  call MPI_File_write_at_all(fh, (nprocs + rank) * block, buf, 256, MPI_INTEGER, &
                             status, ierr)
  call MPI_File_iwrite_at(fh, (2 * nprocs + rank) * block, buf, 256, MPI_INTEGER, &
                          request, ierr)
  call MPI_Wait(request, status, ierr)
  call MPI_File_read_at_all(fh, rank * block, back, 256, MPI_INTEGER, status, ierr)
  call MPI_File_close(fh, ierr)
  good = 0
  if (all(back == buf)) good = 1

  write(name, '(A,A,I0,A)') trim(dir), '/rank', rank, '.txt'
  open(unit=10, file=trim(name), status='replace', form='formatted')
  do i = 1, 100
    write(10, '(I6)') i
  end do
  close(10)
  write(name, '(A,A,I0,A)') trim(dir), '/rank', rank, '.bin'
  open(unit=11, file=trim(name), status='replace', form='unformatted', access='stream')
  write(11) buf
  close(11)

  call MPI_Allreduce(good, allgood, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. allgood == 1) print '(A,I0)', 'ok ', nprocs
  call MPI_Finalize(ierr)
  if (allgood /= 1) stop 1
end program fortran_prog
