/*
 * geneve.c - Generic Network Virtualization Encapsulation (RFC 8926).
 *
 *    0                   1                   2                   3
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |Ver|  Opt Len  |O|C|    Rsvd.  |          Protocol Type        |
 *   |        Virtual Network Identifier (VNI)       |    Reserved   |
 *   |                    Variable-Length Options                    |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * Opt Len counts 4-byte words. Protocol 0x6558 carries Ethernet; any other
 * value is an EtherType (IPv4/IPv6 directly). No checksum of its own.
 * A version other than 0 is pushed as a layer (vers) and ends the stack: the
 * GENEVE socket still receives it and drops it (geneve_udp_encap_recv).
 */
#include "decode.h"

/* The header's length: the fixed part and Opt Len's words; a version other
 * than 0 is pushed as its fixed part alone. */
static uint32_t geneve_hlen(struct dec *d, const struct span *fixed)
{
    uint8_t b0 = span_u8(fixed, WIRE_OFF(geneve_hdr, ver_optlen));
    (void)d;                              /* (the first byte alone tells it) */
    if (b0 >> GENEVE_VER_SHIFT)
        return GENEVE_HLEN;
    return GENEVE_HLEN + (uint32_t)(b0 & GENEVE_OPTLEN_MASK) * WIRE_WORD;
}

void dec_geneve(struct dec *d, uint32_t off)
{
    struct dec_hdr h = dec_header_var(d, CSC_P_GENEVE, off, GENEVE_HLEN, geneve_hlen);
    if (!h.l)
        return;
    struct csc_layer *l = h.l;
    uint8_t ver = (uint8_t)(span_u8(&h.b, WIRE_OFF(geneve_hdr, ver_optlen)) >> GENEVE_VER_SHIFT);
    uint8_t flags = span_u8(&h.b, WIRE_OFF(geneve_hdr, flags));
    uint16_t proto = span_be16(&h.b, WIRE_OFF(geneve_hdr, proto_type));
    l->u.geneve.ver = ver;
    if (ver) {                        /* "reserved bits" to geneve_udp_encap_recv */
        l->notes |= CSC_N_RESERVED_BITS;
        dec_stop(d, CSC_STOP_UNSUPPORTED, CSC_P_GENEVE, off);
        return;
    }
    DEC_VAL(d, l, u.geneve.vni, &h.b, WIRE_OFF(geneve_hdr, vni), 4, 0xffffff00u, VNI_SHIFT);
    l->u.geneve.flags = flags;
    l->next = proto;
    if (l->hdr_len > GENEVE_HLEN)
        l->notes |= CSC_N_GENEVE_OPTIONS;
    if (flags & GENEVE_OAM)
        l->notes |= CSC_N_TUNNEL_OAM;
    dec_ethertype(d, proto, off + l->hdr_len);
}
