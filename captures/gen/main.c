/*
 * main.c - csc-gen, the project's capture generator.
 *
 *   csc-gen corpus [-o DIR] [FILE...]   write the committed corpus (or some files)
 *   csc-gen real corpus|manifest|list|cases ...   the same over the stand-ins
 *                                       for public captures (real.c)
 *   csc-gen manifest [FILE...]          intended verdict of every checksummed layer (TSV)
 *   csc-gen list [--markdown]           files, formats, frame counts and themes (TSV)
 *   csc-gen cases [--markdown] [FILE...] every case: file, first frame, name, what (TSV)
 *   csc-gen stack [OPTS] DESCRIPTION    one frame from a stack description
 *   csc-gen flow ...                    a TCP flow over VXLAN (flow.c)
 *   csc-gen bench ...                   large benchmark captures (flow.c)
 *
 * Output is deterministic: fixed timestamps, no randomness (the bench
 * shapes' random choices come from a seeded generator), so regenerating
 * gives identical bytes (scripts/regen-captures.sh checks it).
 */
#include "gen.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The table a command works on: the captures/ corpus, or the stand-ins
 * for public captures (real.c) with `csc-gen real ...`. */
static const struct gen_file *files = gen_files;
static size_t nfiles;

static const struct gen_file *find_file(const char *name)
{
    for (size_t i = 0; i < nfiles; i++)
        if (!strcmp(files[i].name, name))
            return &files[i];
    fprintf(stderr, "csc-gen: no file '%s' in the case table (csc-gen list)\n", name);
    return NULL;
}

/* Run fn over the files named in argv[first..], or all of them. */
static int each_file(int argc, char **argv, int first, int (*fn)(const struct gen_file *, void *),
                     void *ctx)
{
    int r = 0;
    if (first >= argc) {
        for (size_t i = 0; i < nfiles; i++)
            r |= fn(&files[i], ctx);
        return r;
    }
    for (int i = first; i < argc; i++) {
        const struct gen_file *gf = find_file(argv[i]);
        r |= gf ? fn(gf, ctx) : -1;
    }
    return r;
}

static int do_write(const struct gen_file *gf, void *ctx)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", (const char *)ctx, gf->name);
    return gen_write_file(gf, path, NULL);
}

static int do_manifest(const struct gen_file *gf, void *ctx)
{
    (void)ctx;
    return gen_write_file(gf, NULL, stdout);
}

/* Count frames by running the manifest into a temporary stream. */
static int frames_of(const struct gen_file *gf)
{
    FILE *tmp = tmpfile();
    if (!tmp)
        return -1;
    gen_write_file(gf, NULL, tmp);
    rewind(tmp);
    char line[1024];
    int last = 0;
    while (fgets(line, sizeof line, tmp)) {
        char *tab = strchr(line, '\t');
        if (tab)
            last = atoi(tab + 1);
    }
    fclose(tmp);
    return last;
}

static int do_list(const struct gen_file *gf, void *ctx)
{
    const char *fmt = gf->format == CAPW_PCAPNG ? "pcapng" : "pcap";
    if (ctx)
        printf("| [%s](%s) | %d | %s |\n", gf->name, gf->name, frames_of(gf), gf->theme);
    else
        printf("%s\t%s\t%d\t%s\n", gf->name, fmt, frames_of(gf), gf->theme);
    return 0;
}

static int do_cases(const struct gen_file *gf, void *ctx)
{
    int md = ctx != NULL;
    if (md)
        printf("\n## %s\n\n%s\n\n| frame | case | stack | what |\n|---|---|---|---|\n", gf->name, gf->theme);
    if (gf->flow) {
        const struct gen_flow *fl = gf->flow;
        char what[160];
        snprintf(what, sizeof what,
                 "%d segments of one TCP flow over VXLAN, %d payload bytes each, outer UDP checksum %s%s%s",
                 fl->segments, fl->payload, fl->outer_zero ? "zero" : "on",
                 fl->bad_seg ? ", one segment with a bad inner TCP checksum" : "",
                 fl->zero_seg ? ", one segment with it zero" : "");
        char bad[64] = "";
        if (fl->bad_seg)
            snprintf(bad, sizeof bad, " --bad-seg %d", fl->bad_seg);
        if (fl->zero_seg)
            snprintf(bad + strlen(bad), sizeof bad - strlen(bad), " --zero-seg %d", fl->zero_seg);
        if (md)
            printf("| 1-%d | flow | `csc-gen flow --segments %d --outer-csum %s%s --payload %d` | %s |\n",
                   fl->segments, fl->segments, fl->outer_zero ? "zero" : "on", bad, fl->payload, what);
        else
            printf("%s\t1-%d\tflow\t%s\n", gf->name, fl->segments, what);
        return 0;
    }
    /* frame numbers from the manifest: first frame of each case */
    FILE *tmp = tmpfile();
    if (!tmp)
        return -1;
    gen_write_file(gf, NULL, tmp);
    rewind(tmp);
    char line[1024], last[64] = "";
    while (fgets(line, sizeof line, tmp)) {
        char *save = NULL;
        strtok_r(line, "\t", &save);
        char *frame = strtok_r(NULL, "\t", &save), *cname = strtok_r(NULL, "\t", &save);
        if (!frame || !cname || !strcmp(cname, last))
            continue;
        snprintf(last, sizeof last, "%s", cname);
        for (size_t i = 0; i < gf->ncases; i++) {
            const struct gen_case *c = &gf->cases[i];
            if (strcmp(c->name, cname))
                continue;
            if (!md) {
                printf("%s\t%s\t%s\t%s\n", gf->name, frame, cname, c->what);
                continue;
            }
            char extra[64] = "";
            if (c->snaplen)
                snprintf(extra, sizeof extra, " (snaplen %u)", c->snaplen);
            else if (c->frag)
                snprintf(extra, sizeof extra, " (fragments of %u)", c->frag_mtu);
            printf("| %s | %s | `%s`%s | %s |\n", frame, cname, c->stack, extra, c->what);
        }
    }
    fclose(tmp);
    return 0;
}

static int cmd_stack(int argc, char **argv)
{
    const char *out = NULL;
    int fmt = CAPW_PCAP, dir = CAPW_DIR_NONE, hex = 0;
    unsigned long snap = 0;
    char desc[1024] = "";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-o") && v) { out = v; i++; }
        else if (!strcmp(a, "--pcapng")) fmt = CAPW_PCAPNG;
        else if (!strcmp(a, "--hex")) hex = 1;
        else if (!strcmp(a, "--snaplen") && v) { snap = strtoul(v, NULL, 0); i++; }
        else if (!strcmp(a, "--dir") && v) {
            dir = !strcmp(v, "in") ? CAPW_DIR_IN : !strcmp(v, "out") ? CAPW_DIR_OUT : -1;
            if (dir < 0)
                goto usage;
            i++;
        } else {
            size_t l = strlen(desc);
            snprintf(desc + l, sizeof desc - l, "%s%s", l ? " " : "", a);
        }
    }
    if (!desc[0] || (!out && !hex))
        goto usage;
    struct pb_frame f;
    char err[128];
    static uint8_t buf[70000];
    if (gen_parse(desc, &f, err, sizeof err)) {
        fprintf(stderr, "csc-gen stack: %s\n", err);
        return 2;
    }
    size_t len = pb_build(&f, buf, sizeof buf);
    if (!len) {
        fprintf(stderr, "csc-gen stack: frame does not fit\n");
        return 2;
    }
    if (hex) {
        for (size_t i = 0; i < len; i++)
            printf("%02x", buf[i]);
        printf("\n");
        struct gen_intent in[GEN_MAX_INTENT];
        size_t cap = snap && snap < len ? snap : len;
        int n = gen_intent_frame(&f, cap, in);
        for (int k = 0; k < n; k++)
            fprintf(stderr, "layer %d %s: %s\n", in[k].layer, in[k].proto, in[k].verdict);
    }
    if (out) {
        struct capw w;
        if (capw_open(&w, out, (enum capw_format)fmt, pb_linktype(&f), 262144)) {
            fprintf(stderr, "csc-gen stack: cannot write %s\n", out);
            return 2;
        }
        if (snap)
            w.snaplen = (uint32_t)snap;
        int r = capw_write(&w, GEN_T0_USEC, buf, (uint32_t)len, dir);
        r |= capw_close(&w);
        return r ? 2 : 0;
    }
    return 0;
usage:
    fprintf(stderr, "usage: csc-gen stack [--pcapng] [--dir in|out] [--snaplen N] [--hex] "
                    "[-o FILE|-] 'eth ipv4 udp:zero vxlan eth ipv4 tcp:bad pay:len=100'\n");
    return 2;
}

/* csc-gen interfaces: one pcapng file whose frames come from interfaces of
 * different link types and snapshot lengths, as a capture on several
 * interfaces is (libpcap 1.10 refuses such a file; csumcheck reads it with
 * libwiretap, issue 17). Each DESC is a frame; --snaplen and --dir apply to
 * the DESCs after them; one interface per (link type, snapshot length). */
static int cmd_interfaces(int argc, char **argv)
{
    const char *out = NULL;
    unsigned long snap = 262144;
    int dir = CAPW_DIR_NONE, r = 0;
    struct capw w;
    bool open = false;
    uint32_t if_lt[CAPW_IFACES], if_snap[CAPW_IFACES];
    unsigned nif = 0;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
    if (!out)
        goto usage;
    uint64_t ts = GEN_T0_USEC;
    for (int i = 1; i < argc && !r; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-o") && v) {
            i++;
        } else if (!strcmp(a, "--snaplen") && v) {
            snap = strtoul(v, NULL, 0);
            i++;
        } else if (!strcmp(a, "--dir") && v) {
            dir = !strcmp(v, "in") ? CAPW_DIR_IN : !strcmp(v, "out") ? CAPW_DIR_OUT : CAPW_DIR_NONE;
            i++;
        } else {
            struct pb_frame f;
            char err[128];
            static uint8_t buf[70000];
            if (gen_parse(a, &f, err, sizeof err)) {
                fprintf(stderr, "csc-gen interfaces: %s\n", err);
                return 2;
            }
            size_t len = pb_build(&f, buf, sizeof buf);
            uint32_t lt = pb_linktype(&f);
            unsigned k = 0;
            while (k < nif && (if_lt[k] != lt || if_snap[k] != snap))
                k++;
            if (!open) {
                if (capw_open(&w, out, CAPW_PCAPNG, lt, (uint32_t)snap))
                    return 2;
                open = true;
                if_lt[0] = lt;
                if_snap[0] = (uint32_t)snap;
                nif = 1;
                k = 0;
            } else if (k == nif) {
                int id = capw_add_interface(&w, lt, (uint32_t)snap);
                if (id < 0 || nif == CAPW_IFACES)
                    return 2;
                if_lt[nif] = lt;
                if_snap[nif++] = (uint32_t)snap;
            }
            r = !len || capw_write_if(&w, k, ts, buf, (uint32_t)len, dir);
            ts += GEN_STEP_USEC;
        }
    }
    if (!open)
        goto usage;
    r |= capw_close(&w);
    return r ? 2 : 0;
usage:
    fprintf(stderr, "usage: csc-gen interfaces -o FILE [--snaplen N] [--dir in|out] DESC "
                    "[[--snaplen N] [--dir in|out] DESC ...]\n");
    return 2;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: csc-gen corpus [-o DIR] [FILE...]   write the committed capture corpus\n"
            "       csc-gen real CMD ...                the same commands (corpus, manifest, list,\n"
            "                                           cases) over the stand-ins for public captures\n"
            "                                           (tests/data/real/gen__*, captures/gen/real.c)\n"
            "       csc-gen manifest [FILE...]          intended per-layer verdicts (TSV)\n"
            "       csc-gen list|cases [--markdown] [FILE...]  the case table\n"
            "       csc-gen stack [OPTS] DESCRIPTION    one frame (see captures/gen/spec.c)\n"
            "       csc-gen interfaces -o FILE [--snaplen N] [--dir in|out] DESC ...\n"
            "                                           a pcapng of several link types\n"
            "       csc-gen flow [OPTS] -o FILE|-       a TCP flow over VXLAN\n"
            "       csc-gen bench --size full|small --bytes N[K|M|G] [--bad-every K] -o FILE|-\n"
            "       csc-gen bench --flows N --frames M [--size full|small] -o FILE|-\n"
            "       csc-gen bench --bytes N|--frames N [--flows N] [--interleave turn|random|burst:N]\n"
            "                     [--size full|small|imix] [--tunnel vxlan,geneve,gre,ipip,plain,vxlan6]\n"
            "                     [--bad F] [--bad-layers ip,udp,inner-ip,tcp] [--random-payload] -o FILE|-\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage();
        return 2;
    }
    nfiles = gen_nfiles;
    if (!strcmp(argv[1], "real") && argc > 2) {
        files = gen_real_files;
        nfiles = gen_nreal_files;
        argc--;
        argv++;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "corpus")) {
        const char *dir = ".";
        int first = 2;
        if (argc > 3 && !strcmp(argv[2], "-o")) {
            dir = argv[3];
            first = 4;
        }
        return each_file(argc, argv, first, do_write, (void *)dir) ? 1 : 0;
    }
    if (!strcmp(cmd, "manifest")) {
        printf("#file\tframe\tcase\tlayer\tproto\tverdict\ttshark\twhat\n");
        return each_file(argc, argv, 2, do_manifest, NULL) ? 1 : 0;
    }
    if (!strcmp(cmd, "list") || !strcmp(cmd, "cases")) {
        int md = argc > 2 && !strcmp(argv[2], "--markdown");
        if (md && cmd[0] == 'c')
            printf("# The cases of the capture corpus\n\n"
                   "Generated by `scripts/regen-captures.sh` (`csc-gen cases --markdown`) from the\n"
                   "case table, captures/gen/cases.c; the stack language is described in\n"
                   "captures/gen/spec.c. Frame numbers are 1-based, as in Wireshark and in\n"
                   "csumcheck's JSON; a case cut into fragments or a flow spans several frames.\n");
        return each_file(argc, argv, md ? 3 : 2, cmd[0] == 'l' ? do_list : do_cases,
                         md ? (void *)1 : NULL) ? 1 : 0;
    }
    if (!strcmp(cmd, "stack"))
        return cmd_stack(argc - 1, argv + 1);
    if (!strcmp(cmd, "interfaces"))
        return cmd_interfaces(argc - 1, argv + 1);
    if (!strcmp(cmd, "flow"))
        return gen_cmd_flow(argc - 1, argv + 1);
    if (!strcmp(cmd, "bench"))
        return gen_cmd_bench(argc - 1, argv + 1);
    usage();
    return 2;
}
