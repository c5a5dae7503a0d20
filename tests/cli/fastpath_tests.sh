#!/bin/sh
# fastpath_tests.sh - the fast path (issue 25) against the general path at
# the command line: csumcheck's output with and without --no-fast-path, byte
# for byte, over every run of captures/expected/runs.tsv, every file of the
# public corpus and a generated capture of many flows and tunnels (bench's
# shapes, with bad checksums at every layer), in several formats, with and
# without worker threads. The core's own check is csc-fastpath-check
# (tests/fastpath). Same environment and helpers as cli_tests.sh.
#   fastpath_tests.sh TEST
. "$(dirname "$0")/common.sh"

CAPS=${SRCDIR:?}/captures
GEN=${BUILDDIR:?}/captures/gen/csc-gen

# same ARGS...: csumcheck ARGS and csumcheck --no-fast-path ARGS write the
# same bytes and exit alike
same() {
    "$C" "$@" >"$W/fast" 2>"$W/fast.err"
    a=$?
    "$C" --no-fast-path "$@" >"$W/general" 2>"$W/general.err"
    b=$?
    [ "$a" = "$b" ] || fail "exit status $a with the fast path, $b without: $*"
    cmp -s "$W/fast" "$W/general" || { diff "$W/fast" "$W/general" | head -8 >&2; fail "output differs: $*"; }
    cmp -s "$W/fast.err" "$W/general.err" || fail "stderr differs: $*"
    [ -s "$W/general" ] || fail "no output: $*"
    n=$((n + 1))
}
n=0

case $T in
fast-path-captures)
    grep -v '^#' "$CAPS/expected/runs.tsv" | while IFS='	' read -r cap tag opts; do
        [ -n "$cap" ] || continue
        # shellcheck disable=SC2086
        for how in "-F json" "-F json --threads 1" "-v" "-F csv"; do
            same $how $opts "$CAPS/$cap"
        done
    done
    same -F json --compare --rx=complete "$CAPS/vxlan.pcap" "$CAPS/gre.pcap" "$CAPS/geneve.pcap"
    ;;
fast-path-corpus)
    need_corpus
    for f in "$R"/*.pcap "$R"/*.pcapng "$R"/*.cap; do
        same -F json "$f"
        same -F json --threads 1 --rx complete --era 4.6 "$f"
        same -v --threads 2 "$f"
    done
    same -F csv "$R"
    same -F json --flows "$R"
    same -F json --rewrite outer-zero "$R"
    ;;
fast-path-bench)
    [ -x "$GEN" ] || fail "csc-gen not built at $GEN"
    "$GEN" bench --frames 30000 --flows 4096 --interleave random --size small \
        --tunnel vxlan,geneve,gre,ipip,plain,vxlan6 --bad 0.01 \
        --bad-layers ip,udp,inner-ip,tcp --random-payload -o "$W/mix.pcap" >/dev/null ||
        fail "csc-gen bench"
    "$GEN" bench --frames 8000 --flows 64 --interleave burst:8 --size imix \
        --bad 0.01 --bad-layers ip,udp,inner-ip,tcp --random-payload -o "$W/imix.pcap" >/dev/null ||
        fail "csc-gen bench"
    for f in "$W/mix.pcap" "$W/imix.pcap"; do
        same -F json "$f"
        keep_json "$W/fast"
        same -F json --threads 1 "$f"
        same -q -F json "$f"
        same -v --rx unnecessary:1 "$f"
    done
    ;;
*)
    fail "no test $T"
    ;;
esac
echo "fastpath_tests: $T: the same with and without --no-fast-path"
