/*
 * pcapblk.c - classic pcap records read in large blocks, straight into the
 * buffer that analyses them (issue 13).
 *
 * libpcap reads a savefile through stdio: the kernel copies the file into
 * the FILE's buffer, fread() copies each record into libpcap's buffer, and
 * the pipeline copied it once more into its batch. For a file of full-size
 * frames those copies cost more than checking every checksum. Here a block
 * of the file (256 KiB) is read() into the batch's arena and the records
 * are used where they lie: one copy, the kernel's, as in bench/floor.c.
 *
 * libpcap stays the judge of everything unusual. The file's header is read
 * first and handed to libpcap (pcap_fopen_offline over those 24 bytes)
 * for the link type and snapshot length; only a classic pcap in this
 * machine's byte order, version 2.4, is read here, and only records whose
 * caplen libpcap would take as it is (at most the snapshot length and
 * 262,144). Anything else (pcapng, another byte order, an oversized or cut
 * record, the end of a damaged file) is handed to libpcap from that record
 * on, over a stream that replays the header and the bytes not yet used and
 * then reads the rest of the file: libpcap's frames, errors and messages
 * are the ones it would have given reading the file itself.
 *
 *   pcap file header (24 bytes)         record header (16 bytes)
 *   +-------------------------------+   +-------------------------------+
 *   | magic a1b2c3d4 (us) a1b23c4d  |   | ts seconds                    |
 *   | (ns) | major 2 | minor 4      |   | ts microseconds / nanoseconds |
 *   | thiszone | sigfigs            |   | caplen (bytes that follow)    |
 *   | snaplen | linktype            |   | len (bytes on the wire)       |
 *   +-------------------------------+   +-------------------------------+
 */
#define _GNU_SOURCE   /* fopencookie */
#include "blk.h"

#include <glib.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#define PCAP_MAGIC_US 0xa1b2c3d4u
#define PCAP_MAGIC_NS 0xa1b23c4du
#define PCAP_HDR 24u
#define REC_HDR 16u
#define MAX_CAPLEN 262144u        /* libpcap's MAXIMUM_SNAPLEN */

static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);             /* the file's byte order is this machine's */
    return v;
}

/* read() until n bytes or the end; returns the bytes read, -1 on error */
static ssize_t read_full(int fd, uint8_t *b, size_t n)
{
    size_t have = 0;
    while (have < n) {
        ssize_t r = read(fd, b + have, n - have);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        have += (size_t)r;
    }
    return (ssize_t)have;
}

bool blk_open(struct blk *k, int fd)
{
    memset(k, 0, sizeof *k);
    k->fd = fd;
    ssize_t n = read_full(fd, k->hdr, PCAP_HDR);
    k->nhdr = n > 0 ? (size_t)n : 0;
    if (n != PCAP_HDR)
        return false;
    uint32_t magic = rd32(k->hdr);
    uint16_t major, minor;
    memcpy(&major, k->hdr + 4, 2);
    memcpy(&minor, k->hdr + 6, 2);
    if ((magic != PCAP_MAGIC_US && magic != PCAP_MAGIC_NS) || major != 2 || minor != 4)
        return false;
    /* libpcap reads the header: link type and snapshot as it sees them */
    char errbuf[PCAP_ERRBUF_SIZE];
    FILE *hf = fmemopen(k->hdr, PCAP_HDR, "rb");
    pcap_t *hp = hf ? pcap_fopen_offline_with_tstamp_precision(hf, PCAP_TSTAMP_PRECISION_NANO, errbuf)
                    : NULL;
    if (!hp) {
        if (hf)
            fclose(hf);
        return false;
    }
    k->linktype = pcap_datalink(hp);
    int snap = pcap_snapshot(hp);
    pcap_close(hp);
    k->snap = snap > 0 && (unsigned)snap < MAX_CAPLEN ? (uint32_t)snap : MAX_CAPLEN;
    k->nano = magic == PCAP_MAGIC_NS;
    k->fast = true;
    return true;
}

ssize_t blk_fill(struct blk *k, uint8_t *buf, size_t have, size_t cap)
{
    if (k->eof || have >= cap)
        return 0;
    ssize_t n;
    if (k->eager) {                /* one read(): a record is analysed when it arrives */
        do
            n = read(k->fd, buf + have, cap - have);
        while (n < 0 && errno == EINTR);
        if (n == 0)
            k->eof = true;
    } else {
        n = read_full(k->fd, buf + have, cap - have);
        if (n >= 0 && (size_t)n < cap - have)
            k->eof = true;
    }
    if (n < 0)
        return -1;
    k->bytes += (uint64_t)n;
    return n;
}

int blk_record(const struct blk *k, const uint8_t *p, size_t avail, struct pcap_pkthdr *h)
{
    if (avail < REC_HDR)
        return !k->eof ? BLK_MORE : avail ? BLK_LIBPCAP : BLK_END;   /* a cut header: libpcap */
    uint32_t caplen = rd32(p + 8);
    if (caplen > k->snap)
        return BLK_LIBPCAP;        /* libpcap's rules for it (cut to snaplen, or an error) */
    if (avail < REC_HDR + caplen)
        return k->eof ? BLK_LIBPCAP : BLK_MORE;   /* cut short: libpcap says how */
    memset(h, 0, sizeof *h);
    h->ts.tv_sec = (time_t)rd32(p);
    uint32_t frac = rd32(p + 4);
    h->ts.tv_usec = (suseconds_t)(k->nano ? frac : frac * 1000u);   /* nanoseconds, as libpcap gives them */
    h->caplen = caplen;
    h->len = rd32(p + 12);
    return BLK_FRAME;
}

bool blk_is_classic(const struct blk *k)
{
    static const uint32_t magics[] = { PCAP_MAGIC_US, PCAP_MAGIC_NS, 0xa1b2cd34u /* Kuznetzov */ };
    if (k->nhdr < 4)
        return false;
    uint32_t m = rd32(k->hdr);
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++)
        if (m == magics[i] || m == __builtin_bswap32(magics[i]))
            return true;
    return false;
}

/* ---- libpcap for the rest: the header, the bytes not used, then the file ---- */

struct rest {
    int fd;
    uint8_t *pend;
    size_t npend, pos;
};

static ssize_t rest_read(void *cookie, char *buf, size_t n)
{
    struct rest *r = cookie;
    if (r->pos < r->npend) {
        size_t m = r->npend - r->pos < n ? r->npend - r->pos : n;
        memcpy(buf, r->pend + r->pos, m);
        r->pos += m;
        return (ssize_t)m;
    }
    ssize_t got;
    do
        got = read(r->fd, buf, n);
    while (got < 0 && errno == EINTR);
    return got;
}

static int rest_close(void *cookie)
{
    struct rest *r = cookie;
    g_free(r->pend);
    g_free(r);
    return 0;
}

FILE *blk_rest_stream(const struct blk *k, const uint8_t *unused, size_t nunused)
{
    struct rest *r = g_new0(struct rest, 1);
    r->fd = k->fd;
    r->npend = k->nhdr + nunused;
    r->pend = g_malloc(r->npend ? r->npend : 1);
    memcpy(r->pend, k->hdr, k->nhdr);
    if (nunused)
        memcpy(r->pend + k->nhdr, unused, nunused);
    cookie_io_functions_t io = { rest_read, NULL, NULL, rest_close };
    FILE *f = fopencookie(r, "rb", io);
    if (!f)
        rest_close(r);
    return f;
}

pcap_t *blk_libpcap(struct blk *k, const uint8_t *unused, size_t nunused, char *errbuf)
{
    FILE *f = blk_rest_stream(k, unused, nunused);
    if (!f) {
        snprintf(errbuf, PCAP_ERRBUF_SIZE, "cannot open a stream: %s", g_strerror(errno));
        k->fast = false;
        k->failed = true;
        return NULL;
    }
    pcap_t *p = pcap_fopen_offline_with_tstamp_precision(f, PCAP_TSTAMP_PRECISION_NANO, errbuf);
    if (!p)
        fclose(f);
    k->fast = false;
    k->failed = !p;
    return p;
}
