/*
 * source.c - a file's records: a classic pcap in this machine's byte order
 * is read in blocks (input/pcapblk.c), any other classic pcap by libpcap over
 * a stream that replays the header bytes read, everything else by
 * libwiretap (input/wtapread.c); each record comes with its link type and
 * direction.
 */
#include "source.h"

#include "blk.h"
#include "frame.h"
#include "wtr.h"

#include <errno.h>
#include <stdio_ext.h>
#include <string.h>
#include <sys/stat.h>


void report_read_error(struct file_ctx *c, const struct rdr *rd, uint64_t n)
{
    const char *e = rd->wtr ? wtr_error(rd->wtr) : pcap_geterr(rd->pcap);
    char msg[PCAP_ERRBUF_SIZE + 160];
    if (n)
        snprintf(msg, sizeof msg, "damaged after frame %ju (%s); frames 1-%ju were analysed",
                 (uintmax_t)n, e, (uintmax_t)n);
    else
        snprintf(msg, sizeof msg, "cannot read the first frame (%s)", e);
    report_file_error(c, n + 1, msg);
}

/* The core's link for a pcap link type; an undecoded one is said once per
 * file and link type (a pcapng file may have several) */
static uint8_t link_of(struct file_ctx *c, int32_t dlt)
{
    uint8_t link = dlt < 0 ? CSC_LINK_UNKNOWN : (uint8_t)csc_link_from_linktype((uint32_t)dlt);
    if (link != CSC_LINK_UNKNOWN)
        return link;
    for (unsigned i = 0; i < c->ntold; i++)
        if (c->told_dlt[i] == dlt)
            return link;
    if (c->ntold < G_N_ELEMENTS(c->told_dlt))
        c->told_dlt[c->ntold++] = dlt;
    const char *name = dlt < 0 ? NULL : pcap_datalink_val_to_name(dlt);
    if (dlt < 0)
        sink_warning(c->rs->sink, "%s: frames of an encapsulation without a pcap link type are not "
                     "decoded: they stop at unknown-link", c->job->path);
    else
        sink_warning(c->rs->sink, "%s: link type %d%s%s%s is not decoded: its frames stop at "
                     "unknown-link", c->job->path, dlt, name ? " (" : "", name ? name : "",
                     name ? ")" : "");
    return link;
}

int rdr_next(struct file_ctx *c, struct rdr *r, struct pcap_pkthdr **h, const u_char **data,
             struct frame_in *fi)
{
    if (r->pcap) {
        int rc = pcap_next_ex(r->pcap, h, data);
        if (rc != 1)
            return rc == -1 ? -1 : 0;
        r->bytes += (*h)->caplen + 16u;
        *fi = c->fin;
        return 1;
    }
    int dlt;
    uint8_t dir;
    int rc = wtr_next(r->wtr, h, data, &dlt, &dir);
    if (rc != 1)
        return rc;
    if (dlt != r->last.dlt) {
        r->last.dlt = dlt;
        r->last.link = link_of(c, dlt);
    }
    *fi = r->last;
    fi->dir = dir;
    return 1;
}

/* A classic pcap in this machine's byte order is read in blocks
 * (pcapblk.c), any other classic pcap by libpcap over a stream that replays
 * the header bytes read, everything else by libwiretap (wtapread.c). False
 * (said) when the file is not a capture that can be read. */
static bool open_libpcap(struct file_ctx *c, struct blk *blk, char *rbuf, struct rdr *rd)
{
    char errbuf[PCAP_ERRBUF_SIZE] = "";
    FILE *rsf = blk_rest_stream(blk, NULL, 0);
    if (rsf) {
        setvbuf(rsf, rbuf, _IOFBF, CLI_READ_BUF);
        /* Only this thread reads it: no stdio lock per fread (libpcap makes
         * two per frame, and with worker threads glibc would lock each). */
        __fsetlocking(rsf, FSETLOCKING_BYCALLER);
        rd->pcap = pcap_fopen_offline_with_tstamp_precision(rsf, PCAP_TSTAMP_PRECISION_NANO, errbuf);
        if (!rd->pcap)
            fclose(rsf);
    } else {
        snprintf(errbuf, sizeof errbuf, "%s", g_strerror(errno));
    }
    if (!rd->pcap) {
        report_file_error(c, 0, errbuf);
        return false;
    }
    c->job->linktype = pcap_datalink(rd->pcap);
    return true;
}

static bool open_wiretap(struct file_ctx *c, FILE *fp, bool is_pipe, struct blk *blk,
                         struct rdr *rd)
{
    char *msg = NULL;
    if (!blk->nhdr) {              /* libwiretap would take nothing for an ERF file */
        report_file_error(c, 0, "empty input, not a capture");
        return false;
    }
    rd->wtr = wtr_open(c->job->path, fileno(fp), is_pipe, blk->hdr, blk->nhdr, &msg);
    if (!rd->wtr) {
        report_file_error(c, 0, msg);
        g_free(msg);
        return false;
    }
    c->job->linktype = wtr_file_linktype(rd->wtr);
    rd->last.dlt = INT32_MIN;      /* no record read yet */
    return true;
}

bool open_capture(struct file_ctx *c, FILE *fp, bool is_stdin, char *rbuf, struct blk *blk,
                         struct rdr *rd)
{
    struct stat sb;
    bool regular = fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode);
    memset(rd, 0, sizeof *rd);
    if (!is_stdin && regular && sb.st_size == 0) {
        report_file_error(c, 0, "empty file, not a capture");
        return false;
    }
    bool ok;
    if (blk_open(blk, fileno(fp))) {
        c->job->linktype = blk->linktype;
        blk->eager = c->rs->o->line_buffered;
        ok = true;
    } else if (blk_is_classic(blk)) {
        ok = open_libpcap(c, blk, rbuf, rd);
    } else {
        /* standard input is always fed through a pipe: its first bytes are read */
        ok = open_wiretap(c, fp, is_stdin || !regular, blk, rd);
    }
    if (ok) {
        c->fin.dlt = c->job->linktype;
        c->fin.link = link_of(c, c->fin.dlt);
        c->fin.dir = CSC_DIR_UNKNOWN;
    }
    return ok;
}
