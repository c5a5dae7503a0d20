/*
 * fields.c - the plugin's fields, expert infos and subtrees: defined and
 * registered from their rows in field-list.h.
 */
#include "fields.h"

/* -1: "not registered yet", as Wireshark 4.0 expects of an id it registers. */
#define FIELD(id, ...) int id = -1;
#define EXPERT(id, ...) expert_field id = EI_INIT;
#define SUBTREE(id) int id = -1;
#include "field-list.h"

/* Wireshark keeps pointers into these tables: static. */
static hf_register_info fields[] = {
#define FIELD(id, name, abbrev, type, display, blurb)                                              \
    { &id, { name, abbrev, type, display, NULL, 0, blurb, HFILL } },
#include "field-list.h"
};

/* An expert row's group and severity, as the Expert Information dialog
 * names them (field-list.h): their PI_ value. */
#define PL_PI_Checksum PI_CHECKSUM
#define PL_PI_Malformed PI_MALFORMED
#define PL_PI_Undecoded PI_UNDECODED
#define PL_PI_Assumption PI_ASSUMPTION
#define PL_PI_Error PI_ERROR
#define PL_PI_Warning PI_WARN
#define PL_PI_Note PI_NOTE

/* Expert fields are fields too (tshark -G fields): each gets its
 * description, which ends with its severity and group, through the hf_info
 * it otherwise leaves empty. */
static ei_register_info experts[] = {
#define EXPERT(id, abbrev, group, severity, summary, what)                                         \
    { &id, { abbrev, PL_PI_##group, PL_PI_##severity, summary, 0, NULL, 0,                         \
             { 0, { NULL, NULL, FT_NONE, BASE_NONE, NULL, 0,                                       \
                    "Expert info: " what " (" #severity "/" #group ")", HFILL } } } },
#include "field-list.h"
};

static int *subtrees[] = {
#define SUBTREE(id) &id,
#include "field-list.h"
};

void pl_fields_register(int proto)
{
    proto_register_field_array(proto, fields, G_N_ELEMENTS(fields));
    expert_register_field_array(expert_register_protocol(proto), experts, G_N_ELEMENTS(experts));
    proto_register_subtree_array(subtrees, G_N_ELEMENTS(subtrees));
}
