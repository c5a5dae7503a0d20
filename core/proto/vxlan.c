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
#include "decode.h"

#define VXLAN_KNOWN  (VXLAN_HF_VNI | VXLAN_HF_RCO | VXLAN_HF_GBP)
#define VXLAN_FLAGS_MASK 0xffffff00u   /* the flags word but its low byte (RCO start) */
#define VNI_LOW_BYTE 0xffu             /* the reserved byte after the VNI */

void dec_vxlan(struct dec *d, uint32_t off)
{
    struct dec_hdr h = dec_header_span(d, CSC_P_VXLAN, off, VXLAN_HLEN);
    if (!h.l)
        return;
    uint32_t flags = span_be32(&h.b, WIRE_OFF(vxlan_hdr, flags));
    h.l->u.vxlan.flags = flags;
    DEC_VAL(d, h.l, u.vxlan.vni, &h.b, WIRE_OFF(vxlan_hdr, vni), 4, ~VNI_LOW_BYTE, VNI_SHIFT);
    uint32_t vni = span_u8(&h.b, WIRE_OFF(vxlan_hdr, vni) + 3);     /* RCO start, or reserved */
    if (flags & ~VXLAN_KNOWN & VXLAN_FLAGS_MASK)
        h.l->notes |= CSC_N_RESERVED_BITS;
    if (flags & VXLAN_HF_RCO) {
        uint8_t lo = vni & VNI_LOW_BYTE;
        h.l->notes |= CSC_N_RCO;
        h.l->rco_start = (uint16_t)((lo & VXLAN_RCO_MASK) << VXLAN_RCO_SHIFT);
        h.l->rco_offset = (uint16_t)(h.l->rco_start + ((lo & VXLAN_RCO_UDP) ? UDP_CSUM_OFF : TCP_CSUM_OFF));
        /* remcsum_adjust sums the prefix [inner, inner+start) */
        dec_break_end(d, (uint64_t)off + VXLAN_HLEN + h.l->rco_start);
    } else if (vni & VNI_LOW_BYTE) {
        h.l->notes |= CSC_N_RESERVED_BITS;
    }
    dec_eth(d, off + VXLAN_HLEN);
}

/* A VXLAN header on a port not configured as VXLAN: the I flag alone among
 * the flags, the reserved bytes zero */
bool vxlan_looks_like(struct dec *d, uint32_t off)
{
    uint32_t flags = 0, vni = 0;
    return off + VXLAN_HLEN <= d->end && pkt_be32(&d->p, off + WIRE_OFF(vxlan_hdr, flags), &flags) &&
           pkt_be32(&d->p, off + WIRE_OFF(vxlan_hdr, vni), &vni) && flags == VXLAN_HF_VNI &&
           !(vni & VNI_LOW_BYTE);
}

static void gpe_next(struct dec *d, uint8_t np, uint32_t off)
{
    switch (np) {
    case VXLAN_GPE_NP_IPV4: dec_ipv4(d, off); break;
    case VXLAN_GPE_NP_IPV6: dec_ipv6(d, off); break;
    case VXLAN_GPE_NP_ETHERNET: dec_eth(d, off); break;
    case VXLAN_GPE_NP_NSH: dec_nsh(d, off); break;
    case VXLAN_GPE_NP_MPLS: dec_mpls(d, off); break;
    default: dec_stop_unknown(d, CSC_STOP_NEXT, off, np); break;
    }
}

void dec_vxlan_gpe(struct dec *d, uint32_t off)
{
    struct dec_hdr h = dec_header_span(d, CSC_P_VXLAN_GPE, off, WIRE_LEN(vxlan_gpe_hdr));
    if (!h.l)
        return;
    uint8_t flags = span_u8(&h.b, WIRE_OFF(vxlan_gpe_hdr, flags));
    uint8_t np = span_u8(&h.b, WIRE_OFF(vxlan_gpe_hdr, next_protocol));
    h.l->u.vxlan.flags = flags;
    h.l->u.vxlan.vni = span_be32(&h.b, WIRE_OFF(vxlan_gpe_hdr, vni)) >> VNI_SHIFT;
    h.l->next = np;
    if (flags & VXLAN_GPE_O)
        h.l->notes |= CSC_N_TUNNEL_OAM;
    /* P says the next-protocol field is present; without it, Ethernet. */
    gpe_next(d, (flags & VXLAN_GPE_P) ? np : VXLAN_GPE_NP_ETHERNET, off + WIRE_LEN(vxlan_gpe_hdr));
}

/* NSH's length: Length counts 4-byte words, at least the fixed part's;
 * that shorter, or a version other than 0, is malformed (0). */
static uint32_t nsh_hlen(struct dec *d, const struct span *fixed)
{
    uint8_t b0 = span_u8(fixed, WIRE_OFF(nsh_hdr, ver_flags));
    uint32_t hdr = (uint32_t)(span_u8(fixed, WIRE_OFF(nsh_hdr, ttl_len)) & NSH_LEN_MASK) * WIRE_WORD;
    if ((b0 >> NSH_VER_SHIFT) == 0 && hdr >= NSH_HLEN_MIN)
        return hdr;
    dec_stop(d, CSC_STOP_MALFORMED, CSC_P_NSH, fixed->off);
    return 0;
}

void dec_nsh(struct dec *d, uint32_t off)
{
    struct dec_hdr h = dec_header_var(d, CSC_P_NSH, off, NSH_HLEN_MIN, nsh_hlen);
    if (!h.l)
        return;
    uint8_t np = span_u8(&h.b, WIRE_OFF(nsh_hdr, next_protocol));
    h.l->next = np;
    h.l->u.nsh.spi_si = span_be32(&h.b, WIRE_OFF(nsh_hdr, spi_si));
    gpe_next(d, np, off + h.l->hdr_len);
}
