! SPDX-License-Identifier: BSD-3-Clause
! A Fortran program as a user writes it: DGEMMs of the orders given on the
! command line (default 8), each checked against MATMUL.  The drop-in
! tests (CMakeLists.txt) link it the README's ways and read, under
! GPUBLAS3_VERBOSE=1, where each call ran.
program hostblas
  implicit none
  integer :: i, n, failures
  character(len=16) :: arg
  failures = 0
  if (command_argument_count() == 0) then
    call one(8, failures)
  end if
  do i = 1, command_argument_count()
    call get_command_argument(i, arg)
    read (arg, *) n
    call one(n, failures)
  end do
  if (failures /= 0) then
    print '(a, i0, a)', 'FAILED: ', failures, ' products wrong'
    stop 1
  end if
  print '(a)', 'ok'
contains
  subroutine one(n, failures)
    integer, intent(in) :: n
    integer, intent(inout) :: failures
    double precision :: a(n, n), b(n, n), c(n, n)
    integer :: i, j
    do j = 1, n
      do i = 1, n
        a(i, j) = dble(mod(7 * i + 3 * j, 13)) / 13d0 - 0.5d0
        b(i, j) = dble(mod(5 * i + 11 * j, 17)) / 17d0 - 0.5d0
      end do
    end do
    c = 0
    call dgemm('N', 'N', n, n, n, 1d0, a, n, b, n, 0d0, c, n)
    if (maxval(abs(c - matmul(a, b))) > 1d-10 * n) failures = failures + 1
  end subroutine one
end program hostblas
