/*
 * ws-compat.h - the differences between the Wireshark plugin APIs the
 * plugin builds against (4.0, 4.2, 4.4, 4.6), guarded with Wireshark's own
 * version macros (ws_version.h). docs/wireshark.md lists the versions and
 * how each was checked.
 *
 *   4.3 (development) -> 4.4:
 *     - the glib types left the preference API: prefs_register_bool_preference
 *       takes bool *, no longer gboolean *;
 *     - plugins export plugin_describe() (WS_PLUGIN_DESC_* flags), which the
 *       loader reads for `tshark -G plugins` / About > Plugins;
 *     - epan headers no longer include wiretap/wtap.h, so wtap_rec is an
 *       incomplete type and REC_TYPE_PACKET undeclared unless it is included
 *       (it is included everywhere below, which is right for 4.0 too).
 */
#ifndef CSC_PLUGIN_WS_COMPAT_H
#define CSC_PLUGIN_WS_COMPAT_H

#include <ws_version.h>
#include <wiretap/wtap.h>

#define CSC_WS_AT_LEAST(maj, min)                                                                  \
    (WIRESHARK_VERSION_MAJOR > (maj) ||                                                            \
     (WIRESHARK_VERSION_MAJOR == (maj) && WIRESHARK_VERSION_MINOR >= (min)))

#if CSC_WS_AT_LEAST(4, 3)
#include <stdbool.h>
typedef bool csc_pref_bool;             /* what prefs_register_bool_preference() points at */
#define CSC_WS_PLUGIN_DESCRIBE 1        /* plugin.c exports plugin_describe() */
#else
#include <glib.h>
typedef gboolean csc_pref_bool;
#define CSC_WS_PLUGIN_DESCRIBE 0
#endif

#endif
