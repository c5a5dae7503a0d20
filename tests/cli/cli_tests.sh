#!/bin/sh
# cli_tests.sh TEST - the csumcheck CLI tests (CTest runs one TEST per case).
#
# Environment (set by tests/cli/CMakeLists.txt):
#   CSUMCHECK  the binary under test        JSONQ    csc-jsonq (strict JSON Lines)
#   CORPUS     ../shared/corpus/real         WORKDIR  scratch dir for this test
#   SRCDIR     source tree                   BUILDDIR build tree
# Exit 0 pass, 1 fail, 77 skip (always with a message saying why).
#
# Expected values were read off the core (libcsumcore) on the real corpus
# and pinned: a change in the core's verdicts or replay shows up here.
set -u

T=${1:?test name}
W=${WORKDIR:?}
C=${CSUMCHECK:?}
Q=${JSONQ:?}
R=${CORPUS:?}
rm -rf "$W"
mkdir -p "$W"

fail() { echo "FAIL [$T]: $*" >&2; exit 1; }
skip() { echo "SKIP [$T]: $*" >&2; exit 77; }
need_corpus() {
    [ -f "$R/nDPI__vxlan.pcap" ] || skip "real capture corpus not found at $R (../shared/corpus/real)"
}
# run RC CMD...: stdout -> $W/out, stderr -> $W/err, exit status must be RC
run() {
    want=$1
    shift
    "$@" >"$W/out" 2>"$W/err"
    rc=$?
    if [ "$rc" != "$want" ]; then
        echo "command: $*" >&2
        sed 's/^/  stderr| /' "$W/err" | head -20 >&2
        sed 's/^/  stdout| /' "$W/out" | head -20 >&2
        fail "exit status $rc, expected $want"
    fi
}
eq() { [ "$2" = "$3" ] || fail "$1: got [$2], expected [$3]"; }
has() {
    grep -qF -- "$2" "$1" || { sed 's/^/  | /' "$1" | head -40 >&2; fail "$(basename "$1") lacks [$2]"; }
}
hasnt() {
    if grep -qF -- "$2" "$1"; then fail "$(basename "$1") contains [$2]"; fi
}
lines() { wc -l <"$1" | tr -d ' '; }
# jq_ ARGS...: validate stdout as JSON Lines and query it
jq_() { "$Q" "$@" <"$W/out" || fail "stdout is not valid JSON Lines"; }
# patch FILE OFFSET OCTAL-BYTES: overwrite bytes in place (fixture making)
patch() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }
fixture() { cp "$R/$1" "$W/$2" && chmod u+w "$W/$2"; }

VXB=zeek__vxlan-inner-tcp-bad-checksum.pcap   # eth ip udp vxlan eth ip tcp(0xdead)
U4B=zeek__ip4-udp-bad-chksum.pcap              # one IPv4/UDP frame, UDP bad
NDPI=nDPI__vxlan.pcap                          # 127 frames, 73 outer UDP partial (seed)

# ---------------------------------------------------------------------------
t_usage() {
    run 2 "$C"
    has "$W/err" "no input"
    run 0 "$C" --help
    for o in --rx --era --gro --remcsum-rx --remcsum-nopartial --udp6-zero-csum-rx --gre-csum \
             --no-socket --assume-bad --vxlan-port --vxlan-gpe-port --geneve-port --gue-port \
             --fou-port --l2tp-port --mpls-port --no-default-ports --l2tp-cookie-len \
             --l2tp-l2spec-len --format --verbose --quiet --progress --fail-on --write \
             --select --jobs --version; do
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
             "--jobs -1" "--jobs 5000"; do
        # shellcheck disable=SC2086
        run 2 "$C" $a in.pcap
        opt=${a%% *}
        grep -q -- "${opt#--}" "$W/err" || grep -q -- "-j" "$W/err" || fail "$a: message lacks the option: $(cat "$W/err")"
        eq "$a: one line (+hint)" "$(grep -vc '^(try' "$W/err")" 1
    done
    run 2 "$C" --select bad in.pcap
    has "$W/err" "--select chooses the frames -w writes"
    run 2 "$C" -w - in.pcap
    has "$W/err" "-w -"
    # 17 ports fill the table (16)
    set -- --no-default-ports
    i=1
    while [ $i -le 17 ]; do set -- "$@" --vxlan-port $((10000 + i)); i=$((i + 1)); done
    run 2 "$C" "$@" in.pcap
    has "$W/err" "too many tunnel ports"
}

t_era_list() {
    run 0 "$C" --era list
    eq "eras" "$(cut -d' ' -f1 "$W/out" | tr '\n' ' ')" "pre-part-vi 3.18 4.0 4.6 4.13 4.20 5.12 modern "
    has "$W/out" "89e5c58fc1e2"
    run 2 "$C" --era 2.6 x
    has "$W/err" "unknown era '2.6' (pre-part-vi, 3.18, 4.0, 4.6, 4.13, 4.20, 5.12, modern"
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
    has "$W/out" "kernel: accepted 0, dropped 1, unknown 0, not replayed 0"
    has "$W/out" "  counters: TcpInCsumErrors 1, TcpInErrs 1"
    has "$W/out" "  drop reasons: TCP_CSUM 1"
    has "$W/out" "  software checksum passes: 4 over 130 bytes"
    has "$W/out" "  gro at nic: held 0; not held: csum-fail 1"
    has "$W/out" "  gro at vxlan: held 0; not held: csum-fail 1"
    eq "stderr" "$(cat "$W/err")" ""
    run 0 "$C" "$R/$NDPI"
    eq "udp row" "$(grep '^  udp ' "$W/out" | tr -s ' ')" " udp 62 0 0 0 73 0 0 0"
    has "$W/out" "frames with findings: 73 (drop 73, partial 73)"
    has "$W/out" "kernel: accepted 54, dropped 73, unknown 0, not replayed 0"
    has "$W/out" "counters: UdpInCsumErrors 73, UdpInErrors 73"
    has "$W/out" "gro at nic: held 0; not held: csum-fail 73, not-tunnel 4, tcp-flags 15, tcp-no-payload 35"
    # no per-frame lines without -v
    hasnt "$W/out" "$NDPI:"
}

t_text_verbose() {
    need_corpus
    run 0 "$C" -v "$R/$NDPI"
    eq "finding lines" "$(grep -c "^$R/$NDPI:" "$W/out")" 73
    eq "partial+drop lines" "$(grep -c 'udp@38 partial (seed); kernel: drop at udp@38 UDP_CSUM UdpInCsumErrors UdpInErrors' "$W/out")" 73
    has "$W/out" "$R/$NDPI:113: udp@38 partial (seed); kernel: drop at udp@38 UDP_CSUM"
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
    eq "tcp kernel" "$(jq_ $P -p layers.6.kernel.method -p layers.6.kernel.device -p layers.6.kernel.ok)" "sw-pass	1	false"
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
    run 2 "$C" --format json "$R"
    jq_ >/dev/null
    eq "packet lines" "$(jq_ -f type=packet -c)" 3675
    eq "error lines" "$(jq_ -f type=error -p file -p frame)" "$R/PcapPlusPlus__GrePackets.pcap	1"
    eq "last line is the summary" "$(tail -n 1 "$W/out" | "$Q" -p type -p files -p files_failed -p errors -p frames -p exit_status)" \
        "summary	138	1	1	3675	2"
    eq "nDPI partial (eth vlan ipv4 udp)" "$(jq_ -f "file=$R/$NDPI" -f type=packet -p layers.3.csum.verdict | grep -c partial)" 73
    eq "one stderr line" "$(lines "$W/err")" 1
    has "$W/err" "csumcheck: $R/PcapPlusPlus__GrePackets.pcap: cannot read the first frame"
}

# The kernel trace is only recorded with -v (cfg.trace_steps): the rest of
# the result must not depend on it.
t_json_trace_switch() {
    need_corpus
    run 2 "$C" --format json "$R"
    sort "$W/out" >"$W/plain"
    run 2 "$C" -v --format json "$R"
    jq_ >/dev/null
    sed 's/,"trace_truncated":[a-z]*,"steps":\[.*\]}}$/}}/' "$W/out" | sort >"$W/nosteps"
    cmp -s "$W/plain" "$W/nosteps" || { diff "$W/plain" "$W/nosteps" | head -5 >&2; fail "-v changed more than the steps"; }
}

t_json_steps() {
    need_corpus
    run 0 "$C" -v --format json "$R/$U4B"
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
        "file,frame,caplen,len,layer,proto,offset,verdict,reason,field,expected,resolved,method,path,device,ok,passes,pass_bytes,kernel_verdict,drop_layer,drop_reason"
    eq "rows" "$(lines "$W/out")" 5
    eq "tcp row" "$(sed -n 5p "$W/out")" \
        "$R/$VXB,1,104,104,6,tcp,84,bad,mismatch,0xdead,0x4b57,,sw-pass,normal,vxlan,0,3,60,drop,6,TCP_CSUM"
    eq "udp row" "$(sed -n 3p "$W/out")" \
        "$R/$VXB,1,104,104,2,udp,34,good,,0x8947,0x8947,,sw-pass,gro,nic,1,1,70,drop,6,TCP_CSUM"
    run 0 "$C" --format csv "$R/$NDPI"
    eq "nDPI rows (checksummed layers + header)" "$(lines "$W/out")" 509
    eq "partial rows" "$(grep -c ',udp,38,partial,seed,' "$W/out")" 73
    # every row has 21 fields (no quoting needed here)
    eq "field counts" "$(awk -F, '{print NF}' "$W/out" | sort -u)" 21
    # no summary in CSV
    hasnt "$W/out" "csumcheck:"
}

t_fail_on() {
    need_corpus
    run 1 "$C" -q --fail-on bad "$R/$U4B"
    has "$W/out" "frames with findings: 1 (bad 1, drop 1)"   # the report is still printed
    run 0 "$C" -q --fail-on partial "$R/$U4B"
    run 1 "$C" -q --fail-on drop "$R/$U4B"
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
    run 2 "$C" -q --fail-on bad "$R/$U4B" "$R/PcapPlusPlus__GrePackets.pcap"
    # json summary says the same
    run 1 "$C" --format json --fail-on bad "$R/$U4B"
    eq "exit_status" "$(jq_ -f type=summary -p exit_status)" 1
}

t_select_write() {
    need_corpus
    run 0 "$C" -q -w "$W/o.pcap" --select bad "$R/$U4B" "$R/$VXB" "$R/$NDPI"
    has "$W/out" "wrote 2 selected frames to $W/o.pcap"
    run 0 "$C" --format json "$W/o.pcap"
    eq "written frames" "$(jq_ -f type=packet -p caplen -p findings | tr '\n' ' ')" \
        '46	["bad","drop"] 104	["bad","drop"] '
    # frames unchanged: the packet bytes are those of the input
    tail -c 46 "$R/$U4B" >"$W/a"
    head -c $((24 + 16 + 46)) "$W/o.pcap" | tail -c 46 >"$W/b"
    cmp -s "$W/a" "$W/b" || fail "frame bytes changed"
    eq "linktype EN10MB, nanosecond pcap" "$(od -An -tx1 -N4 "$W/o.pcap" | tr -d ' ')" "4d3cb2a1"
    # default selection: bad,drop
    run 0 "$C" -q -w "$W/d.pcap" "$R/$NDPI"
    has "$W/out" "wrote 73 selected frames"
    run 0 "$C" -q --format json "$W/d.pcap"
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
        run 2 "$C" -q $f -j 1 "$R"
        mv "$W/out" "$W/one"
        # shellcheck disable=SC2086
        run 2 "$C" -q $f -j 2 "$R"
        cmp -s "$W/one" "$W/out" || fail "-j 2 $f: output differs from -j 1"
        # shellcheck disable=SC2086
        run 2 "$C" -q $f -j 0 "$R" "$R/$NDPI"
        [ "$(lines "$W/out")" -gt "$(lines "$W/one")" ] || [ -z "$f" ] || fail "-j 0 lost output"
    done
    eq "one error line per run" "$(lines "$W/err")" 1
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
    has "$W/err" "-: "
}

t_dir_walk() {
    need_corpus
    mkdir -p "$W/d/sub/deeper" "$W/d/empty"
    ln -s "$R/$U4B" "$W/d/a-capture.txt"            # a capture, whatever the extension
    ln -s "$R/$U4B.tshark.tsv" "$W/d/ref.tsv"        # reference files are skipped
    ln -s "$R/PcapPlusPlus__QinQ_802.1_AD.pcapng" "$W/d/sub/deeper/q.pcapng"
    ln -s "$R/README.md" "$W/d/sub/readme.pcap"      # not a capture by magic: skipped
    ln -s "$W/d" "$W/d/sub/loop"                     # a loop is not followed twice
    run 0 "$C" --format json "$W/d"
    eq "files found" "$(jq_ -f type=summary -p files -p frames)" "2	2"
    eq "order" "$(jq_ -f type=packet -p file | tr '\n' ' ')" "$W/d/a-capture.txt $W/d/sub/deeper/q.pcapng "
    run 2 "$C" "$W/d/empty"
    has "$W/err" "csumcheck: $W/d/empty: no pcap or pcapng files in this directory"
    # a file given explicitly is not sniffed: libpcap judges it
    run 2 "$C" "$W/d/sub/readme.pcap"
    has "$W/err" "not a pcap or pcapng capture"
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
    eq "message" "$(cat "$W/err")" "csumcheck: $R/$U4B.tshark.tsv: not a pcap or pcapng capture (unknown file format)"
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
    # pcapng libpcap refuses (interfaces with different snap lengths)
    run 2 "$C" "$R/PcapPlusPlus__GrePackets.pcap"
    has "$W/err" "snapshot length"
    # the other files go on, in order, and the exit status is 2
    run 2 "$C" --format json "$W/mid.pcap" "$W/nope.pcap" "$R/$U4B" "$W/hdr.pcap" "$R/$VXB"
    eq "files" "$(jq_ -p type -p file | tr '\n' ' ')" \
        "packet	$W/mid.pcap packet	$W/mid.pcap packet	$W/mid.pcap packet	$W/mid.pcap packet	$W/mid.pcap packet	$W/mid.pcap packet	$W/mid.pcap packet	$W/mid.pcap packet	$W/mid.pcap error	$W/mid.pcap packet	$R/$U4B error	$W/hdr.pcap packet	$R/$VXB summary	<missing> "
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
        '["malformed"]	{"reason":"malformed","proto":"ipv4","offset":14}'
    eq "ip6-trunc" "$(jq_ -f "file=$R/zeek__ip6-trunc.pcap" -p findings -p stop.reason)" '["truncated"]	truncated'
    eq "summary" "$(jq_ -f type=summary -p frames -p findings.malformed -p findings.truncated -p findings.bad -p stops)" \
        '33	5	3	20	{"truncated":3,"malformed":5,"unsupported":1}'
    run 0 "$C" -v "$R/tcpdump__kday1.pcap"
    has "$W/out" "tcpdump__kday1.pcap:1: malformed ipv4@14; kernel:"
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
    run 0 "$C" --format json "$W/z6v.pcap"
    eq "zero6 refused" "$(jq_ -f type=packet -p layers.2.csum.verdict -p kernel.drop.layer -p kernel.drop.counters)" \
        'zero6	2	["Udp6InCsumErrors","Udp6InErrors"]'
    run 0 "$C" --format json --udp6-zero-csum-rx "$W/z6v.pcap"
    eq "zero6 accepted" "$(jq_ -f type=packet -p kernel.drop.layer -p kernel.drop.proto)" "6	tcp"
    # --no-socket: nobody listens on the UDP port
    run 0 "$C" --format json --no-socket "$R/zeek__ip6-udp-good-chksum.pcap"
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
    G="$R/kaorimatz-pcaps__gue-ipip__ping__veth2.pcap"
    run 0 "$C" --format json --no-default-ports --gue-port 6080 "$G"
    eq "--gue-port" "$(protos 3)" "gue"
    run 0 "$C" --format json --fou-port 6080:4 "$G"
    eq "--fou-port replaces GUE on 6080" "$(protos 3)" "fou"
}

t_l2tp_lengths() {
    need_corpus
    L="$R/kaorimatz-pcaps__l2tp-ip__ping__veth2.pcap"
    run 0 "$C" --format json "$L"
    eq "defaults reach the inner ICMP" "$(jq_ -f type=summary -p layers.icmp.good)" 2
    run 0 "$C" --format json --l2tp-cookie-len 4 "$L"
    eq "cookie 4" "$(jq_ -f type=summary -p layers.icmp)" "<missing>"
    run 0 "$C" --format json --l2tp-l2spec-len 0 "$L"
    eq "no sublayer" "$(jq_ -f type=summary -p layers.icmp)" "<missing>"
    run 0 "$C" --format json --l2tp-cookie-len 0 --l2tp-l2spec-len 4 "$L"
    eq "explicit defaults" "$(jq_ -f type=summary -p layers.icmp.good)" 2
}

# VXLAN RCO made from the inner-TCP-bad frame: RCO flag (frame byte 43 =
# 0x20), start 34/2 = 0x11 in the VNI's low byte (frame 49), the inner TCP
# field set to the pseudo-header seed 0x141d, and the outer UDP checksum
# fixed up (RFC 1624) to 0x53a7.
t_rco() {
    need_corpus
    fixture "$VXB" rco.pcap
    patch "$W/rco.pcap" 80 '\123\247'
    patch "$W/rco.pcap" 83 '\040'
    patch "$W/rco.pcap" 89 '\021'
    patch "$W/rco.pcap" 140 '\024\035'
    P="-f type=packet"
    run 0 "$C" --format json "$W/rco.pcap"
    eq "rco verdict" "$(jq_ $P -p layers.2.csum.verdict -p layers.6.csum -p layers.3.notes)" \
        'good	{"verdict":"rco","field":"0x141d","expected":"0x4b57","reason":"rco","resolved":"0x4b57"}	["rco"]'
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
    eq "overlap" "$(jq_ -f "file=$R/zeek__fragmented-1.pcap" -f frame=3 -p layers.2.csum.reason)" "frag-overlap"
    eq "one table per file" "$(jq_ -f type=summary -p frag)" '{"completed":8,"evicted":0,"overlaps":1,"dropped":0}'
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
    # 2^16 copies of one 104-byte frame (7.5 MiB) vs the frame alone: a growth
    # under 4 MiB means less than 64 bytes kept per frame (peak RSS grows by
    # well under 1 MiB here, also under ASan)
    head -c 24 "$R/$VXB" >"$W/big.pcap"
    tail -c +25 "$R/$VXB" >"$W/rec"
    i=0
    while [ $i -lt 16 ]; do cat "$W/rec" "$W/rec" >"$W/rec2" && mv "$W/rec2" "$W/rec"; i=$((i + 1)); done
    cat "$W/rec" >>"$W/big.pcap"
    rm -f "$W/rec"
    rss() { /usr/bin/time -f %M -o "$W/rss" "$@" >"$W/out" 2>"$W/err" || true; cat "$W/rss"; }
    for mode in "-q" "-q --format json" "-q --format csv" "-q -v --format json"; do
        # shellcheck disable=SC2086
        small=$(rss "$C" $mode "$R/$VXB")
        # shellcheck disable=SC2086
        big=$(rss "$C" $mode "$W/big.pcap")
        echo "peak RSS $mode: 1 frame ${small} KiB, 65536 frames ${big} KiB"
        [ $((big - small)) -lt 4096 ] || fail "$mode: peak RSS grows with the file: $small KiB -> $big KiB"
    done
    run 0 "$C" -q "$W/big.pcap"
    has "$W/out" "csumcheck: 1 file, 65536 frames, 6815744 bytes captured"
    has "$W/out" "kernel: accepted 0, dropped 65536, unknown 0, not replayed 0"
    # -j with spooling: two big files in parallel, output order kept, RSS flat
    ln -s "$W/big.pcap" "$W/big2.pcap"
    small=$(rss "$C" -q -j 2 --format json "$R/$VXB" "$R/$VXB")
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
    [ -f "$W/prefix/share/man/man1/csumcheck.1" ] || fail "share/man/man1/csumcheck.1 not installed"
    run 0 "$W/prefix/bin/csumcheck" --version
    if command -v groff >/dev/null; then
        run 0 groff -man -ww -Tascii -P-cbou "$W/prefix/share/man/man1/csumcheck.1"
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

fn=t_$(echo "$T" | tr '-' '_')
command -v "$fn" >/dev/null 2>&1 || fail "no such test"
"$fn"
echo "PASS [$T]"
exit 0
