/*
 * decode.c - the layer stack: link dispatch, the dispatch tables and the
 * helpers every protocol decoder uses.
 */
#include "decode.h"

#include "../csum.h"
#include "protos.h"
#include "../stages.h"

#include <stddef.h>
#include <string.h>

struct csc_layer *dec_push_full(struct dec *d, enum csc_proto proto, uint32_t off)
{
    dec_stop(d, CSC_STOP_DEPTH, proto, off);
    return NULL;
}

void dec_break_side(struct dec *d, uint32_t v)
{
    sums_side(&d->r->sums, v);
}

void dec_stop(struct dec *d, enum csc_stop why, enum csc_proto proto, uint32_t off)
{
    /* The first reason wins: later decoders never run after a stop. */
    struct csc_result *r = d->r;
    if (r->stop != CSC_STOP_END || r->stop_proto != CSC_P_NONE)
        return;
    r->stop = (uint8_t)why;
    r->stop_proto = (uint8_t)proto;
    r->stop_off = off;
    r->stop_layer = r->nlayers ? (uint8_t)(r->nlayers - 1) : CSC_NO_LAYER;
}

void dec_stop_value(struct dec *d, enum csc_stop why, enum csc_proto proto, uint32_t off,
                    uint32_t value)
{
    if (d->r->stop != CSC_STOP_END || d->r->stop_proto != CSC_P_NONE)
        return;
    dec_stop(d, why, proto, off);
    d->r->stop_value = value;
    d->r->stop_has_value = 1;
}

void dec_stop_option(struct dec *d, enum csc_stop_opt opt, enum csc_proto opt_proto,
                     enum csc_proto proto, uint32_t off, uint32_t value, bool has_value)
{
    if (d->r->stop != CSC_STOP_END || d->r->stop_proto != CSC_P_NONE)
        return;
    dec_stop_value(d, CSC_STOP_NEEDS_OPTION, proto, off, value);
    d->r->stop_has_value = has_value;
    d->r->stop_opt = (uint8_t)opt;
    d->r->stop_opt_proto = (uint8_t)opt_proto;
}

/* The payload at off names something this decoder does not know: a stop
 * unless nothing is there (the stack just ends). The layer just decoded
 * named it: the stop is its. */
void dec_stop_unknown(struct dec *d, enum csc_stop why, uint32_t off, uint32_t value)
{
    const struct csc_result *r = d->r;
    if (off >= d->end || d->quoted || !r->nlayers)
        return;
    const struct csc_layer *l = &r->layers[r->nlayers - 1];
    dec_stop_value(d, why, (enum csc_proto)l->proto, l->off, value);
}

void dec_csum(struct dec *d, struct csc_layer *l, uint32_t csum_off, uint32_t cov_off,
              uint32_t cov_end, uint32_t pseudo)
{
    l->csum_off = csum_off;
    l->cov_off = cov_off;
    l->cov_end = cov_end;
    l->pseudo = pseudo;
    dec_break(d, cov_off);
    dec_break_end(d, cov_end);
    if (l->verdict != CSC_V_NA)
        return;
    int ip_short = d->ip != CSC_NO_LAYER && (d->r->layers[d->ip].notes & CSC_N_LEN_EXCEEDS);
    /* A first fragment before a short IP length: the checksum covers bytes
     * of later fragments whatever the IP length says, so it is never judged
     * over the bytes present (verify_short_ip would call a UDP one bad). */
    if (ip_short && d->quoted)
        dec_unverifiable(l, CSC_R_ICMP_QUOTE);
    else if (d->fragment)
        dec_unverifiable(l, CSC_R_FRAGMENT);
    else if (ip_short || d->len_bad)
        dec_unverifiable(l, CSC_R_LEN_MISMATCH);
}

void dec_csum_l4(struct dec *d, struct csc_layer *l, uint32_t csum_off, uint32_t cov_off,
                 uint32_t cov_end, uint8_t proto, uint32_t len, int with_len)
{
    dec_csum(d, l, csum_off, cov_off, cov_end, csc_l4_pseudo(d->r, d->ip, proto, len, with_len));
    if (d->ip == CSC_NO_LAYER)
        return;                        /* 0: a constant */
    VALUE_MARK(d->r, l, pseudo);
    if (PKT_UNLIKELY(d->p.rec != 0)) {
        struct rec_op op = { ROP_L4_PSEUDO, 4, 0, d->ip,
                             (uint16_t)((const uint8_t *)&l->pseudo - (const uint8_t *)d->r), proto,
                             len | (with_len ? 1u << 31 : 0) };
        rec_op(d->p.rec, &op);
    }
}

uint32_t dec_val_note(struct dec *d, struct csc_layer *l, size_t member_at, unsigned member_size,
                      const struct span *sp, unsigned at, unsigned width, uint32_t mask,
                      unsigned shift, uint32_t v)
{
    value_mark(d->r, l, member_at, member_size);
    uint32_t dst = (uint32_t)((const uint8_t *)l - (const uint8_t *)d->r + member_at);
    uint32_t src = sp->off + at;
    if (dst > UINT16_MAX || src > UINT16_MAX) {
        d->p.rec->overflow = 1;
        return v;
    }
    struct rec_op op = { (uint8_t)(width == 1 ? ROP_BE8 : width == 2 ? ROP_BE16 : ROP_BE32),
                         (uint8_t)member_size, (uint8_t)shift, 0, (uint16_t)dst, (uint16_t)src,
                         mask };
    rec_op(d->p.rec, &op);
    return v;
}

static void note_pseudo(struct dec *d, struct csc_layer *l, uint8_t kind, uint32_t src,
                        uint32_t arg)
{
    VALUE_MARK(d->r, l, pseudo);
    if (PKT_UNLIKELY(d->p.rec != 0)) {
        uint32_t dst = (uint32_t)((const uint8_t *)&l->pseudo - (const uint8_t *)d->r);
        if (src > UINT16_MAX) {
            d->p.rec->overflow = 1;
            return;
        }
        struct rec_op op = { kind, 4, 0, 0, (uint16_t)dst, (uint16_t)src, arg };
        rec_op(d->p.rec, &op);
    }
}

uint32_t csc_pseudo4(const uint8_t *a)
{
    return csum_tcpudp_nofold(bytes_be32(a), bytes_be32(a + 4), 0, 0, 0);
}

static uint32_t addr6_sum(const uint8_t *a)
{
    uint32_t s = 0;
    for (int i = 0; i < IPV6_ADDR_LEN; i += 2)
        s = csum_add(s, bytes_be16(a + i));
    return s;
}

uint32_t csc_pseudo6(const uint8_t *src, const uint8_t *dst)
{
    return csum_add(addr6_sum(src), addr6_sum(dst));
}

void dec_val_pseudo4(struct dec *d, struct csc_layer *l, uint32_t addr_off)
{
    /* the header is there (dec_need): its addresses too */
    l->pseudo = csc_pseudo4(d->p.data + addr_off);
    note_pseudo(d, l, ROP_PSEUDO4, addr_off, 0);
}

void dec_val_pseudo6(struct dec *d, struct csc_layer *l, uint32_t src, uint32_t dst)
{
    l->pseudo = csc_pseudo6(d->p.data + src, d->p.data + dst);
    note_pseudo(d, l, ROP_PSEUDO6, src, dst);
}

void dec_unverifiable(struct csc_layer *l, enum csc_reason why)
{
    l->verdict = CSC_V_UNVERIFIABLE;
    l->reason = (uint8_t)why;
}

bool dec_ip_extent(struct dec *d, struct csc_layer *l, uint64_t declared, uint32_t hdr_end,
                   bool gso, bool quoted_before)
{
    d->len_bad = 0;
    d->fragment = 0;
    d->gso = 0;
    if (gso && d->end > hdr_end) {
        l->notes |= CSC_N_GSO;
        d->gso = 1;
    } else if (declared < hdr_end) {
        l->notes |= CSC_N_LEN_SHORT;
        dec_stop(d, CSC_STOP_MALFORMED, (enum csc_proto)l->proto, l->off);
        return false;
    } else if (declared > d->end) {
        l->notes |= CSC_N_LEN_EXCEEDS;
        if (d->r->nlayers >= 2 && d->r->layers[d->r->nlayers - 2].proto == CSC_P_PPPOE)
            l->notes |= CSC_N_LINK_LEN_SHORT;
        if (!quoted_before)
            d->len_bad = 1;
    } else {
        if (declared < d->end && l->ip == CSC_NO_LAYER)
            l->notes |= CSC_N_PADDING;
        d->end = (uint32_t)declared;
    }
    l->end = d->end;
    dec_break_end(d, d->end);
    return true;
}

uint32_t csc_l4_pseudo(const struct csc_result *r, uint8_t ipl, uint8_t proto, uint32_t len,
                       int with_len)
{
    if (ipl == CSC_NO_LAYER)
        return 0;
    const struct csc_layer *ip = &r->layers[ipl];
    uint32_t sum = csum_add(ip->pseudo, proto);
    if (with_len) {
        sum = csum_add(sum, len >> 16);
        sum = csum_add(sum, len & 0xffff);
    }
    if (ip->proto == CSC_P_IPV6)    /* ip6_compute_pseudo: ~csum_unfold(magic) */
        sum = 0xffff0000u | fold16(sum);
    return sum;
}

/* ---- dispatch tables ---------------------------------------------- */

/* Payloads that carry no packet: control protocols. The stack ends at
 * them without a stop; any other payload nothing decodes is a stop with
 * its value (unknown-ethertype, unknown-ipproto, unknown-next). */
static bool ethertype_is_leaf(uint16_t type)
{
    switch (type) {
    case ETH_P_ARP: case ETH_P_RARP: case ETH_P_PPP_DISC: case ETH_P_SLOW: case ETH_P_PAE:
    case ETH_P_PREAUTH: case ETH_P_LLDP: case ETH_P_MRP: case ETH_P_1588: case ETH_P_CFM:
    case ETH_P_FIP: case ETH_P_LOOPBACK: case ETH_P_CDP:
        return true;
    default:
        return false;
    }
}

bool csc_ipproto_is_leaf(uint8_t proto)
{
    switch (proto) {
    case IPPROTO_NONE_: case IPPROTO_EGP_: case IPPROTO_IGRP_: case IPPROTO_DCCP_:
    case IPPROTO_RSVP_: case IPPROTO_EIGRP_: case IPPROTO_OSPF_: case IPPROTO_PIM_:
    case IPPROTO_VRRP_: case IPPROTO_SCTP_: case IPPROTO_UDPLITE_:
        return true;
    default:
        return false;
    }
}

/* The ethertype table as a switch: the compiler makes it a jump table or
 * a few compares, where a table walk compared every row before TEB. */
void dec_ethertype(struct dec *d, uint16_t type, uint32_t off)
{
    switch (type) {
    case ETH_P_IP: dec_ipv4(d, off); break;
    case ETH_P_IPV6: dec_ipv6(d, off); break;
    case ETH_P_8021Q: case ETH_P_8021AD: case ETH_P_QINQ1: dec_vlan(d, off); break;
    case ETH_P_MPLS_UC: case ETH_P_MPLS_MC: dec_mpls(d, off); break;
    case ETH_P_PPP_SES: dec_pppoe(d, off); break;
    case ETH_P_TEB: dec_eth(d, off); break;
    case ETH_P_PPP: dec_ppp(d, off); break;
    case ETH_P_ERSPAN: dec_erspan2(d, off); break;
    case ETH_P_ERSPAN3: dec_erspan3(d, off); break;
    case ETH_P_NSH: dec_nsh(d, off); break;
    case ETH_P_NHRP: dec_nhrp(d, off); break;
    case ETH_P_MACSEC: dec_macsec(d, off); break;
    default:
        if (!ethertype_is_leaf(type))
            dec_stop_unknown(d, CSC_STOP_ETHERTYPE, off, type);
        break;
    }
}

/* inet_protos[]: the IP protocol number's row, and its decoder. An IP
 * packet that names a protocol but ends with its own header lacks that
 * protocol's header: malformed (the receiver's handler finds nothing to
 * pull), unless it is a quote (short by nature). */
void dec_ipproto(struct dec *d, uint8_t proto, uint32_t off)
{
    const struct proto_row *row = csc_inet_protos[proto];
    if (row && row->decode_ip) {
        if (off >= d->end && !d->quoted && d->r->nlayers)
            dec_stop(d, CSC_STOP_MALFORMED, (enum csc_proto)(row - csc_protos), off);
        else
            row->decode_ip(d, off);
    } else if (!csc_ipproto_is_leaf(proto))
        dec_stop_unknown(d, CSC_STOP_IPPROTO, off, proto);
}

void dec_ppp_proto(struct dec *d, uint16_t proto, uint32_t off)
{
    switch (proto) {
    case PPP_IP: dec_ipv4(d, off); break;
    case PPP_IPV6: dec_ipv6(d, off); break;
    case PPP_MPLS_UC:
    case PPP_MPLS_MC: dec_mpls(d, off); break;
    default:
        if (proto < PPP_CONTROL_MIN)  /* a data protocol (bridged Ethernet, multilink, ...) */
            dec_stop_unknown(d, CSC_STOP_NEXT, off, proto);
        break;
    }
}

void dec_ip_by_nibble(struct dec *d, uint32_t off)
{
    uint8_t b;
    if (!pkt_u8(&d->p, off, &b)) {
        if (off < d->end)
            dec_stop(d, CSC_STOP_TRUNCATED, CSC_P_NONE, off);
        return;
    }
    if ((b >> 4) == IP_VERSION_4)
        dec_ipv4(d, off);
    else if ((b >> 4) == IP_VERSION_6)
        dec_ipv6(d, off);
    else if (d->r->nlayers)
        dec_stop_unknown(d, CSC_STOP_NEXT, off, b >> 4);
    else                              /* a raw link: the first byte must say IP */
        dec_stop_value(d, CSC_STOP_MALFORMED, CSC_P_NONE, off, b >> 4);
}

static const struct csc_port *port_lookup(const struct csc_config *cfg, uint16_t port)
{
    for (unsigned i = 0; i < cfg->nports; i++)
        if (cfg->ports[i].port == port)
            return &cfg->ports[i];
    return NULL;
}

/* The port table's row a datagram's ports name (the destination port's,
 * else the source port's), as its index + 1 in the low byte (0: none), and
 * without one, the port hint (protos.c) they name, as its index + 1 in the
 * second byte. The ports are values: what the decoder takes from them is
 * this class (rec.h). */
unsigned csc_udp_port_class(const struct csc_config *cfg, uint16_t sport, uint16_t dport)
{
    const struct csc_port *pt = port_lookup(cfg, dport);
    if (!pt)
        pt = port_lookup(cfg, sport);
    if (pt)
        return (unsigned)(pt - cfg->ports) + 1;
    for (unsigned i = 0; i < csc_nport_hints; i++)
        if (dport == csc_port_hints[i].port || sport == csc_port_hints[i].port)
            return (i + 1) << 8;
    return 0;
}

/* A port hint (protos.c): the payload reads as a protocol whose port was
 * not configured */
static void port_hint(struct dec *d, const struct csc_layer *udp, uint32_t off, unsigned hint)
{
    const struct port_hint *h = &csc_port_hints[hint];
    const struct proto_row *row = proto_row(h->proto);
    if (row->looks_like && row->looks_like(d, off))
        dec_stop_option(d, CSC_SO_PORT, (enum csc_proto)h->proto, CSC_P_UDP, udp->off, h->port,
                        true);
}

void dec_udp_payload(struct dec *d, struct csc_layer *udp, uint32_t off)
{
    unsigned c = csc_udp_port_class(d->cfg, udp->u.ports.sport, udp->u.ports.dport);
    if (PKT_UNLIKELY(d->p.rec != 0))
        rec_class(d->p.rec, RCL_PORT, 0, udp->off, c);
    const struct csc_port *pt = c & 0xff ? &d->cfg->ports[(c & 0xff) - 1] : NULL;
    if (d->quoted)
        return;
    if (!pt) {
        if (c >> 8)
            port_hint(d, udp, off, (c >> 8) - 1);
        return;
    }
    dec_fn fn = proto_row(pt->proto)->decode_udp;   /* the port's protocol row */
    if (fn) {
        d->port_ipproto = pt->fou_ipproto;
        fn(d, off);
    }
}

/* ---- entry ---------------------------------------------------------- */

void csc_decode(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *out)
{
    csc_decode_rec(cfg, f, out, NULL);
}

void csc_decode_rec(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *out,
                    struct csc_rec *rec)
{
    struct dec d;
    memset(&d, 0, sizeof d);
    d.cfg = cfg;
    d.p = pkt_of(f, rec);
    d.r = out;
    d.end = f->wirelen;
    d.ip = CSC_NO_LAYER;

    /* the head, padding too (rp_input): zero, but for these */
    memset(out, 0, offsetof(struct csc_result, layers));
    out->stop = CSC_STOP_END;
    out->stop_proto = CSC_P_NONE;
    out->stop_layer = CSC_NO_LAYER;
    out->stop_opt = CSC_SO_NONE;
    out->stop_opt_proto = CSC_P_NONE;
    out->worst = CSC_V_NA;
    out->direction = f->direction;   /* csc_direction() decides the rest */
    out->dir_from = CSC_DF_NONE;
    out->pkttype = CSC_NO_PKTTYPE;
    out->via = CSC_VIA_NIC;
    out->sums.n = 0;
    out->sums.nends = 0;
    out->sums.npieces = 0;
    out->sums.bytes_summed = 0;
    out->kernel.ran = 0;

    switch (f->link) {
    case CSC_LINK_ETHERNET: dec_eth(&d, 0); break;
    case CSC_LINK_RAW: dec_ip_by_nibble(&d, 0); break;
    case CSC_LINK_IPV4: dec_ipv4(&d, 0); break;
    case CSC_LINK_IPV6: dec_ipv6(&d, 0); break;
    case CSC_LINK_SLL: dec_sll(&d, 0); break;
    case CSC_LINK_SLL2: dec_sll2(&d, 0); break;
    case CSC_LINK_NULL: dec_null(&d, 0); break;
    case CSC_LINK_LOOP: dec_loop(&d, 0); break;
    case CSC_LINK_PPP: dec_ppp(&d, 0); break;
    default: dec_stop(&d, CSC_STOP_LINK, CSC_P_NONE, 0); break;
    }
    if (d.summing)
        dec_break_end(&d, f->wirelen);   /* COMPLETE reports cover link padding too */
}

enum csc_link csc_link_from_linktype(uint32_t lt)
{
    switch (lt) {
    case LINKTYPE_ETHERNET: return CSC_LINK_ETHERNET;
    case DLT_RAW_BSD: case DLT_RAW_OPENBSD: case LINKTYPE_RAW: return CSC_LINK_RAW;
    case LINKTYPE_IPV4: return CSC_LINK_IPV4;
    case LINKTYPE_IPV6: return CSC_LINK_IPV6;
    case LINKTYPE_LINUX_SLL: return CSC_LINK_SLL;
    case LINKTYPE_LINUX_SLL2: return CSC_LINK_SLL2;
    case LINKTYPE_NULL: return CSC_LINK_NULL;
    case LINKTYPE_LOOP: return CSC_LINK_LOOP;
    case LINKTYPE_PPP: case LINKTYPE_PPP_HDLC: return CSC_LINK_PPP;
    default: return CSC_LINK_UNKNOWN;
    }
}

bool dec_need_stop(struct dec *d, enum csc_proto proto, uint32_t off, uint32_t len)
{
    uint64_t want = (uint64_t)off + len;
    if (want <= d->end && pkt_has(&d->p, off, len))
        return true;
    if (off >= d->end)
        return false;                       /* no payload: the stack just ends */
    if (want > d->end) {
        if (!d->quoted)                     /* an ICMP error's quote is short by nature */
            dec_stop(d, CSC_STOP_MALFORMED, proto, off);
    }
    else
        dec_stop(d, CSC_STOP_TRUNCATED, proto, off);
    return false;
}

unsigned csc_ip_addresses(const struct csc_frame *f, unsigned ip_proto, uint32_t addr_off,
                          uint8_t src[16], uint8_t dst[16])
{
    unsigned len = ip_proto == CSC_P_IPV4 ? IPV4_ADDR_LEN : ip_proto == CSC_P_IPV6 ? IPV6_ADDR_LEN : 0;
    struct pkt p = pkt_of(f, NULL);   /* names a flow, decides nothing: not recorded */
    const uint8_t *b = len ? pkt_span(&p, addr_off, 2 * len) : NULL;   /* source, destination */
    if (!b)
        return 0;
    if (len == IPV4_ADDR_LEN) {       /* fixed sizes: copied inline (a new flow is named per frame
                                         once flows outnumber the engine's table) */
        memcpy(src, b, IPV4_ADDR_LEN);
        memcpy(dst, b + IPV4_ADDR_LEN, IPV4_ADDR_LEN);
    } else {
        memcpy(src, b, IPV6_ADDR_LEN);
        memcpy(dst, b + IPV6_ADDR_LEN, IPV6_ADDR_LEN);
    }
    return len;
}
