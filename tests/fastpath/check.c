/*
 * check.c - csc-fastpath-check: the fast path (csc_analyze_fast: a frame of
 * a known shape run through its compiled plan, the memoised replay) against
 * the general path (csc_analyze: decode, verify, direction, replay), byte for
 * byte, at the core's interface: the whole result, what the GRO engine is fed
 * (csc_gro_prepare) and what reassembly makes of it (csc_frag_feed).
 *
 *   csc-fastpath-check [-q] [-n] [-f] FILE...
 *
 * A FILE is a capture (libpcap) or, with -f, a fuzz seed (fuzz_frame.c's
 * input: 8 header bytes that choose the link, report, era and receiver, then
 * the frame). Every frame of a capture runs under several receivers (the
 * default one, --rx complete, unnecessary:1 with era 4.6, the 3.18 era, GRO
 * off), a seed under its own. Each frame is analysed on both paths as it is,
 * then as variants that reach the fast path's plan for it with other bytes:
 *   - the same headers, other payload bytes, the checksums made right again
 *     (a plan hit: the values the plan reads at fixed offsets);
 *   - every byte of its headers changed, one at a time, twice, as it is and
 *     with its checksums made right again (a guard that misses a byte the
 *     analysis depends on shows here: the plan would give the first frame's
 *     outcome to a frame that differs in that byte).
 * Exit 0 when every result is the same, 1 at the first difference (said on
 * stderr with the file, frame, receiver, variant and field), 2 on usage.
 */
#include "csumcheck/csumcheck.h"
#include "csumcheck/fast.h"
#include "csumcheck/frag.h"
#include "csumcheck/gro.h"

#include "../fuzz/fuzz_input.h"

#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct csc_result ga, fa;            /* general, fast */
static struct csc_gro_input gga, gfa;
static struct csc_fast *fast;               /* the fast path's tables (caller-owned) */
static struct csc_frag_table fta, ftb;
static uint8_t *fsa, *fsb;                  /* their stores */
static const char *cur_file, *cur_cfg, *cur_variant;
static unsigned long cur_frame, frames, analyses, fast_hits;
static int quiet, plain;   /* -q; -n: the frames as read only, no variants */

#define MAXF 65536

static void differ(const char *what)
{
    fprintf(stderr, "csc-fastpath-check: %s frame %lu (%s, %s): the fast path differs in %s\n",
            cur_file, cur_frame, cur_cfg, cur_variant, what);
    exit(1);
}

#define SAME(field, what) do { if ((field##_a) != (field##_b)) differ(what); } while (0)
#define EQ(x, what) do { if (a->x != b->x) differ(what); } while (0)

static void same_kernel(const struct csc_kernel *a, const struct csc_kernel *b)
{
    EQ(ran, "kernel.ran");
    EQ(verdict, "kernel.verdict");
    EQ(drop_layer, "kernel.drop_layer");
    EQ(drop_reason, "kernel.drop_reason");
    EQ(counters, "kernel.counters");
    EQ(warnings, "kernel.warnings");
    EQ(sw_passes, "kernel.sw_passes");
    EQ(ndevs, "kernel.ndevs");
    EQ(nsteps, "kernel.nsteps");
    EQ(last_layer, "kernel.last_layer");
    EQ(trace_truncated, "kernel.trace_truncated");
    EQ(reasm_dev, "kernel.reasm_dev");
    EQ(sw_bytes, "kernel.sw_bytes");
    EQ(hdr_bytes, "kernel.hdr_bytes");
    unsigned nd = a->ndevs < CSC_MAX_DEVS ? a->ndevs : CSC_MAX_DEVS;
    if (nd && memcmp(a->devs, b->devs, nd * sizeof a->devs[0]))
        differ("kernel.devs");
    unsigned ns = a->nsteps < CSC_MAX_STEPS ? a->nsteps : CSC_MAX_STEPS;
    if (ns && memcmp(a->steps, b->steps, ns * sizeof a->steps[0]))
        differ("kernel.steps");
}

static void same_result(const struct csc_result *a, const struct csc_result *b)
{
    EQ(nlayers, "nlayers");
    EQ(stop, "stop");
    EQ(stop_proto, "stop_proto");
    EQ(worst, "worst");
    EQ(stop_off, "stop_off");
    EQ(direction, "direction");
    EQ(dir_from, "dir_from");
    EQ(pkttype, "pkttype");
    EQ(via, "via");
    EQ(gso_segs_known, "gso_segs_known");
    EQ(gso_segs, "gso_segs");
    EQ(ip_fragment, "ip_fragment");
    for (unsigned i = 0; i < a->nlayers && i < CSC_MAX_LAYERS; i++) {
        if (!memcmp(&a->layers[i], &b->layers[i], sizeof a->layers[i]))
            continue;
        static char what[64];
        const struct csc_layer *x = &a->layers[i], *y = &b->layers[i];
        const char *f = x->verdict != y->verdict ? "verdict" : x->reason != y->reason ? "reason"
                        : x->field != y->field ? "field" : x->expected != y->expected ? "expected"
                        : x->pseudo != y->pseudo ? "pseudo" : x->notes != y->notes ? "notes"
                        : memcmp(&x->u, &y->u, sizeof x->u) ? "view"
                        : memcmp(&x->k, &y->k, sizeof x->k) ? "kernel" : "a field";
        snprintf(what, sizeof what, "layer %u (%s): %s", i, csc_proto_name(x->proto), f);
        differ(what);
    }
    EQ(sums.n, "sums.n");
    EQ(sums.npieces, "sums.npieces");
    EQ(sums.bytes_summed, "sums.bytes_summed");
    unsigned n = a->sums.n < CSC_MAX_BREAKS ? a->sums.n : CSC_MAX_BREAKS;
    if (memcmp(a->sums.bp, b->sums.bp, n * sizeof a->sums.bp[0]))
        differ("sums.bp");
    unsigned np = a->sums.npieces < CSC_MAX_BREAKS ? a->sums.npieces + 1u : CSC_MAX_BREAKS;
    if (n && memcmp(a->sums.prefix, b->sums.prefix, np * sizeof a->sums.prefix[0]))
        differ("sums.prefix");
    unsigned nl = a->nlayers < CSC_MAX_LAYERS ? a->nlayers : CSC_MAX_LAYERS;
    if (memcmp(a->sums.at, b->sums.at, nl))
        differ("sums.at");
    same_kernel(&a->kernel, &b->kernel);
}

static void same_gro(const struct csc_gro_input *a, const struct csc_gro_input *b)
{
    EQ(ran, "gro.ran");
    EQ(ndevs, "gro.ndevs");
    if (!a->ran)
        return;
    EQ(sw_passes, "gro.sw_passes");
    EQ(sw_bytes, "gro.sw_bytes");
    EQ(nic_passes, "gro.nic_passes");
    EQ(nic_bytes, "gro.nic_bytes");
    EQ(later_passes, "gro.later_passes");
    EQ(later_bytes, "gro.later_bytes");
    for (unsigned i = 0; i < a->ndevs && i < CSC_MAX_DEVS; i++) {
        const struct csc_gro_seg *x = &a->dev[i], *y = &b->dev[i];
        if (x->kind != y->kind || x->gro_ran != y->gro_ran || x->gro_reason != y->gro_reason ||
            x->layer != y->layer || x->tcp != y->tcp || x->gso_lost != y->gso_lost)
            differ("gro.dev");
        if (x->tcp && (x->flags != y->flags || x->seq != y->seq || x->ack != y->ack ||
                       x->payload != y->payload || x->len != y->len || x->key != y->key ||
                       x->hdr != y->hdr))
            differ("gro.dev segment (keys)");
    }
}

/* One frame on both paths. */
static void both(const struct csc_config *cfg, const struct csc_frame *f)
{
    struct csc_fast_stats s0, s1;
    csc_analyze(cfg, f, &ga);
    csc_fast_stats(fast, &s0);
    csc_analyze_fast(cfg, f, &fa, fast);
    csc_fast_stats(fast, &s1);
    fast_hits += s1.known - s0.known;
    analyses++;
    same_result(&ga, &fa);
    csc_gro_prepare(f, &ga, &gga);
    csc_gro_prepare_fast(f, &fa, &gfa, fast);   /* along the plan's walk when a plan served it */
    same_gro(&gga, &gfa);
}

/* The frame in place (reassembly is capture-ordered: both tables see it) */
static void in_order(const struct csc_config *cfg, const struct csc_frame *f)
{
    both(cfg, f);
    csc_frag_feed(&fta, f, &ga, cur_frame);
    csc_frag_feed(&ftb, f, &fa, cur_frame);
    same_result(&ga, &fa);
}

/* The end of the headers the general path decoded: where payload starts */
static uint32_t headers_end(const struct csc_result *r, uint32_t cap)
{
    uint32_t e = 0;
    for (unsigned i = 0; i < r->nlayers && i < CSC_MAX_LAYERS; i++) {
        const struct csc_layer *l = &r->layers[i];
        if (l->notes & CSC_N_REASSEMBLED)
            continue;
        uint64_t x = (uint64_t)l->off + l->hdr_len;
        if (x > e)
            e = x > cap ? cap : (uint32_t)x;
    }
    if (r->stop != CSC_STOP_END && r->stop_off + 8u > e)
        e = r->stop_off + 8u > cap ? cap : r->stop_off + 8u;
    return e;
}

/* Make every checksum the bytes made bad right again, innermost first, as
 * often as an outer one covers an inner one (fuzz_frame.c does the same) */
static void fix_checksums(const struct csc_config *cfg, struct csc_frame *g, uint8_t *b, uint32_t cap)
{
    static struct csc_result t;
    for (unsigned round = 0; round < CSC_MAX_LAYERS; round++) {
        csc_decode(cfg, g, &t);
        csc_verify(cfg, g, &t);
        int fixed = 0;
        for (int i = (int)t.nlayers - 1; i >= 0 && !fixed; i--) {
            const struct csc_layer *l = &t.layers[i];
            if (l->verdict == CSC_V_BAD && l->reason == CSC_R_MISMATCH &&
                (uint64_t)l->csum_off + 2 <= cap) {
                b[l->csum_off] = (uint8_t)(l->expected >> 8);
                b[l->csum_off + 1] = (uint8_t)l->expected;
                fixed = 1;
            }
        }
        if (!fixed)
            break;
    }
}

static void variants(const struct csc_config *cfg, const struct csc_frame *f, unsigned salt)
{
    static uint8_t b[MAXF];
    uint32_t cap = f->caplen < f->wirelen ? f->caplen : f->wirelen;
    if (cap > sizeof b)
        return;
    uint32_t hend = headers_end(&ga, cap);
    struct csc_frame g = *f;
    g.data = b;

    cur_variant = "other payload";
    memcpy(b, f->data, cap);
    for (uint32_t i = hend; i < cap; i++)
        b[i] ^= (uint8_t)(salt + 0x5bu * i) | 1u;
    fix_checksums(cfg, &g, b, cap);
    both(cfg, &g);

    /* the frame itself again: the fast path's plan for it hits now */
    cur_variant = "again";
    both(cfg, f);

    static char vname[64];
    cur_variant = vname;
    for (uint32_t i = 0; i < hend; i++) {
        static const uint8_t flips[] = { 0xff, 0x01 };
        for (unsigned k = 0; k < sizeof flips; k++) {
            memcpy(b, f->data, cap);
            b[i] ^= flips[k];
            snprintf(vname, sizeof vname, "byte %u ^ 0x%02x", i, flips[k]);
            both(cfg, &g);
            /* and with its checksums right again: a frame the plan could serve */
            fix_checksums(cfg, &g, b, cap);
            snprintf(vname, sizeof vname, "byte %u ^ 0x%02x, checksums fixed", i, flips[k]);
            both(cfg, &g);
        }
    }
    cur_variant = "as read";
}

/* The receivers every capture frame runs under */
struct rcv {
    const char *name;
    void (*set)(struct csc_config *);
};
static void r_default(struct csc_config *c) { (void)c; }
static void r_complete(struct csc_config *c) { csc_report_parse("complete", &c->rx); }
static void r_u1(struct csc_config *c)
{
    csc_report_parse("unnecessary:1", &c->rx);
    csc_era_by_name("4.6", &c->era);
}
static void r_318(struct csc_config *c)
{
    csc_era_by_name("3.18", &c->era);
    c->remcsum_rx = true;
}
static void r_nogro(struct csc_config *c)
{
    c->gro_nic = c->gro_tunnel = false;
    c->udp6_zero_csum_rx = true;
}
static const struct rcv rcvs[] = {
    { "default", r_default }, { "--rx complete", r_complete },
    { "--rx unnecessary:1 --era 4.6", r_u1 }, { "--era 3.18 --remcsum-rx", r_318 },
    { "--gro off --udp6-zero-csum-rx", r_nogro },
};

static int capture(const char *path, int flips)
{
    char err[PCAP_ERRBUF_SIZE];
    for (unsigned c = 0; c < (plain ? 1 : sizeof rcvs / sizeof rcvs[0]); c++) {
        pcap_t *pc = pcap_open_offline(path, err);
        if (!pc) {
            /* libpcap 1.10 refuses pcapng with several snapshot lengths
             * (tests/data/real/README.md): the CLI tests cover those */
            if (!quiet)
                fprintf(stderr, "csc-fastpath-check: %s: %s (not read)\n", path, err);
            return 0;
        }
        struct csc_config cfg;
        csc_config_default(&cfg);
        cfg.trace_steps = false;   /* as csumcheck runs unless -v asks for the trace */
        if (strstr(path, "vxlan_port_8472"))
            csc_config_set_port(&cfg, 8472, CSC_P_VXLAN, 0);
        rcvs[c].set(&cfg);
        cur_cfg = rcvs[c].name;
        csc_fast_init(fast);
        csc_frag_init(&fta);
        csc_frag_init(&ftb);
        csc_frag_attach(&fta, &cfg, fsa);
        csc_frag_attach(&ftb, &cfg, fsb);
        uint8_t link = (uint8_t)csc_link_from_linktype((uint32_t)pcap_datalink(pc));
        struct pcap_pkthdr *h;
        const u_char *data;
        cur_frame = 0;
        while (pcap_next_ex(pc, &h, &data) == 1) {
            cur_frame++;
            frames++;
            struct csc_frame f = { data, h->caplen, h->len, link, CSC_DIR_UNKNOWN };
            cur_variant = "as read";
            in_order(&cfg, &f);
            if (flips && !plain && (c == 0 || cur_frame % 4 == 1))
                variants(&cfg, &f, (unsigned)cur_frame + c);
        }
        pcap_close(pc);
    }
    return 1;
}

static int seed(const char *path)
{
    static uint8_t data[MAXF + 8];
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "csc-fastpath-check: cannot open %s\n", path);
        exit(2);
    }
    size_t size = fread(data, 1, sizeof data, fp);
    fclose(fp);
    if (size < 8)
        return 0;
    struct csc_config cfg;
    struct csc_frame f;
    fuzz_frame_input(data, size, &cfg, &f);
    cur_cfg = "the seed's";
    cur_frame = 1;
    frames++;
    csc_fast_init(fast);
    csc_frag_init(&fta);
    csc_frag_init(&ftb);
    cur_variant = "as read";
    in_order(&cfg, &f);
    variants(&cfg, &f, data[5]);
    return 1;
}

int main(int argc, char **argv)
{
    int seeds = 0, files = 0;
    fast = malloc(sizeof *fast);
    fsa = malloc(CSC_FRAG_STORE_BYTES);
    fsb = malloc(CSC_FRAG_STORE_BYTES);
    if (!fast || !fsa || !fsb)
        return 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-q")) {
            quiet = 1;
            continue;
        }
        if (!strcmp(argv[i], "-n")) {
            plain = 1;
            continue;
        }
        if (!strcmp(argv[i], "-f")) {
            seeds = 1;
            continue;
        }
        cur_file = argv[i];
        files += seeds ? seed(argv[i]) : capture(argv[i], 1);
    }
    if (!files) {
        fprintf(stderr, "usage: csc-fastpath-check [-q] [-f] FILE...\n");
        return 2;
    }
    printf("csc-fastpath-check: %d inputs, %lu frames, %lu analyses on both paths: the same "
           "(the fast path served %lu from a known shape)\n", files, frames, analyses, fast_hits);
    if (plain) {
        struct csc_fast_stats st;
        csc_fast_stats(fast, &st);
        printf("memo: %llu hits, %llu misses, %llu bypass, %llu evicted\n",
               (unsigned long long)st.memo_hits, (unsigned long long)st.memo_misses,
               (unsigned long long)st.memo_bypass, (unsigned long long)st.memo_evicted);
    }
    return 0;
}
