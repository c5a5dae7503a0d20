#!/bin/sh
# cli17_tests.sh TEST - csumcheck as tcpdump and tshark users expect it
# (issue 17): choosing frames (-f, -c, --show, --summary-only), reading what
# tshark reads (pcapng of several link types, compressed captures, the
# pcapng direction), conventions (attached values, -r, --, -V, -l,
# --color), stopping (signals), error records, the per-file and per-flow
# views, --merge. Same environment and helpers as cli_tests.sh (common.sh).
#
# Outside judges: tcpdump -r (the same libpcap filter, its own numbering),
# tshark (what libwiretap reads, interfaces, directions, a -w file read to
# its end), one run over every file (what --merge must give back).
. "$(dirname "$0")/common.sh"

G=${BUILDDIR:?}/captures/gen/csc-gen
CAPS=${SRCDIR:?}/captures
need_gen() { [ -x "$G" ] || skip "csc-gen not built ($G)"; }
need() { command -v "$1" >/dev/null || skip "$1 not installed ($2)"; }
# sum_of ARGS: csc-jsonq on the last line (the summary) of the last run
sum_of() { tail -n 1 "$W/out" | "$Q" "$@"; }
# tcpdump_ts FILE EXPR: the timestamps of the frames tcpdump -r keeps (its
# -# numbers the frames it keeps, not the file's frames)
tcpdump_ts() {
    tcpdump -n -tt --time-stamp-precision=nano -r "$1" "$2" 2>/dev/null |
        awk '/^[0-9]+\.[0-9]+ /{print $1}' | tr '\n' ' '
}

# The multi-link capture: four link types' worth of interfaces (Ethernet,
# raw IP, Linux cooked v2, Ethernet again with a 60-byte snapshot), frames
# with and without a pcapng direction, bad checksums on every interface
multilink() {
    need_gen
    "$G" interfaces -o "$W/multi.pcapng" \
        'eth ipv4 udp vxlan eth ipv4 tcp:bad pay:len=100' \
        --dir in 'ipv4 udp:bad pay:len=40' \
        --dir out 'sll2:pkt=4 ipv4 tcp:seed pay:len=100' \
        --snaplen 60 'eth ipv4 tcp pay:len=200' \
        --snaplen 262144 --dir in 'ipv4 udp pay:len=30' \
        'eth ipv6 udp:zero pay:len=20' || fail "csc-gen interfaces"
}

# ---------------------------------------------------------------------------
# -f EXPR and the words after the inputs: libpcap's compiler, per link type;
# the frames kept are those tcpdump -r keeps, with the file's frame numbers
t_filter() {
    need_corpus
    need tcpdump "apt-get install tcpdump"
    F="$R/$NDPI"
    # every frame's number and timestamp, to name the frames kept
    "$C" -F json "$F" | "$Q" -f type=packet -p ts -p frame >"$W/all"
    for e in "vlan and udp port 4789" "vlan and udp and greater 200" "vlan and not udp" \
             "vlan and (udp[8] & 8 != 0)"; do
        expect=$(tcpdump_ts "$F" "$e")
        run 0 "$C" -F json -f "$e" "$F"
        eq "$e: frames" "$(jq_ -f type=packet -p ts | tr '\n' ' ')" "$expect"
        eq "$e: summary" "$(sum_of -p frames)" "$(echo "$expect" | wc -w | tr -d ' ')"
        # the file's frame numbers, not a count of the frames kept
        jq_ -f type=packet -p ts -p frame | while read -r ts fr; do
            grep -q "^$ts	$fr\$" "$W/all" || fail "$e: frame $fr is not the file's frame at $ts"
        done || exit 1
        # the words after the inputs, as tcpdump takes them; and -r FILE words
        # shellcheck disable=SC2086
        run 0 "$C" -F json "$F" $e
        eq "$e: as words" "$(jq_ -f type=packet -p ts | tr '\n' ' ')" "$expect"
        # shellcheck disable=SC2086
        run 0 "$C" -F json -r "$F" $e
        eq "$e: with -r" "$(jq_ -f type=packet -p ts | tr '\n' ' ')" "$expect"
    done
    # a filter that matches nothing in this capture (its outer layer is a VLAN)
    run 0 "$C" -F json "$F" udp
    eq "no frame" "$(sum_of -p files -p frames)" "1	0"
    # one thread or the pipeline, the block reader or libpcap: the same frames
    need_gen
    "$G" bench --frames 5000 --flows 300 --interleave random --size imix --tunnel vxlan,gre,plain \
        --bad 0.05 --bad-layers udp,tcp -o "$W/b.pcap" || fail "csc-gen bench"
    expect=$(tcpdump_ts "$W/b.pcap" "udp and greater 600" | wc -w | tr -d ' ')
    [ "$expect" -gt 100 ] || fail "the bench capture has too few matching frames ($expect)"
    for t in 1 2; do
        "$C" --threads $t -F json -f "udp and greater 600" "$W/b.pcap" >"$W/t$t" || fail "--threads $t"
    done
    cmp -s "$W/t1" "$W/t2" || fail "--threads 1 and 2 differ with a filter"
    eq "bench: frames" "$(tail -n 1 "$W/t1" | "$Q" -p frames)" "$expect"
    run 0 sh -c "cat '$W/b.pcap' | '$C' -F json - udp and greater 600"
    eq "stdin" "$(sum_of -p frames)" "$expect"
    # mistakes are usage errors, before anything is read
    run 2 "$C" "$F" udp port
    has "$W/err" "capture filter 'udp port': "
    run 2 "$C" -f udp "$F" tcp
    has "$W/err" "give it once"
    # a pcapng of several link types: one program per link type; one that
    # cannot apply to a link type says so once and analyses none of its frames
    multilink
    run 0 "$C" -F json "$W/multi.pcapng" udp
    eq "udp on every link type" "$(jq_ -f type=packet -p frame | tr '\n' ' ')" "1 2 5 6 "
    run 2 "$C" -F json "$W/multi.pcapng" ether host 02:00:00:00:00:01
    eq "an error record per link type" "$(jq_ -f type=error -c)" 2
    has "$W/err" "does not apply to link type RAW (12)"
    eq "one stderr line per link type" "$(grep -c 'does not apply' "$W/err")" 2
}

# -c N: N frames (the filter's), the inputs one after the other
t_count() {
    need_corpus
    run 0 "$C" -F json -c10 "$R/$NDPI"
    eq "10 frames" "$(jq_ -f type=packet -p frame | tr '\n' ' ')" "1 2 3 4 5 6 7 8 9 10 "
    run 0 "$C" -F json -c 3 "$R/$NDPI" vlan and udp and greater 200
    expect=$(tcpdump_ts "$R/$NDPI" "vlan and udp and greater 200" | cut -d' ' -f1-3)
    eq "3 filtered" "$(jq_ -f type=packet -p ts | tr '\n' ' ')" "$expect "
    # across files: 127 + 1, the third not read at all
    run 0 "$C" -F json -j 2 -c 128 "$R/$NDPI" "$R/$VXB" "$R/$U4B"
    eq "two files" "$(sum_of -p files -p frames -p per_file.#)" "2	128	2"
    for t in 1 2; do
        "$C" --threads $t -F json -c 77 "$R/$NDPI" >"$W/t$t"
    done
    cmp -s "$W/t1" "$W/t2" || fail "-c with and without the pipeline differ"
    eq "77" "$("$Q" -f type=summary -p frames <"$W/t1")" 77
    run 2 "$C" -c 0 x.pcap
    has "$W/err" "-c: expected a number of frames"
}

# --show LIST: the frames printed, in every format; the totals stay whole
t_show() {
    run 0 "$C" -F json "$CAPS/vxlan.pcap" "$CAPS/gre.pcap"
    bad=$(sum_of -p findings.bad)
    total=$(sum_of -p frames)
    run 0 "$C" -F json --show bad "$CAPS/vxlan.pcap" "$CAPS/gre.pcap"
    eq "json: bad frames only" "$(jq_ -f type=packet -c)" "$bad"
    eq "every one is bad" "$(jq_ -f type=packet -p findings | grep -vc bad)" 0
    eq "totals unchanged" "$(sum_of -p frames -p findings.bad)" "$total	$bad"
    # every finding but none and warning (84% of -v's lines on the corpus)
    run 0 "$C" -F json --show any,-none,-warning "$CAPS"
    [ "$(jq_ -f type=packet -c)" -gt 0 ] || fail "any,-none,-warning showed nothing"
    eq "none and warning alone are not shown" \
        "$(jq_ -f type=packet -p findings | grep -Ec '^\["(none|warning)"(,"(none|warning)")?\]$')" 0
    # text: --show prints the lines -v prints, for those frames only
    run 0 "$C" --show drop "$CAPS/vxlan.pcap"
    drops=$("$C" -F json "$CAPS/vxlan.pcap" | tail -n 1 | "$Q" -p findings.drop)
    eq "text: a line per drop" "$(grep -c 'vxlan.pcap:[0-9]*:' "$W/out")" "$drops"
    eq "text: each a drop" "$(grep 'vxlan.pcap:[0-9]*:' "$W/out" | grep -c 'kernel: drop')" "$drops"
    # csv: the rows of those frames only
    run 0 "$C" -F csv --show bad "$CAPS/vxlan.pcap"
    eq "csv frames" "$(tail -n +2 "$W/out" | cut -d, -f2 | sort -u | wc -l | tr -d ' ')" \
        "$("$C" -F json "$CAPS/vxlan.pcap" | tail -n 1 | "$Q" -p findings.bad)"
    # --compare's frame-diff lines too
    run 0 "$C" -F json --compare era=4.6 --show drop "$CAPS/vxlan.pcap"
    eq "diffs are drops" "$(jq_ -f type=frame-diff -p runs.0.verdict -p runs.1.verdict | grep -vc drop)" 0
    run 2 "$C" --show worse x.pcap
    has "$W/err" "--show: unknown finding 'worse'"
}

# --summary-only: the summary (and error records), nothing per frame
t_summary_only() {
    run 0 "$C" -F json --summary-only "$CAPS"
    eq "one line" "$(lines "$W/out")" 1
    eq "the summary" "$(jq_ -p type)" "summary"
    run 0 "$C" -F json "$CAPS"
    tail -n 1 "$W/out" >"$W/full"
    "$C" -F json --summary-only "$CAPS" >"$W/only"
    cmp -s "$W/full" "$W/only" || fail "--summary-only changed the summary"
    head -c 3000 "$CAPS/vxlan.pcap" >"$W/cut.pcap"
    "$C" -F json --flows "$W/cut.pcap" "$CAPS/gre.pcap" 2>/dev/null | tail -n 1 >"$W/full"
    run 2 "$C" -F json --summary-only --flows "$W/cut.pcap" "$CAPS/gre.pcap"
    eq "error and summary" "$(jq_ -p type | tr '\n' ' ')" "error summary "
    tail -n 1 "$W/out" | cmp -s - "$W/full" || fail "--summary-only --flows: the summary differs"
    run 2 "$C" --summary-only --show bad x.pcap
    has "$W/err" "exclude each other"
}

# --fail-on: the files and frames that tripped it, on stderr, even with -q,
# the first CLI_FAIL_LIST (20) in input order whatever -j does
t_fail_on_list() {
    run 1 "$C" -q --fail-on bad "$CAPS/flow-bad-middle.pcap" "$CAPS/vxlan.pcap"
    bad=$("$C" -F json "$CAPS/flow-bad-middle.pcap" "$CAPS/vxlan.pcap" | tail -n 1 | "$Q" -p findings.bad)
    eq "header" "$(head -n 1 "$W/err")" "csumcheck: --fail-on: $bad frames in 2 files:"
    eq "first" "$(sed -n 2p "$W/err")" "  $CAPS/flow-bad-middle.pcap:4: bad"
    eq "listed" "$(grep -c '^  ' "$W/err")" "$bad"
    run 1 "$C" -q -j 3 --fail-on any "$CAPS"
    mv "$W/err" "$W/e3"
    run 1 "$C" -q -j 1 --fail-on any "$CAPS"
    cmp -s "$W/e3" "$W/err" || fail "-j 3 lists other frames than -j 1"
    has "$W/err" ", the first ones:"
    eq "bounded" "$(grep -c '^  ' "$W/err")" 20
    # the files as the directory lists them (sorted), each one's frames in order
    eq "input order" "$(grep '^  ' "$W/err" | cut -d: -f1 | LC_ALL=C sort -c 2>&1)" ""
    eq "frame order" "$(grep '^  ' "$W/err" | awk -F: '$1 == f && $2 + 0 <= n { print } { f = $1; n = $2 + 0 }')" ""
    run 0 "$C" -q --fail-on bad "$CAPS/seed004-82599-zero-csum.pcap"
    eq "nothing when it passes" "$(lines "$W/err")" 0
}

# a pcapng whose interfaces have different link types and snapshot lengths:
# every frame analysed with its interface's link type, the direction of its
# packet flags, as tshark reads it
t_multi_link() {
    multilink
    need tshark "apt-get install tshark"
    tshark -r "$W/multi.pcapng" -T fields -e frame.number -e frame.cap_len -e frame.p2p_dir \
        >"$W/ts" 2>/dev/null || fail "tshark cannot read the capture"
    run 0 "$C" -F json "$W/multi.pcapng"
    eq "every frame" "$(sum_of -p frames -p files_failed)" "6	0"
    jq_ -f type=packet -p frame -p caplen -p direction |
        sed 's/<missing>$//; s/	in$/	1/; s/	out$/	0/' >"$W/ours"
    cmp -s "$W/ts" "$W/ours" || { diff "$W/ts" "$W/ours" >&2; fail "frames, lengths, directions differ from tshark's"; }
    eq "link layers" "$(jq_ -f type=packet -p layers.0.proto | tr '\n' ' ')" "eth ipv4 sll2 eth ipv4 eth "
    # each frame gives what it gives alone, in a capture of its own link type
    i=1
    for d in 'eth ipv4 udp vxlan eth ipv4 tcp:bad pay:len=100' 'ipv4 udp:bad pay:len=40' \
             'sll2:pkt=4 ipv4 tcp:seed pay:len=100'; do
        "$G" stack -o "$W/one.pcap" "$d" || fail "csc-gen stack"
        alone=$("$C" -F json "$W/one.pcap" | "$Q" -f type=packet -p worst -p findings -p layers -p kernel.sw_passes)
        eq "frame $i" "$(jq_ -f frame=$i -p worst -p findings -p layers -p kernel.sw_passes)" "$alone"
        i=$((i + 1))
    done
    # the pipeline, one thread, standard input: the same output
    "$C" --threads 1 -F json "$W/multi.pcapng" >"$W/t1"
    "$C" --threads 2 -F json "$W/multi.pcapng" >"$W/t2"
    cmp -s "$W/t1" "$W/t2" || fail "--threads 1 and 2 differ"
    "$C" -F json - <"$W/multi.pcapng" | sed 's/"file":"-"/"file":"X"/g' >"$W/si"
    sed "s|\"file\":\"$W/multi.pcapng\"|\"file\":\"X\"|g" "$W/t1" >"$W/t1x"
    cmp -s "$W/si" "$W/t1x" || fail "standard input differs"
    # -w: one pcap, one link type: the others named, in the JSON stream too
    run 2 "$C" -F json -w "$W/w.pcap" --select any "$W/multi.pcapng"
    has "$W/err" "link type RAW (12) differs from $W/w.pcap's EN10MB (1)"
    eq "error record" "$(jq_ -f type=error -c)" 1
    eq "written" "$(sum_of -p written)" 3
}

# the public corpus's pcapng of two interfaces (PcapPlusPlus__GrePackets.pcap:
# snapshot lengths 262144 and 65535; libpcap 1.10 refused the whole file):
# every frame read and analysed, as tshark reads it
t_corpus_two_interfaces() {
    need_corpus
    F="$R/PcapPlusPlus__GrePackets.pcap"
    [ -f "$F.tshark.tsv" ] || skip "$F.tshark.tsv missing"
    # tshark's frames (the corpus's reference table: a header line, then one per frame)
    tail -n +2 "$F.tshark.tsv" | cut -f1,3 >"$W/tshark"
    [ "$(lines "$W/tshark")" -ge 2 ] || fail "the reference table lists too few frames"
    run 0 "$C" -F json "$F"
    jq_ -f type=packet -p frame -p caplen >"$W/ours"
    cmp -s "$W/tshark" "$W/ours" || { diff "$W/tshark" "$W/ours" >&2; fail "frames or lengths differ from tshark's"; }
    n=$(lines "$W/tshark")
    eq "summary" "$(sum_of -p frames -p files_failed -p errors -p kernel.not_run)" "$n	0	0	0"
    # (frames 3 and 4 go 127.0.0.1 > 127.0.0.1: loopback, sent by this host, their TX view)
    eq "every frame replayed or sent" "$(jq_ -f type=packet -p kernel.ran -p kernel.verdict | grep -vc -e '^true' -e '	sent$')" 0
    eq "per file" "$(sum_of -p per_file.0.frames)" "$n"
    # frames of both interfaces: the second interface's frame is among them
    need tshark "apt-get install tshark"
    eq "two interfaces" "$(tshark -r "$F" -T fields -e frame.interface_id 2>/dev/null | sort -u | tr '\n' ' ')" "0 1 "
}

# the sharding recipe of docs/cli.md, word for word with GNU parallel on three
# local slots (-S 3/:) instead of three hosts: the merged summary is one run's
t_merge_parallel() {
    need parallel "apt-get install parallel (scripts/setup.sh installs it)"
    cd "$W" || fail "cd"
    ls "$CAPS"/*.pcap "$CAPS"/*.pcapng | sort >files.txt
    # the commands of docs/cli.md, with csumcheck and the hosts substituted
    sed -n '/^find \/srv\/corpus/,/^csumcheck --merge/p' "$SRCDIR/docs/cli.md" >recipe.sh
    [ "$(lines recipe.sh)" = 6 ] || fail "docs/cli.md: the parallel recipe is not where expected"
    sed -e 's|^find /srv/corpus -type f \| sort > files.txt$|: files.txt made above|' \
        -e 's|-S h1,h2,h3|-S 3/:|' -e "s|csumcheck |'$C' |g" -e 's|  *#.*||' recipe.sh >run.sh
    grep -q -- '-S 3/:' run.sh || fail "the recipe has no -S h1,h2,h3"
    sh -e run.sh >merged.txt 2>run.err || { cat run.err >&2; fail "the recipe failed"; }
    [ "$(ls part.*.json | wc -l)" -ge 2 ] || fail "parallel made $(ls part.*.json | wc -l) parts, expected several"
    # shellcheck disable=SC2046
    "$C" $(cat files.txt) >one.txt
    cmp -s one.txt merged.txt || { diff one.txt merged.txt | head >&2; fail "merged text differs from one run"; }
    "$C" --merge -F json part.*.json >merged.json
    # shellcheck disable=SC2046
    "$C" -F json --summary-only $(cat files.txt) >one.json
    cmp -s one.json merged.json || fail "merged JSON differs from one run"
    echo "parallel made $(ls part.*.json | wc -l) parts of $(lines files.txt) files; merged = one run"
}

# gzip, zstd and lz4 captures (libwiretap decompresses), from a file, from
# standard input, and in a directory
t_compressed() {
    need_corpus
    set -- "$R/$NDPI" "$CAPS/demo.pcapng"
    for f in "$@"; do
        "$C" -F json "$f" | sed 's/"file":"[^"]*"/"file":"X"/g' >"$W/plain"
        for z in "gzip -c" "zstd -q -c" "lz4 -q -c"; do
            tool=${z%% *}
            command -v "$tool" >/dev/null || skip "$tool not installed (scripts/setup.sh installs it)"
            $z "$f" >"$W/c.$tool"
            "$C" -F json "$W/c.$tool" | sed 's/"file":"[^"]*"/"file":"X"/g' >"$W/ours"
            cmp -s "$W/plain" "$W/ours" || fail "$(basename "$f") through $tool: output differs"
            "$C" -F json - <"$W/c.$tool" | sed 's/"file":"[^"]*"/"file":"X"/g' >"$W/ours"
            cmp -s "$W/plain" "$W/ours" || fail "$(basename "$f") through $tool on stdin: output differs"
        done
    done
    # a compressed capture cut short: the frames before, then the damage
    gzip -c "$R/$NDPI" | head -c 20000 >"$W/cut.pcap.gz"
    run 2 "$C" -F json "$W/cut.pcap.gz"
    eq "files_failed" "$(sum_of -p files_failed)" 1
    [ "$(sum_of -p frames)" -gt 10 ] || fail "no frame read before the damage"
    has "$W/err" "$W/cut.pcap.gz: damaged after frame"
}

# attached values, -r, --, -V with files, grouped flags
t_conventions() {
    need_corpus
    cd "$W" || fail "cd"
    run 0 "$C" -Fjson -j2 -c10 -wout.pcap --select any "$R/$NDPI"
    eq "-Fjson -c10" "$(jq_ -f type=packet -c)" 10
    eq "-wout.pcap" "$(sum_of -p written)" "$(sum_of -p findings.any)"
    [ -s out.pcap ] || fail "out.pcap not written"
    run 0 "$C" -qFjson -r "$R/$NDPI" -r "$R/$VXB"
    eq "-r twice" "$(sum_of -p files -p frames)" "2	128"
    cp "$R/$VXB" ./-dash.pcap
    run 0 "$C" -F json -- -dash.pcap
    eq "-- then a file named -dash.pcap" "$(jq_ -f type=packet -p file)" "-dash.pcap"
    run 0 "$C" -V "$R/$NDPI"
    has "$W/out" "csumcheck 0.1.0"
    has "$W/err" "-V prints the version only: the inputs given are not read"
    run 0 "$C" --help
    for o in --read --filter --count --show --summary-only --flows --color --line-buffered \
             --merge; do
        has "$W/out" "$o"
    done
    run 2 "$C" --no-such-option x.pcap
    eq "unknown option" "$(head -n 1 "$W/err")" "csumcheck: unknown option '--no-such-option'"
    run 2 "$C" "$R/$NDPI" -F
    has "$W/err" "this option needs a value: '-F'"
}

# -l: each frame's record as soon as the frame is read (a slow pipe); the
# default when standard output is a terminal
t_line_buffered() {
    need_corpus
    # 9 whole frames, then the rest 4 seconds later
    for l in "-l" ""; do
        rm -f "$W/o"
        # shellcheck disable=SC2086
        { head -c 3000 "$R/$NDPI"; sleep 4; tail -c +3001 "$R/$NDPI"; } | "$C" $l -F json - >"$W/o" &
        sleep 2
        eval "early_${l#-}=\$(grep -c '\"type\":\"packet\"' \"\$W/o\" || true)"
        wait
    done
    # shellcheck disable=SC2154
    eq "-l: the first frames are out before the rest is read" "$early_l" 9
    # shellcheck disable=SC2154
    eq "without -l: buffered" "$early_" 0
    eq "then all of them" "$(grep -c '"type":"packet"' "$W/o")" 127
    need script "util-linux: bsdutils"
    script -qec "'$C' -v --color=auto '$CAPS/vxlan.pcap'" /dev/null >"$W/tty" </dev/null
    grep -q "$(printf '\033')\[35m" "$W/tty" || fail "a terminal: --color=auto colors"
}

# --color=auto|always|never, as grep does it (NO_COLOR honoured)
t_color() {
    esc=$(printf '\033')
    run 0 "$C" -v --color=always "$CAPS/vxlan.pcap"
    grep -q "${esc}\[1;31mbad${esc}\[m" "$W/out" || fail "always: bad in bold red"
    grep -q "${esc}\[35m$CAPS/vxlan.pcap${esc}\[m:${esc}\[32m5${esc}\[m:" "$W/out" || fail "always: file and frame"
    run 0 "$C" -v "$CAPS/vxlan.pcap"
    hasnt "$W/out" "$esc"
    run 0 "$C" -v --color=never "$CAPS/vxlan.pcap"
    hasnt "$W/out" "$esc"
    run 0 "$C" -v --color "$CAPS/vxlan.pcap"
    hasnt "$W/out" "$esc"
    need script "util-linux: bsdutils"
    NO_COLOR=1 script -qec "'$C' -v '$CAPS/vxlan.pcap'" /dev/null >"$W/tty" </dev/null
    hasnt "$W/tty" "${esc}["
    run 2 "$C" --color=sometimes x.pcap
    has "$W/err" "--color: expected auto, always or never"
}

# one {"type":"error"} record per error, expansion errors included, in
# input order; no summary when nothing was read
t_error_records() {
    need_corpus
    mkdir -p "$W/emptydir"
    echo notes >"$W/notes.txt"
    head -c 3000 "$R/$NDPI" >"$W/trunc.pcap"
    run 2 "$C" -F json /nonexistent.pcap "$W/emptydir" "$W/notes.txt" "$W/trunc.pcap"
    eq "errors" "$(sum_of -p errors -p files -p files_failed)" "4	2	2"
    eq "error records" "$(jq_ -f type=error -p file | tr '\n' ' ')" \
        "/nonexistent.pcap $W/emptydir $W/notes.txt $W/trunc.pcap "
    eq "stderr lines" "$(lines "$W/err")" 4
    # nothing read: the errors, no summary
    run 2 "$C" -F json /nonexistent.pcap "$W/emptydir" "$W/notes.txt"
    eq "no summary" "$(jq_ -p type | tr '\n' ' ')" "error error error "
    run 2 "$C" /nonexistent.pcap
    eq "text: no summary either" "$(lines "$W/out")" 0
}

# the summary's per-file table: each file's frames, findings and drops
t_per_file() {
    set -- "$CAPS/vxlan.pcap" "$CAPS/gre.pcap" "$CAPS/flow-bad-middle.pcap"
    run 0 "$C" -F json -j 2 "$@"
    i=0
    for f in "$@"; do
        alone=$("$C" -F json "$f" | tail -n 1 | "$Q" -p frames -p action -p kernel.drop)
        eq "$(basename "$f")" "$(sum_of -p per_file.$i.file -p per_file.$i.frames -p per_file.$i.findings -p per_file.$i.drops)" \
            "$f	$alone"
        i=$((i + 1))
    done
    run 0 "$C" "$@"
    has "$W/out" "files        frames     findings        drops  file"
    eq "text rows" "$(grep -c "^ .*  $CAPS/" "$W/out")" 3
    # many files: the 20 with most findings, JSON has every one
    run 0 "$C" "$CAPS"
    has "$W/out" "(most findings first)"
    has "$W/out" "more files (--format json lists every one)"
    n=$(ls "$CAPS"/*.pcap "$CAPS"/*.pcapng | wc -l)
    run 0 "$C" -F json "$CAPS"
    eq "json: every file" "$(sum_of -p per_file.#)" "$n"
}

# --flows: drops and software passes per flow, every flow in JSON, the top N
# in text; the flows add up to the run's totals
t_flows() {
    run 0 "$C" -F json --flows "$CAPS/flow-bad-middle.pcap"
    eq "one flow" "$(jq_ -f type=flow -p flow -p frames -p drops -p bad)" \
        "vxlan 42, tcp 10.0.1.1:40001 > 10.0.1.2:5001	8	1	1"
    eq "its passes" "$(jq_ -f type=flow -p sw_passes)" "$(sum_of -p kernel.sw_passes)"
    run 0 "$C" -F json --flows "$CAPS"
    frames=$(sum_of -p frames)
    nf=$(sum_of -p flows.frames_without_flow)
    eq "frames add up" "$(jq_ -f type=flow -p frames | awk '{s+=$1} END {print s}')" "$((frames - nf))"
    eq "drops add up" "$(jq_ -f type=flow -p drops | awk '{s+=$1} END {print s}')" "$(sum_of -p kernel.drop)"
    eq "flows counted" "$(jq_ -f type=flow -c)" "$(sum_of -p flows.flows)"
    eq "top 10" "$(sum_of -p flows.top.#)" 10
    "$C" --threads 1 -F json --flows "$CAPS" >"$W/t1"
    "$C" --threads 2 -j 2 -F json --flows "$CAPS" >"$W/t2"
    cmp -s "$W/t1" "$W/t2" || fail "--threads/-j change the flows"
    run 0 "$C" --flows=3 "$CAPS"
    has "$W/out" "  top 3 by drops, then software checksum passes:"
    eq "3 rows" "$(sed -n '/top 3 by drops/,/^$/p' "$W/out" | grep -c ' (from frame ')" 3
}

# more flows than the table holds: the oldest pushed out, written, counted;
# the records still add up; memory does not grow with the flows once the
# table is full (20,000 and 40,000 flows both fill its 16,384 entries; 400
# flows touch only part of it, so that figure is printed, not compared)
t_flows_bounded() {
    need_gen
    for n in 400 20000 40000; do
        "$G" bench --frames 60000 --flows $n --interleave turn --size small --tunnel vxlan \
            -o "$W/f$n.pcap" || fail "csc-gen bench"
    done
    run 0 "$C" -F json --flows "$W/f40000.pcap"
    ev=$(sum_of -p flows.evicted)
    [ "$ev" -gt 20000 ] || fail "evicted $ev, expected more than 20000 (40000 flows, a table of 16384)"
    eq "evicted records" "$(jq_ -f type=flow -f evicted=true -c)" "$ev"
    eq "frames add up" "$(jq_ -f type=flow -p frames | awk '{s+=$1} END {print s}')" 60000
    [ -x /usr/bin/time ] || skip "GNU time not installed: peak RSS not measured"
    for n in 400 20000 40000; do
        /usr/bin/time -f %M -o "$W/rss.$n" "$C" -q --flows "$W/f$n.pcap" >/dev/null 2>&1
    done
    a=$(cat "$W/rss.20000") b=$(cat "$W/rss.40000")
    echo "peak RSS --flows: 400 flows $(cat "$W/rss.400") KiB, 20000 flows $a KiB, 40000 flows $b KiB"
    [ $((b - a)) -lt 1024 ] || fail "RSS grows with the flows once the table is full: $a -> $b KiB"
}

# --merge: the summaries of parts, merged, are the summary of one run
t_merge() {
    ls "$CAPS"/*.pcap "$CAPS"/*.pcapng >"$W/all"
    set -- --flows --fou-port 5555:4 --gro-flows 5
    # shellcheck disable=SC2046
    "$C" -F json "$@" $(cat "$W/all") | tail -n 1 >"$W/one.json"
    # shellcheck disable=SC2046
    "$C" "$@" $(cat "$W/all") >"$W/one.txt"
    # three parts, as three machines would run them (-j, --summary-only, full output)
    # shellcheck disable=SC2046
    "$C" -F json -j 2 "$@" $(sed -n 1,10p "$W/all") >"$W/p1.json"
    # shellcheck disable=SC2046
    "$C" -F json --summary-only "$@" $(sed -n 11,20p "$W/all") >"$W/p2.json"
    # shellcheck disable=SC2046
    "$C" -F json --threads 1 "$@" $(sed -n '21,$p' "$W/all") >"$W/p3.json"
    run 0 "$C" --merge -F json --gro-flows 5 "$W/p1.json" "$W/p2.json" "$W/p3.json"
    cmp -s "$W/one.json" "$W/out" || { diff "$W/one.json" "$W/out" | head -c 2000 >&2; fail "merged JSON differs from one run"; }
    run 0 "$C" --merge --gro-flows 5 "$W/p1.json" "$W/p2.json" "$W/p3.json"
    cmp -s "$W/one.txt" "$W/out" || { diff "$W/one.txt" "$W/out" >&2; fail "merged text differs from one run"; }
    # an error in a part: the exit status and the counts of one run
    head -c 3000 "$CAPS/vxlan.pcap" >"$W/cut.pcap"
    "$C" -F json "$CAPS/gre.pcap" "$W/cut.pcap" 2>/dev/null | tail -n 1 >"$W/one.json"
    "$C" -F json "$CAPS/gre.pcap" >"$W/a.json"
    "$C" -F json "$W/cut.pcap" >"$W/b.json" 2>/dev/null
    run 2 "$C" --merge -F json "$W/a.json" "$W/b.json"
    cmp -s "$W/one.json" "$W/out" || fail "merged errors differ from one run"
    # what cannot be merged
    "$C" -F json --era 4.6 "$CAPS/gre.pcap" >"$W/c.json"
    run 2 "$C" --merge "$W/a.json" "$W/c.json"
    has "$W/err" "configuration (\"config\", GRO engine) differs"
    "$C" -F json --compare era=4.6 "$CAPS/gre.pcap" >"$W/d.json"
    run 2 "$C" --merge "$W/d.json"
    has "$W/err" "a --compare run"
    run 2 "$C" --merge -F csv "$W/a.json"
    has "$W/err" "--merge writes a text or JSON summary"
}

# --merge of hostile summaries (issue 26 defect 2): errors naming the file,
# the line and the member, never a crash, a 0 taken for garbage or a
# wrapped sum
t_merge_hostile() {
    "$C" -F json "$CAPS/gre.pcap" >"$W/a.json"
    printf '{"type":"packet"}\n' >"$W/lead.json"
    cat "$W/a.json" >>"$W/lead.json"
    lineno=$(wc -l <"$W/lead.json" | tr -d ' ')
    /usr/bin/python3 - "$W" <<'PY' || fail "python3"
import json, sys
w = sys.argv[1]
s = json.loads(open(w + "/a.json").read().splitlines()[-1])
def put(name, t):
    open(w + "/" + name, "w").write(json.dumps(t, separators=(",", ":")) + "\n")
for name, v in (("u64max", 2**64 - 1), ("many", "many"), ("null", None), ("arr", [1]),
                ("neg", -5), ("big", 2**53), ("top", 2**53 - 1), ("float", 1.5)):
    t = dict(s); t["frames"] = v; put(name + ".json", t)
t = dict(s); t["kernel"] = dict(s["kernel"]); t["kernel"]["counters"] = {"UdpInErrors": "x"}; put("ctr.json", t)
t = dict(s); t["gro"] = dict(s["gro"]); t["gro"]["devices"] = [1]; put("dev.json", t)
t = dict(s); del t["per_file"]; put("nopf.json", t)
t = dict(s); t["exit_status"] = 77; put("status.json", t)
open(w + "/deep.json", "w").write('{"type":"summary","x":' + '{"a":' * 100000 + "1" + "}" * 100000 + "}\n")
open(w + "/deeparr.json", "w").write('{"type":"summary","x":' + "[" * 100000 + "]" * 100000 + "}\n")
PY
    for case in "u64max|a number of more than 16 digits" "many|\"frames\": a string, where a count" \
                "null|\"frames\": null, where a count" "arr|\"frames\": an array, where a count" \
                "neg|\"frames\": -5 is not a count" "big|\"frames\": 9007199254740992 is not a count" \
                "float|\"frames\": not an integer" "ctr|\"UdpInErrors\": a string" \
                "dev|\"devices\"[0]: not an object" "nopf|\"per_file\": missing" \
                "status|\"exit_status\": 77 is not one" "deep|nested too deep" \
                "deeparr|nested too deep"; do
        f=${case%%|*}
        run 2 "$C" --merge -F json "$W/a.json" "$W/$f.json"
        has "$W/err" "csumcheck: --merge: $W/$f.json:1: ${case#*|}"
        hasnt "$W/err" "Sanitizer"
        eq "$f: no summary" "$(lines "$W/out")" 0
    done
    # the line number is the summary's
    run 2 "$C" --merge "$W/lead.json" "$W/many.json"
    run 0 "$C" --merge -F json "$W/lead.json"
    sed 's/"frames":[0-9]*/"frames":"x"/' "$W/lead.json" >"$W/lead2.json"
    run 2 "$C" --merge "$W/lead2.json"
    has "$W/err" "$W/lead2.json:$lineno: \"frames\": a string"
    # the largest count, 19 more times: the exact sum
    one=$("$Q" -p frames <"$W/a.json" | tail -n 1)
    set -- "$W/top.json"
    i=0; while [ $i -lt 19 ]; do set -- "$@" "$W/a.json"; i=$((i + 1)); done
    run 0 "$C" --merge -F json "$@"
    eq "sum" "$(jq_ -p frames)" "$((9007199254740991 + 19 * one))"
}

# SIGINT, SIGTERM, SIGPIPE at random moments of a run over 1 GiB: the
# frame in hand finished, every record whole (the JSON parses), the summary
# marked "interrupted", -w closed so tshark reads it to its end, exit 128+N
interrupted_ok() {   # interrupted_ok RUN SIGNAL FORMAT
    if [ "$3" = json ]; then
        "$Q" -c <"$W/o" >/dev/null || fail "run $1: the JSON does not parse"
        eq "run $1: last line" "$(tail -n 1 "$W/o" | "$Q" -p type -p interrupted -p signal)" \
            "summary	true	SIG$2"
        written=$(tail -n 1 "$W/o" | "$Q" -p written)
    else
        has "$W/o" "interrupted by SIG$2: the frames read until then are above"
        written=$(sed -n 's/^wrote \([0-9]*\) selected.*/\1/p' "$W/o")
    fi
    tshark -r "$W/w.pcap" -T fields -e frame.number >"$W/tn" 2>"$W/te" || fail "run $1: tshark fails on -w"
    grep -qi "cut short\|corrupt\|damaged" "$W/te" && fail "run $1: tshark: $(cat "$W/te")"
    eq "run $1: frames in -w" "$(wc -l <"$W/tn" | tr -d ' ')" "$written"
}

# caught PID: wait (up to 20 s) until PID catches SIGINT and SIGTERM
# (/proc/PID/status SigCgt: bit 1 and bit 14); false if it never does
caught() {
    n=0
    while [ $n -lt 400 ]; do
        m=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
        [ -n "$m" ] || return 0            # already gone: its exit status tells
        m=${m#????????}                    # the low 32 signals, as a shell number
        [ $((0x$m & 0x4002)) = $((0x4002)) ] && return 0
        sleep 0.05
        n=$((n + 1))
    done
    return 1
}

t_interrupt() {
    need_gen
    need tshark "apt-get install tshark"
    "$G" bench --size full --bytes 1G --bad 0.01 --bad-layers udp,tcp -o "$W/big.pcap" ||
        fail "csc-gen bench"
    # How long a whole run takes here (the fastest of the runs below): the
    # random moments fall inside it, so that a faster csumcheck or machine
    # does not end runs before their signal (the fast path reads this 1 GiB
    # in well under the 0.4 s that used to be the window)
    t0=$(date +%s.%N)
    "$C" -F json --show bad,drop -w "$W/w.pcap" --select bad,drop "$W/big.pcap" >/dev/null 2>&1 ||
        fail "a whole run fails"
    whole=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
    echo "a whole run: ${whole}s"
    i=0 killed=0 tries=0
    while [ $killed -lt 10 ] && [ $tries -lt 30 ]; do
        tries=$((tries + 1))
        case $((i % 5)) in
        0 | 1) sig=INT code=130 fmt=json opts="-F json --show bad,drop" ;;
        2) sig=INT code=130 fmt=json opts="-F json" ;;
        3) sig=TERM code=143 fmt=json opts="-F json --threads 1" ;;
        *) sig=INT code=130 fmt=text opts="-vv --threads 1" ;;
        esac
        # a random moment in the first 70% of a whole run (never past 1.2 s)
        d=$(awk -v seed="$$$tries" -v whole="$whole" \
            'BEGIN { srand(seed); max = whole * 0.7; if (max > 1.2) max = 1.2;
                     printf "%.3f", 0.01 + rand() * max }')
        # shellcheck disable=SC2086
        "$C" $opts -w "$W/w.pcap" --select bad,drop "$W/big.pcap" >"$W/o" 2>"$W/e" &
        pid=$!
        # the random moment counts from when csumcheck catches the signals:
        # before that (the dynamic loader, sanitizer start-up, under load
        # tens of ms) the default action ends any process
        caught "$pid" || fail "run $i: csumcheck never caught SIGINT and SIGTERM"
        sleep "$d"
        kill -s "$sig" $pid 2>/dev/null
        wait $pid
        rc=$?
        [ "$rc" = 0 ] && continue      # it ended before the signal: not a test of one
        [ "$rc" = "$code" ] || fail "run $i (SIG$sig after ${d}s): exit $rc, expected $code"
        interrupted_ok "$i" "$sig" "$fmt"
        echo "run $i: SIG$sig after ${d}s: $(wc -c <"$W/o" | tr -d ' ') bytes of $fmt, $written frames in -w, all whole"
        killed=$((killed + 1))
        i=$((i + 1))
    done
    [ $killed = 10 ] || fail "only $killed of 10 runs were still running at their signal"
    # standard output closed by its reader: as SIGPIPE, exit 141, -w closed
    { "$C" -F json -w "$W/w.pcap" --select bad,drop "$W/big.pcap" 2>"$W/e"; echo $? >"$W/rc"; } |
        head -c 200000 >"$W/o"
    eq "SIGPIPE: exit" "$(cat "$W/rc")" 141
    eq "SIGPIPE: nothing said" "$(cat "$W/e")" ""
    tshark -r "$W/w.pcap" -T fields -e frame.number >"$W/tn" 2>"$W/te" || fail "SIGPIPE: tshark fails on -w"
    grep -qi "cut short\|corrupt\|damaged" "$W/te" && fail "SIGPIPE: tshark: $(cat "$W/te")"
    rm -f "$W/big.pcap"
}

fn=t_$(echo "$T" | tr '-' '_')
command -v "$fn" >/dev/null 2>&1 || fail "no such test"
"$fn"
echo "PASS [$T]"
exit 0
