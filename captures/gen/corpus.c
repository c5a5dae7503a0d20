/*
 * corpus.c - write one file of the case table (gen_files[] in cases.c) and
 * the manifest of what each of its frames is meant to show.
 *
 * Manifest lines (TSV, one per checksummed layer of every frame):
 *   file  frame  case  layer  proto  verdict  tshark  what
 * layer is the pb layer index (-1: the L4 verdict that reassembly appends
 * on the frame completing a fragmented datagram); tshark is the expected
 * *.checksum.status or -1 when tshark shows no verdict for that layer.
 * A frame without a checksummed layer gets one line with proto "-".
 */
#include "gen.h"

#include <stdlib.h>
#include <string.h>

void gen_manifest_line(FILE *man, const char *file, uint32_t frame, const char *cname,
                       const struct gen_intent *in, const char *what)
{
    if (!man)
        return;
    if (in)
        fprintf(man, "%s\t%u\t%s\t%d\t%s\t%s\t%d\t%s\n", file, frame, cname, in->layer, in->proto,
                in->verdict, in->tshark, what);
    else
        fprintf(man, "%s\t%u\t%s\t-\t-\t-\t-\t%s\n", file, frame, cname, what);
}

struct frag_list {
    int n;
    size_t len[64];
    uint8_t *buf[64];
};

static void collect(void *ctx, const uint8_t *b, size_t len)
{
    struct frag_list *fl = ctx;
    if (fl->n >= 64)
        return;
    fl->buf[fl->n] = malloc(len);
    if (!fl->buf[fl->n])
        return;
    memcpy(fl->buf[fl->n], b, len);
    fl->len[fl->n++] = len;
}

static int frag_offset_zero(const uint8_t *b, size_t l3)
{
    if ((b[l3] >> 4) == 4)
        return ((b[l3 + 6] & 0x1f) | b[l3 + 7]) == 0;
    return ((b[l3 + 42] << 8 | b[l3 + 43]) & 0xfff8) == 0;   /* IPv6 Fragment header */
}

struct out {
    struct capw *w;                /* NULL: manifest only */
    FILE *man;
    const char *fname;
    uint64_t ts;
    uint32_t frame;
};

static int emit(struct out *o, const uint8_t *b, size_t len, uint32_t snaplen, int dir)
{
    o->frame++;
    uint64_t t = o->ts;
    o->ts += GEN_STEP_USEC;
    if (!o->w)
        return 0;
    uint32_t keep = o->w->snaplen;
    if (snaplen)
        o->w->snaplen = snaplen;
    int r = capw_write(o->w, t, b, (uint32_t)len, dir);
    o->w->snaplen = keep;
    return r;
}

static void manifest_frame(struct out *o, const char *cname, const struct gen_intent *in, int n,
                           const char *what)
{
    if (!n)
        gen_manifest_line(o->man, o->fname, o->frame, cname, NULL, what);
    for (int k = 0; k < n; k++)
        gen_manifest_line(o->man, o->fname, o->frame, cname, &in[k], what);
}

/* A case cut into IP fragments: every fragment carries the link header and
 * the outermost IP header; the first one the transport header. */
static int emit_fragments(struct out *o, const struct gen_case *c, struct pb_frame *f,
                          const uint8_t *frame, size_t len)
{
    int l3i = -1;
    for (int i = 0; i < f->n; i++)
        if (f->l[i].kind == PB_IPV4 || f->l[i].kind == PB_IPV6) {
            l3i = i;
            break;
        }
    if (l3i < 0 || l3i + 1 >= f->n)
        return -1;
    size_t l3 = f->off[l3i];
    int v6 = f->l[l3i].kind == PB_IPV6;
    struct frag_list fl = { 0 };
    int n = v6 ? pb_fragment_ipv6(frame, len, l3, c->frag_mtu, 0x10000u + o->frame,
                                  collect, &fl)
               : pb_fragment_ipv4(frame, len, l3, c->frag_mtu, collect, &fl);
    if (n < 2 || fl.n != n)
        return -1;
    /* The transport's intended verdict over the whole datagram. */
    struct gen_intent whole[GEN_MAX_INTENT];
    int nw = gen_intent_frame(f, len, whole);
    const struct gen_intent *l4 = NULL;
    for (int k = 0; k < nw; k++)
        if (whole[k].layer == l3i + 1)
            l4 = &whole[k];
    int order[65], cnt = 0;
    if (c->frag == GEN_FRAG_LAST_FIRST)
        order[cnt++] = n - 1;
    for (int k = 0; k < n; k++) {
        if (c->frag == GEN_FRAG_REVERSE)
            order[cnt++] = n - 1 - k;
        else if (c->frag == GEN_FRAG_LAST_FIRST) {
            if (k < n - 1)
                order[cnt++] = k;
        } else if (c->frag != GEN_FRAG_FIRST_ONLY || k == 0)
            order[cnt++] = k;
        if (c->frag == GEN_FRAG_DUP_MIDDLE && k == 1 && n > 2)
            order[cnt++] = k;       /* a duplicate: the kernel drops it, the queue stays */
    }
    int r = 0;
    for (int k = 0; k < cnt; k++) {
        int idx = order[k];
        int completes = c->frag != GEN_FRAG_FIRST_ONLY && k == cnt - 1;
        int first = frag_offset_zero(fl.buf[idx], l3);
        int dup = k > 0 && order[k - 1] == idx;
        struct gen_intent in[GEN_MAX_INTENT];
        int m = 0;
        if (!v6)
            in[m++] = (struct gen_intent){ l3i, "ipv4", "good", 1 };
        if (l4 && (first || completes) && !dup) {
            in[m] = *l4;
            in[m].layer = first ? l3i + 1 : -1;
            if (!completes) {
                /* the first fragment alone: a zero UDP field still says "none" */
                if (strcmp(l4->verdict, "none") && strcmp(l4->verdict, "zero6"))
                    in[m].verdict = "unverifiable";
                in[m].tshark = -1;     /* tshark waits for the whole datagram */
            }
            m++;
        }
        /* what lies inside the datagram: on the completing frame every
         * layer of it (csumcheck and tshark decode the reassembled bytes);
         * on the first fragment alone, past an IP protocol (GRE; csumcheck
         * does not enter a UDP port's payload from a fragment), the inner
         * headers it holds whole: an IPv4 header is judged, a transport is
         * not */
        int udp = f->l[l3i + 1].kind == PB_UDP;
        if (!dup && (completes || (first && !udp))) {
            size_t shift = v6 ? 8 : 0;          /* the IPv6 fragment header */
            for (int w = 0; w < nw && m < GEN_MAX_INTENT; w++) {
                if (whole[w].layer <= l3i + 1)
                    continue;
                in[m] = whole[w];
                if (completes) {
                    in[m].layer = -1;
                } else {
                    int li = whole[w].layer;
                    if (f->off[li] + f->hlen[li] + shift > fl.len[idx])
                        break;
                    if (strcmp(whole[w].proto, "ipv4") && strcmp(whole[w].verdict, "none") &&
                        strcmp(whole[w].verdict, "zero6"))
                        in[m].verdict = "unverifiable";
                    in[m].tshark = -1;
                }
                m++;
            }
        }
        r |= emit(o, fl.buf[idx], fl.len[idx], 0, c->dir);
        manifest_frame(o, c->name, in, m, c->what);
    }
    for (int k = 0; k < fl.n; k++)
        free(fl.buf[k]);
    return r;
}

static uint8_t framebuf[70000];

int gen_write_file(const struct gen_file *gf, const char *path, FILE *man)
{
    struct capw w;
    struct out o = { NULL, man, gf->name, GEN_T0_USEC, 0 };
    char err[128];
    uint32_t lt = gf->linktype;
    if (!lt && gf->ncases) {
        struct pb_frame f;
        if (gen_parse(gf->cases[0].stack, &f, err, sizeof err))
            goto parse_error;
        lt = pb_linktype(&f);
    }
    if (!lt)
        lt = 1;
    if (lt == GEN_LINKTYPE_NULL)
        lt = 0;
    if (path) {
        if (capw_open(&w, path, (enum capw_format)gf->format, lt, 262144)) {
            fprintf(stderr, "csc-gen: cannot write %s\n", path);
            return -1;
        }
        o.w = &w;
    }
    int r = 0;
    if (gf->flow) {
        r = gen_flow_write(gf->flow, o.w, man, gf->name, &o.ts, &o.frame);
    } else {
        for (size_t i = 0; i < gf->ncases && !r; i++) {
            const struct gen_case *c = &gf->cases[i];
            struct pb_frame f;
            if (gen_parse(c->stack, &f, err, sizeof err))
                goto parse_error;
            size_t len = pb_build(&f, framebuf, sizeof framebuf);
            if (!len) {
                snprintf(err, sizeof err, "frame does not fit");
                goto case_error;
            }
            if (c->frag) {
                if (emit_fragments(&o, c, &f, framebuf, len)) {
                    snprintf(err, sizeof err, "cannot fragment");
                    goto case_error;
                }
                continue;
            }
            size_t cap = c->snaplen && c->snaplen < len ? c->snaplen : len;
            struct gen_intent in[GEN_MAX_INTENT];
            int n = gen_intent_frame(&f, cap, in);
            r |= emit(&o, framebuf, len, c->snaplen, c->dir);
            manifest_frame(&o, c->name, in, n, c->what);
            continue;
case_error:
            fprintf(stderr, "csc-gen: %s: case %s: %s\n", gf->name, c->name, err);
            r = -1;
        }
    }
    if (o.w && capw_close(&w))
        r = -1;
    return r;
parse_error:
    fprintf(stderr, "csc-gen: %s: %s\n", gf->name, err);
    if (o.w)
        capw_close(&w);
    return -1;
}
