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
#include <elf.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/ethtool.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

/* NLMSG_OK without its comparison of a signed length with nlmsg_len (clang's -Wsign-compare) */
static int nl_ok(const struct nlmsghdr *h, int len)
{
    return len >= (int)sizeof *h && h->nlmsg_len >= sizeof *h && h->nlmsg_len <= (unsigned)len;
}

static int nl_socket(void)
{
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    if (fd < 0)
        return -1;
    struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
    int on = 1;                      /* refusals in the kernel's words (extack_text) */
    (void)setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &on, sizeof on);
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

/* An RTM_GETSTATS request for IFLA_STATS_LINK_64: one link (ifindex), or
 * every link with NLM_F_DUMP (ifindex 0) */
static int stats_request(int fd, uint16_t flags, uint32_t seq, uint32_t ifindex)
{
    struct {
        struct nlmsghdr h;
        struct if_stats_msg ifs;
    } req;
    memset(&req, 0, sizeof req);
    req.h.nlmsg_len = sizeof req;
    req.h.nlmsg_type = RTM_GETSTATS;
    req.h.nlmsg_flags = flags;
    req.h.nlmsg_seq = seq;
    req.ifs.family = AF_UNSPEC;
    req.ifs.ifindex = ifindex;
    req.ifs.filter_mask = IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_64);
    return send(fd, &req, sizeof req, 0) < 0 ? -1 : 0;
}

/* Many links: one dump of every link's statistics, put in the order asked */
static int link_stats_dump(int fd, struct snap *s, const int *ifindex, char (*ifname)[16], int nif)
{
    static struct rtnl_link_stats64 got[1024];
    static uint8_t have[1024];
    if (nif > 1024)
        nif = 1024;
    memset(have, 0, (size_t)nif);
    if (stats_request(fd, NLM_F_REQUEST | NLM_F_DUMP, 1000, 0) < 0)
        return -1;
    static char buf[32768];
    for (int done = 0; !done;) {
        ssize_t r = recv(fd, buf, sizeof buf, 0);
        if (r <= 0)
            return -1;
        int len = (int)r;
        for (struct nlmsghdr *h = (struct nlmsghdr *)buf; nl_ok(h, len); h = NLMSG_NEXT(h, len)) {
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
        if (stats_request(fd, NLM_F_REQUEST, (uint32_t)i + 1, (uint32_t)ifindex[i]) < 0)
            return -1;
        static char buf[4096];
        ssize_t got = recv(fd, buf, sizeof buf, 0);
        if (got <= 0)
            return -1;
        int len = (int)got;
        struct rtnl_link_stats64 copy;
        for (struct nlmsghdr *h = (struct nlmsghdr *)buf; nl_ok(h, len); h = NLMSG_NEXT(h, len))
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

/* Append one attribute to the request msg (cap bytes, a struct nlmsghdr
 * first); NULL when it does not fit. A nest is an attribute put with no
 * data and closed by rta_end once its members are in. */
static struct rtattr *rta_put(void *msg, size_t cap, unsigned short type, const void *data, size_t len)
{
    struct nlmsghdr *h = msg;
    size_t at = NLMSG_ALIGN(h->nlmsg_len);
    if (at + RTA_SPACE(len) > cap)
        return NULL;
    struct rtattr *a = (struct rtattr *)((char *)h + at);
    a->rta_type = type;
    a->rta_len = (unsigned short)RTA_LENGTH(len);
    if (len)
        memcpy(RTA_DATA(a), data, len);
    h->nlmsg_len = (uint32_t)(at + RTA_ALIGN(a->rta_len));
    return a;
}

static void rta_end(void *msg, struct rtattr *nest)
{
    const struct nlmsghdr *h = msg;
    nest->rta_len = (unsigned short)((char *)h + h->nlmsg_len - (char *)nest);
}

static struct rtattr *nl_put(struct nl_req *r, unsigned short type, const void *data, size_t len)
{
    return rta_put(r, sizeof *r, type, data, len);
}

static void nl_end(struct nl_req *r, struct rtattr *nest)
{
    rta_end(r, nest);
}

/* The kernel's own words for a refusal (extended ACK, NLMSGERR_ATTR_MSG):
 * "remcsum nopartial is not offered" says more than EOPNOTSUPP. NULL if none. */
static const char *extack_text(const struct nlmsghdr *h, size_t got)
{
    if (!(h->nlmsg_flags & NLM_F_ACK_TLVS) || h->nlmsg_len > got)
        return NULL;
    const struct nlmsgerr *e = NLMSG_DATA(h);
    size_t off = NLMSG_HDRLEN + sizeof *e;
    if (!(h->nlmsg_flags & NLM_F_CAPPED))
        off += e->msg.nlmsg_len > NLMSG_HDRLEN ? NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN) : 0;
    while (off + sizeof(struct nlattr) <= h->nlmsg_len) {
        const struct nlattr *a = (const struct nlattr *)((const char *)h + off);
        if (a->nla_len < sizeof *a || off + a->nla_len > h->nlmsg_len)
            return NULL;
        const char *v = (const char *)a + NLA_HDRLEN;
        size_t vlen = a->nla_len - NLA_HDRLEN;
        if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG && vlen && memchr(v, 0, vlen))
            return v;
        off += NLA_ALIGN(a->nla_len);
    }
    return NULL;
}

static int nl_talk(void *msg, char *err, size_t n, const char *what)
{
    const struct nlmsghdr *req = msg;
    int fd = nl_socket();
    if (fd < 0) {
        snprintf(err, n, "netlink socket: %s", strerror(errno));
        return -1;
    }
    if (send(fd, msg, req->nlmsg_len, 0) < 0) {
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
        const char *why = extack_text(h, (size_t)got);
        snprintf(err, n, "%s: %s%s%s%s", what, strerror(-e->error), why ? " (" : "", why ? why : "",
                 why ? ")" : "");
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

/* @vxlan NAME [address MAC] {id VNI | external} dstport PORT [local ADDR] [nolearning]
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
        } else if (!strcmp(w, "external")) {
            nl_put(&r, IFLA_VXLAN_COLLECT_METADATA, &one, 1);
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

/* ---- a tc-ingress BPF program, without tc ----
 * What `tc qdisc add dev DEV clsact` and `tc filter add dev DEV ingress bpf
 * da obj OBJ sec SEC` do, in this process: the section's instructions
 * loaded with bpf(BPF_PROG_LOAD) under the name of its function, a clsact
 * qdisc and a direct-action cls_bpf filter by netlink. Two fork+execs of tc
 * (and its ELF loader) are most of a namespace's making otherwise. Only
 * for the self-contained programs of csum_level.bpf.c: a section with
 * relocations (maps, globals) is left to tc (return 1). */

struct bpf_text {
    char name[16];             /* BPF_OBJ_NAME_LEN */
    char license[16];
    const uint8_t *insns;
    size_t len;
};

static int elf_section(const uint8_t *f, size_t fl, const char *sec, struct bpf_text *bt)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f;
    if (fl < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_machine != EM_BPF || eh->e_shentsize != sizeof(Elf64_Shdr) ||
        eh->e_shoff > fl || (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > fl - eh->e_shoff || eh->e_shstrndx >= eh->e_shnum)
        return -1;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(f + eh->e_shoff);
    for (unsigned i = 0; i < eh->e_shnum; i++)
        if (sh[i].sh_type != SHT_NOBITS && (sh[i].sh_offset > fl || sh[i].sh_size > fl - sh[i].sh_offset))
            return -1;
    const Elf64_Shdr *strs = &sh[eh->e_shstrndx];
    int at = -1, sym = -1;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_name >= strs->sh_size)
            return -1;
        const char *nm = (const char *)f + strs->sh_offset + sh[i].sh_name;
        size_t room = strs->sh_size - sh[i].sh_name;
        if (!strncmp(nm, sec, room) && strnlen(nm, room) == strlen(sec))
            at = (int)i;
        else if (!strncmp(nm, "license", room)) {
            size_t l = sh[i].sh_size < sizeof bt->license - 1 ? sh[i].sh_size : sizeof bt->license - 1;
            memcpy(bt->license, f + sh[i].sh_offset, l);
            bt->license[l] = 0;
        }
        if (sh[i].sh_type == SHT_SYMTAB)
            sym = (int)i;
    }
    if (at < 0 || sym < 0 || sh[sym].sh_link >= eh->e_shnum || sh[at].sh_size % 8)
        return -1;
    for (unsigned i = 0; i < eh->e_shnum; i++)
        if ((sh[i].sh_type == SHT_REL || sh[i].sh_type == SHT_RELA) && sh[i].sh_info == (unsigned)at)
            return 1;                  /* relocations: tc's (libbpf's) job */
    const Elf64_Shdr *st = &sh[sh[sym].sh_link];
    const Elf64_Sym *sy = (const Elf64_Sym *)(f + sh[sym].sh_offset);
    bt->name[0] = 0;
    for (size_t i = 0; i < sh[sym].sh_size / sizeof *sy; i++)
        if (sy[i].st_shndx == at && ELF64_ST_TYPE(sy[i].st_info) == STT_FUNC && sy[i].st_name < st->sh_size) {
            snprintf(bt->name, sizeof bt->name, "%.*s", (int)(st->sh_size - sy[i].st_name),
                     (const char *)f + st->sh_offset + sy[i].st_name);
            break;
        }
    bt->insns = f + sh[at].sh_offset;
    bt->len = sh[at].sh_size;
    return bt->name[0] && bt->license[0] ? 0 : -1;
}

static int prog_load(const char *obj, const char *sec, char *err, size_t n)
{
    static uint8_t f[1 << 16];
    int fd = open(obj, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, n, "%s: %s", obj, strerror(errno));
        return -1;
    }
    ssize_t fl = read(fd, f, sizeof f);
    close(fd);
    struct bpf_text bt;
    memset(&bt, 0, sizeof bt);
    int rc = fl > 0 && (size_t)fl < sizeof f ? elf_section(f, (size_t)fl, sec, &bt) : -1;
    if (rc) {
        snprintf(err, n, "%s: no self-contained section %s", obj, sec);
        return rc > 0 ? -2 : -1;
    }
    union bpf_attr a;
    memset(&a, 0, sizeof a);
    a.prog_type = BPF_PROG_TYPE_SCHED_CLS;
    a.insns = (uint64_t)(uintptr_t)bt.insns;
    a.insn_cnt = (uint32_t)(bt.len / 8);
    a.license = (uint64_t)(uintptr_t)bt.license;
    memcpy(a.prog_name, bt.name, sizeof a.prog_name - 1);
    int pfd = (int)syscall(SYS_bpf, BPF_PROG_LOAD, &a, sizeof a);
    if (pfd < 0)
        snprintf(err, n, "BPF_PROG_LOAD %s (section %s): %s", bt.name, sec, strerror(errno));
    return pfd;
}

struct tc_req {
    struct nlmsghdr h;
    struct tcmsg t;
    char attrs[256];
};

static struct rtattr *tc_put(struct tc_req *r, unsigned short type, const void *data, size_t len)
{
    return rta_put(r, sizeof *r, type, data, len);
}

static void tc_begin(struct tc_req *r, int type, int ifindex)
{
    memset(r, 0, sizeof *r);
    r->h.nlmsg_len = NLMSG_LENGTH(sizeof r->t);
    r->h.nlmsg_type = (unsigned short)type;
    r->h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL;
    r->h.nlmsg_seq = 1;
    r->t.tcm_family = AF_UNSPEC;
    r->t.tcm_ifindex = ifindex;
}

int tc_bpf_ingress(const char *dev, const char *obj, const char *sec, char *err, size_t n)
{
    int ifindex = (int)if_nametoindex(dev);
    if (!ifindex) {
        snprintf(err, n, "%s: %s", dev, strerror(errno));
        return -1;
    }
    int pfd = prog_load(obj, sec, err, n);
    if (pfd == -2)
        return 1;
    if (pfd < 0)
        return -1;
    struct tc_req r;
    tc_begin(&r, RTM_NEWQDISC, ifindex);
    r.t.tcm_handle = TC_H_MAKE(TC_H_CLSACT, 0);
    r.t.tcm_parent = TC_H_CLSACT;
    tc_put(&r, TCA_KIND, "clsact", 7);
    int rc = nl_talk(&r, err, n, "RTM_NEWQDISC clsact");
    if (!rc) {
        tc_begin(&r, RTM_NEWTFILTER, ifindex);
        r.t.tcm_parent = TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_INGRESS);
        r.t.tcm_info = TC_H_MAKE(0, htons(ETH_P_ALL));   /* priority chosen by the kernel, every protocol */
        tc_put(&r, TCA_KIND, "bpf", 4);
        struct rtattr *opt = tc_put(&r, TCA_OPTIONS, NULL, 0);
        uint32_t fd32 = (uint32_t)pfd, flags = TCA_BPF_FLAG_ACT_DIRECT;
        char name[64];
        int nl = snprintf(name, sizeof name, "%s:[%s]", strrchr(obj, '/') ? strrchr(obj, '/') + 1 : obj, sec);
        tc_put(&r, TCA_BPF_FD, &fd32, sizeof fd32);
        tc_put(&r, TCA_BPF_NAME, name, (size_t)nl + 1);
        tc_put(&r, TCA_BPF_FLAGS, &flags, sizeof flags);
        rta_end(&r, opt);
        rc = nl_talk(&r, err, n, "RTM_NEWTFILTER bpf");
    }
    close(pfd);                        /* the filter holds the program */
    return rc ? -1 : 0;
}

const char *live_builtin_names(void)
{
    return "@vxlan NAME ... (ip link add NAME type vxlan ... + remcsum-nopartial), "
           "@sysctl path.to.key=VALUE, @gro DEV on|off (runs after the ip lines)";
}

/* @gro DEV on|off: the device's generic receive offload (ETHTOOL_SGRO, the
 * legacy ethtool ioctl every kernel here has): off, napi_gro_receive and
 * gro_cells_receive hand the skb on without a GRO pass (netif_elide_gro) */
static int builtin_gro(int argc, char **argv, char *err, size_t n)
{
    if (argc != 3 || (strcmp(argv[2], "on") && strcmp(argv[2], "off"))) {
        snprintf(err, n, "@gro: DEV on|off");
        return -1;
    }
    struct ethtool_value ev = { .cmd = ETHTOOL_SGRO, .data = !strcmp(argv[2], "on") };
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", argv[1]);
    ifr.ifr_data = (char *)&ev;
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    int rc = fd < 0 ? -1 : ioctl(fd, SIOCETHTOOL, &ifr);
    if (rc < 0)
        snprintf(err, n, "@gro %s %s: %s", argv[1], argv[2], strerror(errno));
    if (fd >= 0)
        close(fd);
    return rc < 0 ? -1 : 0;
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
    if (!strcmp(argv[0], "@gro"))
        return builtin_gro(argc, argv, err, n);
    snprintf(err, n, "unknown built-in %s (%s)", argv[0], live_builtin_names());
    return -1;
}
