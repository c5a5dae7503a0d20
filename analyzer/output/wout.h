/*
 * wout.h - the -w output file (wout.c): selected frames written as pcap or
 * pcapng (captures/lib/capw.c), every write checked, a regular file
 * replaced only when it is complete.
 */
#ifndef CSUMCHECK_WOUT_H
#define CSUMCHECK_WOUT_H

#include <stdbool.h>
#include <stdint.h>

enum wout_format { WOUT_AUTO = 0, WOUT_PCAP, WOUT_PCAPNG };

/* The format -w NAME gets: the one asked for, else pcapng for a name
 * ending in .pcapng (also .pcapng.gz and the like), else pcap */
enum wout_format wout_format_for(const char *path, enum wout_format asked);

struct wout;
/* Open path for writing ("-": standard output). A regular file (or a name
 * not there yet) is written to a temporary file in the same folder and
 * renamed over path by wout_close, so a kill leaves the old file or none,
 * never a part; a pipe, a device or standard output is written directly.
 * NULL and *err (g_free) when it cannot be created. */
struct wout *wout_open(const char *path, enum wout_format fmt, char **err);
enum { WOUT_OK = 0, WOUT_LINK = 1, WOUT_ERR = -1 };
/* One frame (dlt: the frame's DLT). WOUT_LINK: not written, its link type
 * cannot be (pcap: differs from the file's; a type no savefile holds) and
 * *why says so (g_free); WOUT_ERR: a write failed (wout_error says why;
 * nothing more is written). dir (1 in, 2 out, 0 unknown) and the comment
 * go in pcapng only. */
int wout_frame(struct wout *o, int dlt, int64_t sec, uint32_t nsec, const uint8_t *data,
               uint32_t caplen, uint32_t len, int dir, const char *comment, uint32_t clen,
               char **why);
/* The write error that stopped the output, NULL while there is none */
const char *wout_error(const struct wout *o);
/* Finish: a file that got no frame still gets its header (pcap: the link
 * type fallback_dlt, Ethernet when none is known; pcapng: no interface),
 * everything flushed and synced, the temporary file renamed over the path.
 * On an earlier error, or one now, the temporary file is removed, the old
 * file stays, and false with *err (g_free). Frees o. */
bool wout_close(struct wout *o, int fallback_dlt, char **err);

#endif
