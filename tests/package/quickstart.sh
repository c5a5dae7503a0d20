#!/bin/sh
# quickstart.sh WHO - the README's quick start, word for word, in a fresh
# clone of this checkout (issue 17): the code block after the
# "<!-- quickstart:WHO -->" marker, run by sh -e.
#
#   root  as root, in a mount namespace of its own with an empty tmpfs on
#         /usr/local: `cmake --install build --component cli` writes the real
#         /usr/local paths, which the host never sees
#   user  as a normal user (uid/gid 65534, nobody, with a home of its own in
#         the work folder; the current user when the test does not run as
#         root): the install goes to ~/.local
#
# Then: csumcheck on PATH is the installed one, `man -w` finds the installed
# page, and the demo's output is this build's. Needs the packages
# scripts/setup.sh installs (the root run would install them; the user run
# only builds). Without git, or root for the root run, it exits 77 (SKIP).
#
#   quickstart.sh WHO SRC_DIR BUILD_DIR WORK_DIR
set -u
who=$1 S=$2 B=$3 W=$4
fail() { echo "FAIL [quickstart-$who]: $*" >&2; exit 1; }
skip() { echo "SKIP [quickstart-$who]: $*" >&2; exit 77; }

command -v git >/dev/null || skip "git not installed"
git -C "$S" rev-parse HEAD >/dev/null 2>&1 || skip "$S is not a git checkout"
rm -rf "$W"
mkdir -p "$W/home"
awk -v m="<!-- quickstart:$who -->" '
    $0 == m { on = 1; next }
    on && /^```/ { if (in_block) exit; in_block = 1; next }
    on && in_block { print }' "$S/README.md" >"$W/steps.sh"
[ -s "$W/steps.sh" ] || fail "README.md has no quick start block for $who"
echo "quick start ($who), from README.md:"
sed 's/^/  $ /' "$W/steps.sh"
# the clone: the committed tree, as a user who just cloned it
git clone -q "$S" "$W/clone" || fail "git clone"

# the demo's expected output: this build on the same capture
(cd "$S" && "$B/analyzer/csumcheck" -v captures/demo.pcapng) >"$W/demo.expected" 2>&1

case $who in
root)
    [ "$(id -u)" = 0 ] || skip "needs root"
    command -v unshare >/dev/null || skip "unshare (util-linux) not installed"
    # shellcheck disable=SC2016
    unshare -m --propagation private sh -c '
        mount -t tmpfs tmpfs /usr/local || exit 99
        cd "$1/clone" && env -i PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
            LC_ALL=C.UTF-8 sh -ex "$1/steps.sh" >"$1/steps.out" 2>"$1/steps.err"
        echo "rc=$?" >"$1/result"
        { command -v csumcheck; man -w csumcheck; } >>"$1/result" 2>&1
    ' quickstart "$W"
    [ $? = 99 ] && skip "cannot mount a tmpfs on /usr/local in a mount namespace"
    bin=/usr/local/bin/csumcheck man=/usr/local/share/man/man1/csumcheck.1.gz
    ;;
user)
    if [ "$(id -u)" = 0 ]; then
        command -v setpriv >/dev/null || skip "setpriv (util-linux) not installed"
        chown -R 65534:65534 "$W"
        as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
    else
        as_user=""
    fi
    # shellcheck disable=SC2016
    $as_user sh -c '
        cd "$1/clone" && env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$1/home" \
            LC_ALL=C.UTF-8 sh -ex "$1/steps.sh" >"$1/steps.out" 2>"$1/steps.err"
        echo "rc=$?"
        export PATH="$1/home/.local/bin:/usr/bin:/bin"
        command -v csumcheck; man -w csumcheck
    ' quickstart "$W" >"$W/result" 2>&1
    bin=$W/home/.local/bin/csumcheck man=$W/home/.local/share/man/man1/csumcheck.1.gz
    ;;
*) fail "WHO is root or user" ;;
esac
[ "$(head -n 1 "$W/result")" = rc=0 ] || {
    tail -n 30 "$W/steps.err" >&2
    fail "the quick start failed ($(head -n 1 "$W/result"))"
}
cat "$W/result"
[ "$(sed -n 2p "$W/result")" = "$bin" ] || fail "csumcheck on PATH is not $bin"
[ "$(sed -n 3p "$W/result")" = "$man" ] || fail "man -w csumcheck does not find $man"
# scripts/demo.sh runs csumcheck -v captures/demo.pcapng: its stdout is the demo
grep -v '^csumcheck [0-9]' "$W/steps.out" | head -n "$(wc -l <"$W/demo.expected")" >"$W/demo.out"
cmp -s "$W/demo.out" "$W/demo.expected" || { diff "$W/demo.expected" "$W/demo.out" | head >&2; fail "the demo's output differs from this build's"; }
grep -q "^csumcheck $(sed -n 's/^project(csumcheck VERSION \([0-9.]*\).*/\1/p' "$S/CMakeLists.txt")" "$W/steps.out" ||
    fail "csumcheck --version did not print the version"
echo "PASS [quickstart-$who]: README quick start in a fresh clone: $bin, $man, demo output identical"
