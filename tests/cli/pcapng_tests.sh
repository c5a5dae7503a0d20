#!/bin/sh
# pcapng_tests.sh TEST - csumcheck's own pcapng reader (analyzer/input/pcapngblk.c)
# against libwiretap, which it replaces for the common blocks and which
# stays the judge of everything else. Same environment and helpers as
# cli_tests.sh (common.sh).
#
# Outside judges: libwiretap itself (CSC_PCAPNG=wiretap reads every pcapng
# with it: the output must be byte-identical, errors included), tshark
# (frames, link type and direction per frame). CSC_PCAPNG=trace says on
# stderr when libwiretap takes over, so a test knows which reader read.
. "$(dirname "$0")/common.sh"

G=${BUILDDIR:?}/captures/gen/csc-gen
CAPS=${SRCDIR:?}/captures
CRAFT="python3 $(dirname "$0")/pcapng_craft.py"
need() { command -v "$1" >/dev/null || skip "$1 not installed ($2)"; }
need editcap "apt-get install wireshark-common"
need python3 "apt-get install python3"
[ -x "$G" ] || skip "csc-gen not built ($G)"

# same FILE ARGS...: both readers give the same stdout, stderr and status
same() {
    f=$1
    shift
    "$C" "$@" "$f" >"$W/a.out" 2>"$W/a.err"
    echo "rc $?" >>"$W/a.err"
    CSC_PCAPNG=wiretap "$C" "$@" "$f" >"$W/b.out" 2>"$W/b.err"
    echo "rc $?" >>"$W/b.err"
    if ! cmp -s "$W/a.out" "$W/b.out" || ! cmp -s "$W/a.err" "$W/b.err"; then
        diff "$W/a.out" "$W/b.out" | head -10 >&2
        diff "$W/a.err" "$W/b.err" | head -10 >&2
        fail "$(basename "$f") $*: the reader and libwiretap differ"
    fi
}
# handovers FILE: how often libwiretap took over reading FILE
handovers() { CSC_PCAPNG=trace "$C" -q "$1" 2>&1 >/dev/null | grep -c "pcapng: libwiretap reads"; }

# The common pcapng: the committed ones, the corpus's, every classic
# capture of captures/ through editcap, the generator's multi-link file;
# each also byte-swapped (big-endian sections)
common_inputs() {
    mkdir -p "$W/in"
    for f in "$CAPS"/*.pcap; do
        editcap -F pcapng "$f" "$W/in/$(basename "$f" .pcap).pcapng" || fail "editcap $f"
    done
    "$G" interfaces -o "$W/in/multi.pcapng" \
        'eth ipv4 udp vxlan eth ipv4 tcp:bad pay:len=100' \
        --dir in 'ipv4 udp:bad pay:len=40' \
        --dir out 'sll2:pkt=4 ipv4 tcp:seed pay:len=100' \
        --snaplen 60 'eth ipv4 tcp pay:len=200' \
        --snaplen 262144 --dir in 'ipv4 udp pay:len=30' \
        'eth ipv6 udp:zero pay:len=20' || fail "csc-gen interfaces"
    for f in "$W"/in/*.pcapng; do
        $CRAFT swap "$f" "${f%.pcapng}-be.pcapng" || fail "swap $f"
    done
    cp "$CAPS"/*.pcapng "$W/in/"
    [ -d "$R" ] || fail "no public corpus at $R (tests/data/real)"
    ncorpus=0
    for f in "$R"/*; do
        case $f in *.txt | *.tsv | *.md) continue ;; esac
        if [ "$(head -c 4 "$f" | od -An -tx1 | tr -d ' \n')" = 0a0d0d0a ]; then
            ln -s "$f" "$W/in/"
            ncorpus=$((ncorpus + 1))
        fi
    done
    [ "$ncorpus" = 3 ] || fail "the public corpus has $ncorpus pcapng files, expected 3"
}

# ---------------------------------------------------------------------------
# every common pcapng: read here to its end (no hand-over), and the output,
# text and JSON with -v and the per-file table, byte-identical to libwiretap's
t_pcapng_same() {
    common_inputs
    n=0
    for f in "$W"/in/*; do
        # (SLL/SLL2 in a byte-swapped section: libwiretap swaps their
        # fields, so it reads them; below)
        case $f in *-be.pcapng) ;; *) eq "$(basename "$f"): hand-overs" "$(handovers "$f")" 0 ;; esac
        same "$f" -v
        same "$f" -v -F json
        same "$f" --threads 1 -F csv
        n=$((n + 1))
    done
    # every input made above was read: the classic captures and the
    # multi-link file each twice (as they are, byte-swapped), the committed
    # pcapng, and the public corpus's
    min=$(( 2 * ($(ls "$CAPS"/*.pcap | wc -l) + 1) + $(ls "$CAPS"/*.pcapng | wc -l) + ncorpus ))
    [ "$n" -ge "$min" ] || fail "only $n pcapng inputs, expected at least $min"
    eq "gre-be: hand-overs" "$(handovers "$W/in/gre-be.pcapng")" 0
    [ "$(handovers "$W/in/multi-be.pcapng")" -ge 1 ] || fail "SLL2 in a big-endian section read here"
    # -w: the same records written
    for f in gre gre-be link-raw-be demo; do
        "$C" -q -w "$W/a.pcap" "$W/in/$f.pcapng" >/dev/null 2>&1
        CSC_PCAPNG=wiretap "$C" -q -w "$W/b.pcap" "$W/in/$f.pcapng" >/dev/null 2>&1
        [ -s "$W/a.pcap" ] && cmp -s "$W/a.pcap" "$W/b.pcap" || fail "$f: -w differs"
    done
    # several files at once (-j): the per-file table
    same "$W/in/multi.pcapng" -j2 "$W/in/gre.pcapng" "$W/in/gre-be.pcapng" -F json
    # standard input (read here, handed to libwiretap through a pipe at the
    # big-endian SLL2 interface): as libwiretap reading it, as the file
    for f in multi multi-be gre-be; do
        "$C" -v -F json - <"$W/in/$f.pcapng" >"$W/a.json" 2>&1
        CSC_PCAPNG=wiretap "$C" -v -F json - <"$W/in/$f.pcapng" >"$W/b.json" 2>&1
        cmp -s "$W/a.json" "$W/b.json" || fail "$f on standard input: the reader and libwiretap differ"
        "$C" -v -F json "$W/in/$f.pcapng" | grep '"type":"packet"' | sed 's/"file":"[^"]*"//' >"$W/file.json"
        grep '"type":"packet"' "$W/a.json" | sed 's/"file":"[^"]*"//' >"$W/stdin.json"
        [ -s "$W/file.json" ] && cmp -s "$W/file.json" "$W/stdin.json" ||
            fail "$f: standard input and the file differ"
    done
}

# cut, corrupted, oversized and unusual blocks: the same frames, errors and
# messages as libwiretap (a hand-over where the reader does not take the
# block as it is), never a crash (the ASan build runs this too)
t_pcapng_hostile() {
    mkdir -p "$W/c" "$W/m"
    editcap -F pcapng "$CAPS/gre.pcap" "$W/base.pcapng" || fail editcap
    $CRAFT crafted "$W/base.pcapng" "$W/c" || fail "crafted"
    [ "$(ls "$W/c" | wc -l)" -ge 50 ] || fail "too few crafted files"
    for f in "$W"/c/*.pcapng; do
        same "$f" -v -F json
        same "$f" -q
    done
    # the reader's own (no hand-over) ...
    for c in ok-flags ok-isb-nrb-dsb multi-section spb second-idb-later tsresol-09 tsresol-8a \
             tsoffset tsoffset-huge caplen-gt-len empty-section epb-after-endofopt big-comment; do
        eq "$c: hand-overs" "$(handovers "$W/c/$c.pcapng")" 0
    done
    # ... and libwiretap's, from that block or from the start
    for c in cut-block cut-header block-len-huge block-len-odd trailer-mismatch epb-ifid-out \
             epb-caplen-huge epb-caplen-over-block epb-flags-len3 epb-flags-twice epb-verdict \
             custom-block custom-option unknown-block pb-obsolete idb-undecoded shb-version \
             idb-filter-empty nrb-overrun dsb-overrun spb-extra block-5mib no-idb nrb-first \
             first-idb-undecoded idb-many spb-no-idb; do
        [ "$(handovers "$W/c/$c.pcapng")" -ge 1 ] || fail "$c: not handed to libwiretap"
    done
    # directions and time stamps the reader computed: as libwiretap's
    run 0 "$C" -F json "$W/c/ok-flags.pcapng"
    eq "directions" "$(jq_ -f type=packet -p direction | tr '\n' ' ')" "in out <missing> "
    # seeded random cuts and overwrites of a multi-link and a byte-swapped file
    "$G" interfaces -o "$W/multi.pcapng" 'eth ipv4 udp vxlan eth ipv4 tcp:bad pay:len=100' \
        --dir in 'ipv4 udp:bad pay:len=40' --snaplen 60 'eth ipv4 tcp pay:len=200' ||
        fail "csc-gen interfaces"
    $CRAFT swap "$W/base.pcapng" "$W/base-be.pcapng" || fail swap
    $CRAFT mutate "$W/multi.pcapng" "$W/m" 60 17 && $CRAFT mutate "$W/base-be.pcapng" "$W/m" 60 18 ||
        fail mutate
    for f in "$W"/m/*.pcapng; do
        same "$f" -v -F json
    done
}

# tshark reads the same files: frames, each frame's link type (the first
# layer csumcheck decodes) and its direction from the packet flags
t_pcapng_tshark() {
    need tshark "apt-get install tshark"
    common_inputs
    for f in "$W/in/multi.pcapng" "$W/in/multi-be.pcapng" "$W/in/link-layers.pcapng" \
             "$W/in/link-raw-be.pcapng" "$W/in/gre.pcapng" "$W/in/demo.pcapng"; do
        tshark -r "$f" -T fields -e frame.encap_type -e frame.packet_flags_direction 2>/dev/null |
            awk -F'\t' '{ l = $1 == 1 ? "eth" : $1 == 7 ? "ip" : $1 == 25 ? "sll" : $1 == 210 ? "sll2" : "?" $1
                          # the direction: bits 0-1 of the flags word (its last hex digit)
                          b = (index("0123456789abcdef", tolower(substr($2, length($2)))) - 1) % 4
                          print l, $2 == "" ? "-" : b == 1 ? "in" : b == 2 ? "out" : "-" }' >"$W/tshark"
        # the capture's own flags (direction_from capture), not the other rules of
        # docs/direction.md (packet type, loopback, the guess)
        "$C" -F json "$f" | "$Q" -f type=packet -p layers.0.proto -p direction -p direction_from |
            awk -F'\t' '{ l = $1 ~ /^ipv[46]$/ ? "ip" : $1; print l, $3 != "capture" ? "-" : $2 }' \
            >"$W/csc"
        [ -s "$W/tshark" ] || fail "$(basename "$f"): tshark read nothing"
        if ! cmp -s "$W/tshark" "$W/csc"; then
            diff "$W/tshark" "$W/csc" | head >&2
            fail "$(basename "$f"): tshark and csumcheck differ (link type, direction per frame)"
        fi
    done
}

case $T in
pcapng-same) t_pcapng_same ;;
pcapng-hostile) t_pcapng_hostile ;;
pcapng-tshark) t_pcapng_tshark ;;
*) fail "unknown test" ;;
esac
echo "PASS [$T]"
