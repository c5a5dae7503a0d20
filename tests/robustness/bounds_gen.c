/*
 * bounds_gen.c - pcap streams that test csumcheck's resource bounds, written
 * to stdout (nothing lands on disk):
 *   big N SIZE      N frames of SIZE bytes (Ethernet/IPv4/UDP/VXLAN/.../TCP,
 *                   padded; SIZE up to 262144)
 *   claim4g         one record whose wire length claims 4 GiB, then a sane one
 *   caplen4g        a record whose captured length claims 4 GiB (libpcap must refuse)
 *   nest N          frames with N nested VLAN tags, MPLS labels, IPIP and
 *                   VXLAN-in-VXLAN layers (past the 32-layer limit)
 *   ext6 N          IPv6 with N extension headers in a chain
 *   fragflood N     N first fragments of distinct datagrams (reassembly table)
 *   png-MODE ...    any of the above as pcapng (an SHB, an IDB, one EPB a
 *                   frame: csumcheck's own pcapng reader), and
 *   png-blocklen4g  an EPB whose block length claims 4 GiB, then a sane one
 * The frames come from the project's builder (captures/lib/pb.h).
 */
#include "capw.h"
#include "pb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t frame[262144 + 64];

static int png;                    /* pcapng instead of pcap */

static void hdr(uint32_t snap)
{
    if (png) {                     /* SHB (v1.0, no options), IDB (Ethernet) */
        uint32_t h[12] = { 0x0a0d0d0au, 28, 0x1a2b3c4du, 0x00000001u, 0xffffffffu, 0xffffffffu, 28,
                           1, 20, 1, snap, 20 };
        fwrite(h, 4, 12, stdout);
        return;
    }
    uint32_t h[6] = { 0xa1b2c3d4u, 0x00040002u, 0, 0, snap, 1 };
    fwrite(h, 4, 6, stdout);
}

/* a record's header: blen is a pcapng block's total length (0: its own) */
static void rec_hdr(uint32_t caplen, uint32_t len, uint32_t blen)
{
    static uint32_t ts;
    if (png) {
        uint32_t e[7] = { 6, blen ? blen : 32 + ((caplen + 3) & ~3u), 0, 0, ts, caplen, len };
        fwrite(e, 4, 7, stdout);
    } else {
        uint32_t r[4] = { ts / 1000000, ts % 1000000, caplen, len };
        fwrite(r, 4, 4, stdout);
    }
    ts += 10;
}

static void rec(const uint8_t *d, uint32_t caplen, uint32_t len)
{
    rec_hdr(caplen, len, 0);
    fwrite(d, 1, caplen, stdout);
    if (png) {
        uint32_t pad = 0, blen = 32 + ((caplen + 3) & ~3u);
        fwrite(&pad, 1, (4 - (caplen & 3)) & 3, stdout);
        fwrite(&blen, 4, 1, stdout);
    }
}

static size_t vxlan_tcp(size_t size)
{
    struct pb_frame f;
    pb_init(&f);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_UDP);
    pb_push(&f, PB_VXLAN);
    pb_push(&f, PB_ETH);
    pb_push(&f, PB_IPV4);
    pb_push(&f, PB_TCP);
    size_t n = pb_build(&f, frame, sizeof frame);
    if (size > 65535 - 14) {          /* IPv4 cannot say more: pad the frame */
        memset(frame + n, 0xa5, size - n);
        return size;
    }
    pb_push(&f, PB_PAYLOAD)->len = (uint16_t)(size > n ? size - n : 0);
    return pb_build(&f, frame, sizeof frame);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    const char *what = argv[1];
    if (!strncmp(what, "png-", 4)) {
        png = 1;
        what += 4;
    }
    long a = argc > 2 ? atol(argv[2]) : 0, b = argc > 3 ? atol(argv[3]) : 0;
    if (!strcmp(what, "big")) {
        if (b < 60 || b > 262144)
            return 2;
        hdr(262144);
        size_t n = vxlan_tcp((size_t)b);
        for (long i = 0; i < a; i++)
            rec(frame, (uint32_t)n, (uint32_t)n);
    } else if (!strcmp(what, "claim4g")) {
        hdr(65535);
        size_t n = vxlan_tcp(200);
        rec(frame, (uint32_t)n, 0xffffffffu);
        rec(frame, (uint32_t)n, (uint32_t)n);
    } else if (!strcmp(what, "caplen4g")) {
        hdr(65535);
        rec_hdr(0xffffffffu, 0xffffffffu, png ? 32 + 64 + 4 : 0);
        fwrite(frame, 1, 64, stdout);
    } else if (png && !strcmp(what, "blocklen4g")) {
        hdr(65535);
        size_t n = vxlan_tcp(200);
        rec_hdr((uint32_t)n, (uint32_t)n, 0xfffffff0u);
        fwrite(frame, 1, n, stdout);
        rec(frame, (uint32_t)n, (uint32_t)n);
    } else if (!strcmp(what, "nest")) {
        hdr(65535);
        for (int kind = 0; kind < 4; kind++) {
            struct pb_frame f;
            pb_init(&f);
            pb_push(&f, PB_ETH);
            for (long i = 0; i < a && f.n < PB_MAX_LAYERS - 3; i++) {
                switch (kind) {
                case 0: pb_push(&f, PB_VLAN); break;
                case 1: pb_push(&f, PB_MPLS); break;
                case 2: pb_push(&f, PB_IPV4); break;
                default:
                    pb_push(&f, PB_IPV4);
                    pb_push(&f, PB_UDP);
                    pb_push(&f, PB_VXLAN);
                    pb_push(&f, PB_ETH);
                    break;
                }
            }
            pb_push(&f, PB_IPV4);
            pb_push(&f, PB_UDP);
            size_t n = pb_build(&f, frame, sizeof frame);
            if (n)
                rec(frame, (uint32_t)n, (uint32_t)n);
        }
        /* and raw nesting beyond the builder's limit: a VLAN tag chain */
        size_t n = 14 + 4 * (size_t)a + 20;
        memset(frame, 0, n);
        frame[12] = 0x81;
        for (long i = 0; i < a; i++)
            frame[14 + 4 * i + 2] = 0x81;
        rec(frame, (uint32_t)n, (uint32_t)n);
    } else if (!strcmp(what, "ext6")) {
        hdr(65535);
        /* IPv6 + a destination-options header repeated a times, then UDP */
        size_t n = 14 + 40 + 8 * (size_t)a + 8;
        if (n > sizeof frame)
            return 2;
        memset(frame, 0, n);
        frame[12] = 0x86;
        frame[13] = 0xdd;
        frame[14] = 0x60;
        uint16_t plen = (uint16_t)(8 * a + 8);
        frame[18] = (uint8_t)(plen >> 8);
        frame[19] = (uint8_t)plen;
        frame[20] = a ? 60 : 17;
        for (long i = 0; i < a; i++)
            frame[14 + 40 + 8 * i] = i + 1 < a ? 60 : 17;
        rec(frame, (uint32_t)n, (uint32_t)n);
    } else if (!strcmp(what, "fragflood")) {
        hdr(65535);
        struct pb_frame f;
        pb_init(&f);
        pb_push(&f, PB_ETH);
        struct pb_layer *ip = pb_push(&f, PB_IPV4);
        ip->frag = 0x2000;
        pb_push(&f, PB_UDP);
        pb_push(&f, PB_PAYLOAD)->len = 64;
        for (long i = 0; i < a; i++) {
            ip->ip_id = (uint16_t)i;
            ip->src[3] = (uint8_t)(i >> 16);
            size_t n = pb_build(&f, frame, sizeof frame);
            rec(frame, (uint32_t)n, (uint32_t)n);
        }
    } else {
        return 2;
    }
    return fflush(stdout) ? 1 : 0;
}
