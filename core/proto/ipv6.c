/*
 * ipv6.c - IPv6 (RFC 8200) with its extension headers: hop-by-hop (jumbo
 * payload, RFC 2675), routing (type 0 RFC 2460, type 2 RFC 6275, type 4
 * SRH RFC 8754), fragment and destination options (Home Address, RFC 6275
 * §6.3). AH (RFC 4302) ends the chain: it is a layer of its own (ipsec.c),
 * as is the upper-layer protocol, Ethernet (143, RFC 8986) included.
 *
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |Version| Traffic Class |           Flow Label                  |
 *   |         Payload Length        |  Next Header  |   Hop Limit   |
 *   |                  Source Address (128)                         |
 *   |               Destination Address (128)                       |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   extension header:  | Next Header | Hdr Ext Len | ...  ((len+1)*8 bytes)
 *
 * The upper-layer pseudo-header (RFC 8200 §8.1) uses the final destination
 * when a routing header has segments left, and the home address when a
 * Home Address option is present. Payload length 0 without a jumbo option is
 * a BIG TCP super-packet: the payload runs to the end of the enclosing data.
 */
#include "decode.h"

#include "../csum.h"

#define MAX_EXT_HEADERS 16

/* Walk TLV options of a hop-by-hop or destination header. */
static void scan_options(struct dec *d, uint32_t opt, uint32_t end, uint32_t *jumbo,
                         uint32_t *hoa, int *has_hoa)
{
    while (opt < end) {
        uint8_t type = 0, len = 0;
        uint32_t val = opt + WIRE_LEN(ipv6_tlv);
        if (!pkt_u8(&d->p, opt + WIRE_OFF(ipv6_tlv, type), &type))
            return;
        if (type == IPV6_TLV_PAD1) {
            opt++;
            continue;
        }
        if (!pkt_u8(&d->p, opt + WIRE_OFF(ipv6_tlv, len), &len))
            return;
        if (type == IPV6_TLV_JUMBO && len == sizeof(uint32_t) && jumbo)
            pkt_be32(&d->p, val, jumbo);
        if (type == IPV6_TLV_HAO && len == IPV6_ADDR_LEN && hoa &&
            pkt_has(&d->p, val, IPV6_ADDR_LEN)) {
            *hoa = val;                 /* the pseudo-header's source (a value) */
            *has_hoa = 1;
        }
        opt = val + len;
    }
}

/* The final destination a routing header with segments left names: type
 * 0/2 the last address; type 4 (SRH) Segment List[0], the first entry. */
static void routing_dst(struct dec *d, uint32_t cur, uint8_t hl, uint32_t *dst, uint32_t *notes)
{
    uint8_t type = 0, left = 0;
    pkt_u8(&d->p, cur + WIRE_OFF(ipv6_rt_hdr, type), &type);
    pkt_u8(&d->p, cur + WIRE_OFF(ipv6_rt_hdr, segments_left), &left);
    uint32_t naddr = hl / (IPV6_ADDR_LEN / IPV6_EXT_UNIT);
    if (!left || !naddr)
        return;
    uint32_t at = 0, first = cur + WIRE_LEN(ipv6_rt_hdr);
    if (type == IPV6_SRCRT_TYPE_0 || type == IPV6_SRCRT_TYPE_2)
        at = first + IPV6_ADDR_LEN * (naddr - 1);
    else if (type == IPV6_SRCRT_TYPE_4)
        at = first;
    if (at && pkt_has(&d->p, at, IPV6_ADDR_LEN)) {
        *dst = at;                      /* the pseudo-header's destination (a value) */
        *notes |= CSC_N_ROUTING_DST;
    }
}

static bool is_ext_header(uint8_t nh)
{
    return nh == IPPROTO_HOPOPTS_ || nh == IPPROTO_DSTOPTS_ || nh == IPPROTO_ROUTING_ ||
           nh == IPPROTO_FRAG_;
}

/* What the extension headers say (the layer is pushed only once the whole
 * chain is captured) */
struct ext_chain {
    uint32_t cur;              /* where the upper-layer header starts */
    uint32_t jumbo, notes, frag_id;
    uint16_t frag;             /* the fragment header's offset << 3 | M */
    bool frag_seen;
    uint8_t rh_type, rh_left, rh_flags;   /* the first routing header (CSC_RH_*) */
    uint8_t nh;                /* the upper-layer protocol */
};

/* The first routing header's type and segments left, and whether a Home
 * Address option came before it: the receiver handles the headers in chain
 * order (ipv6_rthdr_rcv, ipv6_destopt_rcv). */
static void note_first_routing(struct dec *d, struct ext_chain *c, uint32_t cur, uint8_t hl)
{
    if (c->rh_flags & CSC_RH_SEEN)
        return;
    pkt_u8(&d->p, cur + WIRE_OFF(ipv6_rt_hdr, type), &c->rh_type);
    pkt_u8(&d->p, cur + WIRE_OFF(ipv6_rt_hdr, segments_left), &c->rh_left);
    c->rh_flags |= CSC_RH_SEEN | ((c->notes & CSC_N_HOME_ADDRESS) ? CSC_RH_AFTER_HAO : 0) |
                   (hl == 2 ? CSC_RH_HDRLEN2 : 0);
}

/* One hop-by-hop, destination options or routing header at c->cur */
static bool ext_option_header(struct dec *d, struct ext_chain *c, uint32_t *src, uint32_t *dst)
{
    uint8_t next = 0, hl = 0;
    uint32_t cur = c->cur;
    if (!dec_need(d, CSC_P_IPV6, cur, WIRE_LEN(ipv6_opt_hdr)))
        return false;
    pkt_u8(&d->p, cur + WIRE_OFF(ipv6_opt_hdr, nexthdr), &next);
    pkt_u8(&d->p, cur + WIRE_OFF(ipv6_opt_hdr, hdrlen), &hl);
    uint32_t len = ((uint32_t)hl + 1) * IPV6_EXT_UNIT;
    if (!dec_need(d, CSC_P_IPV6, cur, len))
        return false;
    if (c->nh == IPPROTO_HOPOPTS_) {
        scan_options(d, cur + WIRE_LEN(ipv6_opt_hdr), cur + len, &c->jumbo, NULL, NULL);
    } else if (c->nh == IPPROTO_DSTOPTS_) {
        int has = 0;
        c->rh_flags |= CSC_RH_DSTOPTS;
        scan_options(d, cur + WIRE_LEN(ipv6_opt_hdr), cur + len, NULL, src, &has);
        if (has)
            c->notes |= CSC_N_HOME_ADDRESS;
    } else if (c->nh == IPPROTO_ROUTING_) {
        routing_dst(d, cur, hl, dst, &c->notes);
        note_first_routing(d, c, cur, hl);
    }
    c->nh = next;
    c->cur = cur + len;
    return true;
}

/* Walk the chain from c->cur; false when the stack ended in it */
static bool ext_headers(struct dec *d, struct ext_chain *c, uint32_t *src, uint32_t *dst)
{
    for (int i = 0; i < MAX_EXT_HEADERS; i++) {
        /* a header named and not there at all: the packet lacks it, as an
         * upper protocol named and absent (dec_ipproto), not an end */
        if (is_ext_header(c->nh) && c->cur >= d->end && !d->quoted) {
            dec_stop(d, CSC_STOP_MALFORMED, CSC_P_IPV6, c->cur);
            return false;
        }
        switch (c->nh) {
        case IPPROTO_HOPOPTS_:
        case IPPROTO_DSTOPTS_:
        case IPPROTO_ROUTING_:
            if (!ext_option_header(d, c, src, dst))
                return false;
            break;
        case IPPROTO_FRAG_:
            if (!dec_need(d, CSC_P_IPV6, c->cur, WIRE_LEN(ipv6_frag_hdr)))
                return false;
            pkt_u8(&d->p, c->cur + WIRE_OFF(ipv6_frag_hdr, nexthdr), &c->nh);
            /* the first fragment header decides (ipv6_frag_rcv queues by it;
             * a second one is a header error once the first has passed) */
            if (!c->frag_seen) {
                pkt_be16(&d->p, c->cur + WIRE_OFF(ipv6_frag_hdr, frag_off), &c->frag);
                pkt_be32(&d->p, c->cur + WIRE_OFF(ipv6_frag_hdr, identification), &c->frag_id);
                c->rh_flags |= ((c->rh_flags & CSC_RH_SEEN) ? CSC_RH_BEFORE_FRAG : 0) |
                               ((c->notes & CSC_N_HOME_ADDRESS) ? CSC_RH_HAO_BEFORE_FRAG : 0);
            } else {
                c->rh_flags |= CSC_RH_FRAG_TWICE;
            }
            c->frag_seen = true;
            c->rh_flags |= CSC_RH_FRAG_HDR;
            c->cur += WIRE_LEN(ipv6_frag_hdr);
            break;
        default:
            return true;
        }
    }
    return true;
}

void dec_ipv6(struct dec *d, uint32_t off)
{
    /* the addresses the pseudo-header sums: the header's, or a home
     * address and a routing header's final destination */
    uint32_t src = off + WIRE_OFF(ipv6_hdr, saddr), dst = off + WIRE_OFF(ipv6_hdr, daddr);
    struct ext_chain c = { .cur = off + IPV6_HLEN };
    struct span b = dec_need_span(d, CSC_P_IPV6, off, IPV6_HLEN);
    if (!b.b)
        return;
    if (span_bits(&b, 0, 0xf0) >> IP_VERSION_SHIFT != IP_VERSION_6) {
        dec_stop(d, CSC_STOP_MALFORMED, CSC_P_IPV6, off);
        return;
    }
    uint16_t plen = span_be16(&b, WIRE_OFF(ipv6_hdr, payload_len));
    c.nh = span_u8(&b, WIRE_OFF(ipv6_hdr, nexthdr));
    bool hbh_first = c.nh == IPPROTO_HOPOPTS_;
    if (!ext_headers(d, &c, &src, &dst))
        return;

    uint8_t quoted_before = d->quoted;
    d->summing = 1;
    struct csc_layer *l = dec_push(d, CSC_P_IPV6, off, c.cur - off);
    if (!l)
        return;
    l->notes |= c.notes;
    l->u.ip.id = c.frag_id;
    l->u.ip.addr_off = off + WIRE_OFF(ipv6_hdr, saddr);
    DEC_VAL(d, l, u.ip.flow_label, &b, WIRE_OFF(ipv6_hdr, vtc_flow), 4, IPV6_FLOWLABEL_MASK, 0);
    l->next = c.nh;
    dec_break(d, off + IPV6_HLEN);

    uint64_t declared = (uint64_t)off + IPV6_HLEN + plen;
    if (plen == 0 && c.jumbo) {
        l->notes |= CSC_N_JUMBO;
        declared = (uint64_t)off + IPV6_HLEN + c.jumbo;
    }
    /* payload length 0 without a jumbo option: a BIG TCP packet, which GRO
     * and GSO make only above IPV6_MAXPLEN (ipv6_gro_complete, ip6_xmit);
     * a shorter one is empty: ip6_rcv_core trims it to its 40 bytes */
    bool big_tcp = plen == 0 && !c.jumbo && !hbh_first && d->end > (uint64_t)off + IPV6_HLEN + IPV6_MAXPLEN_;
    /* 0 before a hop-by-hop header that has no jumbo option: ip6_rcv_core
     * leaves the length for ipv6_hop_jumbo, which never runs, and nothing
     * looks again: the packet is all the link carried */
    if (plen == 0 && !c.jumbo && hbh_first)
        declared = d->end;
    if (!dec_ip_extent(d, l, declared, c.cur, big_tcp, quoted_before))
        return;
    dec_val_pseudo6(d, l, src, dst);
    d->ip = dec_index(d, l);

    l->u.ip.frag_off = c.frag;        /* fragment offset << 3 | M */
    l->u.ip.rh_type = c.rh_type;
    l->u.ip.rh_segs_left = c.rh_left;
    l->u.ip.rh_flags = c.rh_flags;
    if (c.frag_seen && (c.frag & (IP6_OFFSET | IP6_MF))) {
        l->notes |= CSC_N_FRAGMENT;
        d->r->ip_fragment = 1;
        if (c.frag >> IP6_OFFSET_SHIFT) {
            dec_stop(d, CSC_STOP_FRAGMENT, CSC_P_IPV6, c.cur);
            return;
        }
        d->fragment = 1;
    }
    if (is_ext_header(c.nh)) {
        dec_stop(d, CSC_STOP_DEPTH, CSC_P_IPV6, c.cur);   /* chain longer than we walk */
        return;
    }
    dec_ipproto(d, c.nh, c.cur);
}
