/*
 * analyze.c - csc_analyze(): decode -> verify -> direction -> replay (a
 * received frame) or the TX view (a sent one: tx.c) for one frame.
 */
#include "csumcheck/csumcheck.h"

#ifndef CSC_VERSION
#define CSC_VERSION "0.1.0"
#endif

void csc_analyze(const struct csc_config *cfg, const struct csc_frame *f, struct csc_result *out)
{
    csc_decode(cfg, f, out);
    csc_verify(cfg, f, out);
    csc_direction(cfg, f, out);
    csc_replay(cfg, f, out);
    csc_tx(cfg, f, out);
}

const char *csc_version(void)
{
    return CSC_VERSION;
}
