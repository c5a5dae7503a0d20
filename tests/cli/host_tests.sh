#!/bin/sh
# host_tests.sh TEST - what a host capture says (issue 24, host part): the
# direction of every frame (docs/direction.md). Only captures of the
# repository (captures/, made by csc-gen); same helpers as cli_tests.sh.
. "$(dirname "$0")/common.sh"

CAPS=${SRCDIR:?}/captures
sum_of() { tail -n 1 "$W/out" | "$Q" "$@"; }

# Each rule of docs/direction.md, as the three formats say it
t_direction() {
    # 1: pcapng packet flags (tx-sll2.pcapng: 10 outbound, 3 inbound)
    run 0 "$C" "$CAPS/tx-sll2.pcapng"
    has "$W/out" "direction: 10 sent (capture 10), 3 received (capture 3), 0 unknown"
    run 0 "$C" -F json "$CAPS/tx-sll2.pcapng"
    eq "frame 1" "$(jq_ -f frame=1 -p direction -p direction_from -p pkttype)" "out	capture	outgoing"
    eq "frame 11" "$(jq_ -f frame=11 -p direction -p direction_from -p pkttype)" "in	capture	host"
    eq "summary" "$(sum_of -p direction.sent.capture -p direction.received.capture -p direction.unknown)" "10	3	0"
    # 2: the cooked header's packet type
    run 0 "$C" -v "$CAPS/link-sll.pcap"
    has "$W/out" "link-sll.pcap:1: sent (pkttype): tcp@36 partial (seed);"
    has "$W/out" "direction: 1 sent (pkttype 1), 2 received (pkttype 2), 0 unknown"
    # 3: loopback (BSD loopback header)
    run 0 "$C" -F json "$CAPS/link-null.pcap"
    eq "null" "$(jq_ -f type=packet -p direction -p direction_from -p via | sort -u)" "out	loopback	loopback"
    # 5: the guess (gso.pcap: TSO super-packets, no direction in a classic pcap)
    run 0 "$C" -v "$CAPS/gso.pcap"
    has "$W/out" "gso.pcap:1: probably sent (guess): tcp@34 partial (gso);"
    run 0 "$C" -v --no-direction-guess "$CAPS/gso.pcap"
    hasnt "$W/out" "probably sent"
    has "$W/out" "receiver: rx none, era modern, gro on, no-direction-guess"
    # 4: --local (vxlan.pcap: 10.0.0.1 > 10.0.0.2 outside; 15 of 19 frames carry it)
    run 0 "$C" --local 10.0.0.1 "$CAPS/vxlan.pcap"
    has "$W/out" "direction: 15 sent (local 15), 0 received, 4 unknown"
    has "$W/out" "receiver: rx none, era modern, gro on, local 10.0.0.1"
    run 0 "$C" --local 10.0.0.2 --local 2001:db8::2 "$CAPS/vxlan.pcap"
    has "$W/out" "direction: 0 sent, 19 received (local 19), 0 unknown"
    run 0 "$C" --local 02:00:00:00:00:01 -F csv "$CAPS/vxlan.pcap"
    eq "csv header" "$(head -n 1 "$W/out" | cut -d, -f19-)" \
        "kernel_verdict,drop_layer,drop_reason,direction,direction_from,stop,stop_proto,stop_offset,stop_value,stop_option"
    eq "csv direction" "$(sed 1d "$W/out" | cut -d, -f22,23 | sort -u)" "out,local"
    run 0 "$C" -F csv "$CAPS/vxlan.pcap"
    eq "csv unknown" "$(sed 1d "$W/out" | cut -d, -f22,23 | sort -u)" ","
    # the summary of a run without a known direction has no direction line
    hasnt "$W/out" "direction:"
}

t_direction_options() {
    run 2 "$C" --local 10.0.0 "$CAPS/vxlan.pcap"
    has "$W/err" "--local: '10.0.0' is not an IPv4, IPv6 or MAC address"
    run 2 "$C" --iface-kind wifi "$CAPS/vxlan.pcap"
    has "$W/err" "--iface-kind: expected nic, veth, tun or lo, not 'wifi'"
    run 0 "$C" -F json --iface-kind veth --local 10.0.0.1,::1 "$CAPS/vxlan.pcap"
    eq "config" "$(sum_of -p config.iface_kind -p config.local -p config.direction_guess)" \
        'virtual	["10.0.0.1","::1"]	true'
    eq "via" "$(jq_ -f frame=1 -p via)" "virtual"
    # --rx virtual: a received seed crossed as CHECKSUM_PARTIAL (accepted)
    run 0 "$C" -F json --rx virtual --no-direction-guess "$CAPS/gso.pcap"
    eq "frame 1" "$(jq_ -f frame=1 -p kernel.rx -p kernel.verdict -p kernel.entry_state.0.ip_summed)" \
        "virtual	accept	PARTIAL"
    # --merge keeps the direction totals and the configuration
    run 0 "$C" -q -F json --summary-only --local 10.0.0.1 "$CAPS/vxlan.pcap"
    cp "$W/out" "$W/a.json"
    run 0 "$C" -q -F json --summary-only --local 10.0.0.1 "$CAPS/tx-sll2.pcapng"
    cp "$W/out" "$W/b.json"
    run 0 "$C" -q --local 10.0.0.1 "$CAPS/vxlan.pcap" "$CAPS/tx-sll2.pcapng"
    cp "$W/out" "$W/one.txt"
    run 0 "$C" -q --merge "$W/a.json" "$W/b.json"
    cmp -s "$W/out" "$W/one.txt" || { diff "$W/one.txt" "$W/out" >&2; fail "--merge differs from one run"; }
    has "$W/out" "direction: 25 sent (capture 10, local 15), 3 received (capture 3), 4 unknown"
    run 0 "$C" -q -F json --summary-only "$CAPS/vxlan.pcap"
    cp "$W/out" "$W/c.json"
    run 2 "$C" -q --merge "$W/a.json" "$W/c.json"
    has "$W/err" "configuration"
}

# By default the findings that need action; the others counted as absent by design
t_findings_default() {
    set -- "$CAPS/vxlan.pcap" "$CAPS/gre.pcap"
    run 0 "$C" -v "$@"
    has "$W/out" "frames with findings: 16 (bad 14, drop 16)"
    has "$W/out" "absent by design: 6 (none 6)"
    eq "-v lines" "$(grep -c '^/.*\.pcap:[0-9]*:' "$W/out")" 16
    hasnt "$W/out" "vxlan.pcap:4:"                 # zero outer checksum only: by design
    run 0 "$C" -v --show none "$@"
    eq "--show none lines" "$(grep -c '^/.*\.pcap:[0-9]*:' "$W/out")" 8
    has "$W/out" "vxlan.pcap:4: udp@34 none (zero); kernel: accept"
    run 0 "$C" -v --show any "$@"
    eq "--show any lines" "$(grep -c '^/.*\.pcap:[0-9]*:' "$W/out")" 22
    run 0 "$C" -F json "$@"
    eq "json packets" "$(jq_ -f type=packet -c)" 35            # every frame, as before
    eq "summary" "$(sum_of -p action -p by_design.frames -p by_design.findings.none -p findings.any)" "16	6	6	22"
    eq "per file" "$(sum_of -p per_file.0.findings -p per_file.1.findings)" "10	6"
    # --fail-on keeps its words; "action" is the default's group
    run 0 "$C" -q "$@"
    run 1 "$C" -q --fail-on action "$@"
    has "$W/err" "--fail-on: 16 frames in 2 files"
    run 1 "$C" -q --fail-on none "$@"
    has "$W/err" "--fail-on: 8 frames in 2 files"
    # truncation that hides a verdict, decoder stops
    run 0 "$C" -F json "$CAPS/truncated.pcap"
    eq "truncated" "$(sum_of -p action -p findings.truncated -p findings.stop -p findings.snaplen)" "10	5	5	8"
    eq "frame 1" "$(jq_ -f frame=1 -p findings)" '["unverifiable","warning","snaplen"]'
    eq "frame 7" "$(jq_ -f frame=7 -p findings)" '["truncated","stop"]'
}

fn=t_$(echo "$T" | tr '-' '_')
command -v "$fn" >/dev/null 2>&1 || fail "no such test"
"$fn"
echo "PASS [$T]"
exit 0
