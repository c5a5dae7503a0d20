/*
 * packet-csumcheck.h - registration entry points of the postdissector,
 * called by plugin.c's plugin_register() (or by a test program that links
 * the dissector directly, see tests/plugin/).
 */
#ifndef PACKET_CSUMCHECK_H
#define PACKET_CSUMCHECK_H

void proto_register_csumcheck(void);
void proto_reg_handoff_csumcheck(void);

#endif
