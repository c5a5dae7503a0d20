#!/bin/sh
# bounds.sh - csumcheck's resource bounds: peak RSS stays flat whatever the
# input, hostile inputs end with a finding or a clear error, never a crash.
#   tests/robustness/bounds.sh CSUMCHECK BOUNDS_GEN [CSC_GEN] [--full]
# --full adds the 10 GiB stream and a million 64 KiB frames (minutes).
set -u
csc=$1 gen=$2 cscgen=${3:-} full=${4:-}
limit_kb=$((32 * 1024))
# Under ASan+UBSan the shadow memory and the sanitizer's allocator add a
# fixed ~28 MiB (one frame: 10 MiB normal, 38 MiB with ASan, as much before
# this round): the normal build is held to 32 MiB, the sanitizer build to 48
if ldd "$csc" 2>/dev/null | grep -q libasan; then
    limit_kb=$((48 * 1024))
fi
fails=0
command -v /usr/bin/time >/dev/null || { echo "bounds: SKIP: GNU time (package time) missing"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() {   # name, expected exit statuses, then a shell pipeline producing the capture
    name=$1 want=$2
    shift 2
    sh -c "$* | /usr/bin/time -f %M -o $out/rss timeout 600 $csc -q -F json - >$out/json 2>$out/err"
    rc=$?
    rss=$(tail -1 "$out/rss")
    frames=$(grep -c '"type":"packet"' "$out/json")
    case " $want " in *" $rc "*) ok=yes ;; *) ok=no ;; esac
    if grep -qE "AddressSanitizer|runtime error" "$out/err"; then ok=no; fi
    [ "$rss" -lt "$limit_kb" ] || ok=no
    printf '%-34s exit %s, %8s frames, peak RSS %6s KiB %s\n' "$name" "$rc" "$frames" "$rss" \
        "$([ $ok = yes ] && echo ok || echo FAIL)"
    [ $ok = yes ] || { fails=$((fails + 1)); head -3 "$out/err"; }
}

run "100k frames of 64 KiB"       0   "$gen big 100000 65535"
run "20k frames of 256 KiB"       0   "$gen big 20000 262144"
run "a frame claiming 4 GiB"      0   "$gen claim4g"
run "caplen claiming 4 GiB"       2   "$gen caplen4g"
run "nesting 40 deep"             0   "$gen nest 40"
run "IPv6 chain of 200 ext hdrs"  0   "$gen ext6 200"
run "fragment flood (1M)"         0   "$gen fragflood 1000000"
grep -q '"evicted":[1-9]' "$out/json" || { echo "fragment flood: no eviction counted"; fails=$((fails + 1)); }
# the same as pcapng (csumcheck's own reader; libwiretap for what it hands over)
run "pcapng: 20k frames of 256 KiB"  0   "$gen png-big 20000 262144"
run "pcapng: a frame claiming 4 GiB" 0   "$gen png-claim4g"
run "pcapng: caplen claiming 4 GiB"  2   "$gen png-caplen4g"
run "pcapng: block claiming 4 GiB"   2   "$gen png-blocklen4g"
run "pcapng: nesting 40 deep"        0   "$gen png-nest 40"
if [ -n "$cscgen" ]; then
    run "1 GiB VXLAN/TCP stream (stdin)" 0 "$cscgen bench --size full --bytes 1G --bad-every 1000 -o -"
fi
if [ "$full" = "--full" ]; then
    run "a million frames of 64 KiB"  0   "$gen big 1000000 65535"
    run "10 GiB stream (stdin)"       0   "$cscgen bench --size full --bytes 10G --bad-every 1000 -o -"
fi
echo "resource bounds: $fails failures (limit $limit_kb KiB)"
[ $fails -eq 0 ]
