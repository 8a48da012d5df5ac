! The hpdaemon module: hpdaemon's configuration, statistics and energy calls for Fortran.
!
! PDGEMM and the ScaLAPACK routines built on it need nothing from here: they reach
! hpdaemon through the link line.  This module is for programs that also want to choose
! the threshold or strategy in code, or read the counters and energy figures.
!
! Most calls are the C functions themselves, bound with bind(C): they return the C
! return codes (HPD_SUCCESS, HPD_ERR_INVALID) as function results.  Calls that take or
! give strings are Fortran wrappers, since C wants NUL-terminated text.
!
! Integer kinds follow the header: uint64_t fields are integer(c_int64_t) (counts never
! come near 2**63), unsigned ones (frequencies in kHz) integer(c_int), enums integer(c_int).
! Arrays indexed by a C enum keep its 0-based numbering, so
!   stats%routine(HPD_ROUTINE_PDGEMM)%calls
!   stats%routine(HPD_ROUTINE_PDGEMM)%fallback_by_reason(HPD_FALLBACK_NO_MEMORY)
! index them with the constants below, without adding 1.
module hpdaemon
  use, intrinsic :: iso_c_binding, only: c_char, c_double, c_float, c_int, c_int64_t, &
                                         c_null_char, c_ptr, c_size_t, c_associated, &
                                         c_f_pointer, c_sizeof
  implicit none
  private

  ! ---- constants: the values of include/hpdaemon.h --------------------------------------
  integer(c_int), parameter, public :: HPD_VERSION_MAJOR = 0, HPD_VERSION_MINOR = 1, &
                                       HPD_VERSION_PATCH = 0
  character(len=*), parameter, public :: HPD_VERSION_STRING = '0.1.0'

  integer(c_int), parameter, public :: HPD_SUCCESS = 0, HPD_ERR_INVALID = -1

  integer(c_int), parameter, public :: HPD_REPORT_OFF = 0, HPD_REPORT_SUMMARY = 1, &
                                       HPD_REPORT_JSON = 2
  integer(c_int), parameter, public :: HPD_PATH_MAX = 4096

  integer(c_int), parameter, public :: HPD_BCAST_PIPELINE = 0, HPD_BCAST_BINOMIAL = 1, &
                                       HPD_BCAST_MPI = 2, HPD_BCAST_ALGORITHMS = 3
  integer(c_int), parameter, public :: HPD_WAIT_SPIN = 0, HPD_WAIT_YIELD = 1, &
                                       HPD_WAIT_SLEEP = 2, HPD_WAIT_POLICIES = 3
  integer(c_int), parameter, public :: HPD_DVFS_AUTO = 0, HPD_DVFS_CPUPOWER = 1, &
                                       HPD_DVFS_SYSFS = 2, HPD_DVFS_SIM = 3, &
                                       HPD_DVFS_NONE = 4, HPD_DVFS_KINDS = 5
  integer(c_int), parameter, public :: HPD_STRATEGY_NONE = 0, HPD_STRATEGY_BASIC = 1, &
                                       HPD_STRATEGY_DAEMON = 2, HPD_STRATEGY_OVERLAP = 3, &
                                       HPD_STRATEGY_AUTO = 4, HPD_STRATEGIES = 5
  integer(c_int), parameter, public :: HPD_ENERGY_AUTO = 0, HPD_ENERGY_POWERCAP = 1, &
                                       HPD_ENERGY_PAPI = 2, HPD_ENERGY_MODEL = 3, &
                                       HPD_ENERGY_NONE = 4, HPD_ENERGY_KINDS = 5
  integer(c_int), parameter, public :: HPD_SOURCE_NONE = 0, HPD_SOURCE_MODELED = 1, &
                                       HPD_SOURCE_MEASURED = 2, HPD_SOURCE_SIMULATED = 3
  integer(c_int), parameter, public :: HPD_PHASE_BROADCAST = 0, HPD_PHASE_MULTIPLY = 1, HPD_PHASE_OTHER = 2
  integer(c_int), parameter, public :: HPD_DISPATCH_AUTO = 0, HPD_DISPATCH_ENGINE = 1, &
                                       HPD_DISPATCHES = 2
  integer(c_int64_t), parameter, public :: HPD_CHUNK_MAX = 2_c_int64_t**30

  integer(c_int), parameter, public :: HPD_FALLBACK_DISABLED = 0, &
                                       HPD_FALLBACK_NO_ENGINE = 1, &
                                       HPD_FALLBACK_BAD_ARGUMENT = 2, &
                                       HPD_FALLBACK_NO_GRID = 3, &
                                       HPD_FALLBACK_NO_MEMORY = 4, &
                                       HPD_FALLBACK_UNSUPPORTED = 5, &
                                       HPD_FALLBACK_REASONS = 6, &
                                       HPD_FALLBACK_REASONS_MAX = 16
  integer(c_int), parameter, public :: HPD_AUTO_NONE = 0, HPD_AUTO_LEARNING = 1, &
                                       HPD_AUTO_LEAST_ENERGY = 2, &
                                       HPD_AUTO_ONLY_IN_BUDGET = 3, HPD_AUTO_REASONS = 4
  integer(c_int), parameter, public :: HPD_ROUTINE_PDGEMM = 0, HPD_ROUTINE_PDSYRK = 1, &
                                       HPD_ROUTINE_PDTRSM = 2, HPD_ROUTINE_PDTRMM = 3, &
                                       HPD_ROUTINE_PDSYMM = 4, HPD_ROUTINE_PDSYR2K = 5, &
                                       HPD_ROUTINE_PDLASWP = 6, &
                                       HPD_ROUTINE_PDPOTRF = 7, &
                                       HPD_ROUTINE_PDGETRF = 8, &
                                       HPD_ROUTINES = 9, HPD_ROUTINES_MAX = 16
  integer(c_int), parameter, public :: HPD_DVFS_WHY_MAX = 1024

  ! ---- the C structs, field for field ------------------------------------------------
  ! Text fields are NUL-terminated character arrays, as in C: hpd_string() turns one into
  ! a Fortran string.

  type, bind(C), public :: hpd_config
    real(c_double) :: mem_threshold
    integer(c_int) :: report
    character(kind=c_char) :: report_path(HPD_PATH_MAX)
    integer(c_int) :: disable, ngrp, kb
    integer(c_int) :: bcast
    integer(c_int64_t) :: chunk
    integer(c_int) :: wait
    character(kind=c_char) :: tune_file(HPD_PATH_MAX)
    integer(c_int) :: dvfs, strategy
    integer(c_int) :: freq_low_khz, freq_high_khz
    character(kind=c_char) :: sysfs_root(HPD_PATH_MAX)
    real(c_double) :: sim_switch_us
    integer(c_int) :: energy
    character(kind=c_char) :: powercap_root(HPD_PATH_MAX)
    character(kind=c_char) :: power_model(HPD_PATH_MAX)
    real(c_double) :: switch_min_ms
    integer(c_int) :: dispatch
    real(c_double) :: max_slowdown
    real(c_double) :: calibration
  end type hpd_config

  ! The meaning of every field is in include/hpdaemon.h.
  type, bind(C), public :: hpd_routine_stats
    integer(c_int64_t) :: calls, engine_calls, fallback_calls, rejected_calls
    integer(c_int64_t) :: fallback_by_reason(0:HPD_FALLBACK_REASONS_MAX - 1)
    real(c_double) :: time_total, time_min, time_max
    integer(c_int) :: ngrp_last, panels_last
    integer(c_int64_t) :: extra_bytes_model_max, extra_bytes_observed_max
    integer(c_int64_t) :: bcast_count, bcast_bytes
    real(c_double) :: bcast_wall_s, bcast_cpu_s
    integer(c_int64_t) :: bcast_chunk_last
    integer(c_int64_t) :: dvfs_switches, dvfs_skipped
    real(c_double) :: dvfs_switch_s
    integer(c_int64_t) :: steps_total
    integer(c_int) :: steps_last, strategy_last
    integer(c_int64_t) :: switches_last
    real(c_double) :: broadcast_phase_s, multiply_phase_s, cpu_s
    real(c_double) :: energy_modeled_j, energy_measured_j
    real(c_double) :: energy_last_j
    integer(c_int) :: energy_source
    integer(c_int64_t) :: peak_rss_bytes
    integer(c_int64_t) :: dvfs_held
    integer(c_int64_t) :: direct_calls, direct_local_calls
    integer(c_int64_t) :: auto_calls, auto_overlap_calls, auto_learning_calls
    real(c_double) :: auto_predicted_s, auto_observed_s
    real(c_double) :: auto_predicted_j, auto_observed_j
    real(c_double) :: auto_last_s(0:1), auto_last_j(0:1)
    real(c_double) :: auto_last_broadcast_s, auto_last_multiply_s
    integer(c_int) :: auto_last_reason
  end type hpd_routine_stats

  type, bind(C), public :: hpd_stats
    type(hpd_routine_stats) :: routine(0:HPD_ROUTINES_MAX - 1)
  end type hpd_stats

  type, bind(C), public :: hpd_dvfs_info
    integer(c_int) :: backend, applied
    integer(c_int) :: low_khz, high_khz
    integer(c_int) :: available_khz(32)
    integer(c_int) :: available_count
    integer(c_int) :: min_khz, max_khz, latency_ns
    integer(c_int) :: domains
    character(kind=c_char) :: driver(32), governor(32)
    character(kind=c_char) :: why(HPD_DVFS_WHY_MAX)
  end type hpd_dvfs_info

  type, bind(C), public :: hpd_dvfs_totals
    integer(c_int64_t) :: switches, skipped
    real(c_double) :: switch_s
    integer(c_int64_t) :: held
  end type hpd_dvfs_totals

  type, bind(C), public :: hpd_energy_info
    integer(c_int) :: source, meter
    integer(c_int) :: reader, nodes
    character(kind=c_char) :: model(HPD_PATH_MAX)
    character(kind=c_char) :: why(HPD_DVFS_WHY_MAX)
  end type hpd_energy_info

  type, bind(C), public :: hpd_energy_sample
    real(c_double) :: wall_s, cpu_s
    real(c_double) :: broadcast_s, multiply_s
    real(c_double) :: modeled_j, measured_j
    integer(c_int64_t) :: switches
  end type hpd_energy_sample

  ! ---- the C functions that Fortran can call as they are -----------------------------
  public :: hpd_get_config, hpd_get_mem_threshold, hpd_get_disable
  public :: hpd_set_ngrp, hpd_get_ngrp, hpd_set_kb, hpd_get_kb
  public :: hpd_set_bcast, hpd_get_bcast, hpd_get_chunk, hpd_set_wait, hpd_get_wait
  public :: hpd_set_dvfs, hpd_get_dvfs, hpd_set_strategy, hpd_get_strategy
  public :: hpd_set_freq_low, hpd_set_freq_high, hpd_set_sim_switch_us
  public :: hpd_set_switch_min_ms, hpd_get_switch_min_ms
  public :: hpd_set_dispatch, hpd_get_dispatch
  public :: hpd_set_max_slowdown, hpd_get_max_slowdown
  public :: hpd_set_calibration, hpd_get_calibration
  public :: hpd_set_energy, hpd_get_energy
  public :: hpd_get_stats, hpd_reset_stats
  public :: hpd_get_dvfs_info, hpd_dvfs_enter, hpd_get_dvfs_totals
  public :: hpd_get_energy_info, hpd_get_energy_sample, hpd_sum_energy_sample

  interface
    function c_get_config(out, size) bind(C, name='hpd_get_config_sized')
      import :: c_int, c_size_t, hpd_config
      type(hpd_config), intent(out) :: out
      integer(c_size_t), value :: size
      integer(c_int) :: c_get_config
    end function c_get_config

    function hpd_get_mem_threshold() bind(C, name='hpd_get_mem_threshold')
      import :: c_double
      real(c_double) :: hpd_get_mem_threshold
    end function hpd_get_mem_threshold

    function hpd_get_disable() bind(C, name='hpd_get_disable')
      import :: c_int
      integer(c_int) :: hpd_get_disable
    end function hpd_get_disable

    ! Every rank of a grid must set the same N_grp, panel width, broadcast algorithm,
    ! chunk and strategy (see the README's options table).
    function hpd_set_ngrp(ngrp) bind(C, name='hpd_set_ngrp')
      import :: c_int
      integer(c_int), value :: ngrp
      integer(c_int) :: hpd_set_ngrp
    end function hpd_set_ngrp

    function hpd_get_ngrp() bind(C, name='hpd_get_ngrp')
      import :: c_int
      integer(c_int) :: hpd_get_ngrp
    end function hpd_get_ngrp

    function hpd_set_kb(kb) bind(C, name='hpd_set_kb')
      import :: c_int
      integer(c_int), value :: kb
      integer(c_int) :: hpd_set_kb
    end function hpd_set_kb

    function hpd_get_kb() bind(C, name='hpd_get_kb')
      import :: c_int
      integer(c_int) :: hpd_get_kb
    end function hpd_get_kb

    function hpd_set_bcast(algorithm) bind(C, name='hpd_set_bcast')
      import :: c_int
      integer(c_int), value :: algorithm
      integer(c_int) :: hpd_set_bcast
    end function hpd_set_bcast

    function hpd_get_bcast() bind(C, name='hpd_get_bcast')
      import :: c_int
      integer(c_int) :: hpd_get_bcast
    end function hpd_get_bcast

    function hpd_get_chunk() bind(C, name='hpd_get_chunk')
      import :: c_int64_t
      integer(c_int64_t) :: hpd_get_chunk
    end function hpd_get_chunk

    function hpd_set_wait(policy) bind(C, name='hpd_set_wait')
      import :: c_int
      integer(c_int), value :: policy
      integer(c_int) :: hpd_set_wait
    end function hpd_set_wait

    function hpd_get_wait() bind(C, name='hpd_get_wait')
      import :: c_int
      integer(c_int) :: hpd_get_wait
    end function hpd_get_wait

    function hpd_set_dvfs(kind) bind(C, name='hpd_set_dvfs')
      import :: c_int
      integer(c_int), value :: kind
      integer(c_int) :: hpd_set_dvfs
    end function hpd_set_dvfs

    function hpd_get_dvfs() bind(C, name='hpd_get_dvfs')
      import :: c_int
      integer(c_int) :: hpd_get_dvfs
    end function hpd_get_dvfs

    function hpd_set_strategy(strategy) bind(C, name='hpd_set_strategy')
      import :: c_int
      integer(c_int), value :: strategy
      integer(c_int) :: hpd_set_strategy
    end function hpd_set_strategy

    function hpd_get_strategy() bind(C, name='hpd_get_strategy')
      import :: c_int
      integer(c_int) :: hpd_get_strategy
    end function hpd_get_strategy

    ! kHz; 0 = the lowest (low) or highest (high) available frequency.
    function hpd_set_freq_low(khz) bind(C, name='hpd_set_freq_low')
      import :: c_int
      integer(c_int), value :: khz
      integer(c_int) :: hpd_set_freq_low
    end function hpd_set_freq_low

    function hpd_set_freq_high(khz) bind(C, name='hpd_set_freq_high')
      import :: c_int
      integer(c_int), value :: khz
      integer(c_int) :: hpd_set_freq_high
    end function hpd_set_freq_high

    function hpd_set_sim_switch_us(us) bind(C, name='hpd_set_sim_switch_us')
      import :: c_double, c_int
      real(c_double), value :: us
      integer(c_int) :: hpd_set_sim_switch_us
    end function hpd_set_sim_switch_us

    ! Milliseconds from 0 to 1e6 (0: switch around every group, as the paper does), or a
    ! negative value for auto, the power model's break-even (HPD_SWITCH_MIN_MS).
    function hpd_set_switch_min_ms(ms) bind(C, name='hpd_set_switch_min_ms')
      import :: c_double, c_int
      real(c_double), value :: ms
      integer(c_int) :: hpd_set_switch_min_ms
    end function hpd_set_switch_min_ms

    ! -1 under auto.
    function hpd_get_switch_min_ms() bind(C, name='hpd_get_switch_min_ms')
      import :: c_double
      real(c_double) :: hpd_get_switch_min_ms
    end function hpd_get_switch_min_ms

    ! HPD_DISPATCH_AUTO or HPD_DISPATCH_ENGINE (HPD_DISPATCH); the same on every rank.
    function hpd_set_dispatch(dispatch) bind(C, name='hpd_set_dispatch')
      import :: c_int
      integer(c_int), value :: dispatch
      integer(c_int) :: hpd_set_dispatch
    end function hpd_set_dispatch

    function hpd_get_dispatch() bind(C, name='hpd_get_dispatch')
      import :: c_int
      integer(c_int) :: hpd_get_dispatch
    end function hpd_get_dispatch

    ! A fraction from 0 to 1 (HPD_MAX_SLOWDOWN); the same on every rank.
    function hpd_set_max_slowdown(fraction) bind(C, name='hpd_set_max_slowdown')
      import :: c_double, c_int
      real(c_double), value :: fraction
      integer(c_int) :: hpd_set_max_slowdown
    end function hpd_set_max_slowdown

    function hpd_get_max_slowdown() bind(C, name='hpd_get_max_slowdown')
      import :: c_double
      real(c_double) :: hpd_get_max_slowdown
    end function hpd_get_max_slowdown

    ! A fraction from 0 to 1 (HPD_CALIBRATION); the same on every rank.
    function hpd_set_calibration(fraction) bind(C, name='hpd_set_calibration')
      import :: c_double, c_int
      real(c_double), value :: fraction
      integer(c_int) :: hpd_set_calibration
    end function hpd_set_calibration

    function hpd_get_calibration() bind(C, name='hpd_get_calibration')
      import :: c_double
      real(c_double) :: hpd_get_calibration
    end function hpd_get_calibration

    function hpd_set_energy(kind) bind(C, name='hpd_set_energy')
      import :: c_int
      integer(c_int), value :: kind
      integer(c_int) :: hpd_set_energy
    end function hpd_set_energy

    function hpd_get_energy() bind(C, name='hpd_get_energy')
      import :: c_int
      integer(c_int) :: hpd_get_energy
    end function hpd_get_energy

    ! This rank's counters; other ranks' differ (sum them with MPI if needed).
    function c_get_stats(out, size) bind(C, name='hpd_get_stats_sized')
      import :: c_int, c_size_t, hpd_stats
      type(hpd_stats), intent(out) :: out
      integer(c_size_t), value :: size
      integer(c_int) :: c_get_stats
    end function c_get_stats

    subroutine hpd_reset_stats() bind(C, name='hpd_reset_stats')
    end subroutine hpd_reset_stats

    function c_get_dvfs_info(out, size) bind(C, name='hpd_get_dvfs_info_sized')
      import :: c_int, c_size_t, hpd_dvfs_info
      type(hpd_dvfs_info), intent(out) :: out
      integer(c_size_t), value :: size
      integer(c_int) :: c_get_dvfs_info
    end function c_get_dvfs_info

    ! Returns 1 if the frequency changed, 0 if it was already the phase's.
    function hpd_dvfs_enter(phase) bind(C, name='hpd_dvfs_enter')
      import :: c_int
      integer(c_int), value :: phase
      integer(c_int) :: hpd_dvfs_enter
    end function hpd_dvfs_enter

    function c_get_dvfs_totals(out, size) bind(C, name='hpd_get_dvfs_totals_sized')
      import :: c_int, c_size_t, hpd_dvfs_totals
      type(hpd_dvfs_totals), intent(out) :: out
      integer(c_size_t), value :: size
      integer(c_int) :: c_get_dvfs_totals
    end function c_get_dvfs_totals

    function c_get_energy_info(out, size) bind(C, name='hpd_get_energy_info_sized')
      import :: c_int, c_size_t, hpd_energy_info
      type(hpd_energy_info), intent(out) :: out
      integer(c_size_t), value :: size
      integer(c_int) :: c_get_energy_info
    end function c_get_energy_info

    function c_get_energy_sample(out, size) bind(C, name='hpd_get_energy_sample_sized')
      import :: c_int, c_size_t, hpd_energy_sample
      type(hpd_energy_sample), intent(out) :: out
      integer(c_size_t), value :: size
      integer(c_int) :: c_get_energy_sample
    end function c_get_energy_sample

    function c_sum_energy_sample(comm, mine, sum, size) &
        bind(C, name='hpd_sum_energy_sample_sized')
      import :: c_int, c_size_t, hpd_energy_sample
      integer(c_int), value :: comm
      type(hpd_energy_sample), intent(in) :: mine
      type(hpd_energy_sample), intent(out) :: sum
      integer(c_size_t), value :: size
      integer(c_int) :: c_sum_energy_sample
    end function c_sum_energy_sample
  end interface

  ! ---- calls with a Fortran face -------------------------------------------------------
  ! Generic where a Fortran caller would otherwise trip over kinds: 0.2 is a default
  ! real, 1 a default integer, and a flag is naturally a logical.
  public :: hpd_set_mem_threshold, hpd_set_disable, hpd_set_chunk
  public :: hpd_set_report, hpd_set_tune_file, hpd_set_sysfs_root
  public :: hpd_set_powercap_root, hpd_set_power_model
  public :: hpd_routine_name, hpd_fallback_reason_name, hpd_strategy_name, hpd_dvfs_name
  public :: hpd_energy_name, hpd_bcast_algorithm_name, hpd_wait_policy_name
  public :: hpd_dispatch_name, hpd_auto_reason_name
  public :: hpd_energy_source_name, hpd_string

  interface hpd_set_mem_threshold
    function set_mem_threshold_double(fraction) bind(C, name='hpd_set_mem_threshold')
      import :: c_double, c_int
      real(c_double), value :: fraction
      integer(c_int) :: set_mem_threshold_double
    end function set_mem_threshold_double
    module procedure set_mem_threshold_float
  end interface hpd_set_mem_threshold

  interface hpd_set_disable
    function set_disable_int(disable) bind(C, name='hpd_set_disable')
      import :: c_int
      integer(c_int), value :: disable
      integer(c_int) :: set_disable_int
    end function set_disable_int
    module procedure set_disable_logical
  end interface hpd_set_disable

  interface hpd_set_chunk
    function set_chunk_int64(bytes) bind(C, name='hpd_set_chunk')
      import :: c_int, c_int64_t
      integer(c_int64_t), value :: bytes
      integer(c_int) :: set_chunk_int64
    end function set_chunk_int64
    module procedure set_chunk_int
  end interface hpd_set_chunk

  ! The C entry points behind the wrappers, under names of their own so the wrappers can
  ! carry the C names.
  interface
    function c_set_report(spec) bind(C, name='hpd_set_report')
      import :: c_char, c_int
      character(kind=c_char), intent(in) :: spec(*)
      integer(c_int) :: c_set_report
    end function c_set_report

    function c_set_tune_file(path) bind(C, name='hpd_set_tune_file')
      import :: c_char, c_int
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int) :: c_set_tune_file
    end function c_set_tune_file

    function c_set_sysfs_root(path) bind(C, name='hpd_set_sysfs_root')
      import :: c_char, c_int
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int) :: c_set_sysfs_root
    end function c_set_sysfs_root

    function c_set_powercap_root(path) bind(C, name='hpd_set_powercap_root')
      import :: c_char, c_int
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int) :: c_set_powercap_root
    end function c_set_powercap_root

    function c_set_power_model(path) bind(C, name='hpd_set_power_model')
      import :: c_char, c_int
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int) :: c_set_power_model
    end function c_set_power_model

    function c_routine_name(routine) bind(C, name='hpd_routine_name')
      import :: c_int, c_ptr
      integer(c_int), value :: routine
      type(c_ptr) :: c_routine_name
    end function c_routine_name

    function c_fallback_reason_name(reason) bind(C, name='hpd_fallback_reason_name')
      import :: c_int, c_ptr
      integer(c_int), value :: reason
      type(c_ptr) :: c_fallback_reason_name
    end function c_fallback_reason_name

    function c_auto_reason_name(reason) bind(C, name='hpd_auto_reason_name')
      import :: c_int, c_ptr
      integer(c_int), value :: reason
      type(c_ptr) :: c_auto_reason_name
    end function c_auto_reason_name

    function c_strategy_name(strategy) bind(C, name='hpd_strategy_name')
      import :: c_int, c_ptr
      integer(c_int), value :: strategy
      type(c_ptr) :: c_strategy_name
    end function c_strategy_name

    function c_dvfs_name(kind) bind(C, name='hpd_dvfs_name')
      import :: c_int, c_ptr
      integer(c_int), value :: kind
      type(c_ptr) :: c_dvfs_name
    end function c_dvfs_name

    function c_energy_name(kind) bind(C, name='hpd_energy_name')
      import :: c_int, c_ptr
      integer(c_int), value :: kind
      type(c_ptr) :: c_energy_name
    end function c_energy_name

    function c_bcast_algorithm_name(algorithm) bind(C, name='hpd_bcast_algorithm_name')
      import :: c_int, c_ptr
      integer(c_int), value :: algorithm
      type(c_ptr) :: c_bcast_algorithm_name
    end function c_bcast_algorithm_name

    function c_wait_policy_name(policy) bind(C, name='hpd_wait_policy_name')
      import :: c_int, c_ptr
      integer(c_int), value :: policy
      type(c_ptr) :: c_wait_policy_name
    end function c_wait_policy_name

    function c_dispatch_name(dispatch) bind(C, name='hpd_dispatch_name')
      import :: c_int, c_ptr
      integer(c_int), value :: dispatch
      type(c_ptr) :: c_dispatch_name
    end function c_dispatch_name

    function c_energy_source_name(source) bind(C, name='hpd_energy_source_name')
      import :: c_int, c_ptr
      integer(c_int), value :: source
      type(c_ptr) :: c_energy_source_name
    end function c_energy_source_name

    function c_strlen(s) bind(C, name='strlen')
      import :: c_ptr, c_size_t
      type(c_ptr), value :: s
      integer(c_size_t) :: c_strlen
    end function c_strlen
  end interface

contains

  ! The calls that fill a type pass its size, which the library checks against its own
  ! (HPD_ERR_ABI where this module was built against another hpdaemon.h).
  subroutine hpd_get_config(out)
    type(hpd_config), intent(out) :: out
    integer(c_int) :: status
    status = c_get_config(out, c_sizeof(out))
  end subroutine hpd_get_config

  integer(c_int) function hpd_get_stats(out)
    type(hpd_stats), intent(out) :: out
    hpd_get_stats = c_get_stats(out, c_sizeof(out))
  end function hpd_get_stats

  integer(c_int) function hpd_get_dvfs_info(out)
    type(hpd_dvfs_info), intent(out) :: out
    hpd_get_dvfs_info = c_get_dvfs_info(out, c_sizeof(out))
  end function hpd_get_dvfs_info

  subroutine hpd_get_dvfs_totals(out)
    type(hpd_dvfs_totals), intent(out) :: out
    integer(c_int) :: status
    status = c_get_dvfs_totals(out, c_sizeof(out))
  end subroutine hpd_get_dvfs_totals

  integer(c_int) function hpd_get_energy_info(out)
    type(hpd_energy_info), intent(out) :: out
    hpd_get_energy_info = c_get_energy_info(out, c_sizeof(out))
  end function hpd_get_energy_info

  integer(c_int) function hpd_get_energy_sample(out)
    type(hpd_energy_sample), intent(out) :: out
    hpd_get_energy_sample = c_get_energy_sample(out, c_sizeof(out))
  end function hpd_get_energy_sample

  ! Collective over comm, a Fortran communicator handle: MPI_COMM_WORLD from
  ! "use mpi", or comm%mpi_val for a type(MPI_Comm) of "use mpi_f08".
  integer(c_int) function hpd_sum_energy_sample(comm, mine, sum)
    integer(c_int), intent(in) :: comm
    type(hpd_energy_sample), intent(in) :: mine
    type(hpd_energy_sample), intent(out) :: sum
    hpd_sum_energy_sample = c_sum_energy_sample(comm, mine, sum, c_sizeof(sum))
  end function hpd_sum_energy_sample

  integer(c_int) function set_mem_threshold_float(fraction)
    real(c_float), intent(in) :: fraction
    set_mem_threshold_float = set_mem_threshold_double(real(fraction, c_double))
  end function set_mem_threshold_float

  integer(c_int) function set_disable_logical(disable)
    logical, intent(in) :: disable
    set_disable_logical = set_disable_int(merge(1_c_int, 0_c_int, disable))
  end function set_disable_logical

  integer(c_int) function set_chunk_int(bytes)
    integer(c_int), intent(in) :: bytes
    ! A negative count must stay invalid, not wrap to a huge unsigned one.
    if (bytes < 0) then
      set_chunk_int = HPD_ERR_INVALID
    else
      set_chunk_int = set_chunk_int64(int(bytes, c_int64_t))
    end if
  end function set_chunk_int

  ! Trailing blanks are dropped, as Fortran pads fixed-length character variables with
  ! them; a value cannot end in a blank.
  pure function c_string(text)
    character(len=*), intent(in) :: text
    character(kind=c_char, len=:), allocatable :: c_string
    c_string = trim(text) // c_null_char
  end function c_string

  ! spec: 'off', 'summary' or 'json:PATH', as for HPD_REPORT.
  integer(c_int) function hpd_set_report(spec)
    character(len=*), intent(in) :: spec
    hpd_set_report = c_set_report(c_string(spec))
  end function hpd_set_report

  ! '' keeps tuned chunk sizes in memory only.
  integer(c_int) function hpd_set_tune_file(path)
    character(len=*), intent(in) :: path
    hpd_set_tune_file = c_set_tune_file(c_string(path))
  end function hpd_set_tune_file

  integer(c_int) function hpd_set_sysfs_root(path)
    character(len=*), intent(in) :: path
    hpd_set_sysfs_root = c_set_sysfs_root(c_string(path))
  end function hpd_set_sysfs_root

  integer(c_int) function hpd_set_powercap_root(path)
    character(len=*), intent(in) :: path
    hpd_set_powercap_root = c_set_powercap_root(c_string(path))
  end function hpd_set_powercap_root

  ! '' selects the built-in model.
  integer(c_int) function hpd_set_power_model(path)
    character(len=*), intent(in) :: path
    hpd_set_power_model = c_set_power_model(c_string(path))
  end function hpd_set_power_model

  ! A NUL-terminated text field of the structs above (config%report_path, info%why, ...)
  ! as a Fortran string, without the NUL and what follows it.
  pure function hpd_string(chars)
    character(kind=c_char), intent(in) :: chars(:)
    character(len=:), allocatable :: hpd_string
    integer :: n, i
    n = size(chars)
    do i = 1, size(chars)
      if (chars(i) == c_null_char) then
        n = i - 1
        exit
      end if
    end do
    allocate(character(len=n) :: hpd_string)
    do i = 1, n
      hpd_string(i:i) = chars(i)
    end do
  end function hpd_string

  ! The names come from static C strings: copied, never freed.
  function from_c(p) result(text)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: text
    character(kind=c_char), pointer :: chars(:)
    if (.not. c_associated(p)) then
      text = ''
      return
    end if
    call c_f_pointer(p, chars, [c_strlen(p)])
    text = hpd_string(chars)
  end function from_c

  ! 'pdgemm', 'pdsyrk', 'pdtrsm', 'pdtrmm', 'pdsymm', 'pdsyr2k', 'pdlaswp'; 'unknown' for a value outside the enum, as in C.
  function hpd_routine_name(routine)
    integer(c_int), intent(in) :: routine
    character(len=:), allocatable :: hpd_routine_name
    hpd_routine_name = from_c(c_routine_name(routine))
  end function hpd_routine_name

  function hpd_auto_reason_name(reason)
    integer(c_int), intent(in) :: reason
    character(len=:), allocatable :: hpd_auto_reason_name
    hpd_auto_reason_name = from_c(c_auto_reason_name(reason))
  end function hpd_auto_reason_name

  function hpd_fallback_reason_name(reason)
    integer(c_int), intent(in) :: reason
    character(len=:), allocatable :: hpd_fallback_reason_name
    hpd_fallback_reason_name = from_c(c_fallback_reason_name(reason))
  end function hpd_fallback_reason_name

  function hpd_strategy_name(strategy)
    integer(c_int), intent(in) :: strategy
    character(len=:), allocatable :: hpd_strategy_name
    hpd_strategy_name = from_c(c_strategy_name(strategy))
  end function hpd_strategy_name

  function hpd_dvfs_name(kind)
    integer(c_int), intent(in) :: kind
    character(len=:), allocatable :: hpd_dvfs_name
    hpd_dvfs_name = from_c(c_dvfs_name(kind))
  end function hpd_dvfs_name

  function hpd_energy_name(kind)
    integer(c_int), intent(in) :: kind
    character(len=:), allocatable :: hpd_energy_name
    hpd_energy_name = from_c(c_energy_name(kind))
  end function hpd_energy_name

  function hpd_bcast_algorithm_name(algorithm)
    integer(c_int), intent(in) :: algorithm
    character(len=:), allocatable :: hpd_bcast_algorithm_name
    hpd_bcast_algorithm_name = from_c(c_bcast_algorithm_name(algorithm))
  end function hpd_bcast_algorithm_name

  function hpd_wait_policy_name(policy)
    integer(c_int), intent(in) :: policy
    character(len=:), allocatable :: hpd_wait_policy_name
    hpd_wait_policy_name = from_c(c_wait_policy_name(policy))
  end function hpd_wait_policy_name

  function hpd_dispatch_name(dispatch)
    integer(c_int), intent(in) :: dispatch
    character(len=:), allocatable :: hpd_dispatch_name
    hpd_dispatch_name = from_c(c_dispatch_name(dispatch))
  end function hpd_dispatch_name

  function hpd_energy_source_name(source)
    integer(c_int), intent(in) :: source
    character(len=:), allocatable :: hpd_energy_source_name
    hpd_energy_source_name = from_c(c_energy_source_name(source))
  end function hpd_energy_source_name

end module hpdaemon
