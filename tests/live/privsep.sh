#!/bin/sh
# privsep.sh - --live's privilege separation (issue 26, docs/live.md
# "Privileges"): the analysing process holds no capability, read from
# /proc/PID/status while it runs (a run fed through a pipe that stays open);
# the helper holds CAP_NET_ADMIN and CAP_SYS_ADMIN only; a user who is not
# root runs --live from a copy of csumcheck with those file capabilities
# (setcap), with the same results as root on captures/; compressed inputs
# are read; a seccomp violation in the helper (the test-only hook
# CSC_LIVE_TEST_SECCOMP=helper) kills the helper alone, and the analyser
# says so and still ends its run. Root, setcap and setpriv; 77 without.
#   privsep.sh CSUMCHECK CAPTURES_DIR
set -u
CSC=$1 CAP=$2
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (setcap, another user)"; exit 77; }
for t in setcap setpriv gzip; do
    command -v $t >/dev/null || { echo "SKIP: no $t"; exit 77; }
done
fail=0 n=0
ok() { n=$((n + 1)); echo "ok: $*"; }
bad() { n=$((n + 1)); echo "FAIL: $*"; fail=$((fail + 1)); }

D=$(mktemp -d /tmp/csc-privsep.XXXXXX) || exit 2
TUN_MODE=$(stat -c %a /dev/net/tun 2>/dev/null)
cleanup() {
    [ -n "$TUN_MODE" ] && chmod "$TUN_MODE" /dev/net/tun
    rm -rf "$D"
}
trap cleanup EXIT
trap 'exit 2' INT TERM
chmod 755 "$D"
cp "$CAP"/*.pcap "$CAP"/*.pcapng "$D"/
gzip -c "$CAP/vxlan-gpe.pcap" > "$D/gz.pcap.gz"
chmod 644 "$D"/*
cp "$CSC" "$D/csumcheck"
setcap cap_net_admin,cap_sys_admin+ep "$D/csumcheck" || { echo "SKIP: setcap failed (no file capabilities here)"; exit 77; }
# Debian's /dev/net/tun is 0666; a container's may be root's only
case $TUN_MODE in *66) TUN_MODE= ;; *) chmod 666 /dev/net/tun ;; esac
AS_USER="setpriv --reuid=65534 --regid=65534 --clear-groups --"

strip() { sed -E 's/[0-9]+ frames\/s \([0-9]+ counting[^)]*\)//'; }

# ---- the results: root, and a user with the file capabilities ----
"$CSC" --live "$D"/*.pcap "$D"/*.pcapng > "$D/root.out" 2> "$D/root.err"
rc=$?
if [ $rc = 77 ]; then
    echo "SKIP: $(tail -n 1 "$D/root.err")"
    exit 77
fi
[ $rc -le 1 ] && grep -q '^agreement: [1-9]' "$D/root.out" && ok "root run: exit $rc, $(grep '^agreement' "$D/root.out" | strip)" ||
    bad "root run: exit $rc: $(tail -n 2 "$D/root.err")"
$AS_USER "$D/csumcheck" --live "$D"/*.pcap "$D"/*.pcapng > "$D/user.out" 2> "$D/user.err"
rc=$?
[ $rc -le 1 ] && ok "uid 65534 with the file capabilities: exit $rc" ||
    bad "uid 65534 with the file capabilities: exit $rc: $(tail -n 2 "$D/user.err")"
strip < "$D/root.out" > "$D/root.s"
strip < "$D/user.out" > "$D/user.s"
if [ -s "$D/user.out" ] && cmp -s "$D/root.s" "$D/user.s"; then
    ok "the user's results are root's ($(grep -c '^  frame' "$D/user.out") frames)"
else
    bad "the user's results differ from root's: $(diff "$D/root.out" "$D/user.out" | head -n 4 | tr '\n' ' ')"
fi
# tc's BPF program (unnecessary:L) under the user too
"$CSC" --live --rx unnecessary:1 "$D"/*.pcap > "$D/root1.out" 2>&1
$AS_USER "$D/csumcheck" --live --rx unnecessary:1 "$D"/*.pcap > "$D/user1.out" 2>&1
if grep -q '^agreement: [1-9]' "$D/user1.out" && [ "$(strip < "$D/root1.out")" = "$(strip < "$D/user1.out")" ]; then
    ok "--rx unnecessary:1 (tc BPF) as the user: $(grep '^agreement' "$D/user1.out" | strip)"
else
    bad "--rx unnecessary:1 as the user: $(tail -n 1 "$D/user1.out")"
fi

# ---- compressed input, read as the CLI reads it ----
"$CSC" --live "$D/gz.pcap.gz" > "$D/gz.out" 2>&1
"$CSC" --live "$D/vxlan-gpe.pcap" > "$D/plain.out" 2>&1
if grep -q '^agreement: [1-9]' "$D/gz.out" &&
   [ "$(grep '^  frame' "$D/gz.out")" = "$(grep '^  frame' "$D/plain.out")" ]; then
    ok ".pcap.gz: the frames of the plain file ($(grep -c '^  frame' "$D/gz.out"))"
else
    bad ".pcap.gz: $(head -n 2 "$D/gz.out" | tr '\n' ' ')"
fi

# a root run's input in a folder only root may enter: the analyser (nobody)
# cannot open it, the helper opens it for it (an input the user named)
mkdir -m 700 "$D/root-only"
cp "$D/vxlan.pcap" "$D/root-only/"
chmod 600 "$D/root-only/vxlan.pcap"
"$CSC" --live "$D/root-only/vxlan.pcap" > "$D/ro.out" 2> "$D/ro.err"
"$CSC" --live "$D/vxlan.pcap" > "$D/rw.out" 2>&1
if grep -q '^agreement: [1-9]' "$D/ro.out" && [ "$(grep '^  frame' "$D/ro.out")" = "$(grep '^  frame' "$D/rw.out")" ]; then
    ok "a root-only folder's capture in a root run: the helper opened it ($(grep -c '^  frame' "$D/ro.out") frames)"
else
    bad "a root-only folder's capture in a root run: $(head -n 1 "$D/ro.err")"
fi

# ---- the processes while they run ----
field() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status" 2>/dev/null; }
# status LABEL PID: the analyser's and its helper's, once the analyser set NO_NEW_PRIVS
# (at most 3 s: its input stays open for 6)
status() {
    label=$1 pid=$2 i=0
    while [ $i -lt 30 ] && [ "$(field "$pid" NoNewPrivs)" != 1 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    helper=$(cat /proc/"$pid"/task/*/children 2>/dev/null | awk '{ print $1 }')
    A_UID=$(field "$pid" Uid) A_NNP=$(field "$pid" NoNewPrivs) A_SEC=$(field "$pid" Seccomp)
    A_CAPS="$(field "$pid" CapInh) $(field "$pid" CapPrm) $(field "$pid" CapEff) $(field "$pid" CapAmb)"
    A_BND=$(field "$pid" CapBnd)
    H_EFF=$(field "$helper" CapEff) H_NNP=$(field "$helper" NoNewPrivs) H_SEC=$(field "$helper" Seccomp)
    echo "$label: analyser $pid uid $A_UID caps inh/prm/eff/amb $A_CAPS bnd $A_BND nnp $A_NNP seccomp $A_SEC;" \
         "helper ${helper:-none} eff $H_EFF nnp $H_NNP seccomp $H_SEC"
}
ZERO="0000000000000000 0000000000000000 0000000000000000 0000000000000000"
HELPER_CAPS=0000000000201000   # CAP_NET_ADMIN (12) and CAP_SYS_ADMIN (21)

(cat "$D/vxlan-gpe.pcap"; sleep 6) | "$CSC" --live - > /dev/null 2>&1 &
status "root" $!
wait
[ "$A_UID" = 65534 ] && ok "root run: the analyser became nobody" || bad "root run: the analyser's uid is $A_UID"
[ "$A_CAPS" = "$ZERO" ] && ok "root run: the analyser holds no capability (CapInh/CapPrm/CapEff/CapAmb 0)" ||
    bad "root run: the analyser's capabilities: $A_CAPS"
[ "$A_BND" = 0000000000000000 ] && ok "root run: the analyser's bounding set is empty" ||
    bad "root run: the analyser's bounding set: $A_BND"
[ "$A_NNP" = 1 ] && [ "$A_SEC" = 2 ] && ok "root run: the analyser has NO_NEW_PRIVS and a seccomp filter" ||
    bad "root run: the analyser's NoNewPrivs $A_NNP Seccomp $A_SEC"
[ "$H_EFF" = $HELPER_CAPS ] && [ "$H_NNP" = 1 ] && [ "$H_SEC" = 2 ] &&
    ok "root run: the helper holds CAP_NET_ADMIN and CAP_SYS_ADMIN only, NO_NEW_PRIVS, seccomp" ||
    bad "root run: the helper: CapEff $H_EFF NoNewPrivs $H_NNP Seccomp $H_SEC"

(cat "$D/vxlan-gpe.pcap"; sleep 6) | SUDO_UID=4242 SUDO_GID=4243 "$CSC" --live - > /dev/null 2>&1 &
status "sudo" $!
wait
[ "$A_UID" = 4242 ] && [ "$A_CAPS" = "$ZERO" ] && ok "under sudo the analyser becomes SUDO_UID, no capability" ||
    bad "under sudo: uid $A_UID caps $A_CAPS"

(cat "$D/vxlan-gpe.pcap"; sleep 6) | $AS_USER "$D/csumcheck" --live - > /dev/null 2>&1 &
status "user" $!
wait
[ "$A_CAPS" = "$ZERO" ] && [ "$A_NNP" = 1 ] && [ "$A_SEC" = 2 ] &&
    ok "user run: the analyser holds no capability, NO_NEW_PRIVS, seccomp" ||
    bad "user run: the analyser's caps $A_CAPS NoNewPrivs $A_NNP Seccomp $A_SEC"
[ "$H_EFF" = $HELPER_CAPS ] && ok "user run: the helper holds CAP_NET_ADMIN and CAP_SYS_ADMIN" ||
    bad "user run: the helper's CapEff $H_EFF"

# the same copy for anything but --live gives its capabilities up at once
(cat "$D/vxlan-gpe.pcap"; sleep 6) | $AS_USER "$D/csumcheck" - > /dev/null 2>&1 &
pid=$! i=0
while [ $i -lt 30 ] && [ "$(field "$pid" CapPrm)" != 0000000000000000 ]; do
    sleep 0.1
    i=$((i + 1))
done
caps="$(field "$pid" CapPrm) $(field "$pid" CapEff) $(field "$pid" CapAmb)"
wait
[ "$caps" = "0000000000000000 0000000000000000 0000000000000000" ] &&
    ok "the file-capability copy without --live holds no capability while it reads" ||
    bad "the file-capability copy without --live: CapPrm/CapEff/CapAmb $caps"

# ---- a seccomp violation in the helper ----
CSC_LIVE_TEST_SECCOMP=helper "$CSC" --live "$D/vxlan.pcap" > "$D/v.out" 2> "$D/v.err"
rc=$?
msg=$(grep 'killed by its seccomp filter' "$D/v.err")
[ $rc = 2 ] && [ -n "$msg" ] && ok "seccomp violation: exit 2 and: $msg" ||
    bad "seccomp violation: exit $rc, stderr: $(head -n 2 "$D/v.err" | tr '\n' ' ')"
vpid=$(echo "$msg" | sed -n 's/.*(pid \([0-9]*\)).*/\1/p')
if grep -q '^agreement: ' "$D/v.out" && [ -n "$vpid" ] && ! kill -0 "$vpid" 2>/dev/null; then
    ok "seccomp violation: the helper $vpid is gone, the analyser ended its run ($(grep -c 'HARNESS ERROR' "$D/v.out") frames named)"
else
    bad "seccomp violation: the analyser did not end its run, or the helper ${vpid:-?} lives"
fi
CSC_LIVE_TEST_SECCOMP=helper $AS_USER "$D/csumcheck" --live "$D/vxlan.pcap" > /dev/null 2> "$D/vu.err"
rc=$?
[ $rc = 2 ] && grep -q 'killed by its seccomp filter' "$D/vu.err" && ok "seccomp violation as the user: the same" ||
    bad "seccomp violation as the user: exit $rc: $(head -n 1 "$D/vu.err")"

echo "privsep: $((n - fail))/$n checks passed"
[ $fail = 0 ]
