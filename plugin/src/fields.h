/*
 * fields.h - what every file of the plugin that adds fields shares: the
 * generated-item mark and the expert fields' description.
 */
#ifndef CSC_PLUGIN_FIELDS_H
#define CSC_PLUGIN_FIELDS_H

#include <wireshark.h>

#include <epan/proto.h>

/* Every csumcheck item is generated: shown in [brackets], not bytes of the frame. */
static inline proto_item *pl_gen(proto_item *pi)
{
    proto_item_set_generated(pi);
    return pi;
}

/* The rest of an ei_register_info after its summary: expert fields are
 * fields too (tshark -G fields), so each gets a description through the
 * hf_info it leaves empty. */
#define PL_EXPERT_DESC(desc) 0, NULL, 0, { 0, { NULL, NULL, FT_NONE, BASE_NONE, NULL, 0, desc, HFILL } }

#endif
