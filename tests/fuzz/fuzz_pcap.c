/*
 * fuzz_pcap.c - libFuzzer target 2: a fuzzed capture file through libpcap
 * into the analysis, the way the CLI reads it (pcap_fopen_offline on a
 * FILE*, then csc_analyze, reassembly and the GRO engine per frame).
 */
#include "csumcheck/csumcheck.h"
#include "csumcheck/frag.h"
#include "csumcheck/gro.h"

#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct csc_result res;
static struct csc_frag_table frag;
static uint8_t frag_store[CSC_FRAG_STORE_BYTES];
static struct csc_gro gro;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fmemopen((void *)data, size, "rb");
    if (!f)
        return 0;
    char err[PCAP_ERRBUF_SIZE];
    pcap_t *pc = pcap_fopen_offline(f, err);
    if (!pc) {
        fclose(f);
        return 0;
    }
    struct csc_config cfg;
    csc_config_default(&cfg);
    csc_frag_init(&frag);
    csc_frag_attach(&frag, &cfg, frag_store);
    csc_gro_init(&gro, NULL);
    enum csc_link link = csc_link_from_linktype((uint32_t)pcap_datalink(pc));
    struct pcap_pkthdr *h;
    const u_char *d;
    uint64_t n = 0;
    while (pcap_next_ex(pc, &h, &d) == 1 && n < 10000) {
        struct csc_frame fr = { d, h->caplen, h->len, (uint8_t)link, CSC_DIR_UNKNOWN };
        csc_analyze(&cfg, &fr, &res);
        csc_frag_feed(&frag, &fr, &res, ++n);
        csc_gro_feed(&gro, &fr, &res, n, (uint64_t)h->ts.tv_sec * 1000000u + (uint64_t)h->ts.tv_usec, NULL);
    }
    csc_gro_finish(&gro);
    pcap_close(pc);                  /* closes f */
    return 0;
}
