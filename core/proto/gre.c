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
 * Aruba access points tunnel 802.11 frames to their controller as protocols
 * 0x8200, 0x8210, ... 0x8370 (no header of Aruba's own: wlan.c), as
 * Wireshark's and Zeek's dissectors read them.
 */
#include "decode.h"

/* Header length: the fixed part and the optional words its flags announce. */
static uint32_t gre_hlen(struct dec *d, const struct span *fixed)
{
    uint16_t flags = span_be16(fixed, WIRE_OFF(gre_hdr, flags));
    uint8_t ver = flags & GRE_VERSION;
    (void)d;                              /* (the flags alone tell it) */
    uint32_t hdr = GRE_HLEN;
    if (ver == GRE_VERSION_0 && (flags & (GRE_C | GRE_R)))
        hdr += GRE_OPT_LEN;
    if (flags & GRE_K)
        hdr += GRE_OPT_LEN;
    if (flags & GRE_S)
        hdr += GRE_OPT_LEN;
    if (ver == GRE_VERSION_1 && (flags & GRE_A))
        hdr += GRE_OPT_LEN;
    return hdr;
}

void dec_gre(struct dec *d, uint32_t off)
{
    struct dec_hdr h = dec_header_var(d, CSC_P_GRE, off, GRE_HLEN, gre_hlen);
    if (!h.l)
        return;
    struct csc_layer *l = h.l;
    uint16_t flags = span_be16(&h.b, WIRE_OFF(gre_hdr, flags));
    uint16_t proto = span_be16(&h.b, WIRE_OFF(gre_hdr, protocol));
    uint8_t ver = flags & GRE_VERSION;
    l->u.gre.flags = flags;
    l->next = proto;
    if (flags & GRE_K) {
        uint32_t k = off + GRE_HLEN + ((flags & (GRE_C | GRE_R)) ? GRE_OPT_LEN : 0);
        struct span key;               /* (version 1: the C bit may put it past the header) */
        if (pkt_hdr(&d->p, k, GRE_OPT_LEN, &key))
            DEC_VAL(d, l, u.gre.key, &key, 0, 4, 0xffffffffu, 0);
        l->notes |= CSC_N_GRE_KEY;
    }
    if (flags & GRE_S)
        l->notes |= CSC_N_GRE_SEQ;
    if (ver == GRE_VERSION_0 && (flags & GRE_C)) {   /* the checksum starts the first word */
        dec_csum(d, l, off + GRE_HLEN, off, d->end, 0);
    } else {
        l->verdict = CSC_V_NONE;
        l->reason = CSC_R_NO_C_BIT;
    }
    if (ver > GRE_VERSION_1 || (flags & GRE_R)) {
        dec_stop(d, CSC_STOP_UNSUPPORTED, CSC_P_GRE, off);
        return;
    }
    uint32_t pay = off + l->hdr_len;
    if (proto == ETH_P_ERSPAN && !(flags & GRE_S)) {
        dec_erspan1(d, pay);             /* ERSPAN type I: bare mirrored frame */
        return;
    }
    if (proto == ETH_P_WCCP && flags == 0) {   /* gre_parse_header: WCCP only without flags */
        dec_wccp(d, pay);
        return;
    }
    if (proto == ETH_P_CMD) {
        dec_cmd_gre(d, pay);
        return;
    }
    if (proto >= ARUBA_GRE_FIRST && proto <= ARUBA_GRE_LAST && !(proto & ARUBA_GRE_STEP_MASK)) {
        dec_wlan(d, pay);
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
    uint32_t hdr = (b >> IP_VERSION_SHIFT) == IP_VERSION_4 ? 0 : WCCP_REDIRECT_LEN;
    if (dec_header(d, CSC_P_WCCP, off, hdr))
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
    struct csc_layer *l = dec_header(d, CSC_P_CMD, off, WIRE_LEN(cmd_hdr));
    if (!l)
        return;
    pkt_be16(&d->p, off + WIRE_OFF(cmd_hdr, ethertype), &type);
    pkt_be16(&d->p, off + WIRE_OFF(cmd_hdr, sgt), &sgt);
    l->next = type;
    l->u.cmd.sgt = sgt;
    dec_ethertype(d, type, off + WIRE_LEN(cmd_hdr));
}

/* ERSPAN's version and session ID, in the first two words of II and III */
static void erspan_ids(struct dec *d, struct csc_layer *l, uint32_t off)
{
    uint16_t w = 0;
    pkt_be16(&d->p, off + WIRE_OFF(erspan2_hdr, ver_vlan), &w);
    l->u.erspan.version = (uint8_t)(w >> ERSPAN_VER_SHIFT);
    pkt_be16(&d->p, off + WIRE_OFF(erspan2_hdr, cos_session), &w);
    l->u.erspan.session = w & ERSPAN_SESSION_MASK;
}

/*
 * ERSPAN type I: no header of its own, the mirrored Ethernet frame follows
 * the GRE header at once; a marker layer (version 0) says what it is.
 */
void dec_erspan1(struct dec *d, uint32_t off)
{
    struct csc_layer *l = dec_header(d, CSC_P_ERSPAN, off, 0);
    if (!l)
        return;
    l->u.erspan.version = 0;
    dec_eth(d, off);
}

/*
 * ERSPAN type II header (8 bytes):
 *   | Ver(4)=1 | VLAN(12) | COS(3) En(2) T(1) | Session ID(10) |
 *   | Reserved(12)       | Index(20)                          |
 */
void dec_erspan2(struct dec *d, uint32_t off)
{
    struct csc_layer *l = dec_header(d, CSC_P_ERSPAN, off, WIRE_LEN(erspan2_hdr));
    if (!l)
        return;
    erspan_ids(d, l, off);
    dec_eth(d, off + WIRE_LEN(erspan2_hdr));
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
    uint32_t base = WIRE_LEN(erspan3_hdr);
    if (!dec_need(d, CSC_P_ERSPAN, off, base))
        return;
    pkt_u8(&d->p, off + base - 1, &last);
    uint32_t hdr = (last & ERSPAN3_O) ? base + ERSPAN3_SUBHDR_LEN : base;
    struct csc_layer *l = dec_header(d, CSC_P_ERSPAN, off, hdr);
    if (!l)
        return;
    erspan_ids(d, l, off);
    dec_eth(d, off + hdr);
}
