/*
 * vm.h - a job (job.c) run by csc-live-agent inside one of Debian's stock
 * kernels, booted under qemu by the VM runner (live/vm/csc-vm). Shared by
 * `csumcheck --live --kernel` (replay.c) and the live-kernel differential
 * test (tests/kernel): one way to prepare a kernel, start the VM, follow
 * its console, stop it on a signal and read the observations back.
 */
#ifndef CSC_LIVE_VM_H
#define CSC_LIVE_VM_H

#include "live.h"

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

/* The VM kernels: csc-vm's name (the Debian suite) and the series */
struct live_vm_kernel {
    const char *suite;               /* csc-vm's name */
    const char *series;              /* as the user says it */
    const char *alias[3];
};
/* By suite, series or alias ("5.10", "bullseye", "7", "unstable"...); NULL: none */
const struct live_vm_kernel *live_vm_kernel_of(const char *name);
/* "5.10 (Debian bullseye), 6.1 (bookworm), ..." */
const char *live_vm_kernel_names(void);

/* The runner's exit statuses (csc-vm's header) */
#define LIVE_VM_UNAVAILABLE 123      /* this kernel cannot run here; its reason in a line
                                        "csc-vm: UNAVAILABLE: ..." */
#define LIVE_VM_TIMEOUT 124
#define LIVE_VM_CANNOT_RUN 125       /* the command could not run, or the VM failed */

/* How a runner command is run */
struct live_vm_cmd {
    /* each line of its output and error (no newline) and the index of the
     * command it came from (live_vm_run_jobs), NULL: none */
    void (*line)(void *ctx, int idx, const char *line);
    void *ctx;
    FILE *log;                       /* a copy of every line, or NULL */
    volatile sig_atomic_t *stop;     /* set by a signal: the command is ended (SIGTERM;
                                        csc-vm takes its VM down) */
};

/* Run cmd through /bin/sh. The last line that is not empty goes to last,
 * a "csc-vm: UNAVAILABLE: " line's reason to why. Returns its exit status
 * (LIVE_VM_CANNOT_RUN: it could not run). */
int live_vm_command(const struct live_vm_cmd *c, const char *cmd, char *last, size_t ln, char *why, size_t wn);

/* `csc-vm --prepare KERNEL`: fetch (the first time) and cache the kernel;
 * its release to release. Returns the runner's status (0 ok). */
int live_vm_prepare(const struct live_vm_cmd *c, const char *runner, const char *kernel, char *release,
                    size_t rn, char *last, size_t ln, char *why, size_t wn);

/* A folder for a job: $TMPDIR/PREFIX.XXXXXX (or /tmp). 0, -1 (errno). */
int live_vm_mkdir(const char *prefix, char *dir, size_t n);
/* The files of a job's folder and the folder itself removed */
void live_vm_clean(const char *dir);
/* A process that removes dir when this one ends whatever way (SIGKILL
 * included): it waits on a pipe whose write end is returned (-1: none),
 * its pid to pid. live_vm_janitor_end: done - keep: leave the folder. */
int live_vm_janitor(const char *dir, int *pid);
void live_vm_janitor_end(int fd, int pid, int keep);

/* One job (DIR/job.txt) through the agent in a VM */
struct live_vm_job {
    const char *runner, *agent;      /* csc-vm, csc-live-agent */
    const char *bpf_obj;             /* the BPF object, copied next to the job (NULL: none) */
    const char *kernel;              /* csc-vm's name for it */
    const char *dir;                 /* holds job.txt; result.txt, vm.log and the BPF object go there */
    unsigned limit_s;                /* the whole VM (csc-vm -T) */
    unsigned agent_timeout_s;        /* the agent's --timeout (one setup) */
    const char *result, *log;        /* file names in dir (NULL: result.txt, vm.log) */
    /* each observation of the result */
    void (*obs)(void *ctx, const struct live_obs *o);
    void *obs_ctx;
};

enum live_vm_status {
    LIVE_VM_OK = 0,                  /* the observations went to obs */
    LIVE_VM_SKIP,                    /* the kernel or the agent cannot run here (why) */
    LIVE_VM_FAILED,                  /* the run ended with another status (why) */
    LIVE_VM_NO_RESULT,               /* no readable result */
    LIVE_VM_STOPPED,                 /* a signal */
};
/* Run it; the kernel release the agent ran on to release, the runner's
 * exit status to status. why says what went wrong. */
enum live_vm_status live_vm_run_job(const struct live_vm_cmd *c, const struct live_vm_job *j, char *release,
                                    size_t rn, int *status, char *why, size_t wn);

/* Several jobs at once, each in its own VM (one job file, a result and a
 * console each): out[i] says how job i went */
#define LIVE_VM_MAX_JOBS 8
struct live_vm_outcome {
    enum live_vm_status result;
    int status;                      /* the runner's exit status */
    char release[65];
    char why[400];
};
int live_vm_run_jobs(const struct live_vm_cmd *c, const struct live_vm_job *j, int n, struct live_vm_outcome *out);

#endif
