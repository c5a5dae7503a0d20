/*
 * replay_vm.c - the kernels of a run that are not this machine's (replay.h):
 * Debian's kernels, each in a VM booted by the differential test's runner
 * (live/vm/csc-vm, vm.c) running csc-live-agent on the job the first pass
 * wrote. Every VM kernel gets the same job; they run side by side, each up
 * across the frames of the run, and their observations are kept, by case
 * id, until the second pass judges each frame.
 */
#define _GNU_SOURCE
#include "replay_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void note(const struct live_replay *lr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(const struct live_replay *lr, const char *fmt, ...)
{
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (lr->face.note)
        lr->face.note(lr->face.ctx, msg);
}

static const char *env_or(const char *env, const char *built)
{
    const char *e = getenv(env);
    return e && *e ? e : built;
}

static const char *runner_path(void)
{
    return env_or("CSC_VM_RUNNER", CSC_LIVE_VM_RUNNER);
}

static const char *agent_path(void)
{
    return env_or("CSC_LIVE_AGENT", CSC_LIVE_AGENT);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The runner's lines: to the face, which kernel they are of; progress of a
 * download ("csc-vm: FETCH BYTES TOTAL") too */
struct line_ctx {
    const struct live_replay *lr;
    int kernel[LIVE_VM_MAX_JOBS];    /* job index -> kernel index */
};

static void vm_line(void *ctx, int idx, const char *line)
{
    const struct line_ctx *c = ctx;
    const struct live_replay *lr = c->lr;
    int k = idx >= 0 && idx < LIVE_VM_MAX_JOBS ? c->kernel[idx] : 0;
    unsigned long long got, total;
    if (sscanf(line, "csc-vm: FETCH %llu %llu", &got, &total) == 2) {
        if (lr->face.progress)
            lr->face.progress(lr->face.ctx, lr->k[k].name, (uint64_t)got, (uint64_t)total);
        return;
    }
    if (lr->face.vm_line)
        lr->face.vm_line(lr->face.ctx, lr->k[k].name, line);
}

/* A VM kernel: the runner and agent exist, the kernel is (or can be)
 * cached; its release learnt. 0; else the exit status with why. */
static int vm_prepare(struct live_replay *lr, int ki, char *why, size_t wn)
{
    struct live_kernel *k = &lr->k[ki];
    const char *runner = runner_path(), *agent = agent_path();
    const struct live_vm_kernel *v = k->vm;
    if (access(runner, X_OK) || access(agent, X_OK)) {
        snprintf(why, wn, "--live skipped: --kernel needs the VM runner and csc-live-agent of a csumcheck build "
                 "(%s, %s: not found); set CSC_VM_RUNNER and CSC_LIVE_AGENT to them", runner, agent);
        return LIVE_EXIT_SKIP;
    }
    if (!lr->quiet)
        note(lr, "--kernel %s: preparing Debian %s's kernel (cached in ${CSC_CACHE:-~/.cache/csumcheck}/vm; the "
             "first time it is downloaded from Debian's archive)", v->series, v->suite);
    char last[200], reason[400], rel[65];
    struct line_ctx lc = { lr, { ki } };
    struct live_vm_cmd c = { vm_line, &lc, NULL, lr->stop };
    int rc = live_vm_prepare(&c, runner, v->suite, rel, sizeof rel, last, sizeof last, reason, sizeof reason);
    if (lr->face.progress)
        lr->face.progress(lr->face.ctx, k->name, 0, 0);   /* the download's bar, if any, is done */
    if (rc == 0) {
        live_kernel_release(lr, k, rel);
        return 0;
    }
    if (lr->stop && *lr->stop)
        return 128 + (int)*lr->stop;
    if (rc == LIVE_VM_UNAVAILABLE) {
        snprintf(why, wn, "--live skipped: the VM kernel %s cannot run here: %s (once it can, '%s --prepare %s' "
                 "fetches and caches the kernel; '%s --kernels' lists them)", v->series,
                 reason[0] ? reason : "the VM runner cannot run it here", runner, v->suite, runner);
        return LIVE_EXIT_SKIP;
    }
    snprintf(why, wn, "--live failed: the VM runner failed to prepare %s (status %d): %s", v->series, rc, last);
    return 2;
}

int live_replay_prepare(struct live_replay *lr, char *err, size_t n)
{
    char why[560] = "";
    if (live_replay_has_host(lr) && live_host_preflight(lr, why, sizeof why)) {
        snprintf(err, n, "--live skipped: %s", why);
        return LIVE_EXIT_SKIP;
    }
    if (!live_replay_has_host(lr))   /* the frames go to VM kernels: this machine needs no root */
        live_bpf_object(lr);
    for (int i = 0; i < lr->nk; i++) {
        if (!lr->k[i].vm)
            continue;
        int rc = vm_prepare(lr, i, err, n);
        if (rc)
            return rc;
    }
    lr->cfg = lr->k[0].cfg;
    return 0;
}

/* ---- the VMs' observations, kept between the passes ---- */

static void vm_obs_free(struct live_vm_obs *k)
{
    if (k)
        free(k->msg), free(k);
}

static void vm_obs_keep(void *ctx, const struct live_obs *o)
{
    struct live_kernel *kn = ctx;
    if (o->id < 0 || o->id >= kn->nobs)
        return;                      /* not a case of this job */
    int n = o->n < LIVE_MAX_VALUES ? o->n : LIVE_MAX_VALUES;
    struct live_vm_obs *k = malloc(sizeof *k + (size_t)n * sizeof k->v[0]);
    if (!k)
        return;                      /* counted as "no observation" */
    k->status = o->status;
    k->n = n;
    k->msg = o->msg[0] ? strdup(o->msg) : NULL;
    for (int i = 0; i < n; i++) {
        memcpy(k->v[i].name, o->v[i].name, LIVE_NAME_LEN);
        k->v[i].delta = o->v[i].delta;
    }
    vm_obs_free(kn->obs[o->id]);
    kn->obs[o->id] = k;
}

const struct live_obs *live_vm_obs_get(const struct live_kernel *kn, int32_t id)
{
    static struct live_obs o;
    const struct live_vm_obs *k = id >= 0 && id < kn->nobs ? kn->obs[id] : NULL;
    if (!k)
        return NULL;
    memset(&o, 0, offsetof(struct live_obs, v));
    o.id = id;
    o.status = k->status;
    o.n = k->n;
    for (int i = 0; i < k->n; i++) {
        memcpy(o.v[i].name, k->v[i].name, LIVE_NAME_LEN);
        o.v[i].delta = k->v[i].delta;
    }
    snprintf(o.msg, sizeof o.msg, "%s", k->msg ? k->msg : "");
    return &o;
}

void live_vm_obs_drop(struct live_kernel *k)
{
    for (int32_t i = 0; i < k->nobs; i++)
        vm_obs_free(k->obs[i]);
    free(k->obs);
    k->obs = NULL;
    k->nobs = 0;
}

/* ---- the VMs ---- */

int live_replay_run_vms(struct live_replay *lr, char *err, size_t n)
{
    int bad = ferror(lr->job);
    char job[600];
    snprintf(job, sizeof job, "%s/job.txt", lr->vm_dir);
    if (fclose(lr->job) != 0 || bad) {
        lr->job = NULL;
        snprintf(err, n, "%s: cannot write the job", job);
        return 2;
    }
    lr->job = NULL;
    struct live_vm_job j[LIVE_VM_MAX_JOBS];
    struct live_vm_outcome out[LIVE_VM_MAX_JOBS];
    struct line_ctx lc = { lr, { 0 } };
    char names[LIVE_VM_MAX_JOBS][2][48];
    int nj = 0, rc = 0;
    for (int i = 0; i < lr->nk; i++) {
        struct live_kernel *k = &lr->k[i];
        if (!k->vm)
            continue;
        k->nobs = lr->seq;
        k->obs = calloc((size_t)k->nobs + 1, sizeof *k->obs);
        if (!k->obs) {
            snprintf(err, n, "out of memory");
            return 2;
        }
        snprintf(names[nj][0], sizeof names[nj][0], "result-%s.txt", k->vm->suite);
        snprintf(names[nj][1], sizeof names[nj][1], "vm-%s.log", k->vm->suite);
        /* the whole VM: boot, then up to two seconds a frame and fifteen a
         * namespace under TCG (measured: 2.4 s a frame at worst, with a load
         * of 12 on 2 CPUs; 0.1-0.3 s on a quiet machine) */
        unsigned limit = 300 + 2 * (unsigned)lr->seq + 15 * (unsigned)lr->setups;
        j[nj] = (struct live_vm_job){ .runner = runner_path(), .agent = agent_path(), .bpf_obj = lr->tools.bpf_obj,
                                      .kernel = k->vm->suite, .dir = lr->vm_dir, .limit_s = limit,
                                      .agent_timeout_s = LIVE_CHUNK_S, .result = names[nj][0],
                                      .log = names[nj][1], .obs = vm_obs_keep, .obs_ctx = k };
        lc.kernel[nj++] = i;
    }
    if (!lr->seq || (lr->stop && *lr->stop)) {
        rc = lr->stop && *lr->stop ? 128 + (int)*lr->stop : 0;
        nj = 0;
    }
    if (nj && !lr->quiet) {
        char list[120] = "";
        for (int i = 0, o = 0; i < nj; i++)
            o += snprintf(list + o, sizeof list - (size_t)o, "%s%s", i ? ", " : "", lr->k[lc.kernel[i]].vm->series);
        note(lr, "--kernel %s: %d frames in %llu namespaces, in %s (qemu; a few minutes under TCG)", list,
             (int)lr->seq, (unsigned long long)lr->setups, nj > 1 ? "one VM each, side by side" : "one VM");
    }
    double t = now_s();
    struct live_vm_cmd c = { vm_line, &lc, NULL, lr->stop };
    if (nj)
        live_vm_run_jobs(&c, j, nj, out);
    double took = now_s() - t;
    for (int i = 0; i < nj && !rc; i++) {
        struct live_kernel *k = &lr->k[lc.kernel[i]];
        k->vm_seconds = took;
        char log[700];
        snprintf(log, sizeof log, "%s/%s", lr->vm_dir, names[i][1]);
        switch (out[i].result) {
        case LIVE_VM_OK:
            if (out[i].release[0])
                live_kernel_release(lr, k, out[i].release);
            break;
        case LIVE_VM_STOPPED: rc = 128 + (int)*lr->stop; break;
        case LIVE_VM_SKIP:
            snprintf(err, n, "--live skipped: the VM kernel %s cannot run here: %s", k->vm->series,
                     out[i].why[0] ? out[i].why : "the agent cannot make namespaces in the guest");
            rc = LIVE_EXIT_SKIP;
            break;
        case LIVE_VM_FAILED:
            snprintf(err, n, "--live failed: the VM run of %s ended with status %d%s (its console: %s, kept)",
                     k->vm->series, out[i].status, out[i].status == LIVE_VM_TIMEOUT ? " (timeout)" : "", log);
            rc = 2;
            break;
        case LIVE_VM_NO_RESULT:
            snprintf(err, n, "--live failed: no readable result from the agent in the VM (its console: %s, kept)",
                     log);
            rc = 2;
            break;
        }
    }
    bool keep = rc == 2 || lr->keep_vm_files;
    if (keep)
        note(lr, "the job, the result and the VM's console are in %s", lr->vm_dir);
    else
        live_vm_clean(lr->vm_dir);
    live_vm_janitor_end(lr->janitor_fd, lr->janitor_pid, keep);
    lr->janitor_fd = -1;
    lr->vm_dir[0] = 0;
    lr->cfg = lr->k[0].cfg;
    return rc;
}
