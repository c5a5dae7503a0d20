/*
 * wbuf.c - the buffered writer every renderer writes through. Formatting is
 * done by hand (decimal, hex, JSON escaping): no printf per frame.
 */
#include "wbuf.h"

#include <glib.h>
#include <stdio.h>

#include <stdarg.h>
#include <string.h>

void wb_flush(struct wbuf *w)
{
    if (w->len)
        w->flush(w);
    w->len = 0;
}

void wb_write_slow(struct wbuf *w, const void *p, size_t n)
{
    if (n > w->cap - w->len) {
        wb_flush(w);
        if (n > w->cap) {          /* larger than the buffer: hand over directly */
            char *save = w->p;
            size_t cap = w->cap;
            w->p = (char *)p;
            w->len = n;
            w->flush(w);
            w->p = save;
            w->cap = cap;
            w->len = 0;
            return;
        }
    }
    memcpy(w->p + w->len, p, n);
    w->len += n;
}

void wb_u64(struct wbuf *w, uint64_t v)
{
    static const char pairs[201] = "00010203040506070809101112131415161718192021222324"
                                   "25262728293031323334353637383940414243444546474849"
                                   "50515253545556575859606162636465666768697071727374"
                                   "75767778798081828384858687888990919293949596979899";
    if (v < 10 && w->len < w->cap) {   /* the common case: one digit */
        w->p[w->len++] = (char)('0' + v);
        return;
    }
    char tmp[24];
    char *e = tmp + sizeof tmp, *q = e;
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100) * 2;
        v /= 100;
        *--q = pairs[d + 1];
        *--q = pairs[d];
    }
    if (v >= 10) {
        *--q = pairs[v * 2 + 1];
        *--q = pairs[v * 2];
    } else {
        *--q = (char)('0' + v);
    }
    wb_write(w, q, (size_t)(e - q));
}

void wb_hex16(struct wbuf *w, uint16_t v)
{
    static const char hx[] = "0123456789abcdef";
    char t[6] = { '0', 'x', hx[v >> 12], hx[(v >> 8) & 15], hx[(v >> 4) & 15], hx[v & 15] };
    wb_write(w, t, sizeof t);
}

/* Length of the valid UTF-8 sequence at s (RFC 3629: no overlongs, no
 * surrogates, <= U+10FFFF), 0 when invalid. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    if (c >= 0xc2 && c <= 0xdf)
        return (s[1] & 0xc0) == 0x80 ? 2 : 0;
    if (c >= 0xe0 && c <= 0xef) {
        unsigned lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
        return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 ? 3 : 0;
    }
    if (c >= 0xf0 && c <= 0xf4) {
        unsigned lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
        return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 && (s[3] & 0xc0) == 0x80 ? 4
                                                                                         : 0;
    }
    return 0;
}

void wb_json_str(struct wbuf *w, const char *str)
{
    static const char hx[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)str;
    wb_putc(w, '"');
    while (*s) {
        unsigned c = *s;
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            const unsigned char *run = s;
            while (*s >= 0x20 && *s < 0x80 && *s != '"' && *s != '\\')
                s++;
            wb_write(w, run, (size_t)(s - run));
            continue;
        }
        if (c == '"' || c == '\\') {
            char e[2] = { '\\', (char)c };
            wb_write(w, e, 2);
        } else if (c == '\n') {
            wb_write(w, "\\n", 2);
        } else if (c == '\r') {
            wb_write(w, "\\r", 2);
        } else if (c == '\t') {
            wb_write(w, "\\t", 2);
        } else if (c < 0x20) {
            char e[6] = { '\\', 'u', '0', '0', hx[c >> 4], hx[c & 15] };
            wb_write(w, e, 6);
        } else {
            size_t n = utf8_len(s);
            if (n) {
                wb_write(w, s, n);
                s += n;
                continue;
            }
            wb_write(w, "\\ufffd", 6);   /* a byte that is not UTF-8 */
        }
        s++;
    }
    wb_putc(w, '"');
}

void wb_csv_field(struct wbuf *w, const char *s)
{
    if (!s[strcspn(s, ",\"\r\n")]) {
        wb_puts(w, s);
        return;
    }
    wb_putc(w, '"');
    for (; *s; s++) {
        if (*s == '"')
            wb_putc(w, '"');
        wb_putc(w, *s);
    }
    wb_putc(w, '"');
}

void wb_text_name(struct wbuf *w, const char *s)
{
    static const char hx[] = "0123456789abcdef";
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f) {
            char e[4] = { '\\', 'x', hx[c >> 4], hx[c & 15] };
            wb_write(w, e, 4);
        } else {
            wb_putc(w, (char)c);
        }
    }
}

void wb_printf(struct wbuf *w, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof tmp) {
        wb_write(w, tmp, (size_t)n);
        return;
    }
    char *big = g_malloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    wb_write(w, big, (size_t)n);
    g_free(big);
}

static void append_gstring(struct wbuf *w)
{
    g_string_append_len(w->ctx, w->p, (gssize)w->len);
}

char *wb_escaped(void (*escape)(struct wbuf *, const char *), const char *s)
{
    char tmp[256];
    GString *g = g_string_new(NULL);
    struct wbuf w = { tmp, 0, sizeof tmp, append_gstring, g };
    escape(&w, s);
    wb_flush(&w);
    return g_string_free(g, FALSE);
}
