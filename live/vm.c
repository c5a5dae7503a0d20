/*
 * vm.c - a job through csc-live-agent in one of Debian's kernels under
 * qemu (vm.h): the runner (live/vm/csc-vm) boots the kernel, shares the
 * job's folder over 9p and runs the agent from the initramfs; the
 * observations come back in DIR/result.txt (job.c's format).
 */
#define _GNU_SOURCE
#include "vm.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int live_vm_command(const struct live_vm_cmd *c, const char *cmd, char *last, size_t ln, char *why, size_t wn)
{
    int fd[2];
    if (pipe(fd))
        return LIVE_VM_CANNOT_RUN;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]), close(fd[1]);
        return LIVE_VM_CANNOT_RUN;
    }
    if (pid == 0) {
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]), close(fd[1]);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(LIVE_VM_CANNOT_RUN);
    }
    close(fd[1]);
    FILE *p = fdopen(fd[0], "r");
    char line[1024];
    while (p && !(c->stop && *c->stop) && fgets(line, sizeof line, p)) {
        if (c->log)
            fputs(line, c->log);
        line[strcspn(line, "\r\n")] = 0;
        if (c->line)
            c->line(c->ctx, line);
        if (!strncmp(line, "csc-vm: UNAVAILABLE: ", 21))
            copy_str(why, wn, line + 21);
        else if (last && line[0])
            copy_str(last, ln, line);
    }
    if (c->stop && *c->stop)
        kill(pid, SIGTERM);
    if (p)
        fclose(p);
    else
        close(fd[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return LIVE_VM_CANNOT_RUN;
    return WIFEXITED(st) ? WEXITSTATUS(st) : LIVE_VM_CANNOT_RUN;
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
    static const char *const files[] = { "job.txt", "result.txt", "vm.log", "csum_level.bpf.o" };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char fp[700];
        snprintf(fp, sizeof fp, "%s/%s", dir, files[i]);
        unlink(fp);
    }
    rmdir(dir);
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

enum live_vm_status live_vm_run_job(const struct live_vm_cmd *c, const struct live_vm_job *j, char *release,
                                    size_t rn, int *status, char *why, size_t wn)
{
    char env[1024] = "", res[600], bpf[600], agent[4096];
    snprintf(res, sizeof res, "%s/result.txt", j->dir);
    snprintf(bpf, sizeof bpf, "%s/csum_level.bpf.o", j->dir);
    *status = 0;
    if (wn)
        why[0] = 0;
    if (!realpath(j->agent, agent)) {
        snprintf(why, wn, "%s: %s", j->agent, strerror(errno));
        *status = LIVE_VM_CANNOT_RUN;
        return LIVE_VM_FAILED;
    }
    /* the BPF object goes over 9p with the job */
    int have_bpf = j->bpf_obj && !copy_file(j->bpf_obj, bpf);
    /* the agent runs from the initramfs (with its libraries, the ASan
     * runtime for a sanitizer build); a sanitizer build's agent gets this
     * run's options */
    size_t eo = 0;
    static const char *const pass[] = { "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS" };
    for (size_t i = 0; i < sizeof pass / sizeof *pass; i++) {
        const char *v = getenv(pass[i]);
        if (v && !strchr(v, '\'') && eo < sizeof env)
            eo += (size_t)snprintf(env + eo, sizeof env - eo, " '%s=%s'", pass[i], v);
    }
    size_t cn = strlen(j->runner) + strlen(j->dir) + 2 * strlen(agent) + strlen(j->kernel) + strlen(env) + 300;
    char *cmd = malloc(cn);
    if (!cmd) {
        snprintf(why, wn, "out of memory");
        *status = LIVE_VM_CANNOT_RUN;
        return LIVE_VM_FAILED;
    }
    snprintf(cmd, cn, "'%s' -s '%s' -f '%s' -T %u '%s' -- env%s '%s' %s%s --timeout %u "
             "/mnt/host/job.txt /mnt/host/result.txt",
             j->runner, j->dir, agent, j->limit_s, j->kernel, env, agent, have_bpf ? "--bpf " : "",
             have_bpf ? "/mnt/host/csum_level.bpf.o" : "", j->agent_timeout_s);
    int rc = live_vm_command(c, cmd, NULL, 0, why, wn);
    free(cmd);
    *status = rc;
    if (c->stop && *c->stop)
        return LIVE_VM_STOPPED;
    if (rc == LIVE_VM_UNAVAILABLE || rc == 77)
        return LIVE_VM_SKIP;
    if (rc != 0 && rc != 1)          /* 1: some setup failed or was skipped; its cases say why */
        return LIVE_VM_FAILED;
    FILE *r = fopen(res, "r");
    int n = r ? live_result_read(r, release, rn, j->obs, j->obs_ctx) : -1;
    if (r)
        fclose(r);
    return n < 0 ? LIVE_VM_NO_RESULT : LIVE_VM_OK;
}
