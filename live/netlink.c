/*
 * netlink.c - the two things iproute2 cannot do for the harness: read the
 * statistics of the links that matter in one call each (RTM_GETSTATS,
 * instead of ten sysfs files per device per snapshot), and
 * make a VXLAN device with remote checksum offload in nopartial mode
 * (IFLA_VXLAN_REMCSUM_NOPARTIAL has no iproute2 keyword).
 */
#define _GNU_SOURCE
#include "live_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int nl_socket(void)
{
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    if (fd < 0)
        return -1;
    struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* ---- link statistics ---- */

static void put_stat(struct snap *s, const char *dev, const char *stat, uint64_t v)
{
    char pfx[LIVE_NAME_LEN];
    int pl = snprintf(pfx, sizeof pfx, "dev:%s:", dev);
    snap_put(s, pfx, pl > 0 ? (size_t)pl : 0, stat, strlen(stat), (int64_t)v);
}

static void link_stats(struct snap *s, const char *name, const struct rtnl_link_stats64 *st)
{
    put_stat(s, name, "rx_packets", st->rx_packets);
    put_stat(s, name, "rx_bytes", st->rx_bytes);
    put_stat(s, name, "rx_errors", st->rx_errors);
    put_stat(s, name, "rx_dropped", st->rx_dropped);
    put_stat(s, name, "rx_length_errors", st->rx_length_errors);
    put_stat(s, name, "rx_over_errors", st->rx_over_errors);
    put_stat(s, name, "rx_crc_errors", st->rx_crc_errors);
    put_stat(s, name, "rx_frame_errors", st->rx_frame_errors);
    put_stat(s, name, "rx_fifo_errors", st->rx_fifo_errors);
    put_stat(s, name, "rx_missed_errors", st->rx_missed_errors);
    put_stat(s, name, "rx_nohandler", st->rx_nohandler);
}

/* RTM_GETSTATS with only IFLA_STATS_LINK_64 (Linux 4.7): the kernel fills
 * one attribute, where RTM_GETLINK fills every one a link has. */
static const struct rtnl_link_stats64 *stats_of(struct nlmsghdr *h, struct rtnl_link_stats64 *copy)
{
    struct if_stats_msg *ifs = NLMSG_DATA(h);
    int alen = (int)h->nlmsg_len - (int)NLMSG_LENGTH(sizeof *ifs);
    for (struct rtattr *a = (struct rtattr *)((char *)ifs + NLMSG_ALIGN(sizeof *ifs)); RTA_OK(a, alen);
         a = RTA_NEXT(a, alen)) {
        if (a->rta_type != IFLA_STATS_LINK_64 || RTA_PAYLOAD(a) < offsetof(struct rtnl_link_stats64, rx_nohandler))
            continue;
        memset(copy, 0, sizeof *copy);
        memcpy(copy, RTA_DATA(a), RTA_PAYLOAD(a) < sizeof *copy ? RTA_PAYLOAD(a) : sizeof *copy);
        return copy;
    }
    return NULL;
}

/* Many links: one dump of every link's statistics, put in the order asked */
static int link_stats_dump(int fd, struct snap *s, const int *ifindex, char (*ifname)[16], int nif)
{
    static struct rtnl_link_stats64 got[1024];
    static uint8_t have[1024];
    if (nif > 1024)
        nif = 1024;
    memset(have, 0, (size_t)nif);
    struct {
        struct nlmsghdr h;
        struct if_stats_msg ifs;
    } req;
    memset(&req, 0, sizeof req);
    req.h.nlmsg_len = sizeof req;
    req.h.nlmsg_type = RTM_GETSTATS;
    req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    req.h.nlmsg_seq = 1000;
    req.ifs.family = AF_UNSPEC;
    req.ifs.filter_mask = IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_64);
    if (send(fd, &req, sizeof req, 0) < 0)
        return -1;
    static char buf[32768];
    for (int done = 0; !done;) {
        ssize_t r = recv(fd, buf, sizeof buf, 0);
        if (r <= 0)
            return -1;
        int len = (int)r;
        for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
            if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
                done = 1;
                break;
            }
            if (h->nlmsg_type != RTM_NEWSTATS)
                continue;
            const struct if_stats_msg *ifs = NLMSG_DATA(h);
            for (int i = 0; i < nif; i++)
                if ((uint32_t)ifindex[i] == ifs->ifindex && stats_of(h, &got[i]))
                    have[i] = 1;
        }
    }
    for (int i = 0; i < nif; i++)
        if (have[i] && strcmp(ifname[i], "lo"))
            link_stats(s, ifname[i], &got[i]);
    return 0;
}

int nl_link_stats(struct snap *s, const int *ifindex, char (*ifname)[16], int nif)
{
    static int fd = -1;
    if (fd < 0 && (fd = nl_socket()) < 0)
        return -1;
    if (nif > 4)
        return link_stats_dump(fd, s, ifindex, ifname, nif);
    for (int i = 0; i < nif; i++) {
        if (!strcmp(ifname[i], "lo"))
            continue;                  /* what the namespace sends itself */
        struct {
            struct nlmsghdr h;
            struct if_stats_msg ifs;
        } req;
        memset(&req, 0, sizeof req);
        req.h.nlmsg_len = sizeof req;
        req.h.nlmsg_type = RTM_GETSTATS;
        req.h.nlmsg_flags = NLM_F_REQUEST;
        req.h.nlmsg_seq = (uint32_t)i + 1;
        req.ifs.family = AF_UNSPEC;
        req.ifs.ifindex = (uint32_t)ifindex[i];
        req.ifs.filter_mask = IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_64);
        if (send(fd, &req, sizeof req, 0) < 0)
            return -1;
        static char buf[4096];
        ssize_t got = recv(fd, buf, sizeof buf, 0);
        if (got <= 0)
            return -1;
        int len = (int)got;
        struct rtnl_link_stats64 copy;
        for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len))
            if (h->nlmsg_type == RTM_NEWSTATS && stats_of(h, &copy))
                link_stats(s, ifname[i], &copy);
    }
    return 0;
}

/* ---- @vxlan ---- */

struct nl_req {
    struct nlmsghdr h;
    struct ifinfomsg ifi;
    char attrs[512];
};

static struct rtattr *nl_put(struct nl_req *r, unsigned short type, const void *data, size_t len)
{
    size_t at = NLMSG_ALIGN(r->h.nlmsg_len);
    if (at + RTA_SPACE(len) > sizeof *r)
        return NULL;
    struct rtattr *a = (struct rtattr *)((char *)r + at);
    a->rta_type = type;
    a->rta_len = (unsigned short)RTA_LENGTH(len);
    if (len)
        memcpy(RTA_DATA(a), data, len);
    r->h.nlmsg_len = (uint32_t)(at + RTA_ALIGN(a->rta_len));
    return a;
}

static void nl_end(struct nl_req *r, struct rtattr *nest)
{
    nest->rta_len = (unsigned short)((char *)r + r->h.nlmsg_len - (char *)nest);
}

static int nl_talk(struct nl_req *r, char *err, size_t n, const char *what)
{
    int fd = nl_socket();
    if (fd < 0) {
        snprintf(err, n, "netlink socket: %s", strerror(errno));
        return -1;
    }
    if (send(fd, r, r->h.nlmsg_len, 0) < 0) {
        snprintf(err, n, "%s: %s", what, strerror(errno));
        close(fd);
        return -1;
    }
    char buf[4096];
    ssize_t got = recv(fd, buf, sizeof buf, 0);
    close(fd);
    struct nlmsghdr *h = (struct nlmsghdr *)buf;
    if (got < (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)) || h->nlmsg_type != NLMSG_ERROR) {
        snprintf(err, n, "%s: no answer", what);
        return -1;
    }
    const struct nlmsgerr *e = NLMSG_DATA(h);
    if (e->error) {
        snprintf(err, n, "%s: %s", what, strerror(-e->error));
        return -1;
    }
    return 0;
}

static int parse_mac(const char *s, uint8_t mac[6])
{
    unsigned b[6];
    if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6)
        return -1;
    for (int i = 0; i < 6; i++)
        mac[i] = (uint8_t)b[i];
    return 0;
}

/* @vxlan NAME [address MAC] id VNI dstport PORT local ADDR [nolearning]
 *        [remcsumrx|noremcsumrx] [remcsum-nopartial] [udp6zerocsumrx]
 * The same words as `ip link add NAME type vxlan ...`, plus
 * remcsum-nopartial. Like iproute2, the remcsumrx attribute is sent only
 * when a word asks for it: since v6.14 its mere presence, even as 0, takes
 * the RCO bits out of the reserved set. */
static int builtin_vxlan(int argc, char **argv, char *err, size_t n)
{
    struct nl_req r;
    memset(&r, 0, sizeof r);
    r.h.nlmsg_len = NLMSG_LENGTH(sizeof r.ifi);
    r.h.nlmsg_type = RTM_NEWLINK;
    r.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL;
    r.h.nlmsg_seq = 1;
    r.ifi.ifi_family = AF_UNSPEC;
    if (argc < 2) {
        snprintf(err, n, "@vxlan: no name");
        return -1;
    }
    nl_put(&r, IFLA_IFNAME, argv[1], strlen(argv[1]) + 1);
    uint8_t mac[6];
    int i = 2;
    if (i + 1 < argc && !strcmp(argv[i], "address")) {
        if (parse_mac(argv[i + 1], mac)) {
            snprintf(err, n, "@vxlan: bad address %s", argv[i + 1]);
            return -1;
        }
        nl_put(&r, IFLA_ADDRESS, mac, sizeof mac);
        i += 2;
    }
    struct rtattr *li = nl_put(&r, IFLA_LINKINFO, NULL, 0);
    nl_put(&r, IFLA_INFO_KIND, "vxlan", 5);
    struct rtattr *data = nl_put(&r, IFLA_INFO_DATA, NULL, 0);
    uint8_t zero = 0, one = 1;
    for (; i < argc; i++) {
        const char *w = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(w, "id") && v) {
            uint32_t vni = (uint32_t)strtoul(v, NULL, 10);
            nl_put(&r, IFLA_VXLAN_ID, &vni, sizeof vni);
            i++;
        } else if (!strcmp(w, "dstport") && v) {
            uint16_t port = htons((uint16_t)strtoul(v, NULL, 10));
            nl_put(&r, IFLA_VXLAN_PORT, &port, sizeof port);
            i++;
        } else if (!strcmp(w, "local") && v) {
            uint8_t a[16];
            if (inet_pton(AF_INET, v, a) == 1)
                nl_put(&r, IFLA_VXLAN_LOCAL, a, 4);
            else if (inet_pton(AF_INET6, v, a) == 1)
                nl_put(&r, IFLA_VXLAN_LOCAL6, a, 16);
            else {
                snprintf(err, n, "@vxlan: bad local %s", v);
                return -1;
            }
            i++;
        } else if (!strcmp(w, "nolearning")) {
            nl_put(&r, IFLA_VXLAN_LEARNING, &zero, 1);
        } else if (!strcmp(w, "remcsumrx")) {
            nl_put(&r, IFLA_VXLAN_REMCSUM_RX, &one, 1);
        } else if (!strcmp(w, "noremcsumrx")) {
            nl_put(&r, IFLA_VXLAN_REMCSUM_RX, &zero, 1);
        } else if (!strcmp(w, "remcsum-nopartial")) {
            nl_put(&r, IFLA_VXLAN_REMCSUM_NOPARTIAL, NULL, 0);
        } else if (!strcmp(w, "udp6zerocsumrx")) {
            if (!nl_put(&r, IFLA_VXLAN_UDP_ZERO_CSUM6_RX, &one, 1)) {
                snprintf(err, n, "@vxlan: request too long");
                return -1;
            }
        } else {
            snprintf(err, n, "@vxlan: unknown word %s", w);
            return -1;
        }
    }
    nl_end(&r, data);
    nl_end(&r, li);
    return nl_talk(&r, err, n, "RTM_NEWLINK vxlan");
}

const char *live_builtin_names(void)
{
    return "@vxlan NAME ... (ip link add NAME type vxlan ... + remcsum-nopartial), "
           "@sysctl path.to.key=VALUE";
}

/* @sysctl net.ipv4.conf.all.rp_filter=0: written under /proc/sys (the
 * namespace's own copy for net.*) */
static int builtin_sysctl(int argc, char **argv, char *err, size_t n)
{
    for (int i = 1; i < argc; i++) {
        char path[160];
        const char *eq = strchr(argv[i], '=');
        if (!eq) {
            snprintf(err, n, "@sysctl: %s has no value", argv[i]);
            return -1;
        }
        int k = snprintf(path, sizeof path, "/proc/sys/%.*s", (int)(eq - argv[i]), argv[i]);
        for (char *c = path + 10; c < path + k; c++)
            if (*c == '.')
                *c = '/';
        FILE *f = fopen(path, "w");
        int bad = !f || fputs(eq + 1, f) < 0;
        if ((f && fclose(f) != 0) || bad) {
            snprintf(err, n, "@sysctl %s: %s", argv[i], strerror(errno));
            return -1;
        }
    }
    return 0;
}

int builtin_run(int argc, char **argv, char *err, size_t n)
{
    if (!strcmp(argv[0], "@vxlan"))
        return builtin_vxlan(argc, argv, err, n);
    if (!strcmp(argv[0], "@sysctl"))
        return builtin_sysctl(argc, argv, err, n);
    snprintf(err, n, "unknown built-in %s (%s)", argv[0], live_builtin_names());
    return -1;
}
