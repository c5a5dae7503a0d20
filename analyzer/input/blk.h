/*
 * blk.h - classic pcap records read in blocks (pcapblk.c), straight into the
 * buffer that analyses them; libpcap for what it must judge.
 */
#ifndef CSUMCHECK_BLK_H
#define CSUMCHECK_BLK_H

#include <pcap/pcap.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* pcapblk.c: classic pcap read in blocks into the analysing buffer; libpcap
 * for everything else, from the first record it must judge on */
#define BLK_BUF (256u * 1024u)
enum { BLK_FRAME, BLK_MORE, BLK_END, BLK_LIBPCAP };
struct blk {
    int fd;
    bool fast;                   /* records are read here (else libpcap reads) */
    bool nano, eof;
    bool eager;                  /* -l: hand on what one read() gives (a slow pipe) */
    bool failed;                 /* the hand-over to libpcap failed */
    uint8_t hdr[24];
    size_t nhdr;                 /* header bytes read (all of them when fast) */
    uint32_t snap;
    int linktype;
    uint64_t bytes;              /* read so far */
};
/* Reads the file header; true when the records can be read here. */
bool blk_open(struct blk *k, int fd);
/* read() into buf[have, cap): bytes read, 0 at the end, -1 on error */
ssize_t blk_fill(struct blk *k, uint8_t *buf, size_t have, size_t cap);
/* the record at p (avail bytes there): BLK_FRAME (h set, its data at p + 16),
 * BLK_MORE (read more), BLK_END, or BLK_LIBPCAP (libpcap must take it) */
int blk_record(const struct blk *k, const uint8_t *p, size_t avail, struct pcap_pkthdr *h);
/* libpcap over the header, the unused bytes and the rest of the file */
pcap_t *blk_libpcap(struct blk *k, const uint8_t *unused, size_t nunused, char *errbuf);
/* The header read is a classic pcap's (any byte order): libpcap's to judge */
bool blk_is_classic(const struct blk *k);
FILE *blk_rest_stream(const struct blk *k, const uint8_t *unused, size_t nunused);

#endif
