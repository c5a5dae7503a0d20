/*
 * linkmap.h - Wireshark's per-record encapsulation (WTAP_ENCAP_*) to the
 * core's enum csc_link. Must agree with csc_link_from_linktype() on every
 * pcap LINKTYPE wiretap knows (tests/plugin/linkmap_test.c proves it), so
 * the plugin and the CLI (which reads pcap linktypes) decode the same way.
 */
#ifndef CSC_PLUGIN_LINKMAP_H
#define CSC_PLUGIN_LINKMAP_H

#include "csumcheck/csumcheck.h"

enum csc_link csc_link_from_wtap_encap(int encap);

#endif
