# pdgemm's rate against N for hpdaemon and reference ScaLAPACK, its efficiency against
# local dgemm on the same cores, and LU (pdgetrf) and Cholesky (pdpotrf) with and
# without hpdaemon.
# Reads DIR/pdgemm.csv, DIR/dgemm.csv and, when there, DIR/factor.csv (timing/run_suite.sh);
# writes DIR/pdgemm-scaling.png.
# Usage: gnuplot -e "dir='RESULTS'" timing/plots/pdgemm_scaling.gp
if (!exists("dir")) dir = "."
pdgemm_csv = dir."/pdgemm.csv"
dgemm_csv = dir."/dgemm.csv"
factor_csv = dir."/factor.csv"
have_factor = system(sprintf("test -s '%s' && echo 1 || echo 0", factor_csv)) + 0
set terminal pngcairo size 1600,1200 font "sans,13" noenhanced
set output dir."/pdgemm-scaling.png"
# A smoke run's sizes are too small for its numbers to mean anything: the plot says so.
if (exists("quick") && quick) set label 99 "SMOKE RUN (--quick)" at screen 0.004, screen 0.012 left font ",10" textcolor rgb "#d62728"
set datafile separator comma

grids = system(sprintf("awk -F, 'NR > 1 { print $3 \"x\" $4 }' '%s' | awk '!seen[$0]++' | tr '\\n' ' '", pdgemm_csv))
ngrids = words(grids)
stats pdgemm_csv using "nb" name "NB" nooutput
stats pdgemm_csv using "reps" name "R" nooutput
stats dgemm_csv using "threads" name "TH" nooutput
grid_is(g) = sprintf("%dx%d", column("p"), column("q")) eq g
flops(n) = 2.0 * n ** 3 / 1e9
# One table per grid: n, hpd GF/s (median, from slowest, from fastest), ref GF/s (same),
# efficiencies, ref/hpd.
do for [i = 1:ngrids] {
  eval sprintf("set table $grid%d", i)
  plot pdgemm_csv using "n":"hpd_gflops":(flops(column("n")) / column("hpd_max_s")):(flops(column("n")) / column("hpd_min_s")):"ref_gflops":(flops(column("n")) / column("ref_max_s")):(flops(column("n")) / column("ref_min_s")):(column("hpd_gflops") / column("local_gflops")):(column("ref_gflops") / column("local_gflops")):"ratio_ref_over_hpd" with table if (grid_is(word(grids, i)))
  unset table
}
set table $dgemm
plot dgemm_csv using "n":"gflops" with table
unset table
array factors[2] = ["pdgetrf", "pdpotrf"]
array factor_name[2] = ["LU (pdgetrf)", "Cholesky (pdpotrf)"]
if (have_factor) {
  # The factorization rows alternate LU and Cholesky, so each gets its own table:
  # n, hpd seconds (median, min, max), ref seconds (median, min, max), ref/hpd.
  do for [i = 1:2] {
    eval sprintf("set table $factor%d", i)
    plot factor_csv using "n":"hpd_median_s":"hpd_min_s":"hpd_max_s":"ref_median_s":"ref_min_s":"ref_max_s":(column("ref_median_s") / column("hpd_median_s")) with table if (strcol("factor") eq factors[i])
    unset table
  }
  stats factor_csv using "nb" name "FNB" nooutput
  stats factor_csv using "reps" name "FR" nooutput
  stats factor_csv using "p" name "FP" nooutput
  stats factor_csv using "q" name "FQ" nooutput
  factor_strategy = system(sprintf("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"strategy\") c = i; next } c { print $c; exit }' '%s'", factor_csv))
}
set datafile separator whitespace

array colour[4] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]
set multiplot layout 2, 2 margins 0.07, 0.98, 0.07, 0.9 spacing 0.08, 0.11 title sprintf("pdgemm against N, hpdaemon and reference ScaLAPACK in the same run, NB=%d, 1 BLAS thread per rank (medians of %d calls per side, bars min..max; measured)", NB_max, R_max)
set grid xtics ytics lc rgb "#dddddd"
set xlabel "matrix order N (square A, B, C)"
# Every panel gets empty room above its data for the key, wherever its lines run.
set key top left box opaque font ",11"
set offsets graph 0.03, graph 0.03, graph 0.45, 0

# ---- (a) rate -------------------------------------------------------------------------
set title "(a) pdgemm rate, whole grid (higher is better)"
set ylabel "GFLOP/s, 2 N^3 / time"
set yrange [0 : *]
plot $dgemm using 1:2 with linespoints lc rgb "black" lw 2 dt 2 pt 4 ps 1.3 title sprintf("local dgemm, 1 process, %d BLAS threads: the limit", TH_max), \
     for [i = 1:ngrids] sprintf("$grid%d", i) using 1:2:3:4 with yerrorlines lc rgb colour[i] lw 2 pt 7 ps 1.3 title sprintf("hpdaemon, grid %s", word(grids, i)), \
     for [i = 1:ngrids] sprintf("$grid%d", i) using 1:5:6:7 with yerrorlines lc rgb colour[i] lw 2 dt 3 pt 6 ps 1.3 title sprintf("reference, grid %s", word(grids, i))

# ---- (b) efficiency -------------------------------------------------------------------
set title "(b) efficiency: pdgemm rate / local dgemm rate at the same N"
set ylabel "fraction of local dgemm's GFLOP/s"
set yrange [0 : *]
plot 1 with lines lc rgb "black" dt 2 lw 1 title "local dgemm (1.0)", \
     for [i = 1:ngrids] sprintf("$grid%d", i) using 1:8 with linespoints lc rgb colour[i] lw 2 pt 7 ps 1.3 title sprintf("hpdaemon, grid %s", word(grids, i)), \
     for [i = 1:ngrids] sprintf("$grid%d", i) using 1:9 with linespoints lc rgb colour[i] lw 2 dt 3 pt 6 ps 1.3 title sprintf("reference, grid %s", word(grids, i))

# ---- (c) LU and Cholesky ----------------------------------------------------------------
if (have_factor) {
  set title sprintf("(c) LU and Cholesky, grid %dx%d, NB=%d, hpdaemon under %s (medians of %d)", FP_max, FQ_max, FNB_max, factor_strategy, FR_max)
  set ylabel "time per factorization (s, log scale)"
  set logscale y 10
  set yrange [* : *]
  # The room for the key, and no more: a log axis would round it up to whole decades.
  set autoscale yfix
  set offsets graph 0.03, graph 0.03, graph 0.35, graph 0.05
  plot for [i = 1:2] sprintf("$factor%d", i) using 1:2:3:4 with yerrorlines lc rgb colour[i + 2] lw 2 pt 7 ps 1.3 title sprintf("%s, hpdaemon", factor_name[i]), \
       for [i = 1:2] sprintf("$factor%d", i) using 1:5:6:7 with yerrorlines lc rgb colour[i + 2] lw 2 dt 3 pt 6 ps 1.3 title sprintf("%s, reference", factor_name[i])
  unset logscale y
  set autoscale y
} else {
  set title "(c) LU and Cholesky"
  set ylabel ""
  set yrange [0 : 1]
  set label 10 "not measured: timing/bench_factor was not built\n(rebuild, then rerun timing/run_suite.sh)" at graph 0.5, 0.5 center
  plot NaN notitle
  unset label 10
}

set offsets graph 0.03, graph 0.03, graph 0.45, 0

# ---- (d) speed-up -------------------------------------------------------------------------
set title "(d) reference time / hpdaemon time (above 1: hpdaemon faster)"
set ylabel "ref / hpd, from the medians"
set yrange [* : *]
set autoscale y
plot 1 with lines lc rgb "black" dt 2 lw 1 title "1: equal", \
     for [i = 1:ngrids] sprintf("$grid%d", i) using 1:10 with linespoints lc rgb colour[i] lw 2 pt 7 ps 1.3 title sprintf("pdgemm, grid %s", word(grids, i)), \
     for [i = 1:(have_factor ? 2 : 0)] sprintf("$factor%d", i) using 1:8 with linespoints lc rgb colour[i + 2] lw 2 pt 5 ps 1.3 title factor_name[i]
unset multiplot
