# bench/flows.gp - time per frame against the number of concurrent flows
# (bench/run.sh writes bench/out/flows.dat; run from the source tree).
set terminal pngcairo size 900,540 font "sans,10"
set output "bench/out/flows.png"
set title "csumcheck: time per frame against the number of interleaved flows (random interleave)"
set xlabel "concurrent TCP flows"
set ylabel "wall time per frame (ns)"
set logscale x
set xrange [10:2000000]
set yrange [0:*]
set key top left
set grid
plot "bench/out/flows.dat" using 1:3 with linespoints lw 2 pt 7 title "full-size, csumcheck", \
     "" using 1:4 with linespoints lw 1 pt 6 title "full-size, --threads 1", \
     "" using 1:2 with linespoints dt 2 pt 1 title "full-size, floor", \
     "" using 1:6 with linespoints lw 2 pt 5 title "small (64-180 B), csumcheck", \
     "" using 1:7 with linespoints lw 1 pt 4 title "small, --threads 1", \
     "" using 1:5 with linespoints dt 2 pt 2 title "small, floor"
