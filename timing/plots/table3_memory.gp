# The paper's Table 3 as a plot: the memory threshold that gives each N_grp, and the extra
# memory that N_grp costs, in theory (the left-hand side of Eq. 1) and as observed, for
# each matrix order N.
# Reads DIR/table3.csv (timing/run_suite.sh), writes DIR/table3-memory.png.
# Usage: gnuplot -e "dir='RESULTS'" timing/plots/table3_memory.gp
if (!exists("dir")) dir = "."
csv = dir."/table3.csv"
set terminal pngcairo size 1600,800 font "sans,13" noenhanced
set output dir."/table3-memory.png"
# A smoke run's sizes are too small for its numbers to mean anything: the plot says so.
if (exists("quick") && quick) set label 99 "SMOKE RUN (--quick)" at screen 0.004, screen 0.012 left font ",10" textcolor rgb "#d62728"
set datafile separator comma

orders = system(sprintf("awk -F, 'NR > 1 { print $1 }' '%s' | sort -n -u | tr '\\n' ' '", csv))
stats csv using "nb" name "NB" nooutput
stats csv using "ngrp" name "G" nooutput
stats csv using "p" name "GP" nooutput
stats csv using "q" name "GQ" nooutput
array colour[8] = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf"]
hue(i) = colour[(i - 1) % 8 + 1]
ladder(n) = column("n") == n && strcol("kind") eq "ladder"
own(n) = column("n") == n && strcol("kind") eq "own"

set multiplot layout 1, 2 title sprintf("Paper's Table 3: memory threshold and extra memory against N_grp, pdgemm, strategy daemon, grid %dx%d, NB=%d (one call per row)", GP_max, GQ_max, NB_max)
set logscale x 2
set logscale y 10
set xrange [0.7 : G_max * 1.4]
set xlabel "N_grp chosen by hpdaemon (panels broadcast per group, log scale)"
set grid xtics ytics lc rgb "#dddddd"
# Thresholds and memory both grow with N_grp, so the lower right corner of the left panel
# (the own threshold's stars sit at the top) and the upper left of the right stay empty.
set key bottom right box opaque font ",11"

# ---- left: the threshold -------------------------------------------------------------------
set title "threshold given (fraction of node memory) and the N_grp it gave"
set ylabel "memory threshold T_mem (fraction of node memory, log scale)"
set format y "%g"
plot NaN with points lc rgb "black" pt 3 ps 3 lw 2 title sprintf("the run's own threshold: every panel fits"), \
     for [i = 1:words(orders)] csv using (ladder(word(orders, i) + 0) ? column("ngrp") : NaN):"threshold" with linespoints lc rgb hue(i) lw 2 pt 7 ps 1.3 title sprintf("N=%s (thresholds half a step above each power of two)", word(orders, i)), \
     for [i = 1:words(orders)] csv using (own(word(orders, i) + 0) ? column("ngrp") : NaN):"threshold" with points lc rgb hue(i) pt 3 ps 3 lw 2 notitle

# ---- right: the memory -------------------------------------------------------------------
set title "extra memory per rank for the group buffers (largest rank)"
set key top left
set ylabel "extra memory per rank (MiB, log scale; a growth of 0 is not drawn)"
# The styles once in black, then one colour per order, so the key stays short.
plot NaN with lines lc rgb "black" lw 2 title "theoretical: left-hand side of Eq. 1", \
     NaN with points lc rgb "black" pt 6 ps 1.6 title "observed: buffers allocated", \
     NaN with points lc rgb "black" pt 2 ps 1.6 title "observed: resident memory growth across the call", \
     for [i = 1:words(orders)] csv using (ladder(word(orders, i) + 0) ? column("ngrp") : NaN):"extra_mib_model" with lines lc rgb hue(i) lw 2 title sprintf("N=%s", word(orders, i)), \
     for [i = 1:words(orders)] csv using (ladder(word(orders, i) + 0) ? column("ngrp") : NaN):"extra_mib_observed" with points lc rgb hue(i) pt 6 ps 1.6 notitle, \
     for [i = 1:words(orders)] csv using (ladder(word(orders, i) + 0) && column("rss_growth_mib") > 0 ? column("ngrp") : NaN):"rss_growth_mib" with points lc rgb hue(i) pt 2 ps 1.6 notitle
unset multiplot
