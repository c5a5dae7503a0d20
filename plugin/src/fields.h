/*
 * fields.h - the plugin's fields, expert infos and subtrees (field-list.h
 * names them all; fields.c defines and registers them), and the
 * generated-item mark every file that adds items uses.
 */
#ifndef CSC_PLUGIN_FIELDS_H
#define CSC_PLUGIN_FIELDS_H

#include <wireshark.h>

#include <epan/expert.h>
#include <epan/proto.h>

#define FIELD(id, ...) extern int id;
#define EXPERT(id, ...) extern expert_field id;
#define SUBTREE(id) extern int id;
#include "field-list.h"

/* Registers every field, expert info and subtree under proto (from
 * proto_register_csumcheck). */
void pl_fields_register(int proto);

/* Every csumcheck item is generated: shown in [brackets], not bytes of the frame. */
static inline proto_item *pl_gen(proto_item *pi)
{
    proto_item_set_generated(pi);
    return pi;
}

#endif
