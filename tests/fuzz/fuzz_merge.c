/*
 * fuzz_merge.c - libFuzzer target 5: a fuzzed summary line through
 * csumcheck --merge's reader (analyzer/features/merge.c: the bounds before json-glib,
 * every member checked for type and range), then, when the line is taken,
 * the merged summary written back as JSON and text as --merge writes it.
 * The input is one line ({"type":"summary",...}); the seeds are real
 * summaries (bench/fuzz.sh writes them with csumcheck -F json).
 */
#include "merge.h"
#include "opts.h"
#include "out.h"
#include "flows.h"
#include "gro_totals.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void discard(struct wbuf *w)
{
    (void)w;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct cli_opts o;
    static struct cli_run runs[CLI_MAX_RUNS];
    static bool parsed;
    if (!parsed) {                    /* as `csumcheck --merge -F json --flows -` */
        char *argv0[] = { "csumcheck", "--merge", "-F", "json", "--flows", "-", NULL };
        int argc = 6;
        char **argv = argv0;
        if (options_parse(&argc, &argv, &o, runs) >= 0)
            abort();
        parsed = true;
    }
    /* the totals of the line before are gone */
    memset(&runs[0].st, 0, sizeof runs[0].st);
    gro_totals_free(&runs[0].gro);
    gro_totals_init(&runs[0].gro);
    flow_totals_free(&runs[0].flows);
    flow_totals_init(&runs[0].flows);
    struct merged *m = merge_new(&o, runs);
    if (merge_line(m, (const char *)data, size)) {
        /* the summary a taken line gives, in both formats (as merge_main) */
        static char buf[1u << 16];
        struct wbuf w = { buf, 0, sizeof buf, discard, NULL };
        merge_write(m, &w, &out_json);
        merge_write(m, &w, &out_text);
    } else if (!merge_error(m)[0]) {
        abort();                      /* refused without saying why */
    }
    merge_free(m);
    return 0;
}
