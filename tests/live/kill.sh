#!/bin/sh
# kill.sh - csumcheck --live killed at random moments leaves nothing behind
# (issue 19): RUNS runs (default 10) over the given captures, each killed
# after a random delay with SIGKILL, SIGTERM or SIGINT in turn; after each,
# no process of the run is left, no link or network namespace is there that
# was not there before, and no more BPF programs --live loads (csc_host, on
# its tunnel devices) than before are left anywhere. (Others' namespaces and
# links that go away meanwhile - a concurrent test run on this machine - are
# not the run's: the check is "nothing new", not "the same set".)
#   kill.sh CSUMCHECK BPF_PROGS CAPTURE...
# Exit 77 (skipped) where --live cannot run (not root, no TAP).
set -u
CSC=$1 PROGS=$2
shift 2
RUNS=${RUNS:-10}

# one whole run first: can --live run here, and how long does a run last
# (the kills are spread over it: a faster --live must still be killed
# inside its namespaces)
t0=$(date +%s.%N)
"$CSC" --live -q "$@" >/dev/null 2>/tmp/csc-kill-pre.$$
rc=$?
dur=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
if [ $rc = 77 ]; then
    echo "SKIP: $(cat /tmp/csc-kill-pre.$$)"; rm -f /tmp/csc-kill-pre.$$; exit 77
fi
rm -f /tmp/csc-kill-pre.$$
for tool in lsns setsid; do
    command -v $tool >/dev/null || { echo "SKIP: $tool not found"; exit 77; }
done

links() { ip -o link show | awk -F': ' '{print $2}' | sort; }
netns() { lsns -n -t net -o NS 2>/dev/null | sort -u; }
progs() { "$PROGS" csc_host; }
# newer NOW BEFORE: a line of NOW that BEFORE does not have (printed)
newer() { echo "$1" | while read -r x; do [ -n "$x" ] && ! echo "$2" | grep -qxF "$x" && echo "$x"; done; }

progs >/dev/null || { echo "SKIP: cannot list BPF programs"; exit 77; }
# The check run above tore its namespace down, but the kernel frees a dead
# namespace and its BPF programs later, from a workqueue (cleanup_net): wait
# for that (at most 10 s) before taking the "before" picture, or the picture
# holds what is about to go and every later comparison fails.
t=0
while [ "$(progs)" != 0 ] && [ $t -lt 100 ]; do sleep 0.1; t=$((t + 1)); done
L0=$(links) N0=$(netns) P0=$(progs)
fail=0 mid=0
i=0
while [ $i -lt "$RUNS" ]; do
    i=$((i + 1))
    case $((i % 3)) in 0) sig=KILL ;; 1) sig=TERM ;; *) sig=INT ;; esac
    # 50 ms .. 90% of a whole run (at least 0.3 s): before, during and
    # between namespaces
    delay=$(awk -v s="$$$i" -v d="$dur" 'BEGIN { srand(s); m = d * 0.9; if (m < 0.3) m = 0.3;
                                               printf "%.3f", 0.05 + rand() * (m - 0.05) }')
    setsid "$CSC" --live -q "$@" >/dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    sid=$(ps -o sid= -p "$pid" 2>/dev/null | tr -d ' ')
    [ -n "$sid" ] || sid=$pid
    alive=$(ps -o pid= -s "$sid" 2>/dev/null | wc -l)
    [ "$alive" -ge 2 ] && mid=$((mid + 1))     # its namespace's process was there
    kill -s $sig "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    # the namespace's process dies with its parent (PR_SET_PDEATHSIG) and the
    # kernel tears the namespace down after it: allow it 5 s
    ok=0 t=0
    while [ $t -lt 50 ]; do
        left=$(ps -o pid= -s "$sid" 2>/dev/null | wc -l)
        if [ "$left" = 0 ] && [ -z "$(newer "$(links)" "$L0")" ] && [ -z "$(newer "$(netns)" "$N0")" ] &&
           [ "$(progs)" -le "$P0" ]; then
            ok=1; break
        fi
        sleep 0.1; t=$((t + 1))
    done
    if [ $ok = 1 ]; then
        echo "run $i: SIG$sig after ${delay}s (namespace process alive: $([ "$alive" -ge 2 ] && echo yes || echo no)): nothing left"
    else
        echo "run $i: SIG$sig after ${delay}s: LEFT BEHIND: processes $left, new links [$(newer "$(links)" "$L0" | tr '\n' ' ')], new namespaces [$(newer "$(netns)" "$N0" | tr '\n' ' ')], csc_ BPF programs $(progs) (before $P0)"
        fail=1
    fi
done
echo "$RUNS runs, $mid killed while a namespace was up (a whole run: ${dur} s)"
# a kill that never met a namespace tests nothing: most must
[ $mid -ge $((RUNS / 2)) ] || { echo "FAIL: only $mid of $RUNS runs were killed inside a namespace"; fail=1; }
exit $fail
