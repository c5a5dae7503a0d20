/*
 * source.h - a file's records (source.c): opened as a classic pcap read in
 * blocks (input/pcapblk.c), by libpcap, or by libwiretap (input/wtapread.c),
 * and read one at a time with their link type and direction.
 */
#ifndef CSUMCHECK_SOURCE_H
#define CSUMCHECK_SOURCE_H

#include "file.h"

#include <stdio.h>

struct blk;

/* Opens the capture fp (standard input when is_stdin) for c: the block
 * reader *blk when it can read it, else *rd; false (said) when the file is
 * not a capture that can be read. rbuf: CLI_READ_BUF bytes for libpcap. */
bool open_capture(struct file_ctx *c, FILE *fp, bool is_stdin, char *rbuf, struct blk *blk,
                  struct rdr *rd);
/* the next record of r: 1 (*h, *data, *fi set), 0 at the end, -1 an error */
int rdr_next(struct file_ctx *c, struct rdr *r, struct pcap_pkthdr **h, const u_char **data,
             struct frame_in *fi);

/* A read error after n frames: said, with the frames that were analysed */
void report_read_error(struct file_ctx *c, const struct rdr *rd, uint64_t n);

#endif
