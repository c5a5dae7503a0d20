/*
 * pcapngblk.h - pcapng read by the project for the common case
 * (pcapngblk.c); libwiretap (wtapread.c) for everything else.
 */
#ifndef CSUMCHECK_PCAPNGBLK_H
#define CSUMCHECK_PCAPNGBLK_H

#include <pcap/pcap.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct png;

/* the pcap DLT of a pcapng LINKTYPE as libwiretap's path reports it, -1: none */
typedef int (*png_dlt_fn)(uint32_t linktype);

/* png_next(): a frame, the end of the input, or libwiretap must read on */
enum { PNG_END = 0, PNG_FRAME = 1, PNG_WIRETAP = 2 };

/* The reader of fd, whose first npending bytes (the start of the file)
 * were read already. */
struct png *png_new(int fd, const uint8_t *pending, size_t npending, png_dlt_fn dlt_of);
/* Reads the Section Header Block and the Interface Description Blocks that
 * follow it. False: libwiretap must read the file from its start (then
 * png_read_so_far() gives every byte read from fd). */
bool png_open(struct png *k);
const uint8_t *png_read_so_far(const struct png *k, size_t *n);
/* The first interface's DLT (libwiretap's file link type) */
int png_file_dlt(const struct png *k);
/* The next frame: PNG_FRAME (h, *data, *dlt, *dir set; the bytes stay
 * valid until the next call), PNG_END, or PNG_WIRETAP: libwiretap reads the
 * rest, given png_replay()'s bytes and then the rest of fd. */
int png_next(struct png *k, struct pcap_pkthdr *h, const uint8_t **data, int *dlt, uint8_t *dir);
/* What libwiretap reads before the rest of fd when it takes over: the
 * section's SHB and IDBs, a block it skips, the bytes not yet used */
uint8_t *png_replay(const struct png *k, size_t *n, size_t *nprefix);
/* bytes of the input used so far */
uint64_t png_bytes(const struct png *k);
void png_free(struct png *k);

#endif
