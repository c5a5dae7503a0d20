/*
 * direction.c - which way a frame went, and on what kind of interface
 * (docs/direction.md): csc_direction(), after csc_verify (the last rule
 * reads the verdicts). The first rule that says something decides:
 *
 *   1. the capture's packet flags (pcapng epb_flags inbound/outbound),
 *      given by the front end in csc_frame.direction;
 *   2. the Linux cooked header's packet type (SLL, SLL2): PACKET_OUTGOING
 *      is sent, PACKET_HOST, _BROADCAST, _MULTICAST, _OTHERHOST received;
 *   3. loopback, over 1 and 2: a frame on lo was sent by this host (to
 *      itself). libpcap shows it once, as received (pcap-linux.c skips the
 *      outgoing copy on the loopback device), with the checksum state its
 *      sender left. Seen in the frame: a BSD loopback header (NULL, LOOP),
 *      a cooked header of device type ARPHRD_LOOPBACK, an Ethernet header
 *      with both addresses zero (Linux lo), an outermost IP address in
 *      127.0.0.0/8 or ::1 (martians anywhere else: ip_route_input_slow);
 *   4. this host's addresses (csc_config.local, --local): from one is sent,
 *      to one received - the outermost IP layer's, the Ethernet header's or
 *      the cooked header's link address;
 *   5. the guess (csc_config.guess_direction): the outermost checksum that
 *      is there (not the IPv4 header's, never offloaded; not a zero UDP or
 *      GRE without C) is a partial seed or LCO: the stack left it for a
 *      NIC, so the frame was captured before one - "probably sent".
 * A cooked header of device type ARPHRD_NONE (tun) marks the interface
 * virtual. Nothing decided: unknown, taken as received.
 */
#include "csumcheck/csumcheck.h"

#include "pkt.h"
#include "proto/wire.h"
#include "replay/addr.h"
#include "stages.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#define MAC_LEN 6

static bool is_ip(const struct csc_layer *l)
{
    return (l->proto == CSC_P_IPV4 || l->proto == CSC_P_IPV6) && !(l->notes & CSC_N_QUOTED);
}

/* The outermost IP layer, NULL when none */
static const struct csc_layer *outer_ip(const struct csc_result *r)
{
    for (unsigned i = 0; i < r->nlayers && i < CSC_MAX_LAYERS; i++)
        if (is_ip(&r->layers[i]))
            return &r->layers[i];
    return NULL;
}


/* Rule 3: what the frame itself says of loopback */
static bool frame_is_loopback(const struct csc_frame *f, const struct csc_result *r,
                              const struct pkt *p)
{
    if (f->link == CSC_LINK_NULL || f->link == CSC_LINK_LOOP)
        return true;
    if (!r->nlayers)
        return false;
    const struct csc_layer *l0 = &r->layers[0];
    if ((l0->proto == CSC_P_SLL || l0->proto == CSC_P_SLL2) && l0->u.sll.hatype == ARPHRD_LOOPBACK)
        return true;
    if (l0->proto == CSC_P_ETH) {
        static const uint8_t zero[2 * MAC_LEN];
        const uint8_t *b = pkt_span(p, l0->off, 2 * MAC_LEN);
        if (b && !memcmp(b, zero, sizeof zero))
            return true;
    }
    /* 127.0.0.0/8 or ::1 (ip_addr_classes: the same bits the martian rules read) */
    const struct csc_layer *ip = outer_ip(r);
    return ip && (ip_addr_classes(p, ip) & (A_SRC_LOOPBACK | A_DST_LOOPBACK));
}

static bool is_local(const struct csc_local_set *set, uint8_t kind, const uint8_t *a)
{
    unsigned len = kind == CSC_LOCAL_MAC ? MAC_LEN : kind == CSC_LOCAL_IPV4 ? 4 : 16;
    for (unsigned i = 0; i < set->n && i < CSC_MAX_LOCAL; i++)
        if (set->a[i].kind == kind && !memcmp(set->a[i].addr, a, len))
            return true;
    return false;
}

/* Rule 4: the frame's link source and destination (NULL where it has none)
 * and its outermost IP addresses against this host's */
static uint8_t direction_by_local(const struct csc_local_set *set, const struct csc_result *r,
                                  const struct pkt *p)
{
    const uint8_t *lsrc = NULL, *ldst = NULL;
    const struct csc_layer *l0 = &r->layers[0];
    if (l0->proto == CSC_P_ETH) {
        ldst = pkt_span(p, l0->off + WIRE_OFF(eth_hdr, dst), MAC_LEN);
        lsrc = pkt_span(p, l0->off + WIRE_OFF(eth_hdr, src), MAC_LEN);
    } else if (l0->proto == CSC_P_SLL || l0->proto == CSC_P_SLL2) {
        uint32_t at = l0->off + (l0->proto == CSC_P_SLL ? WIRE_OFF(sll_hdr, halen) + 1
                                                        : WIRE_OFF(sll2_hdr, halen));
        uint8_t halen = 0;
        if (pkt_u8(p, at, &halen) && halen == MAC_LEN)   /* the source's link address */
            lsrc = pkt_span(p, l0->off + (l0->proto == CSC_P_SLL ? WIRE_OFF(sll_hdr, addr)
                                                                 : WIRE_OFF(sll2_hdr, addr)),
                            MAC_LEN);
    }
    const struct csc_layer *ip = outer_ip(r);
    uint8_t src[16], dst[16];
    unsigned n = ip && ip->proto == CSC_P_IPV6 ? 16 : ip ? 4 : 0;
    if (n && (!pkt_copy(p, ip->u.ip.addr_off, n, src) || !pkt_copy(p, ip->u.ip.addr_off + n, n, dst)))
        n = 0;
    uint8_t kind = n == 4 ? CSC_LOCAL_IPV4 : CSC_LOCAL_IPV6;
    if ((n && is_local(set, kind, src)) || (lsrc && is_local(set, CSC_LOCAL_MAC, lsrc)))
        return CSC_DIR_OUT;
    if ((n && is_local(set, kind, dst)) || (ldst && is_local(set, CSC_LOCAL_MAC, ldst)))
        return CSC_DIR_IN;
    return CSC_DIR_UNKNOWN;
}

/* Rule 5: the outermost checksum there is was left for a NIC */
static bool outermost_left_to_nic(const struct csc_result *r)
{
    for (unsigned i = 0; i < r->nlayers && i < CSC_MAX_LAYERS; i++) {
        const struct csc_layer *l = &r->layers[i];
        if (l->notes & CSC_N_QUOTED)
            break;
        if (l->csum_off == CSC_NO_OFF || l->proto == CSC_P_IPV4 || l->verdict == CSC_V_NONE ||
            l->verdict == CSC_V_ZERO6)
            continue;
        return l->verdict == CSC_V_PARTIAL || l->verdict == CSC_V_LCO;
    }
    return false;
}

void csc_direction(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *r)
{
    csc_direction_rec(cfg, f, r, NULL);
}

void csc_direction_rec(const struct csc_config *cfg, const struct csc_frame *f,
                       struct csc_result *r, struct csc_rec *rec)
{
    struct pkt p = pkt_of(f, rec);
    const struct csc_layer *l0 = r->nlayers ? &r->layers[0] : NULL;
    r->via = cfg->via < CSC_VIA__COUNT ? cfg->via : CSC_VIA_NIC;
    r->pkttype = CSC_NO_PKTTYPE;
    if (l0 && (l0->proto == CSC_P_SLL || l0->proto == CSC_P_SLL2)) {
        if (l0->u.sll.pkttype <= PACKET_KERNEL)
            r->pkttype = (uint8_t)l0->u.sll.pkttype;
        if (l0->u.sll.hatype == ARPHRD_NONE && r->via == CSC_VIA_NIC)
            r->via = CSC_VIA_VIRTUAL;                     /* tun */
    }
    if (r->via != CSC_VIA_LOOPBACK && frame_is_loopback(f, r, &p))
        r->via = CSC_VIA_LOOPBACK;

    r->direction = f->direction == CSC_DIR_IN || f->direction == CSC_DIR_OUT ? f->direction
                                                                             : CSC_DIR_UNKNOWN;
    r->dir_from = r->direction ? CSC_DF_CAPTURE : CSC_DF_NONE;
    if (!r->direction && r->pkttype <= PACKET_OUTGOING) {
        r->direction = r->pkttype == PACKET_OUTGOING ? CSC_DIR_OUT : CSC_DIR_IN;
        r->dir_from = CSC_DF_PKTTYPE;
    }
    if (r->direction == CSC_DIR_OUT && l0)
        r->layers[0].notes |= CSC_N_OUTGOING;              /* the capture says so */
    if (r->via == CSC_VIA_LOOPBACK) {
        r->direction = CSC_DIR_OUT;
        r->dir_from = CSC_DF_LOOPBACK;
        return;
    }
    if (!r->direction && l0 && cfg->local && cfg->local->n) {
        r->direction = direction_by_local(cfg->local, r, &p);
        r->dir_from = r->direction ? CSC_DF_LOCAL : CSC_DF_NONE;
    }
    if (!r->direction && cfg->guess_direction && outermost_left_to_nic(r)) {
        r->direction = CSC_DIR_OUT;
        r->dir_from = CSC_DF_GUESS;
    }
}

bool csc_local_add(struct csc_local_set *set, const char *word)
{
    struct csc_local_addr a = { 0 };
    unsigned m[MAC_LEN];
    char tail;
    if (inet_pton(AF_INET, word, a.addr) == 1) {
        a.kind = CSC_LOCAL_IPV4;
    } else if (inet_pton(AF_INET6, word, a.addr) == 1) {
        a.kind = CSC_LOCAL_IPV6;
    } else if (sscanf(word, "%2x:%2x:%2x:%2x:%2x:%2x%c", &m[0], &m[1], &m[2], &m[3], &m[4],
                      &m[5], &tail) == MAC_LEN && strlen(word) == 17) {
        a.kind = CSC_LOCAL_MAC;
        for (unsigned i = 0; i < MAC_LEN; i++)
            a.addr[i] = (uint8_t)m[i];
    } else {
        return false;
    }
    if (set->n >= CSC_MAX_LOCAL)
        return false;
    set->a[set->n++] = a;
    return true;
}

const char *csc_local_format(const struct csc_local_addr *a, char *buf, size_t len)
{
    if (a->kind == CSC_LOCAL_MAC)
        snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", a->addr[0], a->addr[1], a->addr[2],
                 a->addr[3], a->addr[4], a->addr[5]);
    else if (!inet_ntop(a->kind == CSC_LOCAL_IPV4 ? AF_INET : AF_INET6, a->addr, buf,
                        (socklen_t)len) && len)
        buf[0] = 0;
    return buf;
}
