/*
 * vm.c - a job through csc-live-agent in one of Debian's kernels under
 * qemu (vm.h): the runner (live/vm/csc-vm) boots the kernel, shares the
 * job's folder over 9p and runs the agent from the initramfs; the
 * observations come back in DIR/result.txt (job.c's format).
 */
#define _GNU_SOURCE
#include "vm.h"
#include "live_int.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const struct live_vm_kernel VM_KERNELS[] = {
    { "bullseye", "5.10", { "5.10", "bullseye", NULL } },
    { "bookworm", "6.1", { "6.1", "bookworm", NULL } },
    { "trixie", "6.12", { "6.12", "trixie", NULL } },
    { "sid", "7.x", { "7", "7.x", "unstable" } },
};

const char *live_vm_kernel_names(void)
{
    return "5.10 (Debian bullseye), 6.1 (bookworm), 6.12 (trixie), 7.x (sid: Debian unstable's kernel of "
           "the day)";
}

const struct live_vm_kernel *live_vm_kernel_of(const char *name)
{
    for (size_t i = 0; i < sizeof VM_KERNELS / sizeof *VM_KERNELS; i++) {
        const struct live_vm_kernel *k = &VM_KERNELS[i];
        if (!strcmp(name, k->suite))
            return k;
        for (size_t a = 0; a < 3 && k->alias[a]; a++)
            if (!strcmp(name, k->alias[a]))
                return k;
    }
    return NULL;
}

static void copy_str(char *to, size_t n, const char *from)
{
    if (n)
        snprintf(to, n, "%s", from);
}

/* One command running, its output read line by line */
struct vm_proc {
    pid_t pid;
    int fd;
    int idx;                         /* passed to the line callback */
    FILE *log;
    char *last, *why;
    size_t ln, wn;
    char buf[4096];
    size_t len;
    int status;
};

/* A pipe and a child that holds it: the child's pid, 0 in the child, -1
 * with nothing left open */
static pid_t fork_piped(int fd[2])
{
    if (pipe(fd))
        return -1;
    return live_fork_pair(fd, NULL, 0);
}

static int spawn(const char *cmd, struct vm_proc *p)
{
    int fd[2];
    pid_t pid = fork_piped(fd);
    if (pid < 0)
        return -1;
    if (pid == 0) {
        /* its own process group (a stop signals all of it), and the runner
         * told to go (SIGTERM: csc-vm takes its VM down) when this process
         * dies whatever way, SIGKILL included; the shell execs the runner so
         * that the signal reaches it */
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() == 1)
            _exit(LIVE_VM_CANNOT_RUN);
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]), close(fd[1]);
        size_t n = strlen(cmd) + 8;
        char *ex = malloc(n);
        if (ex)
            snprintf(ex, n, "exec %s", cmd);
        execl("/bin/sh", "sh", "-c", ex ? ex : cmd, (char *)NULL);
        _exit(LIVE_VM_CANNOT_RUN);
    }
    close(fd[1]);
    p->pid = pid;
    p->fd = fd[0];
    p->len = 0;
    p->status = LIVE_VM_CANNOT_RUN;
    return 0;
}

static void proc_line(const struct live_vm_cmd *c, struct vm_proc *p, char *line)
{
    if (p->log)
        fprintf(p->log, "%s\n", line);
    line[strcspn(line, "\r")] = 0;
    if (c->line)
        c->line(c->ctx, p->idx, line);
    if (!strncmp(line, "csc-vm: UNAVAILABLE: ", 21))
        copy_str(p->why, p->wn, line + 21);
    else if (p->last && line[0])
        copy_str(p->last, p->ln, line);
}

/* Take what came on p's pipe; 0 at its end */
static int proc_read(const struct live_vm_cmd *c, struct vm_proc *p)
{
    ssize_t r = read(p->fd, p->buf + p->len, sizeof p->buf - 1 - p->len);
    if (r < 0 && errno == EINTR)
        return 1;
    if (r <= 0) {
        if (p->len) {
            p->buf[p->len] = 0;
            proc_line(c, p, p->buf);
            p->len = 0;
        }
        return 0;
    }
    p->len += (size_t)r;
    p->buf[p->len] = 0;
    char *at = p->buf, *nl;
    while ((nl = strchr(at, '\n'))) {
        *nl = 0;
        proc_line(c, p, at);
        at = nl + 1;
    }
    size_t rest = p->len - (size_t)(at - p->buf);
    if (rest == sizeof p->buf - 1) {   /* a line longer than the buffer: take it as it is */
        proc_line(c, p, p->buf);
        rest = 0;
    }
    memmove(p->buf, at, rest);
    p->len = rest;
    return 1;
}

/* Wait for p's runner to end, reading its pipe meanwhile: a stopped runner
 * still writes while it cleans up, and a pipe closed under it killed it with
 * SIGPIPE inside its exit trap, its run folder left behind (live-kill-vm,
 * ASan CI of 2026-12-03). */
static pid_t reap_draining(const struct live_vm_cmd *c, struct vm_proc *p, int *st)
{
    pid_t r;
    for (;;) {
        r = waitpid(p->pid, st, p->fd >= 0 ? WNOHANG : 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r != 0 || p->fd < 0)
            break;
        struct pollfd pf = { .fd = p->fd, .events = POLLIN };
        int k = poll(&pf, 1, 100);
        if (k > 0 && !proc_read(c, p))
            close(p->fd), p->fd = -1;
    }
    if (p->fd >= 0)
        close(p->fd), p->fd = -1;
    return r;
}

/* Follow n commands until each ended; a stop ends them all (SIGTERM:
 * csc-vm takes its VM down) */
static void wait_all(const struct live_vm_cmd *c, struct vm_proc *p, int n)
{
    int open = 0;
    for (int i = 0; i < n; i++)
        open += p[i].fd >= 0;
    while (open && !(c->stop && *c->stop)) {
        struct pollfd pf[8];
        int map[8], m = 0;
        for (int i = 0; i < n && m < 8; i++)
            if (p[i].fd >= 0) {
                pf[m] = (struct pollfd){ .fd = p[i].fd, .events = POLLIN };
                map[m++] = i;
            }
        if (poll(pf, (nfds_t)m, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int k = 0; k < m; k++)
            if (pf[k].revents && !proc_read(c, &p[map[k]])) {
                close(p[map[k]].fd);
                p[map[k]].fd = -1;
                open--;
            }
    }
    for (int i = 0; i < n; i++) {
        if (p[i].pid <= 0)
            continue;
        if (c->stop && *c->stop)
            kill(-p[i].pid, SIGTERM);    /* its process group: the runner and what it started */
        int st;
        pid_t r = reap_draining(c, &p[i], &st);
        p[i].status = r > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : LIVE_VM_CANNOT_RUN;
    }
}

int live_vm_command(const struct live_vm_cmd *c, const char *cmd, char *last, size_t ln, char *why, size_t wn)
{
    struct vm_proc p;
    memset(&p, 0, sizeof p);
    p.fd = -1;
    p.log = c->log, p.last = last, p.ln = ln, p.why = why, p.wn = wn;
    if (spawn(cmd, &p))
        return LIVE_VM_CANNOT_RUN;
    wait_all(c, &p, 1);
    return p.status;
}

int live_vm_prepare(const struct live_vm_cmd *c, const char *runner, const char *kernel, char *release,
                    size_t rn, char *last, size_t ln, char *why, size_t wn)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' --prepare '%s'", runner, kernel);
    if (wn)
        why[0] = 0;
    if (ln)
        last[0] = 0;
    int rc = live_vm_command(c, cmd, last, ln, why, wn);
    char name[32], rel[65];
    if (rc == 0 && sscanf(last, "%31s %64s", name, rel) == 2) {
        copy_str(release, rn, rel);
        return 0;
    }
    return rc ? rc : LIVE_VM_CANNOT_RUN;
}

int live_vm_mkdir(const char *prefix, char *dir, size_t n)
{
    const char *tmp = getenv("TMPDIR");
    if ((size_t)snprintf(dir, n, "%s/%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix) >= n &&
        (size_t)snprintf(dir, n, "/tmp/%s.XXXXXX", prefix) >= n) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return mkdtemp(dir) ? 0 : -1;
}

void live_vm_clean(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {  /* the job's files: job, results, consoles, the BPF object */
        if (e->d_name[0] == '.')
            continue;
        char fp[1024];
        snprintf(fp, sizeof fp, "%s/%s", dir, e->d_name);
        unlink(fp);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* The job's result and console file names in its folder */
static const char *job_result(const struct live_vm_job *j)
{
    return j->result ? j->result : "result.txt";
}

static const char *job_log(const struct live_vm_job *j)
{
    return j->log ? j->log : "vm.log";
}

int live_vm_janitor(const char *dir, int *pid)
{
    int fd[2];
    pid_t p = fork_piped(fd);
    if (p < 0)
        return -1;
    if (p == 0) {                    /* it outlives the run if it must: no signal of the terminal's */
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        signal(SIGHUP, SIG_IGN);
        setsid();
        close(fd[1]);
        for (int i = 0; i < 3; i++)
            if (i != fd[0])
                close(i);
        char c = 0;
        ssize_t r;
        while ((r = read(fd[0], &c, 1)) < 0 && errno == EINTR) {
        }
        if (!(r == 1 && c == 'k'))
            live_vm_clean(dir);
        _exit(0);
    }
    close(fd[0]);
    fcntl(fd[1], F_SETFD, FD_CLOEXEC);
    *pid = p;
    return fd[1];
}

void live_vm_janitor_end(int fd, int pid, int keep)
{
    if (fd < 0)
        return;
    if (keep && write(fd, "k", 1) != 1)
        keep = 0;
    close(fd);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
}

static int copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = a ? fopen(to, "wb") : NULL;
    char buf[8192];
    size_t n;
    int rc = a && b ? 0 : -1;
    while (!rc && (n = fread(buf, 1, sizeof buf, a)) > 0)
        rc = fwrite(buf, 1, n, b) == n ? 0 : -1;
    if (a)
        fclose(a);
    if (b && fclose(b) != 0)
        rc = -1;
    return rc;
}

/* The runner's command line for j, malloc'd */
static char *job_command(const struct live_vm_job *j, const char *agent, int have_bpf)
{
    char env[1024] = "";
    size_t eo = 0;
    /* the agent runs from the initramfs (with its libraries, the ASan
     * runtime for a sanitizer build); a sanitizer build's agent gets this
     * run's options */
    static const char *const pass[] = { "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS" };
    for (size_t i = 0; i < sizeof pass / sizeof *pass; i++) {
        const char *v = getenv(pass[i]);
        if (v && !strchr(v, '\'') && eo < sizeof env)
            eo += (size_t)snprintf(env + eo, sizeof env - eo, " '%s=%s'", pass[i], v);
    }
    size_t cn = strlen(j->runner) + strlen(j->dir) + 2 * strlen(agent) + strlen(j->kernel) + strlen(env) + 400;
    char *cmd = malloc(cn);
    if (cmd)
        snprintf(cmd, cn, "'%s' -s '%s' -f '%s' -T %u '%s' -- env%s '%s' %s%s --timeout %u "
                 "/mnt/host/job.txt /mnt/host/%s",
                 j->runner, j->dir, agent, j->limit_s, j->kernel, env, agent, have_bpf ? "--bpf " : "",
                 have_bpf ? "/mnt/host/csum_level.bpf.o" : "", j->agent_timeout_s, job_result(j));
    return cmd;
}

int live_vm_run_jobs(const struct live_vm_cmd *c, const struct live_vm_job *j, int n, struct live_vm_outcome *out)
{
    struct vm_proc p[LIVE_VM_MAX_JOBS];
    char agent[4096], bpf[600];
    if (n > LIVE_VM_MAX_JOBS)
        n = LIVE_VM_MAX_JOBS;
    memset(p, 0, sizeof p);
    int have_bpf = 0, started = 0;
    for (int i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        p[i].fd = -1;
        p[i].idx = i;
        p[i].why = out[i].why, p[i].wn = sizeof out[i].why;
        if (!realpath(j[i].agent, agent)) {
            snprintf(out[i].why, sizeof out[i].why, "%s: %s", j[i].agent, strerror(errno));
            out[i].status = LIVE_VM_CANNOT_RUN;
            out[i].result = LIVE_VM_FAILED;
            continue;
        }
        if (!i && j[i].bpf_obj) {    /* the BPF object goes over 9p with the job */
            snprintf(bpf, sizeof bpf, "%s/csum_level.bpf.o", j[i].dir);
            have_bpf = !copy_file(j[i].bpf_obj, bpf);
        }
        char *cmd = job_command(&j[i], agent, have_bpf);
        char log[700];
        snprintf(log, sizeof log, "%s/%s", j[i].dir, job_log(&j[i]));
        p[i].log = fopen(log, "w");
        if (!cmd || spawn(cmd, &p[i])) {
            snprintf(out[i].why, sizeof out[i].why, "cannot start the VM runner");
            out[i].status = LIVE_VM_CANNOT_RUN;
            out[i].result = LIVE_VM_FAILED;
        } else {
            started++;
        }
        free(cmd);
    }
    if (started)
        wait_all(c, p, n);
    for (int i = 0; i < n; i++) {
        if (p[i].log)
            fclose(p[i].log);
        if (!p[i].pid)
            continue;
        int rc = out[i].status = p[i].status;
        if (c->stop && *c->stop)
            out[i].result = LIVE_VM_STOPPED;
        else if (rc == LIVE_VM_UNAVAILABLE || rc == 77)
            out[i].result = LIVE_VM_SKIP;
        else if (rc != 0 && rc != 1)  /* 1: some setup failed or was skipped; its cases say why */
            out[i].result = LIVE_VM_FAILED;
        else {
            char res[700];
            snprintf(res, sizeof res, "%s/%s", j[i].dir, job_result(&j[i]));
            FILE *r = fopen(res, "r");
            int got = r ? live_result_read(r, out[i].release, sizeof out[i].release, j[i].obs, j[i].obs_ctx) : -1;
            if (r)
                fclose(r);
            out[i].result = got < 0 ? LIVE_VM_NO_RESULT : LIVE_VM_OK;
        }
    }
    return 0;
}

enum live_vm_status live_vm_run_job(const struct live_vm_cmd *c, const struct live_vm_job *j, char *release,
                                    size_t rn, int *status, char *why, size_t wn)
{
    struct live_vm_outcome o;
    live_vm_run_jobs(c, j, 1, &o);
    copy_str(release, rn, o.release);
    copy_str(why, wn, o.why);
    *status = o.status;
    return o.result;
}
