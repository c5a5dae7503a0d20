/*
 * plugin.c - the four symbols Wireshark 4.0's plugin loader looks up.
 * Everything else in csumcheck.so is hidden (exports.map).
 */
#include <wireshark.h>

#include <epan/proto.h>

#include "packet-csumcheck.h"

#ifndef CSC_VERSION
#define CSC_VERSION "0.0.0"
#endif

/* An array, not a pointer: the loader reads the symbol's address as a string. */
WS_DLL_PUBLIC_DEF const gchar plugin_version[] = CSC_VERSION;
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;

WS_DLL_PUBLIC void plugin_register(void);

void plugin_register(void)
{
    static proto_plugin plug;
    plug.register_protoinfo = proto_register_csumcheck;
    plug.register_handoff = proto_reg_handoff_csumcheck;
    proto_register_plugin(&plug);
}
