/*
 * kernel-words.h - the frame's kernel outcome in a few words, as the
 * csumcheck tree's first line and csumcheck.kernel.summary say it:
 * "drop UdpInCsumErrors", "accept, 2 sw passes", "sent, not received"
 * (a frame the capturing host sent: its TX view, no replay;
 * docs/direction.md), "not run".
 */
#ifndef CSC_PLUGIN_KERNEL_WORDS_H
#define CSC_PLUGIN_KERNEL_WORDS_H

#include "frame-record.h"
#include "label.h"

void pl_kernel_words(const struct pl_frame *s, struct sb *ks);
/* csumcheck.kernel: the verdict word (KVERDICT); "unknown" when not run */
const char *pl_kernel_verdict(const struct pl_frame *s);

#endif
