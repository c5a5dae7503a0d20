/*
 * run.h - one capture file through the analysis (run.c): a job of the run.
 */
#ifndef CSUMCHECK_RUN_H
#define CSUMCHECK_RUN_H

#include "file.h"

void run_job(struct run_shared *rs, struct job *j);

#endif
