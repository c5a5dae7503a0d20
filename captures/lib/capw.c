/*
 * capw.c - pcap / pcapng writer (see capw.h).
 */
#include "capw.h"

#include <stdbool.h>
#include <string.h>

static int put(struct capw *w, const void *p, size_t n)
{
    return fwrite(p, 1, n, w->f) == n ? 0 : -1;
}

static int put32(struct capw *w, uint32_t v)
{
    return put(w, &v, 4);            /* host order: readers check the magic */
}

static int put16(struct capw *w, uint16_t v)
{
    return put(w, &v, 2);
}

static int write_header(struct capw *w, enum capw_format fmt, uint32_t linktype, uint32_t snaplen);

int capw_open(struct capw *w, const char *path, enum capw_format fmt, uint32_t linktype,
              uint32_t snaplen)
{
    memset(w, 0, sizeof *w);
    w->f = strcmp(path, "-") ? fopen(path, "wb") : stdout;
    if (!w->f)
        return -1;
    return write_header(w, fmt, linktype, snaplen);
}

int capw_open_stream(struct capw *w, FILE *f, enum capw_format fmt, uint32_t linktype,
                     uint32_t snaplen)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    w->borrowed = 1;
    return write_header(w, fmt, linktype, snaplen);
}

static int pcap_file_header(struct capw *w, uint32_t linktype, uint32_t snaplen);
static int section_header(struct capw *w);

static int write_header(struct capw *w, enum capw_format fmt, uint32_t linktype, uint32_t snaplen)
{
    w->format = fmt;
    w->snaplen = snaplen;
    if (fmt == CAPW_PCAP) {
        w->nif = 1;
        return pcap_file_header(w, linktype, snaplen);
    }
    return section_header(w) | (capw_add_interface(w, linktype, snaplen) < 0);
}

static int pcap_file_header(struct capw *w, uint32_t linktype, uint32_t snaplen)
{
    int r = put32(w, (w->flags & CAPW_NSEC) ? 0xa1b23c4du : 0xa1b2c3d4u);
    r |= put16(w, 2);
    r |= put16(w, 4);
    r |= put32(w, 0);
    r |= put32(w, 0);
    r |= put32(w, snaplen);
    r |= put32(w, linktype);
    return r;
}

static int section_header(struct capw *w)
{
    int r = put32(w, 0x0a0d0d0au);
    r |= put32(w, 28);
    r |= put32(w, 0x1a2b3c4du);
    r |= put16(w, 1);
    r |= put16(w, 0);
    r |= put32(w, 0xffffffffu);           /* section length: not given */
    r |= put32(w, 0xffffffffu);
    r |= put32(w, 28);
    return r;
}

int capw_begin(struct capw *w, FILE *f, enum capw_format fmt, unsigned flags)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    w->borrowed = 1;
    w->format = fmt;
    w->flags = flags;
    return fmt == CAPW_PCAPNG ? section_header(w) : 0;
}

int capw_add_interface(struct capw *w, uint32_t linktype, uint32_t snaplen)
{
    if (w->nif == CAPW_IFACES || (w->format != CAPW_PCAPNG && w->nif))
        return -1;
    int r;
    if (w->format != CAPW_PCAPNG) {        /* capw_begin's pcap: its file header */
        r = pcap_file_header(w, linktype, snaplen);
        w->snaplen = snaplen;
    } else {
        /* Interface Description Block (+ if_tsresol 9: nanoseconds) */
        uint32_t blen = (w->flags & CAPW_NSEC) ? 32 : 20;
        r = put32(w, 1);
        r |= put32(w, blen);
        r |= put16(w, (uint16_t)linktype);
        r |= put16(w, 0);
        r |= put32(w, snaplen);
        if (w->flags & CAPW_NSEC) {
            static const uint8_t tsresol[4] = { 9, 0, 0, 0 };
            r |= put16(w, 9);                  /* if_tsresol */
            r |= put16(w, 1);
            r |= put(w, tsresol, 4);
            r |= put32(w, 0);                  /* opt_endofopt */
        }
        r |= put32(w, blen);
    }
    w->ifsnap[w->nif] = snaplen;
    return r ? -1 : (int)w->nif++;
}

int capw_write_rec(struct capw *w, unsigned if_id, uint64_t sec, uint32_t nsec,
                   const uint8_t *data, uint32_t caplen, uint32_t len, int dir,
                   const char *comment, uint32_t clen)
{
    static const uint8_t zero[4];
    bool ns = (w->flags & CAPW_NSEC) != 0;
    if (if_id >= w->nif)
        return -1;
    int r = 0;
    if (w->format != CAPW_PCAPNG) {
        r |= put32(w, (uint32_t)sec);
        r |= put32(w, ns ? nsec : nsec / 1000u);
        r |= put32(w, caplen);
        r |= put32(w, len);
        r |= put(w, data, caplen);
        return r;
    }
    uint64_t ts = ns ? sec * 1000000000u + nsec : sec * 1000000u + nsec / 1000u;
    uint32_t pad = (4 - caplen % 4) % 4, cpad = (4 - clen % 4) % 4;
    uint32_t opts = (dir ? 8 : 0) + (clen ? 4 + clen + cpad : 0);
    opts += opts ? 4 : 0;                      /* opt_endofopt */
    uint32_t blen = 32 + caplen + pad + opts;
    r |= put32(w, 6);                          /* Enhanced Packet Block */
    r |= put32(w, blen);
    r |= put32(w, if_id);
    r |= put32(w, (uint32_t)(ts >> 32));
    r |= put32(w, (uint32_t)ts);
    r |= put32(w, caplen);
    r |= put32(w, len);
    r |= put(w, data, caplen);
    r |= put(w, zero, pad);
    if (clen) {
        r |= put16(w, 1);                      /* opt_comment */
        r |= put16(w, (uint16_t)clen);
        r |= put(w, comment, clen);
        r |= put(w, zero, cpad);
    }
    if (dir) {
        r |= put16(w, 2);                      /* epb_flags */
        r |= put16(w, 4);
        r |= put32(w, (uint32_t)dir);
    }
    if (opts)
        r |= put32(w, 0);                      /* opt_endofopt */
    r |= put32(w, blen);
    return r;
}

int capw_write(struct capw *w, uint64_t ts_usec, const uint8_t *data, uint32_t len, int dir)
{
    return capw_write_if(w, 0, ts_usec, data, len, dir);
}

int capw_write_if(struct capw *w, unsigned if_id, uint64_t ts_usec, const uint8_t *data,
                  uint32_t len, int dir)
{
    if (if_id >= CAPW_IFACES || (w->format == CAPW_PCAPNG && if_id >= w->nif))
        return -1;
    uint32_t snap = if_id ? w->ifsnap[if_id] : w->snaplen;   /* w->snaplen: callers change it */
    uint32_t cap = len < snap ? len : snap;
    int r = 0;
    if (w->format == CAPW_PCAP) {
        r |= put32(w, (uint32_t)(ts_usec / 1000000u));
        r |= put32(w, (uint32_t)(ts_usec % 1000000u));
        r |= put32(w, cap);
        r |= put32(w, len);
        r |= put(w, data, cap);
        return r;
    }
    uint32_t pad = (4 - cap % 4) % 4;
    uint32_t opts = dir ? 12 : 0;              /* epb_flags (8) + opt_endofopt (4) */
    uint32_t blen = 32 + cap + pad + opts;
    static const uint8_t zero[4];
    r |= put32(w, 6);
    r |= put32(w, blen);
    r |= put32(w, if_id);
    r |= put32(w, (uint32_t)(ts_usec >> 32));
    r |= put32(w, (uint32_t)ts_usec);
    r |= put32(w, cap);
    r |= put32(w, len);
    r |= put(w, data, cap);
    r |= put(w, zero, pad);
    if (dir) {
        r |= put16(w, 2);                      /* epb_flags */
        r |= put16(w, 4);
        r |= put32(w, (uint32_t)dir);          /* bits 0-1: 01 inbound, 10 outbound */
        r |= put32(w, 0);                      /* opt_endofopt */
    }
    r |= put32(w, blen);
    return r;
}

int capw_close(struct capw *w)
{
    int r = fflush(w->f);
    if (w->f != stdout && !w->borrowed)
        r |= fclose(w->f);
    w->f = NULL;
    return r;
}
