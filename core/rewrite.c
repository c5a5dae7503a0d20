/*
 * rewrite.c - what-if rewrites of checksum fields (see rewrite.h).
 */
#include "csum.h"
#include "proto/wire.h"

#include "csumcheck/rewrite.h"

#include <string.h>

static void put16(uint8_t *b, uint32_t off, uint16_t v)
{
    b[off] = (uint8_t)(v >> 8);
    b[off + 1] = (uint8_t)v;
}

size_t csc_rewrite(const struct csc_frame *f, const struct csc_result *r, unsigned ops, uint8_t *out,
                   size_t cap)
{
    size_t n = f->caplen < f->wirelen ? f->caplen : f->wirelen;
    if (n > cap)
        n = cap;
    memcpy(out, f->data, n);

    int first_tunnel = -1, outer_udp = -1;
    for (unsigned i = 0; i < r->nlayers; i++)
        if (csc_proto_is_tunnel(r->layers[i].proto)) {
            first_tunnel = (int)i;
            if (i > 0 && r->layers[i - 1].proto == CSC_P_UDP)
                outer_udp = (int)i - 1;
            break;
        }
    if (first_tunnel < 0)
        return n;

    /* Inner fields made right, innermost first; remember the change each
     * makes to the outer UDP sum. */
    uint32_t delta = 0;
    const struct csc_layer *ou = outer_udp >= 0 ? &r->layers[outer_udp] : NULL;
    if (ops & CSC_RW_INNER_GOOD)
        for (int i = (int)r->nlayers - 1; i > first_tunnel; i--) {
            const struct csc_layer *l = &r->layers[i];
            if (l->csum_off == CSC_NO_OFF || l->csum_off + CSUM_LEN > n || l->verdict == CSC_V_GOOD ||
                l->verdict == CSC_V_NONE || l->verdict == CSC_V_NA)
                continue;
            uint16_t v = l->expected;
            put16(out, l->csum_off, v);
            if (ou && l->csum_off >= ou->cov_off && l->csum_off + 2 <= ou->cov_end) {
                uint32_t at = l->csum_off - ou->cov_off;
                delta = csum_sub(delta, csum_word_at(l->field, at));
                delta = csum_add(delta, csum_word_at(v, at));
            }
        }
    if (!ou || ou->csum_off + CSUM_LEN > n)
        return n;
    if (ops & CSC_RW_OUTER_ZERO) {
        put16(out, ou->csum_off, 0);
    } else if (ops & CSC_RW_OUTER_CSUM) {
        uint32_t s;
        if (!csc_region_sum(r, ou->cov_off, ou->cov_end, &s))
            return n;
        s = csum_sub(s, csum_word_at(ou->field, ou->csum_off - ou->cov_off));
        s = csum_add(s, delta);
        uint16_t v = csum_fold(csum_add(ou->pseudo, s));
        put16(out, ou->csum_off, v ? v : CSUM_MANGLED_0);
    } else if (ops & CSC_RW_INNER_GOOD) {
        /* keep the outer checksum right if it was right (or zero) before */
        uint32_t s;
        if (ou->verdict == CSC_V_GOOD && csc_region_sum(r, ou->cov_off, ou->cov_end, &s)) {
            s = csum_sub(s, csum_word_at(ou->field, ou->csum_off - ou->cov_off));
            s = csum_add(s, delta);
            uint16_t v = csum_fold(csum_add(ou->pseudo, s));
            put16(out, ou->csum_off, v ? v : CSUM_MANGLED_0);
        }
    }
    return n;
}

unsigned csc_rewrite_parse(const char *s, bool *ok)
{
    unsigned ops = 0;
    *ok = true;
    while (*s) {
        size_t len = strcspn(s, ",");
        if (len == 10 && !strncmp(s, "outer-zero", 10))
            ops |= CSC_RW_OUTER_ZERO;
        else if (len == 10 && !strncmp(s, "outer-csum", 10))
            ops |= CSC_RW_OUTER_CSUM;
        else if (len == 10 && !strncmp(s, "inner-good", 10))
            ops |= CSC_RW_INNER_GOOD;
        else
            *ok = false;
        s += len;
        if (*s == ',')
            s++;
    }
    if ((ops & CSC_RW_OUTER_ZERO) && (ops & CSC_RW_OUTER_CSUM))
        *ok = false;
    return ops;
}
