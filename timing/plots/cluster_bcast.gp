# Broadcast time against message size on emulated hosts (timing/run_cluster.sh): each
# algorithm measured, with the models T_P (pipeline, at its tuned chunk) and T_B
# (binomial) from the measured Ts and BW.  One panel per host count and link rate.
# Reads DIR/cluster-bcast.csv, writes DIR/cluster-bcast.png.
# Usage: gnuplot -e "dir='RESULTS'" timing/plots/cluster_bcast.gp
if (!exists("dir")) dir = "."
csv = dir."/cluster-bcast.csv"
set terminal pngcairo size 1800,900 font "sans,12" noenhanced
set output dir."/cluster-bcast.png"
set datafile separator comma
host_list = system(sprintf("awk -F, 'NR > 1 { print $1 }' '%s' | sort -n -u | tr '\\n' ' '", csv))
rate_list = system(sprintf("awk -F, 'NR > 1 { print $2 }' '%s' | sort -u | tr '\\n' ' '", csv))
set logscale xy
set format x "%.0s%cB"
set xlabel "message size"
set ylabel "time (s)"
set key top left font ",10"
set grid
set multiplot layout words(rate_list), words(host_list) title "Broadcast time on emulated hosts (median of the repetitions; dashed: models from measured Ts and BW)"
do for [r = 1:words(rate_list)] {
  do for [i = 1:words(host_list)] {
    h = word(host_list, i) + 0
    rate = word(rate_list, r)
    set title sprintf("%d hosts, %s", h, rate)
    # One filtered table per curve, so that another curve's rows never break its line.
    rows(alg) = sprintf("< awk -F, '$1 == %d && $2 == \"%s\" && $3 == \"%s\"' '%s'", h, rate, alg, csv)
    plot rows("pipeline") using 4:6 with linespoints lw 2 title "pipeline", \
         rows("binomial") using 4:6 with linespoints lw 2 title "binomial", \
         rows("mpi") using 4:6 with linespoints title "MPI_Ibcast", \
         rows("mpi_bcast") using 4:6 with linespoints title "MPI_Bcast", \
         rows("pipeline") using 4:12 with lines dt 2 lc rgb "black" title "T_P model", \
         rows("binomial") using 4:12 with lines dt 3 lc rgb "gray30" title "T_B model"
  }
}
unset multiplot
