/*
 * nhrp.c - NHRP (RFC 2332) over GRE (protocol 0x2001), as DMVPN carries it:
 * the fixed header with its checksum, and for a Traffic Indication (Cisco,
 * type 8) the data packet that caused it, decoded as a quote.
 *
 *    0                   1                   2                   3
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |            ar$afn             |          ar$pro.type          |
 *   |                          ar$pro.snap                          |
 *   |  ar$pro.snap  |   ar$hopcnt   |            ar$pktsz           |
 *   |           ar$chksum           |            ar$extoff          |
 *   | ar$op.version | ar$op.type    |    ar$shtl    |    ar$sstl    |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   Traffic Indication's mandatory part (laid out as Error Indication's,
 *   RFC 2332 §5.2.7):
 *   | Src Proto Len | Dst Proto Len |            unused             |
 *   |          Traffic Code         |            unused             |
 *   | Source NBMA Address (shtl) | NBMA Subaddress (sstl)           |
 *   | Source Protocol Address (spl) | Destination Protocol Addr (tpl)|
 *   | the packet that caused the indication ...                     |
 *
 * ar$chksum is the IP checksum over the whole NHRP packet (ar$pktsz bytes,
 * extensions included), no pseudo-header. The quoted packet is judged as an
 * ICMP error's quote: its IP header, its transport only when it is whole.
 */
#include "decode.h"

void dec_nhrp(struct dec *d, uint32_t off)
{
    struct dec_hdr h = dec_header_span(d, CSC_P_NHRP, off, WIRE_LEN(nhrp_hdr));
    if (!h.l)
        return;
    uint16_t pktsz = span_be16(&h.b, WIRE_OFF(nhrp_hdr, pktsz));
    uint8_t type = span_u8(&h.b, WIRE_OFF(nhrp_hdr, op_type));
    h.l->next = type;
    uint64_t end = (uint64_t)off + pktsz;
    if (pktsz < WIRE_LEN(nhrp_hdr) || end > d->end) {
        h.l->notes |= pktsz < WIRE_LEN(nhrp_hdr) ? CSC_N_LEN_SHORT : CSC_N_LEN_EXCEEDS;
        dec_stop(d, CSC_STOP_MALFORMED, CSC_P_NHRP, off);
        return;
    }
    dec_csum(d, h.l, off + WIRE_OFF(nhrp_hdr, chksum), off, (uint32_t)end, 0);
    if (type != NHRP_TRAFFIC_INDICATION)
        return;
    uint32_t m = off + WIRE_LEN(nhrp_hdr);
    /* the source and target protocol lengths lead */
    struct span mand = dec_need_span(d, CSC_P_NHRP, m, NHRP_IND_MAND_LEN);
    if (!mand.b)
        return;
    uint64_t q = (uint64_t)m + NHRP_IND_MAND_LEN + (span_u8(&h.b, WIRE_OFF(nhrp_hdr, shtl)) & NHRP_TL_LEN) +
                 (span_u8(&h.b, WIRE_OFF(nhrp_hdr, sstl)) & NHRP_TL_LEN) +
                 span_u8(&mand, 0) + span_u8(&mand, 1);
    if (q >= end)
        return;
    d->quoted = 1;
    d->end = (uint32_t)end;
    dec_ip_by_nibble(d, (uint32_t)q);
}
