/*
 * job.c - setups and cases as text for an agent that runs them elsewhere
 * (csc-live-agent in a VM), and the agent's observations back. Text on
 * purpose: a job or a result can be read, diffed and replayed by hand.
 *
 *   csc-live-job 1
 *   setup NAME...                     one per namespace, then its lines:
 *   napi 0|1 / gro NS / level L
 *   extends 1                         it holds the setup before it and more: the same namespace, grown
 *   cmd LINE...                       an iproute2 line or a built-in
 *   sock udp4|udp6|tcp4|tcp6 PORT
 *   dev IFNAME LABEL...               a device, then its lines and sentinels:
 *   dcmd LINE...
 *   sent SOCK VNETHEX FRAMEHEX        a sentinel frame, read on socket SOCK
 *   case ID DEV                       a case on device DEV (index), then its frames:
 *   frame VNETHEX FRAMEHEX
 *
 *   csc-live-result 1
 *   release UNAME-R
 *   obs ID ok|skipped|error SETTLE_US RETRIES DISPUTED
 *   v NAME DELTA                      every counter that moved
 *   msg TEXT
 *   end
 */
#define _GNU_SOURCE
#include "live_int.h"

#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/utsname.h>

#define JOB_MAGIC "csc-live-job 1"
#define RESULT_MAGIC "csc-live-result 1"

static const char *const SOCK_NAMES[] = { "udp4", "udp6", "tcp4", "tcp6" };
static const char *const STATUS_NAMES[] = { "ok", "skipped", "error" };

static void put_hex(FILE *f, const uint8_t *p, size_t n)
{
    static const char hx[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        fputc(hx[p[i] >> 4], f);
        fputc(hx[p[i] & 15], f);
    }
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Parse hex from *s up to a space or the end; returns the length, -1 on error. */
static long get_hex(char **s, uint8_t *out, size_t cap)
{
    char *p = *s;
    while (*p == ' ')
        p++;
    size_t n = 0;
    while (*p && *p != ' ' && *p != '\n') {
        int a = hexval(p[0]), b = a < 0 ? -1 : hexval(p[1]);
        if (b < 0 || n >= cap)
            return -1;
        out[n++] = (uint8_t)(a << 4 | b);
        p += 2;
    }
    *s = p;
    return (long)n;
}

static void put_frame(FILE *f, const struct live_frame *fr)
{
    put_hex(f, fr->vnet, sizeof fr->vnet);
    fputc(' ', f);
    put_hex(f, fr->data, fr->len);
    fputc('\n', f);
}

static int get_frame(char *s, struct live_frame *fr)
{
    if (get_hex(&s, fr->vnet, sizeof fr->vnet) != (long)sizeof fr->vnet)
        return -1;
    long n = get_hex(&s, fr->data, sizeof fr->data);
    if (n < 0)
        return -1;
    fr->len = (uint16_t)n;
    return 0;
}

void live_job_begin(FILE *f)
{
    fprintf(f, "%s\n", JOB_MAGIC);
}

void live_job_setup(FILE *f, const struct live_setup *s)
{
    fprintf(f, "setup %s\npin %u\nnapi %u\ngro %u\nlevel %d\n", s->name, s->pin, s->napi, s->gro_flush_ns,
            s->level);
    if (s->extends)
        fprintf(f, "extends 1\n");
    for (int i = 0; i < s->ncmds; i++)
        fprintf(f, "cmd %s\n", s->cmds[i]);
    for (int i = 0; i < s->nsocks; i++)
        fprintf(f, "sock %s %u\n", SOCK_NAMES[s->socks[i].kind & 3], s->socks[i].port);
    for (int d = 0; d < s->ndevs; d++) {
        const struct live_dev *dev = &s->devs[d];
        fprintf(f, "dev %s %s\n", dev->ifname, dev->name);
        for (int i = 0; i < dev->ncmds; i++)
            fprintf(f, "dcmd %s\n", dev->cmds[i]);
        for (int i = 0; i < dev->nwatch; i++)
            fprintf(f, "watch %s\n", dev->watch[i]);
        if (dev->to_host)
            fprintf(f, "tohost 1\n");
        for (int i = 0; i < dev->nsent; i++) {
            fprintf(f, "sent %u ", dev->sent_sock[i]);
            put_frame(f, &dev->sent[i]);
        }
    }
}

void live_job_case(FILE *f, const struct live_case *c)
{
    fprintf(f, "case %d %u\n", c->id, c->dev);
    for (int i = 0; i < c->nframes; i++) {
        fputs("frame ", f);
        put_frame(f, &c->frames[i]);
    }
}

void live_job_batch(FILE *f, const struct live_batch *b)
{
    fprintf(f, "case %d %u\n", b->id, b->dev);
    for (int i = 0; i < b->nframes; i++) {
        fputs("frame ", f);
        put_frame(f, b->frames[i]);
    }
}

/* ---- reading a job ---- */

/* An unsigned number that is all of s, at most max. */
static int get_uint(const char *s, unsigned long max, unsigned long *out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    unsigned long v = strtoul(s, &end, 10);
    if (*end || v > max)
        return -1;
    *out = v;
    return 0;
}

/* What the streaming reader holds: the setup being read and the case being
 * read (its frames), sent on as soon as the next line shows it complete. */
struct job_reader {
    const struct live_job_stream *st;
    struct live_setup s;
    int setup_sent;              /* setup_fn was called for s */
    int in_case;
    struct live_batch b;
    struct live_frame frames[LIVE_MAX_BATCH];
};

static int send_setup(struct job_reader *jr)
{
    if (jr->setup_sent)
        return 0;
    jr->setup_sent = 1;
    return jr->st->setup_fn ? jr->st->setup_fn(jr->st->ctx, &jr->s) : 0;
}

static int send_case(struct job_reader *jr)
{
    if (!jr->in_case)
        return 0;
    jr->in_case = 0;
    return jr->st->case_fn ? jr->st->case_fn(jr->st->ctx, &jr->b) : 0;
}

/* The setup's yes/no lines: "KEY 0|1" into one uint8_t of the setup */
static const struct {
    const char *key;
    size_t off;
} SETUP_FLAGS[] = {
    { "napi ", offsetof(struct live_setup, napi) },
    { "extends ", offsetof(struct live_setup, extends) },
    { "pin ", offsetof(struct live_setup, pin) },
};

/* One line of a setup's description into s; 0 ok, -1 malformed. */
static int setup_line(struct live_setup *s, char *line, char *arg)
{
    unsigned long v;
    for (size_t i = 0; i < sizeof SETUP_FLAGS / sizeof SETUP_FLAGS[0]; i++)
        if (!strncmp(line, SETUP_FLAGS[i].key, strlen(SETUP_FLAGS[i].key))) {
            if (get_uint(arg, 1, &v))
                return -1;
            *((uint8_t *)s + SETUP_FLAGS[i].off) = (uint8_t)v;
            return 0;
        }
    if (!strncmp(line, "gro ", 4)) {
        if (get_uint(arg, 1000000000, &v))
            return -1;
        s->gro_flush_ns = (uint32_t)v;
    } else if (!strncmp(line, "level ", 6)) {
        if (!strcmp(arg, "-1"))
            s->level = -1;
        else if (get_uint(arg, 3, &v))
            return -1;
        else
            s->level = (int8_t)v;
    } else if (!strncmp(line, "cmd ", 4)) {
        if (s->ncmds >= LIVE_MAX_CMDS || strlen(arg) >= LIVE_CMD_LEN)
            return -1;
        snprintf(s->cmds[s->ncmds++], LIVE_CMD_LEN, "%s", arg);
    } else if (!strncmp(line, "sock ", 5)) {
        char kind[8];
        unsigned port;
        if (s->nsocks >= LIVE_MAX_SOCKS || sscanf(arg, "%7s %u", kind, &port) != 2 || port > 65535)
            return -1;
        int k = -1;
        for (int i = 0; i < 4; i++)
            if (!strcmp(kind, SOCK_NAMES[i]))
                k = i;
        if (k < 0)
            return -1;
        s->socks[s->nsocks++] = (struct live_sock){ (uint8_t)k, (uint16_t)port };
    } else if (!strncmp(line, "dev ", 4)) {
        if (s->ndevs >= LIVE_MAX_DEVS)
            return -1;
        struct live_dev *d = &s->devs[s->ndevs++];
        memset(d, 0, sizeof *d);
        char *label = strchr(arg, ' ');
        size_t il = label ? (size_t)(label - arg) : strlen(arg);
        if (!il || il >= sizeof d->ifname)
            return -1;
        memcpy(d->ifname, arg, il);
        snprintf(d->name, sizeof d->name, "%s", label ? label + 1 : arg);
    } else if (!strncmp(line, "dcmd ", 5)) {
        struct live_dev *d = s->ndevs ? &s->devs[s->ndevs - 1] : NULL;
        if (!d || d->ncmds >= LIVE_MAX_DEV_CMDS || strlen(arg) >= LIVE_CMD_LEN)
            return -1;
        snprintf(d->cmds[d->ncmds++], LIVE_CMD_LEN, "%s", arg);
    } else if (!strncmp(line, "watch ", 6)) {
        struct live_dev *d = s->ndevs ? &s->devs[s->ndevs - 1] : NULL;
        if (!d || d->nwatch >= LIVE_MAX_WATCH || !arg[0] || strlen(arg) >= sizeof d->watch[0])
            return -1;
        snprintf(d->watch[d->nwatch++], sizeof d->watch[0], "%s", arg);
    } else if (!strncmp(line, "tohost ", 7)) {
        struct live_dev *d = s->ndevs ? &s->devs[s->ndevs - 1] : NULL;
        if (!d || get_uint(arg, 1, &v))
            return -1;
        d->to_host = (uint8_t)v;
    } else if (!strncmp(line, "sent ", 5)) {
        struct live_dev *d = s->ndevs ? &s->devs[s->ndevs - 1] : NULL;
        char *p = arg;
        unsigned long sk = strtoul(p, &p, 10);
        if (!d || d->nsent >= LIVE_MAX_SENT || p == arg || sk >= (unsigned long)s->nsocks ||
            get_frame(p, &d->sent[d->nsent]))
            return -1;
        d->sent_sock[d->nsent++] = (uint8_t)sk;
    } else if (line[0]) {
        return -1;
    }
    return 0;
}

/* One line of a job; 0 ok, -1 malformed or a callback said stop (-2). */
static int job_line(struct job_reader *jr, char *line, size_t len)
{
    char *arg = strchr(line, ' ');
    arg = arg ? arg + 1 : line + len;
    if (!strncmp(line, "case ", 5)) {
        int id, dev, used;
        if (sscanf(arg, "%d %d%n", &id, &dev, &used) != 2 || arg[used] || dev < 0 || dev >= jr->s.ndevs)
            return -1;
        if (send_case(jr) || send_setup(jr))
            return -2;
        memset(&jr->b, 0, sizeof jr->b);
        jr->b.id = id;
        jr->b.dev = (uint8_t)dev;
        jr->in_case = 1;
        return 0;
    }
    if (!strncmp(line, "frame ", 6)) {
        struct live_batch *b = &jr->b;
        unsigned max = jr->st->max_frames && jr->st->max_frames < LIVE_MAX_BATCH ? jr->st->max_frames
                                                                                 : LIVE_MAX_BATCH;
        if (!jr->in_case || b->nframes >= max || get_frame(arg, &jr->frames[b->nframes]))
            return -1;
        b->frames[b->nframes] = &jr->frames[b->nframes];
        b->nframes++;
        return 0;
    }
    if (jr->setup_sent)
        return -1;                /* a setup's lines come before its cases */
    return setup_line(&jr->s, line, arg);
}

int live_job_read_stream(FILE *job, const struct live_job_stream *st, char *err, size_t errn)
{
    static struct job_reader jr;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int lineno = 0, setups = 0, have = 0, rc = 0;
    memset(&jr, 0, sizeof jr);
    jr.st = st;
    while (rc >= 0 && (len = getline(&line, &cap, job)) > 0) {
        lineno++;
        if (line[len - 1] == '\n')
            line[--len] = 0;
        if (lineno == 1) {
            if (strcmp(line, JOB_MAGIC)) {
                snprintf(err, errn, "not a job (%s expected): %.60s", JOB_MAGIC, line);
                rc = -1;
            }
            continue;
        }
        if (!strncmp(line, "setup ", 6)) {
            if (have && (send_case(&jr) || send_setup(&jr))) {
                snprintf(err, errn, "stopped at line %d", lineno);
                rc = -1;
                break;
            }
            memset(&jr.s, 0, sizeof jr.s);
            snprintf(jr.s.name, sizeof jr.s.name, "%s", line + 6);
            jr.s.level = -1;
            jr.setup_sent = 0;
            jr.in_case = 0;
            have = 1;
            setups++;
            continue;
        }
        int r = have ? job_line(&jr, line, (size_t)len) : -1;
        if (r == -2) {
            snprintf(err, errn, "stopped at line %d", lineno);
            rc = -1;
        } else if (r) {
            snprintf(err, errn, "malformed job line %d: %.80s", lineno, line);
            rc = -1;
        }
    }
    if (rc >= 0 && !lineno) {
        snprintf(err, errn, "empty job");
        rc = -1;
    }
    if (rc >= 0 && have && (send_case(&jr) || send_setup(&jr))) {
        snprintf(err, errn, "stopped at the end");
        rc = -1;
    }
    free(line);
    return rc < 0 ? -1 : setups;
}

/* live_job_read: the stream gathered per setup */
struct job_setup {
    live_job_fn fn;
    void *ctx;
    struct live_setup s;
    struct live_case *cases;
    size_t n, cap;
    int have;
};

static int flush_setup(struct job_setup *js)
{
    if (!js->have)
        return 0;
    js->have = 0;
    return js->fn(js->ctx, &js->s, js->cases, js->n);
}

static int gather_setup(void *ctx, const struct live_setup *s)
{
    struct job_setup *js = ctx;
    if (flush_setup(js))
        return -1;
    js->s = *s;
    js->n = 0;
    js->have = 1;
    return 0;
}

static int gather_case(void *ctx, const struct live_batch *b)
{
    struct job_setup *js = ctx;
    if (b->nframes > LIVE_MAX_FRAMES)
        return -1;
    if (js->n == js->cap) {
        size_t cap = js->cap ? js->cap * 2 : 64;
        struct live_case *c = realloc(js->cases, cap * sizeof *c);
        if (!c)
            return -1;
        js->cases = c;
        js->cap = cap;
    }
    struct live_case *c = &js->cases[js->n++];
    memset(c, 0, sizeof *c);
    c->id = b->id;
    c->dev = b->dev;
    c->nframes = (uint8_t)b->nframes;
    for (int i = 0; i < b->nframes; i++)
        c->frames[i] = *b->frames[i];
    return 0;
}

int live_job_read(FILE *job, live_job_fn fn, void *ctx, char *err, size_t errn)
{
    static struct job_setup js;
    js.fn = fn;
    js.ctx = ctx;
    js.n = 0;
    js.have = 0;
    struct live_job_stream st = { gather_setup, gather_case, &js, LIVE_MAX_FRAMES };
    int rc = live_job_read_stream(job, &st, err, errn);
    if (rc >= 0 && flush_setup(&js))
        rc = -1;
    free(js.cases);
    js.cases = NULL;
    js.cap = js.n = 0;
    return rc;
}

/* ---- the agent ---- */

void live_result_begin(FILE *out, const char *release)
{
    fprintf(out, "%s\nrelease %s\n", RESULT_MAGIC, release);
}

void live_result_write(FILE *out, const struct live_obs *o)
{
    fprintf(out, "obs %d %s %u %u %u\n", o->id, STATUS_NAMES[o->status >= 0 && o->status <= 2 ? o->status : 2],
            o->settle_us, o->retries, o->disputed);
    for (int k = 0; k < o->n; k++)
        fprintf(out, "v %s %lld\n", o->v[k].name, (long long)o->v[k].delta);
    if (o->msg[0])
        fprintf(out, "msg %s\n", o->msg);
    fputs("end\n", out);
}

struct agent {
    const struct live_tools *t;
    FILE *out;
    unsigned timeout_s;
    int failed;
    struct live_setup s;         /* the setup read last */
    int started, start_rc, bad;  /* its session: started, live_session_start's answer */
    int grow;                    /* s extends the session's setup: grow it at the next case */
    struct live_session ss;
};

static void agent_end_setup(struct agent *a)
{
    if (a->started)
        live_session_end(&a->ss);
    a->failed += a->bad;
    a->started = a->bad = 0;
}

/* A setup is made when its first case arrives (a setup without cases costs
 * nothing) and ended when the next setup begins - unless the next one
 * extends it: then its namespace grows to the next one. */
static int agent_setup(void *ctx, const struct live_setup *s)
{
    struct agent *a = ctx;
    if (s->extends && a->started && !a->start_rc && a->ss.pid > 0) {
        a->s = *s;                   /* the namespace goes on */
        a->grow = 1;
        return 0;
    }
    agent_end_setup(a);
    a->s = *s;
    a->grow = 0;
    return 0;
}

/* Run one case in the current setup and write its observation at once. */
static int agent_case(void *ctx, const struct live_batch *b)
{
    struct agent *a = ctx;
    static struct live_obs o;
    if (a->grow) {                   /* a setup it cannot grow to is made afresh */
        a->grow = 0;
        if (live_session_extend(&a->ss, &a->s, a->timeout_s))
            agent_end_setup(a);
    }
    if (!a->started) {
        a->started = 1;
        a->start_rc = live_session_start(&a->ss, a->t, &a->s, a->timeout_s);
        a->bad |= a->start_rc != 0;
    }
    if (a->start_rc) {
        memset(&o, 0, sizeof o);
        o.id = b->id;
        o.status = a->start_rc > 0 ? LIVE_SKIPPED : LIVE_ERROR;
        snprintf(o.msg, sizeof o.msg, "setup: %.190s", a->ss.msg);
    } else if (!b->nframes) {
        memset(&o, 0, sizeof o);
        o.id = b->id;
        o.status = LIVE_ERROR;
        snprintf(o.msg, sizeof o.msg, "a case without frames");
    } else {
        live_session_run(&a->ss, b, &o, 120000);
    }
    live_result_write(a->out, &o);
    fflush(a->out);
    a->bad |= o.status != LIVE_OK;
    return 0;
}

int live_agent(const struct live_tools *t, FILE *job, FILE *out, unsigned timeout_s)
{
    struct utsname u;
    if (uname(&u) < 0)
        snprintf(u.release, sizeof u.release, "unknown");
    live_result_begin(out, u.release);
    static struct agent a;
    memset(&a, 0, sizeof a);
    a.t = t;
    a.out = out;
    a.timeout_s = timeout_s;
    struct live_job_stream st = { agent_setup, agent_case, &a, 0 };
    char err[160];
    int rc = live_job_read_stream(job, &st, err, sizeof err);
    agent_end_setup(&a);
    if (rc < 0) {
        fprintf(out, "error %s\n", err);
        return -1;
    }
    return a.failed;
}

/* ---- reading the agent's output ---- */

int live_result_read(FILE *f, char *release, size_t rn,
                     void (*cb)(void *ctx, const struct live_obs *o), void *ctx)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int lineno = 0, count = 0, in = 0;
    static struct live_obs o;
    if (rn)
        release[0] = 0;
    while ((len = getline(&line, &cap, f)) > 0) {
        lineno++;
        if (line[len - 1] == '\n')
            line[--len] = 0;
        if (lineno == 1) {
            if (strcmp(line, RESULT_MAGIC))
                goto bad;
        } else if (!strncmp(line, "release ", 8)) {
            snprintf(release, rn, "%s", line + 8);
        } else if (!strncmp(line, "obs ", 4)) {
            char st[16];
            unsigned settle, retries, disputed;
            memset(&o, 0, sizeof o);
            if (sscanf(line + 4, "%d %15s %u %u %u", &o.id, st, &settle, &retries, &disputed) != 5)
                goto bad;
            o.disputed = disputed;
            o.status = LIVE_ERROR;
            for (int i = 0; i < 3; i++)
                if (!strcmp(st, STATUS_NAMES[i]))
                    o.status = i;
            o.settle_us = settle;
            o.retries = retries;
            in = 1;
        } else if (in && !strncmp(line, "v ", 2)) {
            char name[LIVE_NAME_LEN];
            long long d;
            if (sscanf(line + 2, "%47s %lld", name, &d) != 2)
                goto bad;
            obs_add(&o, name, d);
        } else if (in && !strncmp(line, "msg ", 4)) {
            snprintf(o.msg, sizeof o.msg, "%s", line + 4);
        } else if (in && !strcmp(line, "end")) {
            cb(ctx, &o);
            count++;
            in = 0;
        } else if (!strncmp(line, "error ", 6)) {
            fprintf(stderr, "live: agent: %s\n", line + 6);
            goto bad;
        } else {
            goto bad;
        }
    }
    free(line);
    return count;
bad:
    free(line);
    return -1;
}
