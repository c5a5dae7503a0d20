/*
 * judge.c - the class and counters of one frame's outcome, from the model
 * and from a kernel's observation (judge.h). The rules were worked out
 * case by case against five kernels by the differential test
 * (docs/kernel-diff.md); csumcheck --live judges with the same ones.
 */
#include "judge.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

const char *live_class_name(int k)
{
    static const char *const t[] = { "delivered", "outer-ip", "outer-l4", "tunnel", "inner-ip", "inner-l4",
                                     "silent-after-device", "silent", "unknown", "mixed" };
    return k >= 0 && k < LIVE_C__COUNT ? t[k] : "?";
}

/* Debian's 5.10, 6.1 and 6.12 have presets of their own (core/replay/era.c:
 * the series as Debian ships it, stable backports included); others go by
 * the release their series follows. */
const char *live_era_for_release(const char *release)
{
    static const struct { unsigned from; const char *era; } map[] = {
        { 7002, "7.2" }, { 6014, "modern" }, { 6012, "6.12" }, { 6001, "6.1" }, { 5012, "5.12" }, { 5010, "5.10" },
        { 4020, "4.20" }, { 4013, "4.13" }, { 4006, "4.6" }, { 4000, "4.0" }, { 3018, "3.18" },
    };
    unsigned maj = 0, min = 0;
    if (sscanf(release, "%u.%u", &maj, &min) != 2)
        return "modern";
    unsigned v = maj * 1000 + min;
    for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
        struct csc_era e;
        if (v >= map[i].from && csc_era_by_name(map[i].era, &e))
            return map[i].era;
    }
    return "pre-part-vi";
}

/* A kernel option of this machine's kernel: 1 built (y or m), 0 not set,
 * -1 no config to read */
static int local_config_has(const char *opt)
{
    struct utsname u;
    char cmd[256], line[256];
    if (uname(&u))
        return -1;
    snprintf(cmd, sizeof cmd,
             "{ gzip -dc /proc/config.gz || cat /boot/config-%s; } 2>/dev/null | grep -E '^(# )?%s[= ]'",
             u.release, opt);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    int has = -1;
    size_t ol = strlen(opt);
    while (fgets(line, sizeof line, p))
        if (!strncmp(line, opt, ol) && line[ol] == '=')
            has = line[ol + 1] == 'y' || line[ol + 1] == 'm';
        else if (!strncmp(line, "# ", 2) && !strncmp(line + 2, opt, ol))
            has = 0;
    pclose(p);
    return has;
}

bool live_kernel_mip6(const char *release)
{
    static int local = -2;
    struct utsname u;
    if (!release || uname(&u) || strcmp(release, u.release))
        return true;
    if (local == -2)
        local = local_config_has("CONFIG_IPV6_MIP6");
    return local != 0;
}

bool live_kernel_vlan_8021q(const char *release)
{
    static int local = -2;
    struct utsname u;
    if (!release || uname(&u) || strcmp(release, u.release))
        return true;
    if (local == -2)
        local = local_config_has("CONFIG_VLAN_8021Q");
    return local != 0;
}

bool live_kernel_llc(const char *release)
{
    struct utsname u;
    char line[128];
    if (!release || uname(&u) || strcmp(release, u.release))
        return false;
    FILE *f = fopen("/proc/net/ptype", "r");
    if (!f)
        return false;
    bool has = false;
    while (fgets(line, sizeof line, f))
        has |= !strncmp(line, "0004 ", 5);
    fclose(f);
    return has;
}

/* The first two IP headers: the one the frame arrives with and the one
 * the tunnel device delivers. */
static void ip_layers(const struct csc_result *r, int *outer, int *inner)
{
    *outer = *inner = -1;
    for (int i = 0; i < r->nlayers; i++) {
        if (r->layers[i].proto == CSC_P_ICMP || r->layers[i].proto == CSC_P_ICMPV6)
            break;                       /* what an ICMP error quotes is not a tunnel's packet */
        if (r->layers[i].proto == CSC_P_IPV4 || r->layers[i].proto == CSC_P_IPV6) {
            if (*outer < 0)
                *outer = i;
            else if (*inner < 0)
                *inner = i;
        }
    }
}

/* A transport the kernel counts its own errors for */
static int is_l4(uint8_t p)
{
    return p == CSC_P_TCP || p == CSC_P_UDP || p == CSC_P_ICMP || p == CSC_P_ICMPV6;
}

#define L4_COUNTERS                                                                                  \
    ((1u << CSC_C_UDP_IN_CSUM_ERRORS) | (1u << CSC_C_UDP_IN_ERRORS) | (1u << CSC_C_UDP6_IN_CSUM_ERRORS) | \
     (1u << CSC_C_UDP6_IN_ERRORS) | (1u << CSC_C_TCP_IN_CSUM_ERRORS) | (1u << CSC_C_TCP_IN_ERRS) |        \
     (1u << CSC_C_ICMP_IN_CSUM_ERRORS) | (1u << CSC_C_ICMP_IN_ERRORS) | (1u << CSC_C_ICMP6_IN_CSUM_ERRORS) | \
     (1u << CSC_C_ICMP6_IN_ERRORS))

#define DEV_COUNTERS                                                                                 \
    ((1u << CSC_C_DEV_RX_ERRORS) | (1u << CSC_C_DEV_RX_CRC_ERRORS) | (1u << CSC_C_DEV_RX_FRAME_ERRORS) |     \
     (1u << CSC_C_DEV_RX_DROPPED) | (1u << CSC_C_DEV_RX_LENGTH_ERRORS))

#define ICMP_ERROR_COUNTERS ((1u << CSC_C_ICMP_IN_ERRORS) | (1u << CSC_C_ICMP6_IN_ERRORS))

/* An ICMP message taken with Icmp[6]InErrors (icmp_socket_deliver's quote
 * without 8 bytes past its IP header: consume_skb) shows in the kernel's
 * counters as an ICMP error does: the class of a drop at the transport */
static int taken_with_icmp_errors_class(const struct csc_result *r)
{
    int outer, inner;
    ip_layers(r, &outer, &inner);
    return inner < 0 ? LIVE_C_OUTER_L4 : LIVE_C_INNER_L4;
}

int live_model_class(const struct csc_result *r)
{
    const struct csc_kernel *k = &r->kernel;
    if (k->verdict == CSC_K_ACCEPT)
        return k->counters & ICMP_ERROR_COUNTERS ? taken_with_icmp_errors_class(r) : LIVE_C_DELIVERED;
    if (k->verdict != CSC_K_DROP || k->drop_layer >= r->nlayers)
        return LIVE_C_UNKNOWN;
    int outer, inner;
    ip_layers(r, &outer, &inner);
    int d = k->drop_layer;
    uint8_t p = r->layers[d].proto;
    /* the NIC's IP header that the decoder refused has no layer: the
     * replay drops it at the Ethernet before it, with ip_rcv_core's
     * counters (core/replay/rx.c:ip_rcv_core_refused) */
    if (outer < 0 && p == CSC_P_ETH && d + 1 == r->nlayers && k->counters)
        return LIVE_C_OUTER_IP;
    if (outer < 0)
        return LIVE_C_UNKNOWN;
    /* a frame no packet handler took before its IP header (the ninth of a
     * stack of priority tags, rx.c:priority_tag_depth_exceeded) counts only
     * the NIC's rx_dropped: what the kernel's class calls silent with no
     * tunnel, and a drop before the tunnel device with one */
    if (p == CSC_P_VLAN && d < outer && k->counters == (1u << CSC_C_NIC_RX_DROPPED))
        return inner < 0 ? LIVE_C_SILENT : LIVE_C_TUNNEL;
    /* a transport header too short to decode has no layer: the replay drops
     * it at the IP layer before it (core/replay/pull.c), counting the
     * transport's own errors - the transport's class */
    if ((p == CSC_P_IPV4 || p == CSC_P_IPV6) && d + 1 == r->nlayers && (k->counters & L4_COUNTERS))
        return d == outer ? LIVE_C_OUTER_L4 : LIVE_C_INNER_L4;
    /* ... and a tunnel header after UDP that the device counts (GENEVE
     * options past the packet: rx_dropped) at the UDP layer before it */
    if (p == CSC_P_UDP && d + 1 == r->nlayers && k->counters && !(k->counters & ~DEV_COUNTERS))
        return LIVE_C_TUNNEL;
    /* ... and a GRE header too short to decode, dropped by 7.2's gre_rcv
     * with the receiving device's rx_dropped, at the IP layer before it */
    if ((p == CSC_P_IPV4 || p == CSC_P_IPV6) && d + 1 == r->nlayers &&
        k->counters == (1u << CSC_C_NIC_RX_DROPPED))
        return LIVE_C_TUNNEL;
    /* ... and the inner IP header the packet does not hold, which the
     * tunnel device took and ip_rcv_core refused (core/replay/pull.c,
     * rx.c:tunnel_dev_short_ip), at the inner Ethernet before it */
    if (p == CSC_P_ETH && d > outer && d + 1 == r->nlayers && k->ndevs >= 2 &&
        (k->counters & ((1u << CSC_C_IP_IN_HDR_ERRORS) | (1u << CSC_C_IP6_IN_HDR_ERRORS))))
        return LIVE_C_INNER_IP;
    if (d <= outer)
        return LIVE_C_OUTER_IP;
    /* a transport that drops before it counts anything (tcp_v4_rcv on a
     * pkt_type not PACKET_HOST, ping_rcv with no ping socket) is silent;
     * TCP with no listener still counts InSegs */
    int tcp_no_listener = p == CSC_P_TCP && !strcmp(csc_drop_name(k->drop_reason), "NO_SOCKET");
    int silent_l4 = is_l4(p) && !k->counters && !tcp_no_listener;
    if (inner < 0) {
        /* no tunnel: the transport is the outer L4; or the stack ends in
         * the tunnel header (a version it does not parse) */
        if (silent_l4)
            return LIVE_C_SILENT;
        if (is_l4(p))
            return LIVE_C_OUTER_L4;
        inner = r->nlayers;
    }
    /* a frame the tunnel device took that a packet handler freed without
     * a counter (llc_rcv on an inner 802.2 frame, core/replay/rx.c:
     * teb_8023_no_handler) */
    if (d < inner && p == CSC_P_ETH && d > outer && !k->counters && k->ndevs >= 2)
        return LIVE_C_INNER_SILENT;
    if (d < inner)
        return p == CSC_P_UDP && d == outer + 1 ? LIVE_C_OUTER_L4 : LIVE_C_TUNNEL;
    /* IP in IP has no tunnel header: a drop the tunnel's receive makes on
     * the inner header before the device counts it (ip_tunnel_rcv's ECN
     * check) names the inner IP layer and counts device statistics only */
    uint32_t dev_only = (1u << CSC_C_DEV_RX_ERRORS) | (1u << CSC_C_DEV_RX_CRC_ERRORS) |
                        (1u << CSC_C_DEV_RX_FRAME_ERRORS) | (1u << CSC_C_DEV_RX_DROPPED) |
                        (1u << CSC_C_DEV_RX_LENGTH_ERRORS);
    if (d == inner && k->counters && !(k->counters & ~dev_only))
        return LIVE_C_TUNNEL;
    /* ... and a GRE header inside it that 7.2's gre_rcv refuses, counted
     * in the rx_dropped of the device that decapsulated it (GRE in IPIP:
     * core/replay/pull.c:gre_drop_nic) */
    if (d > inner && p == CSC_P_GRE && k->counters == (1u << CSC_C_DEV_RX_DROPPED))
        return LIVE_C_TUNNEL;
    /* past the device, an IP-level drop that counts nothing
     * (PACKET_OTHERHOST) shows in the kernel only as "reached the device,
     * then nothing" (a TCP segment with no listener still counts InSegs) */
    if (!k->counters && (!is_l4(p) || silent_l4))
        return LIVE_C_INNER_SILENT;
    if (d == inner)
        return LIVE_C_INNER_IP;
    return is_l4(p) ? LIVE_C_INNER_L4 : LIVE_C_INNER_IP;
}

/* Device statistics the kernel may move on a drop; the model names some
 * (dev:rx_errors ...), the others must not move unless it does. */
static const char *const DEV_STATS[LIVE_N_DEV_STATS] = { "rx_errors", "rx_crc_errors", "rx_frame_errors",
                                                         "rx_dropped", "rx_fifo_errors", "rx_length_errors",
                                                         "rx_over_errors" };

const char *live_dev_stat_name(unsigned k)
{
    return k < LIVE_N_DEV_STATS ? DEV_STATS[k] : "?";
}

static int64_t dev_stat(const struct live_obs *o, const char *dev, const char *stat)
{
    char name[LIVE_NAME_LEN];
    if (!dev)
        return 0;
    snprintf(name, sizeof name, "dev:%s:%s", dev, stat);
    return live_obs_get(o, name);
}

/* A frame with no tunnel: the IP header, then its transport. */
static int plain_class(const struct live_obs *o, int nosock, int delivered)
{
    if (delivered)
        return LIVE_C_DELIVERED;
    if (live_obs_get(o, "IpInHdrErrors") || live_obs_get(o, "IpExtInCsumErrors") ||
        live_obs_get(o, "Ip6InHdrErrors") || live_obs_get(o, "IpExtInTruncatedPkts") ||
        live_obs_get(o, "Ip6InTruncatedPkts") || live_obs_get(o, "IpInUnknownProtos") ||
        live_obs_get(o, "Ip6InUnknownProtos") ||
        live_obs_get(o, "Ip6InAddrErrors"))
        return LIVE_C_OUTER_IP;
    static const char *const l4[] = { "UdpInErrors", "UdpInCsumErrors", "Udp6InErrors", "Udp6InCsumErrors",
                                      "UdpNoPorts", "Udp6NoPorts", "TcpInErrs", "TcpInCsumErrors",
                                      "IcmpInErrors", "IcmpInCsumErrors", "Icmp6InErrors",
                                      "Icmp6InCsumErrors" };
    for (size_t i = 0; i < sizeof l4 / sizeof *l4; i++)
        if (live_obs_get(o, l4[i]))
            return LIVE_C_OUTER_L4;
    if (nosock && live_obs_get(o, "TcpInSegs"))
        return LIVE_C_OUTER_L4;          /* no listener: TCP answers with a reset */
    return LIVE_C_SILENT;
}

int live_kernel_class(const struct live_obs *o, const char *dev, int nosock, int in6, int delivered)
{
    if (!dev)
        return plain_class(o, nosock, delivered);
    if (delivered)
        return LIVE_C_DELIVERED;
    int at_dev = dev_stat(o, dev, "rx_packets") > 0;
    if (live_obs_get(o, "IpInHdrErrors") || live_obs_get(o, "IpExtInCsumErrors") ||
        live_obs_get(o, "Ip6InHdrErrors") || live_obs_get(o, "IpExtInTruncatedPkts") ||
        live_obs_get(o, "Ip6InTruncatedPkts") || live_obs_get(o, "IpInUnknownProtos") ||
        live_obs_get(o, "Ip6InUnknownProtos") ||
        live_obs_get(o, "Ip6InAddrErrors"))
        return at_dev ? LIVE_C_INNER_IP : LIVE_C_OUTER_IP;
    if (!at_dev && (live_obs_get(o, "UdpInErrors") || live_obs_get(o, "UdpInCsumErrors") ||
                    live_obs_get(o, "Udp6InErrors") || live_obs_get(o, "Udp6InCsumErrors") ||
                    live_obs_get(o, "UdpNoPorts") || live_obs_get(o, "Udp6NoPorts")))
        return LIVE_C_OUTER_L4;
    /* a transport other than the tunnel's UDP ended it before the device
     * (its IP protocol was not the tunnel's) */
    if (!at_dev && (live_obs_get(o, "TcpInErrs") || live_obs_get(o, "TcpInCsumErrors") ||
                    live_obs_get(o, "IcmpInErrors") || live_obs_get(o, "Icmp6InErrors") ||
                    (nosock && live_obs_get(o, "TcpInSegs"))))
        return LIVE_C_OUTER_L4;
    for (size_t k = 0; k < LIVE_N_DEV_STATS; k++)
        if (dev_stat(o, dev, DEV_STATS[k]))
            return LIVE_C_TUNNEL;
    if (!at_dev)
        return LIVE_C_TUNNEL;            /* past the outer checks, never reached the device */
    if (nosock && (live_obs_get(o, "UdpNoPorts") || live_obs_get(o, "Udp6NoPorts") ||
                   live_obs_get(o, "TcpInSegs")))
        return LIVE_C_INNER_L4;          /* no listener: NoPorts, or TCP answers with a reset */
    if (live_obs_get(o, "TcpInErrs") || live_obs_get(o, "TcpInCsumErrors") ||
        live_obs_get(o, in6 ? "Udp6InErrors" : "UdpInErrors") ||
        live_obs_get(o, in6 ? "Udp6InCsumErrors" : "UdpInCsumErrors") ||
        live_obs_get(o, in6 ? "Icmp6InErrors" : "IcmpInErrors"))
        return LIVE_C_INNER_L4;
    return LIVE_C_INNER_SILENT;
}

/* ---- counters ---- */

/* The model counter a device statistic is (-1: the model has none) */
static int model_counter_of_dev_stat(size_t k)
{
    char want[40];
    snprintf(want, sizeof want, "dev:%s", DEV_STATS[k]);
    for (unsigned i = 0; i < CSC_C__COUNT; i++)
        if (!strcmp(csc_counter_name(i), want))
            return (int)i;
    return -1;
}

const char *live_count_name(unsigned i)
{
    static char buf[40];
    if (i < CSC_C__COUNT)
        return csc_counter_name(i);
    snprintf(buf, sizeof buf, "dev:%s", live_dev_stat_name(i - CSC_C__COUNT));
    return buf;
}

void live_model_counts(uint32_t counters, int64_t *cnt)
{
    for (unsigned k = 0; k < CSC_C__COUNT; k++)
        if (counters & (1u << k))
            cnt[k]++;
}

void live_model_counts_finish(int64_t *cnt)
{
    for (size_t k = 0; k < LIVE_N_DEV_STATS; k++) {
        int m = model_counter_of_dev_stat(k);
        cnt[CSC_C__COUNT + k] = m >= 0 ? cnt[m] : 0;
    }
}

/* The kernel counter a model counter stands for: nstat's names are shared
 * (csc_counter_name); "dev:X" is the tunnel device's X. */
void live_kernel_counts(const struct live_obs *o, const char *dev, int64_t *cnt)
{
    for (unsigned i = 0; i < CSC_C__COUNT; i++) {
        const char *name = csc_counter_name(i);
        cnt[i] = !strncmp(name, "dev:", 4)   ? dev_stat(o, dev, name + 4)
                 : !strncmp(name, "nic:", 4) ? dev_stat(o, LIVE_TAP_NAME, name + 4)   /* the TAP */
                                             : live_obs_get(o, name);
    }
    for (size_t s = 0; s < LIVE_N_DEV_STATS; s++)
        cnt[CSC_C__COUNT + s] = dev_stat(o, dev, DEV_STATS[s]);
}

static int dev_named_by_model(unsigned i)
{
    return i >= CSC_C__COUNT && model_counter_of_dev_stat(i - CSC_C__COUNT) >= 0;
}

void live_counts_text(const int64_t *cnt, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < LIVE_N_CNT && o < n; i++) {
        if (!cnt[i] || dev_named_by_model(i))
            continue;
        if (cnt[i] == 1)
            o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? "," : "", live_count_name(i));
        else
            o += (size_t)snprintf(buf + o, n - o, "%s%lldx%s", o ? "," : "", (long long)cnt[i],
                                  live_count_name(i));
    }
    if (!o)
        snprintf(buf, n, "-");
}

int live_counts_diff(const int64_t *model, const int64_t *kernel)
{
    for (unsigned i = 0; i < LIVE_N_CNT; i++)
        if (model[i] != kernel[i])
            return (int)i;
    return -1;
}
