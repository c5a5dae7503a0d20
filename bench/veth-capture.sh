#!/bin/sh
# bench/veth-capture.sh - a benchmark capture the real kernel made (issue 13:
# a figure measured only on the project's own generator is a hint).
#
#   bench/veth-capture.sh OUT.pcap [TCP_FLOWS] [BYTES] [UDP_FLOWS]   (as root)
#
# Two network namespaces made here, joined by a veth pair (underlay
# 198.18.0.1 - 198.18.0.2), each with a VXLAN device (VNI 42, outer UDP
# checksums on) over it (overlay 198.19.0.1 - 198.19.0.2). Checksum and
# segmentation offloads are turned off on the veth and VXLAN devices
# (ethtool -K ... tx off tso off gso off gro off), so every segment leaves
# the sender's stack as a frame of its own with its checksums computed in
# software: what tcpdump captures on the receiving veth is what a wire would
# carry. bench/flows.py then drives TCP_FLOWS concurrent TCP connections
# (4,096) and UDP_FLOWS UDP flows (512) with 1,400-byte writes to flows
# picked at random until BYTES (512M) are sent, while tcpdump writes the
# underlay to OUT.pcap. Everything is torn down at the end; the capture
# stays in bench/out/ (gitignored), never committed.
set -eu
OUT=${1:?usage: veth-capture.sh OUT.pcap [TCP_FLOWS] [BYTES] [UDP_FLOWS]}
FLOWS=${2:-4096}
BYTES=${3:-512M}
UDP=${4:-512}
[ "$(id -u)" = 0 ] || { echo "veth-capture: needs root (network namespaces)" >&2; exit 77; }
for t in ip ethtool tcpdump python3; do
    command -v $t >/dev/null || { echo "veth-capture: $t missing" >&2; exit 77; }
done
case $BYTES in
    *G) BYTES=$(( ${BYTES%G} << 30 )) ;;
    *M) BYTES=$(( ${BYTES%M} << 20 )) ;;
    *K) BYTES=$(( ${BYTES%K} << 10 )) ;;
esac
HERE=$(cd "$(dirname "$0")" && pwd)
A=cscbench-a-$$
B=cscbench-b-$$
cleanup() {
    [ -n "${TD:-}" ] && kill "$TD" 2>/dev/null || true
    [ -n "${SRV:-}" ] && kill "$SRV" 2>/dev/null || true
    ip netns del "$A" 2>/dev/null || true
    ip netns del "$B" 2>/dev/null || true
}
trap cleanup EXIT INT TERM
ip netns add "$A"
ip netns add "$B"
ip link add va netns "$A" type veth peer name vb netns "$B"
ip -n "$A" addr add 198.18.0.1/30 dev va
ip -n "$B" addr add 198.18.0.2/30 dev vb
for ns in "$A" "$B"; do
    ip -n "$ns" link set lo up
done
ip -n "$A" link set va up
ip -n "$B" link set vb up
ip -n "$A" link add vx0 type vxlan id 42 local 198.18.0.1 remote 198.18.0.2 dstport 4789 udpcsum
ip -n "$B" link add vx0 type vxlan id 42 local 198.18.0.2 remote 198.18.0.1 dstport 4789 udpcsum
ip -n "$A" addr add 198.19.0.1/24 dev vx0
ip -n "$B" addr add 198.19.0.2/24 dev vx0
ip -n "$A" link set vx0 up
ip -n "$B" link set vx0 up
# final checksums on the wire: no offload on either side
for ns in "$A" "$B"; do
    for dev in vx0 $( [ "$ns" = "$A" ] && echo va || echo vb ); do
        ip netns exec "$ns" ethtool -K "$dev" tx off tso off gso off gro off >/dev/null 2>&1 ||
            ip netns exec "$ns" ethtool -K "$dev" tx off >/dev/null 2>&1 || true
    done
done
ip netns exec "$A" ethtool -k va | grep -E '^(tx-checksumming|generic-segmentation-offload|tcp-segmentation-offload):' >&2 || true
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true   # 4,096 sockets and more
ip netns exec "$B" python3 "$HERE/flows.py" server 5201 &
SRV=$!
ip netns exec "$B" tcpdump -q -n -i vb -s 0 -B 262144 -w "$OUT" udp port 4789 2>"$OUT.tcpdump.log" &
TD=$!
sleep 1
ip netns exec "$A" python3 "$HERE/flows.py" client 198.19.0.2 5201 "$FLOWS" "$BYTES" "$UDP" 1
sleep 1
kill -INT "$TD"
wait "$TD" 2>/dev/null || true
TD=
wait "$SRV" 2>/dev/null || true
SRV=
cat "$OUT.tcpdump.log" >&2
echo "veth-capture: $OUT: $(stat -c %s "$OUT") bytes, $FLOWS TCP and $UDP UDP flows over VXLAN" >&2
