! A Fortran ScaLAPACK program that uses hpdaemon's module: it sets the memory threshold and
! the strategy in code, factors a general matrix (PDGETRF) and a symmetric positive
! definite one (PDPOTRF), checks both solves, then reads hpdaemon's counters.
!
!   mpif90.mpich factor.f90 $(pkg-config --cflags --libs hpdaemon-fortran) -o factor
!   mpiexec.mpich -n 2 ./factor
!
! On one process row PDGETRF and PDPOTRF's lower factor are hpdaemon's own; elsewhere
! their trailing updates call PDGEMM and PDSYRK inside ScaLAPACK: linked first, hpdaemon
! receives them.  Exits with 0 only if both residuals pass and hpdaemon's
! engine served LU (PDGETRF itself, or its PDGEMM calls) on every rank.
program factor
  use mpi
  use hpdaemon
  use, intrinsic :: iso_c_binding, only: c_int64_t
  use, intrinsic :: iso_fortran_env, only: int64, real64
  implicit none
  integer, parameter :: dp = real64
  integer, parameter :: n = 384, nb = 32, nrhs = 2
  ! ScaLAPACK's testers accept a scaled residual below 16.
  real(dp), parameter :: threshold = 16.0_dp
  ! PDPOTRF reaches hpdaemon itself, or through its PDSYRK calls.
  integer(c_int64_t), parameter :: min_cholesky_calls = 1

  integer :: ierr, rank, nprocs, ictxt, nprow, npcol, myrow, mycol
  integer :: mloc, nloc, bloc, lld, info_lu, info_llt, i, j, passed, failed
  integer :: desca(9), descb(9), info
  integer, allocatable :: ipiv(:)
  real(dp), allocatable :: g(:,:), g0(:,:), s(:,:), s0(:,:), b(:,:), x(:,:), work(:)
  real(dp) :: resid_lu, resid_llt
  integer :: served_here, served_all, chol_here, chol_all
  logical :: have_stats, have_energy
  real(dp) :: joules
  type(hpd_stats) :: stats
  type(hpd_energy_info) :: meter
  type(hpd_energy_sample) :: mine, job
  integer, external :: numroc, indxl2g

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)

  ! Every rank sets the same strategy: the engine's grid-wide steps rely on it.
  if (hpd_set_mem_threshold(0.2d0) /= HPD_SUCCESS) call refused('memory threshold')
  if (hpd_set_strategy(HPD_STRATEGY_DAEMON) /= HPD_SUCCESS) call refused('strategy')

  call blacs_get(-1, 0, ictxt)
  call blacs_gridinit(ictxt, 'Row-major', 1, nprocs)
  call blacs_gridinfo(ictxt, nprow, npcol, myrow, mycol)
  mloc = numroc(n, nb, myrow, 0, nprow)
  nloc = numroc(n, nb, mycol, 0, npcol)
  bloc = numroc(nrhs, nb, mycol, 0, npcol)
  lld = max(1, mloc)
  call descinit(desca, n, n, nb, nb, 0, 0, ictxt, lld, info)
  call descinit(descb, n, nrhs, nb, nb, 0, 0, ictxt, lld, info)
  allocate(g(lld, max(1, nloc)), s(lld, max(1, nloc)), b(lld, max(1, bloc)))
  allocate(ipiv(mloc + nb), work(mloc + nb))

  do j = 1, nloc
    do i = 1, mloc
      associate (gi => indxl2g(i, nb, myrow, 0, nprow), gj => indxl2g(j, nb, mycol, 0, npcol))
        g(i, j) = value_at(gi, gj + n)
        ! Symmetric, and diagonally dominant, hence positive definite.
        s(i, j) = value_at(min(gi, gj), max(gi, gj))
        if (gi == gj) s(i, j) = s(i, j) + n
      end associate
    end do
  end do
  do j = 1, bloc
    do i = 1, mloc
      b(i, j) = value_at(indxl2g(i, nb, myrow, 0, nprow), indxl2g(j, nb, mycol, 0, npcol) + 2 * n)
    end do
  end do
  g0 = g
  s0 = s

  x = b
  call pdgetrf(n, n, g, 1, 1, desca, ipiv, info_lu)
  if (info_lu == 0) call pdgetrs('N', n, nrhs, g, 1, 1, desca, ipiv, x, 1, 1, descb, info_lu)
  resid_lu = residual(g0, x)

  x = b
  call pdpotrf('L', n, s, 1, 1, desca, info_llt)
  if (info_llt == 0) call pdpotrs('L', n, nrhs, s, 1, 1, desca, x, 1, 1, descb, info_llt)
  resid_llt = residual(s0, x)

  ! A program linked after ScaLAPACK, or run with HPD_DISABLE=1, still gets the right
  ! answer: only hpdaemon's counters show whether it did the work.
  have_stats = hpd_get_stats(stats) == HPD_SUCCESS
  associate (gemm => stats%routine(HPD_ROUTINE_PDGEMM), syrk => stats%routine(HPD_ROUTINE_PDSYRK), &
             potrf => stats%routine(HPD_ROUTINE_PDPOTRF), getrf => stats%routine(HPD_ROUTINE_PDGETRF))
    served_here = merge(1, 0, have_stats .and. gemm%engine_calls + getrf%engine_calls >= 1 .and. &
                              gemm%fallback_calls == 0)
    chol_here = merge(1, 0, have_stats .and. &
                            syrk%engine_calls + potrf%engine_calls >= min_cholesky_calls .and. &
                            syrk%fallback_calls == 0)
  end associate
  call mpi_allreduce(served_here, served_all, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD, ierr)
  call mpi_allreduce(chol_here, chol_all, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD, ierr)

  ! The job's energy, summed over the ranks of the communicator.  Meters count a node
  ! once (on its reader rank), the model every rank.
  have_energy = hpd_get_energy_info(meter) == HPD_SUCCESS
  if (have_energy) have_energy = hpd_get_energy_sample(mine) == HPD_SUCCESS
  if (have_energy) have_energy = hpd_sum_energy_sample(MPI_COMM_WORLD, mine, job) == HPD_SUCCESS

  passed = count([info_lu == 0 .and. resid_lu < threshold, &
                  info_llt == 0 .and. resid_llt < threshold, served_all == 1, chol_all == 1])
  failed = 4 - passed
  if (rank == 0) then
    print '(a,i0,a,i0,a,i0,a,i0,a,f4.2,2a)', 'grid ', nprow, ' x ', npcol, ', N = ', n, &
      ', NB = ', nb, ', memory threshold ', hpd_get_mem_threshold(), ', strategy ', &
      hpd_strategy_name(hpd_get_strategy())
    print '(a,i0,a,es8.2,a,f4.1,2a)', 'LU (pdgetrf): info ', info_lu, ', scaled residual ', &
      resid_lu, ' (threshold ', threshold, '): ', verdict(info_lu == 0 .and. resid_lu < threshold)
    print '(a,i0,a,es8.2,a,f4.1,2a)', 'Cholesky (pdpotrf): info ', info_llt, &
      ', scaled residual ', resid_llt, ' (threshold ', threshold, '): ', &
      verdict(info_llt == 0 .and. resid_llt < threshold)
    call show(merge(HPD_ROUTINE_PDGETRF, HPD_ROUTINE_PDGEMM, npcol > 1 .and. nprow == 1), &
              served_all == 1)
    call show(merge(HPD_ROUTINE_PDPOTRF, HPD_ROUTINE_PDSYRK, npcol > 1 .and. nprow == 1), &
              chol_all == 1)
    if (have_energy .and. meter%source /= HPD_SOURCE_NONE) then
      joules = merge(job%measured_j, job%modeled_j, meter%source == HPD_SOURCE_MEASURED)
      print '(a,f0.3,3a)', 'energy of the job: ', joules, ' J (', &
        hpd_energy_source_name(meter%source), ')'
    end if
    print '(i0,a,i0,a)', passed, ' passed, ', failed, ' failed'
  end if

  call blacs_gridexit(ictxt)
  call blacs_exit(1)
  call mpi_finalize(ierr)
  if (failed /= 0) stop 1

contains

  subroutine refused(what)
    character(len=*), intent(in) :: what
    if (rank == 0) print '(3a)', 'factor: hpdaemon refused the ', what, ' setting'
    call mpi_abort(MPI_COMM_WORLD, 2, ierr)
  end subroutine refused

  ! A deterministic pseudo-random value in [-0.5, 0.5) for global entry (i, j): every
  ! rank computes its own part of the matrices without communication.
  pure real(dp) function value_at(i, j)
    integer, intent(in) :: i, j
    integer(int64), parameter :: a = 1103515245_int64, c = 12345_int64, m = 2_int64**31
    integer(int64) :: h
    h = mod(a * (i + 7919_int64 * j) + c, m)
    h = mod(a * h + c, m)
    value_at = real(h, dp) / real(m, dp) - 0.5_dp
  end function value_at

  ! ||A x - b||_inf / (||A||_inf ||x||_inf N eps), the residual ScaLAPACK's testers use.
  real(dp) function residual(a0, xs)
    real(dp), intent(in) :: a0(:,:), xs(:,:)
    real(dp), allocatable :: r(:,:)
    real(dp) :: anorm, xnorm, rnorm, eps
    real(dp), external :: pdlange, pdlamch
    allocate(r, source=b)
    call pdgemm('N', 'N', n, nrhs, n, -1.0_dp, a0, 1, 1, desca, xs, 1, 1, descb, 1.0_dp, &
                r, 1, 1, descb)
    anorm = pdlange('I', n, n, a0, 1, 1, desca, work)
    xnorm = pdlange('I', n, nrhs, xs, 1, 1, descb, work)
    rnorm = pdlange('I', n, nrhs, r, 1, 1, descb, work)
    eps = pdlamch(ictxt, 'Epsilon')
    residual = rnorm / (anorm * xnorm * n * eps)
  end function residual

  subroutine show(routine, ok)
    integer, intent(in) :: routine
    logical, intent(in) :: ok
    associate (st => stats%routine(routine))
      print '(3a,i0,a,i0,a,i0,2a)', 'hpdaemon ', hpd_routine_name(routine), ' on rank 0: ', &
        st%calls, ' calls, ', st%engine_calls, ' served by its engine, ', st%fallback_calls, &
        ' by the reference: ', verdict(ok)
    end associate
  end subroutine show

  function verdict(ok)
    logical, intent(in) :: ok
    character(len=:), allocatable :: verdict
    verdict = merge('passed', 'FAILED', ok)
  end function verdict

end program factor
