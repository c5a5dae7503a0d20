/*
 * fuzz_wiretap.c - libFuzzer target 6: a fuzzed capture file through
 * csumcheck's libwiretap reader (analyzer/input/wtapread.c) as the CLI opens one
 * that is not a classic pcap: pcapng with interfaces of several link types,
 * gzip/zstd/lz4-compressed captures, the other formats libwiretap knows;
 * each record's bytes, link type and direction into the analysis. pcapng
 * goes to libwiretap too (CSC_PCAPNG=wiretap: csumcheck's own pcapng
 * reader is fuzz-pcapng's). Seeds: the committed captures, some compressed
 * (bench/fuzz.sh).
 */
#define _GNU_SOURCE   /* memfd_create */
#include "csumcheck/csumcheck.h"
#include "wtr.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct csc_result res;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    g_setenv("CSC_PCAPNG", "wiretap", TRUE);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        if ((fd = memfd_create("fuzz-wiretap", 0)) < 0)
            abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    /* the CLI has read up to 24 bytes before it hands a file over */
    size_t first = size < 24 ? size : 24;
    if (!first)
        return 0;
    if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size ||
        lseek(fd, (off_t)first, SEEK_SET) != (off_t)first)
        abort();
    char *msg = NULL;
    struct wtr *r = wtr_open(path, fd, false, data, first, &msg);
    if (!r) {
        if (!msg)
            abort();                  /* refused without saying why */
        g_free(msg);
        return 0;
    }
    (void)wtr_file_linktype(r);
    struct csc_config cfg;
    csc_config_default(&cfg);
    struct pcap_pkthdr *h;
    const uint8_t *d;
    int dlt;
    uint8_t dir;
    for (unsigned n = 0; n < 10000 && wtr_next(r, &h, &d, &dlt, &dir) == 1; n++) {
        if (h->caplen > 262144u * 4)
            abort();                  /* the reader's bound on a record */
        struct csc_frame fr = { d, h->caplen, h->len,
                                (uint8_t)csc_link_from_linktype((uint32_t)(dlt < 0 ? 0 : dlt)), dir };
        csc_analyze(&cfg, &fr, &res);
    }
    (void)wtr_error(r);
    (void)wtr_bytes(r);
    wtr_close(r);
    return 0;
}
