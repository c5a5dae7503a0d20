/*
 * junit.h - csumcheck --junit FILE (junit.c): the run as JUnit XML, a test
 * case per input file, a failure per frame with a --fail-on finding or a
 * change since --baseline.
 */
#ifndef CSUMCHECK_JUNIT_H
#define CSUMCHECK_JUNIT_H

#include "job.h"

#include <stdbool.h>

/* Written whole (renamed into place); false and *err (g_free) on failure */
bool junit_write(const char *path, const struct job *jobs, unsigned njobs, double seconds,
                 char **err);

#endif
