/*
 * decode.h - the decoder's internal interface, shared by the protocol files in core/proto.
 *
 * Each protocol file decodes one header at a frame offset, pushes a layer and
 * hands the payload to the next decoder through a dispatch table (ethertype,
 * IP protocol, UDP port, PPP protocol), the way Wireshark's dissector tables
 * do. Every byte is read through pkt.h. A header that does not fit ends the
 * stack with CSC_STOP_TRUNCATED; an impossible field with CSC_STOP_MALFORMED.
 */
#ifndef CSC_DECODE_H
#define CSC_DECODE_H

#include "csumcheck/csumcheck.h"
#include "../pkt.h"
#include "../sums.h"
#include "../values.h"
#include "wire.h"

#include <stddef.h>
#include <string.h>

struct dec {
    const struct csc_config *cfg;
    struct pkt p;
    struct csc_result *r;
    uint32_t end;       /* wire end of the enclosing payload */
    uint8_t ip;         /* index of the innermost IP layer, CSC_NO_LAYER if none */
    uint8_t quoted;     /* inside an ICMP error quote */
    uint8_t len_bad;    /* an enclosing length is unreliable */
    uint8_t fragment;   /* the enclosing IP packet is a first fragment */
    uint8_t gso;        /* the enclosing IP packet is a super-packet */
    uint8_t summing;    /* breakpoints are being recorded (an IP layer exists) */
    uint8_t port_ipproto; /* the UDP port's IP protocol, for a FOU port (dec_fou) */
};

typedef void (*dec_fn)(struct dec *d, uint32_t off);

/* Push a layer; NULL (and CSC_STOP_DEPTH) when the stack is full. Inline
 * (below): it runs for every layer of every frame. */
static inline struct csc_layer *dec_push(struct dec *d, enum csc_proto proto, uint32_t off,
                                         uint32_t hdr_len);
/* dec_push on a full stack: CSC_STOP_DEPTH, NULL */
struct csc_layer *dec_push_full(struct dec *d, enum csc_proto proto, uint32_t off);
/* A fixed header [off, off + len) that is there (dec_need), pushed: NULL
 * when the stack ends here. */
static inline struct csc_layer *dec_header(struct dec *d, enum csc_proto proto, uint32_t off,
                                           uint32_t len);
/* dec_need, and the header's span, to read its fields from (span_u8,
 * span_be16, DEC_VAL ...): its b is NULL when the stack ends here. */
static inline struct span dec_need_span(struct dec *d, enum csc_proto proto, uint32_t off,
                                        uint32_t len);
/* dec_header with its span: a layer and the bytes it was pushed for, which
 * only exist together (l is NULL when the stack ends here). */
struct dec_hdr {
    struct csc_layer *l;
    struct span b;
};
static inline struct dec_hdr dec_header_span(struct dec *d, enum csc_proto proto, uint32_t off,
                                             uint32_t len);
/* dec_header_span for a header whose fixed part [off, off + fixed) tells its
 * whole length: hlen reads it from the fixed part's span (0: the stack ends
 * here, and hlen has said why); then that much is needed and pushed. */
typedef uint32_t (*dec_hlen_fn)(struct dec *d, const struct span *fixed);
static inline struct dec_hdr dec_header_var(struct dec *d, enum csc_proto proto, uint32_t off,
                                            uint32_t fixed, dec_hlen_fn hlen);
/* End the stack with a reason (the first one wins), at the protocol being
 * decoded; the last layer decoded carries it. */
void dec_stop(struct dec *d, enum csc_stop why, enum csc_proto proto, uint32_t off);
/* ... with a value (unsupported version, SPI, ...) */
void dec_stop_value(struct dec *d, enum csc_stop why, enum csc_proto proto, uint32_t off,
                    uint32_t value);
/* needs-option: decoding on needs the receiver option opt (of opt_proto for a
 * port), given value (when the bytes tell it) */
void dec_stop_option(struct dec *d, enum csc_stop_opt opt, enum csc_proto opt_proto,
                     enum csc_proto proto, uint32_t off, uint32_t value, bool has_value);
/* unknown-ethertype / -ipproto / -next: the last layer's field names a payload
 * at off that nothing decodes (nothing there, or inside an ICMP quote: no stop) */
void dec_stop_unknown(struct dec *d, enum csc_stop why, uint32_t off, uint32_t value);
/* A breakpoint into the side list (sums_side), out of line: rare */
void dec_break_side(struct dec *d, uint32_t v);
/* Record a summing breakpoint (see verify.c). Header edges arrive in
 * ascending order and are appended; anything else (region ends, RCO start)
 * goes to a short side list, each value once (sums.h), that verify sorts
 * and merges.
 * A region that starts at a layer's first byte repeats one of the last two
 * edges (the layer's own): nothing to record. */
static inline void dec_break(struct dec *d, uint64_t off)
{
    struct csc_sums *s = &d->r->sums;
    uint32_t v = off > d->p.wirelen ? d->p.wirelen : (uint32_t)off;
    unsigned n = s->n;
    if ((!n || s->bp[n - 1] < v) && n < CSC_MAX_BREAKS) {
        s->bp[n] = v;
        s->n = (uint16_t)(n + 1);
        return;
    }
    if (n && (s->bp[n - 1] == v || (n >= 2 && s->bp[n - 2] == v)))
        return;
    dec_break_side(d, v);
}

/* A region end: usually far ahead of the header edges still to come. */
static inline void dec_break_end(struct dec *d, uint64_t off)
{
    sums_side(&d->r->sums, off > d->p.wirelen ? d->p.wirelen : (uint32_t)off);
}
/* Mark a layer as carrying a checksum over [cov_off, cov_end). */
void dec_csum(struct dec *d, struct csc_layer *l, uint32_t csum_off, uint32_t cov_off,
              uint32_t cov_end, uint32_t pseudo);
/* dec_csum for an L4 checksum over the innermost IP layer's pseudo-header
 * (dec_l4_pseudo: proto, len, with_len), a value */
void dec_csum_l4(struct dec *d, struct csc_layer *l, uint32_t csum_off, uint32_t cov_off,
                 uint32_t cov_end, uint8_t proto, uint32_t len, int with_len);
/* Preset an unverifiable verdict (the verifier still computes "expected"). */
void dec_unverifiable(struct csc_layer *l, enum csc_reason why);
/* Index of a layer in the result. */
static inline uint8_t dec_index(const struct dec *d, const struct csc_layer *l)
{
    return (uint8_t)(l - d->r->layers);
}

/* ---- values (values.h) ----
 * A field of the layer that only the outputs and the checksum arithmetic
 * read (a port, a sequence number, an identifier), never a branch of the
 * model or of a decoder, is read with DEC_VAL from a header span: stored,
 * marked in csc_result.values and, when the reads are recorded (rec.h), noted
 * as a copy a plan makes again from the same bytes. Any other read of a span
 * (span_u8, span_be16, span_be32) or of the frame (pkt_*) guards its bytes.
 * member = (the big-endian width-byte field at sp's byte at & mask) >> shift */
uint32_t dec_val_note(struct dec *d, struct csc_layer *l, size_t member_at, unsigned member_size,
                      const struct span *sp, unsigned at, unsigned width, uint32_t mask,
                      unsigned shift, uint32_t v);
static inline uint32_t dec_val(struct dec *d, struct csc_layer *l, size_t member_at,
                               unsigned member_size, const struct span *sp, unsigned at,
                               unsigned width, uint32_t mask, unsigned shift)
{
    uint32_t v = width == 1 ? sp->b[at] : width == 2 ? span_raw16(sp, at) : span_raw32(sp, at);
    v = (v & mask) >> shift;
    if (PKT_UNLIKELY(d->p.rec != 0))
        return dec_val_note(d, l, member_at, member_size, sp, at, width, mask, shift, v);
    value_mark(d->r, l, member_at, member_size);
    return v;
}
#define DEC_VAL(d, l, member, sp, at, width, mask, shift)                                       \
    ((l)->member = dec_val((d), (l), offsetof(struct csc_layer, member), sizeof (l)->member,    \
                           (sp), (at), (width), (mask), (shift)))
/* The address sums a pseudo-header starts from: IPv4 (saddr, daddr at
 * addr_off), IPv6 (the 16 bytes at src and at dst: the header's, or the
 * home address and a routing header's final destination). Stored in
 * l->pseudo, a value. */
void dec_val_pseudo4(struct dec *d, struct csc_layer *l, uint32_t addr_off);
uint32_t csc_pseudo4(const uint8_t *addrs);                       /* both, 8 bytes */
uint32_t csc_pseudo6(const uint8_t *src, const uint8_t *dst);     /* 16 bytes each */
void dec_val_pseudo6(struct dec *d, struct csc_layer *l, uint32_t src, uint32_t dst);

/* Dispatch tables */
void dec_ethertype(struct dec *d, uint16_t type, uint32_t off);
void dec_ipproto(struct dec *d, uint8_t proto, uint32_t off);
void dec_ppp_proto(struct dec *d, uint16_t proto, uint32_t off);
void dec_udp_payload(struct dec *d, struct csc_layer *udp, uint32_t off);
void dec_ip_by_nibble(struct dec *d, uint32_t off);   /* 4 -> IPv4, 6 -> IPv6 */
unsigned csc_udp_port_class(const struct csc_config *cfg, uint16_t sport, uint16_t dport);

/* The IP packet's declared end against the enclosing data: a super-packet
 * (gso) runs to the end; a length below hdr_end is malformed (returns false,
 * the stack ends); beyond the enclosing data it is a lie (an ICMP quote is
 * short by nature); a shorter one leaves padding. Sets the notes, l->end,
 * d->end and the decoder's len_bad/gso/fragment state. */
bool dec_ip_extent(struct dec *d, struct csc_layer *l, uint64_t declared, uint32_t hdr_end,
                   bool gso, bool quoted_before);

/* Pseudo-header of an L4 layer under IP layer ip (CSC_NO_LAYER: 0) of r. */
uint32_t csc_l4_pseudo(const struct csc_result *r, uint8_t ip, uint8_t proto, uint32_t len,
                       int with_len);

/* Protocol decoders (core/proto/<name>.c) */
void dec_eth(struct dec *d, uint32_t off);
void dec_vlan(struct dec *d, uint32_t off);
void dec_mpls(struct dec *d, uint32_t off);
void dec_pppoe(struct dec *d, uint32_t off);
void dec_ppp(struct dec *d, uint32_t off);
void dec_sll(struct dec *d, uint32_t off);
void dec_sll2(struct dec *d, uint32_t off);
void dec_null(struct dec *d, uint32_t off);
void dec_loop(struct dec *d, uint32_t off);
void dec_ipv4(struct dec *d, uint32_t off);
void dec_ipv6(struct dec *d, uint32_t off);
void dec_udp(struct dec *d, uint32_t off);
void dec_tcp(struct dec *d, uint32_t off);
void dec_icmp(struct dec *d, uint32_t off);
void dec_icmpv6(struct dec *d, uint32_t off);
void dec_igmp(struct dec *d, uint32_t off);
void dec_gre(struct dec *d, uint32_t off);
void dec_vxlan(struct dec *d, uint32_t off);
bool vxlan_looks_like(struct dec *d, uint32_t off);
void dec_vxlan_gpe(struct dec *d, uint32_t off);
void dec_nsh(struct dec *d, uint32_t off);
void dec_geneve(struct dec *d, uint32_t off);
void dec_gue(struct dec *d, uint32_t off);
void dec_l2tp_ip(struct dec *d, uint32_t off);
void dec_l2tp_udp(struct dec *d, uint32_t off);
void dec_erspan1(struct dec *d, uint32_t off);
void dec_nhrp(struct dec *d, uint32_t off);
void dec_erspan2(struct dec *d, uint32_t off);
void dec_erspan3(struct dec *d, uint32_t off);
void dec_wccp(struct dec *d, uint32_t off);
void dec_cmd_gre(struct dec *d, uint32_t off);
void dec_gtp(struct dec *d, uint32_t off);
void dec_teredo(struct dec *d, uint32_t off);
void dec_ayiya(struct dec *d, uint32_t off);
void dec_mpls_udp(struct dec *d, uint32_t off);
void dec_fou(struct dec *d, uint32_t off);
void dec_amt(struct dec *d, uint32_t off);
void dec_gre_udp(struct dec *d, uint32_t off);
void dec_esp(struct dec *d, uint32_t off);
void dec_ah(struct dec *d, uint32_t off);
void dec_wlan(struct dec *d, uint32_t off);
void dec_macsec(struct dec *d, uint32_t off);

/* True when [off, off+len) is captured and inside the enclosing payload.
 * Otherwise records why the stack ends: nothing left (normal end), the
 * capture is cut (truncated) or the header overruns its packet (malformed).
 * Inline: every header of every frame asks; the rest is dec_need_stop. */
bool dec_need_stop(struct dec *d, enum csc_proto proto, uint32_t off, uint32_t len);
static inline bool dec_need(struct dec *d, enum csc_proto proto, uint32_t off, uint32_t len)
{
    uint64_t want = (uint64_t)off + len;
    if (__builtin_expect(want <= d->end && want <= d->p.caplen, 1))
        return true;
    return dec_need_stop(d, proto, off, len);
}

static inline struct csc_layer *dec_push(struct dec *d, enum csc_proto proto, uint32_t off,
                                         uint32_t hdr_len)
{
    struct csc_result *r = d->r;
    unsigned i = r->nlayers;
    if (i >= CSC_MAX_LAYERS)
        return dec_push_full(d, proto, off);
    r->nlayers = (uint8_t)(i + 1);
    struct csc_layer *l = &r->layers[i];
    memset(l, 0, sizeof *l);
    l->proto = (uint8_t)proto;
    l->off = off;
    l->hdr_len = hdr_len;
    l->end = d->end;
    l->ip = d->ip;
    l->csum_off = CSC_NO_OFF;
    l->cov_off = l->cov_end = CSC_NO_OFF;
    r->values[i][0] = r->values[i][1] = 0;
    if (d->quoted)
        l->notes |= CSC_N_QUOTED;
    struct csc_sums *s = &r->sums;
    s->at[i] = 0xff;
    if (d->summing) {
        unsigned n = s->n;
        uint64_t e = (uint64_t)off + hdr_len;
        /* the usual layer: it starts at the last edge (the previous
         * header's end) and its own end is the next one */
        if (n && n < CSC_MAX_BREAKS && s->bp[n - 1] == off && e > off && e <= d->p.wirelen) {
            s->at[i] = (uint8_t)(n - 1);
            s->bp[n] = (uint32_t)e;
            s->n = (uint16_t)(n + 1);
            return l;
        }
        dec_break(d, off);                 /* (s->n is at least 1 afterwards) */
        if (s->bp[s->n - 1] == off)
            s->at[i] = (uint8_t)(s->n - 1);
        dec_break(d, e);
    }
    return l;
}

static inline struct csc_layer *dec_header(struct dec *d, enum csc_proto proto, uint32_t off,
                                           uint32_t len)
{
    return dec_need(d, proto, off, len) ? dec_push(d, proto, off, len) : NULL;
}

static inline struct span dec_need_span(struct dec *d, enum csc_proto proto, uint32_t off,
                                        uint32_t len)
{
    struct span b = {0};
    if (dec_need(d, proto, off, len))
        pkt_hdr(&d->p, off, len, &b);     /* (sets nothing when the bytes are not there) */
    return b;
}

static inline struct dec_hdr dec_header_span(struct dec *d, enum csc_proto proto, uint32_t off,
                                             uint32_t len)
{
    struct dec_hdr h = {NULL, dec_need_span(d, proto, off, len)};
    if (h.b.b)
        h.l = dec_push(d, proto, off, len);
    return h;
}

static inline struct dec_hdr dec_header_var(struct dec *d, enum csc_proto proto, uint32_t off,
                                            uint32_t fixed, dec_hlen_fn hlen)
{
    struct dec_hdr h = {NULL, dec_need_span(d, proto, off, fixed)};
    uint32_t len = h.b.b ? hlen(d, &h.b) : 0;
    if (len)
        h.l = dec_header(d, proto, off, len);
    return h;
}
#endif
