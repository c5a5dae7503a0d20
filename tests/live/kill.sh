#!/bin/sh
# kill.sh - csumcheck --live killed at random moments leaves nothing behind
# (issues 19, 27): RUNS runs (default 10) over the given captures, each
# killed after a random delay with SIGKILL, SIGTERM or SIGINT in turn; after
# each, no process of the run is left (its session: the namespaces'
# processes, the VM runners, qemu), no link is there that was not there
# before, no network namespace held by a process of the run, no temporary
# file or folder (the job folders $TMPDIR/csc-live-vm.* or anything else, in
# a TMPDIR of the test's own) and no VM run folder
# (${CSC_CACHE}/vm/run.TAG.*) of the run; the BPF programs --live loads
# (csc_host) are reported (machine-wide). (Others' namespaces,
# links and folders that come and go meanwhile - a concurrent test run on
# this machine - are not the run's: the check is "nothing new of ours".)
# A SIGINT or SIGTERM must also end the run with 128 + the signal and a
# summary that says it was interrupted, with no harness error.
#   kill.sh CSUMCHECK BPF_PROGS [--kernel LIST] CAPTURE...
# With --kernel the runs go to those VM kernels (no root needed there).
# Exit 77 (skipped) where --live cannot run (not root, no TAP; no qemu).
set -u
CSC=$1 PROGS=$2
shift 2
KERNEL=
if [ "${1:-}" = --kernel ]; then
    KERNEL="--kernel $2"
    shift 2
fi
RUNS=${RUNS:-10}
CACHE=${CSC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/csumcheck}/vm
# the run's own job folders (a TMPDIR of its own) and VM run folders
# (csc-vm's run.TAG.*): others' runs on this machine are not the run's
TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/csc-kill.XXXXXX")
CSC_VM_RUN_TAG=kill$$
export TMPDIR CSC_VM_RUN_TAG
TMP=$TMPDIR
trap 'rm -rf "$TMP"' EXIT

# one whole run first: can --live run here, and how long does a run last
# (the kills are spread over it: a faster --live must still be killed
# inside its namespaces)
# Twice, and the shorter counts: the first run after a test that made many
# namespaces waits for the kernel to free them (cleanup_net holds the lock
# that creating one takes); in the ASan CI it took 20.6 s where the runs after
# it took under 11.5 s, and 8 of 10 kills came after the run had ended.
# (VM runs are long enough that their boot dominates: once for them.)
dur=
calib="1 2"; [ -n "$KERNEL" ] && calib=1
for k in $calib; do
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$CSC" --live $KERNEL -q "$@" >/dev/null 2>/tmp/csc-kill-pre.$$
    rc=$?
    d=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
    if [ $rc = 77 ]; then
        echo "SKIP: $(cat /tmp/csc-kill-pre.$$)"; rm -f /tmp/csc-kill-pre.$$; exit 77
    fi
    dur=$(awk -v a="${dur:-$d}" -v b="$d" 'BEGIN { printf "%.3f", (b < a ? b : a) }')
    echo "whole run $k: ${d} s"
done
rm -f /tmp/csc-kill-pre.$$
for tool in lsns setsid; do
    command -v $tool >/dev/null || { echo "SKIP: $tool not found"; exit 77; }
done

links() { ip -o link show | awk -F': ' '{print $2}' | sort; }
# the network namespaces one of whose processes is in session $1
netns_of() { lsns -n -t net -o NS,PID 2>/dev/null | while read -r ns p; do
                 [ "$(ps -o sid= -p "$p" 2>/dev/null | tr -d ' ')" = "$1" ] && echo "$ns"; done; }
progs() { "$PROGS" csc_host; }
# every file or folder in the run's own TMPDIR (job folders, anything else a
# run leaves there), and its VM run folders
dirs() { { find "$TMP" -mindepth 1 -maxdepth 1; ls -d "$CACHE"/run."$CSC_VM_RUN_TAG".* 2>/dev/null; } | sort; }
# newer NOW BEFORE: a line of NOW that BEFORE does not have (printed)
newer() { echo "$1" | while read -r x; do [ -n "$x" ] && ! echo "$2" | grep -qxF "$x" && echo "$x"; done; }

progs >/dev/null || { echo "SKIP: cannot list BPF programs"; exit 77; }
# The check run above tore its namespace down, but the kernel frees a dead
# namespace and its BPF programs later, from a workqueue (cleanup_net): wait
# for that (at most 10 s) before taking the "before" picture, or the picture
# holds what is about to go and every later comparison fails.
t=0
while [ "$(progs)" != 0 ] && [ $t -lt 100 ]; do sleep 0.1; t=$((t + 1)); done
L0=$(links) P0=$(progs) D0=$(dirs)
fail=0 mid=0
i=0
while [ $i -lt "$RUNS" ]; do
    i=$((i + 1))
    case $((i % 3)) in 0) sig=KILL ;; 1) sig=TERM ;; *) sig=INT ;; esac
    # 50 ms .. 70% of a whole run (at least 0.3 s): before, during and
    # between namespaces (a run's length varies with the machine's load:
    # with VMs, 3 of 6 kills up to 90% of it came after the run ended)
    delay=$(awk -v s="$$$i" -v d="$dur" 'BEGIN { srand(s); m = d * 0.7; if (m < 0.3) m = 0.3;
                                               printf "%.3f", 0.05 + rand() * (m - 0.05) }')
    # shellcheck disable=SC2086
    setsid "$CSC" --live $KERNEL "$@" >/tmp/csc-kill-out.$$ 2>&1 &
    pid=$!
    sleep "$delay"
    sid=$(ps -o sid= -p "$pid" 2>/dev/null | tr -d ' ')
    [ -n "$sid" ] || sid=$pid
    alive=$(ps -o pid= -s "$sid" 2>/dev/null | wc -l)
    [ "$alive" -ge 2 ] && mid=$((mid + 1))     # its namespace's process (or VM) was there
    kill -s $sig "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    st=$?
    # the namespace's process dies with its parent (PR_SET_PDEATHSIG), a VM
    # runner gets SIGTERM and takes qemu down, the kernel tears the
    # namespace down after it: allow it 10 s
    ok=0 t=0
    while [ $t -lt 100 ]; do
        left=$(ps -o pid= -s "$sid" 2>/dev/null | wc -l)
        # (BPF programs are counted machine-wide: another engineer's run
        # loads them too; the run's go with its namespaces, checked above)
        if [ "$left" = 0 ] && [ -z "$(newer "$(links)" "$L0")" ] && [ -z "$(netns_of "$sid")" ] &&
           [ -z "$(newer "$(dirs)" "$D0")" ]; then
            ok=1; break
        fi
        sleep 0.1; t=$((t + 1))
    done
    # a run that had ended before its kill says runs are shorter now than
    # the timing above (the kernel frees earlier namespaces as it goes): the
    # next kills are spread over what this one took at most
    if [ "$st" -le 2 ]; then
        dur=$(awk -v a="$dur" -v b="$delay" 'BEGIN { printf "%.3f", (b < a ? b : a) }')
    fi
    how=""
    # a SIGINT/SIGTERM the run caught: 128 + the signal, "INTERRUPTED" in the
    # summary when it got to its frames, never a harness error
    # (0, 1, 2: it ended before the signal came, with its usual statuses)
    if [ $sig != KILL ] && [ "$st" -gt 2 ]; then
        case $sig in INT) want=130 ;; *) want=143 ;; esac
        if [ "$st" != "$want" ]; then how=" exit $st (want $want)"; ok=0; fi
        if grep -q "HARNESS ERROR" /tmp/csc-kill-out.$$; then how="$how, a HARNESS ERROR line"; ok=0; fi
        if grep -q "^live:" /tmp/csc-kill-out.$$ && ! grep -q "INTERRUPTED by signal" /tmp/csc-kill-out.$$; then
            how="$how, a summary that does not say INTERRUPTED"; ok=0
        fi
    fi
    if [ $ok = 1 ]; then
        echo "run $i: SIG$sig after ${delay}s (exit $st; namespace or VM alive: $([ "$alive" -ge 2 ] && echo yes || echo no)): nothing left"
    else
        echo "run $i: SIG$sig after ${delay}s:$how LEFT BEHIND: processes $left, new links [$(newer "$(links)" "$L0" | tr '\n' ' ')], namespaces of the run [$(netns_of "$sid" | tr '\n' ' ')], csc_ BPF programs $(progs) (before $P0), new folders [$(newer "$(dirs)" "$D0" | tr '\n' ' ')]"
        fail=1
    fi
done
rm -f /tmp/csc-kill-out.$$
echo "$RUNS runs, $mid killed while a namespace or VM was up (a whole run, at the end: ${dur} s)"
# a kill that never met a namespace tests nothing: most must
[ $mid -ge $((RUNS / 2)) ] || { echo "FAIL: only $mid of $RUNS runs were killed inside a namespace"; fail=1; }
exit $fail
