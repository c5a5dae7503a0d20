/*
 * pcapngblk.c - pcapng read by the project for the common case: the
 * blocks Wireshark and dumpcap write, any number of interfaces and
 * sections, either byte order (draft-ietf-opsawg-pcapng).
 *
 * libwiretap reads pcapng at about 2,350 instructions a frame more than
 * libpcap did (a debug-log test and a hash lookup per block, its own
 * buffered reads; docs/performance.md). Here a block of the file (256 KiB)
 * is read() into a buffer and the packets are used where they lie.
 *
 * libwiretap stays the judge of everything else (wtapread.c). A file this
 * reader cannot open as it is (no IDB right after the SHB, an odd first
 * interface) is read by libwiretap from its start. At any later block it
 * does not take as it is - a block type other than those below, a link
 * type the core does not decode, an option libwiretap reads with its own
 * rules (custom options, verdicts), a length libwiretap would reject or
 * round, a block cut by the end of the file or larger than PNG_MAX_BLOCK -
 * libwiretap reads on from that block: it is given the section's SHB and
 * IDBs as read, a block it skips, then that block and the rest of the
 * input, so that every frame, link type, direction, time stamp and error
 * is the one libwiretap gives reading the file itself. Every check below
 * is one libwiretap 4.0 makes (wiretap/pcapng.c), or stricter.
 *
 *  General block                        Section Header Block (SHB)
 *  +---------------------------+        +---------------------------+
 *  | block type                |        | 0x0A0D0D0A                |
 *  | block total length        |        | block total length        |
 *  | body (padded to 32 bits)  |        | byte-order magic 1A2B3C4D |
 *  | options                   |        | major 1 | minor 0 or 2    |
 *  | block total length        |        | section length (64)       |
 *  +---------------------------+        | options | total length    |
 *                                       +---------------------------+
 *  Interface Description (IDB, 1)       Enhanced Packet Block (EPB, 6)
 *  +---------------------------+        +---------------------------+
 *  | 1 | total length          |        | 6 | total length          |
 *  | link type | reserved      |        | interface id              |
 *  | snaplen                   |        | timestamp high | low      |
 *  | options (if_tsresol 9,    |        | captured len | orig len   |
 *  |  if_tsoffset 14, ...)     |        | packet data, padded       |
 *  | total length              |        | options (epb_flags 2) ... |
 *  +---------------------------+        +---------------------------+
 *  Simple Packet Block (SPB, 3)         Option
 *  +---------------------------+        +---------------------------+
 *  | 3 | total length          |        | code (16) | length (16)   |
 *  | original packet length    |        | value, padded to 32 bits  |
 *  | packet data (interface 0, |        +---------------------------+
 *  |  cut to its snaplen)      |        code 0 (opt_endofopt) ends
 *  | total length              |        the list
 *  +---------------------------+
 *
 * Skipped after the checks libwiretap makes: Name Resolution (4),
 * Interface Statistics (5) and Decryption Secrets (10) blocks.
 */
#include "pcapngblk.h"

#include "csumcheck/csumcheck.h"

#include <errno.h>
#include <glib.h>
#include <string.h>
#include <unistd.h>

#define BT_SHB 0x0A0D0D0Au
#define BT_IDB 1u
#define BT_SPB 3u
#define BT_NRB 4u
#define BT_ISB 5u
#define BT_EPB 6u
#define BT_DSB 10u
#define BT_SKIP 0xC5C00001u       /* local use (top bit set): a block libwiretap skips */
#define BYTE_ORDER_MAGIC 0x1A2B3C4Du

/* libwiretap's minimum sizes (header, fixed part, trailer) */
#define MIN_BLOCK 12u
#define MIN_SHB 28u
#define MIN_IDB 20u
#define MIN_SPB 16u
#define MIN_NRB 16u
#define MIN_ISB 24u
#define MIN_EPB 32u
#define MIN_DSB 20u

#define OPT_ENDOFOPT 0u
#define OPT_COMMENT 1u
#define OPT_EPB_FLAGS 2u
#define OPT_EPB_DROPCOUNT 4u
#define OPT_EPB_PACKETID 5u
#define OPT_EPB_QUEUE 6u
#define OPT_EPB_VERDICT 7u
#define OPT_IDB_TSRESOL 9u
#define OPT_IDB_FILTER 11u
#define OPT_IDB_TSOFFSET 14u

#define MAX_CAPLEN 262144u        /* libwiretap's limit for these link types */
#define PNG_BUF (256u * 1024u)
#define PNG_MAX_BLOCK (4u * 1024u * 1024u)   /* larger: libwiretap's (up to 128 MiB) */
#define PNG_MAX_IFACES 1024u      /* per section; more: libwiretap's */
#define PNG_MAX_OPEN (16u * 1024u * 1024u)   /* the SHB and first IDBs: more, libwiretap's */

struct iface {
    uint64_t units;               /* time stamp units a second (if_tsresol) */
    int64_t tsoffset;             /* seconds added (if_tsoffset) */
    uint32_t snaplen;
    int dlt;
};

struct png {
    int fd;
    png_dlt_fn dlt_of;
    uint8_t *buf;
    size_t cap, have, pos;        /* buf[pos, have): bytes not used yet */
    uint64_t off;                 /* file offset of buf[0] */
    bool eof, keep_all;           /* keep_all: while opening, nothing is dropped */
    bool swapped;                 /* the section's byte order is not ours */
    bool shb_swapped;             /* the byte order of the SHB at pos (frame_block) */
    struct iface *ifs;
    unsigned nifs, cap_ifs;
    int file_dlt;
    GByteArray *shb, *idbs;       /* the section's SHB and IDBs as read (a hand-over) */
};

static inline uint16_t rd16(const struct png *k, const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return k->swapped ? (uint16_t)__builtin_bswap16(v) : v;
}

static inline uint32_t rd32(const struct png *k, const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return k->swapped ? __builtin_bswap32(v) : v;
}

static inline uint32_t pad4(uint32_t n)
{
    return (4u - (n & 3u)) & 3u;
}

/* ---- reading ----------------------------------------------------------------- */

/* At least want bytes at pos (the buffer grows to hold them). False at the
 * end of the input, on an error (libwiretap reads again and says which), or
 * when an opening keeps more than PNG_MAX_OPEN. */
static bool need(struct png *k, size_t want)
{
    while (k->have - k->pos < want) {
        if (k->eof || (k->keep_all && k->pos + want > PNG_MAX_OPEN))
            return false;
        if (!k->keep_all && k->pos) {   /* the frame given last is no longer used */
            memmove(k->buf, k->buf + k->pos, k->have - k->pos);
            k->off += k->pos;
            k->have -= k->pos;
            k->pos = 0;
        }
        if (k->pos + want > k->cap || k->have == k->cap) {
            size_t ncap = k->cap * 2;
            while (ncap < k->pos + want)
                ncap *= 2;
            k->buf = g_realloc(k->buf, ncap);
            k->cap = ncap;
        }
        /* one read(): a pipe hands on what it has (a slow producer, -l) */
        ssize_t r;
        do
            r = read(k->fd, k->buf + k->have, k->cap - k->have);
        while (r < 0 && errno == EINTR);
        if (r <= 0) {
            k->eof = true;
            return false;
        }
        k->have += (size_t)r;
    }
    return true;
}

struct png *png_new(int fd, const uint8_t *pending, size_t npending, png_dlt_fn dlt_of)
{
    struct png *k = g_new0(struct png, 1);
    k->fd = fd;
    k->dlt_of = dlt_of;
    k->cap = PNG_BUF > npending ? PNG_BUF : npending;
    k->buf = g_malloc(k->cap);
    memcpy(k->buf, pending, npending);
    k->have = npending;
    k->shb = g_byte_array_new();
    k->idbs = g_byte_array_new();
    k->file_dlt = -1;
    return k;
}

void png_free(struct png *k)
{
    if (!k)
        return;
    g_free(k->buf);
    g_free(k->ifs);
    g_byte_array_unref(k->shb);
    g_byte_array_unref(k->idbs);
    g_free(k);
}

/* ---- options ------------------------------------------------------------------- */

static bool is_custom_option(uint16_t code)
{
    return code == 2988 || code == 2989 || code == 19372 || code == 19373;
}

/* One option of a block: false when libwiretap would fail on it, or reads it
 * with rules of its own */
typedef bool (*opt_fn)(const struct png *k, void *ctx, uint16_t code, uint16_t len,
                       const uint8_t *v);

/* The options at p[0, n), walked as pcapng_process_options() does: an
 * option header and its padded value must fit, opt_endofopt ends the list
 * (what follows it is ignored), comments are strings, custom options
 * (a PEN first) are libwiretap's to judge. */
static bool walk_options(const struct png *k, const uint8_t *p, size_t n, opt_fn fn, void *ctx)
{
    while (n) {
        if (n < 4)
            return false;              /* "Not enough data for option header" */
        uint16_t code = rd16(k, p), len = rd16(k, p + 2);
        size_t padded = (size_t)len + pad4(len);
        p += 4;
        n -= 4;
        if (padded > n)
            return false;              /* "Not enough data to handle option" */
        if (code == OPT_ENDOFOPT)
            return true;
        if (is_custom_option(code))
            return false;
        if (code != OPT_COMMENT && fn && !fn(k, ctx, code, len, p))
            return false;
        p += padded;
        n -= padded;
    }
    return true;
}

struct epb_opts {
    uint32_t flags;
    bool have_flags;
};

/* pcapng_process_packet_block_option(): fixed lengths or an error */
static bool epb_option(const struct png *k, void *ctx, uint16_t code, uint16_t len,
                       const uint8_t *v)
{
    struct epb_opts *e = ctx;
    switch (code) {
    case OPT_EPB_FLAGS:
        if (len != 4 || e->have_flags)
            return false;              /* a second one: which wins is libwiretap's */
        e->flags = rd32(k, v);
        e->have_flags = true;
        return true;
    case OPT_EPB_DROPCOUNT:
    case OPT_EPB_PACKETID:
        return len == 8;
    case OPT_EPB_QUEUE:
        return len == 4;
    case OPT_EPB_VERDICT:
        return false;                  /* typed, each type with its length */
    default:
        return true;                   /* epb_hash, unknown codes: skipped */
    }
}

struct idb_opts {
    uint8_t tsresol;
    int64_t tsoffset;
    unsigned ntsresol, ntsoffset;
    bool have_tsresol, have_tsoffset;
};

/* pcapng_process_if_descr_block_option(): a value of the wrong length is
 * ignored (if_tsresol 1 byte, if_tsoffset 8), an empty if_filter fails */
static bool idb_option(const struct png *k, void *ctx, uint16_t code, uint16_t len,
                       const uint8_t *v)
{
    struct idb_opts *o = ctx;
    switch (code) {
    case OPT_IDB_TSRESOL:
        if (++o->ntsresol > 1)
            return false;              /* repeated: libwiretap's rules */
        if (len == 1) {
            o->tsresol = v[0];
            o->have_tsresol = true;
        }
        return true;
    case OPT_IDB_TSOFFSET:
        if (++o->ntsoffset > 1)
            return false;
        if (len == 8) {
            uint64_t u;                /* 64 bits in the section's order */
            memcpy(&u, v, 8);
            o->tsoffset = (int64_t)(k->swapped ? __builtin_bswap64(u) : u);
            o->have_tsoffset = true;
        }
        return true;
    case OPT_IDB_FILTER:
        return len >= 1;
    default:
        return true;
    }
}

/* if_tsresol as libwiretap turns it into units a second */
static uint64_t units_of(uint8_t tsresol)
{
    uint64_t base = tsresol & 0x80 ? 2 : 10;
    unsigned e = tsresol & 0x7f;
    if ((base == 2 && e >= 64) || (base == 10 && e >= 20))
        return UINT64_MAX;
    uint64_t u = 1;
    for (unsigned i = 0; i < e; i++)
        u *= base;
    return u;
}

/* ---- blocks -------------------------------------------------------------------- */

/* The link types the core decodes whose bytes libwiretap hands on as they
 * are: no pseudo-header taken off, nothing rewritten (pcap-common.c
 * pcap_process_pseudo_header, pcap_read_post_process). SLL and SLL2 in a
 * byte-swapped section have their header fields swapped by libwiretap. */
static bool linktype_taken(const struct png *k, uint32_t lt)
{
    switch (lt) {
    case 0:   /* NULL */
    case 1:   /* ETHERNET */
    case 9:   /* PPP */
    case 50:  /* PPP_HDLC */
    case 101: /* RAW */
    case 108: /* LOOP */
    case 228: /* IPV4 */
    case 229: /* IPV6 */
        return true;
    case 113: /* LINUX_SLL */
    case 276: /* LINUX_SLL2 */
        return !k->swapped;
    default:
        return false;
    }
}

/* An SHB of total length t at b (t checked against its trailer by the
 * caller): a new section. The byte order comes from its magic. */
static bool take_shb(struct png *k, const uint8_t *b, uint32_t t)
{
    bool was = k->swapped;
    k->swapped = k->shb_swapped;
    uint16_t major = rd16(k, b + 12), minor = rd16(k, b + 14);
    if (t < MIN_SHB || major != 1 || (minor != 0 && minor != 2) ||   /* "unknown SHB version" */
        !walk_options(k, b + 24, t - MIN_SHB, NULL, NULL)) {
        k->swapped = was;              /* the section libwiretap goes on with */
        return false;
    }
    k->nifs = 0;                       /* a section's interfaces are its own */
    g_byte_array_set_size(k->shb, 0);
    g_byte_array_append(k->shb, b, t);
    g_byte_array_set_size(k->idbs, 0);
    return true;
}

static bool take_idb(struct png *k, const uint8_t *b, uint32_t t)
{
    if (t < MIN_IDB || k->nifs >= PNG_MAX_IFACES)
        return false;
    uint32_t lt = rd16(k, b + 8);
    struct idb_opts o = { 0 };
    if (!linktype_taken(k, lt) || !walk_options(k, b + 16, t - MIN_IDB, idb_option, &o))
        return false;
    int dlt = k->dlt_of(lt);
    if (dlt < 0)
        return false;
    if (k->nifs == k->cap_ifs) {
        k->cap_ifs = k->cap_ifs ? 2 * k->cap_ifs : 8;
        k->ifs = g_renew(struct iface, k->ifs, k->cap_ifs);
    }
    struct iface *i = &k->ifs[k->nifs++];
    i->units = o.have_tsresol ? units_of(o.tsresol) : 1000000u;
    i->tsoffset = o.have_tsoffset ? o.tsoffset : 0;
    i->snaplen = rd32(k, b + 12);
    i->dlt = dlt;
    g_byte_array_append(k->idbs, b, t);
    return true;
}

/* The time stamp as pcapng_read_packet_block() computes it (its unsigned
 * arithmetic, wrap-around included) */
static void frame_time(const struct iface *i, uint32_t hi, uint32_t lo, struct pcap_pkthdr *h)
{
    uint64_t ts = ((uint64_t)hi << 32) | lo;
    uint64_t secs, nsecs;
    if (i->units == 1000000u) {        /* the default (microseconds): exact, no overflow */
        secs = ts / 1000000u;
        nsecs = ts % 1000000u * 1000u;
    } else if (i->units == 1000000000u) {
        secs = ts / 1000000000u;
        nsecs = ts % 1000000000u;
    } else {
        secs = ts / i->units;
        nsecs = ts % i->units * 1000000000u / i->units;
    }
    h->ts.tv_sec = (time_t)(secs + (uint64_t)i->tsoffset);
    h->ts.tv_usec = (suseconds_t)(int)nsecs;   /* nanoseconds, as the CLI reads them */
}

static uint8_t direction_of(const struct epb_opts *e)
{
    if (!e->have_flags)
        return CSC_DIR_UNKNOWN;
    switch (e->flags & 3u) {           /* epb_flags bits 0-1 */
    case 1: return CSC_DIR_IN;
    case 2: return CSC_DIR_OUT;
    default: return CSC_DIR_UNKNOWN;
    }
}

static bool take_epb(const struct png *k, const uint8_t *b, uint32_t t, struct pcap_pkthdr *h,
                     const uint8_t **data, int *dlt, uint8_t *dir)
{
    if (t < MIN_EPB)
        return false;
    uint32_t ifid = rd32(k, b + 8), caplen = rd32(k, b + 20), len = rd32(k, b + 24);
    if (caplen > MAX_CAPLEN || ifid >= k->nifs)
        return false;
    uint32_t body = caplen + pad4(caplen);
    if ((uint64_t)MIN_EPB + body > t)
        return false;                  /* "too small for N bytes of packet data" */
    struct epb_opts e = { 0, false };
    if (!walk_options(k, b + 28 + body, t - MIN_EPB - body, epb_option, &e))
        return false;
    const struct iface *i = &k->ifs[ifid];
    frame_time(i, rd32(k, b + 12), rd32(k, b + 16), h);
    h->caplen = caplen;
    h->len = len < caplen ? caplen : len;
    *data = b + 28;
    *dlt = i->dlt;
    *dir = direction_of(&e);
    return true;
}

static bool take_spb(const struct png *k, const uint8_t *b, uint32_t t, struct pcap_pkthdr *h,
                     const uint8_t **data, int *dlt, uint8_t *dir)
{
    if (t < MIN_SPB || !k->nifs)
        return false;
    const struct iface *i = &k->ifs[0];
    uint32_t len = rd32(k, b + 8), caplen = len;
    if (i->snaplen && caplen > i->snaplen)
        caplen = i->snaplen;
    /* libwiretap reads the trailer right after the padded data: no room
     * for anything else in the block */
    if (caplen > MAX_CAPLEN || (uint64_t)MIN_SPB + caplen + pad4(caplen) != t)
        return false;
    h->ts.tv_sec = 0;                  /* an SPB has no time stamp */
    h->ts.tv_usec = 0;
    h->caplen = caplen;
    h->len = len < caplen ? caplen : len;
    *data = b + 12;
    *dlt = i->dlt;
    *dir = CSC_DIR_UNKNOWN;
    return true;
}

/* pcapng_read_name_resolution_block(): records of a type and a length,
 * each padded, until an end record; then options */
static bool check_nrb(const struct png *k, const uint8_t *b, uint32_t t)
{
    if (t < MIN_NRB)
        return false;
    const uint8_t *r = b + 8;
    size_t n = t - MIN_BLOCK, at = 0;
    while (at < n) {
        if (n - at < 4)
            return false;
        uint16_t type = rd16(k, r + at), len = rd16(k, r + at + 2);
        at += 4;
        if (n - at < (size_t)len + pad4(len))
            return false;
        if (type == 0)
            break;                     /* the options follow its header */
        if ((type == 1 && len < 4) || (type == 2 && len < 16))
            return false;
        at += (size_t)len + pad4(len);
    }
    return walk_options(k, r + at, n - at, NULL, NULL);
}

static bool check_isb(const struct png *k, const uint8_t *b, uint32_t t)
{
    /* its options are time stamps and counters, a wrong length ignored */
    return t >= MIN_ISB && walk_options(k, b + 20, t - MIN_ISB, NULL, NULL);
}

static bool check_dsb(const struct png *k, const uint8_t *b, uint32_t t)
{
    /* the secrets must lie inside the block; its options are not read */
    return t >= MIN_DSB && rd32(k, b + 12) <= t - MIN_DSB;
}

/* The block at pos: its total length when whole and consistent (the byte
 * order set from an SHB's magic), 0 when libwiretap must judge it or at
 * the end (*end). */
static uint32_t frame_block(struct png *k, bool *end)
{
    *end = false;
    if (!need(k, MIN_BLOCK)) {
        *end = k->eof && k->have == k->pos;   /* else a cut header: libwiretap's short read */
        return 0;
    }
    const uint8_t *b = k->buf + k->pos;
    uint32_t type, raw;
    memcpy(&type, b, 4);
    bool sw = k->swapped;
    if (type == BT_SHB) {              /* the same either way: its magic says the order */
        uint32_t magic;
        memcpy(&magic, b + 8, 4);
        if (magic == BYTE_ORDER_MAGIC)
            sw = false;
        else if (magic == __builtin_bswap32(BYTE_ORDER_MAGIC))
            sw = true;
        else
            return 0;
        k->shb_swapped = sw;
    }
    memcpy(&raw, b + 4, 4);
    uint32_t t = sw ? __builtin_bswap32(raw) : raw;
    if (t < MIN_BLOCK || t % 4 || t > PNG_MAX_BLOCK)
        return 0;                      /* libwiretap rounds, or rejects, or allows more */
    if (!need(k, t))
        return 0;                      /* cut by the end: libwiretap says how */
    memcpy(&raw, k->buf + k->pos + t - 4, 4);
    if ((sw ? __builtin_bswap32(raw) : raw) != t)
        return 0;
    return t;
}

int png_next(struct png *k, struct pcap_pkthdr *h, const uint8_t **data, int *dlt, uint8_t *dir)
{
    for (;;) {
        bool end;
        uint32_t t = frame_block(k, &end);
        if (!t)
            return end ? PNG_END : PNG_WIRETAP;
        const uint8_t *b = k->buf + k->pos;
        bool ok;
        bool frame = false;
        switch (rd32(k, b)) {
        case BT_EPB:
            ok = frame = take_epb(k, b, t, h, data, dlt, dir);
            break;
        case BT_SPB:
            ok = frame = take_spb(k, b, t, h, data, dlt, dir);
            break;
        case BT_IDB: ok = take_idb(k, b, t); break;
        case BT_ISB: ok = check_isb(k, b, t); break;
        case BT_NRB: ok = check_nrb(k, b, t); break;
        case BT_DSB: ok = check_dsb(k, b, t); break;
        case BT_SHB: ok = take_shb(k, b, t); break;
        default: ok = false; break;    /* other blocks: libwiretap's */
        }
        if (!ok)
            return PNG_WIRETAP;
        k->pos += t;
        if (frame)
            return PNG_FRAME;
    }
}

bool png_open(struct png *k)
{
    k->keep_all = true;
    bool end;
    uint32_t t = frame_block(k, &end);
    bool ok = t && rd32(k, k->buf) == BT_SHB && take_shb(k, k->buf, t);
    /* a file that starts otherwise is not opened here */
    if (ok) {
        k->pos = t;
        /* the IDBs right after the SHB are the ones libwiretap opens the file
         * with (pcapng_open): at least one, each taken here */
        for (;;) {
            if (!need(k, MIN_BLOCK)) {   /* the end right after the IDBs, or libwiretap's */
                ok = k->eof && k->have == k->pos && k->nifs;
                break;
            }
            if (rd32(k, k->buf + k->pos) != BT_IDB) {
                ok = k->nifs > 0;
                break;
            }
            t = frame_block(k, &end);
            if (!t || !take_idb(k, k->buf + k->pos, t)) {
                ok = false;
                break;
            }
            k->pos += t;
        }
    }
    k->keep_all = false;
    if (ok)
        k->file_dlt = k->ifs[0].dlt;
    return ok;
}

const uint8_t *png_read_so_far(const struct png *k, size_t *n)
{
    *n = k->have;                      /* nothing is dropped before the opening ends */
    return k->buf;
}

int png_file_dlt(const struct png *k)
{
    return k->file_dlt;
}

uint8_t *png_replay(const struct png *k, size_t *n, size_t *nprefix)
{
    size_t rest = k->have - k->pos;
    size_t pre = k->shb->len + k->idbs->len + MIN_BLOCK;
    uint8_t *p = g_malloc(pre + rest + 1);
    memcpy(p, k->shb->data, k->shb->len);
    memcpy(p + k->shb->len, k->idbs->data, k->idbs->len);
    /* a block libwiretap skips: the IDBs are the ones it opens the file
     * with, and the block it judges next is read as in the file, never as
     * an IDB of the opening */
    uint32_t skip[3] = { BT_SKIP, MIN_BLOCK, MIN_BLOCK };
    if (k->swapped)
        for (unsigned i = 0; i < 3; i++)
            skip[i] = __builtin_bswap32(skip[i]);
    memcpy(p + k->shb->len + k->idbs->len, skip, MIN_BLOCK);
    memcpy(p + pre, k->buf + k->pos, rest);
    *n = pre + rest;
    *nprefix = pre;
    return p;
}

uint64_t png_bytes(const struct png *k)
{
    return k->off + k->pos;
}
