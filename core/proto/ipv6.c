/*
 * ipv6.c - IPv6 (RFC 8200) with its extension headers: hop-by-hop (jumbo
 * payload, RFC 2675), routing (type 0 RFC 2460, type 2 RFC 6275, type 4
 * SRH RFC 8754), fragment, destination options (Home Address, RFC 6275 §6.3)
 * and AH (RFC 4302, skipped by length).
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
#include "../decode.h"

#include "../csum.h"

#define MAX_EXT_HEADERS 16

static uint32_t addr_sum(const uint8_t a[16])
{
    uint32_t s = 0;
    for (int i = 0; i < 16; i += 2)
        s = csum_add(s, ((uint32_t)a[i] << 8) | a[i + 1]);
    return s;
}

/* Walk TLV options of a hop-by-hop or destination header. */
static void scan_options(struct dec *d, uint32_t opt, uint32_t end, uint32_t *jumbo,
                         uint8_t *hoa, int *has_hoa)
{
    while (opt < end) {
        uint8_t type = 0, len = 0;
        if (!pkt_u8(&d->p, opt, &type))
            return;
        if (type == 0) {             /* Pad1 */
            opt++;
            continue;
        }
        if (!pkt_u8(&d->p, opt + 1, &len))
            return;
        if (type == 0xc2 && len == 4 && jumbo)
            pkt_be32(&d->p, opt + 2, jumbo);
        if (type == 0xc9 && len == 16 && hoa && pkt_copy(&d->p, opt + 2, 16, hoa))
            *has_hoa = 1;
        opt += 2u + len;
    }
}

void dec_ipv6(struct dec *d, uint32_t off)
{
    uint8_t v = 0, nh = 0;
    uint16_t plen = 0;
    uint8_t src[16], dst[16];
    if (!dec_need(d, CSC_P_IPV6, off, 40))
        return;
    pkt_u8(&d->p, off, &v);
    if ((v >> 4) != 6) {
        dec_stop(d, CSC_STOP_MALFORMED, CSC_P_IPV6, off);
        return;
    }
    pkt_be16(&d->p, off + 4, &plen);
    pkt_u8(&d->p, off + 6, &nh);
    pkt_copy(&d->p, off + 8, 16, src);
    pkt_copy(&d->p, off + 24, 16, dst);

    /* Walk the extension headers first: the layer is pushed only once its
     * whole header chain is captured. */
    uint32_t cur = off + 40, jumbo = 0, notes = 0, frag_id = 0;
    uint16_t frag = 0;
    int frag_seen = 0, stop = 0;
    for (int i = 0; i < MAX_EXT_HEADERS && !stop; i++) {
        uint8_t next = 0, hl = 0;
        uint32_t len;
        switch (nh) {
        case IPPROTO_HOPOPTS_:
        case IPPROTO_DSTOPTS_:
        case IPPROTO_ROUTING_:
        case IPPROTO_AH_:
            if (!dec_need(d, CSC_P_IPV6, cur, 2))
                return;
            pkt_u8(&d->p, cur, &next);
            pkt_u8(&d->p, cur + 1, &hl);
            len = nh == IPPROTO_AH_ ? ((uint32_t)hl + 2) * 4 : ((uint32_t)hl + 1) * 8;
            if (!dec_need(d, CSC_P_IPV6, cur, len))
                return;
            if (nh == IPPROTO_HOPOPTS_) {
                scan_options(d, cur + 2, cur + len, &jumbo, NULL, NULL);
            } else if (nh == IPPROTO_DSTOPTS_) {
                int has = 0;
                scan_options(d, cur + 2, cur + len, NULL, src, &has);
                if (has)
                    notes |= CSC_N_HOME_ADDRESS;
            } else if (nh == IPPROTO_ROUTING_) {
                uint8_t type = 0, left = 0;
                pkt_u8(&d->p, cur + 2, &type);
                pkt_u8(&d->p, cur + 3, &left);
                uint32_t naddr = hl / 2;
                if (left && naddr) {
                    /* type 0/2: final destination is the last address;
                     * type 4 (SRH): Segment List[0], the first entry. */
                    uint32_t at = 0;
                    if (type == 0 || type == 2)
                        at = cur + 8 + 16 * (naddr - 1);
                    else if (type == 4)
                        at = cur + 8;
                    if (at && pkt_copy(&d->p, at, 16, dst))
                        notes |= CSC_N_ROUTING_DST;
                }
            }
            nh = next;
            cur += len;
            break;
        case IPPROTO_FRAG_:
            if (!dec_need(d, CSC_P_IPV6, cur, 8))
                return;
            pkt_u8(&d->p, cur, &next);
            pkt_be16(&d->p, cur + 2, &frag);
            pkt_be32(&d->p, cur + 4, &frag_id);
            frag_seen = 1;
            nh = next;
            cur += 8;
            break;
        default:
            stop = 1;
            break;
        }
    }

    uint8_t quoted_before = d->quoted;
    d->summing = 1;
    struct csc_layer *l = dec_push(d, CSC_P_IPV6, off, cur - off);
    if (!l)
        return;
    l->vers = 6;
    l->notes |= notes;
    l->aux = frag_id;
    pkt_be32(&d->p, off, &l->key);    /* version, class, flow label */
    l->key &= 0x000fffff;
    l->next = nh;
    dec_break(d, off + 40);

    uint64_t declared = (uint64_t)off + 40 + plen;
    if (plen == 0 && jumbo) {
        l->notes |= CSC_N_JUMBO;
        declared = (uint64_t)off + 40 + jumbo;
    }
    /* payload length 0 without a jumbo option: a BIG TCP packet */
    if (!dec_ip_extent(d, l, declared, cur, plen == 0 && !jumbo, quoted_before))
        return;
    l->pseudo = csum_add(addr_sum(src), addr_sum(dst));
    d->ip = dec_index(d, l);

    l->sport = frag;                  /* fragment offset << 3 | M */
    if (frag_seen && (frag & 0xfff9)) {
        l->notes |= CSC_N_FRAGMENT;
        if (frag >> 3) {
            dec_stop(d, CSC_STOP_FRAGMENT, CSC_P_IPV6, cur);
            return;
        }
        d->fragment = 1;
    }
    if (nh == IPPROTO_FRAG_ || nh == IPPROTO_HOPOPTS_ || nh == IPPROTO_ROUTING_ ||
        nh == IPPROTO_DSTOPTS_ || nh == IPPROTO_AH_) {
        dec_stop(d, CSC_STOP_DEPTH, CSC_P_IPV6, cur);   /* chain longer than we walk */
        return;
    }
    dec_ipproto(d, nh, cur);
}
