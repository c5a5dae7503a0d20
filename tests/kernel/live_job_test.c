/*
 * live_job_test.c - the job and result formats of libcsclive (live/job.c),
 * which carry setups, cases and observations to and from a VM: a round trip
 * keeps every field and byte, and every malformed or out-of-range line is
 * refused with its line number. Needs no root and no kernel.
 */
#define _GNU_SOURCE
#include "live.h"
#include "live_int.h"   /* live_setup_holds */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                                 \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            failures++;                                                                  \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                  \
            printf(__VA_ARGS__);                                                         \
            printf("\n");                                                                \
        }                                                                                \
    } while (0)

static struct live_setup SETUP;
static struct live_case CASES[3];

static void make_job(void)
{
    memset(&SETUP, 0, sizeof SETUP);
    snprintf(SETUP.name, sizeof SETUP.name, "IPv6 underlay, TAP IFF_NAPI");
    SETUP.napi = 1;
    SETUP.gro_flush_ns = 4000000;
    SETUP.level = 1;
    SETUP.ncmds = 1;
    snprintf(SETUP.cmds[0], LIVE_CMD_LEN, "ip addr add 2001:db8::2/64 dev kd0 nodad");
    SETUP.nsocks = 2;
    SETUP.socks[0] = (struct live_sock){ LIVE_UDP6, 5000 };
    SETUP.socks[1] = (struct live_sock){ LIVE_TCP4, 5001 };
    SETUP.ndevs = 2;
    for (int d = 0; d < 2; d++) {
        struct live_dev *dev = &SETUP.devs[d];
        snprintf(dev->ifname, sizeof dev->ifname, "t%d", d * 7);
        snprintf(dev->name, sizeof dev->name, "t%d (geneve external)", d * 7);
        dev->ncmds = 2;
        snprintf(dev->cmds[0], LIVE_CMD_LEN, "ip link add t%d type geneve external", d * 7);
        snprintf(dev->cmds[1], LIVE_CMD_LEN, "ip link set t%d up", d * 7);
        dev->nsent = 1 + d;
        for (int i = 0; i < dev->nsent; i++) {
            uint8_t b[70];
            for (size_t k = 0; k < sizeof b; k++)
                b[k] = (uint8_t)(k * 7 + d + i);
            live_frame_set(&dev->sent[i], b, sizeof b);
            dev->sent_sock[i] = (uint8_t)i;
        }
    }
    for (int c = 0; c < 3; c++) {
        memset(&CASES[c], 0, sizeof CASES[c]);
        CASES[c].id = 100 + c;
        CASES[c].dev = (uint8_t)(c & 1);
        CASES[c].nframes = (uint8_t)(c + 1);
        for (int f = 0; f < CASES[c].nframes; f++) {
            uint8_t b[200];
            for (size_t k = 0; k < sizeof b; k++)
                b[k] = (uint8_t)(k ^ (unsigned)(c * 31 + f));
            live_frame_set(&CASES[c].frames[f], b, 60 + (size_t)f * 40);
            if (f == 1)
                live_frame_partial(&CASES[c].frames[f], 34, 6);
        }
    }
}

static int frames_equal(const struct live_frame *a, const struct live_frame *b)
{
    return a->len == b->len && !memcmp(a->vnet, b->vnet, sizeof a->vnet) && !memcmp(a->data, b->data, a->len);
}

static int seen_setups;

static int check_setup(void *ctx, const struct live_setup *s, const struct live_case *c, size_t n)
{
    (void)ctx;
    seen_setups++;
    CHECK(!strcmp(s->name, SETUP.name), "name %s", s->name);
    CHECK(s->napi == 1 && s->gro_flush_ns == 4000000 && s->level == 1, "napi/gro/level");
    CHECK(s->ncmds == 1 && !strcmp(s->cmds[0], SETUP.cmds[0]), "cmds");
    CHECK(s->nsocks == 2 && s->socks[0].kind == LIVE_UDP6 && s->socks[0].port == 5000 &&
              s->socks[1].kind == LIVE_TCP4 && s->socks[1].port == 5001, "sockets");
    CHECK(s->ndevs == 2, "%d devices", s->ndevs);
    for (int d = 0; d < s->ndevs && d < 2; d++) {
        const struct live_dev *x = &s->devs[d], *y = &SETUP.devs[d];
        CHECK(!strcmp(x->ifname, y->ifname) && !strcmp(x->name, y->name), "device %d names %s / %s", d,
              x->ifname, x->name);
        CHECK(x->ncmds == 2 && !strcmp(x->cmds[1], y->cmds[1]), "device %d lines", d);
        CHECK(x->nsent == y->nsent, "device %d sentinels", d);
        for (int i = 0; i < x->nsent && i < y->nsent; i++)
            CHECK(frames_equal(&x->sent[i], &y->sent[i]) && x->sent_sock[i] == y->sent_sock[i],
                  "device %d sentinel %d", d, i);
    }
    CHECK(n == 3, "%zu cases", n);
    for (size_t i = 0; i < n && i < 3; i++) {
        CHECK(c[i].id == CASES[i].id && c[i].dev == CASES[i].dev && c[i].nframes == CASES[i].nframes,
              "case %zu header", i);
        for (int f = 0; f < c[i].nframes; f++)
            CHECK(frames_equal(&c[i].frames[f], &CASES[i].frames[f]), "case %zu frame %d", i, f);
    }
    return 0;
}

static void test_round_trip(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    live_job_begin(f);
    for (int k = 0; k < 2; k++) {
        live_job_setup(f, &SETUP);
        for (int c = 0; c < 3; c++)
            live_job_case(f, &CASES[c]);
    }
    fclose(f);
    f = fmemopen(buf, len, "r");
    char err[160] = "";
    seen_setups = 0;
    int n = live_job_read(f, check_setup, NULL, err, sizeof err);
    CHECK(n == 2 && seen_setups == 2, "round trip: %d setups (%s)", n, err);
    fclose(f);
    free(buf);
}

static int count_setup(void *ctx, const struct live_setup *s, const struct live_case *c, size_t n)
{
    (void)ctx, (void)s, (void)c, (void)n;
    return 0;
}

/* Each of these must be refused, naming its line. */
static void test_malformed(void)
{
    static const struct {
        const char *text, *what;
    } bad[] = {
        { "", "empty job" },
        { "csc-live-job 2\n", "not a job" },
        { "csc-live-job 1\nnapi 1\n", "malformed job line 2" },
        { "csc-live-job 1\nsetup x\nnapi 2\n", "line 3" },
        { "csc-live-job 1\nsetup x\nlevel 4\n", "line 3" },
        { "csc-live-job 1\nsetup x\ngro -5\n", "line 3" },
        { "csc-live-job 1\nsetup x\nsock udp5 5000\n", "line 3" },
        { "csc-live-job 1\nsetup x\nsock udp4 70000\n", "line 3" },
        { "csc-live-job 1\nsetup x\ndcmd ip link\n", "line 3" },
        { "csc-live-job 1\nsetup x\nsock udp4 5\ndev t0\nsent 1 00000000000000000000 0102\n", "line 5" },
        { "csc-live-job 1\nsetup x\nsock udp4 5\ndev t0\nsent 0 000000000000000000 0102\n", "line 5" },
        { "csc-live-job 1\nsetup x\nsock udp4 5\ndev t0\nsent 0 00000000000000000000 01x2\n", "line 5" },
        { "csc-live-job 1\nsetup x\ndev t0\ncase 1 1\n", "line 4" },
        { "csc-live-job 1\nsetup x\ndev t0\ncase 1 0 junk\n", "line 4" },
        { "csc-live-job 1\nsetup x\nframe 00000000000000000000 0102\n", "line 3" },
        { "csc-live-job 1\nsetup x\nbogus 1\n", "line 3" },
        { "csc-live-job 1\nsetup x\ndev \n", "line 3" },
        { "csc-live-job 1\nsetup x\ndev t0\ncase 1 0\nframe 00000000000000000000 00\n"
          "frame 00000000000000000000 00\nframe 00000000000000000000 00\nframe 00000000000000000000 00\n"
          "frame 00000000000000000000 00\n", "line 9" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        FILE *f = tmpfile();
        fputs(bad[i].text, f);
        rewind(f);
        char err[160] = "";
        int n = live_job_read(f, count_setup, NULL, err, sizeof err);
        CHECK(n == -1 && strstr(err, bad[i].what), "bad job %zu: got %d, \"%s\" (wanted \"%s\")", i, n, err,
              bad[i].what);
        fclose(f);
    }
}

static struct live_obs GOT[4];
static int NGOT;

static void keep(void *ctx, const struct live_obs *o)
{
    (void)ctx;
    if (NGOT < 4)
        GOT[NGOT++] = *o;
}

static void test_results(void)
{
    struct live_obs o[2];
    memset(o, 0, sizeof o);
    o[0].id = 7;
    o[0].status = LIVE_OK;
    o[0].settle_us = 1234;
    o[0].retries = 2;
    o[0].disputed = 1;
    o[0].n = 3;
    snprintf(o[0].v[0].name, LIVE_NAME_LEN, "UdpInCsumErrors");
    o[0].v[0].delta = 1;
    snprintf(o[0].v[1].name, LIVE_NAME_LEN, "dev:t3:rx_bytes");
    o[0].v[1].delta = -140;
    snprintf(o[0].v[2].name, LIVE_NAME_LEN, "dev:t3:rx_errors");
    o[0].v[2].delta = 2;
    o[1].id = 8;
    o[1].status = LIVE_SKIPPED;
    snprintf(o[1].msg, sizeof o[1].msg, "t32 (geneve): Error: Unknown device type.");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    live_result_begin(f, "6.12.118+deb13-amd64");
    live_result_write(f, &o[0]);
    live_result_write(f, &o[1]);
    fclose(f);
    f = fmemopen(buf, len, "r");
    char rel[64];
    NGOT = 0;
    int n = live_result_read(f, rel, sizeof rel, keep, NULL);
    fclose(f);
    free(buf);
    CHECK(n == 2 && NGOT == 2, "results: %d", n);
    CHECK(!strcmp(rel, "6.12.118+deb13-amd64"), "release %s", rel);
    CHECK(GOT[0].id == 7 && GOT[0].status == LIVE_OK && GOT[0].settle_us == 1234 && GOT[0].retries == 2 &&
              GOT[0].disputed == 1, "obs 0 header");
    CHECK(live_obs_get(&GOT[0], "UdpInCsumErrors") == 1 && live_obs_get(&GOT[0], "dev:t3:rx_bytes") == -140 &&
              live_obs_get(&GOT[0], "TcpInErrs") == 0, "obs 0 values");
    CHECK(live_obs_sum(&GOT[0], "dev:", ":rx_errors") == 2 && live_obs_sum(&GOT[0], "dev:t3:", "") == -138,
          "obs 0 sums");
    CHECK(GOT[1].id == 8 && GOT[1].status == LIVE_SKIPPED && !strcmp(GOT[1].msg, o[1].msg), "obs 1");

    static const char *const bad[] = {
        "csc-live-result 2\n",
        "csc-live-result 1\nobs 1 ok 1\n",
        "csc-live-result 1\nobs 1 ok 1 0 0\nv UdpInErrors\nend\n",
        "csc-live-result 1\nerror malformed job line 3: x\n",
        "csc-live-result 1\nv UdpInErrors 1\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        f = tmpfile();
        fputs(bad[i], f);
        rewind(f);
        n = live_result_read(f, rel, sizeof rel, keep, NULL);
        CHECK(n == -1, "bad result %zu read as %d", i, n);
        fclose(f);
    }
}

/* A namespace grown from chunk to chunk: "extends 1" survives the job,
 * and a setup holds the one it grew from, never the reverse nor one whose
 * earlier lines changed */
static struct live_setup GOT_S[2];
static int NGOT_S;

static int keep_setup(void *ctx, const struct live_setup *s, const struct live_case *c, size_t n)
{
    (void)ctx;
    (void)c;
    (void)n;
    if (NGOT_S < 2)
        GOT_S[NGOT_S] = *s;
    NGOT_S++;
    return 0;
}

static void test_grown(void)
{
    static struct live_setup grown;
    grown = SETUP;
    grown.extends = 1;
    snprintf(grown.cmds[grown.ncmds++], LIVE_CMD_LEN, "ip route replace local 192.0.2.9/32 dev lo");
    grown.socks[grown.nsocks++] = (struct live_sock){ LIVE_UDP4, 7777 };
    grown.devs[grown.ndevs] = grown.devs[1];
    snprintf(grown.devs[grown.ndevs].ifname, sizeof grown.devs[0].ifname, "vx9");
    grown.ndevs++;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    live_job_begin(f);
    live_job_setup(f, &SETUP);
    live_job_case(f, &CASES[0]);
    live_job_setup(f, &grown);
    live_job_case(f, &CASES[1]);
    fclose(f);
    f = fmemopen(buf, len, "r");
    char err[160] = "";
    NGOT_S = 0;
    int n = live_job_read(f, keep_setup, NULL, err, sizeof err);
    fclose(f);
    free(buf);
    CHECK(n == 2 && NGOT_S == 2, "grown: %d setups (%s)", n, err);
    if (NGOT_S != 2)
        return;
    CHECK(!GOT_S[0].extends && GOT_S[1].extends == 1, "extends %d %d", GOT_S[0].extends, GOT_S[1].extends);
    CHECK(live_setup_holds(&GOT_S[1], &GOT_S[0]), "the grown setup holds the first");
    CHECK(live_setup_holds(&GOT_S[0], &GOT_S[0]), "a setup holds itself");
    CHECK(!live_setup_holds(&GOT_S[0], &GOT_S[1]), "the first does not hold the grown one");
    GOT_S[1].cmds[0][0] ^= 1;
    CHECK(!live_setup_holds(&GOT_S[1], &GOT_S[0]), "a changed line");
    GOT_S[1].cmds[0][0] ^= 1;
    GOT_S[1].devs[1].sent[0].data[0] ^= 1;
    CHECK(!live_setup_holds(&GOT_S[1], &GOT_S[0]), "a changed sentinel");
    GOT_S[1].devs[1].sent[0].data[0] ^= 1;
    GOT_S[1].level = 2;
    CHECK(!live_setup_holds(&GOT_S[1], &GOT_S[0]), "another start (level)");
}

/* One GRO run's write: the device's skbs and TcpInSegs, and a drop count. */
static void gro_write(struct live_obs *o, int skbs, int drops)
{
    memset(o, 0, sizeof *o);
    obs_add(o, "IpInReceives", 4);
    obs_add(o, "dev:t80:rx_packets", skbs);
    obs_add(o, "TcpInSegs", skbs);
    obs_add(o, "TcpInCsumErrors", drops);
}

/* live_obs_decide: the least write is the run written back to back (the
 * bookworm CI run that took the cut one: 1 skb once, 2 skbs twice). */
static void test_decide(void)
{
    struct live_obs w[3];
    gro_write(&w[0], 1, 0);
    gro_write(&w[1], 2, 0);
    gro_write(&w[2], 2, 0);
    CHECK(live_obs_decide(w, 3) == &w[0], "the most coalesced write, though outvoted");
    gro_write(&w[0], 2, 0);
    gro_write(&w[2], 1, 0);
    CHECK(live_obs_decide(w, 3) == &w[2], "the most coalesced write, last");
    CHECK(!live_obs_equal(&w[1], &w[2]) && live_obs_equal(&w[0], &w[1]), "equal");
    /* not ordered (fewer skbs, more drops): the two that agree */
    gro_write(&w[0], 2, 0);
    gro_write(&w[1], 1, 1);
    gro_write(&w[2], 2, 0);
    CHECK(live_obs_decide(w, 3) == &w[0], "no least write: the majority");
    /* none least, none agree: no outcome */
    gro_write(&w[0], 3, 0);
    gro_write(&w[1], 1, 1);
    gro_write(&w[2], 2, 2);
    CHECK(!live_obs_decide(w, 3), "three outcomes, none the least");
    /* a counter only one write has counts as 0 in the others */
    gro_write(&w[0], 1, 0);
    gro_write(&w[1], 1, 0);
    obs_add(&w[1], "IpInDiscards", 1);
    CHECK(live_obs_decide(w, 2) == &w[0], "a counter missing from one write");
}

int main(void)
{
    make_job();
    test_round_trip();
    test_malformed();
    test_results();
    test_grown();
    test_decide();
    printf("live job/result format: %s (%d failures)\n", failures ? "FAILED" : "ok", failures);
    return failures ? 1 : 0;
}
