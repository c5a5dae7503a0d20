#!/bin/sh
# cli_tests.sh TEST - the csumcheck CLI tests (CTest runs one TEST per case).
#
# Environment (set by tests/cli/CMakeLists.txt):
#   CSUMCHECK  the binary under test        JSONQ    csc-jsonq (strict JSON Lines)
#   CORPUS     tests/data/real               WORKDIR  scratch dir for this test
#   SRCDIR     source tree                   BUILDDIR build tree
# Exit 0 pass, 1 fail, 77 skip (always with a message saying why).
#
# Expected values were read off the core (libcsumcore) on the real corpus
# and pinned: a change in the core's verdicts or replay shows up here.
. "$(dirname "$0")/common.sh"

# ---------------------------------------------------------------------------
t_usage() {
    run 2 "$C"
    has "$W/err" "no input"
    run 0 "$C" --help
    for o in --rx --era --gro --remcsum-rx --remcsum-nopartial --udp6-zero-csum-rx --gre-csum \
             --no-socket --assume-bad --vxlan-port --vxlan-gpe-port --geneve-port --gue-port \
             --fou-port --l2tp-port --mpls-port --no-default-ports --l2tp-cookie-len \
             --l2tp-l2spec-len --format --verbose --quiet --progress --fail-on --write \
             --select --jobs --version --no-remcsum-rx --gro-budget --gro-flush-timeout \
             --gro-max-size --poll-gap --gro-flows --rewrite --compare; do
        has "$W/out" "$o"
    done
    run 0 "$C" --version
    has "$W/out" "csumcheck 0.1.0 (libcsumcore"
    has "$W/out" "libpcap"
    run 2 "$C" --no-such-option x.pcap
    has "$W/err" "no-such-option"
}

t_options_errors() {
    # every option value that is wrong: exit 2, one message naming the option
    for a in "--rx bogus" "--rx unnecessary:4" "--rx partial:1" "--era 2.6" "--gro maybe" \
             "--format xml" "--fail-on bad,worse" "--progress sometimes" "--gre-csum yes" \
             "--l2tp-cookie-len 3" "--l2tp-l2spec-len 8" "--vxlan-port 0" "--vxlan-port 70000" \
             "--geneve-port x" "--vxlan-port 4789:4" "--fou-port 5555" "--fou-port 5555:0" \
             "--jobs -1" "--jobs 5000" "--gro-budget 0" "--gro-budget 70000" "--gro-max-size x" \
             "--gro-flush-timeout -1" "--poll-gap 1.5" "--gro-flows 1001" "--rewrite outer-zero,outer-csum" \
             "--rewrite bogus" "--compare era=2.6" "--compare rx=bogus" "--compare frobnicate" \
             "--compare gro-budget=0"; do
        # shellcheck disable=SC2086
        run 2 "$C" $a in.pcap
        opt=${a%% *}
        grep -q -- "${opt#--}" "$W/err" || grep -q -- "-j" "$W/err" || fail "$a: message lacks the option: $(cat "$W/err")"
        eq "$a: one line (+hint)" "$(grep -vc '^(try' "$W/err")" 1
    done
    run 2 "$C" --compare era=4.6 --compare era=5.12 --compare era=modern in.pcap
    has "$W/err" "at most two"
    run 2 "$C" --remcsum-rx --no-remcsum-rx in.pcap
    has "$W/err" "exclude each other"
    run 2 "$C" --select bad in.pcap
    has "$W/err" "--select chooses the frames -w writes"
    run 2 "$C" --write-format pcapng in.pcap
    has "$W/err" "--write-format says how -w OUT is written"
    run 2 "$C" --baseline a.json --baseline b.json in.pcap
    has "$W/err" "--baseline: give it once"
    # 17 ports fill the table (16)
    set -- --no-default-ports
    i=1
    while [ $i -le 17 ]; do set -- "$@" --vxlan-port $((10000 + i)); i=$((i + 1)); done
    run 2 "$C" "$@" in.pcap
    has "$W/err" "too many tunnel ports"
}

t_era_list() {
    run 0 "$C" --era list
    eq "eras" "$(cut -d' ' -f1 "$W/out" | tr '\n' ' ')" "pre-part-vi 3.18 4.0 4.6 4.13 4.20 5.10 5.12 6.1 6.12 modern 7.2 "
    has "$W/out" "89e5c58fc1e2"
    run 2 "$C" --era 2.6 x
    has "$W/err" "unknown era '2.6' (pre-part-vi, 3.18, 4.0, 4.6, 4.13, 4.20, 5.10, 5.12, 6.1, 6.12, modern"
}

t_text_summary() {
    need_corpus
    run 0 "$C" "$R/$VXB"
    has "$W/out" "csumcheck: 1 file, 1 frame, 104 bytes captured"
    has "$W/out" "receiver: rx none, era modern, gro on"
    eq "tcp row" "$(grep '^  tcp ' "$W/out" | tr -s ' ')" " tcp 0 1 0 0 0 0 0 0"
    eq "ipv4 row" "$(grep '^  ipv4 ' "$W/out" | tr -s ' ')" " ipv4 2 0 0 0 0 0 0 0"
    eq "udp row" "$(grep '^  udp ' "$W/out" | tr -s ' ')" " udp 1 0 0 0 0 0 0 0"
    has "$W/out" "frames with findings: 1 (bad 1, drop 1)"
    has "$W/out" "kernel: accepted 0, dropped 1, unknown 0, not run 0"
    has "$W/out" "  counters: TcpInCsumErrors 1, TcpInErrs 1"
    has "$W/out" "  drop reasons: TCP_CSUM 1"
    has "$W/out" "  software checksum passes: 4 over 130 bytes"
    has "$W/out" "  gro at nic: held 0; not held: csum-fail 1"
    has "$W/out" "  gro at vxlan: held 0; not held: csum-fail 1"
    eq "stderr" "$(cat "$W/err")" ""
    run 0 "$C" "$R/$NDPI"
    eq "udp row" "$(grep '^  udp ' "$W/out" | tr -s ' ')" " udp 62 0 0 0 73 0 0 0"
    # its 73 outer UDP checksums are the sender's partial seeds: sent, not received
    # (before the TX view: "frames with findings: 73 (drop 73)", 73 UdpInCsumErrors)
    has "$W/out" "sent, not received: 73 frames, their TX view (partial 73)"
    has "$W/out" "frames with findings: 0"
    has "$W/out" "kernel: accepted 54, dropped 0, unknown 0, not run 0, sent (not received) 73"
    hasnt "$W/out" "counters:"
    has "$W/out" "gro at nic: held 0; not held: not-tunnel 4, tcp-flags 15, tcp-no-payload 35"
    # no per-frame lines without -v
    hasnt "$W/out" "$NDPI:"
}

t_text_verbose() {
    need_corpus
    run 0 "$C" -v "$R/$NDPI"
    eq "finding lines" "$(grep -c "^$R/$NDPI:" "$W/out")" 0        # a TX view needs no action
    run 0 "$C" -v --show partial "$R/$NDPI"
    eq "partial lines" "$(grep -c "^$R/$NDPI:" "$W/out")" 73
    eq "partial+sent lines" "$(grep -c 'probably sent (guess): udp@38 partial (seed); kernel: sent, not received; tx: udp@38 partial 0x' "$W/out")" 73
    has "$W/out" "$R/$NDPI:113: probably sent (guess): udp@38 partial (seed); kernel: sent, not received; tx: udp@38 partial 0xb321 -> 0x32b9"
    hasnt "$W/out" "$R/$NDPI:1:"
    hasnt "$W/out" "udp4_csum_init"
    run 0 "$C" -v "$R/$VXB"
    has "$W/out" "$R/$VXB:1: tcp@84 bad (mismatch) field 0xdead expected 0x4b57; kernel: drop at tcp@84 TCP_CSUM TcpInCsumErrors TcpInErrs, 4 sw passes/130 bytes"
    run 0 "$C" -vv "$R/$VXB"
    has "$W/out" "    vxlan normal tcp@84 tcp_v4_rcv: drop FAILED"
    has "$W/out" "    nic gro udp@34 udp4_gro_receive: sw-pass ok 70 bytes"
    has "$W/out" "frames with findings: 1"
}

t_json_packet() {
    need_corpus
    run 0 "$C" --format json "$R/$VXB"
    eq "lines" "$(lines "$W/out")" 2
    eq "types" "$(jq_ -p type | tr '\n' ' ')" "packet summary "
    P="-f type=packet"
    eq "frame" "$(jq_ $P -p file -p frame -p caplen -p len -p worst -p findings)" \
        "$R/$VXB	1	104	104	bad	[\"bad\",\"drop\"]"
    eq "ts" "$(jq_ $P -p ts)" "1781879612.414782000"
    eq "protos" "$(jq_ $P -p layers.# -p layers.0.proto -p layers.3.proto -p layers.6.proto)" "7	eth	vxlan	tcp"
    eq "eth has no csum" "$(jq_ $P -p layers.0)" '{"proto":"eth","offset":0}'
    eq "tcp csum" "$(jq_ $P -p layers.6.offset -p layers.6.csum)" \
        '84	{"verdict":"bad","field":"0xdead","expected":"0x4b57","reason":"mismatch"}'
    eq "udp csum" "$(jq_ $P -p layers.2.csum)" '{"verdict":"good","field":"0x8947","expected":"0x8947","reason":null}'
    eq "tcp kernel" "$(jq_ $P -p layers.6.kernel.method -p layers.6.kernel.dev -p layers.6.kernel.ok)" "sw-pass	1	false"
    eq "kernel" "$(jq_ $P -p kernel.rx -p kernel.era -p kernel.ran -p kernel.verdict -p kernel.sw_passes -p kernel.sw_bytes)" \
        "none	modern	true	drop	4	130"
    eq "drop" "$(jq_ $P -p kernel.drop)" \
        '{"layer":6,"proto":"tcp","reason":"TCP_CSUM","counters":["TcpInCsumErrors","TcpInErrs"]}'
    eq "entry_state" "$(jq_ $P -p kernel.entry_state)" \
        '[{"device":"nic","layer":1,"ip_summed":"NONE","csum_level":0,"csum_valid":0,"passes":2,"pass_bytes":90},{"device":"vxlan","layer":5,"ip_summed":"COMPLETE","csum_level":0,"csum_valid":1,"passes":2,"pass_bytes":40}]'
    eq "gro" "$(jq_ $P -p kernel.gro.0 -p kernel.gro.1.result)" '{"device":"nic","ran":true,"result":"csum-fail","layer":6,"passes":2,"pass_bytes":90}	csum-fail'
    eq "warnings" "$(jq_ $P -p kernel.warnings)" "[]"
    eq "no steps" "$(jq_ $P -p kernel.steps)" "<missing>"
    S="-f type=summary"
    eq "summary" "$(jq_ $S -p files -p frames -p bytes -p errors -p exit_status -p findings.bad -p findings.drop -p findings.any)" \
        "1	1	104	0	0	1	1	1"
    eq "summary layers" "$(jq_ $S -p layers)" '{"ipv4":{"good":2},"udp":{"good":1},"tcp":{"bad":1}}'
    eq "summary kernel" "$(jq_ $S -p kernel.drop -p kernel.counters -p kernel.drop_reasons -p kernel.sw_passes)" \
        '1	{"TcpInCsumErrors":1,"TcpInErrs":1}	{"TCP_CSUM":1}	4'
    eq "summary config" "$(jq_ $S -p config.rx -p config.era -p config.gro_nic)" "none	modern	true"
    # accepted frame: no "drop" object
    run 0 "$C" --format json "$R/zeek__ip6-udp-good-chksum.pcap"
    eq "accept" "$(jq_ -f type=packet -p kernel.verdict -p kernel.drop -p worst -p findings)" "accept	<missing>	good	[]"
}

t_json_corpus() {
    need_corpus
    # every capture of the corpus is read (issue 17: PcapPlusPlus__GrePackets.pcap is a
    # pcapng whose two interfaces have different snapshot lengths, which libpcap 1.10
    # refused; libwiretap reads it, all 7 frames, as tshark does)
    run 0 "$C" --format json "$R"
    jq_ >/dev/null
    eq "packet lines" "$(jq_ -f type=packet -c)" 3682
    eq "error lines" "$(jq_ -f type=error -c)" 0
    eq "last line is the summary" "$(tail -n 1 "$W/out" | "$Q" -p type -p files -p files_failed -p errors -p frames -p exit_status)" \
        "summary	138	0	0	3682	0"
    eq "the two-interface pcapng" "$(jq_ -f "file=$R/PcapPlusPlus__GrePackets.pcap" -f type=packet -p frame | tr '\n' ' ')" "1 2 3 4 5 6 7 "
    eq "its frame 7 (second interface)" "$(jq_ -f "file=$R/PcapPlusPlus__GrePackets.pcap" -f frame=7 -p caplen -p layers.2.proto -p layers.5.proto)" "96	gre	tcp"
    eq "nDPI partial (eth vlan ipv4 udp)" "$(jq_ -f "file=$R/$NDPI" -f type=packet -p layers.3.csum.verdict | grep -c partial)" 73
    # the reference files next to the captures are skipped, and said so
    eq "one stderr line" "$(lines "$W/err")" 1
    has "$W/err" "csumcheck: $R: 140 files are not captures (by their first bytes), skipped: MANIFEST.tsv, ..."
}

# The kernel trace is only recorded with -v (cfg.trace_steps): the rest of
# the result must not depend on it.
t_json_trace_switch() {
    need_corpus
    run 0 "$C" --format json "$R"
    sort "$W/out" >"$W/plain"
    run 0 "$C" -v --format json "$R"
    jq_ >/dev/null
    sed 's/,"trace_truncated":[a-z]*,"steps":\[.*\]},"gro_fate":/},"gro_fate":/' "$W/out" | sort >"$W/nosteps"
    cmp -s "$W/plain" "$W/nosteps" || { diff "$W/plain" "$W/nosteps" | head -5 >&2; fail "-v changed more than the steps"; }
}

t_json_steps() {
    need_corpus
    run 0 "$C" -v --format json $RS "$R/$U4B"
    P="-f type=packet"
    eq "steps" "$(jq_ $P -p kernel.steps.# -p kernel.steps.0.fn -p kernel.steps.0.what)" "11	driver	enter"
    eq "failing pass" "$(jq_ $P -p kernel.steps.4)" \
        '{"dev":0,"path":"gro","layer":2,"fn":"udp4_gro_receive","what":"sw-pass","ok":false,"bytes":12,"before":{"ip_summed":"NONE","csum_level":0,"csum_valid":0,"csum_bad":0},"after":{"ip_summed":"NONE","csum_level":0,"csum_valid":0,"csum_bad":0},"cb":{"csum_cnt":0,"csum_valid":1,"flush":0,"encap_mark":0}}'
    eq "drop step" "$(jq_ $P -p kernel.steps.10.fn -p kernel.steps.10.what -p kernel.steps.10.layer)" "udp4_csum_init	drop	2"
}

t_csv() {
    need_corpus
    run 0 "$C" --format csv "$R/$VXB"
    eq "header" "$(head -n 1 "$W/out")" \
        "file,frame,caplen,len,layer,proto,offset,verdict,reason,field,expected,resolved,method,path,device,ok,passes,pass_bytes,kernel_verdict,drop_layer,drop_reason,direction,direction_from,stop,stop_proto,stop_offset,stop_value,stop_option,tx,tx_wire,peer_verdict"
    eq "rows" "$(lines "$W/out")" 5
    eq "tcp row" "$(sed -n 5p "$W/out")" \
        "$R/$VXB,1,104,104,6,tcp,84,bad,mismatch,0xdead,0x4b57,,sw-pass,normal,vxlan,0,3,60,drop,6,TCP_CSUM,,,,,,,,,,"
    eq "udp row" "$(sed -n 3p "$W/out")" \
        "$R/$VXB,1,104,104,2,udp,34,good,,0x8947,0x8947,,sw-pass,gro,nic,1,1,70,drop,6,TCP_CSUM,,,,,,,,,,"
    run 0 "$C" --format csv "$R/$NDPI"
    eq "nDPI rows (checksummed layers + header)" "$(lines "$W/out")" 509
    eq "partial rows" "$(grep -c ',udp,38,partial,seed,' "$W/out")" 73
    eq "sent partial rows" "$(grep -c ',udp,38,partial,seed,.*,sent,,,out,guess,,,,,,partial,0x' "$W/out")" 73
    # every row has 31 fields (no quoting needed here)
    eq "field counts" "$(awk -F, '{print NF}' "$W/out" | sort -u)" 31
    # no summary in CSV
    hasnt "$W/out" "csumcheck:"
}

t_fail_on() {
    need_corpus
    run 1 "$C" -q --fail-on bad "$R/$U4B"
    has "$W/out" "frames with findings: 1 (bad 1)"   # the report is still printed
    run 0 "$C" -q --fail-on partial "$R/$U4B"
    run 0 "$C" -q --fail-on drop "$R/$U4B"         # loopback: sent, never dropped
    run 1 "$C" -q --fail-on drop $RS "$R/$U4B"     # replayed as received: dropped
    run 1 "$C" -q --fail-on partial "$R/$NDPI"
    run 0 "$C" -q --fail-on bad,unverifiable "$R/$NDPI"
    run 1 "$C" -q --fail-on unverifiable "$R/zeek__ipv6-fragmented-dns.pcap"
    run 1 "$C" -q --fail-on none "$R/tcpdump__vxlan.pcap"
    run 1 "$C" -q --fail-on truncated "$R/zeek__ip6-trunc.pcap"
    run 0 "$C" -q --fail-on malformed "$R/zeek__ip6-trunc.pcap"
    run 1 "$C" -q --fail-on malformed "$R/tcpdump__kday1.pcap"
    run 1 "$C" -q --fail-on warning "$R/tcpdump__vxlan.pcap"
    run 0 "$C" -q --fail-on any "$R/zeek__ip6-udp-good-chksum.pcap"
    run 1 "$C" -q --fail-on any "$R/$U4B"
    run 0 "$C" -q --fail-on bad,drop "$R/zeek__ip6-udp-good-chksum.pcap" "$R/zeek__ipv6-fragmented-dns.pcap"
    run 1 "$C" -q --fail-on bad "$R/zeek__ip6-udp-good-chksum.pcap" "$R/$U4B"
    # zero6: the UDP checksum of an IPv6 frame zeroed (frame offset 60)
    fixture zeek__ip6-udp-good-chksum.pcap z6.pcap
    patch "$W/z6.pcap" 100 '\000\000'
    run 1 "$C" -q --fail-on zero6 "$W/z6.pcap"
    run 0 "$C" -q --fail-on zero6 "$R/zeek__ip6-udp-good-chksum.pcap"
    # an error wins over a finding: 2
    head -c 3000 "$R/$NDPI" >"$W/cut.pcap"
    run 2 "$C" -q --fail-on bad "$R/$U4B" "$W/cut.pcap"
    # json summary says the same
    run 1 "$C" --format json --fail-on bad "$R/$U4B"
    eq "exit_status" "$(jq_ -f type=summary -p exit_status)" 1
}

t_select_write() {
    need_corpus
    run 0 "$C" -q -w "$W/o.pcap" --select bad $RS "$R/$U4B" "$R/$VXB" "$R/$NDPI"
    has "$W/out" "wrote 2 selected frames to $W/o.pcap"
    run 0 "$C" --format json $RS "$W/o.pcap"
    eq "written frames" "$(jq_ -f type=packet -p caplen -p findings | tr '\n' ' ')" \
        '46	["bad","drop"] 104	["bad","drop"] '
    # frames unchanged: the packet bytes are those of the input
    tail -c 46 "$R/$U4B" >"$W/a"
    head -c $((24 + 16 + 46)) "$W/o.pcap" | tail -c 46 >"$W/b"
    cmp -s "$W/a" "$W/b" || fail "frame bytes changed"
    eq "linktype EN10MB, nanosecond pcap" "$(od -An -tx1 -N4 "$W/o.pcap" | tr -d ' ')" "4d3cb2a1"
    # default selection: bad,drop
    run 0 "$C" -q -w "$W/d.pcap" "$R/$NDPI"
    has "$W/out" "wrote 0 selected frames"           # its partial seeds: sent, not dropped
    run 0 "$C" -q -w "$W/d.pcap" $RS "$R/$NDPI"
    has "$W/out" "wrote 73 selected frames"
    run 0 "$C" -q --format json $RS "$W/d.pcap"
    eq "73 frames" "$(jq_ -f type=summary -p frames -p findings.drop)" "73	73"
    # comma list
    run 0 "$C" -q -w "$W/u.pcap" --select unverifiable,rco "$R/zeek__ipv6-fragmented-dns.pcap"
    has "$W/out" "wrote 1 selected frame to"
    # nothing selected: still a valid, empty pcap
    run 0 "$C" -q -w "$W/e.pcap" --select bad "$R/zeek__ip6-udp-good-chksum.pcap"
    eq "empty pcap size" "$(wc -c <"$W/e.pcap" | tr -d ' ')" 24
    run 0 "$C" --format json "$W/e.pcap"
    eq "0 frames" "$(jq_ -f type=summary -p frames)" 0
    # -j keeps the order of -w too
    run 2 "$C" -q -j 3 -w "$W/j3.pcap" --select any "$R"
    run 2 "$C" -q -j 1 -w "$W/j1.pcap" --select any "$R"
    cmp -s "$W/j1.pcap" "$W/j3.pcap" || fail "-j 3 wrote different -w output"
    # never overwrite an input
    cp "$R/$U4B" "$W/in.pcap"
    run 2 "$C" -w "$W/in.pcap" "$W/in.pcap"
    has "$W/err" "-w would overwrite an input"
    cmp -s "$R/$U4B" "$W/in.pcap" || fail "input modified"
    run 2 "$C" -w "$W/no/such/dir/x.pcap" "$R/$U4B"
    has "$W/err" "cannot create"
}

t_select_linktype() {
    need_corpus
    # Ethernet first, then a PPP capture whose frames are selected too
    run 2 "$C" -q -w "$W/m.pcap" --select none "$R/tcpdump__vxlan.pcap" "$R/tcpdump__mpls-traceroute.pcap"
    has "$W/err" "tcpdump__mpls-traceroute.pcap: link type PPP (9) differs from $W/m.pcap's EN10MB (1)"
    has "$W/out" "wrote 10 selected frames to $W/m.pcap (18 not written: link type)"
    run 0 "$C" -q --format json "$W/m.pcap"
    eq "10 Ethernet frames" "$(jq_ -f type=summary -p frames)" 10
    # a PPP-only selection takes PPP
    run 0 "$C" -q -w "$W/p.pcap" --select none "$R/tcpdump__mpls-traceroute.pcap"
    eq "PPP linktype" "$(od -An -tu4 -j20 -N4 "$W/p.pcap" | tr -d ' ')" 9
}

t_jobs() {
    need_corpus
    for f in "--format json" "--format csv" "-v" ""; do
        # shellcheck disable=SC2086
        run 0 "$C" -q $f -j 1 "$R"
        mv "$W/out" "$W/one"
        # shellcheck disable=SC2086
        run 0 "$C" -q $f -j 2 "$R"
        cmp -s "$W/one" "$W/out" || fail "-j 2 $f: output differs from -j 1"
        # shellcheck disable=SC2086
        run 0 "$C" -q $f -j 0 $RS "$R" "$R/$NDPI"     # (-v: NDPI's 73 frames drop when replayed)
        [ "$(lines "$W/out")" -gt "$(lines "$W/one")" ] || [ -z "$f" ] || fail "-j 0 lost output"
    done
    eq "nothing on stderr with -q" "$(lines "$W/err")" 0
}

t_stdin() {
    need_corpus
    run 0 sh -c "'$C' --format json - <'$R/$NDPI'"
    eq "stdin" "$(jq_ -f type=summary -p files -p frames -p findings.partial)" "1	127	73"
    eq "named -" "$(jq_ -f type=packet -p file | sort -u)" "-"
    run 0 sh -c "cat '$R/$NDPI' | '$C' -q -"
    has "$W/out" "csumcheck: 1 file, 127 frames, 85322 bytes captured"
    run 2 sh -c "'$C' - - <'$R/$NDPI'"
    has "$W/err" "standard input given more than once"
    run 2 sh -c "'$C' - </dev/null"
    has "$W/err" "-: empty input, not a capture"
    # pcapng on standard input: libwiretap reads it through a pipe of our own,
    # after the bytes read to tell a classic pcap
    run 0 sh -c "cat '$R/PcapPlusPlus__GrePackets.pcap' | '$C' -F json -"
    eq "pcapng from a pipe" "$(jq_ -f type=summary -p frames -p files_failed)" "7	0"
}

t_dir_walk() {
    need_corpus
    mkdir -p "$W/d/sub/deeper" "$W/d/empty"
    ln -s "$R/$U4B" "$W/d/a-capture.txt"            # a capture, whatever the extension
    ln -s "$R/$U4B.tshark.tsv" "$W/d/ref.tsv"        # reference files are skipped
    ln -s "$R/PcapPlusPlus__QinQ_802.1_AD.pcapng" "$W/d/sub/deeper/q.pcapng"
    ln -s "$R/README.md" "$W/d/sub/readme.pcap"      # not a capture by magic: skipped
    ln -s "$W/d" "$W/d/sub/loop"                     # a loop is not followed twice
    gzip -c "$R/$VXB" >"$W/d/sub/v.pcap.gz"          # a compressed capture is read
    gzip -c "$R/README.md" >"$W/d/sub/notes.gz"      # compressed, not a capture: skipped
    run 0 "$C" --format json "$W/d"
    eq "files found" "$(jq_ -f type=summary -p files -p frames)" "3	3"
    eq "order" "$(jq_ -f type=packet -p file | tr '\n' ' ')" "$W/d/a-capture.txt $W/d/sub/deeper/q.pcapng $W/d/sub/v.pcap.gz "
    # never silently: a line per directory names what was skipped
    has "$W/err" "csumcheck: $W/d: 1 file is not a capture (by its first bytes), skipped: ref.tsv"
    has "$W/err" "csumcheck: $W/d/sub: 2 files are not captures (by their first bytes), skipped: notes.gz, ..."
    eq "two lines" "$(lines "$W/err")" 2
    run 0 "$C" -q --format json "$W/d"
    eq "-q: no line" "$(lines "$W/err")" 0
    run 2 "$C" "$W/d/empty"
    has "$W/err" "csumcheck: $W/d/empty: no capture files in this directory"
    # a file given explicitly is not sniffed: the reader judges it
    run 2 "$C" "$W/d/sub/readme.pcap"
    has "$W/err" "not a capture file (unknown file format)"
}

t_names() {
    need_corpus
    # a file name with a comma, a quote, a backslash, a newline and a non-UTF-8 byte
    name=$(printf 'we,ird"na\\me\nx\377.pcap')
    ln -s "$R/$U4B" "$W/$name"
    run 0 "$C" --format json "$W/$name"
    jq_ >/dev/null
    want=$(printf '%s/we,ird"na\\me\nx\357\277\275.pcap' "$W")
    eq "decoded name (U+FFFD for the bad byte)" "$(jq_ -f type=packet -p file)" "$want"
    has "$W/out" '"file":"'"$W"'/we,ird\"na\\me\nx\ufffd.pcap"'
    run 0 "$C" --format csv "$W/$name"
    has "$W/out" "\"$W/we,ird\"\"na\\me"
    eq "csv lines (2 rows, each split by the newline in the name)" "$(lines "$W/out")" 5
    run 0 "$C" -v "$W/$name"
    has "$W/out" 'na\me\x0ax'
    # a file name that is not there, with odd bytes, in JSON error lines
    run 2 "$C" --format json "$W/missing\"file"
    jq_ >/dev/null
    has "$W/err" "missing\"file: No such file or directory"
}

t_bad_input() {
    need_corpus
    # unreadable path
    run 2 "$C" "$W/nope.pcap"
    eq "message" "$(cat "$W/err")" "csumcheck: $W/nope.pcap: No such file or directory"
    # a non-capture file
    run 2 "$C" "$R/$U4B.tshark.tsv"
    eq "message" "$(cat "$W/err")" "csumcheck: $R/$U4B.tshark.tsv: not a capture file (unknown file format)"
    # an empty file
    : >"$W/empty.pcap"
    run 2 "$C" "$W/empty.pcap"
    has "$W/err" "empty file"
    # truncated in the file header
    head -c 10 "$R/$U4B" >"$W/hdr.pcap"
    run 2 "$C" "$W/hdr.pcap"
    has "$W/err" "csumcheck: $W/hdr.pcap: truncated dump file"
    # truncated in a record header, after whole frames
    head -c 30 "$R/$NDPI" >"$W/rec.pcap"
    run 2 "$C" --format json "$W/rec.pcap"
    has "$W/err" "cannot read the first frame (truncated dump file"
    # truncated in the middle of frame 10: frames 1-9 are analysed and reported
    head -c 3000 "$R/$NDPI" >"$W/mid.pcap"
    run 2 "$C" --format json "$W/mid.pcap"
    eq "packets before the damage" "$(jq_ -f type=packet -c)" 9
    eq "error line" "$(jq_ -f type=error -p frame)" 10
    eq "summary" "$(jq_ -f type=summary -p frames -p files_failed -p exit_status)" "9	1	2"
    eq "stderr" "$(cat "$W/err")" "csumcheck: $W/mid.pcap: damaged after frame 9 (truncated dump file; tried to read 1500 captured bytes, only got 1338); frames 1-9 were analysed"
    # a corrupt record length
    fixture "$U4B" corrupt.pcap
    patch "$W/corrupt.pcap" 32 '\377\377\377\177'
    run 2 "$C" "$W/corrupt.pcap"
    has "$W/err" "csumcheck: $W/corrupt.pcap: cannot read the first frame"
    # a pcapng cut in a block: libwiretap says how, after the frames before it
    head -c 1100 "$R/PcapPlusPlus__GrePackets.pcap" >"$W/cut.pcapng"
    run 2 "$C" --format json "$W/cut.pcapng"
    eq "pcapng cut" "$(jq_ -f type=summary -p frames -p files_failed)" "6	1"
    has "$W/err" "csumcheck: $W/cut.pcapng: damaged after frame 6 ("
    # the other files go on, in order, and the exit status is 2; every error is a
    # record in its place, the missing file too (issue 17: it had none)
    run 2 "$C" --format json "$W/mid.pcap" "$W/nope.pcap" "$R/$U4B" "$W/hdr.pcap" "$R/$VXB"
    eq "files" "$(jq_ -p type -p file | tr '\n' ' ')" \
        "packet	$W/mid.pcap packet	$W/mid.pcap packet	$W/mid.pcap packet	$W/mid.pcap packet	$W/mid.pcap packet	$W/mid.pcap packet	$W/mid.pcap packet	$W/mid.pcap packet	$W/mid.pcap error	$W/mid.pcap error	$W/nope.pcap packet	$R/$U4B error	$W/hdr.pcap packet	$R/$VXB summary	<missing> "
    eq "stderr lines" "$(lines "$W/err")" 3
    eq "summary" "$(jq_ -f type=summary -p files -p files_failed -p errors -p frames)" "4	2	3	11"
    # text mode: the summary still comes, with the error count
    run 2 "$C" "$W/mid.pcap" "$R/$U4B"
    has "$W/out" "csumcheck: 2 files, 10 frames"
    has "$W/out" "errors: 1 (1 file not read to the end; see standard error)"
}

t_malformed_frames() {
    need_corpus
    # fuzzer finds: findings, never a crash
    run 0 "$C" --format json "$R/tcpdump__heapoverflow-in_checksum.pcap" "$R/tcpdump__kday1.pcap" \
        "$R/tcpdump__gre-heapoverflow-2.pcap" "$R/tcpdump__l2tp-avp-overflow.pcap" \
        "$R/suricata-verify__decode-too-small__test.pcap" "$R/zeek__ip6-trunc.pcap"
    eq "kday1" "$(jq_ -f "file=$R/tcpdump__kday1.pcap" -p findings -p stop)" \
        '["drop","malformed","stop"]	{"reason":"malformed","proto":"ipv4","offset":14}'
    eq "ip6-trunc" "$(jq_ -f "file=$R/zeek__ip6-trunc.pcap" -p findings -p stop.reason)" '["truncated","stop"]	truncated'
    eq "summary" "$(jq_ -f type=summary -p frames -p findings.malformed -p findings.truncated -p findings.bad -p findings.stop -p stops)" \
        '33	9	3	20	14	{"truncated":3,"malformed":9,"unsupported":1,"unknown-ethertype":1}'
    run 0 "$C" -v "$R/tcpdump__kday1.pcap"
    # the NIC's own IPv4 header refused: ip_rcv_core (kernel-branches ip4-4/ip4-5)
    has "$W/out" "tcpdump__kday1.pcap:1: malformed ipv4@14; kernel: drop at eth@0 IP_INHDR IpInHdrErrors"
}

t_rx() {
    need_corpus
    for rx in "none:4 over 130:drop" "complete:3 over 60:drop" "unnecessary:0:3 over 60:drop" \
              "unnecessary:1:0 over 0:accept" "partial:inner:0 over 0:accept" \
              "partial:14:6:5 over 200:drop" "partial:outer:3 over 60:drop" \
              "outer-l4:3 over 60:drop" "tunnel-l4:3 over 60:drop"; do
        verdict=${rx##*:}
        rest=${rx%:*}
        passes=${rest##*:}
        report=${rest%:*}
        run 0 "$C" --format json --rx "$report" "$R/$VXB"
        eq "--rx $report" "$(jq_ -f type=packet -p kernel.rx -p kernel.verdict)" "$report	$verdict"
        run 0 "$C" -q --rx "$report" "$R/$VXB"
        has "$W/out" "software checksum passes: $passes bytes"
        has "$W/out" "receiver: rx $report,"
    done
    run 0 "$C" -q --rx unnecessary:1 "$R/$VXB"
    has "$W/out" "warnings: bad-checksum-accepted 1"
}

t_era() {
    need_corpus
    # seed 004: zero outer UDP checksum: the GRO gate refuses tunnel GRO up to 5.12
    run 0 "$C" -q --era 4.6 "$R/tcpdump__vxlan.pcap"
    has "$W/out" "gro at nic: held 0; not held: udp-tunnel-gate 10"
    has "$W/out" "receiver: rx none, era 4.6,"
    run 0 "$C" -q --era modern "$R/tcpdump__vxlan.pcap"
    has "$W/out" "gro at nic: held 0; not held: no-gro-handler 8, truncated 2"
    run 0 "$C" --format json --era 3.18 "$R/tcpdump__vxlan.pcap"
    eq "json era" "$(jq_ -f frame=1 -p kernel.era -p kernel.gro.0.result)" "3.18	udp-tunnel-gate"
}

t_gro() {
    need_corpus
    run 0 "$C" --format json --gro off "$R/tcpdump__vxlan.pcap"
    eq "off" "$(jq_ -f type=summary -p kernel.gro -p config.gro_nic -p config.gro_tunnel)" '{"nic":{"gro-off":10},"vxlan":{"gro-off":8}}	false	false'
    run 0 "$C" --format json --gro nic "$R/tcpdump__vxlan.pcap"
    eq "nic" "$(jq_ -f type=summary -p kernel.gro)" '{"nic":{"no-gro-handler":8,"truncated":2},"vxlan":{"gro-off":8}}'
    run 0 "$C" --format json --gro tunnel "$R/tcpdump__vxlan.pcap"
    eq "tunnel" "$(jq_ -f type=summary -p kernel.gro)" '{"nic":{"gro-off":10},"vxlan":{"no-gro-handler":8}}'
    run 0 "$C" -q --gro off "$R/tcpdump__vxlan.pcap"
    has "$W/out" "gro at nic: held 0; not held: gro-off 10"
    has "$W/out" "gro off"
}

t_receiver_flags() {
    need_corpus
    # --udp6-zero-csum-rx: VXLAN over IPv6 with the outer UDP checksum zeroed
    fixture tcpdump__gso-ipv6-vxlan-ipv4.pcap z6v.pcap
    patch "$W/z6v.pcap" 100 '\000\000'
    run 0 "$C" --format json $RS "$W/z6v.pcap"
    eq "zero6 refused" "$(jq_ -f type=packet -p layers.2.csum.verdict -p kernel.drop.layer -p kernel.drop.counters)" \
        'zero6	2	["Udp6InCsumErrors","Udp6InErrors"]'
    run 0 "$C" --format json --udp6-zero-csum-rx $RS "$W/z6v.pcap"
    eq "zero6 accepted" "$(jq_ -f type=packet -p kernel.drop.layer -p kernel.drop.proto)" "6	tcp"
    # --no-socket: nobody listens on the UDP port
    run 0 "$C" --format json --no-socket $RS "$R/zeek__ip6-udp-good-chksum.pcap"
    eq "no socket" "$(jq_ -f type=packet -p kernel.verdict -p kernel.drop.counters)" 'drop	["Udp6NoPorts"]'
    # --gre-csum: the tunnel's checksum flag against packets without C
    run 0 "$C" --format json --gre-csum on "$R/zeek__gre-sample.pcap"
    eq "gre icsum" "$(jq_ -f type=summary -p kernel.drop -p kernel.counters -p config.gre_csum)" \
        '40	{"dev:rx_errors":40,"dev:rx_crc_errors":40}	on'
    run 0 "$C" --format json --gre-csum off "$R/zeek__gre-sample.pcap"
    eq "gre nocsum" "$(jq_ -f type=summary -p kernel.drop -p kernel.accept)" "0	40"
    # --assume-bad: a frame cut by snaplen (caplen 100 of 663)
    head -c 140 "$R/tcpdump__ipv4_tcp_http_xml.pcap" >"$W/snap.pcap"
    patch "$W/snap.pcap" 32 'd\000\000\000'
    run 0 "$C" --format json "$W/snap.pcap"
    eq "assumed good" "$(jq_ -f type=packet -p caplen -p len -p layers.3.csum.verdict -p layers.3.csum.reason -p layers.3.kernel.assumed -p kernel.verdict -p kernel.warnings)" \
        '100	663	unverifiable	snaplen	true	accept	["assumed"]'
    run 0 "$C" --format json --assume-bad "$W/snap.pcap"
    eq "assumed bad" "$(jq_ -f type=packet -p kernel.verdict -p kernel.drop.reason)" "drop	TCP_CSUM"
    eq "config" "$(jq_ -f type=summary -p config.assume_bad)" true
}

t_ports() {
    need_corpus
    protos() { jq_ -f type=packet -f frame="$1" -p layers.3.proto; }
    run 0 "$C" --format json "$R/tcpdump__vxlan_port_8472.pcap"
    eq "8472 unknown by default" "$(protos 1)" "<missing>"
    run 0 "$C" --format json --vxlan-port 8472 "$R/tcpdump__vxlan_port_8472.pcap"
    eq "--vxlan-port" "$(protos 1)" "vxlan"
    run 0 "$C" --format json --no-default-ports "$R/tcpdump__vxlan.pcap"
    eq "--no-default-ports" "$(protos 1)" "<missing>"
    run 0 "$C" --format json --no-default-ports --vxlan-gpe-port 4790 "$R/tcpdump__nsh-over-vxlan-gpe.pcap"
    eq "--vxlan-gpe-port" "$(protos 1)" "vxlan-gpe"
    run 0 "$C" --format json --no-default-ports --mpls-port 6635 "$R/tcpdump__mpls-over-udp.pcap"
    eq "--mpls-port" "$(protos 1)" "mpls"
    run 0 "$C" --format json --no-default-ports --l2tp-port 1701 "$R/tcpdump__l2tp-avp-overflow.pcap"
    eq "--l2tp-port" "$(protos 1)" "l2tp"
    run 0 "$C" --format json --no-default-ports "$R/zeek__geneve.pcap"
    eq "geneve needs its port" "$(protos 1)" "<missing>"
    run 0 "$C" --format json --no-default-ports --geneve-port 6081 "$R/zeek__geneve.pcap"
    eq "--geneve-port" "$(protos 1)" "geneve"
    G="$R/gen__gue-ipip-ping.pcap"
    run 0 "$C" --format json --no-default-ports --gue-port 6080 "$G"
    eq "--gue-port" "$(protos 3)" "gue"
    run 0 "$C" --format json --fou-port 6080:4 "$G"
    eq "--fou-port replaces GUE on 6080" "$(protos 3)" "fou"
}

t_l2tp_lengths() {
    need_corpus
    L="$R/gen__l2tp-ip-ping.pcap"
    run 0 "$C" --format json "$L"
    eq "defaults reach the inner ICMP" "$(jq_ -f type=summary -p layers.icmp.good)" 2
    # a 4-byte cookie alone: the sublayer's length is chosen from the bytes,
    # and the 4 bytes read as a cookie were the sublayer: none is left
    run 0 "$C" --format json --l2tp-cookie-len 4 "$L"
    eq "cookie 4, sublayer chosen" "$(jq_ -f type=summary -p layers.icmp.good)" 2
    eq "cookie 4: guessed" "$(jq_ -f type=packet -p layers.2.proto -p layers.2.notes | grep l2tp | sort -u)" 'l2tp	["l2spec-guessed"]'
    run 0 "$C" --format json --l2tp-cookie-len 4 --l2tp-l2spec-len 4 "$L"
    eq "cookie 4 and a sublayer: misread" "$(jq_ -f type=summary -p layers.icmp)" "<missing>"
    run 0 "$C" --format json --l2tp-l2spec-len 0 "$L"
    eq "no sublayer" "$(jq_ -f type=summary -p layers.icmp)" "<missing>"
    run 0 "$C" --format json --l2tp-cookie-len 0 --l2tp-l2spec-len 4 "$L"
    eq "explicit defaults" "$(jq_ -f type=summary -p layers.icmp.good)" 2
}

# VXLAN RCO made from the inner-TCP-bad frame: RCO flag (frame byte 43 =
# 0x20), start 34/2 = 0x11 in the VNI's low byte (frame 49), the inner TCP
# field set to the pseudo-header seed 0x141d, and the outer UDP checksum
# fixed up (RFC 1624) to 0x53a7. Written to $W/rco.pcap.
rco_fixture() {
    fixture "$VXB" rco.pcap
    patch "$W/rco.pcap" 80 '\123\247'
    patch "$W/rco.pcap" 83 '\040'
    patch "$W/rco.pcap" 89 '\021'
    patch "$W/rco.pcap" 140 '\024\035'
}

t_rco() {
    need_corpus
    rco_fixture
    P="-f type=packet"
    run 0 "$C" --format json "$W/rco.pcap"
    # resolved = ~(sum from start to the end) = 0x4b57; delta = resolved - field.
    eq "rco verdict" "$(jq_ $P -p layers.2.csum.verdict -p layers.6.csum -p layers.3.notes -p layers.3.rco)" \
        'good	{"verdict":"rco","field":"0x141d","expected":"0x4b57","reason":"rco","resolved":"0x4b57","rco_delta":"0x373a"}	["rco"]	{"start":34,"offset":50}'
    eq "no remcsumrx: invalid header" "$(jq_ $P -p kernel.drop.reason -p kernel.drop.layer)" "VXLAN_INVALID_HDR	3"
    run 0 "$C" --format json --remcsum-rx "$W/rco.pcap"
    eq "remcsumrx" "$(jq_ $P -p kernel.verdict -p layers.6.kernel.method)" "accept	remcsum-start"
    run 0 "$C" --format json --remcsum-rx --remcsum-nopartial "$W/rco.pcap"
    eq "nopartial" "$(jq_ $P -p kernel.verdict -p layers.6.kernel.method)" "accept	complete-arith"
    eq "config" "$(jq_ -f type=summary -p config.remcsum_rx -p config.remcsum_nopartial)" "true	true"
    run 1 "$C" -q --fail-on rco "$W/rco.pcap"
    has "$W/out" "receiver: rx none, era modern, gro on"
    run 0 "$C" -q -w "$W/sel.pcap" --select rco "$W/rco.pcap" "$R/$VXB"
    has "$W/out" "wrote 1 selected frame to"
    run 0 "$C" -q --fail-on lco "$W/rco.pcap"
}

t_frag() {
    need_corpus
    run 0 "$C" --format json "$R/nDPI__dns_fragmented.pcap" "$R/zeek__fragmented-1.pcap"
    eq "first fragment" "$(jq_ -f "file=$R/nDPI__dns_fragmented.pcap" -f frame=2 -p layers.2.csum.verdict -p layers.2.csum.reason)" \
        "unverifiable	fragment"
    eq "completing fragment" "$(jq_ -f "file=$R/nDPI__dns_fragmented.pcap" -f frame=3 -p layers.1.notes -p layers.2.proto -p layers.2.csum.verdict -p layers.2.csum.reason)" \
        '["fragment"]	udp	good	reassembled'
    # the third fragment ends beyond the known last (164): ip_frag_queue kills the queue
    eq "queue killed" "$(jq_ -f "file=$R/zeek__fragmented-1.pcap" -f frame=3 -p layers.2.csum.reason -p kernel.verdict -p kernel.drop.reason)" \
        "fragment	drop	NOT_SPECIFIED (fragment end past or short of the last: queue killed)"
    eq "one table per file" "$(jq_ -f type=summary -p frag)" '{"completed":7,"evicted":0,"overlaps":0,"dropped":1}'
    run 0 "$C" --format json "$R/zeek__fragmented-4.pcap"
    eq "overlap kills the queue" "$(jq_ -f frame=5 -p kernel.verdict -p kernel.drop.reason)" \
        "drop	NOT_SPECIFIED (overlapping fragment: queue killed)"
    eq "overlap counted" "$(jq_ -f type=summary -p frag.overlaps)" "1"
    run 0 "$C" -q "$R/nDPI__dns_fragmented.pcap"
    has "$W/out" "ip reassembly: 7 completed, 0 evicted, 0 overlapping, 0 dropped"
}

t_progress() {
    need_corpus
    run 0 "$C" "$R/$NDPI" "$R/$VXB"
    eq "silent when stderr is not a terminal" "$(cat "$W/err")" ""
    run 0 "$C" --progress always "$R/$NDPI" "$R/$VXB"
    has "$W/err" "100%"
    has "$W/err" "2/2 files"
    has "$W/err" "ETA"
    run 0 "$C" --progress never "$R/$NDPI"
    eq "never" "$(cat "$W/err")" ""
    run 0 sh -c "'$C' --progress always - <'$R/$NDPI'"
    has "$W/err" "1/1 files"
    # warnings go to stderr, -q silences them
    fixture "$U4B" user0.pcap
    patch "$W/user0.pcap" 20 '\223\000\000\000'        # linktype 147 (USER0)
    run 0 "$C" "$W/user0.pcap"
    has "$W/err" "user0.pcap: link type 147 is not decoded"
    has "$W/out" "decoding stopped early: unknown-link 1"
    run 0 "$C" -q "$W/user0.pcap"
    eq "-q" "$(cat "$W/err")" ""
}

t_memory_flat() {
    need_corpus
    [ -x /usr/bin/time ] || skip "GNU time (/usr/bin/time) not installed: cannot measure peak RSS"
    # 2^16 copies of one 104-byte frame (7.5 MiB) vs 2^12 of them: a growth
    # under 4 MiB means less than 64 bytes kept per frame. The baseline has
    # 4096 frames, not 1, so that it already fills the pipeline's bounded
    # ring of batches (a fixed 1-3 MiB per file being read, see pipeline.c).
    head -c 24 "$R/$VXB" >"$W/big.pcap"
    tail -c +25 "$R/$VXB" >"$W/rec"
    i=0
    while [ $i -lt 16 ]; do cat "$W/rec" "$W/rec" >"$W/rec2" && mv "$W/rec2" "$W/rec"; i=$((i + 1)); done
    cat "$W/rec" >>"$W/big.pcap"
    rm -f "$W/rec"
    head -c $((24 + 4096 * 120)) "$W/big.pcap" >"$W/base.pcap"
    rss() { /usr/bin/time -f %M -o "$W/rss" "$@" >"$W/out" 2>"$W/err" || true; cat "$W/rss"; }
    for mode in "-q" "-q --format json" "-q --format csv" "-q -v --format json"; do
        # shellcheck disable=SC2086
        small=$(rss "$C" $mode "$W/base.pcap")
        # shellcheck disable=SC2086
        big=$(rss "$C" $mode "$W/big.pcap")
        echo "peak RSS $mode: 4096 frames ${small} KiB, 65536 frames ${big} KiB"
        [ $((big - small)) -lt 4096 ] || fail "$mode: peak RSS grows with the file: $small KiB -> $big KiB"
    done
    run 0 "$C" -q "$W/big.pcap"
    has "$W/out" "csumcheck: 1 file, 65536 frames, 6815744 bytes captured"
    has "$W/out" "kernel: accepted 0, dropped 65536, unknown 0, not run 0"
    # -j with spooling: two big files in parallel, output order kept, RSS flat
    ln -s "$W/big.pcap" "$W/big2.pcap"
    small=$(rss "$C" -q -j 2 --format json "$W/base.pcap" "$W/base.pcap")
    big=$(rss "$C" -q -j 2 --format json "$W/big.pcap" "$W/big2.pcap")
    echo "peak RSS -j 2 json: ${small} KiB vs ${big} KiB"
    [ $((big - small)) -lt 4096 ] || fail "-j 2: peak RSS grows with the files: $small KiB -> $big KiB"
    eq "-j 2 frames" "$(jq_ -f type=summary -p frames)" 131072
    eq "-j 2 order" "$(jq_ -f type=packet -p file | uniq -c | awk '{print $1}' | tr '\n' ' ')" "65536 65536 "
}

t_install() {
    B=${BUILDDIR:?}
    command -v cmake >/dev/null || skip "cmake not in PATH"
    # the cli component only: other parts may install outside the prefix
    run 0 cmake --install "$B" --prefix "$W/prefix" --component cli
    [ -x "$W/prefix/bin/csumcheck" ] || fail "bin/csumcheck not installed"
    [ -f "$W/prefix/share/man/man1/csumcheck.1.gz" ] || fail "share/man/man1/csumcheck.1.gz not installed"
    gzip -dc "$W/prefix/share/man/man1/csumcheck.1.gz" >"$W/csumcheck.1" || fail "csumcheck.1.gz: not gzip"
    cmp -s "$W/csumcheck.1" "${SRCDIR:?}/docs/csumcheck.1" || fail "the installed man page is not docs/csumcheck.1"
    run 0 "$W/prefix/bin/csumcheck" --version
    if command -v groff >/dev/null; then
        run 0 groff -man -ww -Tascii -P-cbou "$W/csumcheck.1"
        eq "groff warnings" "$(cat "$W/err")" ""
        for o in --rx --era --gro --remcsum-rx --remcsum-nopartial --udp6-zero-csum-rx \
                 --gre-csum --no-socket --assume-bad --vxlan-port --vxlan-gpe-port \
                 --geneve-port --gue-port --fou-port --l2tp-port --mpls-port \
                 --no-default-ports --l2tp-cookie-len --l2tp-l2spec-len --format --verbose \
                 --quiet --progress --fail-on --write --select --jobs --version \
                 "EXIT STATUS"; do
            has "$W/out" "$o"
        done
        # every long option --help lists is in the man page
        mv "$W/out" "$W/man.txt"
        run 0 "$W/prefix/bin/csumcheck" --help
        for o in $(grep -o -- '--[a-z0-9-]*' "$W/out" | sort -u); do
            [ "$o" = "--help" ] || has "$W/man.txt" "$o"
        done
    else
        echo "note: groff not installed, man page not linted"
    fi
}

# ---------------------------------------------------------------------------
# Issue #9: the GRO engine over whole captures, and --compare.
# The committed flows (captures/, csc-gen flow): 8 segments of one TCP flow
# over VXLAN, 1398 payload bytes, 10 us apart (one NAPI poll).
S4="${SRCDIR:?}/captures/seed004-82599-zero-csum.pcap"      # outer UDP checksum 0
S0="$SRCDIR/captures/flow-seed000-outer-csum.pcap"           # outer UDP checksum on
BM="$SRCDIR/captures/flow-bad-middle.pcap"                   # segment 4: inner TCP bad
need_flows() {
    [ -f "$S4" ] && [ -f "$S0" ] && [ -f "$BM" ] || skip "committed flow captures missing under $SRCDIR/captures"
}
# gro DEV FIELD...: the summary's gro.devices entry of DEV (run on $W/out)
gro() {
    d=$1; shift
    i=0
    while [ $i -lt 8 ]; do
        [ "$(tail -n 1 "$W/out" | "$Q" -p gro.devices.$i.device)" = "$d" ] && break
        i=$((i + 1))
    done
    set -- $(for f in "$@"; do printf -- '-p gro.devices.%s.%s ' "$i" "$f"; done)
    tail -n 1 "$W/out" | "$Q" "$@"
}

t_gro_engine() {
    need_flows
    # seed 004 (model S6a): era 4.6, NONE report, zero outer checksum: the UDP
    # tunnel GRO gate refuses every segment at the NIC (ratio 1.0 there); the
    # VXLAN device's gro_cells then merges the 8 segments into one packet.
    run 0 "$C" --format json --rx none --era 4.6 "$S4"
    eq "4.6 nic" "$(gro nic frames_in packets_out ratio merged_frames alone refused flushes)" \
        '8	8	1.000	0	8	{"udp-tunnel-gate":8}	{}'
    eq "4.6 vxlan" "$(gro vxlan frames_in packets_out ratio merged_frames flushes)" \
        '8	1	8.000	8	{"end-of-capture":1}'
    eq "4.6 frame 1" "$(jq_ -f frame=1 -p gro_fate)" \
        '[{"device":"nic","fate":"alone","reason":"udp-tunnel-gate"},{"device":"vxlan","fate":"held","super":1}]'
    eq "4.6 frame 8" "$(jq_ -f frame=8 -p gro_fate)" \
        '[{"device":"nic","fate":"alone","reason":"udp-tunnel-gate"},{"device":"vxlan","fate":"merged","super":1}]'
    # one software pass per segment (TCP over the inner bytes, at vx0): merging
    # after the pass saves none
    eq "4.6 passes" "$(jq_ -f type=summary -p gro.sw_passes_single -p gro.sw_bytes_single -p gro.sw_passes_merged -p gro.sw_bytes_merged -p kernel.sw_passes)" \
        "8	11344	8	11344	8"
    # seed 004 fixed (S6b, 89e5c58fc1e2): the gate lets a zero checksum through:
    # 8 segments -> 1 packet at the NIC; the merged frames never reach vx0 alone
    run 0 "$C" --format json --rx none --era modern "$S4"
    eq "modern nic" "$(gro nic frames_in packets_out ratio merged_frames alone refused flushes)" \
        '8	1	8.000	8	0	{}	{"end-of-capture":1}'
    eq "modern vxlan" "$(gro vxlan frames_in packets_out)" "1	1"
    eq "modern frame 1" "$(jq_ -f frame=1 -p gro_fate)" \
        '[{"device":"nic","fate":"held","super":1},{"device":"vxlan","fate":"held","super":1}]'
    eq "modern frame 5" "$(jq_ -f frame=5 -p gro_fate)" '[{"device":"nic","fate":"merged","super":1}]'
    eq "modern passes" "$(jq_ -f type=summary -p gro.sw_passes_single -p gro.sw_passes_merged)" "8	8"
    eq "one flow per device" "$(jq_ -f type=summary -p gro.tcp_flows -p gro.flows_evicted -p gro.top_flows.#)" "2	0	2"
    eq "top flow" "$(jq_ -f type=summary -p gro.top_flows.0.device -p gro.top_flows.0.first_frame -p gro.top_flows.0.frames_in -p gro.top_flows.0.packets_out -p gro.top_flows.0.avg_merge -p gro.top_flows.0.flow)" \
        "nic	1	8	1	8.000	udp 10.0.0.1:49152 > 10.0.0.2:4789, vxlan 42, tcp 10.0.1.1:40001 > 10.0.1.2:5001"
    eq "top flow parts" "$(jq_ -f type=summary -p gro.top_flows.0.outer -p gro.top_flows.0.tunnel -p gro.top_flows.0.inner.dport -p gro.top_flows.1.device -p gro.top_flows.1.tunnel)" \
        '{"proto":"udp","src":"10.0.0.1","dst":"10.0.0.2","sport":49152,"dport":4789}	{"proto":"vxlan","id":42}	5001	vxlan	null'
    # the text summary says the same
    run 0 "$C" --rx none --era 4.6 "$S4"
    has "$W/out" "gro engine: budget 64, flush timeout 0 us, gro_max_size 65536, poll gap 100 us"
    eq "text nic row" "$(grep -E '^  nic +[0-9]' "$W/out" | tr -s ' ')" " nic 8 8 1.00 0 8"
    eq "text vxlan row" "$(grep -E '^  vxlan +[0-9]' "$W/out" | tr -s ' ')" " vxlan 8 1 8.00 8 0"
    has "$W/out" "  nic not eligible: udp-tunnel-gate 8"
    has "$W/out" "  vxlan flushes: end-of-capture 1"
    has "$W/out" "  software checksum passes: frame by frame 8 over 11344 bytes; after merging 8 over 11344 bytes"
    has "$W/out" "8.00  vxlan      tcp 10.0.1.1:40001 > 10.0.1.2:5001 (from frame 1); flushes: end-of-capture 1"

    # seed 000 (S3 vs S3'): the NIC verified the outer UDP checksum
    # (UNNECESSARY level 0). 3.18 converts to a NAPI checksum and merges with
    # no software pass at all; before Part VI the gate refuses tunnel GRO and
    # each segment costs a pass over the inner TCP.
    run 0 "$C" --format json --rx unnecessary:0 --era 3.18 "$S0"
    eq "3.18 nic" "$(gro nic packets_out ratio merged_frames refused)" '1	8.000	8	{}'
    eq "3.18 passes" "$(jq_ -f type=summary -p gro.sw_passes_single -p gro.sw_passes_merged)" "0	0"
    run 0 "$C" --format json --rx unnecessary:0 --era pre-part-vi "$S0"
    eq "pre-part-vi nic" "$(gro nic packets_out ratio merged_frames refused)" '8	1.000	0	{"udp-tunnel-gate":8}'
    eq "pre-part-vi passes" "$(jq_ -f type=summary -p gro.sw_passes_single -p gro.sw_bytes_single -p gro.sw_passes_merged)" "8	11344	8"

    # a bad segment in the middle (model §7.6): segment 4 fails validation, goes
    # up alone at once and overtakes the held segments 1-3, which leave only
    # when segment 5 does not continue their sequence; 5-8 merge again
    run 0 "$C" --format json "$BM"
    eq "bad-middle fates" "$(jq_ -f type=packet -p frame -p gro_fate.0 | tr '\n' ' ')" \
        '1	{"device":"nic","fate":"held","super":1} 2	{"device":"nic","fate":"merged","super":1} 3	{"device":"nic","fate":"merged","super":1} 4	{"device":"nic","fate":"alone","reason":"csum-fail"} 5	{"device":"nic","fate":"held","super":5,"flushed":"seq-gap"} 6	{"device":"nic","fate":"merged","super":5} 7	{"device":"nic","fate":"merged","super":5} 8	{"device":"nic","fate":"merged","super":5} '
    eq "bad-middle nic" "$(gro nic frames_in packets_out ratio merged_frames alone refused flushes)" \
        '8	3	2.667	7	1	{"csum-fail":1}	{"seq-gap":1,"end-of-capture":1}'
    eq "bad-middle frame 4 at vxlan" "$(jq_ -f frame=4 -p gro_fate.1 -p kernel.drop.reason)" \
        '{"device":"vxlan","fate":"alone","reason":"csum-fail"}	TCP_CSUM'
    # 7 good segments x 1 pass (outer UDP, NIC GRO) + 4 passes on the bad one
    eq "bad-middle passes" "$(jq_ -f type=summary -p gro.sw_passes_single -p gro.sw_passes_merged -p gro.top_flows.0.flushes)" \
        '11	11	{"seq-gap":1,"end-of-capture":1}'
    run 0 "$C" -v "$BM"
    has "$W/out" "flow-bad-middle.pcap:4: tcp@84 bad (mismatch) field 0x2e77 expected 0x742d; kernel: drop at tcp@84 TCP_CSUM TcpInCsumErrors TcpInErrs, 4 sw passes/5722 bytes; gro: nic alone (csum-fail), vxlan alone (csum-fail)"
    # with the NIC reporting PARTIAL at the outer checksum the inner TCP is
    # checked after GRO, per segment: merging saves those passes
    run 0 "$C" --format json --rx partial:outer "$BM"
    eq "partial:outer passes" "$(jq_ -f type=summary -p gro.sw_passes_single -p gro.sw_passes_merged)" "10	3"
    # --gro off: every frame alone at every device
    run 0 "$C" --format json --gro off "$S4"
    eq "gro off" "$(gro nic packets_out refused)" '8	{"gro-off":8}'
    # several files: one engine per file, totals summed, flows named by file
    run 0 "$C" --format json "$S4" "$S0"
    eq "two files" "$(gro nic frames_in packets_out)" "16	2"
    eq "flow files" "$(jq_ -f type=summary -p gro.top_flows.0.file -p gro.top_flows.1.file -p gro.top_flows.#)" "$S4	$S0	4"
    run 0 "$C" "$S4" "$S0"
    has "$W/out" "(from frame 1); flushes: end-of-capture 1"
    has "$W/out" " in $S0 (from frame 1)"
}

t_gro_options() {
    need_flows
    # the flow's frames are 10 us apart: a 5 us poll gap ends a poll after each
    # one, and each poll end flushes (gro_flush_timeout 0)
    run 0 "$C" --format json --poll-gap 5 "$S4"
    eq "poll-gap 5" "$(gro nic packets_out flushes)" '8	{"poll-end":7,"end-of-capture":1}'
    eq "config" "$(jq_ -f type=summary -p gro.budget -p gro.poll_gap_us -p gro.flush_timeout_us -p gro.max_size)" "64	5	0	65536"
    # a flush timeout keeps them across polls: flushed once 25 us old
    run 0 "$C" --format json --poll-gap 5 --gro-flush-timeout 25 "$S4"
    eq "flush timeout" "$(gro nic packets_out flushes)" '3	{"flush-timeout":2,"end-of-capture":1}'
    eq "after the timeout" "$(jq_ -f frame=4 -p gro_fate.0)" '{"device":"nic","fate":"held","super":4}'
    # gro_max_size: IPv4 + 1398 bytes, twice, fit in 4000; a third does not
    run 0 "$C" --format json --gro-max-size 4000 "$S4"
    eq "max size" "$(gro nic packets_out flushes)" '4	{"gro-max-size":3,"end-of-capture":1}'
    # budget: 300 segments of 100 bytes, 10 us apart; at the end of a full
    # budget the held packets older than a jiffy (1 ms) go up
    G=${BUILDDIR:?}/captures/gen/csc-gen
    [ -x "$G" ] || skip "csc-gen not built ($G)"
    "$G" flow --segments 300 --payload 100 -o "$W/f300.pcap" || fail "csc-gen flow"
    run 0 "$C" --format json "$W/f300.pcap"
    eq "budget 64" "$(gro nic packets_out flushes)" '3	{"older-than-jiffy":2,"end-of-capture":1}'
    eq "budget 64 split" "$(jq_ -f frame=129 -p gro_fate.0.fate -p gro_fate.0.super)" "held	129"
    run 0 "$C" --format json --gro-budget 16 "$W/f300.pcap"
    eq "budget 16 split" "$(jq_ -f frame=113 -p gro_fate.0.fate -p gro_fate.0.super)" "held	113"
    run 0 "$C" --format json --gro-budget 300 "$W/f300.pcap"
    eq "budget 300" "$(gro nic packets_out flushes)" '1	{"end-of-capture":1}'
    # --gro-flows bounds the list
    run 0 "$C" --format json --gro-flows 1 "$S4"
    eq "one flow listed" "$(jq_ -f type=summary -p gro.top_flows.# -p gro.tcp_flows)" "1	2"
    run 0 "$C" --gro-flows 0 "$S4"
    hasnt "$W/out" "top "
}

t_compare() {
    need_flows
    # seed 004: one pass, two configurations
    run 0 "$C" --rx none --era 4.6 --compare era=modern "$S4"
    has "$W/out" "csumcheck --compare: 1 file, 8 frames, 12016 bytes captured"
    has "$W/out" "A: rx none, era 4.6, gro on"
    has "$W/out" "B: rx none, era modern, gro on  (--compare era=modern)"
    row() { grep -A40 "^$1\$" "$W/out" | grep -m1 "^  $2  " | tr -s ' ' | sed 's/ $//'; }
    eq "nic packets out" "$(row 'gro engine at nic' 'packets out')" " packets out 8 1 -7"
    eq "nic ratio" "$(row 'gro engine at nic' 'ratio')" " ratio 1.00 8.00 +7.00"
    eq "nic refusals" "$(row 'gro engine at nic' 'refused udp-tunnel-gate')" " refused udp-tunnel-gate 8 0 -8"
    eq "vxlan ratio" "$(row 'gro engine at vxlan' 'ratio')" " ratio 8.00 1.00 -7.00"
    eq "no drop either way" "$(row kernel drop)" " drop 0 0"
    eq "passes" "$(row 'software checksum' 'passes, frame by frame')" " passes, frame by frame 8 8"
    has "$W/out" "9 figures differ (-v lists the frames whose outcome differs)"
    # -v: one line per frame whose outcome differs
    run 0 "$C" -v --rx none --era 4.6 --compare era=modern "$S4"
    eq "diff lines" "$(grep -c "^$S4:" "$W/out")" 8
    has "$W/out" "$S4:2: A: accept, 1 sw passes/1418 bytes, gro: nic alone (udp-tunnel-gate), vxlan merged into 1 | B: accept, 1 sw passes/1418 bytes, gro: nic merged into 1"

    # seed 000, A and B both given: 3.18 against the switches before Part VI
    run 0 "$C" --rx unnecessary:0 --compare era=3.18 --compare era=pre-part-vi "$S0"
    has "$W/out" "A: rx unnecessary:0, era 3.18, gro on  (--compare era=3.18)"
    eq "S3 vs S3' passes" "$(row 'software checksum' 'passes after GRO merging')" " passes after GRO merging 0 8 +8"
    eq "S3 vs S3' bytes" "$(row 'software checksum' 'bytes, frame by frame')" " bytes, frame by frame 0 11344 +11344"
    eq "S3 vs S3' ratio" "$(row 'gro engine at nic' 'ratio')" " ratio 8.00 1.00 -7.00"
    eq "S3 vs S3' gate" "$(row 'gro engine at nic' 'refused udp-tunnel-gate')" " refused udp-tunnel-gate 0 8 +8"

    # the bad segment made good (inner-good rewrite): no drop, one packet
    run 0 "$C" --compare inner-good "$BM"
    eq "drops" "$(row kernel drop)" " drop 1 0 -1"
    eq "counter" "$(row kernel TcpInCsumErrors)" " TcpInCsumErrors 1 0 -1"
    eq "drop reason" "$(row kernel 'drop reason TCP_CSUM')" " drop reason TCP_CSUM 1 0 -1"
    eq "tcp bad" "$(row checksums 'tcp bad')" " tcp bad 1 0 -1"
    eq "passes" "$(row 'software checksum' 'passes, frame by frame')" " passes, frame by frame 11 8 -3"
    eq "ratio" "$(row 'gro engine at nic' 'ratio')" " ratio 2.67 8.00 +5.33"
    eq "csum-fail" "$(row 'gro engine at nic' 'refused csum-fail')" " refused csum-fail 1 0 -1"
    has "$W/out" "B: rx none, era modern, gro on, rewrite inner-good  (--compare inner-good)"
    # nothing differs: no frame line, 0 figures
    run 0 "$C" -v --compare era=modern "$S4"
    has "$W/out" "0 figures differ"
    hasnt "$W/out" "$S4:"
    # --fail-on and -w look at both runs
    run 1 "$C" -q --fail-on drop --compare inner-good "$BM"
    run 0 "$C" -q -w "$W/sel.pcap" --compare inner-good "$BM"
    has "$W/out" "wrote 1 selected frame to $W/sel.pcap"
}

# docs/gro.md's walk-through: a zero outer checksum on a 4.6 NONE receiver,
# on a real capture (the figures the page quotes)
t_compare_real() {
    need_corpus
    Z="$R/zeek__vxlan-overlapping-http-get.pcap"
    run 0 "$C" --format json --rx none --era 4.6 --compare outer-zero $RS "$Z"
    eq "walk-through diff" "$(jq_ -f type=compare -p diff)" \
        '{"layers.udp.good":[28,0],"layers.udp.none":[0,28],"findings.none":[0,28],"kernel.sw_bytes":[18233,16833],"gro.sw_bytes_merged":[18233,16833],"gro.nic.packets_out":[36,40],"gro.nic.ratio":[1.167,1.050],"gro.nic.merged_frames":[9,3],"gro.nic.alone":[30,38],"gro.nic.refused.udp-tunnel-gate":[0,28],"gro.nic.refused.tcp-flags":[15,5],"gro.nic.refused.tcp-no-payload":[15,5],"gro.nic.flushes.poll-end":[3,1],"gro.nic.flushes.below-mss":[3,1],"gro.vxlan.frames_in":[24,28],"gro.vxlan.packets_out":[24,26],"gro.vxlan.ratio":[1.000,1.077],"gro.vxlan.merged_frames":[0,4],"gro.vxlan.alone":[20,21],"gro.vxlan.refused.tcp-flags":[10,11],"gro.vxlan.flushes.poll-end":[2,1],"gro.vxlan.flushes.seq-gap":[2,3],"gro.vxlan.flushes.below-mss":[0,1]}'
    eq "no drops" "$(jq_ -f type=compare -p runs.0.kernel.drop -p runs.1.kernel.drop -p runs.0.kernel.sw_passes -p runs.1.kernel.sw_passes)" "0	0	42	42"
    run 0 "$C" --format json --rx none --era modern --compare outer-zero $RS "$Z"
    eq "modern" "$(jq_ -f type=compare -p diff)" \
        '{"layers.udp.good":[28,0],"layers.udp.none":[0,28],"findings.none":[0,28],"kernel.sw_bytes":[18233,16833],"gro.sw_bytes_merged":[18233,16833]}'
}

t_compare_formats() {
    need_flows
    run 0 "$C" --format json --rx none --era 4.6 --compare era=modern "$S4"
    eq "types" "$(jq_ -p type | sort | uniq -c | awk '{print $1, $2}' | tr '\n' ' ')" "1 compare 8 frame-diff "
    eq "last line" "$(tail -n 1 "$W/out" | "$Q" -p type -p files -p frames -p exit_status -p runs.# -p runs.0.run -p runs.0.spec -p runs.1.spec)" \
        "compare	1	8	0	2	A	null	era=modern"
    L="-f type=compare"
    eq "configs" "$(jq_ $L -p runs.0.config.era -p runs.1.config.era -p runs.0.gro.devices.0.ratio -p runs.1.gro.devices.0.ratio)" \
        "4.6	modern	1.000	8.000"
    eq "diff" "$(jq_ $L -p diff)" \
        '{"gro.nic.packets_out":[8,1],"gro.nic.ratio":[1.000,8.000],"gro.nic.merged_frames":[0,8],"gro.nic.alone":[8,0],"gro.nic.refused.udp-tunnel-gate":[8,0],"gro.nic.flushes.end-of-capture":[0,1],"gro.vxlan.frames_in":[8,1],"gro.vxlan.ratio":[8.000,1.000],"gro.vxlan.merged_frames":[8,0]}'
    eq "frame diff" "$(jq_ -f type=frame-diff -f frame=3 -p file -p runs.0.run -p runs.0.verdict -p runs.0.gro -p runs.0.gro_fate -p runs.1.gro_fate)" \
        "$S4	A	accept	[\"udp-tunnel-gate\",\"held\"]	[{\"device\":\"nic\",\"fate\":\"alone\",\"reason\":\"udp-tunnel-gate\"},{\"device\":\"vxlan\",\"fate\":\"merged\",\"super\":1}]	[{\"device\":\"nic\",\"fate\":\"merged\",\"super\":1}]"
    run 0 "$C" --format json --compare inner-good "$BM"
    eq "drop in A only" "$(jq_ -f frame=4 -p runs.0.verdict -p runs.0.drop -p runs.0.counters -p runs.1.verdict -p runs.1.drop)" \
        'drop	{"layer":6,"reason":"TCP_CSUM"}	["TcpInCsumErrors","TcpInErrs"]	accept	<missing>'
    eq "rewrite config" "$(jq_ -f type=compare -p runs.0.config.rewrite -p runs.1.config.rewrite)" '[]	["inner-good"]'
    # metric names are flat keys (with dots), [A, B]
    eq "diff" "$(jq_ -f type=compare -p diff)" \
        '{"layers.tcp.good":[7,8],"layers.tcp.bad":[1,0],"findings.bad":[1,0],"findings.drop":[1,0],"kernel.accept":[7,8],"kernel.drop":[1,0],"kernel.counters.TcpInCsumErrors":[1,0],"kernel.counters.TcpInErrs":[1,0],"kernel.drop_reasons.TCP_CSUM":[1,0],"kernel.sw_passes":[11,8],"kernel.sw_bytes":[15998,11744],"gro.sw_passes_merged":[11,8],"gro.sw_bytes_merged":[15998,11744],"gro.nic.packets_out":[3,1],"gro.nic.ratio":[2.667,8.000],"gro.nic.merged_frames":[7,8],"gro.nic.alone":[1,0],"gro.nic.refused.csum-fail":[1,0],"gro.nic.flushes.seq-gap":[1,0],"gro.vxlan.frames_in":[3,1],"gro.vxlan.packets_out":[3,1],"gro.vxlan.alone":[1,0],"gro.vxlan.refused.csum-fail":[1,0],"gro.vxlan.flushes.seq-gap":[1,0]}'
    # CSV: one row per figure
    run 0 "$C" --format csv --rx none --era 4.6 --compare era=modern "$S4"
    eq "header" "$(head -n 1 "$W/out")" "metric,a,b,differs"
    has "$W/out" "gro.nic.ratio,1.000,8.000,yes"
    has "$W/out" "kernel.sw_passes,8,8,no"
    eq "differing rows" "$(grep -c ',yes$' "$W/out")" 9
}

t_rewrite() {
    need_flows
    # outer checksum present vs zero (seed 003/004): on an 82599-like receiver
    # (NONE, 4.6) zeroing the outer checksum costs NIC GRO; computing it back
    # on the zero-checksum capture restores it
    run 0 "$C" --format json --rx none --era 4.6 --rewrite outer-zero "$S0"
    eq "outer-zero" "$(jq_ -f frame=1 -p layers.2.csum.verdict -p gro_fate.0.reason)" "none	udp-tunnel-gate"
    eq "outer-zero config" "$(jq_ -f type=summary -p config.rewrite)" '["outer-zero"]'
    run 0 "$C" --format json --rx none --era 4.6 --rewrite outer-csum "$S4"
    eq "outer-csum" "$(jq_ -f frame=1 -p layers.2.csum.verdict -p gro_fate.0.fate)" "good	held"
    eq "outer-csum nic" "$(gro nic packets_out)" 1
    run 0 "$C" --rx none --era 4.6 --compare outer-csum "$S4"
    eq "what-if ratio" "$(grep -A10 '^gro engine at nic$' "$W/out" | grep -m1 '  ratio ' | tr -s ' ')" " ratio 1.00 8.00 +7.00"
    # outer-zero and inner-good together, on the bad-middle flow
    run 0 "$C" --format json --rewrite outer-zero,inner-good "$BM"
    eq "both" "$(jq_ -f type=summary -p layers.udp -p layers.tcp -p kernel.drop)" '{"none":8}	{"good":8}	0'
    # -w writes the frames as captured, not as rewritten
    run 0 "$C" -q --rewrite outer-zero -w "$W/w.pcap" --select none "$S0"
    has "$W/out" "wrote 8 selected frames"
    cmp -s "$S0" "$W/w.pcap" || [ "$(wc -c <"$W/w.pcap")" = "$(wc -c <"$S0")" ] || fail "-w size"
    run 0 "$C" --format json "$W/w.pcap"
    eq "written unchanged" "$(jq_ -f type=summary -p layers.udp)" '{"good":8}'
}

t_no_remcsum_rx() {
    need_corpus
    # the RCO frame of rco_fixture; a VXLAN device made with noremcsumrx given (v6.14+):
    # the RCO bits are configured, not reserved: no VXLAN drop, the inner TCP
    # (the unfilled seed) fails instead (docs/kernel-diff.md, Disagreements)
    rco_fixture
    P="-f type=packet"
    run 0 "$C" --format json --no-remcsum-rx "$W/rco.pcap"
    eq "noremcsumrx" "$(jq_ $P -p kernel.drop.reason -p kernel.drop.counters)" 'TCP_CSUM	["TcpInCsumErrors","TcpInErrs"]'
    eq "config" "$(jq_ -f type=summary -p config.remcsum_rx -p config.remcsum_rx_given)" "false	true"
    run 0 "$C" --format json --no-remcsum-rx --era 5.12 "$W/rco.pcap"
    eq "before 6.14 the same as absent" "$(jq_ $P -p kernel.drop.reason)" "VXLAN_INVALID_HDR"
    run 0 "$C" -q --no-remcsum-rx "$W/rco.pcap"
    has "$W/out" "receiver: rx none, era modern, gro on, no-remcsum-rx"
    run 0 "$C" --compare no-remcsum-rx "$W/rco.pcap"
    eq "compare" "$(grep -m1 '  drop reason VXLAN_INVALID_HDR' "$W/out" | tr -s ' ')" " drop reason VXLAN_INVALID_HDR 1 0 -1"
}

# Issue #5 performance: the pipeline (worker threads analyse batches, the
# file's thread puts them back in capture order) must not change one byte of
# any output: --threads 1 (no pipeline) against 1 and 3 workers (--threads 2, 4).
t_pipeline() {
    need_corpus
    G=${BUILDDIR:?}/captures/gen/csc-gen
    [ -x "$G" ] || skip "csc-gen not built ($G)"
    # many batches: 2 MiB of small frames (every 7th bad), a long flow
    "$G" bench --size small --bytes 2M --bad-every 7 -o "$W/small.pcap" || fail "csc-gen bench"
    "$G" flow --segments 3000 --payload 100 --bad-seg 1500 -o "$W/flow.pcap" || fail "csc-gen flow"
    # frames bigger than a batch's arena (256 KiB) between small ones, and an
    # IP fragment train: raw IPv4 frames written by hand
    command -v python3 >/dev/null || skip "python3 needed to write the big-frame fixture"
    python3 - "$W/big.pcap" <<'PY' || fail "writing the big-frame fixture"
import struct, sys
out = open(sys.argv[1], "wb")
out.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 262144, 101))   # LINKTYPE_RAW
def ip(payload, frag=0, ident=1, pad=0):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), ident, frag, 64, 17, 0,
                    bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
    s = sum(struct.unpack("!10H", h))
    while s >> 16: s = (s & 0xffff) + (s >> 16)
    return h[:10] + struct.pack("!H", ~s & 0xffff) + h[12:] + payload + bytes(pad)
def udp(n):   # checksum 0: none
    return struct.pack("!HHHH", 1000, 53, 8 + n, 0) + bytes(n)
t = 0
def rec(fr):
    global t
    t += 7
    out.write(struct.pack("<IIII", 1, t, len(fr), len(fr)) + fr)
for i in range(40):
    pad = [0, 200000, 262144 - 1028, 0, 150000][i % 5]   # frame 6: exactly 262144 bytes
    rec(ip(udp(1000), pad=pad))
    if i % 9 == 0:   # a fragmented datagram: first, middle, last
        body = udp(40)
        rec(ip(body[:24], frag=0x2000, ident=100 + i))
        rec(ip(body[24:40], frag=0x2000 | 3, ident=100 + i))
        rec(ip(body[40:], frag=5, ident=100 + i))
PY
    set -- "$R" "$SRCDIR/captures" "$W/small.pcap" "$W/flow.pcap" "$W/big.pcap"
    for mode in "-q" "-q -v" "-q -vv" "-q --format json" "-q -v --format json" "-q --format csv" \
                "-q --compare era=4.6" "-q --format csv --compare outer-zero" \
                "-q -v --compare era=4.6" "-q --format json --compare inner-good" \
                "-q --rewrite inner-good --format json" "-q --gro-flows 50 --format json"; do
        # shellcheck disable=SC2086
        "$C" --threads 1 $mode "$@" >"$W/t1" 2>"$W/e1"
        r1=$?
        for t in 2 4; do
            # shellcheck disable=SC2086
            "$C" --threads $t $mode "$@" >"$W/tn" 2>"$W/en"
            rn=$?
            [ "$r1" = "$rn" ] || fail "$mode: exit $r1 with --threads 1, $rn with --threads $t"
            cmp -s "$W/t1" "$W/tn" || { diff "$W/t1" "$W/tn" | head -5 >&2; fail "$mode: --threads $t output differs"; }
            cmp -s "$W/e1" "$W/en" || fail "$mode: --threads $t stderr differs"
        done
    done
    # -w, -j 2 and standard input through the pipeline
    "$C" -q --threads 1 -j 2 -w "$W/w.pcap" --select any "$@" >"$W/t1" 2>/dev/null
    mv "$W/w.pcap" "$W/w1.pcap"
    "$C" -q --threads 2 -j 2 -w "$W/w.pcap" --select any "$@" >"$W/tn" 2>/dev/null
    cmp -s "$W/t1" "$W/tn" || fail "-j 2: output differs"
    cmp -s "$W/w1.pcap" "$W/w.pcap" || fail "-w: written frames differ"
    "$C" --threads 1 --format json - <"$W/flow.pcap" >"$W/t1"
    "$C" --threads 2 --format json - <"$W/flow.pcap" >"$W/tn"
    cmp -s "$W/t1" "$W/tn" || fail "stdin: output differs"
    # the values: the big frames, the fragments reassembled, the flow's bad segment
    run 0 "$C" --threads 2 --format json "$W/big.pcap"
    eq "big frames" "$(jq_ -f type=summary -p frames -p frag.completed -p layers.udp)" '55	5	{"none":50}'
    eq "a 262144-byte frame" "$(jq_ -f frame=6 -p caplen -p layers.0.csum.verdict -p layers.0.notes)" '262144	good	["padding"]'
    run 0 "$C" --threads 2 --format json "$W/flow.pcap"
    # 3000 segments 10 us apart: a full budget (64 frames) every 640 us sends
    # up what is older than a jiffy (22 times); the bad segment 1500 goes up
    # alone and the next one does not continue the held sequence
    eq "flow" "$(jq_ -f type=summary -p frames -p kernel.drop -p gro.devices.0.packets_out -p gro.devices.0.merged_frames -p gro.devices.0.flushes)" \
        '3000	1	25	2999	{"older-than-jiffy":22,"seq-gap":1,"end-of-capture":1}'
    eq "bad segment alone" "$(jq_ -f frame=1500 -p gro_fate.0.fate -p gro_fate.0.reason)" "alone	csum-fail"
    run 2 "$C" --threads 0 --threads 300 x.pcap
    has "$W/err" "--threads: expected 0-256"
}

# Issue 13: a classic pcap is read in blocks (analyzer/input/pcapblk.c) and handed
# to libpcap at the first record it must judge. The same frames in the other
# byte order always go through libpcap: every output, stderr and exit status
# must match, whole or damaged (cut in a record, cut in a record header,
# records above the snapshot length, an impossible caplen), in one thread
# and in the pipeline, from a file and from standard input.
t_block_reader() {
    G=${BUILDDIR:?}/captures/gen/csc-gen
    [ -x "$G" ] || skip "csc-gen not built ($G)"
    command -v python3 >/dev/null || skip "python3 needed to write the fixtures"
    "$G" bench --frames 3000 --flows 500 --interleave random --size imix --tunnel vxlan,gre,plain \
        --bad 0.02 --bad-layers ip,udp,tcp --random-payload -o "$W/base.pcap" || fail "csc-gen bench"
    python3 - "$W" <<'PY' || fail "writing the fixtures"
import struct, sys
w = sys.argv[1]
d = open(w + "/base.pcap", "rb").read()
recs, off = [], 24
while off < len(d):
    ts, us, cl, ln = struct.unpack("<IIII", d[off:off + 16])
    recs.append((ts, us, cl, ln, d[off + 16:off + 16 + cl]))
    off += 16 + cl
def write(name, snap, rs, cut=None):
    for order, tag in (("<", "le"), (">", "be")):
        b = bytearray(struct.pack(order + "IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, snap, 1))
        for ts, us, cl, ln, data in rs:
            b += struct.pack(order + "IIII", ts, us, cl, ln) + data
        if cut:
            b = b[:cut(len(b))]
        open("%s/%s.%s.pcap" % (w, name, tag), "wb").write(b)
write("whole", 262144, recs)
write("cut-record", 262144, recs[:2000], lambda n: n - 10)
write("cut-header", 262144, recs[:2000], lambda n: n - len(recs[1999][4]) - 9)
write("snaplen", 600, recs)                       # IMIX 1500s above the snapshot
big = list(recs[:1500]) + [(1, 0, 300000, 300000, b"")] + list(recs[1500:])
write("caplen", 262144, big)                      # an impossible record in the middle
PY
    for f in whole cut-record cut-header snaplen caplen; do
        for t in 1 2; do
            for o in le be; do
                "$C" --threads $t --format json "$W/$f.$o.pcap" >"$W/$o.out" 2>"$W/$o.err"
                echo "exit $?" >>"$W/$o.err"
                sed -i "s/\.$o\.pcap/.X.pcap/g" "$W/$o.out" "$W/$o.err"
            done
            cmp -s "$W/le.out" "$W/be.out" || { diff "$W/le.out" "$W/be.out" | head -4 >&2; fail "$f, --threads $t: output differs from libpcap's reading"; }
            cmp -s "$W/le.err" "$W/be.err" || { diff "$W/le.err" "$W/be.err" >&2; fail "$f, --threads $t: stderr/exit differ"; }
        done
        "$C" --format json - <"$W/$f.le.pcap" >"$W/si.out" 2>/dev/null
        "$C" --format json - <"$W/$f.be.pcap" >"$W/sb.out" 2>/dev/null
        cmp -s "$W/si.out" "$W/sb.out" || fail "$f from standard input: output differs"
    done
    # and they are what they claim: frames read, then the damage named
    run 0 "$C" --format json "$W/whole.le.pcap"
    eq "whole" "$(jq_ -f type=summary -p frames)" 3000
    run 2 "$C" --format json "$W/cut-record.le.pcap"
    eq "cut in a record" "$(jq_ -f type=summary -p frames)" 1999
    has "$W/err" "damaged after frame 1999"
    run 2 "$C" --threads 1 --format json "$W/caplen.le.pcap"
    eq "impossible caplen" "$(jq_ -f type=summary -p frames)" 1500
    has "$W/err" "damaged after frame 1500"
}

fn=t_$(echo "$T" | tr '-' '_')
command -v "$fn" >/dev/null 2>&1 || fail "no such test"
"$fn"
echo "PASS [$T]"
exit 0
