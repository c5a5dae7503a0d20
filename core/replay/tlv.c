/*
 * tlv.c - ip6_parse_tlv on a hop-by-hop header (net/ipv6/exthdrs.c, v6.12;
 * the same in 6.1.192), as ip6_rcv_core runs it through ipv6_parse_hopopts:
 * padding (Pad1/PadN runs up to 7 bytes, PadN bytes zero), option lengths
 * within the header, at most max_hbh_opts_number (8) other options, and an
 * unknown option's action bits (00 skip; 01, 10, 11 drop). Router alert must
 * have length 2. Jumbo stays with the decoder's jumbo rule (CSC_N_JUMBO);
 * CALIPSO and IOAM are not modelled (unknown). docs/kernel-branches.md B5.
 */
#include "replay.h"
#include "tlv.h"

#define IPV6_TLV_PADN 1
#define IPV6_TLV_ROUTERALERT 5
#define IPV6_TLV_CALIPSO 7
#define IPV6_TLV_IOAM 0x31
#define MAX_HBH_OPTS 8                /* net.ipv6.max_hbh_opts_number */

/* The options area [off, off + len) of one hop-by-hop header */
static unsigned parse_tlv(const struct pkt *p, uint32_t off, uint32_t len)
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
            } else if (type == IPV6_TLV_CALIPSO || type == IPV6_TLV_IOAM) {
                return TLV_UNKNOWN;
            } else if (type != IPV6_TLV_JUMBO && (type >> 6) != 0) {
                return TLV_BAD;       /* ip6_tlvopt_unknown: drop (10, 11: + parameter problem) */
            }
            padlen = 0;
        }
        off += optlen;
        len -= optlen;
    }
    return TLV_OK;
}

unsigned ip6_hbh_verdict(const struct pkt *p, const struct csc_layer *l)
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
    return parse_tlv(p, h + 2, len - 2);
}

/* ipv6_parse_hopopts fails: ip6_rcv_core counts Ip6InHdrErrors (the skb
 * was freed IP_INHDR / UNHANDLED_PROTO by ip6_parse_tlv). False when the
 * packet went no further. */
bool ipv6_parse_hopopts(struct rp *rp, uint8_t i)
{
    unsigned v = ip6_hbh_verdict(&rp->p, L(rp, i));
    if (v == TLV_OK)
        return true;
    if (v == TLV_UNKNOWN)
        rp_unknown(rp, i, KF_IPV6_RCV);
    else
        rp_drop(rp, i, KF_IPV6_RCV, KD_IP_INHDR, CNT(CSC_C_IP6_IN_HDR_ERRORS));
    return false;
}
