/*
 * gue.c - Generic UDP Encapsulation (draft-ietf-intarea-gue-09; Linux
 * include/net/gue.h) and its Remote Checksum Offload private option
 * (draft-herbert-remotecsumoffload).
 *
 * Variant 0:
 *    0                   1                   2                   3
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |0 0|C|   Hlen  |  Proto/ctype  |             Flags             |
 *   |                  Extension fields (Hlen words)                |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * Flag P (GUE_FLAG_PRIV, 0x0001): a 32-bit private-flags word starts the
 * options; its bit 31 (GUE_PFLAG_REMCSUM) adds "start:16 offset:16",
 * relative to the end of the GUE header including options. Linux knows no
 * other flag and drops a packet that sets one.
 * Variant 1 (first two bits 01): no GUE header, IPv4 or IPv6 directly.
 * Variants 2 and 3 are undefined: the layer is kept (vers) and the stack
 * ends. A control message (C) is kept with the note "oam" and ends the
 * stack; Linux frees it (gue_control_message).
 * FOU, at the end: no header, the port names the protocol.
 */
#include "decode.h"

/* The private flags word and, with REMCSUM, the RCO start and offset. */
static bool gue_private(struct dec *d, struct csc_layer *l, uint32_t off, uint32_t hdr)
{
    uint32_t pflags = 0, priv = off + GUE_HLEN;
    if (hdr < GUE_HLEN + GUE_PRIV_LEN || !pkt_be32(&d->p, priv, &pflags))
        return false;
    if (pflags & ~GUE_PFLAG_REMCSUM)
        l->notes |= CSC_N_RESERVED_BITS;
    if (!(pflags & GUE_PFLAG_REMCSUM))
        return true;
    uint32_t rc = priv + GUE_PRIV_LEN;
    if (hdr < GUE_HLEN + GUE_PRIV_LEN + GUE_PLEN_REMCSUM)
        return false;
    pkt_be16(&d->p, rc + WIRE_OFF(gue_remcsum, start), &l->rco_start);
    pkt_be16(&d->p, rc + WIRE_OFF(gue_remcsum, offset), &l->rco_offset);
    l->notes |= CSC_N_RCO;
    dec_break_end(d, (uint64_t)off + hdr + l->rco_start);
    return true;
}

void dec_gue(struct dec *d, uint32_t off)
{
    uint8_t b0 = 0, proto = 0;
    uint16_t flags = 0;
    if (!dec_need(d, CSC_P_GUE, off, 1))
        return;
    pkt_u8(&d->p, off + WIRE_OFF(guehdr, control), &b0);
    if ((b0 >> GUE_VARIANT_SHIFT) == GUE_VARIANT_1) {   /* direct IP */
        struct csc_layer *l = dec_push(d, CSC_P_GUE, off, 0);
        if (!l)
            return;
        l->u.gue.variant = GUE_VARIANT_1;
        dec_ip_by_nibble(d, off);
        return;
    }
    if (!dec_need(d, CSC_P_GUE, off, GUE_HLEN))
        return;
    if ((b0 >> GUE_VARIANT_SHIFT) != GUE_VARIANT_0) {  /* 2, 3: undefined, gue_udp_recv drops them */
        struct csc_layer *l = dec_push(d, CSC_P_GUE, off, GUE_HLEN);
        if (l)
            l->u.gue.variant = (uint8_t)(b0 >> GUE_VARIANT_SHIFT);
        dec_stop(d, CSC_STOP_UNSUPPORTED, CSC_P_GUE, off);
        return;
    }
    pkt_u8(&d->p, off + WIRE_OFF(guehdr, proto_ctype), &proto);
    pkt_be16(&d->p, off + WIRE_OFF(guehdr, flags), &flags);
    uint32_t hdr = GUE_HLEN + (uint32_t)(b0 & GUE_HLEN_MASK) * WIRE_WORD;
    struct csc_layer *l = dec_header(d, CSC_P_GUE, off, hdr);
    if (!l)
        return;
    l->u.gue.variant = GUE_VARIANT_0;
    l->u.gue.flags = flags;
    l->next = proto;
    if (b0 & GUE_CONTROL) {           /* control message: the note says so */
        l->notes |= CSC_N_TUNNEL_OAM;
        dec_stop(d, CSC_STOP_UNSUPPORTED, CSC_P_GUE, off);
        return;
    }
    if (flags & ~GUE_FLAG_PRIV)
        l->notes |= CSC_N_RESERVED_BITS;
    if ((flags & GUE_FLAG_PRIV) && !gue_private(d, l, off, hdr)) {
        dec_stop(d, CSC_STOP_MALFORMED, CSC_P_GUE, off);
        return;
    }
    dec_ipproto(d, proto, off + hdr);
}

/*
 * FOU (Linux net/ipv4/fou_core.c): no header at all; the UDP port says which
 * IP protocol the payload is (ip fou add port PORT ipproto N), resubmitted
 * as if the outer IP header had carried it.
 */
void dec_fou(struct dec *d, uint32_t off)
{
    struct csc_layer *l = dec_push(d, CSC_P_FOU, off, 0);
    if (!l)
        return;
    l->next = d->port_ipproto;
    dec_ipproto(d, d->port_ipproto, off);
}
