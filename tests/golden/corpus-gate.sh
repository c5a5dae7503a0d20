#!/bin/sh
# corpus-gate.sh - csumcheck as a user's CI runs it over a capture corpus:
# `csumcheck --fail-on SET FILE|DIR...` and its exit status, 0 no finding of
# the set, 1 a finding, 2 an error (an input that could not be read).
#
#   corpus-gate.sh CSUMCHECK CAPTURES_DIR REAL_CORPUS_DIR
#
# REAL_CORPUS_DIR is the public corpus, tests/data/real; without it the
# test fails.
set -u
CSC=$1
CAPS=$2
REAL=$3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0

# gate WANT "why" ARGS...: run csumcheck -q ARGS, expect exit status WANT
gate() {
    want=$1 why=$2
    shift 2
    "$CSC" -q "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    if [ "$rc" = "$want" ]; then
        pass=$((pass + 1))
    else
        echo "FAIL: $why: csumcheck $* exited $rc, want $want"
        tail -5 "$TMP/err"
        fail=$((fail + 1))
    fi
}

# captures/ as a directory, the way CI walks a corpus
gate 1 "captures/ has bad checksums" --fail-on bad "$CAPS"
gate 1 "captures/ has kernel drops" --fail-on drop "$CAPS"
gate 1 "captures/ has every finding" --fail-on bad,drop,partial,unverifiable "$CAPS"
gate 1 "partial seeds in the TX captures" --fail-on partial "$CAPS/gso.pcap" "$CAPS/tx-sll2.pcapng"
gate 1 "snaplen cuts" --fail-on unverifiable "$CAPS/truncated.pcap"
gate 1 "RCO frames" --fail-on rco "$CAPS/seed002-rco.pcap"
gate 1 "LCO frames" --fail-on lco "$CAPS/tx-sll2.pcapng"
gate 1 "zero UDP checksum over IPv6" --fail-on zero6 "$CAPS/vxlan.pcap"
gate 1 "one bad segment in a flow" --fail-on bad "$CAPS/flow-bad-middle.pcap"
# clean captures pass the gate
gate 0 "seed 003 (checksum on) is clean" --fail-on bad,drop,partial,unverifiable "$CAPS/seed003-vxlan-outer-csum-on.pcap"
gate 0 "a good flow is clean" --fail-on bad,drop "$CAPS/flow-seed000-outer-csum.pcap"
gate 0 "no partial seeds in RX captures" --fail-on partial "$CAPS/vxlan.pcap" "$CAPS/geneve.pcap"
gate 0 "nothing cut in the GENEVE capture" --fail-on unverifiable "$CAPS/geneve.pcap"
gate 0 "zero outer checksums are legal over IPv4" --fail-on bad,drop "$CAPS/seed004-82599-zero-csum.pcap"
# the same frames, another receiver: a gate is only as good as its replay
gate 1 "seed 002 RCO frames dropped without --remcsum-rx" --fail-on drop "$CAPS/seed002-rco.pcap"
gate 0 "zero6 accepted with --udp6-zero-csum-rx" --fail-on drop --udp6-zero-csum-rx "$CAPS/seed003-vxlan-outer-csum-off.pcap"
# errors win over findings
gate 2 "a missing file" --fail-on bad "$CAPS/no-such-capture.pcap"
gate 2 "a file that is no capture" --fail-on bad "$CAPS/expected/runs.tsv"
head -c 3000 "$CAPS/vxlan.pcap" >"$TMP/cut.pcap"
gate 2 "a capture cut in the middle of a record" --fail-on bad "$TMP/cut.pcap"
gate 2 "a clean capture next to a broken one" --fail-on bad "$CAPS/geneve.pcap" "$TMP/cut.pcap"

if [ ! -d "$REAL" ]; then
    echo "$pass passed, $fail failed"
    echo "FAIL: $REAL not found: the real-corpus gate did not run"
    exit 1
fi
# The real corpus: every file is read, PcapPlusPlus__GrePackets.pcap too (a
# pcapng, despite its name, whose second interface has another snapshot
# length: libpcap 1.10 refused it, libwiretap reads it as tshark does), so
# the gates over the whole folder say what the findings say.
gate 1 "the real corpus: bad checksums exist (zeek chksums, tcpdump fixtures)" --fail-on bad "$REAL"
gate 1 "the real corpus, any set" --fail-on partial "$REAL"
gate 0 "the two-interface pcapng is clean and read" --fail-on bad,truncated,malformed "$REAL/PcapPlusPlus__GrePackets.pcap"
# its frames 3-4 carry 127.0.0.1 > 127.0.0.1 inside GRE: a martian on the
# gre device, dropped by ip_route_input_slow (docs/kernel-branches.md B1) when
# replayed as received; their outer 127.0.0.1 makes them loopback frames, sent
# by the capturing host, which by default get their TX view and no replay
gate 1 "the two-interface pcapng: loopback addresses inside GRE are martians" --fail-on drop --replay-sent "$REAL/PcapPlusPlus__GrePackets.pcap"
# its frames 1, 2 and 6 are PPTP (GRE version 1), which gre_rcv drops without
# the pptp module (docs/kernel-branches.md gre-3): those are the only drops
gate 1 "the two-interface pcapng: PPTP frames drop, its loopback frames are sent" --fail-on drop "$REAL/PcapPlusPlus__GrePackets.pcap"
if [ "$(grep -o 'pcap:[0-9]*: drop' "$TMP/err" | tr '\n' ' ')" = "pcap:1: drop pcap:2: drop pcap:6: drop " ]; then
    pass=$((pass + 1))
else
    echo "FAIL: the two-interface pcapng: the dropped frames are not exactly PPTP's 1, 2, 6:"
    cat "$TMP/err"
    fail=$((fail + 1))
fi
ls "$REAL" | grep -E '\.(pcap|pcapng|cap)$' | sed "s|^|$REAL/|" >"$TMP/real.list"
# the pings through tunnels (generated stand-ins for kaorimatz/pcaps' live captures)
gate 0 "the ping captures are clean" --fail-on bad,drop $(grep /gen__ "$TMP/real.list")
echo "$pass passed, $fail failed"
[ $fail = 0 ]
