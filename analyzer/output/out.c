/*
 * out.c - what the formats share: choosing one, a file's output context,
 * and a few words.
 */
#include "out.h"

#include "job.h"

#include <glib.h>
#include <signal.h>
#include <string.h>

const struct out_format *out_format_by_name(const char *name)
{
    static const struct out_format *const all[] = { &out_text, &out_json, &out_csv };
    for (size_t i = 0; i < G_N_ELEMENTS(all); i++)
        if (!strcmp(all[i]->name, name))
            return all[i];
    return NULL;
}

/* "rx":"..","era":".." of a run, as the JSON kernel object starts */
static char *kernel_members(const struct cli_run *run)
{
    char tmp[256];
    struct wbuf w = { tmp, 0, sizeof tmp - 1, NULL, NULL };
    WB_LIT(&w, "\"rx\":");
    wb_json_str(&w, run->rx_name);
    WB_LIT(&w, ",\"era\":");
    wb_json_str(&w, run->cfg.era.name);
    tmp[w.len] = 0;
    return g_strdup(tmp);
}

void out_file_open(struct out_file *f, const struct cli_opts *o, const struct cli_run *runs,
                   const char *path)
{
    memset(f, 0, sizeof *f);
    f->fmt = o->format;
    f->o = o;
    f->runs = runs;
    f->nruns = o->nruns;
    f->name = wb_escaped(f->fmt->escape, path);
    f->kernel_members = kernel_members(&runs[0]);
    /* --show asks for frame records in text too; --summary-only for none */
    int verbose = o->show_given && o->verbose < 1 ? 1 : o->verbose;
    bool frames = f->fmt->frames_from_v >= 0 && verbose >= f->fmt->frames_from_v &&
                  !o->summary_only;
    /* (--compare lists every frame whose outcome differs) */
    f->show = o->show_given ? o->show : o->nruns == 1 ? f->fmt->show_default : 0;
    f->flows = o->flows && !o->summary_only && f->fmt->flow;
    f->frames = frames && f->nruns == 1;
    f->diffs = frames && f->nruns > 1 && f->fmt->diff;
    f->frame_bytes = !f->frames ? 0 : out_traces(o) ? OUT_TRACE_BYTES : f->fmt->frame_bytes;
    f->color = o->color;
}

void out_file_open_comment(struct out_file *f, const struct cli_opts *o, const struct cli_run *runs,
                           const char *path)
{
    memset(f, 0, sizeof *f);
    f->fmt = &out_text;
    f->o = o;
    f->runs = runs;
    f->nruns = 1;
    f->name = wb_escaped(out_text.escape, path);
}

bool out_traces(const struct cli_opts *o)
{
    const struct out_format *fmt = o->format;
    return o->nruns == 1 && fmt->trace_from_v >= 0 && o->verbose >= fmt->trace_from_v &&
           !o->summary_only;
}

void out_file_close(struct out_file *f)
{
    g_free(f->name);
    g_free(f->kernel_members);
    f->name = f->kernel_members = NULL;
}

const char *out_signal_name(int sig)
{
    switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGPIPE: return "SIGPIPE";
    default: return "a signal";
    }
}

const char *plural(uint64_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

unsigned out_files_read(const struct cli_opts *o)
{
    unsigned n = 0;
    for (unsigned i = 0; i < o->njobv; i++)
        n += !o->jobv[i].error && !o->jobv[i].skipped;
    return n;
}

const char *out_job_name(const struct cli_opts *o, unsigned file)
{
    return file < o->njobv ? o->jobv[file].path : "?";
}
