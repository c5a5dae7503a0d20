/*
 * tlv.c - ip6_parse_tlv on a hop-by-hop header (net/ipv6/exthdrs.c, v6.12;
 * the same in 6.1.192), as ip6_rcv_core runs it through ipv6_parse_hopopts:
 * padding (Pad1/PadN runs up to 7 bytes, PadN bytes zero), option lengths
 * within the header, at most max_hbh_opts_number (8) other options, and an
 * unknown option's action bits (00 skip; 01, 10, 11 drop). Router alert must
 * have length 2. ipv6_hop_jumbo: length 4 at offset 4n+2, a value above
 * 65535 and an IPv6 payload length of 0, else a parameter problem (the rest
 * of a jumbogram stays with the decoder's jumbo rule, CSC_N_JUMBO); the
 * drop counts Ip6InHdrErrors once from 6.1 on (era HOP_JUMBO_ONE_COUNT;
 * the 5.10 VM kernel counts it in ipv6_hop_jumbo too: unknown).
 * ipv6_hop_calipso frees every CALIPSO option on a receiver without a
 * CALIPSO DOI (calipso_validate finds none: a stock receiver; era
 * HOP_CALIPSO), ipv6_hop_ioam one not 4n-aligned and ignores the rest while
 * ioam6_enabled is 0 (its default; era HOP_IOAM). Before those eras the two
 * types are unknown options with action 00: skipped. docs/kernel-branches.md
 * B5, ext-6, ext-7.
 */
#include "replay.h"
#include "tlv.h"

#define MAX_CHAIN 16    /* headers walked, as the decoder's MAX_EXT_HEADERS */

#define IPV6_TLV_PADN 1
#define IPV6_TLV_ROUTERALERT 5
#define IPV6_TLV_CALIPSO 7
#define IPV6_TLV_IOAM 0x31
#define MAX_TLV_OPTS 8   /* net.ipv6.max_hbh_opts_number, max_dst_opts_cnt (IP6_DEFAULT_MAX_*_OPTS_CNT) */
#define IPV6_MAXPLEN 65535

/* ipv6_hop_jumbo before its length and trim checks (the decoder's jumbo
 * rule): the option at off, nh the IPv6 header */
static bool ipv6_hop_jumbo_ok(const struct pkt *p, uint32_t nh, uint32_t off, uint8_t olen)
{
    uint32_t value = 0;
    uint16_t payload_len = 0;
    uint8_t b[4];
    if (olen != 4 || ((off - nh) & 3u) != 2)
        return false;
    for (unsigned i = 0; i < 4; i++)
        if (!pkt_u8(p, off + 2u + i, &b[i]))
            return false;
    value = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    if (!pkt_be16(p, (uint64_t)nh + 4u, &payload_len))
        return false;
    return value > IPV6_MAXPLEN && payload_len == 0;
}

/* ip6_parse_tlv's hop-by-hop option handlers (ipv6_hop_ra, _jumbo,
 * _calipso, _ioam) or ip6_tlvopt_unknown's action bits; false: drop */
static unsigned hop_option(const struct pkt *p, uint32_t nh, uint32_t off, uint8_t type, uint8_t olen,
                           uint64_t sw)
{
    if (type == IPV6_TLV_ROUTERALERT)
        return olen == 2 ? TLV_OK : TLV_BAD;
    if (type == IPV6_TLV_JUMBO) {
        if (ipv6_hop_jumbo_ok(p, nh, off, olen))
            return TLV_OK;
        return (sw & CSC_ERA_BIT(CSC_E_HOP_JUMBO_ONE_COUNT)) ? TLV_BAD : TLV_UNKNOWN;
    }
    if (type == IPV6_TLV_CALIPSO && (sw & CSC_ERA_BIT(CSC_E_HOP_CALIPSO)))
        return TLV_BAD;               /* no DOI: calipso_validate fails, or a length check */
    if (type == IPV6_TLV_IOAM && (sw & CSC_ERA_BIT(CSC_E_HOP_IOAM)))
        return ((off - nh) & 3u) ? TLV_BAD : TLV_OK;   /* bad alignment */
    /* ip6_tlvopt_unknown: 00 skip; 01 drop; 10, 11 a parameter problem
     * too (11: not to a multicast destination) - a drop either way */
    return (type >> 6) ? TLV_BAD : TLV_OK;
}

/* ip6_parse_tlv's destination option handlers: the Home Address option
 * (0xc9) always drops on a stock receiver - with CONFIG_IPV6_MIP6
 * ipv6_dest_hao fails its length (16), unicast or xfrm6_input_addr (no
 * state) check; without MIP6 it is unknown with action 11. Every other
 * option is ip6_tlvopt_unknown's (a router alert, jumbo, CALIPSO or IOAM
 * type included: those handlers are hop-by-hop only). */
static unsigned dest_option(uint8_t type)
{
    if (type == IPV6_TLV_HAO)
        return TLV_HAO;
    return (type >> 6) ? TLV_BAD : TLV_OK;
}

/* The options area [off, off + len) of one hop-by-hop (hop) or destination
 * options header; nh: the IPv6 header (option offsets are the kernel's
 * from it); sw: the era switches. Padding and the count (max_hbh_opts_number
 * and max_dst_opts_cnt, both 8) are checked alike. */
static unsigned parse_tlv(const struct pkt *p, uint32_t nh, uint32_t off, uint32_t len, uint64_t sw,
                          bool hop)
{
    unsigned padlen = 0, count = 0;
    while (len > 0) {
        uint8_t type = 0, olen = 0;
        if (!pkt_u8(p, off, &type))
            return TLV_UNKNOWN;
        if (type == IPV6_TLV_PAD1) {
            if (++padlen > 7)
                return TLV_BAD;
            off++, len--;
            continue;
        }
        if (len < 2 || !pkt_u8(p, off + 1u, &olen))
            return len < 2 ? TLV_BAD : TLV_UNKNOWN;
        uint32_t optlen = olen + 2u;
        if (optlen > len)
            return TLV_BAD;
        if (type == IPV6_TLV_PADN) {
            padlen += optlen;
            if (padlen > 7)
                return TLV_BAD;
            for (uint32_t i = 2; i < optlen; i++) {
                uint8_t v = 0;
                if (!pkt_u8(p, off + i, &v))
                    return TLV_UNKNOWN;
                if (v)
                    return TLV_BAD;
            }
        } else {
            if (++count > MAX_TLV_OPTS)
                return TLV_BAD;
            unsigned v = hop ? hop_option(p, nh, off, type, olen, sw) : dest_option(type);
            if (v != TLV_OK)
                return v;
            padlen = 0;
        }
        off += optlen;
        len -= optlen;
    }
    return TLV_OK;
}

unsigned ip6_hbh_verdict(const struct pkt *p, const struct csc_layer *l, uint64_t sw)
{
    uint8_t nh = 0, hlen = 0;
    if (l->proto != CSC_P_IPV6 || !pkt_u8(p, (uint64_t)l->off + 6, &nh) || nh != 0)
        return TLV_OK;                /* no hop-by-hop header */
    uint32_t h = l->off + IPV6_HLEN;
    if (!pkt_u8(p, h + 1u, &hlen))
        return TLV_UNKNOWN;
    uint32_t len = (hlen + 1u) * 8u;
    if (h + len > l->off + l->hdr_len)
        return TLV_UNKNOWN;           /* the decoder did not take it whole */
    return parse_tlv(p, l->off, h + 2, len - 2, sw, true);
}

/* One destination options header at h (its nexthdr, hdrlen), whole
 * within the layer: ip6_parse_tlv(false, ...) as ipv6_destopt_rcv runs it */
static unsigned destopt_verdict(const struct pkt *p, const struct csc_layer *l, uint32_t h, uint32_t len)
{
    return parse_tlv(p, l->off, h + 2, len - 2, 0, false);
}

void ip6_chain_marks(const struct pkt *p, const struct csc_layer *l, struct ip6_marks *m)
{
    uint8_t nh = 0;
    *m = (struct ip6_marks){ 0 };
    if (l->proto != CSC_P_IPV6 || !(l->u.ip.rh_flags & CSC_RH_DSTOPTS) ||
        !pkt_u8(p, (uint64_t)l->off + 6, &nh))
        return;                       /* no destination options: nothing read */
    uint32_t h = l->off + IPV6_HLEN, end = l->off + l->hdr_len;
    for (uint8_t ord = 1; h < end && ord <= MAX_CHAIN; ord++) {
        uint8_t next = 0, hlen = 0;
        uint32_t len = 8;
        if (!pkt_u8(p, h, &next) || !pkt_u8(p, h + 1u, &hlen))
            return;
        if (nh != IPPROTO_FRAG_)
            len = (hlen + 1u) * 8u;
        if (h + len > end)
            return;
        if (nh == IPPROTO_HOPOPTS_ && ord != 1)
            return;                   /* not first: an unknown protocol there (KF33) */
        if (nh == IPPROTO_DSTOPTS_ && !m->bad_dst) {
            unsigned v = destopt_verdict(p, l, h, len);
            if (v != TLV_OK)
                m->bad_dst = ord, m->dst_verdict = (uint8_t)v;
        } else if (nh == IPPROTO_ROUTING_ && !m->rh) {
            m->rh = ord;
        } else if (nh == IPPROTO_FRAG_ && !m->frag) {
            m->frag = ord;
            if (l->notes & CSC_N_FRAGMENT)
                return;               /* what follows is the reassembled datagram's */
        } else if (nh != IPPROTO_HOPOPTS_ && nh != IPPROTO_DSTOPTS_ && nh != IPPROTO_ROUTING_ &&
                   nh != IPPROTO_FRAG_) {
            return;
        }
        nh = next;
        h += len;
    }
}

/* ipv6_parse_hopopts fails: ip6_rcv_core counts Ip6InHdrErrors (the skb
 * was freed IP_INHDR / UNHANDLED_PROTO by ip6_parse_tlv). False when the
 * packet went no further. */
bool ipv6_parse_hopopts(struct rp *rp, uint8_t i)
{
    unsigned v = ip6_hbh_verdict(&rp->p, L(rp, i), rp->sw);
    if (v == TLV_OK)
        return true;
    if (v == TLV_UNKNOWN)
        rp_unknown(rp, i, KF_IPV6_RCV);
    else
        rp_drop(rp, i, KF_IPV6_RCV, KD_IP_INHDR, CNT(CSC_C_IP6_IN_HDR_ERRORS));
    return false;
}
