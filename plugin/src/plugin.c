/*
 * plugin.c - the symbols Wireshark's plugin loader looks up: four in 4.0
 * and 4.2, plugin_describe() too from 4.4 on. Everything else in csumcheck.so is hidden (exports.map).
 */
#include <wireshark.h>

#include <epan/proto.h>

#include "ws-compat.h"
#if CSC_WS_PLUGIN_DESCRIBE
#include <wsutil/plugins.h>   /* WS_PLUGIN_DESC_*; not installed by 4.0 */
#endif

#include "packet-csumcheck.h"

#ifndef CSC_VERSION
#define CSC_VERSION "0.0.0"
#endif

/* An array, not a pointer: the loader reads the symbol's address as a string. */
WS_DLL_PUBLIC_DEF const gchar plugin_version[] = CSC_VERSION;
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;

WS_DLL_PUBLIC void plugin_register(void);

#if CSC_WS_PLUGIN_DESCRIBE
/* 4.4 and later: what kind of plugin this is (tshark -G plugins). */
WS_DLL_PUBLIC uint32_t plugin_describe(void);

uint32_t plugin_describe(void)
{
    return WS_PLUGIN_DESC_DISSECTOR;
}
#endif

void plugin_register(void)
{
    static proto_plugin plug;
    plug.register_protoinfo = proto_register_csumcheck;
    plug.register_handoff = proto_reg_handoff_csumcheck;
    proto_register_plugin(&plug);
}
