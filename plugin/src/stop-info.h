/*
 * stop-info.h - why decoding ended early, in the plugin: the fields
 * csumcheck.stop (reason), .stop.offset, .stop.value, .stop.option and
 * .stop.text (the CLI's one line, csc_stop_describe), and the expert info
 * csumcheck.stack_ends (a truncated, malformed or too deep stack) and
 * csumcheck.stack_ends.undecoded (an unknown, encrypted or unsupported
 * payload, or one that needs a preference: named in the text).
 */
#ifndef CSC_PLUGIN_STOP_INFO_H
#define CSC_PLUGIN_STOP_INFO_H

#include "frame-record.h"

#include <wireshark.h>

#include <epan/packet.h>

/* The items under the csumcheck tree t, with their expert info. */
void pl_stop_render(tvbuff_t *tvb, packet_info *pinfo, proto_tree *t, const struct pl_frame *s);
/* The expert info alone (no tree), on `at` when there is one. */
void pl_stop_expert(packet_info *pinfo, proto_item *at, const struct pl_frame *s);

#endif
