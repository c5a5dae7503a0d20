# common.sh - what the CLI test scripts share (sourced by cli_tests.sh and
# cli17_tests.sh): the environment CTest sets, the scratch directory, the
# assertion helpers and the corpus files they use most.
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
    [ -f "$R/nDPI__vxlan.pcap" ] || fail "public capture corpus not found at $R (tests/data/real)"
}
# keep_json FILE: a copy of a JSON Lines output for the schema check that
# runs after the tests (tests/schema: CSC_JSONLOG, validate.py)
keep_json() {
    [ -n "${CSC_JSONLOG:-}" ] && [ "$(head -c 9 "$1" 2>/dev/null)" = '{"type":"' ] || return 0
    mkdir -p "$CSC_JSONLOG/$T"
    _kj=$(($(ls "$CSC_JSONLOG/$T" | wc -l) + 1))
    cp "$1" "$CSC_JSONLOG/$T/$_kj.jsonl"
}
# run RC CMD...: stdout -> $W/out, stderr -> $W/err, exit status must be RC
run() {
    want=$1
    shift
    "$@" >"$W/out" 2>"$W/err"
    rc=$?
    keep_json "$W/out"
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
U4B=zeek__ip4-udp-bad-chksum.pcap              # one IPv4/UDP frame, UDP bad (127.0.0.1: loopback)
NDPI=nDPI__vxlan.pcap                          # 127 frames, 73 outer UDP partial (seed): "probably sent"
# Many zeek fixtures go 127.0.0.1 > 127.0.0.1: loopback frames, sent by the
# host that captured them, which get their TX view and no replay
# (docs/direction.md). A test of the receive path replays them with $RS.
RS=--replay-sent

