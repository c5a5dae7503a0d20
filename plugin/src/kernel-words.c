/*
 * kernel-words.c - the frame's kernel outcome in words (kernel-words.h).
 */
#include "kernel-words.h"

/* the first counter a drop bumps, NULL when none */
static const char *first_counter_of(uint32_t counters)
{
    return counters ? csc_counter_name((unsigned)__builtin_ctz(counters)) : NULL;
}

void pl_kernel_words(const struct pl_frame *s, struct sb *ks)
{
    if (!s->ran && s->kverdict == CSC_K_SENT) {
        sb_s(ks, "sent, not received");
    } else if (!s->ran) {
        sb_s(ks, "not run");
    } else if (s->kverdict == CSC_K_DROP) {
        const char *c = first_counter_of(s->counters);
        sb_s(ks, "drop ");
        sb_s(ks, c ? c : csc_drop_name(s->drop_reason));
    } else {
        sb_s(ks, csc_kverdict_name(s->kverdict));
        if (s->sw_passes) {
            sb_s(ks, ", ");
            sb_passes(ks, s->sw_passes);
        }
    }
}

const char *pl_kernel_verdict(const struct pl_frame *s)
{
    return csc_kverdict_name(s->ran || s->kverdict == CSC_K_SENT ? s->kverdict : CSC_K_UNKNOWN);
}
