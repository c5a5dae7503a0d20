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
 */
#include "../decode.h"

void dec_geneve(struct dec *d, uint32_t off)
{
    uint8_t b0 = 0, b1 = 0;
    uint16_t proto = 0;
    uint32_t vni = 0;
    if (!dec_need(d, CSC_P_GENEVE, off, 8))
        return;
    pkt_u8(&d->p, off, &b0);
    pkt_u8(&d->p, off + 1, &b1);
    pkt_be16(&d->p, off + 2, &proto);
    pkt_be32(&d->p, off + 4, &vni);
    uint32_t hdr = 8 + (uint32_t)(b0 & 0x3f) * 4;
    if ((b0 >> 6) != 0) {
        dec_stop(d, CSC_STOP_UNSUPPORTED, CSC_P_GENEVE, off);
        return;
    }
    if (!dec_need(d, CSC_P_GENEVE, off, hdr))
        return;
    struct csc_layer *l = dec_push(d, CSC_P_GENEVE, off, hdr);
    if (!l)
        return;
    l->key = vni >> 8;
    l->next = proto;
    l->aux = b1;
    if (hdr > 8)
        l->notes |= CSC_N_GENEVE_OPTIONS;
    if (b1 & 0x80)
        l->notes |= CSC_N_TUNNEL_OAM;
    dec_ethertype(d, proto, off + hdr);
}
