/*
 * replay.h - a capture's frames through real kernels' receive paths, beside
 * the model (libcsclive-replay; docs/live.md). `csumcheck --live` is a face
 * of it: the CLI reads the inputs, gives the options and prints; everything
 * between - what a frame needs of a namespace, the namespaces (chunks), the
 * receivers, the kernels (this machine's, Debian's in VMs), the judging - is
 * here. It links the core (the model) and libcsclive (the namespaces).
 *
 * A face makes a struct live_replay from the receiver configuration the
 * model reads (struct csc_config: one configuration for both sides), then
 * hands it every frame of its inputs in order (live_replay_frame). Frames
 * go through in chunks: one namespace holds as many frames as its limits
 * allow. Once a chunk ran, each of its frames comes back to the face
 * (struct live_replay_face.frame), judged, in input order.
 *
 * With a VM kernel the inputs are read twice: the first pass
 * (LIVE_PASS_JOB) plans every chunk and writes it to a job, the VM runs
 * the job (live_replay_run_vms), the second pass (LIVE_PASS_JUDGE) plans
 * again - the same chunks, the same case ids - and judges each frame from
 * the VM's observation, with the model at that kernel's era.
 */
#ifndef CSC_LIVE_REPLAY_H
#define CSC_LIVE_REPLAY_H

#include "judge.h"
#include "live.h"

#include "csumcheck/csumcheck.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct live_broker;

#define LIVE_CHUNK 256               /* frames of one namespace at most */
#define LIVE_FRAME_MS 5000           /* one frame's answer, at most */
#define LIVE_CHUNK_S 600             /* one namespace's whole life, at most */
#define LIVE_EXIT_SKIP 77            /* cannot run here: the CTest skip code */

/* The receivers a namespace gets for a frame (the rows of the summary):
 * the TAP alone, or a tunnel device (behind a FOU or GUE port) */
enum live_rk {
    LIVE_RK_PLAIN = 0, LIVE_RK_VXLAN, LIVE_RK_GPE, LIVE_RK_GENEVE, LIVE_RK_GRE, LIVE_RK_GRETAP, LIVE_RK_IP6GRE,
    LIVE_RK_IP6GRETAP, LIVE_RK_IPIP, LIVE_RK_SIT, LIVE_RK_IP6TNL, LIVE_RK_FOU, LIVE_RK_GUE, LIVE_RK_ERSPAN,
    LIVE_RK_L2TP, LIVE_RK__COUNT
};
const char *live_rk_name(unsigned k);   /* "plain", "vxlan", "vxlan-gpe", "geneve", "gre", ... */

/* The innermost transport */
enum live_tp { LIVE_TP_UDP = 0, LIVE_TP_TCP, LIVE_TP_ICMP };
const char *live_tp_name(unsigned t);   /* "udp", "tcp", "icmp" */

/* What happened to one frame in one kernel */
enum live_res {
    LIVE_RES_AGREE = 0, LIVE_RES_DISAGREE,
    LIVE_RES_SKIPPED,                /* the kernel could not make its receiver */
    LIVE_RES_NOT_REPLAYABLE,         /* named, never written */
    LIVE_RES_ERROR,                  /* the harness could not observe it */
    LIVE_RES_MODEL,                  /* a model-only "kernel" (--era A,B): the model's outcome alone */
    LIVE_RES_NOT_RUN,                /* read, not yet replayed when a signal stopped the run */
    LIVE_RES__COUNT
};

/* One kernel's outcome of a frame beside the model's at that kernel's era */
struct live_outcome {
    uint8_t result;                  /* enum live_res */
    int mclass, kclass;              /* enum live_class */
    int64_t mcnt[LIVE_N_CNT], kcnt[LIVE_N_CNT];
    char mdrop[48];                  /* the model's drop reason */
    char why[160];                   /* not replayable / skipped / error / disagree: why */
    char deltas[400];                /* every counter that moved in the namespace */
    int64_t at_dev;                  /* skbs the tunnel device counted (rx_packets) */
};

#define LIVE_MAX_KERNELS 5

/* One frame as planned and judged */
struct live_fr {
    uint64_t no;                     /* frame number in its file, from 1 */
    uint8_t kind;                    /* enum live_rk */
    uint8_t l4, in6;                 /* innermost transport (enum live_tp) and family */
    int dev, sock;                   /* device and socket index in the setup (-1: none) */
    size_t face_off, face_len;       /* the face's own: where it keeps its record of the frame */
    struct live_outcome k[LIVE_MAX_KERNELS];   /* per kernel, in live_replay.kernel's order */
    struct live_frame fr;            /* as written */
};

/* One kernel the frames go through */
struct live_kernel {
    char name[64];                   /* as the user said it: "host", "5.10", ... */
    const struct live_vm_kernel *vm; /* NULL: this machine's */
    bool model_only;                 /* --era A,B: the model at an era, no kernel */
    char release[65];                /* uname -r */
    const char *era;                 /* the model's era preset for it */
    struct csc_config cfg;           /* the model's configuration at that era */
    double vm_seconds;               /* the VM's run, boot included */
    /* totals: [receiver][result] */
    uint64_t tot[LIVE_RK__COUNT][LIVE_RES__COUNT];
    unsigned disagreements, errors;
    struct live_vm_obs **obs;        /* VM: observations by case id (live_replay_run_vms) */
    int32_t nobs;
};

/* What the face is told */
struct live_replay_face {
    /* a frame judged in every kernel (its chunk ran), in input order */
    void (*frame)(void *ctx, const struct live_fr *f);
    /* a chunk's frames were all given to frame: what the face kept of them
     * (face_off, face_len) can go */
    void (*chunk_end)(void *ctx);
    /* a note for the user (progress of the VMs), each line of a VM
     * runner's output (kernel: its name) and a kernel's download
     * (got of total bytes; 0 of 0: done) - NULL: none */
    void (*note)(void *ctx, const char *msg);
    void (*vm_line)(void *ctx, const char *kernel, const char *line);
    void (*progress)(void *ctx, const char *kernel, uint64_t got, uint64_t total);
    void *ctx;
};

enum live_pass { LIVE_PASS_HERE = 0, LIVE_PASS_JOB, LIVE_PASS_JUDGE };

struct live_replay {
    struct csc_config cfg;           /* the receiver as the options say (era: the first kernel's) */
    struct live_replay_face face;
    volatile sig_atomic_t *stop;     /* set by a signal: nothing more is written */
    bool keep_vm_files;              /* keep the job, the result and the console */
    bool quiet;                      /* no progress notes */
    int nk;
    struct live_kernel k[LIVE_MAX_KERNELS];
    /* the run */
    enum live_pass pass;
    struct live_tools tools;
    char bpf[512];
    const char *file;                /* the input being read */
    FILE *job;                       /* LIVE_PASS_JOB */
    char vm_dir[512];
    int janitor_fd, janitor_pid;     /* removes vm_dir if this process dies (vm.h) */
    int32_t seq;                     /* the next replayed frame's case id */
    uint64_t frames, setups;
    int interrupted;                 /* the signal that stopped the run (0: none) */
    double seconds;                  /* in namespaces (making them, their frames) */
    double frame_seconds;            /* writing and observing replayed frames */
    struct live_broker *brk;         /* the privileged helper that makes the namespaces (broker.h);
                                        NULL: this process makes them itself */
    struct live_session ss;          /* this machine's namespace, kept from chunk to chunk */
    bool ss_up;
    struct live_chunk *ch;
    struct live_fates *fates;        /* several kernels: the fates that change from one to the next */
};

/* Check the configuration against what a TAP can make and take the era of
 * each kernel. kernels: NULL (this machine's) or a comma list of "host"
 * and Debian's VM kernels (live_vm_kernel_of), in the order the
 * comparisons across them read. 0, or the exit status with the reason in
 * err (2: a usage error). */
int live_replay_init(struct live_replay *lr, const struct csc_config *cfg, const char *kernels, char *err,
                     size_t n);
/* The model alone at each era of a comma list (--era A,B): the same plan
 * and the same fates, with no kernel. */
int live_replay_init_eras(struct live_replay *lr, const struct csc_config *cfg, const char *eras, char *err,
                          size_t n);
/* Can it run here: root, /dev/net/tun, namespaces (this machine); the
 * runner, the agent, the cached or fetchable kernel (a VM, whose release
 * it learns). 0, or the exit status (LIVE_EXIT_SKIP, 2) with the reason. */
int live_replay_prepare(struct live_replay *lr, char *err, size_t n);
/* Does any kernel run in a VM (two passes)? */
bool live_replay_needs_job(const struct live_replay *lr);
/* Is this machine's kernel one of them? */
bool live_replay_has_host(const struct live_replay *lr);

/* A pass over the inputs: begin, then per file begin / frames / end. */
int live_replay_pass(struct live_replay *lr, enum live_pass pass, char *err, size_t n);
void live_replay_file_begin(struct live_replay *lr, const char *name);
/* One frame of the file, its captured bytes (caplen, len) on link type
 * link (enum csc_link_type). Returns the frame the face may fill face_off
 * and face_len of (it was placed in the current chunk; the chunk before it
 * may have run first). */
struct live_fr *live_replay_frame(struct live_replay *lr, const uint8_t *data, uint32_t caplen, uint32_t len,
                                  uint8_t link, uint64_t no);
void live_replay_file_end(struct live_replay *lr);
/* After LIVE_PASS_JOB: the job through every VM kernel. 0, or the exit
 * status with the reason in err (128 + the signal when one stopped it). */
int live_replay_run_vms(struct live_replay *lr, char *err, size_t n);
/* Free what the run holds */
void live_replay_end(struct live_replay *lr);

/* ---- fates across kernels (fate.c) ----
 * A frame's fate in a kernel: what the kernel did with it, as a class and
 * the counters that moved (the model's, for a model-only "kernel"), when
 * the frame was replayed there. */
bool live_fate_known(const struct live_outcome *o);
bool live_fate_same(const struct live_outcome *a, const struct live_outcome *b);
void live_fate_text(const struct live_outcome *o, char *buf, size_t n);   /* "tunnel {dev:rx_errors}" */

/* The frames whose fate changes from kernel i to kernel i + 1 (the order
 * of --kernel), grouped by file and by change: "seed002-rco.pcap 1-6:
 * tunnel {-} -> tunnel {dev:rx_errors,dev:rx_frame_errors}" */
#define LIVE_FATE_GROUPS 32
struct live_fate_group {
    char file[200];
    char from[120], to[120];
    char frames[200];                /* "1-6, 17" */
    uint64_t first, last;            /* the open range */
    uint64_t n;
};
struct live_fates {
    uint64_t compared[LIVE_MAX_KERNELS];   /* replayed in both */
    uint64_t changed[LIVE_MAX_KERNELS];
    uint64_t unlisted[LIVE_MAX_KERNELS];   /* changes beyond the groups kept */
    int ngroups[LIVE_MAX_KERNELS];
    struct live_fate_group g[LIVE_MAX_KERNELS][LIVE_FATE_GROUPS];
};
void live_fates_add(struct live_fates *fs, const struct live_replay *lr, const struct live_fr *f);
/* The frame numbers of group g as text ("1-6, 17, 19") */
void live_fate_frames(const struct live_fate_group *g, char *buf, size_t n);

#endif
