# The paper's Figure 4: one message's broadcast time against the pipeline's chunk size,
# beside the binomial tree and MPI's own broadcasts, with the design brief's models.
# Reads DIR/bcast.csv (timing/run_suite.sh), writes DIR/fig4-broadcast.png.
# Usage: gnuplot -e "dir='RESULTS'" timing/plots/fig4_broadcast.gp
if (!exists("dir")) dir = "."
csv = dir."/bcast.csv"
set terminal pngcairo size 1600,800 font "sans,13" noenhanced
set output dir."/fig4-broadcast.png"
# A smoke run's sizes are too small for its numbers to mean anything: the plot says so.
if (exists("quick") && quick) set label 99 "SMOKE RUN (--quick)" at screen 0.004, screen 0.012 left font ",10" textcolor rgb "#d62728"
set datafile separator comma

# The sweep's message size and the rank counts it ran on, from the rows themselves.
stats csv using (strcol("mode") eq "chunks" ? column("bytes") : NaN) name "S" nooutput
bytes = S_max
wait_policy = system(sprintf("awk -F, 'NR > 1 && $1 == \"chunks\" { print $4; exit }' '%s'", csv))
rank_list = system(sprintf("awk -F, 'NR > 1 && $1 == \"chunks\" { print $2 }' '%s' | sort -n -u | tr '\\n' ' '", csv))

# One table per curve, so that the rows of another curve never break its line.
sweep(r) = strcol("mode") eq "chunks" && column("ranks") == r
set multiplot layout 1, words(rank_list) title sprintf("Paper's Figure 4: broadcast of one %.0f MiB message against the pipeline's chunk size, receivers waiting by %s\n(median of the repetitions, bars min..max; lower is better)", bytes / 1048576.0, wait_policy eq "yield" ? "yielding" : wait_policy)
do for [i = 1:words(rank_list)] {
  r = word(rank_list, i) + 0
  # stats keeps to the ranges in force: the previous panel's must not cut this one's data.
  set autoscale xy
  set datafile separator comma
  set table $pipe
  plot csv using (column("chunk") / 1024.0):(column("median_s") * 1e3):(column("min_s") * 1e3):(column("max_s") * 1e3):(column("model_s") * 1e3) with table if (sweep(r) && strcol("algorithm") eq "pipeline")
  unset table
  # The flat lines: the binomial tree and its model from the sweep, MPI from the bandwidth
  # table at the same message size.
  # stats leaves its variables undefined when no row matches: a missing curve is left out.
  undefine B_* TB_* I_* M_*
  stats csv using (sweep(r) && strcol("algorithm") eq "binomial" ? column("median_s") * 1e3 : NaN) name "B" nooutput
  stats csv using (sweep(r) && strcol("algorithm") eq "binomial" ? column("model_s") * 1e3 : NaN) name "TB" nooutput
  stats csv using (strcol("mode") eq "bandwidth" && column("ranks") == r && column("bytes") == bytes && strcol("algorithm") eq "mpi" ? column("median_s") * 1e3 : NaN) name "I" nooutput
  stats csv using (strcol("mode") eq "bandwidth" && column("ranks") == r && column("bytes") == bytes && strcol("algorithm") eq "mpi_bcast" ? column("median_s") * 1e3 : NaN) name "M" nooutput
  set datafile separator whitespace

  set title sprintf("%d ranks%s", r, r > 2 ? " (more ranks than the 2 cores here: oversubscribed)" : "")
  set logscale x 2
  set logscale y 10
  set xlabel "pipeline chunk size (bytes, log scale)"
  set xtics ("8K" 8, "16K" 16, "32K" 32, "64K" 64, "128K" 128, "256K" 256, "512K" 512, "1M" 1024, "2M" 2048, "4M" 4096, "8M" 8192, "16M" 16384, "32M" 32768, "64M" 65536)
  set ylabel "time of one broadcast (ms, log scale)"
  set grid xtics ytics mytics lc rgb "#dddddd"
  set key below horizontal maxcols 2 font ",11"
  stats $pipe using 1 name "C" nooutput
  set xrange [C_min / 1.5 : C_max * 1.5]
  # The flat lines do not widen gnuplot's autoscaling: the range is taken from every
  # figure drawn, whole decades around them.
  stats $pipe using 3 name "LO" nooutput
  stats $pipe using 4 name "HI" nooutput
  stats $pipe using 5 name "MO" nooutput
  y_lo = LO_min < MO_min ? LO_min : MO_min
  y_hi = HI_max > MO_max ? HI_max : MO_max
  do for [v in "B_median TB_median I_median M_median"] {
    if (exists(v)) { y_lo = value(v) < y_lo ? value(v) : y_lo; y_hi = value(v) > y_hi ? value(v) : y_hi }
  }
  set yrange [10 ** floor(log10(y_lo / 1.3)) : 10 ** ceil(log10(y_hi * 1.3))]
  plot $pipe using 1:2:3:4 with yerrorbars lc rgb "#1f77b4" pt 7 ps 1.2 title "pipeline (measured)", \
       $pipe using 1:2 with lines lc rgb "#1f77b4" lw 2 notitle, \
       $pipe using 1:5 with linespoints lc rgb "#1f77b4" dt 2 lw 2 pt 6 title "pipeline MODEL T_P = (Ts + S/(n BW)) (n + P - 1)", \
       exists("B_median") ? B_median : NaN with lines lc rgb "#d62728" lw 2 title "binomial tree (measured)", \
       exists("TB_median") ? TB_median : NaN with lines lc rgb "#d62728" dt 2 lw 2 title "binomial MODEL T_B = (Ts + S/BW) log2 P", \
       exists("I_median") ? I_median : NaN with lines lc rgb "#2ca02c" lw 2 title "MPI_Ibcast through hpdaemon (measured)", \
       exists("M_median") ? M_median : NaN with lines lc rgb "#7f7f7f" lw 2 dt 4 title "plain MPI_Bcast (measured)"
}
unset multiplot
