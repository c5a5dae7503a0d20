/*
 * job.h - one input file (inputs.c expands FILE|DIR|- into them, in order).
 */
#ifndef CSUMCHECK_JOB_H
#define CSUMCHECK_JOB_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct job {
    unsigned index;
    char *path;                /* as given or found while walking; "-" = stdin */
    uint64_t size;             /* bytes, 0 when unknown (stdin, pipes) */
    _Atomic uint64_t done_bytes;
    int linktype;              /* pcap_datalink(), -1 before open */
    bool done, failed;
    /* ordered output: spooled while an earlier input is still running */
    FILE *spool[2];            /* [0] report text, [1] -w records */
    bool head_drained[2];
    bool link_mismatch_told;
    uint64_t frames_lost;      /* -w records not written (link type) */
};

struct job *inputs_expand(char **args, unsigned *njobs, unsigned *nerrors);

#endif
