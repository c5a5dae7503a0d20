#!/bin/sh
# host_capture.sh CSUMCHECK JSONQ - issue 24's acceptance on this machine's own
# traffic: a veth pair to a network namespace this test makes, the kernel's
# offloads as veth has them (tx checksum offload, TSO, GSO on), TCP and UDP in
# both directions captured by tcpdump (AF_PACKET) on the host's end, twice:
# on the veth (Ethernet, direction from --local) and on "any" (cooked v2,
# direction from the packet type); and TCP over loopback captured on lo.
# Every sent frame: "sent, not received" with its TX view, never dropped, no
# bad checksum; the received frames' verdicts the same as when sent frames
# are replayed too (--replay-sent). Root only: 77 (skipped) elsewhere.
set -u
C=${1:?csumcheck}
Q=${2:?csc-jsonq}
PY=/usr/bin/python3
skip() { echo "SKIP [host-capture]: $*"; exit 77; }
fail() { echo "FAIL [host-capture]: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || skip "not root"
for t in ip tcpdump "$PY"; do command -v "$t" >/dev/null 2>&1 || skip "no $t"; done

W=$(mktemp -d "${TMPDIR:-/tmp}/csc-host-capture.XXXXXX")
NS=csc-tx-$$
A=csctxa$$
B=csctxb$$
PIDS=""
cleanup() {
    for p in $PIDS; do kill "$p" 2>/dev/null; done
    for p in $PIDS; do wait "$p" 2>/dev/null; done
    ip link del "$A" 2>/dev/null
    ip netns del "$NS" 2>/dev/null
    rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ip netns add "$NS" 2>/dev/null || skip "cannot make a network namespace"
ip link add "$A" type veth peer name "$B" 2>/dev/null || skip "cannot make a veth pair"
ip link set "$B" netns "$NS"
ip addr add 10.231.0.1/24 dev "$A"
ip link set "$A" up
ip -n "$NS" addr add 10.231.0.2/24 dev "$B"
ip -n "$NS" link set "$B" up
ip -n "$NS" link set lo up
if command -v ethtool >/dev/null 2>&1; then
    ethtool -k "$A" | grep -E '^(tx-checksumming|tcp-segmentation-offload|generic-segmentation-offload):' >"$W/offloads"
    grep -q ': off' "$W/offloads" && { cat "$W/offloads"; fail "an offload of $A is off"; }
fi

# tcpdump, until it says it listens (its "listening on" line)
capture() {   # capture NAME ARGS...
    n=$1
    shift
    tcpdump -U -s 0 -w "$W/$n.pcap" "$@" 2>"$W/$n.err" &
    PIDS="$PIDS $!"
    i=0
    until grep -qs "listening on" "$W/$n.err"; do
        i=$((i + 1))
        [ $i -lt 600 ] || { cat "$W/$n.err"; fail "tcpdump $n does not start"; }
        sleep 0.05
    done
}
stop_captures() {
    for p in $PIDS; do kill -INT "$p" 2>/dev/null; done
    for p in $PIDS; do wait "$p" 2>/dev/null; done
    PIDS=""
}

# the peer: a TCP server that reads all, then writes 300000 bytes back; a UDP echo
cat >"$W/peer.py" <<'EOF'
import socket, sys
addr = sys.argv[1]
t = socket.socket(); t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
t.bind((addr, 5001)); t.listen(1)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind((addr, 5002))
open(sys.argv[2], "w").close()          # ready
c, _ = t.accept()
n = 0
while True:
    b = c.recv(65536)
    if not b:
        break
    n += len(b)
c.sendall(b"y" * 300000); c.close()
for _ in range(8):
    d, a = u.recvfrom(65536); u.sendto(d, a)
print(n)
EOF
cat >"$W/client.py" <<'EOF'
import socket, sys
addr = sys.argv[1]
c = socket.create_connection((addr, 5001))
c.sendall(b"x" * 300000); c.shutdown(socket.SHUT_WR)
got = 0
while True:
    b = c.recv(65536)
    if not b:
        break
    got += len(b)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.settimeout(10)
for i in range(8):
    u.sendto(bytes([i]) * (200 + 150 * i), (addr, 5002)); u.recvfrom(65536)
print(got)
EOF
traffic() {   # traffic NETNS-PREFIX ADDR
    pre=$1
    rm -f "$W/ready"
    $pre "$PY" "$W/peer.py" "$2" "$W/ready" >"$W/peer.out" 2>&1 &
    pp=$!
    i=0
    until [ -e "$W/ready" ]; do
        i=$((i + 1))
        [ $i -lt 600 ] || fail "the peer does not start: $(cat "$W/peer.out")"
        sleep 0.05
    done
    got=$("$PY" "$W/client.py" "$2") || fail "the client failed"
    wait "$pp" || fail "the peer failed: $(cat "$W/peer.out")"
    [ "$got" = 300000 ] && [ "$(cat "$W/peer.out")" = 300000 ] || fail "bytes: client $got, peer $(cat "$W/peer.out")"
}

capture veth -i "$A" host 10.231.0.2
capture any -i any -y LINUX_SLL2 host 10.231.0.2
traffic "ip netns exec $NS" 10.231.0.2
stop_captures
capture lo -i lo tcp port 5001 or udp port 5002
traffic "" 127.0.0.1
stop_captures

q() { "$Q" "$@" <"$W/out" || fail "not JSON Lines"; }
count() { q "$@" -c; }

# check NAME OPTIONS...: the sent frames' TX view, the received frames unchanged
check() {
    name=$1
    shift
    "$C" -F json "$@" "$W/$name.pcap" >"$W/out" 2>"$W/err" || fail "$name: csumcheck: $(cat "$W/err")"
    cp "$W/out" "$W/$name.json"
    frames=$(count -f type=packet)
    sent=$(count -f type=packet -f direction=out)
    [ "$sent" -gt 0 ] || fail "$name: no sent frame among $frames"
    # every sent frame: verdict sent, a TX view, no drop, no bad checksum
    v=$(q -f type=packet -f direction=out -p kernel.verdict -p tx.left.# -p worst | sort -u)
    echo "$v" | grep -qv '^sent	' && fail "$name: a sent frame not 'sent': $v"
    echo "$v" | grep -q 'missing' && fail "$name: a sent frame without its TX view: $v"
    echo "$v" | grep -q '	bad$' && fail "$name: a sent frame with a bad checksum"
    q -f type=packet -f direction=out -p findings | grep -Eq '"(bad|drop)"' && fail "$name: a sent frame's finding bad or drop"
    gso=$(q -f type=packet -f direction=out -p tx.gso.segs | grep -vc missing)
    partial=$(q -f type=packet -f direction=out -p tx.left | grep -c '"partial"')
    # the received frames: the same verdicts as when every frame is replayed
    q -f type=packet -f direction=in -p frame -p kernel.verdict -p kernel.counters >"$W/recv.a"
    recv=$(wc -l <"$W/recv.a")
    "$C" -F json --replay-sent "$@" "$W/$name.pcap" >"$W/out" 2>"$W/err" || fail "$name: --replay-sent: $(cat "$W/err")"
    q -f type=packet -f direction=in -p frame -p kernel.verdict -p kernel.counters >"$W/recv.b"
    cmp -s "$W/recv.a" "$W/recv.b" || { diff "$W/recv.a" "$W/recv.b" >&2; fail "$name: received verdicts changed"; }
    replayed_drops=$(q -f type=packet -f direction=out -p kernel.verdict | grep -c drop)
    rdrops=$(grep -c '	drop	' "$W/recv.a")
    echo "$name: $frames frames, $sent sent ($partial with a partial seed, $gso GSO super-packets; replayed as received $replayed_drops would drop), $recv received ($rdrops dropped, unchanged)"
}

check veth --local 10.231.0.1 --iface-kind veth
[ "$(count -f type=packet -f direction=in)" -gt 0 ] || fail "veth: no received frame"
check any --iface-kind veth
[ "$(q -f type=packet -p direction_from | sort -u | tr '\n' ' ')" = "pkttype " ] || fail "any: direction not from pkttype"
check lo
[ "$(q -f type=packet -p direction_from | sort -u)" = "loopback" ] || fail "lo: not loopback"
echo "PASS [host-capture]"
exit 0
