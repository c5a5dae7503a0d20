/*
 * broker_test.c - the checks the --live helper applies to what the
 * analyser sends (live/broker.h): the lines the planner writes pass, and
 * lines that would reach outside the namespace, counts out of range and
 * strings without their end are refused; a reply out of range is refused
 * by the analyser. Exit 0 when every case is judged as it must be.
 */
#include "broker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails, n;

static void expect(const char *label, const char *why, int refused)
{
    n++;
    if ((why != NULL) != refused) {
        fails++;
        printf("FAIL: %s: %s\n", label, why ? why : "accepted");
    } else {
        printf("ok: %s: %s\n", label, why ? why : "accepted");
    }
}

static struct live_setup S;

static const char *one_line(const char *l)
{
    memset(&S, 0, sizeof S);
    S.level = -1;
    S.ncmds = 1;
    snprintf(S.cmds[0], sizeof S.cmds[0], "%s", l);
    return brk_setup_check(&S);
}

int main(void)
{
    /* lines as live/recv.c and live/plan.c write them */
    static const char *const good[] = {
        "ip link add vx4789 address 02:00:00:00:00:03 type vxlan external dstport 4789 nolearning",
        "ip -6 addr add 2001:db8::1/128 dev lo nodad",
        "ip -4 route replace local 10.0.0.1/32 dev lo",
        "ip route replace local fdcc::2/128 dev lo",
        "ip -4 neigh replace 10.0.0.2 lladdr 02:00:00:00:00:01 dev kd0 nud permanent",
        "ip fou add port 5555 gue",
        "ip -6 fou add port 5555 ipproto 47",
        "ip l2tp add tunnel tunnel_id 7 peer_tunnel_id 7 encap udp local 10.0.0.1 remote 10.0.0.2",
        "ip link set gre1 up",
        "@sysctl net.ipv4.conf.all.rp_filter=0",
        "@gro vx4789 off",
        "@vxlan vx4789 id 5 dstport 4789 nolearning remcsumrx",
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        expect(good[i], one_line(good[i]), 0);
    static const char *const bad[] = {
        "ip link set kd0 netns 1",                     /* a device to the host's namespace */
        "ip netns add x",                              /* a file under /run/netns */
        "ip -n other link add x type dummy",
        "ip -batch /etc/shadow",
        "ip link add v0 type veth peer name v1 netns 1",
        "@sysctl kernel.core_pattern=x",               /* the host's kernel settings */
        "@sysctl net/../kernel/core_pattern=x",
        "tc filter add dev kd0 ingress bpf da obj /tmp/x.o sec a",
        "ip link set dev kd0 xdp obj /tmp/x.o",
        "ip link add x type dummy\nip link set lo netns 1",   /* a second batch line */
        "ip link add \"x\" type dummy",
        "sh -c id",
        "ip monitor all",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        expect(bad[i], one_line(bad[i]), 1);

    /* counts and strings */
    one_line("ip link set lo up");
    S.ncmds = LIVE_MAX_CMDS + 1;
    expect("ncmds past the array", brk_setup_check(&S), 1);
    one_line("ip link set lo up");
    S.ndevs = 1;
    S.devs[0].ncmds = -1;
    expect("a device's negative line count", brk_setup_check(&S), 1);
    one_line("ip link set lo up");
    S.ndevs = 1;
    S.devs[0].nsent = 1;
    S.devs[0].sent_sock[0] = 0;                        /* no socket 0 */
    expect("a sentinel without its socket", brk_setup_check(&S), 1);
    one_line("ip link set lo up");
    memset(S.cmds[0], 'a', LIVE_CMD_LEN);
    expect("a line without its end", brk_setup_check(&S), 1);
    one_line("ip link set lo up");
    S.nsocks = 1;
    S.ndevs = 1;
    S.devs[0].nsent = 1;
    S.devs[0].sent[0].len = LIVE_MAX_FRAME + 1;
    expect("a sentinel longer than a jumbo frame", brk_setup_check(&S), 1);
    static struct brk_frame f;
    f.fr.len = LIVE_MAX_FRAME + 1;
    expect("a frame longer than a jumbo frame", brk_frame_check(&f), 1);
    f.fr.len = 60;
    f.dev = LIVE_MAX_DEVS;
    expect("a frame for a device past the array", brk_frame_check(&f), 1);
    f.dev = 1;
    expect("a frame of 60 bytes for device 1", brk_frame_check(&f), 0);
    live_frame_partial(&f.fr, 34, 6);
    expect("a frame with NEEDS_CSUM (live_frame_partial)", brk_frame_check(&f), 0);
    f.fr.vnet[1] = 1;                                  /* VIRTIO_NET_HDR_GSO_TCPV4 */
    expect("a frame with a GSO type", brk_frame_check(&f), 1);
    f.fr.vnet[1] = 0;
    f.fr.vnet[0] = 0x80;
    expect("a frame with an unknown virtio-net flag", brk_frame_check(&f), 1);

    /* replies */
    static struct brk_reply r;
    r.magic = BRK_MAGIC, r.type = BRK_RUN, r.seq = 9;
    expect("a reply in sequence", brk_reply_check(&r, BRK_RUN, 9), 0);
    expect("a reply of another request", brk_reply_check(&r, BRK_RUN, 8), 1);
    r.o.n = LIVE_MAX_VALUES + 1;
    expect("a reply with more counters than its array", brk_reply_check(&r, BRK_RUN, 9), 1);
    r.o.n = 1;
    memset(r.o.v[0].name, 'x', LIVE_NAME_LEN);
    expect("a counter name without its end", brk_reply_check(&r, BRK_RUN, 9), 1);
    r.o.n = 0;
    r.o.status = 7;
    expect("an observation of no status", brk_reply_check(&r, BRK_RUN, 9), 1);

    expect("a request type that does not exist", brk_payload_size(99) == SIZE_MAX ? "refused" : NULL, 1);
    printf("broker: %d/%d cases judged as they must be\n", n - fails, n);
    return fails ? 1 : 0;
}
