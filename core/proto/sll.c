/*
 * sll.c - Linux cooked captures (LINKTYPE_LINUX_SLL, LINKTYPE_LINUX_SLL2) and
 * BSD loopback (LINKTYPE_NULL, LINKTYPE_LOOP). tcpdump.org/linktypes.
 *
 * SLL (16 bytes):
 *   +--------+--------+--------+------------------+--------+
 *   |pkttype | ARPHRD |addr len| address (8)      | proto  |
 *   +--------+--------+--------+------------------+--------+
 * SLL2 (20 bytes):
 *   +--------+--------+-----------------+--------+---+---+----------+
 *   | proto  | rsvd   | ifindex         | ARPHRD |pkt|aln| addr (8) |
 *   +--------+--------+-----------------+--------+---+---+----------+
 * Packet type 4 (PACKET_OUTGOING) marks a frame the host sent: the capture
 * was taken before the NIC, so partial/lco checksums are expected there.
 * The packet type and the device type (ARPHRD_LOOPBACK: lo, ARPHRD_NONE:
 * tun) go to the layer's view; csc_direction() reads them.
 *
 * NULL/LOOP: a 4-byte address family, host order (NULL) or network order
 * (LOOP): AF_INET 2; AF_INET6 10 (Linux), 24, 28, 30 (BSDs, macOS).
 */
#include "decode.h"

static void sll_payload(struct dec *d, uint16_t proto, uint32_t off)
{
    switch (proto) {
    case LINUX_SLL_P_802_3: case LINUX_SLL_P_802_2: return;     /* 802.3 / 802.2 frames */
    default: dec_ethertype(d, proto, off); return;
    }
}

/* The fields SLL and SLL2 share, then the payload at off */
static void sll_fields(struct dec *d, struct csc_layer *l, uint16_t pkttype, uint16_t hatype,
                       uint16_t proto, uint32_t off)
{
    l->next = proto;
    l->u.sll.pkttype = pkttype;
    l->u.sll.hatype = hatype;
    sll_payload(d, proto, off);
}

void dec_sll(struct dec *d, uint32_t off)
{
    struct dec_hdr h = dec_header_span(d, CSC_P_SLL, off, WIRE_LEN(sll_hdr));
    if (h.l)
        sll_fields(d, h.l, span_be16(&h.b, WIRE_OFF(sll_hdr, pkttype)),
                   span_be16(&h.b, WIRE_OFF(sll_hdr, hatype)), span_be16(&h.b, WIRE_OFF(sll_hdr, protocol)),
                   off + WIRE_LEN(sll_hdr));
}

void dec_sll2(struct dec *d, uint32_t off)
{
    struct dec_hdr h = dec_header_span(d, CSC_P_SLL2, off, WIRE_LEN(sll2_hdr));
    if (!h.l)
        return;
    h.l->u.sll.ifindex = span_be32(&h.b, WIRE_OFF(sll2_hdr, ifindex));
    sll_fields(d, h.l, span_u8(&h.b, WIRE_OFF(sll2_hdr, pkttype)),
               span_be16(&h.b, WIRE_OFF(sll2_hdr, hatype)), span_be16(&h.b, WIRE_OFF(sll2_hdr, protocol)),
               off + WIRE_LEN(sll2_hdr));
}

static void family_payload(struct dec *d, uint32_t fam, uint32_t off)
{
    switch (fam) {
    case BSD_AF_INET: dec_ipv4(d, off); break;
    case BSD_AF_INET6_LINUX: case BSD_AF_INET6_BSD: case BSD_AF_INET6_FREEBSD:
    case BSD_AF_INET6_DARWIN: dec_ipv6(d, off); break;
    default: dec_stop_unknown(d, CSC_STOP_NEXT, off, fam); break;
    }
}

/* host_order: the capturing machine's byte order (NULL), else network order (LOOP) */
static void null_header(struct dec *d, uint32_t off, bool host_order)
{
    uint32_t fam = 0;
    struct csc_layer *l = dec_header(d, CSC_P_NULL, off, WIRE_LEN(null_hdr));
    if (!l)
        return;
    /* host order: try little-endian first (a family never needs 16 bits) */
    if (!host_order || !pkt_le32(&d->p, off, &fam) || fam > UINT16_MAX)
        pkt_be32(&d->p, off, &fam);
    l->next = (uint16_t)fam;
    family_payload(d, fam, off + WIRE_LEN(null_hdr));
}

void dec_null(struct dec *d, uint32_t off)
{
    null_header(d, off, true);
}

void dec_loop(struct dec *d, uint32_t off)
{
    null_header(d, off, false);
}
