/*
 * jsonline.c - the bounds of a JSON line read back (jsonline.h): one scan
 * of the bytes that knows strings and their escapes.
 */
#include "jsonline.h"

const char *jl_unbounded(const char *p, size_t n, unsigned max_depth, uint64_t max_keys)
{
    unsigned depth = 0, digits = 0;
    uint64_t keys = 0;
    bool in_str = false;
    for (size_t i = 0; i < n; i++) {
        char ch = p[i];
        /* json-glib wraps an integer beyond 64 bits */
        digits = !in_str && ch >= '0' && ch <= '9' ? digits + 1 : 0;
        if (digits > 16)
            return "a number of more than 16 digits: no count reaches 2^53";
        if (in_str) {
            if (ch == '\\')
                i++;
            else if (ch == '"')
                in_str = false;
        } else if (ch == '"') {
            in_str = true;
        } else if (ch == '{' || ch == '[') {
            if (++depth > max_depth)
                return "nested too deep: not a record csumcheck writes";
        } else if (ch == '}' || ch == ']') {
            depth -= depth > 0;
        } else if (ch == ':' && ++keys > max_keys) {
            return "too many members: not a record csumcheck writes";
        }
    }
    return 0;
}
