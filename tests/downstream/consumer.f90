! SPDX-License-Identifier: BSD-3-Clause
! Downstream proof: a Fortran program linked against the installed gpublas3
! (with pkg-config --libs) calls DGEMM and SSYRK on its own arrays and
! checks them against plain loops: the referenced part right, the rest
! (padding rows, SSYRK's lower triangle) unchanged.  It also supplies its
! own XERBLA, which must take the place of the library's and receive
! DGEMM's bad LDA as argument 8.
module seen
  implicit none
  character(len=6) :: name = ''
  integer :: pos = 0, calls = 0
end module seen

subroutine xerbla(srname, info)
  use seen
  implicit none
  character(len=*), intent(in) :: srname
  integer, intent(in) :: info
  name = srname
  pos = info
  calls = calls + 1
end subroutine xerbla

program consumer
  use seen
  implicit none
  integer, parameter :: m = 37, n = 29, k = 23, lda = 40, ldb = 25, ldc = 39
  double precision :: a(lda, k), b(ldb, n), c(ldc, n), c0(ldc, n), r(m, n)
  real :: sa(k + 2, n), sc(n + 1, n), sc0(n + 1, n), s
  integer :: i, j, failures
  failures = 0

  call random_number(a)
  call random_number(b)
  call random_number(c)
  c0 = c
  r = 1.5d0 * matmul(a(1:m, :), b(1:k, :)) - 0.5d0 * c(1:m, :)
  call dgemm('N', 'N', m, n, k, 1.5d0, a, lda, b, ldb, -0.5d0, c, ldc)
  if (maxval(abs(c(1:m, :) - r)) > 1d-12 * k) failures = failures + 1
  if (any(c(m + 1:ldc, :) /= c0(m + 1:ldc, :))) failures = failures + 1

  ! SSYRK, upper triangle of 2 * A^T A + 0.5 C with A k x n ('T').
  call random_number(sa)
  call random_number(sc)
  sc0 = sc
  call ssyrk('U', 'T', n, k, 2.0, sa, k + 2, 0.5, sc, n + 1)
  do j = 1, n
    do i = 1, n + 1
      if (i <= j) then
        s = 2.0 * dot_product(sa(1:k, i), sa(1:k, j)) + 0.5 * sc0(i, j)
        if (abs(sc(i, j) - s) > 1e-5 * k) failures = failures + 1
      else if (sc(i, j) /= sc0(i, j)) then
        failures = failures + 1
      end if
    end do
  end do

  ! A bad leading dimension reaches this program's XERBLA, nothing moves.
  c0 = c
  call dgemm('N', 'N', 2, 2, 2, 1d0, a, 1, b, ldb, 0d0, c, ldc)
  if (calls /= 1 .or. name /= 'DGEMM ' .or. pos /= 8) failures = failures + 1
  if (any(c /= c0)) failures = failures + 1

  if (failures /= 0) then
    print '(a, i0, a)', 'fortran consumer: ', failures, ' failure(s)'
    stop 1
  end if
  print '(a)', 'fortran consumer: OK'
end program consumer
