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

void dec_geneve(struct dec *d, uint32_t off)
{
    struct span b = dec_need_span(d, CSC_P_GENEVE, off, GENEVE_HLEN);
    if (!b.b)
        return;
    uint8_t b0 = span_u8(&b, WIRE_OFF(geneve_hdr, ver_optlen));
    uint8_t flags = span_u8(&b, WIRE_OFF(geneve_hdr, flags));
    uint16_t proto = span_be16(&b, WIRE_OFF(geneve_hdr, proto_type));
    uint32_t hdr = GENEVE_HLEN + (uint32_t)(b0 & GENEVE_OPTLEN_MASK) * WIRE_WORD;
    uint8_t ver = (uint8_t)(b0 >> GENEVE_VER_SHIFT);
    if (ver == 0 && !dec_need(d, CSC_P_GENEVE, off, hdr))
        return;
    struct csc_layer *l = dec_push(d, CSC_P_GENEVE, off, ver ? GENEVE_HLEN : hdr);
    if (!l)
        return;
    l->u.geneve.ver = ver;
    if (ver) {                        /* "reserved bits" to geneve_udp_encap_recv */
        l->notes |= CSC_N_RESERVED_BITS;
        dec_stop(d, CSC_STOP_UNSUPPORTED, CSC_P_GENEVE, off);
        return;
    }
    DEC_VAL(d, l, u.geneve.vni, &b, WIRE_OFF(geneve_hdr, vni), 4, 0xffffff00u, VNI_SHIFT);
    l->u.geneve.flags = flags;
    l->next = proto;
    if (hdr > GENEVE_HLEN)
        l->notes |= CSC_N_GENEVE_OPTIONS;
    if (flags & GENEVE_OAM)
        l->notes |= CSC_N_TUNNEL_OAM;
    dec_ethertype(d, proto, off + hdr);
}
