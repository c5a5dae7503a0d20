/*
 * live_cli.h - csumcheck --live (live.c): the inputs through this machine's
 * kernel, side by side with the model.
 */
#ifndef CSUMCHECK_LIVE_CLI_H
#define CSUMCHECK_LIVE_CLI_H

#include "job.h"
#include "opts.h"
#include "out.h"

/* --live cannot run here (not root, no /dev/net/tun, no namespaces): the
 * CTest skip code, so a test that runs it skips with the reason. */
#define LIVE_EXIT_SKIP 77

/* Exit status: 0 every replayed frame agreed, 1 a disagreement, 2 an
 * error, LIVE_EXIT_SKIP, or 128 + the signal that stopped it. */
#ifdef CSC_HAVE_LIVE
int live_main(const struct cli_opts *o, struct cli_run *runs, const struct job *jobs, unsigned njobs,
              unsigned nerrors);
/* A copy of csumcheck with file capabilities (docs/live.md, Privileges)
 * run for anything but --live on this machine's kernel: every capability
 * given up before an input is read. Nothing for root or a plain user. */
void live_drop_file_caps(void);
#else
static inline void live_drop_file_caps(void)
{
}
#include <stdio.h>
static inline int live_main(const struct cli_opts *o, struct cli_run *runs, const struct job *jobs,
                            unsigned njobs, unsigned nerrors)
{
    (void)o, (void)runs, (void)jobs, (void)njobs, (void)nerrors;
    fprintf(stderr, CLI_NAME ": --live skipped: this build has no live-kernel support (Linux only)\n");
    return LIVE_EXIT_SKIP;
}
#endif

#endif
