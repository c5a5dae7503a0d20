/*
 * replay_int.h - internals shared by the files of libcsclive-replay
 * (replay.h): the chunk being planned, what one frame needs of it.
 */
#ifndef CSC_LIVE_REPLAY_INT_H
#define CSC_LIVE_REPLAY_INT_H

#include "recv.h"
#include "replay.h"
#include "vm.h"

#define LIVE_SENT_PORT 5999          /* the sentinels' UDP port (socket 0) */
#define LIVE_DEV_MAC "02:00:00:00:00:03"   /* the tunnel devices' address */

/* What one frame needs of the namespace */
struct live_need {
    int kind;                        /* enum live_rk */
    uint16_t port;                   /* the tunnel's UDP port */
    char outer[48], inner[48];       /* destination addresses to own */
    char outer_src[48], inner_src[48];
    char reply_to[48];               /* an ICMP echo request: where the kernel's reply goes */
    int sock_kind;                   /* enum live_sock_kind, -1: none */
    uint16_t sock_port;
    int has_recv;                    /* a receiving device (rv) */
    struct live_recv rv;
};

#define LIVE_NS_ECHOS 256            /* echo requests of one namespace at most */

/* The frames of a chunk and the namespace they go to. A namespace outlives
 * its chunk: the next chunk (of this file or the next) adds what its frames
 * need to it (s.extends), until it is full; then a new one begins. */
struct live_chunk {
    struct live_setup s;
    struct live_recv dev_recv[LIVE_MAX_DEVS];   /* devs[1..]: what each one is */
    uint8_t dev_kind[LIVE_MAX_DEVS];
    int n;
    uint64_t ns_frames;              /* frames the namespace took, this chunk's and earlier ones' */
    int nechos;                      /* the echo requests' sources (their replies' destinations) */
    char echo_src[LIVE_NS_ECHOS][48];
    struct live_fr f[LIVE_CHUNK];
};

/* An observation as a VM sent it, kept until the second pass: only the
 * counters that moved (a struct live_obs is ~6 KB, most of it empty) */
struct live_vm_obs {
    int32_t status;
    int n;
    char *msg;
    struct { char name[LIVE_NAME_LEN]; int64_t delta; } v[];
};

/* plan.c: one frame */
/* The frame as the TAP gets it (f->fr); NULL or why not */
const char *live_plan_written(const struct csc_config *cfg, const uint8_t *data, uint32_t caplen, uint32_t len,
                              uint8_t link, struct live_fr *f);
/* Its stack read (r: csc_analyze of the written bytes): the receiver, the
 * addresses and the socket it needs, the report's virtio-net header; NULL
 * or why it cannot be replayed */
const char *live_plan_stack(const struct csc_config *cfg, const struct csc_result *r, struct live_fr *f,
                            struct live_need *nd);

/* plan.c: the chunk */
/* A chunk begins: in the namespace of the one before (keep, when it took
 * frames), or a new one */
void live_chunk_begin(const struct live_replay *lr, struct live_chunk *ch, int keep);
/* Take a frame's needs into the chunk's setup; -1 when the setup is full
 * (nothing was added then). */
int live_chunk_take(const struct live_replay *lr, struct live_chunk *ch, const struct live_need *nd,
                    struct live_fr *f);

/* receiver.c: the device of rv (summary row kind, index idx in the
 * setup; with_port: its FOU/GUE port line too) as d: its name, lines,
 * sentinel. -1: no kernel device makes it. */
int live_receiver_dev(const struct live_recv *rv, int kind, int idx, int with_port, struct live_dev *d);
/* The sentinel of rv, or of the TAP (kind LIVE_RK_PLAIN) */
void live_receiver_sentinel(const struct live_recv *rv, int kind, struct live_frame *fr);
/* Its sentinel goes to the IPv6 sentinel socket (fdcc::2, port 5999) */
int live_receiver_sent6(const struct live_recv *rv);
/* The module a refusal of rv's lines means this kernel lacks, NULL: another refusal */
const char *live_receiver_missing(const struct live_recv *rv, const char *refusal);

/* replay.c */
void live_kernel_release(struct live_replay *lr, struct live_kernel *k, const char *release);
int live_host_preflight(struct live_replay *lr, char *why, size_t n);
void live_bpf_object(struct live_replay *lr);

/* replay_vm.c: a VM kernel's observation of case id (NULL: none came) */
const struct live_obs *live_vm_obs_get(const struct live_kernel *kn, int32_t id);
void live_vm_obs_drop(struct live_kernel *k);

/* judge of one frame (replay.c) */
void live_judge_model(const struct csc_result *r, struct live_outcome *o);
void live_judge_kernel(const struct live_chunk *ch, const struct live_fr *f, struct live_outcome *out,
                       const struct live_obs *o);

#endif
