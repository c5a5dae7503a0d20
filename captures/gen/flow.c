/*
 * flow.c - TCP flows over VXLAN for the GRO tests (`csc-gen flow`) and the
 * large benchmark captures (`csc-gen bench`), written on demand.
 *
 *   csc-gen flow [--segments N] [--outer-csum on|zero] [--bad-seg K]
 *                [--zero-seg K] [--outer6] [--payload N] [--format pcap|pcapng]
 *                -o FILE|-
 *     N consecutive segments of one TCP flow over VXLAN (sequence numbers
 *     and inner IP IDs continue), outer UDP checksum present or zero, and
 *     optionally segment K with a bad inner TCP checksum (--bad-seg) or
 *     with a zero outer UDP checksum among ones that have it (--zero-seg).
 *
 *   csc-gen bench --size full|small --bytes N[K|M|G] [--bad-every K]
 *                 [--format pcap|pcapng] -o FILE|-
 *     VXLAN/TCP frames of 1514 bytes (full) or 180 bytes (small) until the
 *     file holds N bytes; every K-th frame has a bad inner TCP checksum.
 *     Frames come from a ring of prebuilt ones, so writing runs at disk or
 *     pipe speed: `csc-gen bench --bytes 10G -o - | csumcheck -`.
 *
 *   csc-gen bench --flows N --frames M [--size full|small] -o FILE|-
 *     A bulk transfer over VXLAN as a receiver sees it: N TCP connections
 *     served in turn, each turn one data segment and the peer's pure ACK, so
 *     sequence numbers advance and get acknowledged (a ring of one flow's
 *     segments looks like endless retransmissions to tshark's TCP analysis,
 *     which then goes quadratic). 1.5% of the frames (every 100th data
 *     segment, every 200th ACK) have a bad inner TCP checksum.
 *
 *   csc-gen bench --bytes N | --frames N [--flows N] [--interleave ...]
 *                 [--size full|small|imix] [--tunnel ...] [--bad F] ...
 *     Traffic shapes (shape.c): chosen by any of its options, by IMIX, or by
 *     --flows with --bytes or above 256.
 */
#include "gen.h"

#include <stdlib.h>
#include <string.h>

static void flow_frame(struct pb_frame *f, const struct gen_flow *fl, int i, int bad)
{
    pb_init(f);
    pb_push(f, PB_ETH);
    pb_push(f, fl->outer6 ? PB_IPV6 : PB_IPV4)->ip_id = (uint16_t)(0x100 + i);
    struct pb_layer *u = pb_push(f, PB_UDP);
    u->csum = fl->outer_zero || fl->zero_seg == i + 1 ? PB_ZERO : PB_OK;
    u->sport = 49152;                       /* one flow: a fixed source port hash */
    pb_push(f, PB_VXLAN);
    pb_push(f, PB_ETH);
    pb_push(f, PB_IPV4)->ip_id = (uint16_t)(1 + i);
    struct pb_layer *t = pb_push(f, PB_TCP);
    t->seq = 1000u + (uint32_t)i * (uint32_t)fl->payload;
    t->ack = 1;
    t->tcp_flags = 0x10;
    t->csum = bad ? PB_BAD : PB_OK;
    struct pb_layer *p = pb_push(f, PB_PAYLOAD);
    p->len = (uint16_t)fl->payload;
    p->fill = (uint8_t)i;
}

int gen_flow_write(const struct gen_flow *fl, struct capw *w, FILE *man, const char *fname,
                   uint64_t *ts, uint32_t *frame_no)
{
    static uint8_t buf[70000];
    for (int i = 0; i < fl->segments; i++) {
        struct pb_frame f;
        int bad = fl->bad_seg == i + 1;
        flow_frame(&f, fl, i, bad);
        size_t len = pb_build(&f, buf, sizeof buf);
        if (!len)
            return -1;
        ++*frame_no;
        if (w && capw_write(w, *ts, buf, (uint32_t)len, CAPW_DIR_NONE))
            return -1;
        *ts += 10;                          /* 10 us apart: one NAPI poll's worth */
        struct gen_intent in[GEN_MAX_INTENT];
        int n = gen_intent_frame(&f, len, in);
        char cname[32];
        snprintf(cname, sizeof cname, "seg%d", i + 1);
        for (int k = 0; k < n; k++)
            gen_manifest_line(man, fname, *frame_no, cname, &in[k],
                              bad ? "flow segment, bad inner TCP" : "flow segment");
    }
    return 0;
}

static int parse_size(const char *s, unsigned long long *out)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s)
        return -1;
    switch (*end) {
    case 0: break;
    case 'K': case 'k': v <<= 10; end++; break;
    case 'M': case 'm': v <<= 20; end++; break;
    case 'G': case 'g': v <<= 30; end++; break;
    default: return -1;
    }
    if (*end)
        return -1;
    *out = v;
    return 0;
}

static int parse_format(const char *s, int *fmt)
{
    if (!strcmp(s, "pcap"))
        *fmt = CAPW_PCAP;
    else if (!strcmp(s, "pcapng"))
        *fmt = CAPW_PCAPNG;
    else
        return -1;
    return 0;
}

/* The output file ("-": standard output), buffered; NULL after saying why. */
static FILE *open_out(const char *cmd, const char *path)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "wb") : stdout;
    if (f)
        setvbuf(f, NULL, _IOFBF, 1 << 20);
    else
        fprintf(stderr, "csc-gen %s: cannot write %s\n", cmd, path);
    return f;
}

int gen_cmd_flow(int argc, char **argv)
{
    struct gen_flow fl = { 8, 0, 0, 0, 1398, 0 };
    const char *out = NULL;
    int fmt = CAPW_PCAP;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--segments") && v) { fl.segments = atoi(v); i++; }
        else if (!strcmp(a, "--outer-csum") && v) {
            if (!strcmp(v, "on")) fl.outer_zero = 0;
            else if (!strcmp(v, "zero") || !strcmp(v, "off")) fl.outer_zero = 1;
            else goto usage;
            i++;
        }
        else if (!strcmp(a, "--bad-seg") && v) { fl.bad_seg = atoi(v); i++; }
        else if (!strcmp(a, "--zero-seg") && v) { fl.zero_seg = atoi(v); i++; }
        else if (!strcmp(a, "--payload") && v) { fl.payload = atoi(v); i++; }
        else if (!strcmp(a, "--outer6")) fl.outer6 = 1;
        else if (!strcmp(a, "--format") && v) { if (parse_format(v, &fmt)) goto usage; i++; }
        else if (!strcmp(a, "-o") && v) { out = v; i++; }
        else goto usage;
    }
    if (!out || fl.segments < 1 || fl.segments > 100000 || fl.payload < 1 || fl.payload > 8900)
        goto usage;
    FILE *f = open_out("flow", out);
    if (!f)
        return 2;
    struct capw w;
    uint64_t ts = GEN_T0_USEC;
    uint32_t n = 0;
    int r = capw_open_stream(&w, f, (enum capw_format)fmt, 1, 262144);
    r |= gen_flow_write(&fl, &w, NULL, out, &ts, &n);
    r |= capw_close(&w);
    if (f != stdout)
        r |= fclose(f);
    return r ? 2 : 0;
usage:
    fprintf(stderr, "usage: csc-gen flow [--segments N] [--outer-csum on|zero] [--bad-seg K] "
                    "[--zero-seg K] [--outer6] [--payload N] [--format pcap|pcapng] -o FILE|-\n");
    return 2;
}

/* One frame of the bulk transfer: frame i is a data segment (even i) or
 * the ACK of the data segment before it (odd i), on flow (i / 2) % nflows. */
static void bulk_frame(struct pb_frame *f, uint64_t i, int nflows, int payload, uint32_t *seq)
{
    int flow = (int)(i / 2 % (uint64_t)nflows), ack = (int)(i & 1);
    pb_init(f);
    pb_push(f, PB_ETH);
    struct pb_layer *o = pb_push(f, PB_IPV4);
    o->ip_id = (uint16_t)(i * 3);
    struct pb_layer *u = pb_push(f, PB_UDP);
    u->sport = (uint16_t)(49152 + flow);   /* the flow's hash, as Linux picks it */
    pb_push(f, PB_VXLAN);
    pb_push(f, PB_ETH);
    struct pb_layer *in = pb_push(f, PB_IPV4);
    in->ip_id = (uint16_t)i;
    struct pb_layer *t = pb_push(f, PB_TCP);
    t->sport = (uint16_t)(40000 + flow);
    t->dport = 5201;
    t->tcp_flags = 0x10;
    t->csum = i % 100 == 98 || i % 200 == 99 ? PB_BAD : PB_OK;
    if (ack) {
        uint8_t a[16];
        memcpy(a, o->src, 16), memcpy(o->src, o->dst, 16), memcpy(o->dst, a, 16);
        memcpy(a, in->src, 16), memcpy(in->src, in->dst, 16), memcpy(in->dst, a, 16);
        t->sport = 5201;
        t->dport = (uint16_t)(40000 + flow);
        t->seq = 1;
        t->ack = seq[flow];
        return;
    }
    t->seq = seq[flow];
    t->ack = 1;
    seq[flow] += (uint32_t)payload;
    struct pb_layer *p = pb_push(f, PB_PAYLOAD);
    p->len = (uint16_t)payload;
    p->fill = 7;
}

static int write_bulk(struct capw *w, uint64_t frames, int nflows, int payload)
{
    static uint8_t buf[2048];
    uint32_t seq[256];
    for (int k = 0; k < nflows; k++)
        seq[k] = 1000u + 100000u * (uint32_t)k;
    uint64_t ts = GEN_T0_USEC;
    for (uint64_t i = 0; i < frames; i++) {
        struct pb_frame f;
        bulk_frame(&f, i, nflows, payload, seq);
        size_t len = pb_build(&f, buf, sizeof buf);
        if (!len || capw_write(w, ts, buf, (uint32_t)len, CAPW_DIR_NONE))
            return -1;
        ts += 10;
    }
    return 0;
}

#define RING 64

/* Shape mode (shape.c): a shape option, IMIX, or --flows with --bytes or
 * beyond the bulk transfer's 256 */
static int is_shape(int argc, char **argv)
{
    int flows = 0, bytes = 0;
    for (int i = 1; i < argc; i++) {
        if (gen_shape_option(argv[i]))
            return 1;
        if (i + 1 < argc && !strcmp(argv[i], "--size") && !strcmp(argv[i + 1], "imix"))
            return 1;
        if (i + 1 < argc && !strcmp(argv[i], "--flows"))
            flows = 1 + (atol(argv[i + 1]) > 256);
        bytes |= !strcmp(argv[i], "--bytes");
    }
    return flows == 2 || (flows && bytes);
}

int gen_cmd_bench(int argc, char **argv)
{
    if (is_shape(argc, argv))
        return gen_cmd_shape(argc, argv, parse_size, open_out);
    const char *out = NULL, *size = "full";
    unsigned long long bytes = 0;
    long bad_every = 0, flows = 0;
    unsigned long long frames = 0;
    int fmt = CAPW_PCAP;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--size") && v) { size = v; i++; }
        else if (!strcmp(a, "--bytes") && v) { if (parse_size(v, &bytes)) goto usage; i++; }
        else if (!strcmp(a, "--bad-every") && v) { bad_every = atol(v); i++; }
        else if (!strcmp(a, "--flows") && v) { flows = atol(v); i++; }
        else if (!strcmp(a, "--frames") && v) { if (parse_size(v, &frames)) goto usage; i++; }
        else if (!strcmp(a, "--format") && v) { if (parse_format(v, &fmt)) goto usage; i++; }
        else if (!strcmp(a, "-o") && v) { out = v; i++; }
        else goto usage;
    }
    int payload;
    if (!strcmp(size, "full"))
        payload = 1514 - 14 - 20 - 8 - 8 - 14 - 20 - 20;      /* 1410: a 1514-byte frame */
    else if (!strcmp(size, "small"))
        payload = 180 - 104;                                  /* 76: a 180-byte frame */
    else
        goto usage;
    if (flows) {
        if (!out || flows < 1 || flows > 256 || !frames || bytes || bad_every)
            goto usage;
        FILE *f = open_out("bench", out);
        if (!f)
            return 2;
        struct capw w;
        int r = capw_open_stream(&w, f, (enum capw_format)fmt, 1, 262144);
        r |= write_bulk(&w, frames, (int)flows, payload);
        r |= capw_close(&w);
        if (f != stdout)
            r |= fclose(f);
        return r ? 2 : 0;
    }
    if (!out || !bytes || bad_every < 0 || frames)
        goto usage;

    static uint8_t good[RING][1600], bad[RING][1600];
    size_t flen = 0;
    struct gen_flow fl = { RING, 0, 0, 0, payload, 0 };
    for (int i = 0; i < RING; i++) {
        struct pb_frame f;
        flow_frame(&f, &fl, i, 0);
        flen = pb_build(&f, good[i], sizeof good[i]);
        flow_frame(&f, &fl, i, 1);
        if (!flen || pb_build(&f, bad[i], sizeof bad[i]) != flen)
            return 2;
    }
    FILE *f = open_out("bench", out);
    if (!f)
        return 2;
    struct capw w;
    int r = capw_open_stream(&w, f, (enum capw_format)fmt, 1, 262144);
    unsigned long long written = fmt == CAPW_PCAP ? 24 : 48;
    size_t per = fmt == CAPW_PCAP ? 16 + flen : 32 + ((flen + 3) & ~(size_t)3);
    uint64_t ts = GEN_T0_USEC;
    for (unsigned long long i = 0; written < bytes && !r; i++) {
        int b = bad_every && (i + 1) % (unsigned long long)bad_every == 0;
        r |= capw_write(&w, ts, b ? bad[i % RING] : good[i % RING], (uint32_t)flen, CAPW_DIR_NONE);
        ts += 1;
        written += per;
    }
    r |= capw_close(&w);
    if (f != stdout)
        r |= fclose(f);
    return r ? 2 : 0;
usage:
    fprintf(stderr, "usage: csc-gen bench --size full|small --bytes N[K|M|G] [--bad-every K] "
                    "[--format pcap|pcapng] -o FILE|-\n"
                    "       csc-gen bench --flows N --frames M [--size full|small] "
                    "[--format pcap|pcapng] -o FILE|-\n");
    return 2;
}
