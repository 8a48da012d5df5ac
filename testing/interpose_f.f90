! Interposition from Fortran: PDGEMM called from a gfortran program reaches hpdaemon.
! C := A * I on a 1 x P grid; C must equal A.  Prints "N passed, N failed" on rank 0.
program interpose_f
  implicit none
  integer, parameter :: n = 48, nb = 6
  integer :: iam, nprocs, ictxt, nprow, npcol, myrow, mycol, mloc, nloc, lld, info
  integer :: i, j, gi, gj, bad, allbad
  integer :: desc(9)
  double precision, allocatable :: a(:,:), b(:,:), c(:,:)
  integer, external :: numroc

  call blacs_pinfo(iam, nprocs)
  call blacs_get(-1, 0, ictxt)
  call blacs_gridinit(ictxt, 'Row-major', 1, nprocs)
  call blacs_gridinfo(ictxt, nprow, npcol, myrow, mycol)

  mloc = numroc(n, nb, myrow, 0, nprow)
  nloc = numroc(n, nb, mycol, 0, npcol)
  lld = max(1, mloc)
  call descinit(desc, n, n, nb, nb, 0, 0, ictxt, lld, info)
  allocate(a(lld, max(1, nloc)), b(lld, max(1, nloc)), c(lld, max(1, nloc)))
  do j = 1, nloc
    gj = ((j - 1) / nb * npcol + mycol) * nb + mod(j - 1, nb) + 1
    do i = 1, mloc
      gi = ((i - 1) / nb * nprow + myrow) * nb + mod(i - 1, nb) + 1
      a(i, j) = gi + 1000.0d0 * gj
      b(i, j) = merge(1.0d0, 0.0d0, gi == gj)
      c(i, j) = -1.0d0
    end do
  end do

  call pdgemm('N', 'N', n, n, n, 1.0d0, a, 1, 1, desc, b, 1, 1, desc, 0.0d0, c, 1, 1, desc)

  bad = 0
  if (nloc > 0 .and. mloc > 0) then
    if (any(c(1:mloc, 1:nloc) /= a(1:mloc, 1:nloc))) bad = 1
  end if
  call igsum2d(ictxt, 'All', ' ', 1, 1, bad, 1, -1, -1)
  allbad = bad
  if (iam == 0) then
    if (allbad == 0) then
      print '(a)', '1 passed, 0 failed'
    else
      print '(a)', '0 passed, 1 failed'
    end if
  end if
  call blacs_gridexit(ictxt)
  call blacs_exit(0)
  if (allbad /= 0) error stop 1
end program interpose_f
