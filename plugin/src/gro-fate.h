/*
 * gro-fate.h - the GRO engine inside the plugin: on the first pass (capture
 * order) every analysed frame is fed to csumcheck/gro.h, as the CLI does,
 * and the frame keeps what happened to it at each receiving device: merged
 * into which super-packet (a link to its first segment) or why it went up
 * alone. Fields csumcheck.gro.engine and csumcheck.dev.fate/super/...;
 * preferences as the CLI's --gro-budget, --gro-flush-timeout,
 * --gro-max-size and --poll-gap.
 */
#ifndef CSC_PLUGIN_GRO_FATE_H
#define CSC_PLUGIN_GRO_FATE_H

#include "frame-record.h"
#include "label.h"

#include <wireshark.h>

#include <epan/packet.h>
#include <epan/prefs.h>

/* Its preferences, in the csumcheck module (from proto_register_csumcheck). */
void pl_gro_register_prefs(module_t *module);
/* An invalid engine preference, or NULL (apply_prefs reports it). */
const char *pl_gro_pref_error(void);
/* A file (re)opens: a fresh engine with the preferences in force, under
 * the era's switches (its IPv4 ID and CWR rules: csc_gro_cfg.era_sw). */
void pl_gro_init(uint64_t era_sw);
/* First pass only, in capture order: feed the frame, record its fates in s. */
void pl_gro_feed(const struct csc_frame *f, const struct csc_result *r, const packet_info *pinfo,
                 struct pl_frame *s);
/* Whether a fake tree wants any of this file's fields. */
bool pl_gro_fields_referenced(proto_tree *t);
/* Appends "; GRO engine: merged into the super-packet of frame 3" for device i's label. */
void pl_gro_fate_text(const struct pl_frame *s, unsigned i, struct sb *out);
/* The frame-level item and, for device i, its items under that device. */
void pl_gro_render_dev(tvbuff_t *tvb, proto_tree *dt, const struct pl_frame *s, unsigned i);

#endif
