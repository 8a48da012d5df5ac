# Sourced by run_cluster.sh (--parts first, --quick): the first, second and steady calls
# of each routine against the reference, under hpdaemon's default settings (the HPD_*
# variables of the caller are left out; --tune-file sets HPD_TUNE_FILE alone).  Per routine and grid two fresh processes, one
# timing hpdaemon's first two calls of the size and then the steady rounds, one timing
# the reference's first two (support/bench_first.h says why); which runs first alternates
# from routine to routine and from grid to grid.  Rows: cluster-first.csv; one table.

first_specs=(
  "bench_pdgemm"
  "bench_level3 --routine pdtrsm --side L --uplo L --diag U"
  "bench_level3 --routine pdtrmm --side L --uplo U"
  "bench_level3 --routine pdsymm --side L --uplo L"
  "bench_level3 --routine pdsyr2k --uplo U"
  "bench_factor -f lu"
  "bench_factor -f chol -u L"
  "bench_factor -f chol -u U"
)
first_csv=$out_dir/cluster-first.csv first_raw=$logs/first-raw.csv
first_row=$logs/first-row.csv first_log=$logs/first.log
rm -f "$first_csv" "$first_raw" "$first_log"
first_env=(env) first_unset=
for v in $(compgen -e | grep '^HPD_' || true); do
  [[ $v == HPD_FINALIZE_GUARD ]] || first_env+=(-u "$v") first_unset+=" $v"
done
[[ $first_unset ]] && echo "run_cluster.sh: the first calls leave out$first_unset" >&2
if [[ $tune_file ]]; then
  tune_file=$(cd "$(dirname "$tune_file")" && pwd)/$(basename "$tune_file")
  first_env+=("HPD_TUNE_FILE=$tune_file")
  echo "run_cluster.sh: the first calls keep and read $tune_file" >&2
fi

# first_pair RATE HOSTS P Q N NB SPEC FLIP: the two processes of one row.
first_pair() {
  local rate=$1 h=$2 p=$3 q=$4 n=$5 nb=$6 flip=$8 side position=1
  local -a argv sides=(hpd ref)
  read -r -a argv <<< "$7"
  ((flip)) && sides=(ref hpd)
  for side in "${sides[@]}"; do
    steps "first calls, cold $side: ${argv[*]} ${p}x${q} at $rate, N=$n NB=$nb"
    rm -f "$first_row"
    "${first_env[@]}" "$cluster" --hosts "$h" --rate "$rate" -- \
      "$build_dir/timing/${argv[0]}" "${argv[@]:1}" -n "$n" -b "$nb" -p "$p" -q "$q" \
      -r "$call_reps" --first-calls "$side" --csv "$first_row" >> "$first_log" 2>&1 ||
      echo "run_cluster.sh: ${argv[*]} ${p}x${q} cold $side failed (see $first_log)" >&2
    [[ -s $first_row ]] && tail -n +2 "$first_row" | sed "s/^/$rate,$position,/" >> "$first_raw"
    position=2
  done
}

first_start=$SECONDS flip=0
IFS=, read -r -a rate_list <<< "$rates"
IFS=, read -r -a order_list <<< "$orders"
IFS=, read -r -a block_list <<< "$first_blocks"
for rate in "${rate_list[@]}"; do
  for n in "${order_list[@]}"; do
    for nb in "${block_list[@]}"; do
      for entry in $first_grids; do
        h=${entry%%:*} grid=${entry#*:}
        ((h <= most_hosts)) || continue
        for spec in "${first_specs[@]}"; do
          first_pair "$rate" "$h" "${grid%x*}" "${grid#*x}" "$n" "$nb" "$spec" "$flip"
          flip=$((1 - flip))
        done
        flip=$((1 - flip)) # the next grid starts each routine with the other side
      done
    done
  done
done

# The pairs into one row each: ratios ref/hpd of the cold calls and of the rounds.
[[ -s $first_raw ]] && awk -F, -v OFS=, '
  { key = $1 FS $3 FS $4 FS $5 FS $6 FS $7 FS $8
    if (!(key in seen)) { seen[key] = 1; order[++rows] = key }
    if ($9 == "hpd") { hpd[key] = $0; hpd_pos[key] = $2 } else ref[key] = $0 }
  END {
    print "rate,routine,letters,p,q,n,nb,order,hpd_first_s,hpd_second_s,ref_first_s," \
          "ref_second_s,first_ratio,second_ratio,rounds,hpd_median_s,ref_median_s," \
          "steady_ratio,steady_lo,steady_hi,steady_level,ref_first_after_hpd_s," \
          "hpd_first_after_ref_s,route_first,route_second,route_settle,route_steady," \
          "route_hpd_after_ref"
    for (i = 1; i <= rows; i++) {
      k = order[i]; nh = split(hpd[k], h, ","); nr = split(ref[k], r, ",")
      if (!nh) for (j = 1; j <= 24; j++) h[j] = ""
      if (!nr) for (j = 1; j <= 24; j++) r[j] = ""
      first = nh && nr ? sprintf("%.4f", r[10] / h[10]) : ""
      second = nh && nr ? sprintf("%.4f", r[11] / h[11]) : ""
      print k, (hpd_pos[k] == "" ? "-" : hpd_pos[k] == 1 ? "hpd-ref" : "ref-hpd"), h[10], h[11], r[10], r[11], first,
            second, h[13], h[14], h[15], h[16], h[17], h[18], h[19], h[12], r[12], h[20],
            h[21], h[23], h[24], r[22]
    }
  }' "$first_raw" > "$first_csv"

echo
echo "First calls against the reference (ref/hpd, above 1: hpdaemon faster), default settings:"
echo "| routine | grid | rate | N | NB | first | second | steady (median, interval) | route of hpdaemon's calls |"
echo "|---|---|---|---|---|---|---|---|---|"
[[ -s $first_csv ]] && awk -F, 'NR > 1 {
    name = $3 == "-" ? $2 : $2 " " $3
    steady = $18 == "" ? "-" : sprintf("%.2f (%.2f..%.2f %s)", $18, $19, $20,
                                       $21 > 0 ? "95%" : "range")
    route = $24 == "" ? "-" : $24 " " $25 ($26 == "-" ? "" : " (" $26 ")") " " $27
    printf "| %s | %sx%s | %s | %s | %s | %s | %s | %s | %s |\n", name, $4, $5, $1, $6, $7,
           $13 == "" ? "-" : sprintf("%.2f", $13), $14 == "" ? "-" : sprintf("%.2f", $14),
           steady, route
  }' "$first_csv"
cat <<EOF3

first, second: the first and the second call of the size, each side cold in a fresh process
of its own; steady: the median of $call_reps rounds' ratios (one call per side, alternating
which goes first), with the 95% interval of the median from 6 rounds on, else the range.
Routes of hpdaemon's calls: 1st, 2nd, (the calls until two in a row take the same route),
the rounds; E engine, R sent to the reference by the dispatch, L local multiply, F
fallback; a factorization: calls served by the engine / calls that reached hpdaemon.
First calls: $(awk 'END { print NR - 1 }' "$first_csv" 2>/dev/null || echo 0) rows in $((SECONDS - first_start)) s; $first_csv (log: $first_log)
EOF3
