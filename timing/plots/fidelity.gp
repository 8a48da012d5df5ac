# The simulated timing mode against this machine: simulated over native seconds of each
# benchmark and side (timing/run_fidelity.sh), one bar each, grouped by setting.  The band
# is the issue's bound, within 15% of native.
# Reads DIR/fidelity.csv; writes DIR/fidelity.png.
# Usage: gnuplot -e "dir='RESULTS'" timing/plots/fidelity.gp
if (!exists("dir")) dir = "."
csv = dir."/fidelity.csv"
set terminal pngcairo size 1200,700 font "sans,12" noenhanced
set output dir."/fidelity.png"
set datafile separator comma
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set ylabel "simulated time / native time"
set yrange [0:*]
set grid ytics
set xtics rotate by -40 scale 0
set key off
set object 1 rect from graph 0, first 0.85 to graph 1, first 1.15 fc rgb "#e0f0e0" behind
set arrow from graph 0, first 1 to graph 1, first 1 nohead dashtype 2 lc rgb "#555555"
set title "simulated (emulated platform) against native, per setting, benchmark and side"
plot csv using "simulated_over_native":xtic(strcol("setting")." ".strcol("part")." ".strcol("side")) \
     lc rgb "#4070b0"
