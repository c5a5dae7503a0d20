#!/bin/sh
# write_tests.sh - -w OUT (issue 26): every write checked, a regular file
# replaced only when complete, pipes/devices/stdout written directly, pcapng
# with several link types and the verdict line of each frame as its comment.
# Same environment and helpers as cli_tests.sh (common.sh).
#   write_tests.sh TEST
. "$(dirname "$0")/common.sh"

G=${BUILDDIR:?}/captures/gen/csc-gen
CAPS=${SRCDIR:?}/captures
need_gen() { [ -x "$G" ] || skip "csc-gen not built ($G)"; }
need() { command -v "$1" >/dev/null || skip "$1 not installed ($2)"; }

# A capture of 16 MiB whose frames all have a bad checksum (all selected):
# writes that outlast a small disk or a kill
big_input() {
    need_gen
    "$G" bench --size full --bytes 16M --bad-every 1 -o "$W/big.pcap" >/dev/null 2>&1 ||
        fail "csc-gen bench"
}

# defect 1: /dev/full said, exit 2; /dev/null fine
t_write_errors() {
    run 2 "$C" -q -w /dev/full --select any "$CAPS/demo.pcapng"
    has "$W/err" "/dev/full: write failed: No space left on device"
    has "$W/out" "wrote 0 selected frames to /dev/full (18 not written: see standard error)"
    run 2 "$C" -q -F json -w /dev/full --select any "$CAPS/demo.pcapng"
    eq "json: written, exit_status" "$(jq_ -f type=summary -p written -p exit_status -p errors)" "0	2	1"
    run 0 "$C" -q -w /dev/null --select any "$CAPS/demo.pcapng"
    has "$W/out" "wrote 18 selected frames to /dev/null"
    # a folder that cannot take a file: said at the start, exit 2
    run 2 "$C" -q -w "$W/no/such/dir/o.pcap" "$CAPS/demo.pcapng"
    has "$W/err" "cannot create a temporary file in $W/no/such/dir"
    # --write-format without -w, and a word it does not know
    run 2 "$C" --write-format pcapng "$CAPS/demo.pcapng"
    run 2 "$C" -w "$W/x" --write-format pcap2 "$CAPS/demo.pcapng"
    has "$W/err" "pcap or pcapng"
}

# defect 1: a full file system (a 64 KiB tmpfs in a private mount namespace):
# exit 2 with the message, and the file that was there before is untouched
t_write_tmpfs() {
    [ "$(id -u)" = 0 ] || skip "needs root for a tmpfs mount in a private mount namespace"
    need unshare "util-linux"
    big_input
    mkdir -p "$W/small"
    cat >"$W/in-ns.sh" <<EOF
mount -t tmpfs -o size=64k csc-full "$W/small" || exit 97
cp "$CAPS/vxlan.pcap" "$W/small/out.pcap"
"$C" -q -w "$W/small/out.pcap" "$W/big.pcap" >"$W/out" 2>"$W/err"
echo \$? >"$W/rc"
cmp -s "$CAPS/vxlan.pcap" "$W/small/out.pcap" && echo same >"$W/same"
ls -a "$W/small" >"$W/left"
EOF
    unshare -m sh "$W/in-ns.sh" || fail "unshare -m: $?"
    eq "exit status" "$(cat "$W/rc")" 2
    has "$W/err" "$W/small/out.pcap: write failed: No space left on device"
    has "$W/err" "not written (an earlier file of that name is left as it was)"
    [ -f "$W/same" ] || fail "the earlier out.pcap was changed"
    eq "nothing else left in the folder" "$(grep -cv '^\.\.\?$' "$W/left")" 1
}

# a SIGKILL at random moments never leaves a damaged -w file: the earlier
# file, or the complete new one (tshark reads it to its end), 20 tries
t_write_kill() {
    need tshark "tshark package"
    big_input
    "$C" -q -w "$W/full.pcap" "$W/big.pcap" >/dev/null 2>&1 || fail "the full run"
    t0=$(date +%s%N)                  # timed warm, as the tries run
    "$C" -q -w "$W/full.pcap" "$W/big.pcap" >/dev/null 2>&1 || fail "the full run"
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    full=$(stat -c %s "$W/full.pcap")
    # the complete file reads to its end (each try is compared with it)
    tshark -r "$W/full.pcap" >/dev/null 2>"$W/ts.err" || fail "tshark: $(cat "$W/ts.err")"
    old=0 new=0 named=0 i=0
    while [ $i -lt 20 ]; do
        cp "$CAPS/vxlan.pcap" "$W/o.pcap"
        "$C" -q -w "$W/o.pcap" "$W/big.pcap" >/dev/null 2>&1 &
        pid=$!
        # spread evenly over 1.2 times a whole run's measured duration:
        # before, during and after the writing (not rand(): mawk's first
        # value after srand follows the seed, and Debian's awk is mawk)
        sleep "$(awk -v i="$i" -v ms="$ms" 'BEGIN { printf "%.3f", (i * 7 % 20) / 20 * ms * 1.2 / 1000 }')"
        kill -KILL $pid 2>/dev/null
        wait $pid 2>/dev/null
        if cmp -s "$CAPS/vxlan.pcap" "$W/o.pcap"; then
            old=$((old + 1))
        elif cmp -s "$W/full.pcap" "$W/o.pcap"; then
            new=$((new + 1))
        else
            cp "$W/o.pcap" "$W/damaged.$i.pcap"
            fail "try $i: o.pcap is neither the earlier file nor the complete one ($(stat -c %s "$W/o.pcap") of $full bytes)"
        fi
        # a kill between naming the finished temporary file and the rename
        # (two system calls) leaves it, complete, under its hidden name
        for t in "$W"/.o.pcap.*; do
            [ -e "$t" ] || continue
            cmp -s "$W/full.pcap" "$t" || fail "try $i: an incomplete temporary file $t is left"
            rm -f "$t"
            named=$((named + 1))
        done
        i=$((i + 1))
    done
    echo "write-kill: 20 SIGKILLs over $ms ms runs: $old left the earlier file, $new the complete new one, 0 damaged ($named left the complete file under its temporary name)"
    [ $old -gt 0 ] || fail "no kill came before the end: the test proves nothing"
}

# -w pcapng: tshark without the plugin shows each frame's verdict line
# (frame.comment) - the same lines as -v, for frames written from one
# thread or from the pipeline
t_write_pcapng() {
    need tshark "tshark package"
    for th in 1 2; do
        run 0 "$C" -q -w "$W/o$th.pcapng" --select any --threads $th "$CAPS/demo.pcapng" "$CAPS/gre.pcap"
        has "$W/out" "wrote 29 selected frames to $W/o$th.pcapng"
        tshark -r "$W/o$th.pcapng" -T fields -e frame.comment >"$W/comments$th" 2>"$W/ts.err" ||
            fail "tshark: $(cat "$W/ts.err")"
    done
    cmp -s "$W/comments1" "$W/comments2" || fail "--threads 1 and 2 write different comments"
    run 0 "$C" -v --show any --threads 1 "$CAPS/demo.pcapng" "$CAPS/gre.pcap"
    grep -E '^[^ ]+\.pcapn?g?:[0-9]+: ' "$W/out" >"$W/vlines"
    eq "one comment a frame" "$(lines "$W/comments1")" 29
    cmp -s "$W/vlines" "$W/comments1" || { diff "$W/vlines" "$W/comments1" | head >&2; fail "comments differ from the -v lines"; }
    # a name without .pcapng: --write-format says it
    run 0 "$C" -q -w "$W/named.cap" --write-format pcapng --select any "$CAPS/gre.pcap"
    eq "pcapng magic" "$(od -An -tx4 -N4 "$W/named.cap" | tr -d ' ')" 0a0d0d0a
    run 0 "$C" -q -w "$W/named.pcapng" --write-format pcap --select any "$CAPS/gre.pcap"
    eq "pcap magic (ns)" "$(od -An -tx4 -N4 "$W/named.pcapng" | tr -d ' ')" a1b23c4d
}

# a mixed-link pcapng round-trips through -w: every frame (bytes, time,
# link type, direction) as it was; one interface per link type
t_write_mixed() {
    need_gen
    need capinfos "tshark package"
    "$G" interfaces -o "$W/multi.pcapng" \
        'eth ipv4 udp vxlan eth ipv4 tcp:bad pay:len=100' \
        --dir in 'ipv4 udp:bad pay:len=40' \
        --dir out 'sll2:pkt=4 ipv4 tcp:bad pay:len=100' \
        --snaplen 262144 --dir in 'ipv4 udp:bad pay:len=30' \
        'eth ipv6 udp:bad pay:len=20' || fail "csc-gen interfaces"
    run 0 "$C" -F json "$W/multi.pcapng"
    n=$(jq_ -f type=summary -p frames)
    eq "every frame has a finding" "$(jq_ -f type=summary -p findings.any)" "$n"
    grep '"type":"packet"' "$W/out" | sed 's/"file":"[^"]*",//; s/^/- /' >"$W/in.txt"
    run 0 "$C" -q -w "$W/rt.pcapng" --select any "$W/multi.pcapng"
    has "$W/out" "wrote $n selected frames"
    run 0 "$C" -F json "$W/rt.pcapng"
    grep '"type":"packet"' "$W/out" | sed 's/"file":"[^"]*",//; s/^/- /' >"$W/rt.txt"
    cmp -s "$W/in.txt" "$W/rt.txt" || { diff "$W/in.txt" "$W/rt.txt" | head -4 >&2; fail "the frames changed"; }
    capinfos -T -r "$W/rt.pcapng" >"$W/ci" 2>&1 || fail "capinfos: $(cat "$W/ci")"
    capinfos "$W/rt.pcapng" | grep -q "Number of interfaces in file: 3" || fail "not one interface per link type"
    # pcap keeps the first link type and says why the others are left out
    run 2 "$C" -q -w "$W/rt.pcap" --select any "$W/multi.pcapng"
    has "$W/err" "differs from $W/rt.pcap's EN10MB (1) (a pcap file holds one link type; pcapng keeps both"
}

# -w -: the capture on standard output, the report on standard error
t_write_stdout() {
    need tshark "tshark package"
    "$C" -w - --select any "$CAPS/gre.pcap" >"$W/s.pcap" 2>"$W/err" || fail "exit $?"
    has "$W/err" "wrote 11 selected frames to -"
    eq "frames on stdout" "$(tshark -r "$W/s.pcap" 2>/dev/null | wc -l)" 11
    "$C" -q -w - --write-format pcapng --select any "$CAPS/gre.pcap" 2>/dev/null |
        tshark -r - -T fields -e frame.comment 2>/dev/null >"$W/c"
    eq "comments through a pipe" "$(grep -c 'gre.pcap:[0-9]*: ' "$W/c")" 11
}

# defect 3: an empty -w output takes a link type a reader opens (never 102
# from a pcapng without interfaces, nor a type no savefile holds; the
# ASan build checks that no libpcap handle leaks)
t_write_linktype() {
    # a pcapng with a section header and nothing else
    printf '\012\015\015\012\034\000\000\000\115\074\053\032\001\000\000\000\377\377\377\377\377\377\377\377\034\000\000\000' >"$W/noif.pcapng"
    run 0 "$C" -q -w "$W/e.pcap" "$W/noif.pcapng"
    eq "Ethernet" "$(od -An -tu4 -j20 -N4 "$W/e.pcap" | tr -d ' ')" 1
    run 0 "$C" -q -w "$W/e.pcapng" "$W/noif.pcapng"
    eq "a section header only" "$(stat -c %s "$W/e.pcapng")" 28
    # a classic pcap of a DLT no savefile holds (1000)
    cp "$CAPS/vxlan.pcap" "$W/dlt.pcap"
    patch "$W/dlt.pcap" 20 '\350\003\000\000'
    run 0 "$C" -q -w "$W/d.pcap" "$W/dlt.pcap"
    eq "Ethernet instead" "$(od -An -tu4 -j20 -N4 "$W/d.pcap" | tr -d ' ')" 1
    hasnt "$W/err" "Sanitizer"
}

"t_$(echo "$T" | tr - _)"
