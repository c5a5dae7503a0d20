/*
 * frame.h - the steps of one frame (frame.c), shared by both ways through a
 * file: in capture order in one thread (run.c) and over the worker threads
 * (pipeline.c).
 */
#ifndef CSUMCHECK_FRAME_H
#define CSUMCHECK_FRAME_H

#include "file.h"

void flow_refs_of(struct flow_ref *refs, const struct csc_result *r, const struct csc_gro_input *in,
                  struct flow_shapes *shapes, uint64_t served);
const struct csc_frame *analyse_result(const struct cli_run *run, struct csc_fast *fp,
                                       struct csc_result *r, struct csc_result *base,
                                       uint8_t *rwbuf, const struct csc_frame *f0,
                                       struct csc_frame *rw);
bool needs_order(const struct csc_result *r);
void gro_feed(struct run_file *rf, const struct csc_gro_input *in, const struct flow_ref *refs,
              const struct csc_frame *fa, uint64_t n, uint64_t ts_us);
/* A frame's output: before its GRO fate, the fate, after it */
bool render_start(const struct file_view *fv, struct wbuf *w, const struct frame_view *v);
void render_fate(const struct file_view *fv, struct wbuf *w, const struct csc_gro_decision *gd);
void render_end(const struct file_view *fv, struct wbuf *w, const struct frame_view *v);
/* What the analysing thread wrote of a frame for frame_done: its verdict
 * line before the GRO fate (-w pcapng comments, --junit failures) and its
 * outcome in words (--baseline) */
struct frame_words {
    const char *line, *outcome;
    size_t nline, noutcome;
};
#define FRAME_LINE_MAX 16384      /* a verdict line: 32 layers, counters, a long file name */
void frame_done(struct file_ctx *c, uint64_t n, uint32_t mall, const struct pcap_pkthdr *h,
                const uint8_t *data, const struct frame_in *fi, const struct frame_words *fw);
/* Is the frame's verdict line wanted (a -w pcapng frame, a --junit failure)? */
bool frame_selected(const struct file_ctx *c, uint32_t mall);
/* --baseline: the end of a file read whole (its frames the run did not see) */
void baseline_file_end(struct file_ctx *c);
/* Render what frame_done will want of the frame into w; the offsets of the
 * line [off[0], off[1]) and the outcome [off[2], off[3]) count from where
 * w's bytes go (*base: the bytes w flushed there before its own) */
void frame_words_render(const struct file_ctx *c, struct wbuf *w, const struct frame_view *v,
                        uint32_t mall, const size_t *base, uint32_t off[4]);
void frame_in_order(struct file_ctx *c, const struct pcap_pkthdr *h, const uint8_t *data,
                    uint64_t n, const struct frame_in *fi);

/* -f and -c (and the end of the run on a signal): what to do with a record
 * read, before it is numbered into the analysis */
enum { GATE_TAKE, GATE_SKIP, GATE_STOP };
int frame_gate(struct file_ctx *c, const struct pcap_pkthdr *h, const uint8_t *data,
               const struct frame_in *fi);
/* An input that cannot be read, or not to its end: a line on stderr and the
 * format's error record (frame 0: the file as a whole) */
void report_file_error(struct file_ctx *c, uint64_t frame, const char *msg);

#endif
