# hpdaemon time / reference time per call against N, one line per grid, block size and
# load, with each median's 95% interval; the eigen-solve mix is printed in the title.
# Reads the CSV of timing/bench_calls (timing/run_calls.sh); 1.0 or below: never slower.
# Usage: gnuplot -e "csv='calls.csv'; png='calls.png'" timing/plots/calls.gp
if (!exists("csv")) csv = "calls.csv"
if (!exists("png")) png = "calls.png"
set terminal pngcairo size 1400,900 font "sans,13" noenhanced
set output png
set datafile separator comma
set datafile missing "nan"
set logscale x 2
set xlabel "N (square pdgemm, N x N x N)"
set ylabel "hpdaemon time / reference time (median, 95% interval)"
set key outside right top
set grid
keys = system(sprintf("awk -F, 'NR > 1 && $2 == \"square\" { print $1 \"|\" $5 \"x\" $6 \"|\" $4 }' '%s' | awk '!seen[$0]++' | tr '\\n' ' '", csv))
eigen = system(sprintf("awk -F, 'NR > 1 && $2 == \"eigen\" { printf \"%%s %%dx%%d NB %%d: %%.3f; \", $1, $5, $6, $4, $9 }' '%s'", csv))
set title "hpdaemon / reference, time per call (above 3 clipped)\neigen-solve mix: ".eigen font ",11"
set yrange [0:3]
match(k) = sprintf("%s|%dx%d|%d", strcol(1), column(5), column(6), column(4)) eq k && strcol(2) eq "square"
set arrow from graph 0, first 1 to graph 1, first 1 nohead lw 2 lc rgb "#444444"
plot for [i = 1:words(keys)] csv using (match(word(keys, i)) ? column(3) : NaN):9:10:11 \
     with yerrorlines title word(keys, i)
