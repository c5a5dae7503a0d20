/*
 * fuzz_input.h - the 8-byte header that fuzz-frame and fuzz-plugin share:
 * link type, device report, era and receiver switches (see fuzz_frame.c for
 * the byte map). One format, so one seed corpus serves both targets.
 */
#ifndef CSC_FUZZ_INPUT_H
#define CSC_FUZZ_INPUT_H

#include "csumcheck/csumcheck.h"

static inline uint8_t fuzz_link(uint8_t b)
{
    static const uint8_t links[] = { CSC_LINK_ETHERNET, CSC_LINK_RAW, CSC_LINK_IPV4, CSC_LINK_IPV6,
                                     CSC_LINK_SLL, CSC_LINK_SLL2, CSC_LINK_NULL, CSC_LINK_LOOP,
                                     CSC_LINK_PPP, CSC_LINK_UNKNOWN };
    return links[b % 10];
}

/* The default configuration with the header's report, era and switches. */
static inline void fuzz_config(const uint8_t hdr[8], struct csc_config *cfg)
{
    csc_config_default(cfg);
    cfg->rx.kind = (uint8_t)(hdr[1] % 6);
    cfg->rx.level = hdr[2] & 3;
    cfg->rx.where = (uint8_t)((hdr[2] >> 2) % 3);
    cfg->era = *csc_era_at(hdr[3] % csc_era_count());
    cfg->gro_nic = hdr[4] & 1;
    cfg->gro_tunnel = hdr[4] & 2;
    cfg->remcsum_rx = hdr[4] & 4;
    cfg->remcsum_nopartial = hdr[4] & 8;
    cfg->udp6_zero_csum_rx = hdr[4] & 16;
    cfg->gre_csum = (uint8_t)(hdr[3] >> 6);
}

/* fuzz-frame's whole input (size >= 8): the configuration of the default
 * one with the header's report, era, switches and ports, and the frame that
 * follows, cut to the header's caplen (f->data points into data) */
static inline void fuzz_frame_input(const uint8_t *data, size_t size, struct csc_config *cfg,
                                    struct csc_frame *f)
{
    fuzz_config(data, cfg);
    cfg->rx.start = data[7];
    cfg->rx.offset = (uint16_t)(data[2] >> 4);
    cfg->inner_socket = data[4] & 32;
    cfg->assume_bad = data[4] & 64;
    cfg->trace_steps = data[4] & 128;
    if (data[3] & 0x20)
        csc_config_set_port(cfg, 8472, CSC_P_VXLAN, 0);
    if (data[3] & 0x10)
        csc_config_set_port(cfg, 5555, CSC_P_FOU, data[7] & 1 ? 4 : 47);
    size_t len = size - 8;
    size_t cut = ((size_t)data[5] << 8) | data[6];
    size_t caplen = cut && cut < len ? cut : len;
    f->data = data + 8;
    f->caplen = (uint32_t)caplen;
    f->wirelen = (uint32_t)len;
    f->link = fuzz_link(data[0]);
    f->direction = (uint8_t)((data[0] >> 6) % 3);
}

#endif
