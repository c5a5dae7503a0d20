/*
 * filter.c - the capture filter: libpcap compiles the expression once per
 * link type (pcap_open_dead + pcap_compile) and runs it on each frame
 * (pcap_offline_filter), as tcpdump -r does. No filter engine of our own.
 *
 * Programs are kept in a small table (a run meets few link types); a link
 * type the expression cannot apply to ("ether host" on raw IP) gets a NULL
 * program and one error line for the run: its frames are not analysed.
 */
#include "filter.h"

#include <glib.h>
#include <string.h>

#define FILTER_SNAPLEN 262144
#define FILTER_LINKS 32

struct cli_filter {
    char *expr;
    GMutex lock;
    unsigned n;
    struct {
        int32_t dlt;
        bool ok;
        struct bpf_program prog;
    } link[FILTER_LINKS];
};

/* Compile for dlt; false and *err when libpcap cannot */
static bool compile(const char *expr, int32_t dlt, struct bpf_program *prog, char **err)
{
    pcap_t *dead = pcap_open_dead(dlt, FILTER_SNAPLEN);
    if (!dead) {
        *err = g_strdup("out of memory");
        return false;
    }
    bool ok = pcap_compile(dead, prog, expr, 1, PCAP_NETMASK_UNKNOWN) == 0;
    if (!ok)
        *err = g_strdup(pcap_geterr(dead));
    pcap_close(dead);
    return ok;
}

struct cli_filter *filter_new(const char *expr, char **err)
{
    struct bpf_program prog;
    if (!compile(expr, DLT_EN10MB, &prog, err))
        return NULL;
    struct cli_filter *f = g_new0(struct cli_filter, 1);
    f->expr = g_strdup(expr);
    g_mutex_init(&f->lock);
    f->link[0].dlt = DLT_EN10MB;
    f->link[0].ok = true;
    f->link[0].prog = prog;
    f->n = 1;
    return f;
}

void filter_free(struct cli_filter *f)
{
    if (!f)
        return;
    for (unsigned i = 0; i < f->n; i++)
        if (f->link[i].ok)
            pcap_freecode(&f->link[i].prog);
    g_mutex_clear(&f->lock);
    g_free(f->expr);
    g_free(f);
}

const char *filter_expr(const struct cli_filter *f)
{
    return f->expr;
}

const struct bpf_program *filter_prog(struct cli_filter *f, int32_t dlt, char **why)
{
    const struct bpf_program *p = NULL;
    *why = NULL;
    g_mutex_lock(&f->lock);
    unsigned i;
    for (i = 0; i < f->n; i++)
        if (f->link[i].dlt == dlt)
            break;
    if (i < f->n) {
        p = f->link[i].ok ? &f->link[i].prog : NULL;
    } else if (f->n == FILTER_LINKS) {
        *why = g_strdup_printf("the capture filter: more than %d link types in one run; frames "
                               "of link type %d are not analysed", FILTER_LINKS, dlt);
    } else {
        char *err = NULL;
        f->link[i].dlt = dlt;
        f->link[i].ok = dlt >= 0 && compile(f->expr, dlt, &f->link[i].prog, &err);
        f->n++;
        if (f->link[i].ok) {
            p = &f->link[i].prog;
        } else {
            const char *name = dlt >= 0 ? pcap_datalink_val_to_name(dlt) : NULL;
            *why = g_strdup_printf("the capture filter '%s' does not apply to link type %s (%d)%s%s; "
                                   "its frames are not analysed", f->expr, name ? name : "?", dlt,
                                   err ? ": " : "", err ? err : "");
            g_free(err);
        }
    }
    g_mutex_unlock(&f->lock);
    return p;
}
