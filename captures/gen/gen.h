/*
 * gen.h - csc-gen: the capture corpus generator (issue 7).
 *
 * A case is one line of a table: a stack description (spec.c parses it into
 * a pb_frame, the project's frame builder, with the intended checksum state
 * of every layer), plus what happens at capture time: snaplen, IPv4/IPv6
 * fragmentation, direction. A file is a theme: a list of cases written as
 * one pcap or pcapng. The intended per-layer verdict of every frame is
 * derived from the same table (intent.c) and printed by `csc-gen manifest`,
 * which the tshark cross-check and the golden tests read: nothing is copied
 * by hand.
 */
#ifndef CSC_GEN_H
#define CSC_GEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "capw.h"
#include "pb.h"

/* Fixed capture clock: 2024-01-01 00:00:00 UTC, 1 ms per frame. */
#define GEN_T0_USEC 1704067200000000ull
#define GEN_STEP_USEC 1000ull

/* FOU ports of the corpus: csumcheck needs --fou-port 5555:4 --fou-port 5556:41 */
#define GEN_FOU_PORT_IPIP 5555
#define GEN_FOU_PORT_IPV6 5556
#define GEN_VXLAN_LINUX_PORT 8472   /* not VXLAN unless configured: a needs-option stop */

enum gen_frag { GEN_FRAG_NONE = 0, GEN_FRAG_INORDER, GEN_FRAG_REVERSE, GEN_FRAG_FIRST_ONLY,
                GEN_FRAG_DUP_MIDDLE,   /* in order, the second fragment sent twice */
                GEN_FRAG_LAST_FIRST    /* the last fragment, then the others in order */ };

struct gen_case {
    const char *name;        /* short id, unique within the file */
    const char *stack;       /* stack description, see spec.c */
    const char *what;        /* what the frame exercises (README, manifest) */
    uint32_t snaplen;        /* caplen cut (0: whole frame) */
    uint16_t frag_mtu;       /* fragment the outermost IP layer (0: no) */
    uint8_t frag;            /* enum gen_frag */
    uint8_t dir;             /* enum capw_dir (pcapng epb_flags) */
};

struct gen_flow {
    int segments;            /* TCP segments of one flow */
    int outer_zero;          /* outer UDP checksum zero (seed 004) or present */
    int bad_seg;             /* 1-based segment with a bad inner TCP checksum (0: none) */
    int outer6;              /* outer IPv6 */
    int payload;             /* TCP payload bytes per segment */
    int zero_seg;            /* 1-based segment whose outer UDP checksum is zero alone
                                (another flow at the NIC: udp_gro_receive); 0: none */
};

struct gen_file {
    const char *name;        /* file name under captures/ */
    const char *theme;       /* one line for the README */
    uint8_t format;          /* enum capw_format */
    uint32_t linktype;       /* 0: from the first frame (pb_linktype) */
#define GEN_LINKTYPE_NULL 0xffffffffu   /* LINKTYPE_NULL (0) itself */
    const struct gen_case *cases;
    size_t ncases;
    const struct gen_flow *flow;   /* instead of cases: a TCP flow */
};

extern const struct gen_file gen_files[];
extern const size_t gen_nfiles;
/* real.c: stand-ins for the public captures the repository may not carry */
extern const struct gen_file gen_real_files[];
extern const size_t gen_nreal_files;

/* spec.c: parse a stack description into f (pb_init'ed first).
 * Returns 0, or -1 with a message in err. */
int gen_parse(const char *spec, struct pb_frame *f, char *err, size_t errlen);

/* intent.c: one checksummed layer as the generator means it. */
struct gen_intent {
    int layer;               /* pb layer index (-1: appended by reassembly) */
    const char *proto;       /* csumcheck's name: ipv4 udp tcp icmp icmpv6 gre */
    const char *verdict;     /* csumcheck vocabulary: good bad none zero6 partial lco rco unverifiable */
    int tshark;              /* expected tshark *.checksum.status, -1: tshark shows no verdict */
};
#define GEN_MAX_INTENT 32

/* Intended verdicts of a built frame f of which caplen bytes are captured.
 * Returns the number of entries. */
int gen_intent_frame(const struct pb_frame *f, size_t caplen, struct gen_intent *out);

/* corpus.c: write one file (path) and/or its manifest lines (to man). */
int gen_write_file(const struct gen_file *gf, const char *path, FILE *man);

/* flow.c */
int gen_flow_write(const struct gen_flow *fl, struct capw *w, FILE *man, const char *fname,
                   uint64_t *ts, uint32_t *frame_no);
int gen_cmd_flow(int argc, char **argv);
int gen_cmd_bench(int argc, char **argv);

/* shape.c: bench traffic shapes (many flows, interleaving, sizes, tunnels) */
int gen_shape_option(const char *a);
int gen_cmd_shape(int argc, char **argv, int (*parse_size)(const char *, unsigned long long *),
                  FILE *(*open_out)(const char *, const char *));

/* Manifest line: file frame case layer proto verdict tshark what */
void gen_manifest_line(FILE *man, const char *file, uint32_t frame, const char *cname,
                       const struct gen_intent *in, const char *what);

#endif
