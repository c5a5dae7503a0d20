#!/bin/sh
# seed-scenarios.sh - the seed scenarios and the model's worked scenarios
# (kernel-rx-checksum-model.md §6) asserted on the committed captures, under
# the eras and reports they concern. Each assertion names the scenario and
# checks facts of the replay in csumcheck's JSON Lines: per-layer method and
# path, GRO result per device, device entry state, software passes, verdict,
# drop layer and counters. Values come from the model document, not from a
# previous run.
#
#   seed-scenarios.sh CSUMCHECK CAPTURES_DIR
set -u
CSC=$1
CAPS=$2
pass=0 fail=0

# ---- regex builders over one JSON Lines packet object
# layer PROTO OFFSET METHOD PATH [DEVICE]: how the kernel resolved that layer
layer() {
    printf '"proto":"%s","offset":%s,"csum":\\{[^}]*\\},"kernel":\\{"method":"%s","path":"%s"' "$1" "$2" "$3" "$4"
    [ $# -ge 5 ] && printf ',"dev":%s' "$5"
}
# verdict PROTO OFFSET VERDICT [REASON]: the raw verdict of the bytes
verdict() {
    printf '"proto":"%s","offset":%s,"csum":\\{"verdict":"%s"' "$1" "$2" "$3"
    [ $# -ge 4 ] && printf ',"field":"[^"]*","expected":"[^"]*","reason":"%s"' "$4"
}
gro() { printf '\\{"device":"%s","ran":true,"result":"%s"' "$1" "$2"; }
gro_none() { printf '\\{"device":"%s","ran":false,"result":"%s"' "$1" "$2"; }   # no GRO pass
gro_at() { printf '\\{"device":"%s","ran":true,"result":"%s","layer":%s[,}]' "$1" "$2" "$3"; }
entry() { printf '\\{"device":"%s","layer":[0-9]+,"ip_summed":"%s"' "$1" "$2"; }
passes() { printf '"sw_passes":%s,' "$1"; }
accept='"ran":true,"verdict":"accept"'
drop() { printf '"verdict":"drop","drop":\\{"layer":[0-9]+,"proto":"%s"' "$1"; }
counters() { printf '"counters":\\[%s\\]' "$1"; }
warning() { printf '"warnings":\\[[^]]*"%s"' "$1"; }

# check "SCENARIO: what" FILE FRAME "OPTIONS" REGEX...
check() {
    desc=$1 file=$2 frame=$3 opts=$4
    shift 4
    # shellcheck disable=SC2086
    line=$("$CSC" --format json $opts "$CAPS/$file" 2>/dev/null | grep "\"frame\":$frame,")
    if [ -z "$line" ]; then
        echo "FAIL: $desc: no frame $frame in $file (csumcheck --format json $opts)"
        fail=$((fail + 1)); return
    fi
    ok=1
    for re in "$@"; do
        if ! printf '%s\n' "$line" | grep -Eq -- "$re"; then
            [ $ok = 1 ] && echo "FAIL: $desc ($file frame $frame, csumcheck $opts):"
            echo "    expected to match: $re"
            ok=0
        fi
    done
    if [ $ok = 1 ]; then pass=$((pass + 1)); else
        echo "    got: $(printf '%s\n' "$line" | grep -o '"kernel":{"rx".*')"; fail=$((fail + 1)); fi
}

S4=seed004-82599-zero-csum.pcap
for fr in 1 8; do
check "seed 004 / S6a: 82599 zero outer csum, era 4.6: no tunnel GRO on the NIC" $S4 $fr "--era 4.6" \
    "$(gro nic udp-tunnel-gate)" "$(layer udp 34 zero-allowed gro 0)" "$(layer tcp 84 sw-pass gro 1)" \
    "$(passes 1)" "$accept"
check "seed 004 / S6b: the same frames, modern (89e5c58fc1e2): aggregated on the NIC" $S4 $fr "" \
    "$(gro nic held)" "$(layer tcp 84 sw-pass gro 0)" "$(passes 1)" "$(entry vxlan UNNECESSARY)" "$accept"
done
check "seed 004 / S6a: the outer-l4 profile (82599) derives NONE from the zero checksum" $S4 1 \
    "--rx outer-l4 --era 4.6" "$(entry nic NONE)" "$(gro nic udp-tunnel-gate)"
check "S7: U0 with a zero outer checksum, era 4.6: gate refuses" $S4 1 "--rx unnecessary:0 --era 4.6" \
    "$(gro nic udp-tunnel-gate)" "$(layer udp 34 device-level gro)" "$(passes 1)"

S0=seed000-double-encap.pcap
check "seed 000 / S8a: double encapsulation, era 3.18" $S0 1 "--era 3.18" \
    "$(layer gre 34 sw-pass gro)" "$(layer udp 62 zero-allowed gro)" "$(layer udp 112 complete-arith gro)" \
    "$(gro_at nic encap-mark 8)" "$(passes 1)" "$accept"
check "seed 000 / S8b: inner IPv4 options, era 3.18: skb_checksum in GRO and normal path" $S0 2 "--era 3.18" \
    "$(layer gre 34 sw-pass gro)" "$(gro nic ip-options)" "$(gro gre udp-tunnel-gate)" \
    "$(layer udp 116 sw-pass normal)" "$(passes 2)" "$accept"
check "seed 000 / S8c: modern, GRE sets encap_mark" $S0 1 "" \
    "$(gro_at nic encap-mark 4)" "$(layer gre 34 sw-pass gro)" "$(gro gre not-tunnel)" \
    "$(layer udp 112 sw-pass gro 1)" "$(passes 2)" "$accept"
check "seed 000 / S8c': era 4.6, the gate refuses on gre0" $S0 1 "--era 4.6" \
    "$(gro gre udp-tunnel-gate)" "$(layer udp 112 sw-pass gro 2)" "$(passes 2)" "$accept"
check "seed 000 / S8d: middle UDP checksum on: the right combination" $S0 3 "" \
    "$(layer udp 62 complete-arith gro)" "$(layer udp 112 complete-arith gro 1)" "$(passes 1)" "$accept"
check "seed 000: innermost UDP bad under the double encapsulation" $S0 4 "" \
    "$(verdict udp 112 bad mismatch)" "$(drop udp)" "$(counters '"UdpInCsumErrors","UdpInErrors"')"

F0=flow-seed000-outer-csum.pcap
for fr in 1 8; do
check "seed 000 / S3: U0 with the outer checksum, era 3.18: conversion allows GRO" $F0 $fr \
    "--rx unnecessary:0 --era 3.18" "$(gro nic held)" "$(layer udp 34 device-level gro)" \
    "$(layer tcp 84 complete-arith gro)" "$(passes 0)" "$accept"
# vxlan_rcv ended in netif_rx before v4.3 (v4.2.8): the pass is tcp_v4_rcv's on vx0
check "seed 000 / S3': the same before Part VI: no conversion, no tunnel GRO" $F0 $fr \
    "--rx unnecessary:0 --era pre-part-vi" "$(gro nic udp-tunnel-gate)" "$(gro_none vxlan netif-rx)" \
    "$(layer tcp 84 sw-pass normal 1)" "$(passes 1)" "$accept"
done

ON=seed003-vxlan-outer-csum-on.pcap OFF=seed003-vxlan-outer-csum-off.pcap
for fr in 1 3; do
check "seed 003: outer checksum on, NIC verifies the outer L4: no software pass" $ON $fr "--rx outer-l4" \
    "$(entry nic UNNECESSARY)" "$(gro nic held)" "$(passes 0)" "$accept"
check "seed 003: outer checksum off, NIC reports NONE: the inner needs a pass" $OFF $fr "--rx outer-l4" \
    "$(entry nic NONE)" "$(passes 1)" "$accept"
check "seed 003 / S3: checksum on, U0" $ON $fr "--rx unnecessary:0" "$(passes 0)" "$accept"
check "seed 003 / S1: checksum on, NONE: one pass over the outer UDP in GRO" $ON $fr "" \
    "$(layer udp 34 sw-pass gro)" "$(passes 1)" "$accept"
done

R2=seed002-rco.pcap
check "seed 002 / S13: RCO, U0, remcsumrx: PARTIAL at the inner TCP, no pass" $R2 1 "--rx unnecessary:0 --remcsum-rx" \
    "$(verdict tcp 84 rco rco)" "$(layer tcp 84 remcsum-start gro)" "$(entry vxlan PARTIAL)" "$(passes 0)" "$accept"
check "seed 002 / S13b: garbage in the RCO field is accepted" $R2 3 "--rx unnecessary:0 --remcsum-rx" \
    "$(verdict tcp 84 bad rco-wrong-seed)" "$(passes 0)" "$accept" "$(warning bad-checksum-accepted)"
check "seed 002 / S13c: RCO without remcsumrx: dropped at VXLAN (v6.14+ counters)" $R2 1 "" \
    "$(drop vxlan)" "$(counters '"dev:rx_errors","dev:rx_frame_errors"')" "$(gro nic csum-fail)"
check "seed 002 / S13c: era 5.12: dropped without a counter" $R2 1 "--era 5.12" "$(drop vxlan)" "$(counters '')"
check "seed 002 / S13d: zero outer checksum, garbage inner: nothing verified" $R2 4 "--remcsum-rx" \
    "$(gro nic rco-no-csum)" "$(verdict tcp 84 bad rco-outer-missing)" "$(passes 0)" "$accept" \
    "$(warning rco-nothing-verified)"
check "seed 002 / S14: NOPARTIAL: csum_partial potentially twice" $R2 1 "--remcsum-rx --remcsum-nopartial" \
    "$(layer udp 34 sw-pass gro)" "$(layer tcp 84 complete-arith gro)" "$(passes 2)" "$accept"
check "seed 002 / S14: NOPARTIAL makes a wrong seed fail" $R2 3 "--remcsum-rx --remcsum-nopartial" "$(drop tcp)"
check "seed 002 / S14': NOPARTIAL with COMPLETE: no pass" $R2 1 "--rx complete --remcsum-rx --remcsum-nopartial" \
    "$(layer tcp 84 complete-arith gro)" "$(passes 0)" "$accept"

check "S15: GUE REMCSUM over IPIP with COMPLETE" gue-rco.pcapng 1 "--rx complete" \
    "$(layer udp 34 complete-arith gro)" "$(verdict tcp 74 rco rco)" "$(layer tcp 74 remcsum-start gro)" \
    "$(entry ipip PARTIAL)" "$(passes 0)" "$accept"

check "S9: bad GRE checksum, modern: silent drop after two passes" gre.pcap 3 "" \
    "$(drop gre)" "$(counters '')" "$(layer gre 34 sw-pass normal)" "$(passes 2)"
check "S9': bad GRE checksum, 3.18: csum_bad, one pass" gre.pcap 3 "--era 3.18" \
    "$(drop gre)" "$(layer gre 34 csum-bad normal)" "$(passes 1)"
check "S10: bad inner TCP, U0: three passes" vxlan.pcap 6 "--rx unnecessary:0" \
    "$(drop tcp)" "$(counters '"TcpInCsumErrors","TcpInErrs"')" "$(entry vxlan COMPLETE)" "$(passes 3)"
check "S10': bad inner TCP, U0, 3.18: csum_bad" vxlan.pcap 6 "--rx unnecessary:0 --era 3.18" \
    "$(drop tcp)" "$(gro_none vxlan netif-rx)" "$(layer tcp 84 csum-bad normal)" "$(passes 1)"
check "S11: bad outer UDP with COMPLETE" vxlan.pcap 5 "--rx complete" \
    "$(drop udp)" "$(counters '"UdpInCsumErrors","UdpInErrors"')" "$(passes 2)"
check "S12: zero UDP checksum over IPv6 without udp6zerocsumrx" vxlan.pcap 14 "" \
    "$(verdict udp 54 zero6)" "$(drop udp)" "$(counters '"Udp6InCsumErrors","Udp6InErrors"')" "$(passes 1)"
check "S12': the same with udp6zerocsumrx" vxlan.pcap 14 "--udp6-zero-csum-rx" "$accept" "$(passes 1)"
check "S16: lying NIC (U1) over two bad checksums" vxlan.pcap 11 "--rx unnecessary:1" \
    "$accept" "$(passes 0)" "$(warning bad-checksum-accepted)"
# (a sent frame: replayed as received with --replay-sent; by default it gets its TX view)
check "S17: TX VXLAN with LCO outer and partial inner, PARTIAL at the inner" tx-sll2.pcapng 3 "--rx partial:inner --replay-sent" \
    "$(verdict udp 40 lco lco)" "$(verdict tcp 90 partial seed)" "$(layer udp 40 partial-covered gro)" \
    "$(layer tcp 90 partial-covered gro)" "$(passes 0)" "$accept" "$(gro nic held)"
for rx in none unnecessary:1 complete partial:inner; do
check "S18: bad outer IPv4 header (--rx $rx)" vxlan.pcap 10 "--rx $rx" \
    "$(gro nic ip-csum)" "$(drop ipv4)" "$(passes 0)"
done

echo "$pass passed, $fail failed"
[ $fail = 0 ]
