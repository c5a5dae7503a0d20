/*
 * kfuzz_cases.c - fixed fuzz cases: `csc-kfuzz --cases FILE` runs the
 * recipes of a file instead of generated frames (tests/kernel/kfuzz-cases.txt,
 * the `kf:` cases of docs/kernel-branches.md). Every one must agree with
 * the kernel: no known list, and a model that says unknown fails too.
 *
 * One recipe a line ('#' starts a comment):
 *
 *   RECEIVER UNDERLAY REPORT L4 [runN] [len=N] [MUTATION...]
 *
 *   RECEIVER   as kf_receiver_name() prints it: the tunnel (kd_tun_name), its
 *              header variants (+C+K, +opt, +rco ...) and device options in
 *              brackets ("gretap+C+K[icsum,ikey]", "vxlan[remcsumrx]", "plain4")
 *   UNDERLAY   ip4 | ip6
 *   REPORT     none (plain TAP) | napi (IFF_NAPI: the TAP's GRO) | gro (IFF_NAPI +
 *              gro_flush_timeout, for runs) | unnecessary:L (the BPF program) |
 *              partial:outer | partial:inner | partial:ip (NEEDS_CSUM there) |
 *              sysctl1 (plain TAP, the fuzzer's sysctl profile)
 *   L4         tcp4 tcp6 udp4 udp6 icmp4 icmp6 raw4 raw6: the innermost transport
 *              and its family
 *   runN       N segments of one flow (REPORT gro)
 *   len=N      the transport payload (default: TCP 100, UDP 64, ICMP and raw 32)
 *   MUTATION   as kf_mut_name() prints it: [sN:]role.kind=value ("iip.ihl=4",
 *              "pay.trunc=in-l4", "oip.v6ext=frag-atomic"); or an edit the
 *              catalogue has no word for:
 *                ROLE.short=N      the role's header and all after it are its first N
 *                                  bytes (<= 32): a header cut short with every outer
 *                                  length still right ("iip.short=10")
 *                ROLE.set@OFF=HEX  bytes written at OFF of the role's header before the
 *                                  checksums ("tun.set@1=02": GRE version 2)
 *              an edit too may be on one segment of a run only: "s2:l4.set@13=10";
 *              MUTATION*N (2..16) inserts its layer N times, one in the other
 *              ("oeth.vlan=prio-tag*13": a stack of 13 priority tags)
 *              ROLE: oeth oip oudp tun gre ieth iip l4 pay (kf_role_name)
 */
#include "kfuzz.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int receiver_of(const char *word, int v6, struct kf_case *c, char *err, size_t en)
{
    static const uint8_t tuns[][2] = {
        { KT_PLAIN, 0 }, { KT_VXLAN, 0 }, { KT_GPE, 0 }, { KT_GENEVE, 0 }, { KT_GRE, 0 }, { KT_GRETAP, 0 },
        { KT_IPIP, 0 }, { KT_IP6, 0 }, { KT_FOU, 4 }, { KT_FOU, 41 }, { KT_FOU, 47 }, { KT_GUE, 4 }, { KT_GUE, 41 },
        { KT_GUE, 47 }, { KT_GREUDP, 0 }, { KT_ERSPAN, 0 }, { KT_L2TP, 0 }, { KT_L2TP, KD_L2TP_UDP },
    };
    char name[64];
    size_t tl = strcspn(word, "+[");
    snprintf(name, sizeof name, "%.*s", (int)(tl < 63 ? tl : 63), word);
    int found = 0;
    for (size_t i = 0; i < sizeof tuns / sizeof *tuns && !found; i++) {
        struct kd_group g = { tuns[i][0], tuns[i][1], (uint8_t)v6, 0, 0, -1, 0 };
        if (!strcmp(kd_tun_name(&g), name)) {
            c->g.tun = g.tun;
            c->g.payload = g.payload;
            found = 1;
        }
    }
    if (!found) {
        snprintf(err, en, "no receiver '%s' over %s", name, v6 ? "ip6" : "ip4");
        return -1;
    }
    /* header variants and options: whatever kf_receiver_name prints the
     * same way is the recipe's receiver */
    static const char *const hdrs[] = { "rco", "C", "K", "S", "opt", "crit", "oam", "ver1", "l3", "ctrl",
                                        "privflag", "direct", "flag", "ver2", "erspan2", "erspan3" };
    static const char *const opts[] = { "remcsumrx", "nopartial", "noremcsumrx", "udp6zerocsumrx", "external",
                                        "innerprotoinherit", "icsum", "ikey", "erspan1", "erspan2", "nogro" };
    const char *p = word + tl;
    while (*p == '+') {
        size_t n = strcspn(p + 1, "+[");
        int hit = 0;
        if (n == 7 && !strncmp(p + 1, "mplsudp", 7)) {
            c->flags |= KF_F_MPLSUDP;
            hit = 1;
        }
        for (unsigned i = 0; i < sizeof hdrs / sizeof *hdrs && !hit; i++)
            if (strlen(hdrs[i]) == n && !strncmp(p + 1, hdrs[i], n)) {
                c->hdr |= (uint16_t)(1u << i);
                hit = 1;
            }
        if (!hit) {
            snprintf(err, en, "no header variant '+%.*s'", (int)n, p + 1);
            return -1;
        }
        p += 1 + n;
    }
    if (*p == '[') {
        p++;
        while (*p && *p != ']') {
            size_t n = strcspn(p, ",]");
            int hit = 0;
            for (unsigned i = 0; i < sizeof opts / sizeof *opts && !hit; i++)
                if (strlen(opts[i]) == n && !strncmp(p, opts[i], n)) {
                    c->g.opts |= (uint16_t)(1u << i);
                    hit = 1;
                }
            if (!hit) {
                snprintf(err, en, "no device option '%.*s'", (int)n, p);
                return -1;
            }
            p += n + (p[n] == ',');
        }
        p += *p == ']';
    }
    if (*p) {
        snprintf(err, en, "receiver '%s': '%s' not understood", word, p);
        return -1;
    }
    char back[96];
    kf_receiver_name(c, back, sizeof back);
    if (strcmp(back, word)) {
        snprintf(err, en, "receiver '%s' reads back as '%s' (write it in that order)", word, back);
        return -1;
    }
    return 0;
}

static int report_of(const char *w, struct kf_case *c)
{
    c->g.level = -1;
    if (!strcmp(w, "none"))
        c->report = KFR_NONE;
    else if (!strcmp(w, "sysctl1"))
        c->sysctl = 1;
    else if (!strcmp(w, "napi"))
        c->g.napi = 1;
    else if (!strcmp(w, "gro"))
        c->g.napi = c->g.gro = 1;
    else if (!strncmp(w, "unnecessary:", 12) && w[12] >= '0' && w[12] <= '2' && !w[13]) {
        c->report = KFR_UNNECESSARY;
        c->g.level = (int8_t)(w[12] - '0');
    } else if (!strcmp(w, "partial:outer") || !strcmp(w, "partial:inner") || !strcmp(w, "partial:ip")) {
        c->report = KFR_PARTIAL;
        c->ptarget = w[8] == 'o' ? 0 : w[8] == 'i' && w[9] == 'n' ? 1 : 3;
    } else
        return -1;
    return 0;
}

/* The mutation whose kf_mut_name is word, over the case's base stack */
static int mutation_of(struct kf_case *c, const char *word, struct kf_mut *out)
{
    static struct pb_frame f;
    int role[RO__COUNT];
    kf_base_stack(c, 0, &f, role);
    unsigned seg = 0;
    const char *w = word;
    if (w[0] == 's' && isdigit((unsigned char)w[1])) {
        seg = (unsigned)strtoul(w + 1, NULL, 10);
        w = strchr(w, ':');
        if (!w)
            return -1;
        w++;
    }
    for (unsigned k = 0; k < MK__COUNT; k++)
        for (unsigned r = 0; r < RO__COUNT; r++) {
            unsigned n = kf_mut_nsel_cases(c, &f, role, k, r);
            for (unsigned s = 0; s < n; s++) {
                struct kf_mut m = { (uint8_t)k, (uint8_t)r, (uint8_t)s, 0, 0 };
                char name[96];
                kf_mut_name(c, &m, name, sizeof name);
                if (!strcmp(name, w)) {
                    m.seg = (uint8_t)seg;
                    *out = m;
                    return 0;
                }
            }
        }
    return -1;
}

/* A mutation, or MUTATION*N (2..KF_MAX_REP): a layer it inserts (a VLAN
 * tag) N times, one inside the other ("oeth.vlan=prio-tag*13": 13 tags) */
static int mutation_rep_of(struct kf_case *c, const char *word, struct kf_mut *out, char *err, size_t en)
{
    char w[96];
    snprintf(w, sizeof w, "%s", word);
    char *star = strrchr(w, '*');
    unsigned long rep = 1;
    *err = 0;
    if (star) {
        char *end;
        rep = strtoul(star + 1, &end, 10);
        if (*end || end == star + 1 || rep < 2 || rep > KF_MAX_REP) {
            snprintf(err, en, "'%s': a repeat is *2..*%d", word, KF_MAX_REP);
            return -1;
        }
        *star = 0;
    }
    if (mutation_of(c, w, out))
        return -1;
    if (rep > 1 && out->kind != MK_VLAN) {
        snprintf(err, en, "'%s': only a VLAN tag repeats", word);
        return -1;
    }
    out->rep = (uint8_t)(rep > 1 ? rep : 0);
    return 0;
}

/* ROLE.short=N, ROLE.set@OFF=HEX: an edit beyond the catalogue */
static int edit_of(const char *w, struct kf_edit *e)
{
    unsigned seg = 0;
    if (w[0] == 's' && isdigit((unsigned char)w[1])) {     /* sN: one segment of a run */
        seg = (unsigned)strtoul(w + 1, NULL, 10);
        w = strchr(w, ':');
        if (!w || seg < 1 || seg > KD_MAX_SEGS)
            return -1;
        w++;
    }
    const char *dot = strchr(w, '.');
    if (!dot)
        return -1;
    int role = -1;
    for (unsigned r = 0; r < RO__COUNT; r++)
        if (strlen(kf_role_name(r)) == (size_t)(dot - w) && !strncmp(w, kf_role_name(r), (size_t)(dot - w)))
            role = (int)r;
    if (role < 0)
        return -1;
    memset(e, 0, sizeof *e);
    e->role = (uint8_t)role;
    e->seg = (uint8_t)seg;
    char *end;
    if (!strncmp(dot + 1, "short=", 6)) {
        unsigned long n = strtoul(dot + 7, &end, 10);
        if (*end || end == dot + 7 || n > sizeof ((struct pb_layer *)0)->raw)
            return -1;
        e->op = KE_SHORT;
        e->len = (uint8_t)n;
        return 0;
    }
    if (strncmp(dot + 1, "set@", 4))
        return -1;
    unsigned long off = strtoul(dot + 5, &end, 10);
    if (end == dot + 5 || *end != '=' || off > 200)
        return -1;
    const char *h = end + 1;
    size_t hl = strlen(h);
    if (!hl || hl % 2 || hl / 2 > sizeof e->val)
        return -1;
    for (size_t i = 0; i < hl / 2; i++) {
        char byte[3] = { h[2 * i], h[2 * i + 1], 0 };
        if (!isxdigit((unsigned char)byte[0]) || !isxdigit((unsigned char)byte[1]))
            return -1;
        e->val[i] = (uint8_t)strtoul(byte, NULL, 16);
    }
    e->op = KE_SET;
    e->off = (uint16_t)off;
    e->len = (uint8_t)(hl / 2);
    return 0;
}

/* The next-protocol field of layer i as built (buf) - what a short layer
 * after it must still be announced as */
static uint16_t next_proto_of(const struct pb_frame *f, const uint8_t *buf, int i)
{
    const uint8_t *p = buf + f->off[i];
    switch (f->l[i].kind) {
    case PB_ETH: case PB_VLAN: case PB_QINQ: return (uint16_t)(p[f->hlen[i] - 2] << 8 | p[f->hlen[i] - 1]);
    case PB_GRE: case PB_GENEVE: return (uint16_t)(p[2] << 8 | p[3]);
    case PB_IPV4: case PB_IPV6: {
        uint8_t pr = pb_ipproto(f, i + 1);
        return pr ? pr : 0x100;
    }
    case PB_GUE: return p[1] ? p[1] : 0x100;
    default: return 0;
    }
}

void kf_edits_apply(const struct kf_case *c, int seg, struct pb_frame *f, int *role)
{
    for (int i = 0; i < c->nedit; i++) {
        const struct kf_edit *e = &c->edit[i];
        int l = role[e->role];
        if (l < 0 || l >= f->n || (e->seg && e->seg != seg + 1))
            continue;
        if (e->op == KE_SET) {
            struct pb_patch *p = pb_patch_add(f, l, PB_PATCH_SET, e->off, e->len);
            if (p)
                memcpy(p->val, e->val, e->len);
            continue;
        }
        /* KE_SHORT: build to read the header's bytes, then end the stack
         * with them raw (the layer before still announces the protocol) */
        static struct pb_frame t;
        static uint8_t buf[LIVE_MAX_FRAME];
        t = *f;
        if (!pb_build(&t, buf, sizeof buf))
            continue;
        uint8_t raw[sizeof f->l[0].raw];
        size_t n = e->len <= t.len - t.off[l] ? e->len : t.len - t.off[l];
        memcpy(raw, buf + t.off[l], n);
        if (l > 0) {
            uint16_t np = next_proto_of(&t, buf, l - 1);
            if (np)
                f->l[l - 1].proto = np;
        }
        memset(&f->l[l], 0, sizeof f->l[l]);
        f->l[l].kind = PB_RAW;
        f->l[l].len = (uint16_t)n;
        memcpy(f->l[l].raw, raw, n);
        f->n = l + 1;
        for (int r = 0; r < RO__COUNT; r++)
            if (role[r] > l)
                role[r] = -1;
        int kept = 0;                  /* its patches are in the raw bytes; the later ones go */
        for (int k = 0; k < f->npatch; k++)
            if (f->patch[k].layer < l)
                f->patch[kept++] = f->patch[k];
        f->npatch = kept;
    }
}

int kf_case_parse(const char *line, uint32_t index, struct kf_case *c, char *err, size_t en)
{
    char buf[1024], *words[24];
    int nw = 0;
    snprintf(buf, sizeof buf, "%s", line);
    buf[strcspn(buf, "#\r\n")] = 0;
    for (char *t = strtok(buf, " \t"); t && nw < 24; t = strtok(NULL, " \t"))
        words[nw++] = t;
    memset(c, 0, sizeof *c);
    c->index = index;
    c->nseg = 1;
    if (nw == 0)
        return 1;                      /* blank */
    if (nw < 4) {
        snprintf(err, en, "want RECEIVER UNDERLAY REPORT L4 [runN] [len=N] [MUTATION...]");
        return -1;
    }
    int v6 = !strcmp(words[1], "ip6");
    if (!v6 && strcmp(words[1], "ip4")) {
        snprintf(err, en, "underlay '%s': ip4 or ip6", words[1]);
        return -1;
    }
    c->g.v6 = (uint8_t)v6;
    if (receiver_of(words[0], v6, c, err, en))
        return -1;
    if (report_of(words[2], c)) {
        snprintf(err, en, "report '%s' not understood", words[2]);
        return -1;
    }
    static const char *const l4s[KL__COUNT] = { "tcp", "udp", "icmp", "raw" };
    const char *t = words[3];
    size_t tl = strlen(t);
    int l4 = -1;
    for (int i = 0; i < KL__COUNT; i++)
        if (tl == strlen(l4s[i]) + 1 && !strncmp(t, l4s[i], tl - 1) && (t[tl - 1] == '4' || t[tl - 1] == '6'))
            l4 = i;
    if (l4 < 0) {
        snprintf(err, en, "transport '%s': tcp4, udp6, icmp4, raw6 ...", t);
        return -1;
    }
    c->l4 = (uint8_t)l4;
    c->inner6 = t[tl - 1] == '6';
    if (c->g.tun == KT_PLAIN && c->inner6 != v6) {
        snprintf(err, en, "plain IP: the transport's family is the underlay's");
        return -1;
    }
    c->paylen = l4 == KL_TCP ? KD_TCP_PAYLOAD : l4 == KL_UDP ? KD_UDP_PAYLOAD : 32;
    c->sport = (uint16_t)(20000 + index % 40000);
    for (int i = 4; i < nw; i++) {
        if (!strncmp(words[i], "run", 3) && isdigit((unsigned char)words[i][3])) {
            c->nseg = (uint8_t)atoi(words[i] + 3);
            if (c->nseg < 2 || c->nseg > KD_MAX_SEGS || !c->g.gro) {
                snprintf(err, en, "%s: 2..%d segments, on a gro TAP", words[i], KD_MAX_SEGS);
                return -1;
            }
        } else if (!strncmp(words[i], "len=", 4)) {
            c->paylen = (uint16_t)atoi(words[i] + 4);
            if (c->paylen > KF_PAYLOAD_MAX) {
                snprintf(err, en, "len over %d", KF_PAYLOAD_MAX);
                return -1;
            }
        } else if (strstr(words[i], ".short=") || strstr(words[i], ".set@")) {
            if (c->nedit >= KF_MAX_EDIT || edit_of(words[i], &c->edit[c->nedit])) {
                snprintf(err, en, "edit '%s': ROLE.short=N (N <= 32) or ROLE.set@OFF=HEX (<= 16 bytes)", words[i]);
                return -1;
            }
            c->nedit++;
        } else if (c->nmut >= KF_MAX_MUT || mutation_rep_of(c, words[i], &c->mut[c->nmut], err, en)) {
            if (!*err)
                snprintf(err, en, "no mutation '%s' for this receiver", words[i]);
            return -1;
        } else {
            c->nmut++;
        }
    }
    return 0;
}

static char (*TEXT)[400];
static struct kf_case *CASES;

void kf_cases_free(void)
{
    free(CASES);
    free(TEXT);
    CASES = NULL;
    TEXT = NULL;
}

const char *kf_case_text(uint32_t i)
{
    return TEXT ? TEXT[i] : "";
}

int kf_cases_load(const char *path, struct kf_case **out, uint32_t *n)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 64, cnt = 0;
    struct kf_case *v = malloc(cap * sizeof *v);
    free(TEXT);
    TEXT = malloc(cap * sizeof *TEXT);
    if (!TEXT) {
        free(v);
        v = NULL;
    }
    char line[1024], err[200];
    int lineno = 0, bad = 0;
    while (v && fgets(line, sizeof line, f)) {
        lineno++;
        if (cnt == cap) {
            struct kf_case *nv = realloc(v, 2 * cap * sizeof *v);
            char (*nt)[400] = nv ? realloc(TEXT, 2 * cap * sizeof *TEXT) : NULL;
            v = nv ? nv : v;
            if (!nt) {
                bad++;
                break;
            }
            TEXT = nt;
            cap *= 2;
        }
        int rc = kf_case_parse(line, (uint32_t)cnt, &v[cnt], err, sizeof err);
        if (rc < 0) {
            line[strcspn(line, "\r\n")] = 0;
            fprintf(stderr, "%s:%d: %s: %s\n", path, lineno, err, line);
            bad++;
        } else if (rc == 0) {
            line[strcspn(line, "#\r\n")] = 0;
            size_t e = strlen(line);
            while (e && (line[e - 1] == ' ' || line[e - 1] == '\t'))
                line[--e] = 0;
            snprintf(TEXT[cnt], sizeof TEXT[cnt], "%s", line + strspn(line, " \t"));
            cnt++;
        }
    }
    fclose(f);
    if (!v || bad || !cnt) {
        free(v);
        if (!bad)
            fprintf(stderr, "%s: no case\n", path);
        return -1;
    }
    free(CASES);
    CASES = *out = v;
    *n = (uint32_t)cnt;
    return 0;
}
