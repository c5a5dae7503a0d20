/*
 * intent.c - what every checksummed layer of a generated frame is meant to
 * be, in csumcheck's vocabulary (design.md "verify"), and what tshark with
 * checksum validation on is expected to report for it.
 *
 * This is the generator's own statement of intent, derived from the pb
 * states of the case table and the capture-time facts (snaplen, fragments),
 * written from the definitions in design.md and kernel-rx-checksum-model.md
 * §3.12/§3.13, not from the core's code. The tshark check compares it with
 * tshark, and the golden check compares it with csumcheck.
 *
 * tshark status codes (*.checksum.status): 0 bad, 1 good, 2 unverified,
 * 3 not present, 4 illegal. tshark knows nothing of offloads: partial, lco
 * and rco fields are simply wrong over the bytes (0); a zero UDP checksum
 * is "not present" (3) over IPv4 and "illegal" (4) over IPv6.
 */
#include "gen.h"

#include <string.h>

static int is_ip(const struct pb_layer *l)
{
    return l->kind == PB_IPV4 || l->kind == PB_IPV6;
}

static int has_site(const struct pb_layer *l)
{
    switch (l->kind) {
    case PB_IPV4: case PB_UDP: case PB_TCP: case PB_ICMP: case PB_ICMPV6: case PB_IGMP: return 1;
    case PB_GRE: return (l->gre_flags & 0x8000) && (l->gre_flags & 7) == 0;
    case PB_NHRP: return 1;
    default: return 0;
    }
}

static const char *proto_name(const struct pb_layer *l)
{
    switch (l->kind) {
    case PB_IPV4: return "ipv4";
    case PB_UDP: return "udp";
    case PB_TCP: return "tcp";
    case PB_ICMP: return "icmp";
    case PB_ICMPV6: return "icmpv6";
    case PB_GRE: return "gre";
    case PB_IGMP: return "igmp";
    case PB_NHRP: return "nhrp";
    default: return "?";
    }
}

static int ip_before(const struct pb_frame *f, int i)
{
    for (int j = i - 1; j >= 0; j--)
        if (is_ip(&f->l[j]))
            return j;
    return -1;
}

static int next_l4(const struct pb_frame *f, int i)
{
    for (int j = i + 1; j < f->n; j++)
        if (f->l[j].kind == PB_TCP || f->l[j].kind == PB_UDP)
            return j;
    return -1;
}

static int icmp_error(const struct pb_layer *l)
{
    if (l->kind == PB_ICMP)
        return l->icmp_type == 3 || l->icmp_type == 4 || l->icmp_type == 5 ||
               l->icmp_type == 11 || l->icmp_type == 12;
    if (l->kind == PB_ICMPV6)
        return l->icmp_type >= 1 && l->icmp_type <= 4;
    return 0;
}

/* Where csumcheck's default decode ends before the layers the case pushed
 * after: an L2TPv3 cookie nobody configured (needs --l2tp-cookie-len), VXLAN
 * on 8472 (needs --vxlan-port). Neither does tshark decode past them. */
static int stops_decode(const struct pb_frame *f, int i)
{
    const struct pb_layer *l = &f->l[i];
    if (l->kind == PB_L2TPV3 && l->l2tp_cookie)
        return 1;
    return l->kind == PB_UDP && l->dport == GEN_VXLAN_LINUX_PORT;
}

/* Layers tshark 4.0 cannot decode past: GUE (no dissector on 6080), FOU
 * (plain UDP on a port only csumcheck is told about), IPv6 with payload
 * length 0 (BIG TCP), and where csumcheck stops too (stops_decode). */
static int opaque_to_tshark(const struct pb_frame *f, int i)
{
    const struct pb_layer *l = &f->l[i];
    if (l->kind == PB_GUE || stops_decode(f, i))
        return 1;
    /* IPv6 payload length 0 without a jumbo option: tshark stops there */
    if (l->kind == PB_IPV6 && l->tot_len_zero)
        return 1;
    if (l->kind == PB_UDP && (l->dport == GEN_FOU_PORT_IPIP || l->dport == GEN_FOU_PORT_IPV6))
        return 1;
    return 0;
}

static int tshark_status(const char *v)
{
    if (!strcmp(v, "good")) return 1;
    if (!strcmp(v, "none")) return 3;
    if (!strcmp(v, "zero6")) return 4;
    if (!strcmp(v, "unverifiable")) return 2;
    return 0;                          /* bad partial lco rco */
}

/* The raw verdict of layer i from its own state, before context. */
static const char *base_verdict(const struct pb_frame *f, int i)
{
    const struct pb_layer *l = &f->l[i];
    int ip = ip_before(f, i);
    int v6 = ip >= 0 && f->l[ip].kind == PB_IPV6;
    switch (l->csum) {
    case PB_OK: return "good";
    case PB_ZERO:
        if (l->kind == PB_UDP)
            return v6 ? "zero6" : "none";
        return "bad";
    case PB_SEED: case PB_SEED_NOLEN:
        return (l->kind == PB_UDP || l->kind == PB_TCP || l->kind == PB_ICMPV6) ? "partial" : "bad";
    case PB_LCO: return "lco";           /* refined below */
    default: return "bad";
    }
}

static size_t field_off(const struct pb_frame *f, int i)
{
    switch (f->l[i].kind) {
    case PB_IPV4: return f->off[i] + 10;
    case PB_UDP: return f->off[i] + 6;
    case PB_TCP: return f->off[i] + 16;
    default: return f->off[i] + (f->l[i].kind == PB_GRE ? 4 : 2);
    }
}

int gen_intent_frame(const struct pb_frame *f, size_t caplen, struct gen_intent *out)
{
    const char *v[PB_MAX_LAYERS] = { 0 };
    int ts[PB_MAX_LAYERS];
    /* The decoder stops at the first header the capture cuts. */
    int depth = f->n;
    for (int i = 0; i < f->n; i++) {
        if (f->off[i] + f->hlen[i] > caplen && f->l[i].kind != PB_PAYLOAD) {
            depth = i;
            break;
        }
        if (stops_decode(f, i)) {
            depth = i + 1;
            break;
        }
    }

    /* Innermost first: an outer LCO depends on the inner verdicts. */
    for (int i = f->n - 1; i >= 0; i--) {
        const struct pb_layer *l = &f->l[i];
        if (!has_site(l))
            continue;
        v[i] = base_verdict(f, i);
        ts[i] = -2;                                   /* from the verdict, below */
        int ip = ip_before(f, i);
        /* GSO: a super-packet whose length field is 0 (BIG TCP). A field
         * that is no seed cannot be judged without the length; tshark
         * sums what it has and calls it wrong. */
        if (l->kind == PB_TCP && ip >= 0 && f->l[ip].tot_len_zero && l->csum != PB_OK &&
            strcmp(v[i], "partial")) {
            v[i] = "unverifiable";
            ts[i] = 0;
        }
        /* LCO: right once every inner partial field is filled in */
        if (l->csum == PB_LCO) {
            int partial = 0, other = 0;
            for (int j = i + 1; j < f->n; j++) {
                if (!v[j])
                    continue;
                if (!strcmp(v[j], "partial"))
                    partial++;
                else if (f->l[j].csum != PB_OK)
                    other++;
            }
            v[i] = other ? "bad" : partial ? "lco" : "good";
        }
    }
    /* RCO: the tunnel announces the next L4 layer's checksum for the receiver */
    for (int t = 0; t < f->n; t++) {
        const struct pb_layer *tl = &f->l[t];
        if (!tl->rco || (tl->kind != PB_VXLAN && tl->kind != PB_GUE))
            continue;
        int in = next_l4(f, t);
        if (in < 0)
            continue;
        const struct pb_layer *udp = t > 0 && f->l[t - 1].kind == PB_UDP ? &f->l[t - 1] : NULL;
        if (tl->rco_shift)
            v[in] = "bad";                              /* start/offset miss the field */
        else if (f->l[in].csum != PB_SEED)
            v[in] = "bad";                              /* not the pseudo-header seed */
        else if (!udp || udp->csum == PB_ZERO || udp->csum == PB_BAD)
            v[in] = "bad";                              /* nothing protects the inner bytes */
        else
            v[in] = "rco";
    }
    /* An IP or UDP length that says more than the frame holds (lenfix, not in
     * an ICMP error: below). Under a long IP header a UDP datagram whose own
     * length fits is whole: its verdict stands. A TCP or ICMP checksum, whose
     * extent comes from the IP length, right over the bytes present is good;
     * wrong, it proves nothing: unverifiable, where tshark sums what it has
     * (0). A UDP length beyond the IP payload: unverifiable, tshark
     * "unverified". */
    int quoting = 0;
    for (int i = 0; i < f->n; i++) {
        const struct pb_layer *l = &f->l[i];
        if (icmp_error(l) || l->kind == PB_NHRP)
            quoting = 1;
        if (quoting || !l->len_override || (int)l->len_override <= (int)(f->len - f->off[i]))
            continue;
        if (l->kind == PB_UDP && v[i]) {
            v[i] = "unverifiable";
            ts[i] = 2;
            continue;
        }
        if (!is_ip(l))
            continue;
        for (int j = i + 1; j < f->n && !is_ip(&f->l[j]); j++)
            if (v[j] && f->l[j].kind != PB_UDP && strcmp(v[j], "good")) {
                ts[j] = tshark_status(v[j]);
                v[j] = "unverifiable";
            }
    }
    /* ICMP errors: a quoted datagram whose length field says more than the
     * quote holds (lenfix) leaves its transport checksum unverifiable.
     * tshark calls a quoted UDP "unverified" and sums a quoted TCP or ICMP
     * over the bytes it has (the generator computed those over the quote). */
    for (int e = 0; e < f->n; e++) {
        if (!icmp_error(&f->l[e]) && f->l[e].kind != PB_NHRP)
            continue;
        int cut = 0;
        for (int j = e + 1; j < f->n; j++) {
            if (is_ip(&f->l[j]) && f->l[j].len_override)
                cut = 1;
            if (cut && v[j] && !is_ip(&f->l[j])) {
                /* tshark: "unverified" for a UDP, and for anything an NHRP
                 * indication quotes ("in ICMP error packet") */
                ts[j] = f->l[j].kind == PB_UDP || f->l[e].kind == PB_NHRP ? 2 : tshark_status(v[j]);
                v[j] = "unverifiable";
            }
        }
        break;
    }
    /* tshark's NHRP checksum status is not among the fields compared */
    for (int i = 0; i < f->n; i++)
        if (f->l[i].kind == PB_NHRP && v[i])
            ts[i] = -1;

    int n = 0, hidden = 0;
    for (int i = 0; i < f->n && n < GEN_MAX_INTENT; i++) {
        const struct pb_layer *l = &f->l[i];
        if (i >= depth) {
            /* a header the capture cuts: csumcheck ends its stack there;
             * tshark still calls a captured IPv4 checksum "unverified" */
            if (i == depth && v[i] && l->kind == PB_IPV4 && field_off(f, i) + 2 <= caplen && !hidden)
                out[n++] = (struct gen_intent){ i, proto_name(l), "-", 2 };
            break;
        }
        if (v[i]) {
            const char *verdict = v[i];
            int t = ts[i] == -2 ? tshark_status(verdict) : ts[i];
            size_t cov_end = l->kind == PB_IPV4 ? f->off[i] + f->hlen[i] : f->len;
            int zero = l->kind == PB_UDP && l->csum == PB_ZERO;
            if (cov_end > caplen && !zero) {
                verdict = "unverifiable";
                t = 2;
            }
            out[n].layer = i;
            out[n].proto = proto_name(l);
            out[n].verdict = verdict;
            out[n].tshark = hidden ? -1 : t;
            n++;
        }
        if (opaque_to_tshark(f, i))
            hidden = 1;
    }
    return n;
}
