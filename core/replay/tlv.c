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

#define IPV6_TLV_PADN 1
#define IPV6_TLV_ROUTERALERT 5
#define IPV6_TLV_CALIPSO 7
#define IPV6_TLV_IOAM 0x31
#define MAX_HBH_OPTS 8                /* net.ipv6.max_hbh_opts_number */
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

/* The options area [off, off + len) of one hop-by-hop header; nh: the IPv6
 * header (option offsets are the kernel's from it); sw: the era switches */
static unsigned parse_tlv(const struct pkt *p, uint32_t nh, uint32_t off, uint32_t len, uint64_t sw)
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
            if (++count > MAX_HBH_OPTS)
                return TLV_BAD;
            if (type == IPV6_TLV_ROUTERALERT) {
                if (olen != 2)
                    return TLV_BAD;
            } else if (type == IPV6_TLV_JUMBO) {
                if (!ipv6_hop_jumbo_ok(p, nh, off, olen))
                    return (sw & CSC_ERA_BIT(CSC_E_HOP_JUMBO_ONE_COUNT)) ? TLV_BAD : TLV_UNKNOWN;
            } else if (type == IPV6_TLV_CALIPSO && (sw & CSC_ERA_BIT(CSC_E_HOP_CALIPSO))) {
                return TLV_BAD;       /* no DOI: calipso_validate fails, or a length check */
            } else if (type == IPV6_TLV_IOAM && (sw & CSC_ERA_BIT(CSC_E_HOP_IOAM))) {
                if ((off - nh) & 3u)
                    return TLV_BAD;   /* bad alignment */
            } else if ((type >> 6) != 0) {
                return TLV_BAD;       /* ip6_tlvopt_unknown: drop (10, 11: + parameter problem) */
            }
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
    return parse_tlv(p, l->off, h + 2, len - 2, sw);
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
