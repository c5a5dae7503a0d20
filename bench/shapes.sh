# bench/shapes.sh - the traffic shapes of bench/run.sh and bench/callgrind.sh
# (sourced): name | bytes | csc-gen bench options
BENCH_BAD="--bad 0.001 --bad-layers ip,udp,inner-ip,tcp --random-payload"
BENCH_MIX="--tunnel vxlan,geneve,gre,ipip,plain,vxlan6"
BENCH_SHAPES="full-16-turn|1G|--flows 16 --interleave turn --size full $BENCH_BAD
full-4k-random|1G|--flows 4096 --interleave random --size full $BENCH_BAD
small-4k-random|256M|--flows 4096 --interleave random --size small $BENCH_BAD
imix-4k-burst8-mix|512M|--flows 4096 --interleave burst:8 --size imix $BENCH_MIX $BENCH_BAD
small-64k-random-mix|256M|--flows 65536 --interleave random --size small $BENCH_MIX $BENCH_BAD
full-1m-random|1G|--flows 1000000 --interleave random --size full $BENCH_BAD
imix-1m-random-mix|512M|--flows 1000000 --interleave random --size imix $BENCH_MIX $BENCH_BAD"
