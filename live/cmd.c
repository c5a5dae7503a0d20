/*
 * cmd.c - the lines of a setup (live.h): iproute2 lines as a reader would
 * type them, run in the namespace of the calling process - one by one
 * where they must, every other one in a single `ip -force -batch -` - and
 * the built-ins (netlink.c). A refusal is attributed to the device whose
 * line it was; one that says "this kernel has no such thing" is told apart
 * from a failure.
 */
#define _GNU_SOURCE
#include "live_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- commands ---- */

/* Refusals that mean "this kernel (or its module set) has no such thing",
 * as iproute2 words them: the setup is then skipped, loudly, not failed. */
static int unsupported(const char *out)
{
    static const char *const says[] = {
        "Unknown device type", "not supported", "Not supported", "Unknown family",
        "Family not found", "No such file or directory", "Unknown attribute",
        "unknown attribute", "Protocol not available",
    };
    for (size_t i = 0; i < sizeof says / sizeof *says; i++)
        if (strstr(out, says[i]))
            return 1;
    return 0;
}

static int run_argv(char *const argv[], char *err, size_t n)
{
    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) < 0) {
        snprintf(err, n, "pipe: %s", strerror(errno));
        return -1;
    }
    pid_t p = live_fork_pair(pfd, err, n);
    if (p < 0)
        return -1;
    if (p == 0) {
        dup2(pfd[1], 1);
        dup2(pfd[1], 2);
        execv(argv[0], argv);
        _exit(127);
    }
    close(pfd[1]);
    char out[512];
    size_t got = 0;
    ssize_t r;
    while ((r = read(pfd[0], out + got, sizeof out - 1 - got)) > 0 && got < sizeof out - 1)
        got += (size_t)r;
    out[got] = 0;
    char rest[256];
    while (read(pfd[0], rest, sizeof rest) > 0) {
    }
    close(pfd[0]);
    int st = 0;
    while (waitpid(p, &st, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    size_t o = 0;
    for (int i = 0; argv[i] && o < n; i++)
        o += (size_t)snprintf(err + o, n - o, "%s%s", i ? " " : "", argv[i]);
    if (o < n)
        snprintf(err + o, n - o, ": %s", got ? out : "failed");
    for (char *c = err; *c; c++)
        if (*c == '\n')
            *c = ' ';
    return unsupported(out) ? 1 : -1;
}

/* One setup line: split on spaces; "ip" and "tc" run the tools found by
 * live_find_tools, "@name" a built-in (netlink.c). */
int cmd_run_line(const struct live_tools *t, const char *line, char *err, size_t n)
{
    char buf[LIVE_CMD_LEN];
    char *argv[48];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *tok = strtok(buf, " \t"); tok && argc < 47; tok = strtok(NULL, " \t"))
        argv[argc++] = tok;
    argv[argc] = NULL;
    if (!argc)
        return 0;
    if (argv[0][0] == '@') {
        int rc = builtin_run(argc, argv, err, n);
        return rc < 0 && unsupported(err) ? 1 : rc;
    }
    char tool[sizeof t->ip];
    if (!strcmp(argv[0], "ip") || (!strcmp(argv[0], "tc") && t->tc[0])) {
        snprintf(tool, sizeof tool, "%s", argv[0][0] == 'i' ? t->ip : t->tc);
        argv[0] = tool;
    } else {
        snprintf(err, n, "setup line \"%s\": only ip, tc and built-ins run", line);
        return -1;
    }
    return run_argv(argv, err, n);
}

/* ---- the setup's lines ---- */

/* A line `ip ARGS` with no global option can go into one `ip -batch`,
 * except `ip fou` and `ip l2tp` (generic netlink): they exit on a refusal
 * ("RTNETLINK answers: ...", no "Command failed") and would end the batch,
 * the lines after them never run. */
static int batchable(const char *line)
{
    return !strncmp(line, "ip ", 3) && line[3] != '-' && strncmp(line + 3, "fou ", 4) != 0 &&
           strncmp(line + 3, "l2tp ", 5) != 0;
}

/* Where each batched line came from: a device index, or -1 (common). */
struct batch {
    char *text;
    size_t len, cap;
    int nlines;
    int16_t owner[LIVE_MAX_CMDS + LIVE_MAX_DEVS * LIVE_MAX_DEV_CMDS];
};

static void batch_add(struct batch *b, const char *line, int owner)
{
    size_t l = strlen(line + 3);
    if (b->len + l + 2 > b->cap) {
        size_t cap = (b->cap + l + 2) * 2;
        char *t = realloc(b->text, cap);
        if (!t)
            return;
        b->text = t;
        b->cap = cap;
    }
    memcpy(b->text + b->len, line + 3, l);
    b->len += l;
    b->text[b->len++] = '\n';
    b->owner[b->nlines++] = (int16_t)owner;
}

/* `ip -force -batch -`: every line runs, each refusal is reported as the
 * error text then "Command failed -:N". Output of the tool is collected
 * whole (a few KiB at most). */
static int run_batch(const struct live_tools *t, struct batch *b, cmd_fail_fn fail, void *ctx, char *err,
                     size_t n)
{
    if (!b->nlines)
        return 0;
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0) {
        snprintf(err, n, "pipe: %s", strerror(errno));
        return -1;
    }
    pid_t p = fork();
    if (p < 0) {
        snprintf(err, n, "fork: %s", strerror(errno));
        return -1;
    }
    if (p == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(out[1], 2);
        char *argv[] = { (char *)t->ip, (char *)"-force", (char *)"-batch", (char *)"-", NULL };
        execv(argv[0], argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    /* the whole batch fits the pipe buffer many times over; write, then read */
    size_t off = 0;
    while (off < b->len) {
        ssize_t w = write(in[1], b->text + off, b->len - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    close(in[1]);
    static char text[16384];
    size_t got = 0;
    ssize_t r;
    while ((r = read(out[0], text + got, sizeof text - 1 - got)) > 0 && got < sizeof text - 1)
        got += (size_t)r;
    text[got] = 0;
    close(out[0]);
    int st = 0;
    while (waitpid(p, &st, 0) < 0 && errno == EINTR) {
    }
    /* attribute each "Command failed -:N" to the line's owner, with the
     * error lines printed since the previous one */
    char *msg = text;
    int rc = 0;
    for (char *l = text; l && *l;) {
        char *nl = strchr(l, '\n');
        if (nl)
            *nl = 0;
        int line;
        if (sscanf(l, "Command failed -:%d", &line) == 1) {
            *l = 0;
            for (char *c = msg; *c; c++)
                if (*c == '\n' || *c == '\0')
                    *c = ' ';
            int owner = line >= 1 && line <= b->nlines ? b->owner[line - 1] : -1;
            if (owner >= 0) {
                fail(ctx, owner, unsupported(msg), msg);
            } else if (!rc) {
                snprintf(err, n, "ip -batch line %d: %s", line, msg);
                rc = -1;
            }
            msg = nl ? nl + 1 : l;
        } else if (nl) {
            *nl = '\n';
        }
        l = nl ? nl + 1 : NULL;
    }
    if (!rc && !(WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 1))) {
        /* a line that exits instead of returning ends the batch: the lines
         * after it never ran */
        for (char *c = msg; *c; c++)
            if (*c == '\n')
                *c = ' ';
        snprintf(err, n, "ip -batch ended early (status 0x%x) after: %.120s", st, msg);
        rc = -1;
    }
    return rc;
}

/* A built-in that changes a device the batch makes (@gro) runs after it */
static int after_batch(const char *line)
{
    return !strncmp(line, "@gro ", 5);
}

/* Lines that cannot be batched (built-ins, a global option) run one by one
 * first, in order; then every batchable line in one `ip -batch`, in order;
 * then the built-ins that change what the batch made. Built-ins and option
 * lines create things (a VXLAN device, a FOU port) and depend on nothing the
 * batch makes. */
int cmd_run_setup_lines(const struct live_tools *t, const struct live_setup *s, cmd_fail_fn fail, void *ctx,
                        char *err, size_t n)
{
    static struct batch b;
    b.len = 0;
    b.nlines = 0;
    for (int i = 0; i < s->ncmds; i++) {
        if (batchable(s->cmds[i]))
            batch_add(&b, s->cmds[i], -1);
        else if (cmd_run_line(t, s->cmds[i], err, n))
            return -1;
    }
    for (int d = 0; d < s->ndevs; d++)
        for (int i = 0; i < s->devs[d].ncmds; i++) {
            const char *line = s->devs[d].cmds[i];
            char e[180];
            if (batchable(line)) {
                batch_add(&b, line, d);
            } else if (after_batch(line)) {
                continue;
            } else {
                int rc = cmd_run_line(t, line, e, sizeof e);
                if (rc)
                    fail(ctx, d, rc > 0, e);
            }
        }
    int rc = run_batch(t, &b, fail, ctx, err, n);
    free(b.text);
    b.text = NULL;
    b.cap = 0;
    for (int d = 0; d < s->ndevs && !rc; d++)
        for (int i = 0; i < s->devs[d].ncmds; i++) {
            char e[180];
            int r = after_batch(s->devs[d].cmds[i]) ? cmd_run_line(t, s->devs[d].cmds[i], e, sizeof e) : 0;
            if (r)
                fail(ctx, d, r > 0, e);
        }
    return rc;
}

static const char *find_bin(const char *name, char *buf, size_t n)
{
    const char *dirs[] = { "/usr/sbin", "/sbin", "/usr/bin", "/bin" };
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        snprintf(buf, n, "%s/%s", dirs[i], name);
        if (access(buf, X_OK) == 0)
            return buf;
    }
    buf[0] = 0;
    return NULL;
}

int live_find_tools(struct live_tools *t)
{
    find_bin("tc", t->tc, sizeof t->tc);
    return find_bin("ip", t->ip, sizeof t->ip) ? 0 : -1;
}
