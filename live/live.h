/*
 * live.h - put frames into a real kernel's receive path and read what it did
 * (libcsclive). Used by the live-kernel differential test (tests/kernel/,
 * docs/kernel-diff.md), inside the VMs through csc-live-agent, and meant for
 * `csumcheck --live`. The core (libcsumcore) knows nothing of it.
 *
 * A *setup* is one private network namespace (a child process that unshares
 * its network and mount namespaces): a TAP with a virtio-net header (its
 * flags set the device report), the devices and ports that lists of commands
 * make (iproute2 lines as a reader would type them, run through one
 * `ip -batch`), listening sockets, an optional tc BPF program that raises
 * CHECKSUM_NONE to UNNECESSARY at a level, and for every device the sentinel
 * frames that prove its path works and mark the end of each case.
 * A *case* is one frame or a run of frames written back to back; its
 * observation is the change of every counter the namespace shows (SNMP MIBs,
 * the statistics of every device) and of the datagrams the sockets read.
 *
 * Everything a setup makes lives in the child's namespaces: it disappears
 * when the child exits, normally, on error, on a signal or when its parent
 * dies (PR_SET_PDEATHSIG), and nothing it sends can leave.
 *
 * The job format (live_job_*) carries setups and cases as text to an agent
 * that runs them somewhere else (a VM) and brings the observations back.
 *
 * CSC_LIVE_PROFILE=1 in the environment prints each case's time, the cost
 * of each snapshot's parts and the counters that moved while settling.
 */
#ifndef CSC_LIVE_H
#define CSC_LIVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define LIVE_TAP_NAME "kd0"
#define LIVE_TAP_MAC "02:00:00:00:00:02"
#define LIVE_MAX_CMDS 160      /* setup lines common to every device (addresses...) */
#define LIVE_MAX_DEV_CMDS 16   /* lines that make one device */
#define LIVE_CMD_LEN 200
#define LIVE_MAX_DEVS 48
#define LIVE_MAX_SOCKS 64
#define LIVE_MAX_SENT 2        /* sentinel frames per device */
#define LIVE_MAX_FRAME 9216    /* a jumbo frame */
#define LIVE_MAX_FRAMES 4      /* frames of one struct live_case */
#define LIVE_MAX_BATCH 64      /* frames of one struct live_batch */
#define LIVE_MAX_WATCH 3       /* other links read with a device (a nested tunnel's outer ones) */
#define LIVE_MAX_VALUES 96     /* non-zero deltas kept per case */
#define LIVE_NAME_LEN 48

enum live_sock_kind { LIVE_UDP4 = 0, LIVE_UDP6, LIVE_TCP4, LIVE_TCP6 };

struct live_sock {
    uint8_t kind;              /* enum live_sock_kind */
    uint16_t port;
};

/* A frame and the virtio-net header it is written with. */
struct live_frame {
    uint8_t vnet[10];          /* struct virtio_net_hdr, as written */
    uint16_t len;
    uint8_t data[LIVE_MAX_FRAME];
};

/* One receiving device (or port) of a setup: the lines that make it and the
 * sentinel frames that go through it. A device whose lines fail takes only
 * its own cases with it. */
struct live_dev {
    char ifname[16];           /* the interface whose statistics are read (dev:IFNAME:...) */
    char name[48];             /* label, for messages (its statistics are read by interface name) */
    int ncmds;
    char cmds[LIVE_MAX_DEV_CMDS][LIVE_CMD_LEN];
    /* Sentinel frames: clean frames through this device, each read on
     * socket sent_sock[i]. All prove the path before the first case (IPv6
     * addresses work only after addrconf ran, even with nodad); the first
     * also ends every case of the device. */
    int nsent;
    uint8_t sent_sock[LIVE_MAX_SENT];
    struct live_frame sent[LIVE_MAX_SENT];
    /* Links whose statistics are read with this device's (besides the TAP
     * and the device itself): the outer devices of a nested tunnel. */
    int nwatch;
    char watch[LIVE_MAX_WATCH][16];
    /* A tc-ingress BPF program on the device, once its lines ran, that
     * makes every PACKET_OTHERHOST frame PACKET_HOST (section "host" of
     * the BPF object): a capture's inner Ethernet destinations then need
     * not be the device's address. */
    uint8_t to_host;
};

struct live_setup {
    char name[128];            /* label only */
    uint8_t pin;               /* pin the namespace's process to one CPU: every per-CPU
                                  queue (backlog, gro_cells) then keeps write order */
    uint8_t napi;              /* IFF_NAPI on the TAP: GRO runs on it */
    uint32_t gro_flush_ns;     /* the TAP's gro_flush_timeout (0: none) */
    uint8_t extends;           /* it holds the setup before it (its lines, sockets and devices, in their
                                  places) and more: an agent adds the rest to that one's namespace
                                  (live_session_extend) instead of making a new one */
    int8_t level;              /* BPF csum level on the TAP's ingress, -1: none */
    int ncmds;                 /* lines run first: iproute2 ("ip ...", "tc ...") or
                                  built-ins (live_builtin_names()) */
    char cmds[LIVE_MAX_CMDS][LIVE_CMD_LEN];
    int nsocks;
    struct live_sock socks[LIVE_MAX_SOCKS];
    int ndevs;
    struct live_dev devs[LIVE_MAX_DEVS];
};

struct live_case {
    int32_t id;
    uint8_t dev;               /* index into live_setup.devs */
    uint8_t nframes;
    struct live_frame frames[LIVE_MAX_FRAMES];
};

/* Frames written back to back and observed as one case, by reference:
 * a GRO run, or frames the caller checks as a whole (csumcheck --live). */
struct live_batch {
    int32_t id;
    uint8_t dev;
    uint16_t nframes;
    const struct live_frame *frames[LIVE_MAX_BATCH];
    uint8_t flags;             /* LIVE_BATCH_* */
};
/* A GRO run written once: no second write to see that the kernel does the
 * same again (the caller judges noise itself, e.g. by writing a run that
 * disagrees again) - half the time of a run */
enum { LIVE_BATCH_ONCE = 1u << 0 };

enum live_status { LIVE_OK = 0, LIVE_SKIPPED, LIVE_ERROR };

/* The counters that moved over one case, the sentinel's own traces taken out.
 * Names are nstat's: "UdpInCsumErrors", "IpExtInCsumErrors", "Udp6InErrors";
 * "dev:NAME:rx_packets" (rx_bytes, rx_errors, rx_dropped, rx_crc_errors,
 * rx_frame_errors, rx_length_errors, rx_over_errors, rx_missed_errors,
 * rx_nohandler), "sock:N" (datagrams read on socket N), "sockbytes:N" (their payload bytes). */
struct live_obs {
    int32_t id;
    int32_t status;            /* enum live_status */
    uint32_t settle_us;        /* from the first write until the counters held still */
    uint32_t retries;          /* GRO run writes repeated: the writer stalled or a tick came mid-run */
    uint32_t disputed;         /* a GRO run whose first two writes differed (a third decided) */
    int n;
    struct {
        char name[LIVE_NAME_LEN];
        int64_t delta;
    } v[LIVE_MAX_VALUES];
    char msg[200];
};

/* The delta of a counter, 0 when it did not move. */
int64_t live_obs_get(const struct live_obs *o, const char *name);
/* Sum of the deltas of every name with this prefix and suffix
 * (e.g. "dev:", ":rx_packets"). */
int64_t live_obs_sum(const struct live_obs *o, const char *prefix, const char *suffix);
/* Same counters, same deltas. */
int live_obs_equal(const struct live_obs *a, const struct live_obs *b);
/* The kernel's outcome among n writes of one GRO run that differ: the write
 * whose every counter is at most every other write's (timing only cuts a
 * run, never merges more), else two that agree, else NULL. */
const struct live_obs *live_obs_decide(const struct live_obs *w, int n);

/* ---- running a setup (in the current process: call it in a child) ---- */

struct live_env;
struct live_tools {
    char ip[64], tc[64];       /* found by live_find_tools */
    const char *bpf_obj;       /* csum_level.bpf.o, NULL: setups with a level fail */
};
int live_find_tools(struct live_tools *t);

/* Can a setup be made here at all (root, /dev/net/tun, namespaces)? Runs in
 * a child; 0 yes, else the reason in err. */
int live_preflight(const struct live_tools *t, char *err, size_t n);

/* Enter fresh namespaces and build the setup. 0 ok, -1 error (err says
 * which). A device whose lines fail does not fail the setup: its cases end
 * as LIVE_SKIPPED when the refusal says "this kernel lacks it" (unknown
 * device kind, protocol or attribute not supported, module missing), else
 * LIVE_ERROR, with the refusal as their message. */
int live_setup(const struct live_tools *t, const struct live_setup *s, char *err, size_t n);
/* Add to the setup made (in this process, after live_setup) what s has
 * more: lines, sockets, devices (each warmed up as live_setup does). s must
 * hold the setup made in the same places (else -1 and nothing is done).
 * 0 ok, -1 error (err): the namespace is then in an unknown state. */
int live_setup_extend(const struct live_setup *s, char *err, size_t n);
/* Write one case's frames, wait until the kernel has processed them, fill o. */
int live_run_case(const struct live_case *c, struct live_obs *o);
int live_run_batch(const struct live_batch *b, struct live_obs *o);

/* Run every case of a setup in a child process (its own namespaces); obs[i]
 * gets case i's observation, or the setup's failure. Returns 0 when the
 * child ran to the end. timeout_s bounds the whole setup. */
int live_run_setup(const struct live_tools *t, const struct live_setup *s,
                   const struct live_case *cases, size_t n, struct live_obs *obs, unsigned timeout_s);

/* ---- a setup fed one case at a time (session.c) ----
 * The setup runs in a child process (its own namespaces, as
 * live_run_setup's); cases go to it over a pipe as they come and each
 * observation comes back before the next case is sent, so a caller streams
 * a capture of any length through it with one case in memory. */
struct live_session {
    int pid;                   /* the child; 0: none */
    int wfd, rfd;              /* to the child, from it */
    int status;                /* enum live_status of the setup */
    char msg[200];             /* why the setup failed or was skipped */
};
/* Build the setup in a child. 0: ready; 1: skipped (the kernel lacks what
 * the setup needs); -1: failed. ss->msg says why. timeout_s bounds the
 * child's whole life (an alarm). */
int live_session_start(struct live_session *ss, const struct live_tools *t, const struct live_setup *s,
                       unsigned timeout_s);
/* Grow the child's setup to s (live_setup_extend there). 0: done; -1: it
 * could not (ss->msg says why): the session is ended. timeout_s: the
 * child's life from now on (its alarm again). */
int live_session_extend(struct live_session *ss, const struct live_setup *s, unsigned timeout_s);
/* Run one batch; o gets its observation (an error one when the child died,
 * or gave no answer within timeout_ms: it is then killed). 0: o is the
 * child's answer; -1: the session is over. */
int live_session_run(struct live_session *ss, const struct live_batch *b, struct live_obs *o,
                     unsigned timeout_ms);
/* End the child (closing its pipe, SIGKILL if it does not exit within a
 * second) and reap it: its namespace and all it held go with it. A child
 * still closing its devices is not waited for here: it is reaped by the
 * next live_session_start or live_session_end, or when the process exits
 * (atexit). */
void live_session_end(struct live_session *ss);

/* ---- the job format (text, versioned) ---- */

/* Writer: a setup, then its cases; repeat. */
void live_job_begin(FILE *f);
void live_job_setup(FILE *f, const struct live_setup *s);
void live_job_case(FILE *f, const struct live_case *c);
/* Reader: calls fn once per setup with its cases (fn returns 0 to go on).
 * Returns the number of setups, or -1 with the reason in err (not a job, a
 * malformed or out-of-range line, fn failed). */
typedef int (*live_job_fn)(void *ctx, const struct live_setup *s, const struct live_case *cases, size_t n);
int live_job_read(FILE *job, live_job_fn fn, void *ctx, char *err, size_t errn);
/* The same, streamed: setup_fn once a setup's lines are complete, then
 * case_fn for each of its cases as soon as it is read (up to
 * LIVE_MAX_BATCH frames each). Either returns 0 to go on. */
struct live_job_stream {
    int (*setup_fn)(void *ctx, const struct live_setup *s);
    int (*case_fn)(void *ctx, const struct live_batch *b);
    void *ctx;
    unsigned max_frames;       /* frames a case may have (0: LIVE_MAX_BATCH) */
};
int live_job_read_stream(FILE *job, const struct live_job_stream *st, char *err, size_t errn);
/* A batch as a job case (up to LIVE_MAX_BATCH frames) */
void live_job_batch(FILE *f, const struct live_batch *b);
/* Agent: run every setup of the job, write the observations. Returns the
 * number of setups that could not run completely, -1 on a malformed job. */
int live_agent(const struct live_tools *t, FILE *job, FILE *out, unsigned timeout_s);
/* The agent's output: a header, then one record per observation. */
void live_result_begin(FILE *out, const char *release);
void live_result_write(FILE *out, const struct live_obs *o);
/* Reader of the agent's output: calls back once per observation. The
 * kernel release the agent ran on goes to release. Returns the number of
 * observations, -1 on a malformed file. */
int live_result_read(FILE *f, char *release, size_t rn,
                     void (*cb)(void *ctx, const struct live_obs *o), void *ctx);

/* Helpers for builders */
void live_frame_set(struct live_frame *fr, const uint8_t *data, size_t len);
/* NEEDS_CSUM at [start, start+off) of the frame (CHECKSUM_PARTIAL on the TAP). */
void live_frame_partial(struct live_frame *fr, uint16_t csum_start, uint16_t csum_offset);
const char *live_builtin_names(void);

#endif
