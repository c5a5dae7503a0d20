/*
 * tcp.c - TCP (RFC 9293) header, options for MSS (RFC 9293 §3.7.1).
 *
 *    0                   1                   2                   3
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |          Source Port          |       Destination Port        |
 *   |                        Sequence Number                        |
 *   |                    Acknowledgment Number                      |
 *   |  Data |       |C|E|U|A|P|R|S|F|                               |
 *   | Offset| Rsrvd |W|C|R|C|S|S|Y|I|            Window             |
 *   |           Checksum            |         Urgent Pointer        |
 *   |                    Options                    |    Padding    |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * The checksum covers the TCP segment to the end of the IP payload with the
 * pseudo-header of the enclosing IP layer.
 */
#include "../decode.h"

static uint16_t find_mss(struct dec *d, uint32_t opt, uint32_t end)
{
    while (opt < end) {
        uint8_t kind = 0, len = 0;
        uint16_t mss = 0;
        if (!pkt_u8(&d->p, opt, &kind) || kind == 0)
            return 0;
        if (kind == 1) {
            opt++;
            continue;
        }
        if (!pkt_u8(&d->p, opt + 1, &len) || len < 2)
            return 0;
        if (kind == 2 && len == 4 && pkt_be16(&d->p, opt + 2, &mss))
            return mss;
        opt += len;
    }
    return 0;
}

void dec_tcp(struct dec *d, uint32_t off)
{
    uint8_t doff = 0, flags = 0;
    uint16_t sport = 0, dport = 0;
    if (!dec_need(d, CSC_P_TCP, off, 20))
        return;
    pkt_be16(&d->p, off, &sport);
    pkt_be16(&d->p, off + 2, &dport);
    pkt_u8(&d->p, off + 12, &doff);
    pkt_u8(&d->p, off + 13, &flags);
    uint32_t hdr = (uint32_t)(doff >> 4) * 4;
    bool lying = hdr < 20 || (uint64_t)off + hdr > d->end;
    if (!lying && !pkt_has(&d->p, off, hdr)) {
        dec_stop(d, CSC_STOP_TRUNCATED, CSC_P_TCP, off);   /* options cut by the capture */
        return;
    }
    struct csc_layer *l = dec_push(d, CSC_P_TCP, off, lying ? 20 : hdr);
    if (!l)
        return;
    l->sport = sport;
    l->dport = dport;
    l->tcp_flags = flags;
    pkt_be32(&d->p, off + 4, &l->key);
    pkt_be32(&d->p, off + 8, &l->aux);
    if (d->gso)
        l->notes |= CSC_N_GSO;
    uint32_t len = d->end - off;
    dec_csum(d, l, off + 16, off, d->end, dec_l4_pseudo(d, IPPROTO_TCP_, len, 1));
    if (lying) {
        l->notes |= CSC_N_LEN_SHORT;
        dec_stop(d, CSC_STOP_MALFORMED, CSC_P_TCP, off);
        return;
    }
    l->mss = find_mss(d, off + 20, off + hdr);
}
