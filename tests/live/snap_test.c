/*
 * snap_test.c - the counter snapshots of libcsclive (live/obs.c): values
 * are kept apart from their names (a layout shared by every snapshot that
 * reads the same counters), so a case's observation is the difference of
 * two snapshots value by value. Checks that the names follow every change of
 * the set read (a counter more, one less, another one in its place), that a
 * difference across two layouts still goes by name, that the sentinel's
 * footprint is taken out by name whatever the layout, that "Out" counters
 * are never kept, and that equality needs the same layout. No root, no
 * kernel: the values are put by hand.
 */
#define _GNU_SOURCE
#include "live_int.h"

#include <stdio.h>
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

static struct snap A, B, C, D;
static struct live_obs O, FP;

/* one snapshot as snap_take makes it: names "Udp"+field..., values given */
static void take(struct snap *s, const char *const *fields, const int64_t *v, int n)
{
    snap_begin(s);
    for (int i = 0; i < n; i++)
        snap_put(s, "Udp", 3, fields[i], strlen(fields[i]), v[i]);
    snap_end(s);
}

/* the same, after the snapshot newest (only the order of the calls matters) */
static void take_next(struct snap *s, const struct snap *newest, const char *const *fields, const int64_t *v,
                      int n)
{
    (void)newest;
    take(s, fields, v, n);
}

int main(void)
{
    static const char *const f3[] = { "InDatagrams", "InErrors", "InCsumErrors" };
    static const char *const f3out[] = { "InDatagrams", "OutDatagrams", "InErrors", "InCsumErrors" };
    static const char *const f4[] = { "InDatagrams", "InErrors", "InCsumErrors", "NoPorts" };
    static const char *const f3b[] = { "InDatagrams", "RcvbufErrors", "InCsumErrors" };

    /* names once, values per snapshot; "Out" never kept */
    take(&A, f3out, (const int64_t[]){ 10, 99, 2, 0 }, 4);
    CHECK(A.n == 3, "Out counter kept: %d values", A.n);
    CHECK(!strcmp(snap_name(&A, 0), "UdpInDatagrams") && !strcmp(snap_name(&A, 1), "UdpInErrors") &&
              !strcmp(snap_name(&A, 2), "UdpInCsumErrors"),
          "names %s %s %s", snap_name(&A, 0), snap_name(&A, 1), snap_name(&A, 2));
    take_next(&B, &A, f3, (const int64_t[]){ 11, 2, 1 }, 3);
    CHECK(B.layout == A.layout, "same counters, another layout (%u, %u)", A.layout, B.layout);
    CHECK(!snap_equal(&A, &B), "different values equal");
    snap_delta(&A, &B, NULL, &O);
    CHECK(O.n == 2 && live_obs_get(&O, "UdpInDatagrams") == 1 && live_obs_get(&O, "UdpInCsumErrors") == 1,
          "delta: %d values, InDatagrams %lld, InCsumErrors %lld", O.n,
          (long long)live_obs_get(&O, "UdpInDatagrams"), (long long)live_obs_get(&O, "UdpInCsumErrors"));
    CHECK(!strcmp(O.v[0].name, "UdpInDatagrams") && !strcmp(O.v[1].name, "UdpInCsumErrors"),
          "delta not in the counters' order: %s, %s", O.v[0].name, O.v[1].name);

    /* the sentinel's footprint, by name, taken out */
    memset(&FP, 0, sizeof FP);
    obs_add(&FP, "UdpInDatagrams", 1);
    obs_add(&FP, "dev:kd0:rx_packets", 1);   /* not read here: ignored */
    snap_delta(&A, &B, &FP, &O);
    CHECK(O.n == 1 && live_obs_get(&O, "UdpInCsumErrors") == 1 && live_obs_get(&O, "UdpInDatagrams") == 0,
          "footprint not taken out: %d values", O.n);
    /* the same footprint pointer with other contents is not served stale */
    FP.v[0].delta = 0;
    snap_delta(&A, &B, &FP, &O);
    CHECK(live_obs_get(&O, "UdpInDatagrams") == 1, "stale footprint: %lld",
          (long long)live_obs_get(&O, "UdpInDatagrams"));

    /* one counter more (the newest layout grows; the old snapshot keeps its names) */
    take_next(&C, &B, f4, (const int64_t[]){ 12, 2, 1, 5 }, 4);
    CHECK(C.n == 4, "a counter more: layout %u -> %u, %d values", B.layout, C.layout, C.n);
    CHECK(!strcmp(snap_name(&B, 2), "UdpInCsumErrors") && !strcmp(snap_name(&C, 3), "UdpNoPorts"),
          "names after the change: %s, %s", snap_name(&B, 2), snap_name(&C, 3));
    CHECK(!snap_equal(&B, &C), "different layouts equal");
    snap_delta(&B, &C, NULL, &O);
    CHECK(O.n == 2 && live_obs_get(&O, "UdpInDatagrams") == 1 && live_obs_get(&O, "UdpNoPorts") == 5,
          "delta across layouts: %d values, NoPorts %lld", O.n, (long long)live_obs_get(&O, "UdpNoPorts"));

    /* one counter less */
    take_next(&D, &C, f3, (const int64_t[]){ 12, 2, 1 }, 3);
    CHECK(D.layout != C.layout && D.n == 3 && !strcmp(snap_name(&D, 2), "UdpInCsumErrors"),
          "a counter less: layout %u -> %u, %d values", C.layout, D.layout, D.n);
    CHECK(!strcmp(snap_name(&C, 3), "UdpNoPorts"), "the older layout lost a name: %s", snap_name(&C, 3));
    snap_delta(&C, &D, NULL, &O);
    CHECK(O.n == 0, "nothing moved, %d values", O.n);

    /* another counter in the same place */
    take_next(&A, &D, f3b, (const int64_t[]){ 12, 7, 1 }, 3);
    CHECK(A.layout != D.layout && !strcmp(snap_name(&A, 1), "UdpRcvbufErrors"),
          "a counter replaced: layout %u -> %u, name %s", D.layout, A.layout, snap_name(&A, 1));
    CHECK(!strcmp(snap_name(&D, 1), "UdpInErrors"), "the older layout changed: %s", snap_name(&D, 1));
    snap_delta(&D, &A, NULL, &O);
    CHECK(O.n == 1 && live_obs_get(&O, "UdpRcvbufErrors") == 7, "delta by name: %d values", O.n);

    /* equal: same layout, same values */
    take_next(&B, &A, f3b, (const int64_t[]){ 12, 7, 1 }, 3);
    CHECK(B.layout == A.layout && snap_equal(&A, &B), "same counters and values not equal");

    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("snapshots: layouts, deltas, footprints: ok\n");
    return 0;
}
