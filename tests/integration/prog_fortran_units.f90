! For test_exit_order.sh: writes 100 formatted lines of 6 digits and a
! newline (700 bytes) to unit 20, DIR/out.txt, and " done" to standard
! output, and ends without CLOSE: the Fortran runtime writes the unit's
! buffer out when the program ends.  Usage: prog_fortran_units DIR
program prog_fortran_units
  implicit none
  integer :: i
  character(len=4096) :: dir
  call get_command_argument(1, dir)
  open(20, file=trim(dir) // '/out.txt', status='replace')
  do i = 1, 100
    write(20, '(I6)') i
  end do
  print *, 'done'
end program prog_fortran_units
