/*
 * vxlan.c - VXLAN (RFC 7348) with the Remote Checksum Offload extension
 * (draft-herbert-vxlan-rco; Linux include/net/vxlan.h), VXLAN-GPE
 * (draft-ietf-nvo3-vxlan-gpe) and NSH (RFC 8300).
 *
 * VXLAN:
 *    0                   1                   2                   3
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |R|R|R|R|I|R|R|R|R|R|C|        Reserved                         |
 *   |                VNI                            |O|  start/2    |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * I = 0x08000000 (VNI valid), C = 0x00200000 (RCO). With C the low byte of
 * the VNI word carries start/2 (7 bits) and O (0x80: UDP, else TCP): the
 * covered checksum starts `start` bytes after the VXLAN header and its
 * field is at start + 6 (UDP) or start + 16 (TCP).
 *
 * VXLAN-GPE: | flags(8) | reserved(16) | next protocol(8) | VNI(24) | rsvd |
 *   next protocol 1 IPv4, 2 IPv6, 3 Ethernet, 4 NSH, 5 MPLS.
 * NSH: | Ver(2) O U TTL(6) Length(6) | MD type | Next protocol | SPI/SI |...
 */
#include "../decode.h"

#define VXLAN_KNOWN  (VXLAN_HF_VNI | VXLAN_HF_RCO | VXLAN_HF_GBP)

void dec_vxlan(struct dec *d, uint32_t off)
{
    uint32_t flags = 0, vni = 0;
    if (!dec_need(d, CSC_P_VXLAN, off, 8))
        return;
    pkt_be32(&d->p, off, &flags);
    pkt_be32(&d->p, off + 4, &vni);
    struct csc_layer *l = dec_push(d, CSC_P_VXLAN, off, 8);
    if (!l)
        return;
    l->aux = flags;
    l->key = vni >> 8;
    if (flags & ~VXLAN_KNOWN & 0xffffff00u)
        l->notes |= CSC_N_RESERVED_BITS;
    if (flags & VXLAN_HF_RCO) {
        uint8_t lo = vni & 0xff;
        l->notes |= CSC_N_RCO;
        l->rco_start = (uint16_t)((lo & 0x7f) << 1);
        l->rco_offset = (uint16_t)(l->rco_start + ((lo & 0x80) ? 6 : 16));
        /* remcsum_adjust sums the prefix [inner, inner+start) */
        dec_break_end(d, (uint64_t)off + 8 + l->rco_start);
    } else if (vni & 0xff) {
        l->notes |= CSC_N_RESERVED_BITS;
    }
    dec_eth(d, off + 8);
}

static void gpe_next(struct dec *d, uint8_t np, uint32_t off)
{
    switch (np) {
    case 1: dec_ipv4(d, off); break;
    case 2: dec_ipv6(d, off); break;
    case 3: dec_eth(d, off); break;
    case 4: dec_nsh(d, off); break;
    case 5: dec_mpls(d, off); break;
    default: break;
    }
}

void dec_vxlan_gpe(struct dec *d, uint32_t off)
{
    uint8_t flags = 0, np = 0;
    uint32_t vni = 0;
    if (!dec_need(d, CSC_P_VXLAN_GPE, off, 8))
        return;
    pkt_u8(&d->p, off, &flags);
    pkt_u8(&d->p, off + 3, &np);
    pkt_be32(&d->p, off + 4, &vni);
    struct csc_layer *l = dec_push(d, CSC_P_VXLAN_GPE, off, 8);
    if (!l)
        return;
    l->aux = flags;
    l->key = vni >> 8;
    l->next = np;
    if (flags & 0x01)
        l->notes |= CSC_N_TUNNEL_OAM;
    /* P bit (0x04) says the next-protocol field is present; 0 means Ethernet. */
    gpe_next(d, (flags & 0x04) ? np : 3, off + 8);
}

void dec_nsh(struct dec *d, uint32_t off)
{
    uint8_t b0 = 0, b1 = 0, np = 0;
    if (!dec_need(d, CSC_P_NSH, off, 8))
        return;
    pkt_u8(&d->p, off, &b0);
    pkt_u8(&d->p, off + 1, &b1);
    pkt_u8(&d->p, off + 3, &np);
    uint32_t hdr = (uint32_t)(b1 & 0x3f) * 4;
    if ((b0 >> 6) != 0 || hdr < 8) {
        dec_stop(d, CSC_STOP_MALFORMED, CSC_P_NSH, off);
        return;
    }
    if (!dec_need(d, CSC_P_NSH, off, hdr))
        return;
    struct csc_layer *l = dec_push(d, CSC_P_NSH, off, hdr);
    if (!l)
        return;
    l->next = np;
    pkt_be32(&d->p, off + 4, &l->key);
    gpe_next(d, np, off + hdr);
}
