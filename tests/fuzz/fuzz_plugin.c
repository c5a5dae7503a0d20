/*
 * fuzz_plugin.c - libFuzzer target 3: the Wireshark plugin's per-frame path
 * without Wireshark. The plugin's entry point needs epan (a tvb, a
 * packet_info, a tree), so the sweep drives it through tshark; everything
 * it does with a frame's bytes before building items is Wireshark-free and
 * runs here as packet-csumcheck.c's analyze_frame() runs it on tshark's
 * first pass: csc_analyze(), csc_frag_feed() and the GRO engine in capture
 * order, then pl_summarize() and pl_set_fates() into a heap record of
 * exactly pl_summary_size() bytes (ASan sees any write past it).
 *
 * Input: the 8 header bytes of fuzz-frame (so its seeds serve here too),
 * then the bytes of two frames A and B split at [5..6] (0: all A). The
 * sequence A A B A puts held, merged and flushed GRO fates and fragment
 * state across frames into play. The target asserts what the plugin's
 * rendering relies on: every checksummed record points at a layer of the
 * stack in order, enums in range, fates within the devices.
 */
#include "csumcheck/csumcheck.h"
#include "csumcheck/frag.h"
#include "csumcheck/gro.h"

#include "../../plugin/src/frame-record.h"
#include "fuzz_input.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct csc_result res;
static struct csc_frag_table frag;
static uint8_t frag_store[CSC_FRAG_STORE_BYTES];
static struct csc_gro gro;

#define CHECK(c) do { if (!(c)) abort(); } while (0)

static void check_summary(const struct csc_frame *f, const struct csc_result *r,
                          const struct pl_frame *s, uint32_t frame)
{
    uint32_t cap = f->caplen < f->wirelen ? f->caplen : f->wirelen;
    CHECK(s->nlayers == r->nlayers && s->nck <= s->nlayers);
    const struct csc_stop_info *st = pl_stop(s);
    CHECK(s->worst < CSC_V__COUNT && s->stop < CSC_STOP__COUNT && st->reason == s->stop);
    CHECK(st->reason == CSC_STOP_END || st->layer == CSC_NO_LAYER || st->layer < s->nlayers);
    char why[96];
    CHECK((st->reason == CSC_STOP_END) == !*csc_stop_describe(st, why, sizeof why));
    const uint8_t *protos = pl_protos(s);
    const struct pl_layer *ck = pl_ck(s);
    int last = -1;
    for (unsigned i = 0; i < s->nck; i++) {
        CHECK((int)ck[i].index > last && ck[i].index < s->nlayers);
        last = ck[i].index;
        CHECK(protos[ck[i].index] == ck[i].proto && ck[i].proto < CSC_P__COUNT);
        CHECK(ck[i].verdict != CSC_V_NA && ck[i].verdict < CSC_V__COUNT);
        CHECK(ck[i].reason < CSC_R__COUNT);
        CHECK(ck[i].off <= cap || ck[i].notes & CSC_N_FRAGMENT);
        CHECK(pl_layer_ok(&ck[i]) <= 2);
    }
    CHECK(s->ndevs <= CSC_MAX_DEVS && s->nfate <= s->ndevs);
    CHECK(!s->ran || s->ndevs >= 1);
    CHECK(s->kverdict != CSC_K_DROP || s->drop_layer < s->nlayers);
    const struct pl_dev *dv = pl_devs(s);
    for (unsigned i = 0; i < s->ndevs; i++)
        CHECK(dv[i].gro_reason < CSC_G__COUNT && dv[i].layer < s->nlayers);
    const struct pl_fate *fa = pl_fates(s);
    for (unsigned i = 0; i < s->nfate; i++) {
        CHECK(!fa[i].merged || fa[i].held);
        CHECK(!fa[i].held || (fa[i].super >= 1 && fa[i].super <= frame));
        CHECK(fa[i].alone_reason < CSC_G__COUNT);
    }
    uint8_t dev;
    CHECK(pl_frame_gro(s, &dev) < CSC_G__COUNT);
    CHECK(dev == 0xff ? s->ndevs == 0 : dev < s->ndevs);
}

static void one_frame(const struct csc_config *cfg, const uint8_t *bytes, size_t len,
                      uint8_t link, uint32_t frame)
{
    /* at the end of its own heap buffer: ASan sees any overread */
    uint8_t *buf = malloc(len ? len : 1);
    memcpy(buf, bytes, len);
    struct csc_frame f = { buf, (uint32_t)len, (uint32_t)len, link, CSC_DIR_UNKNOWN };
    csc_analyze(cfg, &f, &res);
    int reassembled = csc_frag_feed(&frag, &f, &res, frame);
    struct pl_frame *s = malloc(pl_summary_size(&res));
    pl_summarize(&res, s);
    s->frag_reassembled = reassembled ? 1 : 0;
    struct csc_gro_decision d;
    csc_gro_feed(&gro, &f, &res, frame, frame * 10u, &d);
    CHECK(d.n <= CSC_MAX_DEVS);
    pl_set_fates(s, &d, frame);
    check_summary(&f, &res, s, frame);
    free(s);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8)
        return 0;
    struct csc_config cfg;
    fuzz_config(data, &cfg);

    size_t len = size - 8;
    size_t cut = ((size_t)data[5] << 8) | data[6];
    size_t la = cut && cut < len ? cut : len;
    const uint8_t *a = data + 8, *b = data + 8 + la;
    size_t lb = len - la;
    uint8_t link = fuzz_link(data[0]);

    /* a fresh file, as tshark's first pass sees it (init_csumcheck) */
    struct csc_gro_cfg gc;
    csc_gro_cfg_default(&gc);
    gc.budget = (uint16_t)(1 + (data[7] & 3));   /* small budgets: flushes inside the sequence */
    csc_frag_init(&frag);
    csc_frag_attach(&frag, &cfg, frag_store);
    csc_gro_init(&gro, &gc);
    one_frame(&cfg, a, la, link, 1);
    one_frame(&cfg, a, la, link, 2);
    one_frame(&cfg, b, lb, link, 3);
    one_frame(&cfg, a, la, link, 4);
    csc_gro_finish(&gro);
    return 0;
}
