/*
 * jw.c - the JSON writer's out-of-line pieces (jw.h).
 */
#include "jw.h"

#include <stdio.h>

void jw_key(struct jw *j, const char *k)
{
    if (j->first)
        j->first = false;
    else
        wb_putc(j->w, ',');
    wb_json_str(j->w, k);
    wb_putc(j->w, ':');
}

void jw_double(struct jw *j, double v)
{
    wb_printf(j->w, "%.3f", v);
}

void jw_bits(struct wbuf *w, uint32_t bits, const char *(*name)(unsigned))
{
    struct jw j = jw_on(w);
    jw_arr(&j);
    for (uint32_t b = bits; b; b &= b - 1) {
        jw_elem(&j);
        wb_json_str(w, name((unsigned)__builtin_ctz(b)));
    }
    jw_end_arr(&j);
}
