/*
 * replay_int.h - internals shared by the files of libcsclive-replay
 * (replay.h): the chunk being planned, what one frame needs of it.
 */
#ifndef CSC_LIVE_REPLAY_INT_H
#define CSC_LIVE_REPLAY_INT_H

#include "replay.h"
#include "vm.h"

#define LIVE_SENT_PORT 5999          /* the sentinels' UDP port (socket 0) */

/* What one frame needs of the namespace */
struct live_need {
    int kind;                        /* enum live_rk */
    uint16_t port;                   /* the tunnel's UDP port */
    char outer[48], inner[48];       /* destination addresses to own */
    int sock_kind;                   /* enum live_sock_kind, -1: none */
    uint16_t sock_port;
};

/* The namespace being planned and the frames it will take */
struct live_chunk {
    struct live_setup s;
    uint16_t dev_port[LIVE_MAX_DEVS];
    uint8_t dev_kind[LIVE_MAX_DEVS];
    int n;
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
void live_chunk_begin(const struct live_replay *lr, struct live_chunk *ch);
/* Take a frame's needs into the chunk's setup; -1 when the setup is full
 * (nothing was added then). */
int live_chunk_take(const struct live_replay *lr, struct live_chunk *ch, const struct live_need *nd,
                    struct live_fr *f);

/* receiver.c: the lines and sentinel of a receiver kind on a port */
void live_receiver_dev(const struct csc_config *cfg, struct live_dev *d, int kind, uint16_t port);
void live_receiver_sentinel(int kind, uint16_t port, struct live_frame *fr);

/* judge of one frame (replay.c) */
void live_judge_model(const struct csc_result *r, struct live_outcome *o);
void live_judge_kernel(const struct live_chunk *ch, const struct live_fr *f, struct live_outcome *out,
                       const struct live_obs *o);

#endif
