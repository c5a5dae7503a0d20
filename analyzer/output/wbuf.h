/*
 * wbuf.h - the buffered writer every record goes through: nothing per frame
 * touches stdio; formatting is by hand (decimal, hex, escaping).
 */
#ifndef CSUMCHECK_WBUF_H
#define CSUMCHECK_WBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct wbuf {
    char *p;
    size_t len, cap;
    void (*flush)(struct wbuf *w);   /* hands p[0, len) on; NULL for a fixed buffer */
    void *ctx;
};

void wb_flush(struct wbuf *w);
void wb_write_slow(struct wbuf *w, const void *p, size_t n);
static inline void wb_write(struct wbuf *w, const void *p, size_t n)
{
    if (__builtin_expect(n <= w->cap - w->len, 1)) {
        memcpy(w->p + w->len, p, n);   /* constant n (WB_LIT) inlines to moves */
        w->len += n;
    } else {
        wb_write_slow(w, p, n);
    }
}
static inline void wb_putc(struct wbuf *w, char c)
{
    if (w->len == w->cap)
        wb_flush(w);
    w->p[w->len++] = c;
}
/* a string literal, its length known at compile time */
#define WB_LIT(w, s) wb_write((w), s, sizeof(s) - 1)

/* s and a closing quote, in one copy */
static inline void wb_puts_quote(struct wbuf *w, const char *s)
{
    size_t n = strlen(s);
    if (__builtin_expect(n + 1 <= w->cap - w->len, 1)) {
        memcpy(w->p + w->len, s, n);
        w->p[w->len + n] = '"';
        w->len += n + 1;
    } else {
        wb_write_slow(w, s, n);
        wb_putc(w, '"');
    }
}

/* inline: with a literal, strlen folds and the copy inlines */
static inline void wb_puts(struct wbuf *w, const char *s)
{
    wb_write(w, s, strlen(s));
}
void wb_u64(struct wbuf *w, uint64_t v);
void wb_hex16(struct wbuf *w, uint16_t v);         /* 0x1a2b */
void wb_json_str(struct wbuf *w, const char *s);   /* quoted and escaped */
void wb_csv_field(struct wbuf *w, const char *s);  /* RFC 4180 */
void wb_text_name(struct wbuf *w, const char *s);  /* control chars escaped */
void wb_printf(struct wbuf *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A string escaped by one of the functions above, in a new g_malloc'd string */
char *wb_escaped(void (*escape)(struct wbuf *, const char *), const char *s);

#endif
