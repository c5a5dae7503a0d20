/*
 * seed.c - write a libFuzzer seed corpus from capture files: one file per
 * frame, prefixed with the 8 option bytes fuzz_frame.c expects (link type
 * from the capture, the rest varied deterministically).
 *   csc-fuzz-seed OUTDIR FILE...
 */
#include "csumcheck/csumcheck.h"

#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>

static uint8_t link_index(enum csc_link l)
{
    static const uint8_t order[] = { CSC_LINK_ETHERNET, CSC_LINK_RAW, CSC_LINK_IPV4, CSC_LINK_IPV6,
                                     CSC_LINK_SLL, CSC_LINK_SLL2, CSC_LINK_NULL, CSC_LINK_LOOP,
                                     CSC_LINK_PPP, CSC_LINK_UNKNOWN };
    for (uint8_t i = 0; i < sizeof order; i++)
        if (order[i] == l)
            return i;
    return 9;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: csc-fuzz-seed OUTDIR FILE...\n");
        return 2;
    }
    unsigned long n = 0;
    for (int a = 2; a < argc; a++) {
        char err[PCAP_ERRBUF_SIZE];
        pcap_t *pc = pcap_open_offline(argv[a], err);
        if (!pc)
            continue;
        uint8_t li = link_index(csc_link_from_linktype((uint32_t)pcap_datalink(pc)));
        struct pcap_pkthdr *h;
        const u_char *d;
        for (int i = 0; i < 50 && pcap_next_ex(pc, &h, &d) == 1; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/seed-%06lu", argv[1], n);
            FILE *o = fopen(path, "wb");
            if (!o)
                return 1;
            uint8_t hdr[8] = { li, (uint8_t)(n % 6), (uint8_t)n, (uint8_t)(n / 6), 0x27, 0, 0, 34 };
            fwrite(hdr, 1, 8, o);
            fwrite(d, 1, h->caplen, o);
            fclose(o);
            n++;
        }
        pcap_close(pc);
    }
    printf("%lu seeds\n", n);
    return 0;
}
