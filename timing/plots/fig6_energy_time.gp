# The paper's Figure 6: energy and time of pdgemm under each switching strategy (none,
# basic, daemon) at several orders N, with reference ScaLAPACK beside them; below, the same
# for LU (pdgetrf), whose trailing updates go through pdgemm.
# Reads DIR/energy.csv (timing/run_suite.sh), writes DIR/fig6-energy-time.png.
# Usage: gnuplot -e "dir='RESULTS'" timing/plots/fig6_energy_time.gp
if (!exists("dir")) dir = "."
csv = dir."/energy.csv"
set terminal pngcairo size 1600,1200 font "sans,13" noenhanced
set output dir."/fig6-energy-time.png"
# A smoke run's sizes are too small for its numbers to mean anything: the plot says so.
if (exists("quick") && quick) set label 99 "SMOKE RUN (--quick)" at screen 0.004, screen 0.012 left font ",10" textcolor rgb "#d62728"
set datafile separator comma

# Where the energy came from decides every label: a meter's joules are measured, the
# power model's are not, and the plot must say which.
sources = system(sprintf("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"energy_source\") c = i; next } c && $c != \"\" { print $c }' '%s' | sort -u | tr '\\n' ' '", csv))
modeled = strstrt(sources, "modeled") > 0
measured = strstrt(sources, "measured") > 0
energy_word = modeled ? (measured ? "MODELED on some rows, measured on others" : "MODELED: no power meter, hpdaemon's power model") : (measured ? "measured by the node's meter" : "none recorded")
backends = system(sprintf("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"dvfs\") c = i; next } c && $c != \"\" { print $c }' '%s' | sort -u | tr '\\n' ' '", csv))
# Under sim the model books the broadcasts at the low frequency, yet the clock never moved.
dvfs_word = backends eq "sim " ? "DVFS backend sim: switches recorded and timed, the frequency never changed" : sprintf("DVFS backend: %s", backends)
orders = system(sprintf("awk -F, 'NR > 1 { print $3 }' '%s' | sort -n -u | tr '\\n' ' '", csv))
idx(n) = sum [i = 1:words(orders)] (word(orders, i) + 0 == n ? i : 0)
stats csv using "threshold" name "T" nooutput
stats csv using "nb" name "NB" nooutput
stats csv using "runs" name "R" nooutput
stats csv using "p" name "GP" nooutput
stats csv using "q" name "GQ" nooutput

array strategy[4] = ["none", "basic", "daemon", "reference"]
array label[4] = ["hpdaemon none: no switches", "hpdaemon basic: 2 switches per panel", "hpdaemon daemon: 2 switches per group, held if too short", "reference ScaLAPACK"]
array colour[4] = ["#1f77b4", "#ff7f0e", "#2ca02c", "#555555"]
width = 0.19
xpos(k) = idx(column("n")) + (k - 2.5) * (width + 0.01)
pick(r, k) = strcol("routine") eq r && strcol("strategy") eq strategy[k]

set multiplot layout 2, 2 margins 0.07, 0.98, 0.06, 0.85 spacing 0.08, 0.1 title sprintf("Paper's Figure 6: energy and time per strategy against reference ScaLAPACK, grid %dx%d, NB=%d, threshold %g (median of %d runs; lower is better)\nenergy of all ranks: %s; %s", GP_max, GQ_max, NB_max, T_max, R_max, energy_word, dvfs_word)
set style fill solid 0.85 border rgb "black"
set grid ytics mytics lc rgb "#dddddd"
set xrange [0.4 : words(orders) + 0.6]
set xtics () 
set for [i = 1:words(orders)] xtics add (sprintf("N=%s", word(orders, i)) i)
set xtics nomirror scale 0
set logscale y 10
# One legend for the four panels, in one row between the title and the panels (gnuplot's
# key cannot be wider than one panel).
unset key
array legend_x[4] = [0.04, 0.26, 0.53, 0.8]
do for [k = 1:4] {
  x0 = legend_x[k]
  set object k rect from screen x0, screen 0.911 to screen x0 + 0.025, screen 0.929 fc rgb colour[k] fs solid 0.85 border rgb "black"
  set label k label[k] at screen x0 + 0.03, screen 0.92 left font ",12"
}

do for [r in "pdgemm pdgetrf"] {
  do for [what in "energy time"] {
    value_col = what eq "energy" ? "energy_j" : "time_s"
    undefine V_*
    # stats keeps to the ranges in force: the previous panel's must not cut this one's.
    set autoscale xy
    stats csv using (strcol("routine") eq r && column(value_col) > 0 ? column(value_col) : NaN) name "V" nooutput
    set xrange [0.4 : words(orders) + 0.6]
    if (exists("V_min")) {
      # Whole decades around the bars, the lowest bar visible above the axis.
      y_lo = 10 ** floor(log10(V_min / 1.5))
      y_hi = 10 ** ceil(log10(V_max * 3))
      set yrange [y_lo : y_hi]
      if (what eq "energy") {
        set title sprintf("%s: energy (%s)", r, modeled ? "MODELED" : "measured")
        set ylabel sprintf("energy per call, all ranks (J, log scale%s)", modeled ? ", MODELED" : "")
      } else {
        set title sprintf("%s: time", r)
        set ylabel "time per call, slowest rank (s, log scale)"
      }
      plot for [k = 1:4] csv using (pick(r, k) ? xpos(k) : NaN):(column(value_col)):(xpos(k) - width / 2):(xpos(k) + width / 2):(y_lo):(column(value_col)) with boxxyerror lc rgb colour[k] notitle, \
           for [k = 1:4] csv using (pick(r, k) ? xpos(k) : NaN):(column(value_col)):(sprintf("%.3g", column(value_col))) with labels rotate by 90 left offset 0,0.4 font ",9" notitle
      # Drawn once: every later panel would draw the legend over itself again.
      unset for [k = 1:4] object k
      unset for [k = 1:4] label k
    } else {
      set title sprintf("%s: %s", r, what)
      set ylabel ""
      unset logscale y
      set yrange [0 : 1]
      set label 10 "not measured" at graph 0.5, 0.5 center
      plot NaN notitle
      unset label 10
      set logscale y 10
    }
  }
}
unset multiplot
