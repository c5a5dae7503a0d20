/*
 * capw.h - write pcap and pcapng files (pcap-savefile, draft-ietf-opsawg-
 * pcapng: SHB, IDB, EPB with the epb_flags direction option).
 * libpcap 1.10 can write pcap but not pcapng, and the generator needs
 * pcapng for per-packet direction; both formats are written here.
 */
#ifndef CSC_CAPW_H
#define CSC_CAPW_H

#include <stdint.h>
#include <stdio.h>

enum capw_format { CAPW_PCAP, CAPW_PCAPNG };
enum capw_dir { CAPW_DIR_NONE = 0, CAPW_DIR_IN = 1, CAPW_DIR_OUT = 2 };

#define CAPW_IFACES 8

#define CAPW_NSEC 1u          /* capw_begin: nanosecond timestamps (pcap magic a1b23c4d,
                                pcapng if_tsresol 9) */

struct capw {
    FILE *f;
    int format;
    uint32_t snaplen;
    int borrowed;            /* stream from capw_open_stream: not closed */
    unsigned nif;            /* pcapng: interfaces described (the first by capw_open) */
    uint32_t ifsnap[CAPW_IFACES];
    unsigned flags;          /* CAPW_NSEC */
};

/* Open path ("-" = stdout) for writing; returns 0 on success. */
int capw_open(struct capw *w, const char *path, enum capw_format fmt, uint32_t linktype,
              uint32_t snaplen);
/* The same on a stream the caller opened (and may have given a large
 * buffer with setvbuf); capw_close() flushes it but does not close it. */
int capw_open_stream(struct capw *w, FILE *f, enum capw_format fmt, uint32_t linktype,
                     uint32_t snaplen);
/* Write one frame; caplen is cut to the snaplen. 0 on success. */
int capw_write(struct capw *w, uint64_t ts_usec, const uint8_t *data, uint32_t len, int dir);
int capw_close(struct capw *w);
/* pcapng: one more interface (an IDB) of its own link type and snapshot
 * length; returns its id, or -1 (pcap, or too many) */
int capw_add_interface(struct capw *w, uint32_t linktype, uint32_t snaplen);
/* capw_write on interface if_id */
int capw_write_if(struct capw *w, unsigned if_id, uint64_t ts_usec, const uint8_t *data,
                  uint32_t len, int dir);

/* A stream without an interface yet (csumcheck -w): pcapng gets its
 * Section Header Block now, pcap nothing until capw_add_interface, which
 * writes the pcap file header (once: a pcap file has one link type) or a
 * pcapng Interface Description Block. 0 on success. */
int capw_begin(struct capw *w, FILE *f, enum capw_format fmt, unsigned flags);
/* One record on interface if_id: timestamp as seconds + nanoseconds
 * (written at the file's resolution), caplen bytes of data, the length on
 * the wire, the direction (pcapng epb_flags) and a comment (pcapng
 * opt_comment, UTF-8, clen bytes; pcap has no place for one). The data is
 * written whole (no snaplen cut). 0 on success, -1 on a write error. */
int capw_write_rec(struct capw *w, unsigned if_id, uint64_t sec, uint32_t nsec,
                   const uint8_t *data, uint32_t caplen, uint32_t len, int dir,
                   const char *comment, uint32_t clen);

#endif
