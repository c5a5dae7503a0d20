/*
 * job.h - one input (inputs.c expands FILE|DIR|- into them, in order): a
 * file to read, or an input that could not be expanded (a path that is not
 * there, a directory with no capture), which keeps its place in the order
 * so that its error record comes where the input was given.
 */
#ifndef CSUMCHECK_JOB_H
#define CSUMCHECK_JOB_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JUNIT_MAX_FAILURES 1000   /* --junit: <failure> elements per file */

typedef struct _GString GString;

struct job {
    unsigned index;
    char *path;                /* as given or found while walking; "-" = stdin */
    char *error;               /* an input that could not be expanded: the message */
    uint64_t size;             /* bytes, 0 when unknown (stdin, pipes) */
    _Atomic uint64_t done_bytes;
    int linktype;              /* the file's (first) link type, -1 before open */
    bool done, failed;
    bool opened;               /* a capture was opened: the summary is printed */
    bool skipped;              /* a stop came before the file started: not read */
    /* ordered output: spooled while an earlier input is still running */
    FILE *spool[2];            /* [0] report text, [1] -w records */
    bool head_drained[2];
    bool link_mismatch_told;
    uint64_t frames_lost;      /* -w records not written (link type) */
    /* the summary's per-file table (run A's figures) */
    uint64_t frames, findings, drops;
    /* --junit: this file's failures, a line each ("FRAME\tMESSAGE"), the
     * first JUNIT_MAX_FAILURES of junit_failures */
    GString *junit;
    uint64_t junit_failures;
};

/* The inputs in order (errors of expansion included, as jobs with `error`);
 * files of a directory that are not captures are counted in *skipped and
 * said on stderr unless quiet. */
struct job *inputs_expand(char **args, unsigned *njobs, bool quiet);

#endif
