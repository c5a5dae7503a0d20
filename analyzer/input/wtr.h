/*
 * wtr.h - captures read by libwiretap (wtapread.c): pcapng with several link
 * types, compressed files, every format tshark opens.
 */
#ifndef CSUMCHECK_WTR_H
#define CSUMCHECK_WTR_H

#include <pcap/pcap.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct wtr;

/* wtapread.c: libwiretap. A pipe input (is_pipe) is read from fd after the
 * npending bytes already read from it. */
struct wtr *wtr_open(const char *path, int fd, bool is_pipe, const uint8_t *pending,
                     size_t npending, char **errmsg);
int wtr_next(struct wtr *r, struct pcap_pkthdr **h, const uint8_t **data, int *dlt,
             uint8_t *dir);
const char *wtr_error(const struct wtr *r);
int wtr_file_linktype(const struct wtr *r);
/* libwiretap knows the format of the file at path (compressed files found
 * in a directory are looked into this way) */
bool wtr_is_capture(const char *path);
uint64_t wtr_bytes(const struct wtr *r);
void wtr_close(struct wtr *r);

#endif
