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
 *
 * NULL/LOOP: a 4-byte address family, host order (NULL) or network order
 * (LOOP): AF_INET 2; AF_INET6 10 (Linux), 24, 28, 30 (BSDs, macOS).
 */
#include "../decode.h"


static void sll_payload(struct dec *d, uint16_t proto, uint32_t off)
{
    switch (proto) {
    case 0x0001: case 0x0004: return;     /* 802.3 / 802.2 frames */
    default: dec_ethertype(d, proto, off); return;
    }
}

void dec_sll(struct dec *d, uint32_t off)
{
    uint16_t pkttype = 0, proto = 0;
    if (!dec_need(d, CSC_P_SLL, off, 16))
        return;
    struct csc_layer *l = dec_push(d, CSC_P_SLL, off, 16);
    if (!l)
        return;
    pkt_be16(&d->p, off, &pkttype);
    pkt_be16(&d->p, off + 14, &proto);
    l->next = proto;
    l->aux = pkttype;
    d->r->direction = pkttype == PACKET_OUTGOING ? CSC_DIR_OUT : CSC_DIR_IN;
    sll_payload(d, proto, off + 16);
}

void dec_sll2(struct dec *d, uint32_t off)
{
    uint16_t proto = 0;
    uint8_t pkttype = 0;
    if (!dec_need(d, CSC_P_SLL2, off, 20))
        return;
    struct csc_layer *l = dec_push(d, CSC_P_SLL2, off, 20);
    if (!l)
        return;
    pkt_be16(&d->p, off, &proto);
    pkt_u8(&d->p, off + 10, &pkttype);
    pkt_be32(&d->p, off + 4, &l->key);     /* ifindex */
    l->next = proto;
    l->aux = pkttype;
    d->r->direction = pkttype == PACKET_OUTGOING ? CSC_DIR_OUT : CSC_DIR_IN;
    sll_payload(d, proto, off + 20);
}

static void family_payload(struct dec *d, uint32_t fam, uint32_t off)
{
    switch (fam) {
    case 2: dec_ipv4(d, off); break;
    case 10: case 24: case 28: case 30: dec_ipv6(d, off); break;
    default: break;
    }
}

void dec_null(struct dec *d, uint32_t off)
{
    uint32_t fam = 0;
    if (!dec_need(d, CSC_P_NULL, off, 4))
        return;
    struct csc_layer *l = dec_push(d, CSC_P_NULL, off, 4);
    if (!l)
        return;
    /* Host order of the capturing machine: try little-endian first. */
    pkt_le32(&d->p, off, &fam);
    if (fam > 0xffff)
        pkt_be32(&d->p, off, &fam);
    l->next = (uint16_t)fam;
    family_payload(d, fam, off + 4);
}

void dec_loop(struct dec *d, uint32_t off)
{
    uint32_t fam = 0;
    if (!dec_need(d, CSC_P_NULL, off, 4))
        return;
    struct csc_layer *l = dec_push(d, CSC_P_NULL, off, 4);
    if (!l)
        return;
    pkt_be32(&d->p, off, &fam);
    l->next = (uint16_t)fam;
    family_payload(d, fam, off + 4);
}
