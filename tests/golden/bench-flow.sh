#!/bin/sh
# bench-flow.sh - csc-gen bench and csc-gen flow write what they promise.
#
#   bench-flow.sh CSC_GEN CSUMCHECK
set -u
GEN=$1
CSC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
no() { echo "FAIL: $*"; fail=$((fail + 1)); }
# summary FIELD < json: a number from csumcheck's summary line
summary() { grep '"type":"summary"' | sed "s/.*\"$1\":\([0-9]*\).*/\1/"; }

# full-size frames to a file: 1514-byte frames, 24 + n * (16 + 1514) bytes
"$GEN" bench --size full --bytes 1M --bad-every 50 -o "$TMP/full.pcap" || no "bench --size full failed"
size=$(wc -c <"$TMP/full.pcap")
n=$(( (size - 24) / 1530 ))
[ $(( 24 + n * 1530 )) = "$size" ] && [ "$size" -ge 1048576 ] && [ "$size" -lt $((1048576 + 1530)) ] &&
    ok || no "bench full: $size bytes is not 1 MiB of whole 1514-byte frames"
"$CSC" --format json -q "$TMP/full.pcap" >"$TMP/full.json"
[ "$(summary frames <"$TMP/full.json")" = "$n" ] && ok || no "bench full: csumcheck counts $(summary frames <"$TMP/full.json") frames, want $n"
[ "$(grep -c '"caplen":1514,"len":1514' "$TMP/full.json")" = "$n" ] && ok || no "bench full: not every frame is 1514 bytes"
[ "$(grep '"type":"summary"' "$TMP/full.json" | sed 's/.*"findings":{"bad":\([0-9]*\).*/\1/')" = $((n / 50)) ] &&
    ok || no "bench full: want $((n / 50)) frames with a bad checksum (every 50th)"
[ "$(grep '"frame":50,' "$TMP/full.json" | grep -c '"proto":"tcp","offset":84,"csum":{"verdict":"bad"')" = 1 ] &&
    ok || no "bench full: frame 50 should carry the bad inner TCP checksum"

# small frames through a pipe, the way a 10 GiB stream is fed
"$GEN" bench --size small --bytes 256K --bad-every 100 -o - | "$CSC" --format json -q - >"$TMP/small.json"
n=$(summary frames <"$TMP/small.json")
[ "$n" = $(( (262144 - 24 + 195) / 196 )) ] && ok || no "bench small via stdout: $n frames"
[ "$(grep -c '"caplen":180,"len":180' "$TMP/small.json")" = "$n" ] && ok || no "bench small: not every frame is 180 bytes"
[ "$(grep '"type":"summary"' "$TMP/small.json" | sed 's/.*"findings":{"bad":\([0-9]*\).*/\1/')" = $((n / 100)) ] &&
    ok || no "bench small: want $((n / 100)) bad frames"
"$GEN" bench --size small --bytes 64K --format pcapng -o "$TMP/small.pcapng" &&
    [ "$("$CSC" --format json -q "$TMP/small.pcapng" | summary frames)" -gt 300 ] && ok || no "bench --format pcapng"

# a flow: sequence continuity, outer checksum zero, one bad segment
"$GEN" flow --segments 20 --outer-csum zero --bad-seg 10 -o "$TMP/flow.pcap" || no "flow failed"
"$GEN" flow --segments 20 --outer-csum zero --bad-seg 10 -o - >"$TMP/flow2.pcap"
cmp -s "$TMP/flow.pcap" "$TMP/flow2.pcap" && ok || no "flow: two runs (file, stdout) differ"
"$CSC" --format json -q "$TMP/flow.pcap" >"$TMP/flow.json"
[ "$(summary frames <"$TMP/flow.json")" = 20 ] && ok || no "flow: 20 frames expected"
[ "$(grep -c '"proto":"udp","offset":34,"csum":{"verdict":"none"' "$TMP/flow.json")" = 20 ] && ok ||
    no "flow --outer-csum zero: every outer UDP checksum should be none"
[ "$(grep -c '"verdict":"bad"' "$TMP/flow.json")" = 1 ] && grep '"frame":10,' "$TMP/flow.json" | grep -q '"proto":"tcp","offset":84,"csum":{"verdict":"bad"' &&
    ok || no "flow --bad-seg 10: exactly segment 10 should be bad"
# TCP sequence numbers: 1000 + i * 1398, read from the bytes (frames of 1502 bytes)
i=0 seqok=1
while [ $i -lt 20 ]; do
    off=$((24 + i * (16 + 1502) + 16 + 84 + 4))
    seq=$(od -An -tu1 -j $off -N4 "$TMP/flow.pcap" | awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }')
    [ "$seq" = $((1000 + i * 1398)) ] || { seqok=0; no "flow: segment $((i + 1)) has seq $seq, want $((1000 + i * 1398))"; }
    i=$((i + 1))
done
[ $seqok = 1 ] && ok
"$GEN" flow --segments 4 --outer-csum on -o "$TMP/on.pcap" &&
    [ "$("$CSC" --format json -q "$TMP/on.pcap" | grep -c '"proto":"udp","offset":34,"csum":{"verdict":"good"')" = 4 ] &&
    ok || no "flow --outer-csum on: outer UDP checksums should be good"

# traffic shapes (issue 13): every tunnel, interleaved flows, bad checksums
# at every layer kind; csumcheck and tshark agree on every bad one
"$GEN" bench --frames 6000 --flows 300 --interleave random --size imix \
    --tunnel vxlan,geneve,gre,ipip,plain,vxlan6 --bad 0.05 --bad-layers ip,udp,inner-ip,tcp \
    --random-payload --seed 7 -o "$TMP/shape.pcap" || no "bench shapes failed"
"$GEN" bench --frames 6000 --flows 300 --interleave random --size imix \
    --tunnel vxlan,geneve,gre,ipip,plain,vxlan6 --bad 0.05 --bad-layers ip,udp,inner-ip,tcp \
    --random-payload --seed 7 -o - | cmp -s - "$TMP/shape.pcap" && ok || no "bench shapes: not reproducible"
"$CSC" --format json "$TMP/shape.pcap" >"$TMP/shape.json"
[ "$(summary frames <"$TMP/shape.json")" = 6000 ] && ok || no "shapes: 6000 frames expected"
# one frame in six is GRE (flow k uses tunnel k % 6): a GRE layer without checksum each
gre=$(grep '"type":"summary"' "$TMP/shape.json" | sed 's/.*"gre":{"none":\([0-9]*\)}.*/\1/')
[ "$gre" -gt 800 ] && [ "$gre" -lt 1200 ] && ok || no "shapes: $gre GRE frames of 6000, want about 1000"
# frame sizes: IMIX 64/576/1500, a tunnel's small frame its headers + 1 byte
sizes=$(grep -o '"len":[0-9]*' "$TMP/shape.json" | sort -u | tr '\n' ' ')
[ "$sizes" = '"len":105 "len":125 "len":1500 "len":576 "len":64 "len":75 "len":79 ' ] && ok ||
    no "shapes: IMIX frame lengths are $sizes"
bad=$(grep '"type":"summary"' "$TMP/shape.json" | sed 's/.*"findings":{"bad":\([0-9]*\).*/\1/')
[ "$bad" -gt 200 ] && [ "$bad" -lt 400 ] && ok || no "shapes --bad 0.05: $bad bad frames of 6000"
for l in ipv4 udp tcp; do
    grep '"type":"summary"' "$TMP/shape.json" | grep -q "\"$l\":{[^}]*\"bad\":[1-9]" && ok || no "shapes: no bad $l layer"
done
if command -v tshark >/dev/null; then
    tbad=$(tshark -n -r "$TMP/shape.pcap" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
        -o tcp.check_checksum:TRUE -T fields -e ip.checksum.status -e udp.checksum.status \
        -e tcp.checksum.status 2>/dev/null | tr '\t,' '\n\n' | grep -c '^0$')
    cbad=$(grep -o '"csum":{"verdict":"bad"' "$TMP/shape.json" | wc -l)
    [ "$tbad" = "$cbad" ] && ok || no "shapes: tshark sees $tbad bad checksums, csumcheck $cbad"
fi
# flows: the GRO engine sees each flow at each device it reaches
"$GEN" bench --frames 2000 --flows 100 --interleave turn --size small -o "$TMP/turn.pcap"
[ "$("$CSC" --format json -q "$TMP/turn.pcap" | grep '"type":"summary"' | sed 's/.*"tcp_flows":\([0-9]*\).*/\1/')" = 200 ] &&
    ok || no "shapes --flows 100: want 200 TCP flows (NIC and VXLAN)"
"$GEN" bench --frames 100 --flows 1000001 -o "$TMP/x" 2>/dev/null; [ $? = 2 ] && ok || no "bench --flows 1000001 should exit 2"
"$GEN" bench --frames 100 --tunnel foo -o "$TMP/x" 2>/dev/null; [ $? = 2 ] && ok || no "bench --tunnel foo should exit 2"

# usage errors
"$GEN" bench --size huge --bytes 1M -o "$TMP/x" 2>/dev/null; [ $? = 2 ] && ok || no "bench --size huge should exit 2"
"$GEN" flow --segments 0 -o "$TMP/x" 2>/dev/null; [ $? = 2 ] && ok || no "flow --segments 0 should exit 2"
"$GEN" nonsense 2>/dev/null; [ $? = 2 ] && ok || no "an unknown command should exit 2"
"$GEN" stack 'eth ipv4 bogus' -o "$TMP/x" 2>/dev/null; [ $? = 2 ] && ok || no "a bad stack description should exit 2"
"$GEN" stack --hex 'eth ipv4 udp:zero pay:len=4' 2>"$TMP/err" | grep -q '^0200000000020200000000010800' &&
    grep -q 'udp: none' "$TMP/err" && ok || no "stack --hex"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
