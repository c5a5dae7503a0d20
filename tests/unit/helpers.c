#include "helpers.h"

#include <stdio.h>

struct csc_result R;
struct csc_config CFG;
uint8_t FRAME[70000];
size_t FRAME_LEN;

void cfg_set(const char *rx, const char *era)
{
    csc_config_default(&CFG);
    ck_assert_msg(csc_report_parse(rx, &CFG.rx), "bad report %s", rx);
    ck_assert_msg(csc_era_by_name(era, &CFG.era), "bad era %s", era);
}

void run_bytes(const uint8_t *b, size_t caplen, size_t wirelen, enum csc_link link)
{
    struct csc_frame fr = { b, (uint32_t)caplen, (uint32_t)wirelen, (uint8_t)link, CSC_DIR_UNKNOWN };
    csc_analyze(&CFG, &fr, &R);
    /* a step's bytes are a software pass's, every other step has none */
    for (unsigned i = 0; i < R.kernel.nsteps; i++) {
        const struct csc_step *st = &R.kernel.steps[i];
        if (st->bytes && st->what != CSC_M_SW_PASS)
            dump_result();
        ck_assert_msg(!st->bytes || st->what == CSC_M_SW_PASS, "step %u (%s %s): %u bytes", i,
                      csc_fn_name(st->fn), csc_what_name(st->what), st->bytes);
        /* the kernel's one-bit fields hold 0 or 1, ip_summed one of four, the level up to 3 */
        ck_assert_msg(st->cb.csum_valid <= 1 && st->cb.flush <= 1 && st->cb.encap_mark <= 1 &&
                      st->after.csum_valid <= 1 && st->after.csum_bad <= 1 && st->after.ip_summed <= 3 &&
                      st->after.csum_level <= 3,
                      "step %u (%s %s): cb %u/%u/%u, skb %u/%u/%u/%u", i, csc_fn_name(st->fn),
                      csc_what_name(st->what), st->cb.csum_valid, st->cb.flush, st->cb.encap_mark,
                      st->after.ip_summed, st->after.csum_level, st->after.csum_valid, st->after.csum_bad);
    }
}

void run(struct pb_frame *f)
{
    FRAME_LEN = pb_build(f, FRAME, sizeof FRAME);
    ck_assert_uint_gt(FRAME_LEN, 0);
    enum csc_link link = csc_link_from_linktype(pb_linktype(f));
    run_bytes(FRAME, FRAME_LEN, FRAME_LEN, link);
}

int lay(enum csc_proto p, int n)
{
    for (int i = 0; i < R.nlayers; i++)
        if (R.layers[i].proto == p && n-- == 0)
            return i;
    dump_result();
    ck_abort_msg("no layer %s #%d", csc_proto_name(p), n);
    return -1;
}

int has_counter(enum csc_counter c)
{
    return (R.kernel.counters >> c) & 1;
}

uint32_t counters_of(enum csc_counter a, enum csc_counter b)
{
    return (1u << a) | (1u << b);
}

const struct csc_dev *dev_of_kind(enum csc_proto kind)
{
    for (int i = 0; i < R.kernel.ndevs; i++)
        if (R.kernel.devs[i].kind == kind)
            return &R.kernel.devs[i];
    dump_result();
    ck_abort_msg("no device %s", csc_dev_name(kind));
    return NULL;
}

int find_step(const char *fn, const char *what)
{
    for (int i = 0; i < R.kernel.nsteps; i++)
        if (!strcmp(csc_fn_name(R.kernel.steps[i].fn), fn) &&
            !strcmp(csc_what_name(R.kernel.steps[i].what), what))
            return i;
    return -1;
}

void dump_result(void)
{
    fprintf(stderr, "---- result: %d layers, stop %s\n", R.nlayers, csc_stop_name(R.stop));
    for (int i = 0; i < R.nlayers; i++) {
        const struct csc_layer *l = &R.layers[i];
        fprintf(stderr, "  %2d %-8s off %-4u %s/%s field %04x exp %04x  k:%s/%s dev%d ok%d passes%d\n",
                i, csc_proto_name(l->proto), l->off, csc_verdict_name(l->verdict),
                csc_reason_name(l->reason), l->field, l->expected, csc_method_name(l->k.method),
                csc_path_name(l->k.path), l->k.dev, l->k.ok, l->k.passes);
    }
    const struct csc_kernel *k = &R.kernel;
    fprintf(stderr, "  kernel %s passes %u bytes %u counters %x warnings %x\n",
            csc_kverdict_name(k->verdict), k->sw_passes, k->sw_bytes, k->counters, k->warnings);
    for (int i = 0; i < k->ndevs; i++)
        fprintf(stderr, "  dev %s entry %s/%u gro %s@%d\n", csc_dev_name(k->devs[i].kind),
                csc_ip_summed_name(k->devs[i].entry.ip_summed), k->devs[i].entry.csum_level,
                csc_gro_reason_name(k->devs[i].gro_reason), k->devs[i].gro_layer);
    for (int i = 0; i < k->nsteps; i++) {
        const struct csc_step *s = &k->steps[i];
        fprintf(stderr, "    [%d %-6s L%2d] %-26s %-22s ok=%d %5u  %s/%u v%u -> %s/%u v%u | cnt%u v%u fl%u em%u\n",
                s->dev, csc_path_name(s->path), s->layer == 0xff ? -1 : s->layer,
                csc_fn_name(s->fn), csc_what_name(s->what), s->ok, s->bytes,
                csc_ip_summed_name(s->before.ip_summed), s->before.csum_level, s->before.csum_valid,
                csc_ip_summed_name(s->after.ip_summed), s->after.csum_level, s->after.csum_valid,
                s->cb.csum_cnt, s->cb.csum_valid, s->cb.flush, s->cb.encap_mark);
    }
}
