/*
 * fuzz_pcapng.c - libFuzzer target 4: a fuzzed pcapng through csumcheck's
 * own pcapng reader (analyzer/input/pcapngblk.c), the way the CLI reads it (the
 * first bytes already read, the rest from the file descriptor), each frame
 * into the analysis. Where the reader hands the file to libwiretap the
 * input ends here: libwiretap is Wireshark's, fuzzed by Wireshark.
 */
#define _GNU_SOURCE   /* memfd_create */
#include "csumcheck/csumcheck.h"
#include "../../analyzer/input/pcapngblk.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct csc_result res;

/* the link types the CLI maps through libwiretap, as it maps them */
static int dlt_of(uint32_t lt)
{
    switch (lt) {
    case 101: return 12;           /* LINKTYPE_RAW: DLT_RAW on Linux */
    case 50: return 50;
    default: return (int)lt;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1;
    if (fd < 0 && (fd = memfd_create("fuzz-pcapng", 0)) < 0)
        abort();
    /* the CLI has read up to 24 bytes (a classic pcap header) before */
    size_t first = size < 24 ? size : 24;
    if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size ||
        lseek(fd, (off_t)first, SEEK_SET) != (off_t)first)
        abort();
    struct png *k = png_new(fd, data, first, dlt_of);
    if (png_open(k)) {
        (void)png_file_dlt(k);
        struct csc_config cfg;
        csc_config_default(&cfg);
        struct pcap_pkthdr h;
        const uint8_t *d;
        int dlt;
        uint8_t dir;
        for (unsigned n = 0; n < 10000; n++) {
            int rc = png_next(k, &h, &d, &dlt, &dir);
            if (rc != PNG_FRAME) {
                if (rc == PNG_WIRETAP) {   /* what libwiretap would be given */
                    size_t nr, np;
                    g_free(png_replay(k, &nr, &np));
                }
                break;
            }
            struct csc_frame fr = { d, h.caplen, h.len,
                                    (uint8_t)csc_link_from_linktype((uint32_t)dlt), dir };
            csc_analyze(&cfg, &fr, &res);
        }
        (void)png_bytes(k);
    } else {
        size_t n;
        (void)png_read_so_far(k, &n);
    }
    png_free(k);
    return 0;
}
