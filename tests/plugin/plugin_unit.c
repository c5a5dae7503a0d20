/*
 * plugin_unit.c - in-process checks of the plugin's helpers (no tshark).
 *
 * 1. linkmap: for every pcap LINKTYPE 0..1023 that wiretap maps to a
 *    WTAP_ENCAP, the plugin's WTAP_ENCAP -> csc_link map gives what the
 *    core's csc_link_from_linktype() (used by the CLI) gives, so both
 *    front-ends decode a file with the same link layer.
 * 2. summary: pl_summarize() keeps every field the dissector renders, and a
 *    typical tunnel frame costs at most 256 bytes of per-frame memory.
 */
#include "linkmap.h"
#include "frame-record.h"

#include <wiretap/pcap-encap.h>
#include <wiretap/wtap.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                        \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

static void test_linkmap(void)
{
    unsigned mapped = 0, known = 0;
    for (int lt = 0; lt < 1024; lt++) {
        int encap = wtap_pcap_encap_to_wtap_encap(lt);
        enum csc_link core = csc_link_from_linktype((uint32_t)lt);
        if (encap == WTAP_ENCAP_UNKNOWN) {
            /* wiretap cannot read it: tshark never hands us such a frame */
            continue;
        }
        mapped++;
        enum csc_link ours = csc_link_from_wtap_encap(encap);
        CHECK(ours == core, "LINKTYPE %d -> WTAP_ENCAP %d: plugin link %d, core link %d", lt, encap,
              ours, core);
        if (core != CSC_LINK_UNKNOWN)
            known++;
    }
    CHECK(known >= 9, "only %u link types known", known);
    printf("linkmap: %u pcap link types wiretap reads, %u decoded by the core, all agree\n", mapped,
           known);
}

static void test_summary(void)
{
    static struct csc_result r;
    memset(&r, 0, sizeof r);
    /* eth ipv4 udp vxlan eth ipv4 tcp, as zeek__vxlan-inner-tcp-bad-checksum */
    const uint8_t protos[] = { CSC_P_ETH, CSC_P_IPV4, CSC_P_UDP, CSC_P_VXLAN,
                               CSC_P_ETH, CSC_P_IPV4, CSC_P_TCP };
    const uint32_t offs[] = { 0, 14, 34, 42, 50, 64, 84 };
    r.nlayers = 7;
    for (unsigned i = 0; i < 7; i++) {
        struct csc_layer *l = &r.layers[i];
        l->proto = protos[i];
        l->off = offs[i];
        l->csum_off = CSC_NO_OFF;
        if (protos[i] == CSC_P_IPV4 || protos[i] == CSC_P_UDP || protos[i] == CSC_P_TCP) {
            l->verdict = i == 6 ? CSC_V_BAD : CSC_V_GOOD;
            l->reason = i == 6 ? CSC_R_MISMATCH : CSC_R_NONE;
            l->field = (uint16_t)(0x1000 + i);
            l->expected = i == 6 ? 0x4b57 : l->field;
            l->csum_off = offs[i] + 10;
            l->notes = i;
            l->k.method = CSC_M_SW_PASS;
            l->k.path = CSC_PATH_NORMAL;
            l->k.dev = i > 3;
            l->k.ok = i != 6;
            l->k.passes = (uint8_t)i;
            l->k.pass_bytes = 100u * i;
            l->k.normal_conv = i == 2;
            l->rco_delta = (uint16_t)(0x3700 + i);
        }
    }
    r.worst = CSC_V_BAD;
    r.kernel.ran = 1;
    r.kernel.verdict = CSC_K_DROP;
    r.kernel.drop_layer = 6;
    r.kernel.counters = 1u << CSC_C_TCP_IN_CSUM_ERRORS;
    r.kernel.sw_passes = 4;
    r.kernel.sw_bytes = 130;
    r.kernel.ndevs = 2;
    r.kernel.devs[0] = (struct csc_dev){ .kind = CSC_P_NONE, .layer = 1, .gro_ran = 1,
                                         .gro_reason = CSC_G_CSUM_FAIL, .gro_layer = 6,
                                         .passes = 1, .pass_bytes = 70 };
    r.kernel.devs[1] = (struct csc_dev){ .kind = CSC_P_VXLAN, .layer = 4, .gro_ran = 1,
                                         .gro_reason = CSC_G_NONE, .gro_layer = 6,
                                         .entry = { .ip_summed = 2, .csum_valid = 1 },
                                         .gro_passes = 2, .gro_pass_bytes = 60 };

    size_t n = pl_summary_size(&r);
    CHECK(n <= 256, "a 7-layer VXLAN frame costs %zu bytes", n);
    struct pl_frame *s = malloc(n);
    pl_summarize(&r, s);
    CHECK(s->nlayers == 7 && s->nck == 4 && s->ndevs == 2, "counts %u %u %u", s->nlayers, s->nck,
          s->ndevs);
    const struct pl_layer *ck = pl_ck(s);
    const unsigned idx[] = { 1, 2, 5, 6 };
    for (unsigned i = 0; i < 4 && i < s->nck; i++) {
        const struct csc_layer *l = &r.layers[idx[i]];
        CHECK(ck[i].index == idx[i] && ck[i].proto == l->proto && ck[i].off == l->off &&
                  ck[i].csum_off == l->csum_off && ck[i].verdict == l->verdict &&
                  ck[i].reason == l->reason && ck[i].field == l->field &&
                  ck[i].expected == l->expected && ck[i].notes == l->notes &&
                  ck[i].method == l->k.method && ck[i].dev == l->k.dev && pl_layer_ok(&ck[i]) == l->k.ok &&
                  pl_layer_path(&ck[i]) == l->k.path && ck[i].rco_delta == l->rco_delta &&
                  ck[i].passes == l->k.passes && ck[i].pass_bytes == l->k.pass_bytes &&
                  ((ck[i].flags & PL_F_NORMAL_CONV) != 0) == (l->k.normal_conv != 0),
              "layer %u differs", idx[i]);
    }
    CHECK(pl_protos(s)[3] == CSC_P_VXLAN, "stack");
    CHECK(s->kverdict == CSC_K_DROP && s->drop_layer == 6 && s->sw_passes == 4 && s->sw_bytes == 130,
          "kernel");
    uint8_t dev;
    CHECK(pl_frame_gro(s, &dev) == CSC_G_CSUM_FAIL && dev == 0, "frame gro");
    CHECK(pl_devs(s)[1].ip_summed == 2 && pl_devs(s)[1].csum_valid == 1, "dev entry");
    CHECK(pl_devs(s)[0].passes == 1 && pl_devs(s)[0].pass_bytes == 70 && pl_devs(s)[1].gro_passes == 2 &&
              pl_devs(s)[1].gro_pass_bytes == 60, "dev passes");
    /* The GRO engine's fates: one per device it reached. */
    struct csc_gro_decision d = { .n = 2 };
    d.fate[0] = (struct csc_gro_fate){ .kind = CSC_P_NONE, .held = 1, .super = 9 };
    d.fate[1] = (struct csc_gro_fate){ .kind = CSC_P_VXLAN, .alone_reason = CSC_G_CSUM_FAIL,
                                       .flushed_other = CSC_GF_SEQ };
    pl_set_fates(s, &d, 9);
    const struct pl_fate *fa = pl_fates(s);
    CHECK(s->nfate == 2 && fa[0].held && !fa[0].merged && fa[0].super == 9 && fa[0].segs == 1 &&
              fa[1].kind == CSC_P_VXLAN && !fa[1].held && fa[1].super == 0 &&
              fa[1].alone_reason == CSC_G_CSUM_FAIL && fa[1].flushed == CSC_GF_SEQ,
          "fates");
    d.fate[0].merged = 1;   /* merged into frame 9's super-packet: not a first segment */
    pl_set_fates(s, &d, 12);
    CHECK(pl_fates(s)[0].segs == 0 && pl_fates(s)[0].super == 9, "merged fate");
    printf("summary: 7-layer VXLAN frame kept in %zu bytes (csc_result is %zu)\n", n, sizeof r);
    free(s);

    /* No IP layer: no devices, no checksummed layers. */
    memset(&r, 0, sizeof r);
    r.nlayers = 1;
    r.layers[0].proto = CSC_P_ETH;
    n = pl_summary_size(&r);
    s = malloc(n);
    pl_summarize(&r, s);
    CHECK(s->nck == 0 && s->ndevs == 0 && s->ran == 0, "no-IP frame");
    CHECK(pl_frame_gro(s, &dev) == CSC_G_OFF && dev == 0xff, "no-IP gro");
    free(s);
}

int main(void)
{
    test_linkmap();
    test_summary();
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    puts("plugin-unit: all checks passed");
    return 0;
}
