/*
 * jw.h - the JSON writer every JSON record goes through (frames, errors,
 * summaries, comparisons). It places the commas itself: opening a container
 * marks its next member or element as the first; every later one is
 * preceded by a comma. A key known at compile time is written with its
 * comma in one copy (JW_KEY): one predictable branch per member.
 */
#ifndef CSUMCHECK_JW_H
#define CSUMCHECK_JW_H

#include "wbuf.h"

#include <stdbool.h>
#include <stdint.h>

struct jw {
    struct wbuf *w;
    bool first;                /* the next member or element opens its container */
};

static inline struct jw jw_on(struct wbuf *w)
{
    return (struct jw){ w, true };
}

/* before an array element */
static inline void jw_elem(struct jw *j)
{
    if (__builtin_expect(j->first, 0))
        j->first = false;
    else
        wb_putc(j->w, ',');
}

/* "k": with a literal key (and its comma); JW_KEYQ also opens the string value */
#define JW_KEY(j, k) JW_KEY_RAW_(j, "\"" k "\":")
#define JW_KEYQ(j, k) JW_KEY_RAW_(j, "\"" k "\":\"")
#define JW_KEY_RAW_(j, lit)                                                                    \
    do {                                                                                       \
        if (__builtin_expect((j)->first, 0)) {                                                 \
            (j)->first = false;                                                                \
            WB_LIT((j)->w, lit);                                                               \
        } else {                                                                               \
            WB_LIT((j)->w, "," lit);                                                           \
        }                                                                                      \
    } while (0)

/* "k": with a key made at run time (escaped) */
void jw_key(struct jw *j, const char *k);
/* members already written as JSON text ("a":1,"b":2), placed as they are */
static inline void jw_members(struct jw *j, const char *text)
{
    if (!*text)
        return;
    if (!j->first)
        wb_putc(j->w, ',');
    j->first = false;
    wb_puts(j->w, text);
}

/* containers, as the value of the key or element just started */
static inline void jw_open(struct jw *j, char c)
{
    wb_putc(j->w, c);
    j->first = true;
}
static inline void jw_close(struct jw *j, char c)
{
    wb_putc(j->w, c);
    j->first = false;
}
#define jw_obj(j) jw_open((j), '{')
#define jw_end_obj(j) jw_close((j), '}')
#define jw_arr(j) jw_open((j), '[')
#define jw_end_arr(j) jw_close((j), ']')

/* values */
#define jw_u64(j, v) wb_u64((j)->w, (v))
static inline void jw_str(struct jw *j, const char *s)    /* quoted and escaped */
{
    wb_json_str(j->w, s);
}
static inline void jw_word(struct jw *j, const char *s)   /* a vocabulary word: nothing to escape */
{
    wb_putc(j->w, '"');
    wb_puts_quote(j->w, s);
}
static inline void jw_bool(struct jw *j, bool v)
{
    if (v)
        WB_LIT(j->w, "true");
    else
        WB_LIT(j->w, "false");
}
static inline void jw_null(struct jw *j)
{
    WB_LIT(j->w, "null");
}
static inline void jw_hex16(struct jw *j, uint16_t v)     /* "0x1a2b" */
{
    static const char hx[] = "0123456789abcdef";
    char t[8] = { '"', '0', 'x', hx[v >> 12], hx[(v >> 8) & 15], hx[(v >> 4) & 15], hx[v & 15], '"' };
    wb_write(j->w, t, sizeof t);
}
void jw_double(struct jw *j, double v);                    /* %.3f */
/* ["a","b"]: the names of the bits set, as a value */
void jw_bits(struct wbuf *w, uint32_t bits, const char *(*name)(unsigned));

/* members "k":value with a literal key */
#define JW_U64(j, k, v) do { JW_KEY(j, k); jw_u64((j), (v)); } while (0)
#define JW_BOOL(j, k, v) do { JW_KEY(j, k); jw_bool((j), (v)); } while (0)
#define JW_HEX(j, k, v) do { JW_KEY(j, k); jw_hex16((j), (v)); } while (0)
#define JW_STR(j, k, s) do { JW_KEY(j, k); jw_str((j), (s)); } while (0)
#define JW_WORD(j, k, s) do { JW_KEYQ(j, k); wb_puts_quote((j)->w, (s)); } while (0)
#define JW_OBJ(j, k) do { JW_KEY_RAW_(j, "\"" k "\":{"); (j)->first = true; } while (0)
#define JW_ARR(j, k) do { JW_KEY_RAW_(j, "\"" k "\":["); (j)->first = true; } while (0)
/* an optional flag: "k":true when v holds, no member otherwise (docs/json.md's
 * "*optional*" true) */
#define JW_TRUE_IF(j, k, v) do { if (v) JW_BOOL(j, k, true); } while (0)

/* members with a key made at run time */
static inline void jw_num(struct jw *j, const char *k, uint64_t v)
{
    jw_key(j, k);
    jw_u64(j, v);
}

#endif
