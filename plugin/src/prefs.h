/*
 * prefs.h - the plugin's preferences (prefs.c): registered under the
 * csumcheck protocol, and the csc_config they make.
 */
#ifndef CSC_PLUGIN_PREFS_H
#define CSC_PLUGIN_PREFS_H

#include "csumcheck/csumcheck.h"

#include <wireshark.h>

#include <epan/prefs.h>

/* Registers every preference under proto (from proto_register_csumcheck);
 * returns the module, where gro-fate.c adds its own. */
module_t *pl_prefs_register(int proto);
/* Makes the configuration from the preferences (Wireshark calls it again
 * when they change). */
void pl_prefs_apply(void);
/* What csc_analyze() runs with; the same pointer for the process's life. */
const struct csc_config *pl_prefs_config(void);
/* The device report in force, as text (the kernel label). */
const char *pl_prefs_rx_text(void);
/* One message per invalid preference (expert info on every frame), or NULL. */
const GPtrArray *pl_prefs_errors(void);

#endif
