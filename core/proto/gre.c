/*
 * gre.c - GRE (RFC 2784, key and sequence RFC 2890), enhanced GRE for PPTP
 * (RFC 2637 §4.1, version 1), and ERSPAN type I/II/III payloads
 * (draft-foschiano-erspan).
 *
 *    0                   1                   2                   3
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |C|R|K|S|s|Recur|A| Flags | Ver |         Protocol Type         |
 *   |      Checksum (optional)      |       Reserved1 (Optional)    |
 *   |                         Key (optional)                        |
 *   |                 Sequence Number (optional)                    |
 *   |          Acknowledgment Number (optional, version 1)          |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * The checksum (C set) covers the GRE header and payload, no pseudo-header.
 * ERSPAN over GRE: protocol 0x88be without S is type I (no ERSPAN header),
 * with S type II (8 bytes); 0x22eb is type III (12 bytes, +8 with O set).
 */
#include "../decode.h"


void dec_gre(struct dec *d, uint32_t off)
{
    uint16_t flags = 0, proto = 0;
    if (!dec_need(d, CSC_P_GRE, off, 4))
        return;
    pkt_be16(&d->p, off, &flags);
    pkt_be16(&d->p, off + 2, &proto);
    uint8_t ver = flags & 7;
    uint32_t hdr = 4;
    if (ver == 0 && (flags & (GRE_C | GRE_R)))
        hdr += 4;
    if (flags & GRE_K)
        hdr += 4;
    if (flags & GRE_S)
        hdr += 4;
    if (ver == 1 && (flags & GRE_A))
        hdr += 4;
    if (!dec_need(d, CSC_P_GRE, off, hdr))
        return;
    struct csc_layer *l = dec_push(d, CSC_P_GRE, off, hdr);
    if (!l)
        return;
    l->sport = flags;
    l->next = proto;
    l->vers = ver;
    if (flags & GRE_K) {
        uint32_t k = off + 4 + ((flags & (GRE_C | GRE_R)) ? 4 : 0);
        pkt_be32(&d->p, k, &l->key);
        l->notes |= CSC_N_GRE_KEY;
    }
    if (flags & GRE_S)
        l->notes |= CSC_N_GRE_SEQ;
    if (ver == 0 && (flags & GRE_C)) {
        dec_csum(d, l, off + 4, off, d->end, 0);
    } else {
        l->verdict = CSC_V_NONE;
        l->reason = CSC_R_NO_C_BIT;
    }
    if (ver > 1 || (flags & GRE_R)) {
        dec_stop(d, CSC_STOP_UNSUPPORTED, CSC_P_GRE, off);
        return;
    }
    uint32_t pay = off + hdr;
    if (proto == ETH_P_ERSPAN && !(flags & GRE_S)) {
        dec_eth(d, pay);                 /* ERSPAN type I: bare mirrored frame */
        return;
    }
    if (proto == ETH_P_WCCP) {
        dec_wccp(d, pay);
        return;
    }
    if (proto == ETH_P_CMD) {
        dec_cmd_gre(d, pay);
        return;
    }
    dec_ethertype(d, proto, pay);
}

/*
 * WCCP v2 redirect over GRE (draft-wilson-wrec-wccp-v2 §4.12): an optional
 * 4-byte redirect header before the IPv4 packet; a packet that starts with
 * an IPv4 version nibble has none (the same test Wireshark applies).
 */
void dec_wccp(struct dec *d, uint32_t off)
{
    uint8_t b = 0;
    if (!dec_need(d, CSC_P_WCCP, off, 1))
        return;
    pkt_u8(&d->p, off, &b);
    uint32_t hdr = (b >> 4) == 4 ? 0 : 4;
    if (!dec_need(d, CSC_P_WCCP, off, hdr))
        return;
    if (dec_push(d, CSC_P_WCCP, off, hdr))
        dec_ipv4(d, off + hdr);
}

/*
 * Cisco MetaData carried by GRE (protocol 0x8909): the payload EtherType
 * comes first, then version, length, option and the security group tag:
 *   | EtherType | Ver | Len | Option (16) | SGT (16) |
 */
void dec_cmd_gre(struct dec *d, uint32_t off)
{
    uint16_t type = 0, sgt = 0;
    if (!dec_need(d, CSC_P_CMD, off, 8))
        return;
    pkt_be16(&d->p, off, &type);
    pkt_be16(&d->p, off + 6, &sgt);
    struct csc_layer *l = dec_push(d, CSC_P_CMD, off, 8);
    if (!l)
        return;
    l->next = type;
    l->key = sgt;
    dec_ethertype(d, type, off + 8);
}

/*
 * ERSPAN type II header (8 bytes):
 *   | Ver(4)=1 | VLAN(12) | COS(3) En(2) T(1) | Session ID(10) |
 *   | Reserved(12)       | Index(20)                          |
 */
void dec_erspan2(struct dec *d, uint32_t off)
{
    uint16_t w = 0;
    if (!dec_need(d, CSC_P_ERSPAN, off, 8))
        return;
    struct csc_layer *l = dec_push(d, CSC_P_ERSPAN, off, 8);
    if (!l)
        return;
    pkt_be16(&d->p, off, &w);
    l->vers = (uint8_t)(w >> 12);
    pkt_be16(&d->p, off + 2, &w);
    l->key = w & 0x3ff;
    dec_eth(d, off + 8);
}

/*
 * ERSPAN type III header (12 bytes, + 8 of platform-specific subheader when
 * O, the low bit of the last byte, is set):
 *   | Ver(4)=2 | VLAN(12) | COS(3) BSO(2) T(1) | Session ID(10) |
 *   | Timestamp (32)                                            |
 *   | SGT (16)           | P FT(5) HW ID(6) D Gra(2) O         |
 */
void dec_erspan3(struct dec *d, uint32_t off)
{
    uint8_t last = 0;
    uint16_t w = 0;
    if (!dec_need(d, CSC_P_ERSPAN, off, 12))
        return;
    pkt_u8(&d->p, off + 11, &last);
    uint32_t hdr = (last & 1) ? 20 : 12;
    if (!dec_need(d, CSC_P_ERSPAN, off, hdr))
        return;
    struct csc_layer *l = dec_push(d, CSC_P_ERSPAN, off, hdr);
    if (!l)
        return;
    pkt_be16(&d->p, off, &w);
    l->vers = (uint8_t)(w >> 12);
    pkt_be16(&d->p, off + 2, &w);
    l->key = w & 0x3ff;
    dec_eth(d, off + hdr);
}
