/*
 * field-list.h - every field, expert info and subtree of the plugin, one row
 * each: the one place they are named, described and typed. No include guard:
 * an includer defines the row macros it wants and includes this file; the
 * others expand to nothing, and all three are undefined at the end.
 *
 *   FIELD(id, name, abbrev, type, display, blurb)      an hf_register_info
 *   EXPERT(id, abbrev, group, severity, summary, what)  an ei_register_info
 *   SUBTREE(id)                                         an ett index
 *
 * fields.h declares the ids from it, fields.c defines and registers them.
 * Display names are unique and say what the value is without their parent
 * (a column header shows only the name); every field, expert fields
 * included, has a description. tests/plugin checks both in `tshark -G
 * fields`.
 *
 * Word-valued fields (verdicts, reasons, methods, GRO results, ...) are
 * FT_STRING fields holding the core's names (csc_*_name()): the same words
 * as the CLI's JSON, in the tree, in filters (csumcheck.layer.verdict ==
 * "bad") and in `tshark -T fields`, which prints an integer field's number,
 * never its value_string, in every Wireshark version supported.
 */
#ifndef FIELD
#define FIELD(id, name, abbrev, type, display, blurb)
#endif
#ifndef EXPERT
#define EXPERT(id, abbrev, group, severity, summary, what)
#endif
#ifndef SUBTREE
#define SUBTREE(id)
#endif

/* frame */
FIELD(hf_verdict, "Frame Checksum Verdict", "csumcheck.verdict", FT_STRING, BASE_NONE,
      "Worst raw checksum verdict of the frame's layers: n/a good bad none zero6 partial lco rco unverifiable")
FIELD(hf_summary, "Checksum Summary", "csumcheck.summary", FT_STRING, BASE_NONE,
      "The worst verdict and the layers that have it (the csum column)")
FIELD(hf_stack, "Layer Stack", "csumcheck.stack", FT_STRING, BASE_NONE,
      "Every layer csumcheck decoded, outermost first (eth:ipv4:udp:vxlan:...)")
FIELD(hf_gso_segs, "GSO Segments", "csumcheck.gso_segs", FT_UINT16, BASE_DEC,
      "Segments a NIC would cut from this GSO/TSO super-packet")
FIELD(hf_reassembled, "Completes a Fragmented Datagram", "csumcheck.reassembled", FT_BOOLEAN, BASE_NONE,
      "This frame completes an IP datagram; its last layer is the reassembled L4 verdict")
FIELD(hf_gro, "Frame GRO Result", "csumcheck.gro", FT_STRING, BASE_NONE,
      "held (GRO may merge it), or why the first device's GRO pass refused or flushed it "
      "(csum-fail, udp-tunnel-gate, gro-off, ...)")
FIELD(hf_note, "Layer Note", "csumcheck.note", FT_STRING, BASE_NONE,
      "A finding about one layer that is not a verdict (ip-options, fragment, padding, gso, rco, ...); "
      "the label names the layer")
FIELD(hf_fill, "Checksum Fill", "csumcheck.fill", FT_UINT16, BASE_HEX,
      "RCO: what remcsum_adjust writes into the checksum field; LCO: the inner checksum fill")
FIELD(hf_fill_offset, "Checksum Fill Layer Offset", "csumcheck.fill.offset", FT_UINT32, BASE_DEC,
      "Frame offset of the layer whose checksum the fill is for")
FIELD(hf_fill_delta, "RCO Delta", "csumcheck.fill.rco_delta", FT_UINT16, BASE_HEX,
      "RCO: the delta remcsum_adjust returns (fill - checksum field)")

/* per checksummed layer: every one of these once per layer, always, so
 * `-T fields -E occurrence=a` lists line up layer by layer */
FIELD(hf_layer, "Checksummed Layer", "csumcheck.layer", FT_STRING, BASE_NONE,
      "A layer that carries a checksum: its protocol (ipv4, udp, tcp, icmp, gre, ...)")
FIELD(hf_layer_verdict, "Layer Checksum Verdict", "csumcheck.layer.verdict", FT_STRING, BASE_NONE,
      "Raw verdict of the layer's checksum over the captured bytes: good bad none zero6 partial lco rco "
      "unverifiable")
FIELD(hf_layer_reason, "Layer Verdict Reason", "csumcheck.layer.reason", FT_STRING, BASE_NONE,
      "Why the verdict is what it is (mismatch, zero, snaplen, fragment, rco, ...); empty when there is "
      "nothing to add")
FIELD(hf_layer_checksum, "Layer Checksum", "csumcheck.layer.checksum", FT_UINT16, BASE_HEX,
      "The checksum field's value in the packet")
FIELD(hf_layer_calculated, "Layer Calculated Checksum", "csumcheck.layer.checksum_calculated", FT_UINT16,
      BASE_HEX, "The value that would be right over these bytes")

/* a sent frame's TX view, in the layer's subtree (tx-view.c) */
FIELD(hf_tx, "Left to the NIC", "csumcheck.tx", FT_STRING, BASE_NONE,
      "A sent frame's checksum the stack left to the NIC: partial (a CHECKSUM_PARTIAL seed), gso (a "
      "super-packet's seed, completed per segment), lco (computed by the stack over the inner seed)")
FIELD(hf_tx_wire, "Checksum on the Wire", "csumcheck.tx.wire", FT_UINT16, BASE_HEX,
      "What the wire carries in this field once the NIC has done its work")

/* why decoding ended early (stop-info.c) */
FIELD(hf_stop, "Layer Stack End", "csumcheck.stop", FT_STRING, BASE_NONE,
      "Why decoding stopped before the payload: truncated, malformed, depth, unsupported, fragment, "
      "unknown-link, unknown-ethertype, unknown-ipproto, unknown-next, encrypted, needs-option")
FIELD(hf_stop_offset, "Layer Stack End Offset", "csumcheck.stop.offset", FT_UINT32, BASE_DEC,
      "Offset of the header being decoded, or of the layer whose field named the payload")
FIELD(hf_stop_value, "Layer Stack End Value", "csumcheck.stop.value", FT_UINT32, BASE_HEX_DEC,
      "The EtherType, IP protocol, next-protocol code, SPI, or the value the option needs")
FIELD(hf_stop_option, "Layer Stack End Option", "csumcheck.stop.option", FT_STRING, BASE_NONE,
      "The receiver option decoding on needs (the CLI's --NAME; the preference of the same name)")
FIELD(hf_stop_text, "Layer Stack End Text", "csumcheck.stop.text", FT_STRING, BASE_NONE,
      "The stop in one line, as csumcheck -v says it")
FIELD(hf_l2spec_guessed, "L2TPv3 Sublayer Guessed", "csumcheck.l2spec_guessed", FT_UINT8, BASE_DEC,
      "The L2-specific sublayer length (0 or 4) chosen from the bytes, no preference having said it")

/* kernel */
FIELD(hf_kernel, "Kernel Verdict", "csumcheck.kernel", FT_STRING, BASE_NONE,
      "What the Linux RX path does with the frame: accept, drop, unknown (no IP layer to replay); the label "
      "names the device report and era in force")
FIELD(hf_kernel_summary, "Kernel Outcome", "csumcheck.kernel.summary", FT_STRING, BASE_NONE,
      "Verdict, drop counter, software passes (the kernel column)")
FIELD(hf_kernel_drop_layer, "Drop Layer Index", "csumcheck.kernel.drop_layer", FT_UINT8, BASE_DEC,
      "Index in the layer stack of the layer the kernel drops at")
FIELD(hf_kernel_drop_proto, "Drop Protocol", "csumcheck.kernel.drop_proto", FT_STRING, BASE_NONE,
      "Protocol of the layer the kernel drops at")
FIELD(hf_kernel_drop_reason, "Drop Reason", "csumcheck.kernel.drop_reason", FT_STRING, BASE_NONE,
      "The kernel's SKB_DROP_REASON (TCP_CSUM, UDP_CSUM, ...)")
FIELD(hf_kernel_counter, "Kernel Counter", "csumcheck.kernel.counter", FT_STRING, BASE_NONE,
      "An nstat counter the kernel bumps (TcpInCsumErrors, ...)")
FIELD(hf_kernel_sw_passes, "Software Checksum Passes", "csumcheck.kernel.sw_passes", FT_UINT8, BASE_DEC,
      "Full software checksum passes over packet bytes")
FIELD(hf_kernel_warning, "Kernel Warning", "csumcheck.kernel.warning", FT_STRING, BASE_NONE,
      "rco-nothing-verified, hw-csum-fault, bad-checksum-accepted, not-modelled, assumed")

/* per receiving device; its GRO engine fate (gro-fate.c) */
FIELD(hf_dev, "Receiving Device", "csumcheck.dev", FT_STRING, BASE_NONE,
      "A device the packet passes: the NIC, then each tunnel device (vxlan, geneve, gre, ...)")
FIELD(hf_dev_ip_summed, "Device Entry ip_summed", "csumcheck.dev.ip_summed", FT_STRING, BASE_NONE,
      "skb->ip_summed as the device receives it: NONE UNNECESSARY COMPLETE PARTIAL")
FIELD(hf_fate, "Device GRO Engine Fate", "csumcheck.dev.fate", FT_STRING, BASE_NONE,
      "held: first segment of a super-packet; merged: into an earlier one; alone: passed up at once")
FIELD(hf_super, "Super-packet First Frame", "csumcheck.dev.super", FT_FRAMENUM, BASE_NONE,
      "Frame of the super-packet's first segment")
FIELD(hf_segs, "Super-packet Segments", "csumcheck.dev.super_segs", FT_UINT16, BASE_DEC,
      "On a first segment: segments in its super-packet, itself included (so far, in a one-pass tshark run)")
FIELD(hf_flushed, "Device GRO Flush Caused", "csumcheck.dev.flushed", FT_STRING, BASE_NONE,
      "Why a held super-packet left the GRO list when this frame arrived (seq-gap, tcp-flags, size, ...)")

/* expert info: group and severity as the Expert Information dialog names
 * them; the description is "Expert info: <what> (<severity>/<group>)" */
EXPERT(ei_bad, "csumcheck.bad", Checksum, Error, "Bad Checksum", "a layer's checksum is bad")
EXPERT(ei_unverifiable, "csumcheck.unverifiable", Checksum, Warning, "Unverifiable Checksum",
       "a layer's checksum cannot be verified: snaplen, fragment, lengths disagree, GSO length")
EXPERT(ei_offload, "csumcheck.offload", Checksum, Note, "Checksum Left to Offload",
       "a partial, lco or rco checksum field; not an error on a TX-side capture")
EXPERT(ei_zero6, "csumcheck.zero6", Checksum, Note, "Zero UDP Checksum over IPv6",
       "legal only with udp6zerocsumrx")
EXPERT(ei_drop, "csumcheck.kernel.drop", Checksum, Warning, "Kernel Drops the Packet",
       "the kernel replay drops the packet")
EXPERT(ei_rco_nothing, "csumcheck.rco_nothing_verified", Checksum, Warning, "RCO with Nothing Verified",
       "RCO with a zero outer checksum: the inner checksum was accepted and nothing verified it")
EXPERT(ei_kernel_warn, "csumcheck.kernel.warn", Checksum, Warning, "Kernel Replay Warning",
       "hw-csum-fault or bad-checksum-accepted: a device report vouched for a bad checksum")
EXPERT(ei_kernel_note, "csumcheck.kernel.note", Checksum, Note, "Kernel Replay Note", "not-modelled or assumed")
EXPERT(ei_pref, "csumcheck.bad_preference", Assumption, Warning, "Invalid csumcheck Preference",
       "a csumcheck preference is invalid and its default is in use")
EXPERT(ei_sent, "csumcheck.sent", Checksum, Note, "Sent, Not Received: Checksum Left to the NIC",
       "a sent frame's checksum left to the NIC (its TX view): what the wire carries; not replayed")
EXPERT(ei_stop, "csumcheck.stack_ends", Malformed, Note, "Layer Stack Ends Early",
       "decoding stopped at a truncated or malformed header, or the stack is too deep")
EXPERT(ei_stop_undecoded, "csumcheck.stack_ends.undecoded", Undecoded, Note, "Layer Stack Ends Undecoded",
       "decoding stopped at a payload csumcheck does not decode: unknown, encrypted, unsupported, or needing "
       "a preference")
EXPERT(ei_l2spec_guessed, "csumcheck.l2spec_guessed.note", Assumption, Note, "L2TPv3 Sublayer Chosen From The Bytes",
       "the L2TPv3 L2-specific sublayer's length was chosen from the bytes")

/* subtrees */
SUBTREE(ett_csumcheck)
SUBTREE(ett_layer)
SUBTREE(ett_fill)
SUBTREE(ett_kernel)
SUBTREE(ett_dev)

#undef FIELD
#undef EXPERT
#undef SUBTREE
