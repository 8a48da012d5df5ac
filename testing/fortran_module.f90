! The hpdaemon Fortran module against the C library it describes: every mirrored struct
! laid out as the C compiler lays it out, the constants C's values, strings passed both
! ways, settings made in Fortran seen by C, bad values refused, and the counters of a
! PDGEMM read back.  Run on 2 ranks; prints "N passed, M failed" on rank 0.
program fortran_module
  use mpi
  use hpdaemon
  use, intrinsic :: iso_c_binding
  implicit none

  interface
    function c_layout(which, entry) bind(C, name='hpdtest_layout')
      import :: c_int, c_long
      integer(c_int), value :: which, entry
      integer(c_long) :: c_layout
    end function c_layout
    subroutine c_fill_stats(out) bind(C, name='hpdtest_fill_stats')
      import :: hpd_stats
      type(hpd_stats), intent(out) :: out
    end subroutine c_fill_stats
    function c_mem_threshold() bind(C, name='hpdtest_c_mem_threshold')
      import :: c_double
      real(c_double) :: c_mem_threshold
    end function c_mem_threshold
    function c_strategy() bind(C, name='hpdtest_c_strategy')
      import :: c_int
      integer(c_int) :: c_strategy
    end function c_strategy
    function c_report(path, length) bind(C, name='hpdtest_c_report')
      import :: c_char, c_int
      character(kind=c_char), intent(out) :: path(*)
      integer(c_int), value :: length
      integer(c_int) :: c_report
    end function c_report
    function c_switch_min_ms() bind(C, name='hpdtest_c_switch_min_ms')
      import :: c_double
      real(c_double) :: c_switch_min_ms
    end function c_switch_min_ms
    function c_version() bind(C, name='hpdtest_c_version')
      import :: c_int
      integer(c_int) :: c_version
    end function c_version
  end interface

  integer :: ierr, rank, nprocs, passed, failed, totals(2)

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
  passed = 0
  failed = 0

  call test_layouts()
  call test_stats_fields()
  call test_constants()
  call test_threshold()
  call test_strategy()
  call test_switch_min()
  call test_report()
  call test_other_settings()
  call test_pdgemm_counters()
  call test_energy()

  call mpi_reduce([passed, failed], totals, 2, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(i0,a,i0,a)', totals(1), ' passed, ', totals(2), ' failed'
  call mpi_bcast(totals, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call mpi_finalize(ierr)
  if (totals(2) /= 0) stop 1

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (ok) then
      passed = passed + 1
    else
      failed = failed + 1
      print '(a,i0,2a)', 'FAIL on rank ', rank, ': ', what
    end if
  end subroutine check

  integer(c_long) function offset(base, field)
    type(c_ptr), intent(in) :: base, field
    offset = int(transfer(field, 0_c_intptr_t) - transfer(base, 0_c_intptr_t), c_long)
  end function offset

  ! got(1) is Fortran's size of the struct, got(k + 1) the offset of its k-th field; C
  ! must agree on every entry and have no field more.
  subroutine compare_layout(name, which, got)
    character(len=*), intent(in) :: name
    integer(c_int), intent(in) :: which
    integer(c_long), intent(in) :: got(:)
    integer(c_int) :: k
    character(len=32) :: what
    do k = 0, size(got) - 1
      if (k == 0) then
        what = 'size'
      else
        write (what, '(a,i0)') 'offset of field ', k
      end if
      call check(c_layout(which, k) == got(k + 1), name // ': ' // trim(what))
    end do
    call check(c_layout(which, int(size(got), c_int)) == -1, name // ': C has more fields')
  end subroutine compare_layout

  subroutine test_layouts()
    type(hpd_stats), target :: st
    type(hpd_routine_stats), target :: r
    type(hpd_config), target :: cf
    type(hpd_dvfs_info), target :: di
    type(hpd_dvfs_totals), target :: dt
    type(hpd_energy_info), target :: ei
    type(hpd_energy_sample), target :: es
    type(c_ptr) :: b

    b = c_loc(st)
    call compare_layout('hpd_stats', 0, [int(c_sizeof(st), c_long), offset(b, c_loc(st%routine))])
    call check(size(st%routine) == HPD_ROUTINES_MAX .and. lbound(st%routine, 1) == 0, &
               'hpd_stats%routine spans 0:HPD_ROUTINES_MAX-1')

    b = c_loc(r)
    call compare_layout('hpd_routine_stats', 1, [int(c_sizeof(r), c_long), &
      offset(b, c_loc(r%calls)), offset(b, c_loc(r%engine_calls)), &
      offset(b, c_loc(r%fallback_calls)), offset(b, c_loc(r%rejected_calls)), &
      offset(b, c_loc(r%fallback_by_reason)), offset(b, c_loc(r%time_total)), &
      offset(b, c_loc(r%time_min)), offset(b, c_loc(r%time_max)), &
      offset(b, c_loc(r%ngrp_last)), offset(b, c_loc(r%panels_last)), &
      offset(b, c_loc(r%extra_bytes_model_max)), offset(b, c_loc(r%extra_bytes_observed_max)), &
      offset(b, c_loc(r%bcast_count)), offset(b, c_loc(r%bcast_bytes)), &
      offset(b, c_loc(r%bcast_wall_s)), offset(b, c_loc(r%bcast_cpu_s)), &
      offset(b, c_loc(r%bcast_chunk_last)), offset(b, c_loc(r%dvfs_switches)), &
      offset(b, c_loc(r%dvfs_skipped)), offset(b, c_loc(r%dvfs_switch_s)), &
      offset(b, c_loc(r%steps_total)), offset(b, c_loc(r%steps_last)), &
      offset(b, c_loc(r%strategy_last)), offset(b, c_loc(r%switches_last)), &
      offset(b, c_loc(r%broadcast_phase_s)), offset(b, c_loc(r%multiply_phase_s)), &
      offset(b, c_loc(r%cpu_s)), offset(b, c_loc(r%energy_modeled_j)), &
      offset(b, c_loc(r%energy_measured_j)), offset(b, c_loc(r%energy_last_j)), &
      offset(b, c_loc(r%energy_source)), offset(b, c_loc(r%peak_rss_bytes)), &
      offset(b, c_loc(r%dvfs_held)), offset(b, c_loc(r%direct_calls)), &
      offset(b, c_loc(r%direct_local_calls)), offset(b, c_loc(r%auto_calls)), &
      offset(b, c_loc(r%auto_overlap_calls)), offset(b, c_loc(r%auto_learning_calls)), &
      offset(b, c_loc(r%auto_predicted_s)), offset(b, c_loc(r%auto_observed_s)), &
      offset(b, c_loc(r%auto_predicted_j)), offset(b, c_loc(r%auto_observed_j)), &
      offset(b, c_loc(r%auto_last_s)), offset(b, c_loc(r%auto_last_j)), &
      offset(b, c_loc(r%auto_last_broadcast_s)), offset(b, c_loc(r%auto_last_multiply_s)), &
      offset(b, c_loc(r%auto_last_reason))])

    b = c_loc(cf)
    call compare_layout('hpd_config', 2, [int(c_sizeof(cf), c_long), &
      offset(b, c_loc(cf%mem_threshold)), offset(b, c_loc(cf%report)), &
      offset(b, c_loc(cf%report_path)), offset(b, c_loc(cf%disable)), &
      offset(b, c_loc(cf%ngrp)), offset(b, c_loc(cf%kb)), offset(b, c_loc(cf%bcast)), &
      offset(b, c_loc(cf%chunk)), offset(b, c_loc(cf%wait)), offset(b, c_loc(cf%tune_file)), &
      offset(b, c_loc(cf%dvfs)), offset(b, c_loc(cf%strategy)), &
      offset(b, c_loc(cf%freq_low_khz)), offset(b, c_loc(cf%freq_high_khz)), &
      offset(b, c_loc(cf%sysfs_root)), offset(b, c_loc(cf%sim_switch_us)), &
      offset(b, c_loc(cf%energy)), offset(b, c_loc(cf%powercap_root)), &
      offset(b, c_loc(cf%power_model)), offset(b, c_loc(cf%switch_min_ms)), &
      offset(b, c_loc(cf%dispatch)), offset(b, c_loc(cf%max_slowdown)), &
      offset(b, c_loc(cf%calibration))])

    b = c_loc(di)
    call compare_layout('hpd_dvfs_info', 3, [int(c_sizeof(di), c_long), &
      offset(b, c_loc(di%backend)), offset(b, c_loc(di%applied)), &
      offset(b, c_loc(di%low_khz)), offset(b, c_loc(di%high_khz)), &
      offset(b, c_loc(di%available_khz)), offset(b, c_loc(di%available_count)), &
      offset(b, c_loc(di%min_khz)), offset(b, c_loc(di%max_khz)), &
      offset(b, c_loc(di%latency_ns)), offset(b, c_loc(di%domains)), &
      offset(b, c_loc(di%driver)), offset(b, c_loc(di%governor)), offset(b, c_loc(di%why))])

    b = c_loc(dt)
    call compare_layout('hpd_dvfs_totals', 4, [int(c_sizeof(dt), c_long), &
      offset(b, c_loc(dt%switches)), offset(b, c_loc(dt%skipped)), &
      offset(b, c_loc(dt%switch_s)), offset(b, c_loc(dt%held))])

    b = c_loc(ei)
    call compare_layout('hpd_energy_info', 5, [int(c_sizeof(ei), c_long), &
      offset(b, c_loc(ei%source)), offset(b, c_loc(ei%meter)), offset(b, c_loc(ei%reader)), &
      offset(b, c_loc(ei%nodes)), offset(b, c_loc(ei%model)), offset(b, c_loc(ei%why))])

    b = c_loc(es)
    call compare_layout('hpd_energy_sample', 6, [int(c_sizeof(es), c_long), &
      offset(b, c_loc(es%wall_s)), offset(b, c_loc(es%cpu_s)), &
      offset(b, c_loc(es%broadcast_s)), offset(b, c_loc(es%multiply_s)), &
      offset(b, c_loc(es%modeled_j)), offset(b, c_loc(es%measured_j)), &
      offset(b, c_loc(es%switches))])
  end subroutine test_layouts

  ! C fills every field with 1000 * routine + its number (see fortran_module_sizes.c).
  subroutine test_stats_fields()
    type(hpd_stats) :: st
    integer :: r, i
    integer(c_int64_t) :: u
    real(c_double) :: d
    logical :: ok
    call c_fill_stats(st)
    ok = .true.
    do r = 0, HPD_ROUTINES_MAX - 1
      u = 1000_c_int64_t * r
      d = 1000.0_c_double * r
      associate (s => st%routine(r))
        ok = ok .and. s%calls == u + 1 .and. s%engine_calls == u + 2 .and. &
             s%fallback_calls == u + 3 .and. s%rejected_calls == u + 4
        do i = 0, HPD_FALLBACK_REASONS_MAX - 1
          ok = ok .and. s%fallback_by_reason(i) == u + 100 + i
        end do
        ok = ok .and. s%time_total == d + 5.5 .and. s%time_min == d + 6.5 .and. &
             s%time_max == d + 7.5 .and. s%ngrp_last == u + 8 .and. s%panels_last == u + 9
        ok = ok .and. s%extra_bytes_model_max == u + 10 .and. &
             s%extra_bytes_observed_max == u + 11 .and. s%bcast_count == u + 12 .and. &
             s%bcast_bytes == u + 13 .and. s%bcast_wall_s == d + 14.5 .and. &
             s%bcast_cpu_s == d + 15.5 .and. s%bcast_chunk_last == u + 16
        ok = ok .and. s%dvfs_switches == u + 17 .and. s%dvfs_skipped == u + 18 .and. &
             s%dvfs_switch_s == d + 19.5 .and. s%steps_total == u + 20 .and. &
             s%steps_last == u + 21 .and. s%strategy_last == u + 22 .and. &
             s%switches_last == u + 23
        ok = ok .and. s%broadcast_phase_s == d + 24.5 .and. &
             s%multiply_phase_s == d + 25.5 .and. s%cpu_s == d + 26.5 .and. &
             s%energy_modeled_j == d + 27.5 .and. s%energy_measured_j == d + 28.5 .and. &
             s%energy_last_j == d + 29.5 .and. s%energy_source == u + 30 .and. &
             s%peak_rss_bytes == u + 31 .and. s%dvfs_held == u + 32 .and. &
             s%direct_calls == u + 33 .and. s%direct_local_calls == u + 34
        ok = ok .and. s%auto_calls == u + 35 .and. s%auto_overlap_calls == u + 36 .and. &
             s%auto_learning_calls == u + 37 .and. s%auto_predicted_s == d + 38.5 .and. &
             s%auto_observed_s == d + 39.5 .and. s%auto_predicted_j == d + 40.5 .and. &
             s%auto_observed_j == d + 41.5 .and. s%auto_last_s(0) == d + 42.5 .and. &
             s%auto_last_s(1) == d + 43.5 .and. s%auto_last_j(0) == d + 44.5 .and. &
             s%auto_last_j(1) == d + 45.5 .and. s%auto_last_broadcast_s == d + 46.5 .and. &
             s%auto_last_multiply_s == d + 47.5 .and. s%auto_last_reason == u + 48
      end associate
    end do
    call check(ok, 'every hpd_stats field written by C reads back in Fortran')
  end subroutine test_stats_fields

  ! Each constant must name what C names it: the module's copy cannot drift unseen.
  subroutine test_constants()
    call check(c_version() == HPD_VERSION_MAJOR * 10000 + HPD_VERSION_MINOR * 100 + &
               HPD_VERSION_PATCH, 'version constants')
    call check(hpd_routine_name(HPD_ROUTINE_PDGEMM) == 'pdgemm', 'HPD_ROUTINE_PDGEMM')
    call check(hpd_routine_name(HPD_ROUTINE_PDSYRK) == 'pdsyrk', 'HPD_ROUTINE_PDSYRK')
    call check(hpd_routine_name(HPD_ROUTINE_PDTRSM) == 'pdtrsm', 'HPD_ROUTINE_PDTRSM')
    call check(hpd_routine_name(HPD_ROUTINE_PDTRMM) == 'pdtrmm', 'HPD_ROUTINE_PDTRMM')
    call check(hpd_routine_name(HPD_ROUTINE_PDSYMM) == 'pdsymm', 'HPD_ROUTINE_PDSYMM')
    call check(hpd_routine_name(HPD_ROUTINE_PDSYR2K) == 'pdsyr2k', 'HPD_ROUTINE_PDSYR2K')
    call check(hpd_routine_name(HPD_ROUTINE_PDLASWP) == 'pdlaswp', 'HPD_ROUTINE_PDLASWP')
    call check(hpd_routine_name(HPD_ROUTINE_PDPOTRF) == 'pdpotrf', 'HPD_ROUTINE_PDPOTRF')
    call check(hpd_routine_name(HPD_ROUTINE_PDGETRF) == 'pdgetrf', 'HPD_ROUTINE_PDGETRF')
    call check(hpd_routine_name(HPD_ROUTINES) == 'unknown', 'HPD_ROUTINES')
    call check(hpd_strategy_name(HPD_STRATEGY_NONE) == 'none' .and. &
               hpd_strategy_name(HPD_STRATEGY_BASIC) == 'basic' .and. &
               hpd_strategy_name(HPD_STRATEGY_DAEMON) == 'daemon' .and. &
               hpd_strategy_name(HPD_STRATEGY_OVERLAP) == 'overlap' .and. &
               hpd_strategy_name(HPD_STRATEGY_AUTO) == 'auto', 'HPD_STRATEGY_*')
    call check(hpd_auto_reason_name(HPD_AUTO_NONE) == 'none' .and. &
               hpd_auto_reason_name(HPD_AUTO_LEARNING) == 'learning' .and. &
               hpd_auto_reason_name(HPD_AUTO_LEAST_ENERGY) == 'least energy' .and. &
               hpd_auto_reason_name(HPD_AUTO_ONLY_IN_BUDGET) == 'time budget' .and. &
               hpd_auto_reason_name(HPD_AUTO_REASONS) == 'unknown', 'HPD_AUTO_*')
    call check(hpd_bcast_algorithm_name(HPD_BCAST_PIPELINE) == 'pipeline' .and. &
               hpd_bcast_algorithm_name(HPD_BCAST_BINOMIAL) == 'binomial' .and. &
               hpd_bcast_algorithm_name(HPD_BCAST_MPI) == 'mpi', 'HPD_BCAST_*')
    call check(hpd_wait_policy_name(HPD_WAIT_SPIN) == 'spin' .and. &
               hpd_wait_policy_name(HPD_WAIT_YIELD) == 'yield' .and. &
               hpd_wait_policy_name(HPD_WAIT_SLEEP) == 'sleep', 'HPD_WAIT_*')
    call check(hpd_dispatch_name(HPD_DISPATCH_AUTO) == 'auto' .and. &
               hpd_dispatch_name(HPD_DISPATCH_ENGINE) == 'engine', 'HPD_DISPATCH_*')
    call check(hpd_dvfs_name(HPD_DVFS_AUTO) == 'auto' .and. &
               hpd_dvfs_name(HPD_DVFS_CPUPOWER) == 'cpupower' .and. &
               hpd_dvfs_name(HPD_DVFS_SYSFS) == 'sysfs' .and. &
               hpd_dvfs_name(HPD_DVFS_SIM) == 'sim' .and. &
               hpd_dvfs_name(HPD_DVFS_NONE) == 'none', 'HPD_DVFS_*')
    call check(hpd_energy_name(HPD_ENERGY_AUTO) == 'auto' .and. &
               hpd_energy_name(HPD_ENERGY_POWERCAP) == 'powercap' .and. &
               hpd_energy_name(HPD_ENERGY_PAPI) == 'papi' .and. &
               hpd_energy_name(HPD_ENERGY_MODEL) == 'model' .and. &
               hpd_energy_name(HPD_ENERGY_NONE) == 'none', 'HPD_ENERGY_*')
    call check(hpd_energy_source_name(HPD_SOURCE_NONE) == 'none' .and. &
               hpd_energy_source_name(HPD_SOURCE_MODELED) == 'modeled' .and. &
               hpd_energy_source_name(HPD_SOURCE_MEASURED) == 'measured' .and. &
               hpd_energy_source_name(HPD_SOURCE_SIMULATED) == 'simulated', 'HPD_SOURCE_*')
    call check(hpd_fallback_reason_name(HPD_FALLBACK_DISABLED) == 'disabled' .and. &
               hpd_fallback_reason_name(HPD_FALLBACK_NO_ENGINE) == 'no_engine' .and. &
               hpd_fallback_reason_name(HPD_FALLBACK_BAD_ARGUMENT) == 'bad_argument' .and. &
               hpd_fallback_reason_name(HPD_FALLBACK_NO_GRID) == 'no_grid' .and. &
               hpd_fallback_reason_name(HPD_FALLBACK_NO_MEMORY) == 'no_memory' .and. &
               hpd_fallback_reason_name(HPD_FALLBACK_UNSUPPORTED) == 'unsupported' .and. &
               hpd_fallback_reason_name(HPD_FALLBACK_REASONS) == 'unknown', 'HPD_FALLBACK_*')
    ! The enum bounds are checked by the setters refusing them.
    call check(hpd_set_bcast(HPD_BCAST_ALGORITHMS) == HPD_ERR_INVALID, 'HPD_BCAST_ALGORITHMS')
    call check(hpd_set_wait(HPD_WAIT_POLICIES) == HPD_ERR_INVALID, 'HPD_WAIT_POLICIES')
    call check(hpd_set_dvfs(HPD_DVFS_KINDS) == HPD_ERR_INVALID, 'HPD_DVFS_KINDS')
    call check(hpd_set_energy(HPD_ENERGY_KINDS) == HPD_ERR_INVALID, 'HPD_ENERGY_KINDS')
    call check(hpd_set_strategy(HPD_STRATEGIES) == HPD_ERR_INVALID, 'HPD_STRATEGIES')
    ! The phase outside the strategies' phases has no frequency to enter.
    call check(hpd_dvfs_enter(HPD_PHASE_OTHER) == HPD_ERR_INVALID, 'HPD_PHASE_OTHER')
  end subroutine test_constants

  ! Fortran does not fix the order in which operands are evaluated: every call with an
  ! effect is a statement of its own, and only then is its effect checked.
  subroutine test_threshold()
    call check(hpd_set_mem_threshold(0.35d0) == HPD_SUCCESS, 'threshold 0.35d0 accepted')
    call check(c_mem_threshold() == 0.35d0, 'threshold 0.35d0 seen by hpd_get_config')
    call check(hpd_get_mem_threshold() == 0.35d0, 'threshold 0.35d0 seen by the getter')
    ! A default real goes through the generic; 0.5 converts exactly.
    call check(hpd_set_mem_threshold(0.5) == HPD_SUCCESS, 'threshold from a default real')
    call check(c_mem_threshold() == 0.5d0, 'threshold 0.5 seen by hpd_get_config')
    call check(hpd_set_mem_threshold(1.5d0) == HPD_ERR_INVALID, 'threshold 1.5 refused')
    call check(hpd_set_mem_threshold(0.0d0) == HPD_ERR_INVALID, 'threshold 0 refused')
    call check(hpd_set_mem_threshold(-0.1) == HPD_ERR_INVALID, 'threshold -0.1 refused')
    call check(c_mem_threshold() == 0.5d0, 'a refused threshold changes nothing')
    call check(hpd_set_mem_threshold(0.2d0) == HPD_SUCCESS, 'threshold back to 0.2')
  end subroutine test_threshold

  subroutine test_strategy()
    call check(hpd_set_strategy(HPD_STRATEGY_BASIC) == HPD_SUCCESS, 'strategy basic accepted')
    call check(c_strategy() == HPD_STRATEGY_BASIC, 'strategy basic seen by hpd_get_config')
    call check(hpd_get_strategy() == HPD_STRATEGY_BASIC, 'strategy basic seen by the getter')
    call check(hpd_set_strategy(HPD_STRATEGY_NONE) == HPD_SUCCESS, 'strategy none accepted')
    call check(hpd_set_strategy(-1) == HPD_ERR_INVALID, 'strategy -1 refused')
    call check(hpd_set_strategy(7) == HPD_ERR_INVALID, 'strategy 7 refused')
    call check(c_strategy() == HPD_STRATEGY_NONE, 'a refused strategy changes nothing')
    call check(hpd_set_strategy(HPD_STRATEGY_DAEMON) == HPD_SUCCESS, 'strategy daemon')
    call check(c_strategy() == HPD_STRATEGY_DAEMON, 'strategy daemon seen by hpd_get_config')
  end subroutine test_strategy

  ! The switch rule's minimum: milliseconds, auto kept as -1, out-of-range values refused.
  subroutine test_switch_min()
    type(hpd_config) :: cf
    integer(c_int) :: dispatch
    call check(hpd_get_switch_min_ms() < 0, 'switch min auto by default')
    call check(hpd_set_switch_min_ms(17.5d0) == HPD_SUCCESS, 'switch min 17.5 ms accepted')
    call check(c_switch_min_ms() == 17.5d0, 'switch min 17.5 seen by hpd_get_config')
    call hpd_get_config(cf)
    call check(cf%switch_min_ms == 17.5d0, 'switch min in the Fortran hpd_config')
    call check(hpd_set_switch_min_ms(2.0d6) == HPD_ERR_INVALID, 'switch min 2e6 refused')
    call check(hpd_get_switch_min_ms() == 17.5d0, 'a refused switch min changes nothing')
    call check(hpd_set_switch_min_ms(0.0d0) == HPD_SUCCESS, 'switch min 0 (always) accepted')
    call check(hpd_get_switch_min_ms() == 0.0d0, 'switch min 0 seen by the getter')
    call check(hpd_set_switch_min_ms(-3.0d0) == HPD_SUCCESS, 'a negative switch min is auto')
    call check(c_switch_min_ms() == -1.0d0, 'auto stored as -1')
    ! The test suite runs this program under HPD_DISPATCH=engine: whatever is in force
    ! must read the same through the getter and the struct, and be restored.
    dispatch = hpd_get_dispatch()
    call hpd_get_config(cf)
    call check(cf%dispatch == dispatch, 'dispatch in the Fortran hpd_config')
    call check(hpd_set_dispatch(HPD_DISPATCH_AUTO) == HPD_SUCCESS, 'dispatch auto accepted')
    call check(hpd_get_dispatch() == HPD_DISPATCH_AUTO, 'dispatch auto seen by the getter')
    call check(hpd_set_dispatch(HPD_DISPATCH_ENGINE) == HPD_SUCCESS, 'dispatch engine accepted')
    call check(hpd_get_dispatch() == HPD_DISPATCH_ENGINE, 'dispatch engine seen by the getter')
    call check(hpd_set_dispatch(7) == HPD_ERR_INVALID, 'dispatch 7 refused')
    call check(hpd_get_dispatch() == HPD_DISPATCH_ENGINE, 'a refused dispatch changes nothing')
    call check(hpd_set_dispatch(dispatch) == HPD_SUCCESS, 'dispatch restored')
    call check(hpd_get_max_slowdown() == 0.03d0, 'max slowdown 3% by default')
    call check(hpd_set_max_slowdown(0.1d0) == HPD_SUCCESS, 'max slowdown 0.1 accepted')
    call hpd_get_config(cf)
    call check(cf%max_slowdown == 0.1d0, 'max slowdown in the Fortran hpd_config')
    call check(hpd_set_max_slowdown(1.5d0) == HPD_ERR_INVALID, 'max slowdown 1.5 refused')
    call check(hpd_get_max_slowdown() == 0.1d0, 'a refused max slowdown changes nothing')
    call check(hpd_set_max_slowdown(0.03d0) == HPD_SUCCESS, 'max slowdown restored')
    call check(hpd_get_calibration() == 0.02d0, 'calibration 2% by default')
    call check(hpd_set_calibration(0.5d0) == HPD_SUCCESS, 'calibration 0.5 accepted')
    call hpd_get_config(cf)
    call check(cf%calibration == 0.5d0, 'calibration in the Fortran hpd_config')
    call check(hpd_set_calibration(-0.5d0) == HPD_ERR_INVALID, 'calibration -0.5 refused')
    call check(hpd_set_calibration(0.02d0) == HPD_SUCCESS, 'calibration restored')
  end subroutine test_switch_min

  ! Fortran strings reach C without their padding, and C's text comes back.
  subroutine test_report()
    character(len=64) :: padded
    character(kind=c_char) :: cpath(HPD_PATH_MAX)
    character(len=*), parameter :: path = '/nonexistent/hpdaemon_fortran_module.json'
    type(hpd_config) :: cf
    padded = 'summary'
    call check(hpd_set_report(padded) == HPD_SUCCESS, 'report summary, padded, accepted')
    call check(c_report(cpath, HPD_PATH_MAX) == HPD_REPORT_SUMMARY, 'report summary seen by C')
    call check(hpd_set_report('json:' // path) == HPD_SUCCESS, 'report json:PATH accepted')
    call check(c_report(cpath, HPD_PATH_MAX) == HPD_REPORT_JSON, 'report json seen by C')
    call check(hpd_string(cpath) == path, 'report path seen by C: ' // hpd_string(cpath))
    call hpd_get_config(cf)
    call check(cf%report == HPD_REPORT_JSON .and. hpd_string(cf%report_path) == path, &
               'report path in the Fortran hpd_config')
    call check(hpd_set_report('sometimes') == HPD_ERR_INVALID, 'report sometimes refused')
    call check(hpd_set_report('json:') == HPD_ERR_INVALID, 'report json: refused')
    call check(c_report(cpath, HPD_PATH_MAX) == HPD_REPORT_JSON, 'refused: mode unchanged')
    call check(hpd_string(cpath) == path, 'refused: path unchanged')
    call check(hpd_set_report('off') == HPD_SUCCESS, 'report off accepted')
    call check(c_report(cpath, HPD_PATH_MAX) == HPD_REPORT_OFF, 'report off seen by C')
  end subroutine test_report

  subroutine test_other_settings()
    character(len=HPD_PATH_MAX + 10) :: long_path
    type(hpd_config) :: cf
    call check(hpd_set_disable(.true.) == HPD_SUCCESS, 'disable from a logical')
    call check(hpd_get_disable() == 1, 'disabled')
    call check(hpd_set_disable(0) == HPD_SUCCESS, 'enable from an integer')
    call check(hpd_get_disable() == 0, 'enabled')
    call check(hpd_set_chunk(65536) == HPD_SUCCESS, 'chunk from a default integer')
    call check(hpd_get_chunk() == 65536, 'chunk 65536')
    call check(hpd_set_chunk(HPD_CHUNK_MAX) == HPD_SUCCESS, 'chunk HPD_CHUNK_MAX accepted')
    call check(hpd_set_chunk(HPD_CHUNK_MAX + 1) == HPD_ERR_INVALID, 'chunk above max refused')
    call check(hpd_set_chunk(-1) == HPD_ERR_INVALID, 'chunk -1 refused')
    call check(hpd_set_chunk(-1_c_int64_t) == HPD_ERR_INVALID, 'chunk -1 (64 bits) refused')
    call check(hpd_get_chunk() == HPD_CHUNK_MAX, 'refused chunks change nothing')
    call check(hpd_set_chunk(0) == HPD_SUCCESS, 'chunk tuned again')
    call check(hpd_set_ngrp(-1) == HPD_ERR_INVALID, 'ngrp -1 refused')
    call check(hpd_set_kb(-1) == HPD_ERR_INVALID, 'kb -1 refused')
    call check(hpd_get_ngrp() == 0 .and. hpd_get_kb() == 0, 'ngrp and kb automatic')
    call check(hpd_set_sim_switch_us(-1.0d0) == HPD_ERR_INVALID, 'negative latency refused')
    long_path = repeat('x', len(long_path))
    call check(hpd_set_sysfs_root(long_path) == HPD_ERR_INVALID, 'too long a path refused')
    call check(hpd_set_tune_file('') == HPD_SUCCESS, 'no tune file')
    call check(hpd_set_power_model('  ') == HPD_SUCCESS, 'built-in model from blanks')
    call hpd_get_config(cf)
    call check(hpd_string(cf%tune_file) == '' .and. hpd_string(cf%power_model) == '' .and. &
               len(hpd_string(cf%sysfs_root)) > 0, 'paths in the Fortran hpd_config')
  end subroutine test_other_settings

  ! One PDGEMM on a 1 x nprocs grid: one call on each rank, and nothing else counted.
  subroutine test_pdgemm_counters()
    integer, parameter :: n = 64, nb = 8
    integer :: ictxt, nprow, npcol, myrow, mycol, mloc, nloc, info, desc(9), r
    real(c_double), allocatable :: a(:,:), c(:,:)
    type(hpd_stats) :: st
    type(hpd_dvfs_totals) :: dt
    type(hpd_dvfs_info) :: di
    integer, external :: numroc
    logical :: others_zero

    call blacs_get(-1, 0, ictxt)
    call blacs_gridinit(ictxt, 'Row-major', 1, nprocs)
    call blacs_gridinfo(ictxt, nprow, npcol, myrow, mycol)
    mloc = numroc(n, nb, myrow, 0, nprow)
    nloc = numroc(n, nb, mycol, 0, npcol)
    call descinit(desc, n, n, nb, nb, 0, 0, ictxt, max(1, mloc), info)
    allocate(a(max(1, mloc), max(1, nloc)), c(max(1, mloc), max(1, nloc)))
    a = 1.0d0
    c = 0.0d0

    call hpd_reset_stats()
    call pdgemm('N', 'N', n, n, n, 1.0d0, a, 1, 1, desc, a, 1, 1, desc, 0.0d0, c, 1, 1, desc)
    call check(all(c(1:mloc, 1:nloc) == n), 'PDGEMM result')
    call check(hpd_get_stats(st) == HPD_SUCCESS, 'hpd_get_stats')
    associate (gemm => st%routine(HPD_ROUTINE_PDGEMM))
      call check(gemm%calls == 1, 'one pdgemm call counted')
      call check(gemm%engine_calls + gemm%fallback_calls + gemm%rejected_calls == gemm%calls, &
                 'engine + fallback + rejected = calls')
      call check(gemm%engine_calls == 1, 'served by the engine')
      call check(gemm%time_total > 0 .and. gemm%time_min <= gemm%time_max, 'pdgemm times')
      call check(gemm%panels_last >= 1 .and. gemm%ngrp_last >= 1, 'pdgemm grouping')
      call check(gemm%strategy_last == HPD_STRATEGY_DAEMON, 'strategy of the call')
      call check(gemm%dvfs_switches + gemm%dvfs_skipped + gemm%dvfs_held == gemm%switches_last, &
                 'switches + skipped + held = switches_last')
      call hpd_get_dvfs_totals(dt)
      call check(dt%switches >= gemm%dvfs_switches .and. dt%held >= gemm%dvfs_held, &
                 'DVFS totals cover the call')
    end associate
    others_zero = .true.
    do r = 0, HPD_ROUTINES_MAX - 1
      if (r /= HPD_ROUTINE_PDGEMM) others_zero = others_zero .and. st%routine(r)%calls == 0
    end do
    call check(others_zero, 'no other routine counted (pdsyrk included)')
    call check(hpd_get_dvfs_info(di) == HPD_SUCCESS, 'hpd_get_dvfs_info')
    call check(di%backend /= HPD_DVFS_AUTO, 'DVFS set up by the call: ' // &
               hpd_dvfs_name(di%backend))
    call blacs_gridexit(ictxt)
  end subroutine test_pdgemm_counters

  ! The communicator handle crosses as a Fortran integer: the sum must be MPI's own.
  subroutine test_energy()
    type(hpd_energy_info) :: info
    type(hpd_energy_sample) :: mine, total
    real(c_double) :: want(2)
    call check(hpd_get_energy_info(info) == HPD_SUCCESS, 'hpd_get_energy_info')
    call check(info%nodes >= 1, 'energy info, source ' // &
               hpd_energy_source_name(info%source) // ': ' // hpd_string(info%model))
    call check(hpd_get_energy_sample(mine) == HPD_SUCCESS, 'hpd_get_energy_sample')
    call check(mine%wall_s > 0, 'energy sample covers some time')
    call check(hpd_sum_energy_sample(MPI_COMM_WORLD, mine, total) == HPD_SUCCESS, &
               'energy sum')
    call mpi_allreduce([mine%cpu_s, mine%modeled_j], want, 2, MPI_DOUBLE_PRECISION, MPI_SUM, &
                       MPI_COMM_WORLD, ierr)
    call check(total%cpu_s == want(1) .and. total%modeled_j == want(2) .and. &
               total%wall_s >= mine%wall_s, 'energy summed over MPI_COMM_WORLD')
  end subroutine test_energy

end program fortran_module
