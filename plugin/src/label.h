/*
 * label.h - the plugin's label builder.
 */
#ifndef CSC_PLUGIN_LABEL_H
#define CSC_PLUGIN_LABEL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * Labels are built with this small appender, not printf: with a visible tree
 * (-V, -T fields, the GUI) every label is formatted for every frame, and
 * printf-style formatting was the largest part of the plugin's cost
 * (bench/plugin-cost.sh, callgrind). proto_item_set_text(pi, "%s", buf) then
 * copies the finished string.
 */
struct sb {
    char b[256];
    size_t n;
};

static inline void sb_s(struct sb *sb, const char *s)
{
    size_t l = strlen(s);
    if (l > sizeof sb->b - 1 - sb->n)
        l = sizeof sb->b - 1 - sb->n;
    memcpy(sb->b + sb->n, s, l);
    sb->n += l;
    sb->b[sb->n] = 0;
}

static inline void sb_u(struct sb *sb, uint32_t v)
{
    char t[11];
    int i = (int)sizeof t;
    do {
        t[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    size_t l = sizeof t - (size_t)i;
    if (l > sizeof sb->b - 1 - sb->n)
        return;
    memcpy(sb->b + sb->n, t + i, l);
    sb->n += l;
    sb->b[sb->n] = 0;
}

static inline void sb_hex4(struct sb *sb, uint16_t v)
{
    static const char hex[] = "0123456789abcdef";
    if (sb->n + 6 > sizeof sb->b - 1)
        return;
    char *p = sb->b + sb->n;
    p[0] = '0';
    p[1] = 'x';
    p[2] = hex[v >> 12];
    p[3] = hex[(v >> 8) & 15];
    p[4] = hex[(v >> 4) & 15];
    p[5] = hex[v & 15];
    sb->n += 6;
    sb->b[sb->n] = 0;
}

static inline void sb_passes(struct sb *sb, unsigned n)
{
    sb_u(sb, n);
    sb_s(sb, n == 1 ? " sw pass" : " sw passes");
}

#endif
