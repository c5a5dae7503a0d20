/*
 * sink.h - ordered output (sink.c): every job's report bytes and -w records
 * reach stdout / OUT in the order of the inputs; stderr lines and the
 * progress bar never tear each other.
 */
#ifndef CSUMCHECK_SINK_H
#define CSUMCHECK_SINK_H

#include "job.h"
#include "opts.h"
#include "stats.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { SINK_OUT = 0, SINK_REC = 1 };

struct cli_sink;
/* write_format: enum wout_format (wout.h) */
struct cli_sink *sink_new(struct job *jobs, unsigned njobs, FILE *out, const char *write_path,
                          int write_format, bool quiet);
void sink_write(struct cli_sink *s, struct job *j, int which, const void *p, size_t n);
void sink_job_done(struct cli_sink *s, struct job *j, const struct cli_stats *st,
                   struct cli_stats *total);
/* stderr line, never garbled by the progress bar */
void sink_error(struct cli_sink *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sink_warning(struct cli_sink *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Wait for every job; draws the progress bar meanwhile. */
void sink_wait_all(struct cli_sink *s, enum cli_progress mode);
/* Finish -w OUT (creating it when nothing was selected); false on error. */
bool sink_close(struct cli_sink *s, int fallback_linktype);
/* Only -w OUT (before the summary); false on a write error, said on stderr
 * and counted in sink_errors */
bool sink_close_write(struct cli_sink *s, int fallback_linktype);
unsigned sink_errors(const struct cli_sink *s);
/* An error the sink finds itself (a -w frame of another link type) also
 * as a record of the output format, in the output (JSON: {"type":"error"}) */
typedef void (*sink_error_record_fn)(FILE *out, const char *path, const char *msg);
void sink_set_error_record(struct cli_sink *s, sink_error_record_fn fn);
void sink_count_error(struct cli_sink *s);
void sink_free(struct cli_sink *s);

/* -w record format in the buffers and spools (host order, then caplen
 * bytes of data, then clen bytes of comment: the frame's verdict line) */
struct rec_hdr {
    int64_t sec;
    uint32_t nsec, caplen, len;
    int32_t linktype;          /* the frame's DLT (a pcapng interface's), -1: none */
    uint32_t clen;
    uint32_t dir;              /* enum csc_direction: pcapng epb_flags */
};

#endif
