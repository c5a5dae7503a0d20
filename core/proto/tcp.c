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
#include "decode.h"

/* One walk over the options: the first MSS option, and what the kernel's
 * MD5/AO parsers (tcp_do_parse_auth_options, tcp_parse_md5sig_option)
 * branch on, noted by the option bytes left at each (the replay compares
 * them with the walk's minimum: core/replay/l4.c tcp_inbound_hash_refuses) */
static void tcp_options(struct dec *d, struct csc_layer *l, uint32_t opt, uint32_t end)
{
    while (opt < end) {
        uint8_t kind = 0, len = 0, left = (uint8_t)(end - opt);
        uint16_t mss = 0;
        if (!pkt_u8(&d->p, opt, &kind) || kind == TCPOPT_EOL)
            return;
        if (kind == TCPOPT_NOP) {
            opt++;
            continue;
        }
        if (!pkt_u8(&d->p, opt + WIRE_OFF(tcp_opt, len), &len) || len < WIRE_LEN(tcp_opt) || len > left) {
            l->u.tcp.auth_bad_len = left;
            return;
        }
        bool md5 = kind == TCPOPT_MD5SIG, ao = kind == TCPOPT_AO;
        if (md5 && !l->u.tcp.md5_first) {
            l->u.tcp.md5_first = left;
            l->u.tcp.md5_first_ok = len == TCPOLEN_MD5SIG;
        }
        if ((md5 || ao) && !l->u.tcp.auth_bad) {
            bool again = l->u.tcp.auth_md5 || l->u.tcp.auth_ao;
            if (again || (md5 && len != TCPOLEN_MD5SIG) || (ao && len <= TCPOLEN_AO_HDR))
                l->u.tcp.auth_bad = left;
            else if (md5)
                l->u.tcp.auth_md5 = left;
            else
                l->u.tcp.auth_ao = left;
        }
        if (kind == TCPOPT_MSS && len == TCPOLEN_MSS && !l->u.tcp.mss &&
            pkt_be16(&d->p, opt + WIRE_LEN(tcp_opt), &mss))
            l->u.tcp.mss = mss;
        opt += len;
    }
}

void dec_tcp(struct dec *d, uint32_t off)
{
    struct span b = dec_need_span(d, CSC_P_TCP, off, TCP_HLEN);
    if (!b.b)
        return;
    uint8_t doff = span_bits(&b, WIRE_OFF(tcp_hdr, doff), 0xf0);   /* the low bits: reserved */
    uint8_t flags = span_u8(&b, WIRE_OFF(tcp_hdr, flags));
    uint32_t hdr = (uint32_t)(doff >> TCP_DOFF_SHIFT) * WIRE_WORD;
    bool lying = hdr < TCP_HLEN || (uint64_t)off + hdr > d->end;
    if (!lying && !pkt_has(&d->p, off, hdr)) {
        dec_stop(d, CSC_STOP_TRUNCATED, CSC_P_TCP, off);   /* options cut by the capture */
        return;
    }
    struct csc_layer *l = dec_push(d, CSC_P_TCP, off, lying ? TCP_HLEN : hdr);
    if (!l)
        return;
    DEC_VAL(d, l, u.tcp.sport, &b, WIRE_OFF(tcp_hdr, source), 2, 0xffff, 0);
    DEC_VAL(d, l, u.tcp.dport, &b, WIRE_OFF(tcp_hdr, dest), 2, 0xffff, 0);
    l->u.tcp.flags = flags;
    DEC_VAL(d, l, u.tcp.seq, &b, WIRE_OFF(tcp_hdr, seq), 4, 0xffffffffu, 0);
    DEC_VAL(d, l, u.tcp.ack, &b, WIRE_OFF(tcp_hdr, ack_seq), 4, 0xffffffffu, 0);
    if (d->gso)
        l->notes |= CSC_N_GSO;
    uint32_t len = d->end - off;
    dec_csum_l4(d, l, off + TCP_CSUM_OFF, off, d->end, IPPROTO_TCP_, len, 1);
    if (lying) {
        l->notes |= CSC_N_LEN_SHORT;
        dec_stop(d, CSC_STOP_MALFORMED, CSC_P_TCP, off);
        return;
    }
    tcp_options(d, l, off + TCP_HLEN, off + hdr);
}
