# Sourced by the timing scripts, the demo, the test suite and scripts/simulate.  OpenBLAS
# 0.3.21 does not recognise recent AVX-512 CPUs and falls back to its oldest kernels there
# (several times slower); where the CPU has AVX-512 and the caller chose nothing, its
# AVX-512 kernels are chosen.  Every side of a comparison inherits the same choice.
if [[ -z ${OPENBLAS_CORETYPE+set} ]] && grep -qw avx512f /proc/cpuinfo 2>/dev/null; then
  export OPENBLAS_CORETYPE=SkylakeX
fi
