/*
 * session.c - one setup in a child process, fed one batch at a time over a
 * pipe (live.h: live_session_*). What `csumcheck --live` streams a capture
 * through on this machine, and what csc-live-agent runs a job's setups with.
 *
 * The child is live_run_setup's: its own network and mount namespaces,
 * PR_SET_PDEATHSIG(SIGKILL) so it never outlives its parent, an alarm over
 * its whole life. It answers every batch with one struct live_obs; the
 * first answer (id -1) says whether the setup was made.
 *
 * Wire format (the same binary on both ends of a pipe): a batch is
 * struct wire_batch, then per frame struct wire_frame and its bytes.
 */
#define _GNU_SOURCE
#include "live_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WIRE_MAGIC 0x63736c62u   /* "cslb" */
#define WIRE_SETUP 0x63736c73u   /* "csls": a struct live_setup follows, to extend the child's to */

struct wire_batch {
    uint32_t magic;
    int32_t id;
    uint16_t dev, nframes;
    uint32_t flags;                    /* live_batch.flags */
};

struct wire_frame {
    uint8_t vnet[10];
    uint16_t len;
};

/* The child: make the setup, say how it went, then answer batches until
 * the pipe closes. */
static void child_main(const struct live_tools *t, const struct live_setup *s, int rfd, int wfd,
                       unsigned timeout_s)
{
    static struct live_frame frames[LIVE_MAX_BATCH];
    static struct live_batch b;
    static struct live_obs o;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1)
        _exit(3);                      /* the parent died before the line above */
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_IGN);           /* the parent decides when this ends */
    signal(SIGTERM, SIG_DFL);
    alarm(timeout_s);
    memset(&o, 0, sizeof o);
    o.id = -1;
    int st = live_setup(t, s, o.msg, sizeof o.msg);
    o.status = st ? LIVE_ERROR : LIVE_OK;
    if (live_write_full(wfd, &o, sizeof o))
        _exit(3);
    if (st)
        _exit(0);
    for (;;) {
        struct wire_batch wb;
        if (live_read_full(rfd, &wb, sizeof wb))
            _exit(0);                  /* the parent is done */
        if (wb.magic == WIRE_SETUP) {  /* more of the setup: answered as the setup is (id -1) */
            static struct live_setup more;
            if (live_read_full(rfd, &more, sizeof more))
                _exit(4);
            alarm(wb.flags);
            memset(&o, 0, sizeof o);
            o.id = -1;
            o.status = live_setup_extend(&more, o.msg, sizeof o.msg) ? LIVE_ERROR : LIVE_OK;
            if (live_write_full(wfd, &o, sizeof o))
                _exit(3);
            if (o.status != LIVE_OK)
                _exit(0);
            continue;
        }
        if (wb.magic != WIRE_MAGIC || wb.nframes > LIVE_MAX_BATCH)
            _exit(4);
        b.id = wb.id;
        b.dev = (uint8_t)wb.dev;
        b.nframes = wb.nframes;
        b.flags = (uint8_t)wb.flags;
        for (unsigned i = 0; i < wb.nframes; i++) {
            struct wire_frame wf;
            if (live_read_full(rfd, &wf, sizeof wf) || wf.len > LIVE_MAX_FRAME)
                _exit(4);
            memcpy(frames[i].vnet, wf.vnet, sizeof wf.vnet);
            frames[i].len = wf.len;
            if (live_read_full(rfd, frames[i].data, wf.len))
                _exit(4);
            b.frames[i] = &frames[i];
        }
        if (wb.dev == 0xffff) {        /* no device: an empty answer */
            memset(&o, 0, sizeof o);
            o.id = b.id;
            o.status = LIVE_ERROR;
            snprintf(o.msg, sizeof o.msg, "no device for this case");
        } else {
            live_run_batch(&b, &o);
        }
        if (live_write_full(wfd, &o, sizeof o))
            _exit(3);
    }
}

static void reap_ending(int wait);

int live_session_start(struct live_session *ss, const struct live_tools *t, const struct live_setup *s,
                       unsigned timeout_s)
{
    int64_t t0 = live_now_us();
    reap_ending(0);
    memset(ss, 0, sizeof *ss);
    ss->wfd = ss->rfd = -1;
    ss->status = LIVE_ERROR;
    int to[2], from[2];
    if (pipe2(to, O_CLOEXEC) < 0) {
        snprintf(ss->msg, sizeof ss->msg, "pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe2(from, O_CLOEXEC) < 0) {
        snprintf(ss->msg, sizeof ss->msg, "pipe: %s", strerror(errno));
        close(to[0]);
        close(to[1]);
        return -1;
    }
    fflush(NULL);
    pid_t p = fork();
    if (p < 0) {
        snprintf(ss->msg, sizeof ss->msg, "fork: %s", strerror(errno));
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        return -1;
    }
    if (p == 0) {
        close(to[1]);
        close(from[0]);
        child_main(t, s, to[0], from[1], timeout_s);
        _exit(0);
    }
    close(to[0]);
    close(from[1]);
    ss->pid = p;
    ss->wfd = to[1];
    ss->rfd = from[0];
    struct live_obs o;
    /* the setup itself: tens of ms to a few seconds (its sentinels' warm-up) */
    struct pollfd pfd = { ss->rfd, POLLIN, 0 };
    int pr;
    while ((pr = poll(&pfd, 1, (int)(timeout_s ? timeout_s : 600) * 1000)) < 0 && errno == EINTR) {
    }
    if (pr <= 0 || live_read_full(ss->rfd, &o, sizeof o)) {
        snprintf(ss->msg, sizeof ss->msg, "the namespace's process %s while making the setup",
                 pr == 0 ? "gave no answer" : "ended");
        live_session_end(ss);
        return -1;
    }
    if (o.status != LIVE_OK) {
        snprintf(ss->msg, sizeof ss->msg, "%s", o.msg);
        ss->status = o.status;
        live_session_end(ss);
        return o.status == LIVE_SKIPPED ? 1 : -1;
    }
    ss->status = LIVE_OK;
    if (getenv("CSC_LIVE_PROFILE"))
        fprintf(stderr, "parent: session started in %lld us\n", (long long)(live_now_us() - t0));
    return 0;
}

int live_session_extend(struct live_session *ss, const struct live_setup *s, unsigned timeout_s)
{
    int64_t t0 = live_now_us();
    if (ss->pid <= 0) {
        snprintf(ss->msg, sizeof ss->msg, "the namespace is gone");
        return -1;
    }
    struct wire_batch wb = { WIRE_SETUP, -1, 0, 0, timeout_s };
    struct live_obs o;
    struct pollfd pfd = { ss->rfd, POLLIN, 0 };
    int pr = -1;
    if (!live_write_full(ss->wfd, &wb, sizeof wb) && !live_write_full(ss->wfd, s, sizeof *s))
        while ((pr = poll(&pfd, 1, (int)(timeout_s ? timeout_s : 600) * 1000)) < 0 && errno == EINTR) {
        }
    int got = pr > 0 && !live_read_full(ss->rfd, &o, sizeof o);
    if (!got || o.status != LIVE_OK) {
        snprintf(ss->msg, sizeof ss->msg, "%s",
                 got && o.msg[0] ? o.msg : "the namespace's process ended while its setup grew");
        live_session_end(ss);
        return -1;
    }
    if (getenv("CSC_LIVE_PROFILE"))
        fprintf(stderr, "parent: session grown in %lld us\n", (long long)(live_now_us() - t0));
    return 0;
}

static void obs_error(struct live_obs *o, int32_t id, const char *msg)
{
    memset(o, 0, sizeof *o);
    o->id = id;
    o->status = LIVE_ERROR;
    snprintf(o->msg, sizeof o->msg, "%s", msg);
}

int live_session_run(struct live_session *ss, const struct live_batch *b, struct live_obs *o,
                     unsigned timeout_ms)
{
    if (ss->pid <= 0) {
        obs_error(o, b->id, ss->msg[0] ? ss->msg : "the namespace is gone");
        return -1;
    }
    struct wire_batch wb = { WIRE_MAGIC, b->id, b->dev, b->nframes, b->flags };
    int bad = live_write_full(ss->wfd, &wb, sizeof wb);
    for (unsigned i = 0; !bad && i < b->nframes; i++) {
        struct wire_frame wf;
        memcpy(wf.vnet, b->frames[i]->vnet, sizeof wf.vnet);
        wf.len = b->frames[i]->len;
        bad = live_write_full(ss->wfd, &wf, sizeof wf) || live_write_full(ss->wfd, b->frames[i]->data, wf.len);
    }
    int64_t tw = live_now_us();
    struct pollfd pfd = { ss->rfd, POLLIN, 0 };
    int pr = 0;
    if (!bad)
        while ((pr = poll(&pfd, 1, (int)timeout_ms)) < 0 && errno == EINTR) {
        }
    if (bad || pr <= 0 || live_read_full(ss->rfd, o, sizeof *o)) {
        snprintf(ss->msg, sizeof ss->msg, "%s",
                 !bad && pr == 0 ? "no answer in time: the namespace was ended"
                                 : "the namespace's process ended (its time limit, or a signal)");
        obs_error(o, b->id, ss->msg);
        live_session_end(ss);
        return -1;
    }
    static int prof = -1;
    if (prof < 0)
        prof = getenv("CSC_LIVE_PROFILE") != NULL;
    if (prof)
        fprintf(stderr, "parent: case %d answered in %lld us (child %u us)\n", b->id, (long long)(live_now_us() - tw), o->settle_us);
    return 0;
}

/* ---- ending children ----
 * A child whose pipe is closed exits at once, but its exit closes the TAP,
 * and unregistering a device waits for RCU grace periods: 20-140 ms on a
 * loaded machine, during which nothing of it can be observed or sent to.
 * live_session_end does not wait for that: such a child is reaped by the
 * next live_session_start or live_session_end, or at the latest when the
 * process exits (atexit). Killed, the process takes them along
 * (PR_SET_PDEATHSIG) as before. */
#define ENDING_MAX 4
static pid_t ENDING[ENDING_MAX];
static int NENDING;

/* Reaped already, or now: 1 */
static int reap_now(pid_t pid)
{
    int st;
    pid_t r;
    while ((r = waitpid(pid, &st, WNOHANG)) < 0 && errno == EINTR) {
    }
    return r == pid || r < 0;
}

/* Wait for it (a pidfd, Linux 5.3, says at once when it exited; without
 * one, look every ms); one that is stuck (a write to the TAP, a setup
 * line) is killed after a second. */
static void reap_wait(pid_t pid)
{
    int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (pfd >= 0) {
        struct pollfd p = { pfd, POLLIN, 0 };
        while (poll(&p, 1, 1000) < 0 && errno == EINTR) {
        }
        close(pfd);
        if (reap_now(pid))
            return;
    } else {
        for (int i = 0; i < 1000; i++) {
            if (reap_now(pid))
                return;
            struct timespec ts = { 0, 1000000 };
            nanosleep(&ts, NULL);
        }
    }
    kill(pid, SIGKILL);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
}

static void reap_ending(int wait)
{
    int k = 0;
    for (int i = 0; i < NENDING; i++) {
        if (wait)
            reap_wait(ENDING[i]);
        else if (!reap_now(ENDING[i]))
            ENDING[k++] = ENDING[i];
    }
    NENDING = wait ? 0 : k;
}

static void reap_at_exit(void)
{
    reap_ending(1);
}

static void session_reap(struct live_session *ss);

void live_session_end(struct live_session *ss)
{
    int64_t t0 = live_now_us();
    session_reap(ss);
    if (getenv("CSC_LIVE_PROFILE"))
        fprintf(stderr, "parent: session ended in %lld us\n", (long long)(live_now_us() - t0));
}

static void session_reap(struct live_session *ss)
{
    static int registered;
    if (ss->wfd >= 0)
        close(ss->wfd);
    if (ss->rfd >= 0)
        close(ss->rfd);
    ss->wfd = ss->rfd = -1;
    reap_ending(0);
    if (ss->pid <= 0)
        return;
    /* closing the pipe ends the child at its next read */
    pid_t pid = ss->pid;
    ss->pid = 0;
    if (reap_now(pid))
        return;
    if (!registered)
        registered = atexit(reap_at_exit) == 0;
    if (!registered) {
        reap_wait(pid);
        return;
    }
    if (NENDING == ENDING_MAX) {
        reap_wait(ENDING[0]);
        memmove(ENDING, ENDING + 1, sizeof ENDING[0] * (ENDING_MAX - 1));
        NENDING--;
    }
    ENDING[NENDING++] = pid;
}
