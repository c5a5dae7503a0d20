#!/bin/bash
# heldout-judge.sh - csumcheck's per-layer checksum verdicts against tshark's
# on captures the project does not hold: the test captures that Debian's
# source packages of other network tools carry (tcpdump, wireshark, libpcap,
# ndpi, pcapy, python-dpkt, tcpflow; bookworm). tests/heldout/judge.py
# compares; tests/heldout/known.tsv lists the classes of difference and why.
#
# The first run fetches the source packages (apt-get source --download-only
# through a private apt configuration with deb-src lines, in the cache: the
# host's apt sources are not touched) and unpacks their captures. It needs
# Debian's archive; when that cannot be reached and the cache is empty it
# exits 77 (SKIP). tshark's verdicts are cached per capture and tshark
# version, so later runs only run csumcheck.
#
# usage: heldout-judge.sh -c CSUMCHECK [-t TSHARK] [-C CACHE] [-j N] [--fetch-only]
#                         [--diffs FILE] [--only SUBSTRING]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
cache=${CSC_HELDOUT_CACHE:-$HOME/.cache/csumcheck/heldout}
csc= tshark=tshark jobs=2 fetch_only=0
extra=()
while [ $# -gt 0 ]; do
    case $1 in
    -c) csc=$2; shift 2 ;;
    -t) tshark=$2; shift 2 ;;
    -C) cache=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    --fetch-only) fetch_only=1; shift ;;
    --diffs|--only) extra+=("$1" "$2"); shift 2 ;;
    *) echo "usage: $0 -c CSUMCHECK [-t TSHARK] [-C CACHE] [-j N] [--fetch-only] [--diffs FILE] [--only S]" >&2
       exit 2 ;;
    esac
done
# two tshark or csumcheck processes at most: the machines have 2 CPUs
[ "$jobs" -gt 2 ] && jobs=2
pkgs="tcpdump wireshark libpcap ndpi pcapy python-dpkt tcpflow"

skip() { echo "SKIP: $*"; exit 77; }

fetch() {
    local a=$cache/apt
    mkdir -p "$a/etc/sources.list.d" "$a/etc/preferences.d" "$a/lists/partial" \
             "$a/cache/archives/partial" "$cache/src" "$cache/pcaps"
    # source indexes only, of bookworm as the host's own archive lines name it
    cat > "$a/etc/sources.list.d/src.sources" <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    cat > "$a/apt.conf" <<EOF
Dir::Etc::sourcelist "/dev/null";
Dir::Etc::sourceparts "$a/etc/sources.list.d";
Dir::Etc::preferencesparts "$a/etc/preferences.d";
Dir::State::Lists "$a/lists";
Dir::Cache "$a/cache";
Dir::Cache::archives "$a/cache/archives";
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT::Sandbox::User "root";
Acquire::IndexTargets::deb::Packages::DefaultEnabled "false";
EOF
    export APT_CONFIG=$a/apt.conf
    apt-get -q update > "$cache/apt-update.log" 2>&1 && ! grep -q '^\(W\|E\): Failed' "$cache/apt-update.log" ||
        skip "Debian's archive is unreachable (apt-get update of bookworm's deb-src indexes failed, $cache/apt-update.log): the held-out captures cannot be fetched"
    : > "$cache/versions.tmp"
    for p in $pkgs; do
        # the captures are in the upstream tarball: a Debian part the archive
        # lacks (ndpi 4.2-2's debian.tar.xz answers 404) does not matter
        (cd "$cache/src" && apt-get -q source --download-only "$p" > "$cache/src/$p.log" 2>&1) ||
            ls "$cache/src/${p}_"*.orig.tar.* > /dev/null 2>&1 ||
            skip "apt-get source --download-only $p failed ($cache/src/$p.log): Debian's archive unreachable?"
        dsc=$(ls -t "$cache/src/${p}_"*.dsc | head -n 1)
        echo "$p $(sed -n 's/^Version: //p' "$dsc")" >> "$cache/versions.tmp"
    done
    # every capture of each upstream tarball, named <top folder>__<path>
    local x=$cache/src/x
    rm -rf "$x" "$cache/pcaps.tmp"
    mkdir -p "$x" "$cache/pcaps.tmp"
    for t in "$cache"/src/*.orig.tar.*; do
        case $t in *.asc) continue ;; esac
        tar -tf "$t" | grep -E '\.(pcap|pcapng|cap)(\.gz)?$' > "$x/list" || continue
        tar -xf "$t" -C "$x" -T "$x/list"
        while IFS= read -r m; do
            [ -f "$x/$m" ] || continue
            n=$cache/pcaps.tmp/$(printf '%s' "$m" | sed 's|/|__|g')
            case $m in
            *.gz) gzip -dc "$x/$m" > "${n%.gz}" ;;     # wireshark keeps some gzipped
            *) cp "$x/$m" "$n" ;;
            esac
        done < "$x/list"
    done
    # the tarballs are not needed again (the .dsc files stay, with the versions)
    rm -rf "$x" "$cache/pcaps" "$cache"/src/*.tar.* "$cache/apt/cache"
    mv "$cache/pcaps.tmp" "$cache/pcaps"
    mv "$cache/versions.tmp" "$cache/versions.txt"
    touch "$cache/pcaps/.complete"
}

# one fetch at a time (the normal and the sanitizer build's runs share the cache)
mkdir -p "$cache"
exec 9> "$cache/.lock"
flock 9
[ -f "$cache/pcaps/.complete" ] || fetch
flock -u 9
echo "heldout: sources: $(tr '\n' ';' < "$cache/versions.txt")"
[ "$fetch_only" = 1 ] && exit 0
[ -n "$csc" ] || { echo "heldout-judge.sh: -c CSUMCHECK is needed" >&2; exit 2; }
command -v "$tshark" > /dev/null || { echo "heldout-judge.sh: no tshark ($tshark)" >&2; exit 1; }
py=/usr/bin/python3     # Debian's
[ -x "$py" ] || py=python3
exec "$py" "$src/tests/heldout/judge.py" --cache "$cache" --csumcheck "$csc" --tshark "$tshark" \
    --src "$src" --known "$src/tests/heldout/known.tsv" -j "$jobs" "${extra[@]}"
