/*
 * jsonline.h - the bounds a JSON line read back (--merge's summaries,
 * --baseline's packet records) must keep before json-glib, whose parser
 * recurses, is given it: nesting depth, members, and numbers json-glib
 * would wrap (more than 16 digits: no count of csumcheck's reaches 2^53).
 */
#ifndef CSUMCHECK_JSONLINE_H
#define CSUMCHECK_JSONLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JL_MAX_DEPTH 32

/* NULL when the line keeps the bounds, else why not (a static string) */
const char *jl_unbounded(const char *p, size_t n, unsigned max_depth, uint64_t max_keys);

#endif
