# hpdaemon's pdgemm (or the routine named: pdgemm, lu, chol) against the reference on
# simulated clusters under the default settings: ref/hpd of the first, the second and the
# steady calls against the ranks, one colour per platform.  Reads DIR/simulated.csv
# (timing/run_simulated.sh); writes DIR/simulated-scaling.png.
# Usage: gnuplot -e "dir='RESULTS'; routine='lu'" timing/plots/simulated_scaling.gp
if (!exists("dir")) dir = "."
if (!exists("routine")) routine = "pdgemm"
title_of(r) = (r eq "lu" ? "pdgetrf (LU)" : r eq "chol" ? "pdpotrf (Cholesky, L)" : r)
csv = dir."/simulated.csv"
set terminal pngcairo size 1200,800 font "sans,13" noenhanced
set output dir."/simulated-scaling.png"
set datafile separator comma
platforms = system(sprintf("awk -F, 'NR > 1 { print $1 }' '%s' | awk '!seen[$0]++' | tr '\\n' ' '", csv))
set logscale x 2
set xlabel "simulated ranks (P x Q)"
set ylabel "reference time / hpdaemon time"
set key outside right top
set grid
set yrange [0:*]
set arrow from graph 0, first 1 to graph 1, first 1 nohead dashtype 2 lc rgb "#555555"
on(p) = strcol("platform") eq p
ranks = 'column("p") * column("q")'
set title title_of(routine).", default settings (first, second and steady calls)"
plot for [i = 1:words(platforms)] csv \
       using (on(word(platforms, i)) ? @ranks : NaN):(column("other_first_s") / column("first_s")) \
       with linespoints dashtype 3 pt 4 lc i title word(platforms, i)." first", \
     for [i = 1:words(platforms)] csv \
       using (on(word(platforms, i)) ? @ranks : NaN):(column("other_first_s") / column("second_s")) \
       with linespoints dashtype 2 pt 6 lc i title word(platforms, i)." second", \
     for [i = 1:words(platforms)] csv \
       using (on(word(platforms, i)) ? @ranks : NaN):"ratio" \
       with linespoints lw 2 pt 7 lc i title word(platforms, i)." steady"
