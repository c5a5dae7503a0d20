/*
 * pipeline.h - the worker threads (pipeline.c), shared by all files, and one
 * file over them with output byte-identical to run.c's frame loop.
 */
#ifndef CSUMCHECK_PIPELINE_H
#define CSUMCHECK_PIPELINE_H

#include "file.h"

struct blk;

void pipeline_start(unsigned threads);   /* none below 2 */
void pipeline_stop(void);
bool pipeline_running(void);
/* The file's frames, from the block reader k or from rd; *np: the frames read */
int pipeline_file(struct file_ctx *c, struct rdr *rd, struct blk *k, uint64_t *np);

#endif
