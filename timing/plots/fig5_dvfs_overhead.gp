# The paper's Figure 5: what frequency switches cost against their number, on the sim
# backend (no frequency changes; each switch keeps its core busy for the emulated
# latency).  Left: switches alone; right: the same switches inside pdgemm.
# Reads DIR/dvfs-switches.csv and DIR/dvfs-pdgemm.csv, writes DIR/fig5-dvfs-overhead.png.
# Usage: gnuplot -e "dir='RESULTS'" timing/plots/fig5_dvfs_overhead.gp
if (!exists("dir")) dir = "."
switches_csv = dir."/dvfs-switches.csv"
pdgemm_csv = dir."/dvfs-pdgemm.csv"
set terminal pngcairo size 1600,800 font "sans,13" noenhanced
set output dir."/fig5-dvfs-overhead.png"
# A smoke run's sizes are too small for its numbers to mean anything: the plot says so.
if (exists("quick") && quick) set label 99 "SMOKE RUN (--quick)" at screen 0.004, screen 0.012 left font ",10" textcolor rgb "#d62728"

set datafile separator comma
# The emulated latency and the modeled joules per switch, from the rows themselves.
undefine L_*
stats switches_csv using (column("latency_us") > 0 ? column("latency_us") : NaN) name "L" nooutput
# Run at 0 us only (HPD_SIM_SWITCH_US=0), there is no latency to model: a nominal 1 us
# keeps the axes defined.
latency_us = exists("L_max") ? L_max : 1
stats switches_csv using (column("switches_per_rep") > 0 ? column("energy_modeled_j") / column("switches_per_rep") : NaN) name "J" nooutput
joules = J_median
ms_at(us) = (strcol("latency_us") + 0 == us && column("switches_per_rep") > 0)
set table $slow
plot switches_csv using "switches_per_rep":(column("median_s") * 1e3):(column("min_s") * 1e3):(column("max_s") * 1e3):(column("lib_switch_s") * 1e3) with table if (ms_at(latency_us))
unset table
set table $zero
plot switches_csv using "switches_per_rep":(column("median_s") * 1e3):(column("min_s") * 1e3):(column("max_s") * 1e3) with table if (ms_at(0))
unset table
stats switches_csv using "switches_per_rep" name "S" nooutput
set datafile separator whitespace
stats $slow using 4 name "HI" nooutput
stats $zero using 3 name "LO" nooutput
# Whole decades around the data, the model line included.
y_lo = 10 ** floor(log10((LO_min > 0 ? LO_min : 1e-4) / 1.5))
y_hi = 10 ** ceil(log10((HI_max > S_max * latency_us * 1e-3 ? HI_max : S_max * latency_us * 1e-3) * 1.5))

set multiplot layout 1, 2 title sprintf("Paper's Figure 5: the time overhead of frequency switches, sim backend emulating %.0f us per switch (energy: MODELED, %.2g J per switch)", latency_us, joules)

# ---- left: switches alone --------------------------------------------------------------
set title "S switches alone, one rank (median, bars min..max)"
set logscale xy 10
set xlabel "number of switches S (log scale)"
set ylabel "time of the S switches (ms, log scale)"
# The right axis is the left one times joules per millisecond of switching, so the one
# model line reads as time on the left and as modeled energy on the right.
set yrange [y_lo : y_hi]
set y2range [y_lo * joules / (latency_us * 1e-3) : y_hi * joules / (latency_us * 1e-3)]
set logscale y2 10
set y2tics
set ytics nomirror
set y2label "MODELED energy of the S switches (J)"
set xrange [S_min > 0 ? S_min / 1.5 : 5 : S_max * 1.5]
set grid xtics ytics lc rgb "#dddddd"
set key below font ",11"
set format y "%g"
set format y2 "%g"
plot $slow using 1:2:3:4 with yerrorbars lc rgb "#d62728" pt 7 ps 1.2 title sprintf("measured at %.0f us emulated latency", latency_us), \
     $slow using 1:2 with lines lc rgb "#d62728" lw 2 notitle, \
     $slow using 1:5 with points lc rgb "#9467bd" pt 6 ps 1.6 title "hpdaemon's own count of time spent switching", \
     $zero using 1:2:3:4 with yerrorbars lc rgb "#1f77b4" pt 5 ps 1.2 title "measured at 0 us: hpdaemon's bookkeeping alone", \
     $zero using 1:2 with lines lc rgb "#1f77b4" lw 2 notitle, \
     [x = S_min > 0 ? S_min / 1.5 : 5 : S_max * 1.5] x * latency_us * 1e-3 with lines lc rgb "black" dt 2 lw 2 title sprintf("MODEL: S x %.0f us (left) = S x %.2g J, MODELED energy (right)", latency_us, joules)

# ---- right: inside pdgemm ----------------------------------------------------------------
unset logscale
unset y2tics
unset y2label
set ytics mirror
set format y "%g"
# The pdgemm step may have failed while the switches alone were measured: the panel says so.
have_pdgemm = system(sprintf("test -s '%s' && echo 1 || echo 0", pdgemm_csv)) + 0
if (have_pdgemm) {
  # stats keeps to the ranges in force: the left panel's must not cut this one's data.
  set autoscale xy
  set datafile separator comma
  undefine P_*
  stats pdgemm_csv using "n" name "P" nooutput
  set table $daemon
  plot pdgemm_csv using "expected_per_call":(column("paired_vs_none_s") * 1e3):(column("switch_s_per_call") * 1e3):(column("model_overhead_s") * 1e3):"ngrp" with table if (strcol("strategy") eq "daemon")
  unset table
  set datafile separator whitespace
  stats $daemon using 1 name "E" nooutput
  set title sprintf("the same switches inside pdgemm N=%d: daemon at each N_grp, per call", P_max)
  # Eq. 4 halves the switches as N_grp doubles: a log2 axis spaces the blocks evenly.
  set logscale x 2
  set xlabel "switches per pdgemm call, 2 x ceil(steps / N_grp) (Eq. 4, log scale)"
  set ylabel "time overhead per call (ms)"
  set xrange [E_min / 1.5 : E_max * 1.5]
  # Room above the points for the key and the labels, however the noise scatters them.
  set offsets 0, 0, graph 0.4, graph 0.05
  set key inside top right box opaque font ",11"
  plot $daemon using 1:2 with points lc rgb "#d62728" pt 7 ps 1.6 title "daemon - none, same N_grp (measured)", \
       $daemon using 1:3 with points lc rgb "#9467bd" pt 6 ps 1.8 title "hpdaemon's own count of time spent switching", \
       $daemon using 1:2:(sprintf("N_grp %d", $5)) with labels offset 0,1.2 font ",10" notitle, \
       $daemon using 1:4 with lines lc rgb "black" dt 2 lw 2 title sprintf("MODEL: switches x %.0f us", latency_us), \
       0 with lines lc rgb "#999999" notitle
} else {
  set title "the same switches inside pdgemm"
  set xlabel ""
  set ylabel ""
  set yrange [0 : 1]
  set xrange [0 : 1]
  set label 10 "not measured: no dvfs-pdgemm.csv (see the suite's log of the step)" at graph 0.5, 0.5 center
  plot NaN notitle
}
unset multiplot
