/*
 * broker.c - the fixed-size protocol between csumcheck --live's analyser and
 * its privileged helper (broker.h): the checks both sides apply, and the
 * analyser's client that stands in for live_session_*.
 */
#define _GNU_SOURCE
#include "broker.h"
#include "live_int.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

size_t brk_payload_size(uint32_t type)
{
    switch (type) {
    case BRK_PREFLIGHT:
    case BRK_END: return 0;
    case BRK_START:
    case BRK_EXTEND: return sizeof(struct brk_setup);
    case BRK_RUN: return sizeof(struct brk_frame);
    case BRK_OPEN: return sizeof(struct brk_open);
    default: return SIZE_MAX;
    }
}

/* ---- checks ---- */

static bool terminated(const char *s, size_t n)
{
    return memchr(s, 0, n) != NULL;
}

/* The characters a planned line holds: names, numbers, addresses, '=' of
 * @sysctl. No quote, backslash, '#', newline: ip -batch would read them. */
static bool line_chars(const char *l)
{
    for (const char *p = l; *p; p++)
        if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9') &&
            !strchr(" ._:/=,+-@", *p))
            return false;
    return true;
}

/* Words that would reach beyond the namespace or read a file: another
 * namespace (netns, link-netns...), a batch or object file, a program */
static bool word_forbidden(const char *w, size_t l)
{
    static const char *const bad[] = { "netns", "link-netns", "link-netnsid", "-n", "-netns", "exec", "-b",
                                       "-batch", "-force", "obj", "object-file", "object-pinned", "pinned",
                                       "bpf", "xdp", "xdpgeneric", "xdpdrv", "xdpoffload", "file" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (strlen(bad[i]) == l && !memcmp(w, bad[i], l))
            return true;
    return false;
}

/* A line as the planner writes them (recv.c, plan.c): NULL or why not */
static const char *line_check(const char *l)
{
    if (!line_chars(l))
        return "a character no planned line holds";
    for (const char *p = l; *p;) {
        size_t k = strcspn(p, " ");
        if (word_forbidden(p, k))
            return "a word that reaches outside the namespace";
        p += k;
        p += strspn(p, " ");
    }
    if (!strncmp(l, "@vxlan ", 7) || !strncmp(l, "@gro ", 5))
        return NULL;
    if (!strncmp(l, "@sysctl ", 8)) {    /* the namespace's own net.* keys */
        for (const char *p = l + 8; *p;) {
            size_t k = strcspn(p, " ");
            if (strncmp(p, "net.", 4) || memchr(p, '/', k))
                return "@sysctl outside net.*";
            p += k;
            p += strspn(p, " ");
        }
        return NULL;
    }
    if (strncmp(l, "ip ", 3))
        return "not an ip line or a built-in";
    const char *o = l + 3;
    if (!strncmp(o, "-4 ", 3) || !strncmp(o, "-6 ", 3))
        o += 3;
    static const char *const objs[] = { "link ", "addr ", "address ", "route ", "neigh ", "fou ", "l2tp " };
    for (size_t i = 0; i < sizeof objs / sizeof *objs; i++)
        if (!strncmp(o, objs[i], strlen(objs[i])))
            return NULL;
    return "an ip object the planner does not use";
}

/* A frame as the planner writes it: its virtio-net header says
 * CHECKSUM_NONE or NEEDS_CSUM at a place (live_frame_partial), never GSO
 * (flags, gso_type, hdr_len, gso_size: bytes 0-5) */
static const char *frame_ok(const struct live_frame *f)
{
    if (f->len > LIVE_MAX_FRAME)
        return "a frame longer than a jumbo frame";
    if ((f->vnet[0] & ~1u) || f->vnet[1] || f->vnet[2] || f->vnet[3] || f->vnet[4] || f->vnet[5])
        return "a virtio-net header other than none or NEEDS_CSUM";
    return NULL;
}

/* n planned command lines, each terminated and of the planner's alphabet */
static const char *lines_check(const char (*cmds)[LIVE_CMD_LEN], int n, const char *unterminated)
{
    const char *why;
    for (int i = 0; i < n; i++) {
        if (!terminated(cmds[i], LIVE_CMD_LEN))
            return unterminated;
        if ((why = line_check(cmds[i])))
            return why;
    }
    return NULL;
}

const char *brk_setup_check(const struct live_setup *s)
{
    const char *why;
    if (!terminated(s->name, sizeof s->name))
        return "setup name not terminated";
    if (s->ncmds < 0 || s->ncmds > LIVE_MAX_CMDS || s->nsocks < 0 || s->nsocks > LIVE_MAX_SOCKS ||
        s->ndevs < 0 || s->ndevs > LIVE_MAX_DEVS || s->level < -1 || s->level > 2)
        return "a setup count out of range";
    if ((why = lines_check(s->cmds, s->ncmds, "a setup line not terminated")))
        return why;
    for (int i = 0; i < s->nsocks; i++)
        if (s->socks[i].kind > LIVE_TCP6)
            return "a socket of no kind";
    for (int d = 0; d < s->ndevs; d++) {
        const struct live_dev *v = &s->devs[d];
        if (!terminated(v->ifname, sizeof v->ifname) || !terminated(v->name, sizeof v->name))
            return "a device name not terminated";
        if (v->ncmds < 0 || v->ncmds > LIVE_MAX_DEV_CMDS || v->nsent < 0 || v->nsent > LIVE_MAX_SENT ||
            v->nwatch < 0 || v->nwatch > LIVE_MAX_WATCH)
            return "a device count out of range";
        if ((why = lines_check(v->cmds, v->ncmds, "a device line not terminated")))
            return why;
        for (int i = 0; i < v->nsent; i++)
            if (v->sent_sock[i] >= s->nsocks || (why = frame_ok(&v->sent[i])))
                return why ? why : "a sentinel without its socket";
        for (int i = 0; i < v->nwatch; i++)
            if (!terminated(v->watch[i], sizeof v->watch[i]))
                return "a watched link not terminated";
    }
    return NULL;
}

const char *brk_frame_check(const struct brk_frame *f)
{
    if (f->dev >= LIVE_MAX_DEVS && f->dev != 0xffff)
        return "a device out of range";
    return frame_ok(&f->fr);
}

const char *brk_reply_check(const struct brk_reply *r, uint32_t type, uint32_t seq)
{
    if (r->magic != BRK_MAGIC || r->type != type || r->seq != seq)
        return "a reply out of sequence";
    const struct live_obs *o = &r->o;
    if (o->n < 0 || o->n > LIVE_MAX_VALUES || !terminated(o->msg, sizeof o->msg))
        return "an observation out of range";
    if (o->status != LIVE_OK && o->status != LIVE_SKIPPED && o->status != LIVE_ERROR)
        return "an observation of no status";
    for (int i = 0; i < o->n; i++)
        if (!terminated(o->v[i].name, LIVE_NAME_LEN))
            return "a counter name not terminated";
    return NULL;
}

/* ---- I/O ---- */

int brk_read_full(int fd, void *buf, size_t n)
{
    return live_read_full(fd, buf, n);     /* the session's loop: EINTR retried, EOF an error */
}

int brk_write_full(int fd, const void *buf, size_t n)
{
    return live_io_full(LIVE_SEND, fd, (void *)(uintptr_t)buf, n);
}

int brk_send_fd(int sock, const void *buf, size_t n, int fd)
{
    union { struct cmsghdr h; char b[CMSG_SPACE(sizeof(int))]; } u;
    memset(&u, 0, sizeof u);
    struct iovec iov = { (void *)buf, n };
    struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
    if (fd >= 0) {
        m.msg_control = u.b;
        m.msg_controllen = sizeof u.b;
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof fd);
    }
    ssize_t w;
    while ((w = sendmsg(sock, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
    }
    if (w < 0)
        return -1;
    return brk_write_full(sock, (const char *)buf + w, n - (size_t)w);
}

int brk_recv_fd(int sock, void *buf, size_t n, int *fd)
{
    union { struct cmsghdr h; char b[CMSG_SPACE(sizeof(int))]; } u;
    struct iovec iov = { buf, n };
    struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.b, .msg_controllen = sizeof u.b };
    *fd = -1;
    ssize_t r;
    while ((r = recvmsg(sock, &m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
    }
    if (r <= 0)
        return -1;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int)))
            memcpy(fd, CMSG_DATA(c), sizeof *fd);
    if ((size_t)r < n && brk_read_full(sock, (char *)buf + r, n - (size_t)r)) {
        if (*fd >= 0)
            close(*fd), *fd = -1;
        return -1;
    }
    return 0;
}

/* ---- the analyser's client ---- */

/* The helper is gone: how it ended, said once on standard error. A seccomp
 * violation (SIGSYS) is named: the helper alone is killed by it. */
static void helper_gone(struct live_broker *b, const char *what)
{
    if (b->dead)
        return;
    b->dead = true;
    if (b->fd >= 0)
        close(b->fd), b->fd = -1;
    int st = 0;
    pid_t r = -1;
    for (int i = 0; i < 200 && b->pid > 0; i++) {   /* it is dying: up to 2 s */
        while ((r = waitpid(b->pid, &st, WNOHANG)) < 0 && errno == EINTR) {
        }
        if (r != 0)
            break;
        usleep(10000);
    }
    if (r == b->pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS)
        snprintf(b->why, sizeof b->why,
                 "the privileged helper (pid %d) was killed by its seccomp filter: it made a system call "
                 "outside its allow-list (SIGSYS); nothing more is replayed", b->pid);
    else if (r == b->pid && WIFSIGNALED(st))
        snprintf(b->why, sizeof b->why, "the privileged helper (pid %d) was killed by signal %d", b->pid,
                 WTERMSIG(st));
    else if (r == b->pid)
        snprintf(b->why, sizeof b->why, "the privileged helper (pid %d) exited (status %d): %s", b->pid,
                 WEXITSTATUS(st), what);
    else
        snprintf(b->why, sizeof b->why, "the privileged helper (pid %d) stopped answering: %s", b->pid, what);
    if (r == b->pid)
        b->pid = 0;
    fprintf(stderr, "csumcheck: --live: %s\n", b->why);
}

/* One request and its reply (fd: where BRK_OPEN's descriptor goes). 0, or
 * -1 with the helper declared gone. */
static int call(struct live_broker *b, uint32_t type, const void *payload, struct brk_reply *rep, int *fd,
                unsigned timeout_ms)
{
    if (b->dead || b->fd < 0)
        return -1;
    struct brk_hdr h = { BRK_MAGIC, type, ++b->seq, (uint32_t)brk_payload_size(type) };
    if (brk_write_full(b->fd, &h, sizeof h) || (h.len && brk_write_full(b->fd, payload, h.len))) {
        helper_gone(b, "its socket closed");
        return -1;
    }
    struct pollfd p = { b->fd, POLLIN, 0 };
    int pr;
    while ((pr = poll(&p, 1, (int)timeout_ms)) < 0 && errno == EINTR) {
    }
    int nfd = -1;
    if (pr <= 0 || brk_recv_fd(b->fd, rep, sizeof *rep, &nfd)) {
        helper_gone(b, pr == 0 ? "no reply in time" : "its socket closed");
        return -1;
    }
    const char *bad = brk_reply_check(rep, type, h.seq);
    if (bad) {
        if (nfd >= 0)
            close(nfd);
        helper_gone(b, bad);
        return -1;
    }
    if (fd)
        *fd = nfd;
    else if (nfd >= 0)
        close(nfd);
    return 0;
}

static struct brk_reply REP;        /* ~6 KB: one at a time */

int live_broker_preflight(struct live_broker *b, char *err, size_t n)
{
    if (call(b, BRK_PREFLIGHT, NULL, &REP, NULL, 30000)) {
        snprintf(err, n, "%s", b->why);
        return -1;
    }
    if (REP.rc)
        snprintf(err, n, "%s", REP.o.msg);
    return REP.rc ? -1 : 0;
}

static int session_call(struct live_broker *b, struct live_session *ss, uint32_t type, const struct live_setup *s,
                        unsigned timeout_s)
{
    static struct brk_setup bs;
    bs.timeout_s = timeout_s;
    bs.s = *s;
    unsigned ms = (timeout_s ? timeout_s : 600) * 1000u + 5000u;
    if (call(b, type, &bs, &REP, NULL, ms)) {
        snprintf(ss->msg, sizeof ss->msg, "%.199s", b->why);
        ss->status = LIVE_ERROR;
        ss->pid = 0;
        return -1;
    }
    snprintf(ss->msg, sizeof ss->msg, "%s", REP.o.msg);
    ss->status = REP.o.status;
    ss->pid = REP.rc == 0 ? b->pid : 0;   /* "a session is up" for the callers that look */
    return REP.rc;
}

int live_broker_start(struct live_broker *b, struct live_session *ss, const struct live_setup *s,
                      unsigned timeout_s)
{
    memset(ss, 0, sizeof *ss);
    ss->wfd = ss->rfd = -1;
    return session_call(b, ss, BRK_START, s, timeout_s);
}

int live_broker_extend(struct live_broker *b, struct live_session *ss, const struct live_setup *s,
                       unsigned timeout_s)
{
    return session_call(b, ss, BRK_EXTEND, s, timeout_s);
}

int live_broker_run(struct live_broker *b, struct live_session *ss, const struct live_batch *bt,
                    struct live_obs *o, unsigned timeout_ms)
{
    static struct brk_frame f;
    if (bt->nframes != 1) {         /* --live writes one frame a case */
        memset(o, 0, sizeof *o);
        o->id = bt->id;
        o->status = LIVE_ERROR;
        snprintf(o->msg, sizeof o->msg, "the helper takes one frame a case");
        return -1;
    }
    f.id = bt->id;
    f.dev = bt->dev;
    f.flags = bt->flags;
    f.timeout_ms = timeout_ms;
    f.fr = *bt->frames[0];
    if (call(b, BRK_RUN, &f, &REP, NULL, timeout_ms + 5000u)) {
        memset(o, 0, sizeof *o);
        o->id = bt->id;
        o->status = LIVE_ERROR;
        snprintf(o->msg, sizeof o->msg, "%.199s", b->why);
        snprintf(ss->msg, sizeof ss->msg, "%.199s", b->why);
        ss->pid = 0;
        return -1;
    }
    *o = REP.o;
    if (REP.rc) {
        snprintf(ss->msg, sizeof ss->msg, "%s", o->msg);
        ss->pid = 0;
    }
    return REP.rc;
}

void live_broker_end(struct live_broker *b, struct live_session *ss)
{
    if (!b->dead)
        call(b, BRK_END, NULL, &REP, NULL, 10000);
    ss->pid = 0;
}

int live_broker_open(struct live_broker *b, unsigned index, char *err, size_t n)
{
    struct brk_open op = { index };
    int fd = -1;
    if (call(b, BRK_OPEN, &op, &REP, &fd, 30000)) {
        snprintf(err, n, "%s", b->why);
        return -1;
    }
    if (REP.rc || fd < 0) {
        snprintf(err, n, "%s", REP.o.msg[0] ? REP.o.msg : "the helper sent no descriptor");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    return fd;
}

void live_broker_close(struct live_broker *b)
{
    if (b->fd >= 0)
        close(b->fd);
    b->fd = -1;
    if (b->pid > 0) {               /* its socket closed: it exits at its next read */
        int st;
        while (waitpid(b->pid, &st, 0) < 0 && errno == EINTR) {
        }
        b->pid = 0;
    }
}
