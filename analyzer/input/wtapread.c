/*
 * wtapread.c - captures read by libwiretap, Wireshark's file library: what
 * tshark reads and libpcap does not (issue 17).
 *
 * libpcap 1.10 refuses a pcapng file whose interfaces have different link
 * types or snapshot lengths, reads neither gzip, zstd nor lz4, does not
 * expose the pcapng packet flags (the direction) and knows two formats.
 * libwiretap reads all of that, so every input that is not a classic pcap
 * comes here: pcapng (each packet with its own interface's link type and
 * the direction of its epb_flags), compressed captures and the other
 * formats tshark opens. A classic pcap stays with pcapblk.c (its block
 * reader is faster than either library) and libpcap for what it must
 * judge; docs/performance.md has the cost of each way.
 *
 * The API moved between Wireshark releases: 4.0-4.4 read into a Buffer the
 * caller owns, 4.6 into the record's own (wtap_rec.data). Both are
 * handled below; the rest is the same in every version.
 *
 * A pcapng file is read by the project's own reader (pcapngblk.c) while
 * its blocks are the common ones, and by libwiretap from the first block
 * it must judge (or from the start): libwiretap is slower on the blocks
 * both read the same way (docs/performance.md). CSC_PCAPNG=wiretap in the
 * environment reads every pcapng with libwiretap (the tests compare both).
 *
 * A file read from a pipe (standard input, a FIFO) was already sniffed:
 * its first bytes were read to tell a classic pcap. They are fed back to
 * libwiretap through a pipe of our own, the rest of the input behind them
 * (feed_thread), and libwiretap opens /dev/fd/N, which it reads as a FIFO.
 */
#define _GNU_SOURCE   /* pipe2 */
#include "wtr.h"

#include "csumcheck/csumcheck.h"

#include "pcapngblk.h"

#include <ws_version.h>
#include <wiretap/pcap-encap.h>   /* wtap_pcap_encap_to_wtap_encap only: the other way is not exported */
#include <wiretap/wtap.h>
#include <wsutil/buffer.h>
#include <wsutil/wslog.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#if WIRESHARK_VERSION_MAJOR > 4 || (WIRESHARK_VERSION_MAJOR == 4 && WIRESHARK_VERSION_MINOR >= 6)
#define WTR_REC_OWNS_DATA 1        /* 4.6: wtap_read() fills rec->data */
#endif

struct wtr {
    struct png *png;               /* pcapng read by pcapngblk.c, until it hands over */
    int fd;                        /* the input (the rest of it after a hand-over) */
    int64_t base;                  /* input bytes before what libwiretap reads */
    wtap *wth;
    wtap_rec rec;
#ifndef WTR_REC_OWNS_DATA
    Buffer buf;
#endif
    struct pcap_pkthdr h;
    int last_encap, last_dlt;      /* the WTAP_ENCAP -> DLT of the last packet */
    char *err;                     /* the last error, in words */
};

/* A pipe input: the bytes already read from it, then the rest. The thread
 * owns this and ends when the input ends or libwiretap closes the pipe
 * (then its write fails; SIGPIPE is ignored, main.c); nothing waits for
 * it, so a slow producer never holds up the end of the run. */
struct feed {
    int w, in;
    uint8_t *pending;
    size_t npending;
};

static bool pcapng_own = true;     /* CSC_PCAPNG=wiretap: libwiretap reads pcapng */
static bool pcapng_trace;          /* CSC_PCAPNG=trace: say when libwiretap takes over (tests) */

static void wtr_global_init(void)
{
    static gsize once;
    if (g_once_init_enter(&once)) {
        pcapng_own = g_strcmp0(g_getenv("CSC_PCAPNG"), "wiretap") != 0;
        pcapng_trace = g_strcmp0(g_getenv("CSC_PCAPNG"), "trace") == 0;
        /* libwiretap's own log (debug lines per block when nobody set a
         * level): its errors reach us as error codes, said by us */
        ws_log_set_level(LOG_LEVEL_CRITICAL);
        wtap_init(FALSE);
        g_once_init_leave(&once, 1);
    }
}

/* A WTAP_ENCAP as the DLT libpcap uses on this system (what pcap_datalink()
 * gives, what pcap_open_dead() takes for -f and -w). libwiretap exports
 * only the other way (wtap_pcap_encap_to_wtap_encap, which knows both the
 * DLT_ and LINKTYPE_ values), so the values are tried in order, the first
 * one libpcap has a name for kept: raw IP is 12 (DLT_RAW on Linux), not 14
 * (OpenBSD's) nor 101 (LINKTYPE_RAW, what a pcapng file says). */
#define WTR_ENCAPS 1024
static int encap_dlt[WTR_ENCAPS];     /* +1: 0 not looked up yet */
static GMutex encap_lock;

static int dlt_of_encap(int encap)
{
    /* WTAP_ENCAP_UNKNOWN (a pcapng without interfaces) is no link type: the
     * search below would name the first DLT wiretap does not know (102) */
    if (encap <= WTAP_ENCAP_UNKNOWN || encap >= WTR_ENCAPS)
        return -1;
    g_mutex_lock(&encap_lock);
    if (!encap_dlt[encap]) {
        int found = -1;
        for (int dlt = 0; dlt < 300 && found < 0; dlt++)
            if (wtap_pcap_encap_to_wtap_encap(dlt) == encap && pcap_datalink_val_to_name(dlt))
                found = dlt;
        encap_dlt[encap] = found + 1;
    }
    int dlt = encap_dlt[encap] - 1;
    g_mutex_unlock(&encap_lock);
    return dlt;
}

/* the DLT of a pcapng link type, as the frames libwiretap reads say it */
static int dlt_of_linktype(uint32_t linktype)
{
    return dlt_of_encap(wtap_pcap_encap_to_wtap_encap((int)linktype));
}

/* libwiretap's error in words: its text and the detail it gave */
static char *wtap_words(int err, gchar *err_info)
{
    char *s;
    if (err == WTAP_ERR_FILE_UNKNOWN_FORMAT)
        s = g_strdup("not a capture file (unknown file format)");
    else if (err_info && *err_info)
        s = g_strdup_printf("%s (%s)", wtap_strerror(err), err_info);
    else
        s = g_strdup(wtap_strerror(err));
    g_free(err_info);
    return s;
}

/* The pending bytes, then the rest of the input, into the pipe */
static gpointer feed_thread(gpointer data)
{
    struct feed *fd = data;
    static const size_t chunk = 64u * 1024u;
    uint8_t *buf = g_malloc(chunk);
    size_t off = 0, n = fd->npending;
    const uint8_t *p = fd->pending;
    for (;;) {
        while (off < n) {
            ssize_t w = write(fd->w, p + off, n - off);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                goto out;          /* the reader is gone (closed early) */
            off += (size_t)w;
        }
        ssize_t got;
        do
            got = read(fd->in, buf, chunk);
        while (got < 0 && errno == EINTR);
        if (got <= 0)
            break;
        p = buf;
        n = (size_t)got;
        off = 0;
    }
out:
    close(fd->w);
    close(fd->in);
    g_free(buf);
    g_free(fd->pending);
    g_free(fd);
    return NULL;
}

/* A pipe libwiretap can open by name (/dev/fd/N), fed with pending and the
 * rest of fd; *rfd: our read end, closed once libwiretap has its own */
static char *feed_pipe(int fd, const uint8_t *pending, size_t npending, int *rfd)
{
    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) != 0)
        return NULL;
    /* the thread reads its own descriptor: the caller closes the input
     * when the file ends, maybe before the thread has seen that */
    int in = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (in < 0) {
        close(pfd[0]);
        close(pfd[1]);
        return NULL;
    }
    struct feed *f = g_new0(struct feed, 1);
    f->w = pfd[1];
    f->in = in;
    f->pending = g_memdup2(pending, npending ? npending : 1);
    f->npending = npending;
    g_thread_unref(g_thread_new("csumcheck-feed", feed_thread, f));
    *rfd = pfd[0];
    return g_strdup_printf("/dev/fd/%d", pfd[0]);
}

/* libwiretap also reads files that hold no packets of a link layer (JSON,
 * images, logs: a text file can look like JSON to it); a capture whose
 * encapsulation has no pcap link type at all is not one csumcheck reads */
static bool is_network_capture(wtap *w)
{
    int encap = wtap_file_encap(w);
    /* a pcapng section without interfaces: no frames, but a capture */
    if (encap == WTAP_ENCAP_UNKNOWN && wtap_file_type_subtype(w) == wtap_pcapng_file_type_subtype())
        return true;
    return encap == WTAP_ENCAP_PER_PACKET || dlt_of_encap(encap) >= 0;
}

static void rec_init(struct wtr *r)
{
#ifdef WTR_REC_OWNS_DATA
    wtap_rec_init(&r->rec, 2048);
#else
    wtap_rec_init(&r->rec);
    ws_buffer_init(&r->buf, 2048);
#endif
}

static bool is_pcapng(const uint8_t *p, size_t n)
{
    static const uint8_t shb[4] = { 0x0a, 0x0d, 0x0d, 0x0a };
    return n >= 4 && !memcmp(p, shb, 4);
}

struct wtr *wtr_open(const char *path, int fd, bool is_pipe, const uint8_t *pending,
                     size_t npending, char **errmsg)
{
    wtr_global_init();
    struct png *png = NULL;
    if (pcapng_own && is_pcapng(pending, npending)) {
        png = png_new(fd, pending, npending, dlt_of_linktype);
        if (png_open(png)) {
            struct wtr *r = g_new0(struct wtr, 1);
            r->png = png;
            r->fd = fd;
            r->last_encap = -1;
            return r;
        }
        /* libwiretap from the start: a pipe gets every byte read so far */
        pending = png_read_so_far(png, &npending);
        if (pcapng_trace)
            fprintf(stderr, "csumcheck: pcapng: libwiretap reads %s from the start\n", path);
    }
    int rfd = -1, err = 0;
    gchar *err_info = NULL;
    char *name = is_pipe ? feed_pipe(fd, pending, npending, &rfd) : g_strdup(path);
    png_free(png);                 /* (feed_pipe took a copy) */
    if (!name) {
        *errmsg = g_strdup_printf("cannot make a pipe: %s", g_strerror(errno));
        return NULL;
    }
    struct wtr *r = g_new0(struct wtr, 1);
    r->last_encap = -1;
    r->wth = wtap_open_offline(name, WTAP_TYPE_AUTO, &err, &err_info, FALSE);
    if (rfd >= 0)
        close(rfd);                /* libwiretap opened its own */
    g_free(name);
    if (!r->wth) {
        *errmsg = wtap_words(err, err_info);
        g_free(r);
        return NULL;
    }
    if (!is_network_capture(r->wth)) {
        *errmsg = g_strdup_printf("not a network capture (libwiretap reads it as %s)",
                                  wtap_file_type_subtype_description(wtap_file_type_subtype(r->wth)));
        wtap_close(r->wth);
        g_free(r);
        return NULL;
    }
    rec_init(r);
    return r;
}

/* libwiretap reads on from the block pcapngblk.c left to it: the section's
 * SHB and IDBs, a block it skips, that block and the rest of the input,
 * through a pipe (so a file and a pipe go the same way) */
static bool wtr_take_over(struct wtr *r)
{
    size_t n, nprefix;
    uint8_t *replay = png_replay(r->png, &n, &nprefix);
    r->base = (int64_t)png_bytes(r->png) - (int64_t)nprefix;
    if (pcapng_trace)
        fprintf(stderr, "csumcheck: pcapng: libwiretap reads on from byte %ju\n",
                (uintmax_t)png_bytes(r->png));
    png_free(r->png);
    r->png = NULL;
    int rfd = -1, err = 0;
    gchar *err_info = NULL;
    char *name = feed_pipe(r->fd, replay, n, &rfd);
    g_free(replay);
    if (!name) {
        r->err = g_strdup_printf("cannot hand the capture to libwiretap: %s", g_strerror(errno));
        return false;
    }
    r->wth = wtap_open_offline(name, WTAP_TYPE_AUTO, &err, &err_info, FALSE);
    close(rfd);
    g_free(name);
    if (!r->wth) {                 /* (it opened the same SHB and IDBs a moment ago) */
        r->err = wtap_words(err, err_info);
        return false;
    }
    rec_init(r);
    return true;
}

bool wtr_is_capture(const char *path)
{
    wtr_global_init();
    int err = 0;
    gchar *err_info = NULL;
    wtap *w = wtap_open_offline(path, WTAP_TYPE_AUTO, &err, &err_info, FALSE);
    g_free(err_info);
    bool network = w && is_network_capture(w);
    if (w)
        wtap_close(w);
    return network || (!w && err != WTAP_ERR_FILE_UNKNOWN_FORMAT);   /* another error: said by the run */
}

int wtr_file_linktype(const struct wtr *r)
{
    if (r->png)
        return png_file_dlt(r->png);
    int encap = wtap_file_encap(r->wth);
    if (encap == WTAP_ENCAP_PER_PACKET) {   /* the first interface's */
        const wtapng_iface_descriptions_t *idb = wtap_file_get_idb_info(r->wth);
        if (idb && idb->interface_data && idb->interface_data->len) {
            wtap_block_t b = g_array_index(idb->interface_data, wtap_block_t, 0);
            const wtapng_if_descr_mandatory_t *m = wtap_block_get_mandatory_data(b);
            encap = m->wtap_encap;
        }
        g_free((void *)idb);
    }
    return dlt_of_encap(encap);
}

/* The direction of the pcapng packet flags (epb_flags), as the core says it */
static uint8_t rec_direction(const wtap_rec *rec)
{
    guint32 flags;
    if (!rec->block || wtap_block_get_uint32_option_value(rec->block, OPT_PKT_FLAGS, &flags) !=
                           WTAP_OPTTYPE_SUCCESS)
        return CSC_DIR_UNKNOWN;
    switch (PACK_FLAGS_DIRECTION(flags)) {
    case PACK_FLAGS_DIRECTION_INBOUND: return CSC_DIR_IN;
    case PACK_FLAGS_DIRECTION_OUTBOUND: return CSC_DIR_OUT;
    default: return CSC_DIR_UNKNOWN;
    }
}

int wtr_next(struct wtr *r, struct pcap_pkthdr **h, const uint8_t **data, int *dlt,
             uint8_t *dir)
{
    if (r->png) {
        int rc = png_next(r->png, &r->h, data, dlt, dir);
        if (rc != PNG_WIRETAP) {
            *h = &r->h;
            return rc;
        }
        if (!wtr_take_over(r))
            return -1;
    }
    int err = 0;
    gchar *err_info = NULL;
    gint64 off;
    for (;;) {
#ifdef WTR_REC_OWNS_DATA
        wtap_rec_reset(&r->rec);
        bool ok = wtap_read(r->wth, &r->rec, &err, &err_info, &off);
#else
        wtap_rec_reset(&r->rec);
        bool ok = wtap_read(r->wth, &r->rec, &r->buf, &err, &err_info, &off);
#endif
        if (!ok) {
            if (!err)
                return 0;
            g_free(r->err);
            r->err = wtap_words(err, err_info);
            return -1;
        }
        if (r->rec.rec_type == REC_TYPE_PACKET)
            break;
        g_free(err_info);          /* not a packet (an event, a journal entry): not a frame */
        err_info = NULL;
    }
    const wtap_packet_header *ph = &r->rec.rec_header.packet_header;
    r->h.ts.tv_sec = (time_t)r->rec.ts.secs;
    r->h.ts.tv_usec = (suseconds_t)r->rec.ts.nsecs;   /* nanoseconds, as the CLI reads them */
    r->h.caplen = ph->caplen;
    r->h.len = ph->len < ph->caplen ? ph->caplen : ph->len;
    if (ph->pkt_encap != r->last_encap) {
        r->last_encap = ph->pkt_encap;
        r->last_dlt = dlt_of_encap(ph->pkt_encap);
    }
    *h = &r->h;
#ifdef WTR_REC_OWNS_DATA
    *data = ws_buffer_start_ptr(&r->rec.data);
#else
    *data = ws_buffer_start_ptr(&r->buf);
#endif
    *dlt = r->last_dlt;
    *dir = rec_direction(&r->rec);
    return 1;
}

const char *wtr_error(const struct wtr *r)
{
    return r->err ? r->err : "read error";
}

uint64_t wtr_bytes(const struct wtr *r)
{
    if (r->png)
        return png_bytes(r->png);
    gint64 n = r->wth ? wtap_read_so_far(r->wth) + r->base : 0;
    return n > 0 ? (uint64_t)n : 0;
}

void wtr_close(struct wtr *r)
{
    if (!r)
        return;
    png_free(r->png);
    if (r->wth) {
        wtap_close(r->wth);        /* a pipe input: its feeder stops */
#ifndef WTR_REC_OWNS_DATA
        ws_buffer_free(&r->buf);
#endif
        wtap_rec_cleanup(&r->rec);
    }
    g_free(r->err);
    g_free(r);
}
