/*
 * broker.h - csumcheck --live split in two processes (the dumpcap model,
 * issue 26): the analyser reads and analyses the captures with no
 * capability, and a small privileged helper (privsep.c) does only what needs
 * privilege - the preflight, the namespaces with their TAP, devices and tc
 * BPF programs (live_session_*), and opening the inputs the user named.
 *
 * They talk over a socketpair (SOCK_STREAM) in fixed-size messages: a
 * struct brk_hdr whose len must be the one size of its type, then exactly
 * that many bytes; every reply is one struct brk_reply. Nothing of variable
 * length is parsed on either side, and every field is checked against its
 * bounds before use (brk_setup_check, brk_reply_check): a malformed request
 * ends the helper, a malformed reply ends the replay.
 */
#ifndef CSC_LIVE_BROKER_H
#define CSC_LIVE_BROKER_H

#include "live.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BRK_MAGIC 0x63737062u        /* "cspb" */

enum brk_type {
    BRK_PREFLIGHT = 1,               /* can a namespace with a TAP be made: no payload */
    BRK_START,                       /* struct brk_setup: a new namespace (live_session_start) */
    BRK_EXTEND,                      /* struct brk_setup: grow it (live_session_extend) */
    BRK_RUN,                         /* struct brk_frame: one frame through it (live_session_run) */
    BRK_END,                         /* end the namespace: no payload */
    BRK_OPEN,                        /* struct brk_open: open input i of the command line (fd in the reply) */
    BRK__COUNT
};

struct brk_hdr {
    uint32_t magic, type, seq, len;
};

struct brk_setup {
    uint32_t timeout_s;
    struct live_setup s;
};

struct brk_frame {
    int32_t id;
    uint16_t dev;
    uint8_t flags;
    uint32_t timeout_ms;
    struct live_frame fr;
};

struct brk_open {
    uint32_t index;
};

struct brk_reply {
    uint32_t magic, type, seq;
    int32_t rc;                      /* the live_session_* result; BRK_OPEN: 0 and an fd, or -errno */
    struct live_obs o;               /* BRK_RUN: the observation; else o.msg says why rc is not 0 */
};

/* The one payload size of a request type; SIZE_MAX: no such type */
size_t brk_payload_size(uint32_t type);
/* A setup fit to be made: every count within its array, every string
 * terminated, every command line one the planner writes (ip link/addr/
 * route/fou/l2tp, @vxlan, @gro, @sysctl net.*) and nothing that reaches
 * outside the namespace (netns, -batch, files). NULL, or why not. */
const char *brk_setup_check(const struct live_setup *s);
/* A frame fit to be written; NULL, or why not */
const char *brk_frame_check(const struct brk_frame *f);
/* A reply fit to be read (magic, type, seq, counts, strings); NULL or why */
const char *brk_reply_check(const struct brk_reply *r, uint32_t type, uint32_t seq);

/* Whole reads and writes; fd passing (SCM_RIGHTS) with a reply */
int brk_read_full(int fd, void *buf, size_t n);
int brk_write_full(int fd, const void *buf, size_t n);
int brk_send_fd(int sock, const void *buf, size_t n, int fd);
int brk_recv_fd(int sock, void *buf, size_t n, int *fd);

/* ---- the analyser's side ---- */
struct live_broker {
    int fd;                          /* the socketpair's end; -1: none */
    int pid;                         /* the helper */
    uint32_t seq;
    bool dead;                       /* the helper is gone: every request fails with why */
    char why[240];
};

/* live_session_* through the helper (same results, ss->msg filled) */
int live_broker_preflight(struct live_broker *b, char *err, size_t n);
int live_broker_start(struct live_broker *b, struct live_session *ss, const struct live_setup *s,
                      unsigned timeout_s);
int live_broker_extend(struct live_broker *b, struct live_session *ss, const struct live_setup *s,
                       unsigned timeout_s);
int live_broker_run(struct live_broker *b, struct live_session *ss, const struct live_batch *bt,
                    struct live_obs *o, unsigned timeout_ms);
void live_broker_end(struct live_broker *b, struct live_session *ss);
/* Input index of the command line, opened by the helper: an fd, or -1
 * with the reason in err */
int live_broker_open(struct live_broker *b, unsigned index, char *err, size_t n);
/* Close the socket, reap the helper */
void live_broker_close(struct live_broker *b);

/* ---- privsep.c ---- */
/* Fork the helper (it keeps CAP_NET_ADMIN and CAP_SYS_ADMIN, NO_NEW_PRIVS,
 * its seccomp allow-list) and drop this process to an unprivileged user
 * (SUDO_UID/SUDO_GID, else nobody) with no capability, NO_NEW_PRIVS and the
 * analyser's seccomp filter. paths[0..npaths): the inputs the helper may
 * open (BRK_OPEN), the only files it opens for the analyser. 0, or -1
 * with why in err (nothing was changed, or the process must stop). */
int live_privsep_start(struct live_broker *b, const char *const *paths, unsigned npaths, char *err, size_t n);
/* Not root, yet capabilities permitted (a file-capability copy run for
 * something else than --live here): give them all up */
void live_privsep_drop_file_caps(void);
/* Does this process hold what the helper needs (euid 0, or CAP_NET_ADMIN
 * and CAP_SYS_ADMIN permitted)? */
bool live_privsep_capable(void);

/* ---- sandbox.c ---- */
/* The helper's allow-list (a violation kills the helper alone: SIGSYS) and
 * the analyser's (a call outside it fails with EPERM). 0, or -1 with why. */
int live_sandbox_helper(char *err, size_t n);
int live_sandbox_analyser(char *err, size_t n);

#endif
