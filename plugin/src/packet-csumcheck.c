/*
 * packet-csumcheck.c - the csumcheck postdissector for Wireshark 4.0.
 *
 * Runs the same core call as the CLI, csc_analyze() (+ csc_frag_feed() for
 * reassembly-based verdicts), on the whole frame, and shows the result as a
 * `csumcheck` subtree: one item per checksummed layer (raw verdict, field,
 * expected, reason, then how the kernel replay resolved it) and the packet's
 * kernel outcome (accept/drop, counters, software passes, GRO, entry state
 * per device). Fields, expert info, preferences: docs/wireshark.md.
 *
 * Frames are analysed once, on the first pass (which Wireshark and tshark
 * run in capture order, the order csc_frag_feed() needs), and a compact
 * summary (summary.h) is kept per frame in file scope; later passes, in any
 * order, render from it, so reassembly results are stable.
 */
#include "fields.h"
#include "gro-fate.h"
#include "kernel-words.h"
#include "label.h"
#include "linkmap.h"
#include "prefs.h"
#include "frame-record.h"
#include "stop-info.h"
#include "tx-view.h"
#include "ws-compat.h"

#include "csumcheck/csumcheck.h"
#include "csumcheck/frag.h"

#include <wireshark.h>

#include <epan/expert.h>
#include <epan/packet.h>
#include <epan/prefs.h>
#include <epan/proto_data.h>
#include <epan/range.h>
#include <wsutil/wslog.h>

#include <string.h>

#include "packet-csumcheck.h"

static int proto_csumcheck = -1;

/* ------------------------------------------------------------------ */
/* Reassembly state and the result buffer (the preferences: prefs.c) */

static struct csc_frag_table frag;
static struct csc_result scratch;      /* ~10 KB: never per frame */

static void init_csumcheck(void)
{
    static uint8_t frag_store[CSC_FRAG_STORE_BYTES];   /* the fragments' bytes, as the CLI */
    csc_frag_init(&frag);
    csc_frag_attach(&frag, pl_prefs_config(), frag_store);
    pl_gro_init(pl_prefs_config()->era.sw);
}

/* ------------------------------------------------------------------ */
/* Analysis: once per frame */

static struct pl_frame *analyze_frame(tvbuff_t *tvb, packet_info *pinfo)
{
    static const uint8_t empty[1];
    /*
     * The lengths come from the frame record, not from the tvb: on links
     * with no header before IP (raw IP, IPv4, IPv6) the IP dissector runs
     * on this very tvb and trims it to the datagram (set_actual_length()),
     * so by the time a postdissector runs, tvb_reported_length() may be the
     * IP length and trailing bytes may be gone from tvb_captured_length().
     * The CLI sees the record as libpcap returns it; so must we. The frame
     * tvb is backed by the record's buffer (cap_len contiguous bytes), so
     * the pointer to its start covers the whole record.
     */
    guint have = tvb_captured_length(tvb);
    guint caplen = pinfo->fd->cap_len;
    struct csc_frame f;
    f.data = have ? tvb_get_ptr(tvb, 0, have) : empty;
    if (!have || tvb != tvb_get_ds_tvb(tvb) || caplen < have)
        caplen = have;   /* not the frame tvb: use only what it shows */
    f.caplen = caplen;
    f.wirelen = pinfo->fd->pkt_len;
    f.link = (uint8_t)csc_link_from_wtap_encap(pinfo->rec->rec_header.packet_header.pkt_encap);
    f.direction = CSC_DIR_UNKNOWN;   /* as the CLI: libpcap does not expose pcapng flags */

    csc_analyze(pl_prefs_config(), &f, &scratch);
    /* Reassembly state advances only on the first, in-order pass. A frame
     * first seen later (not expected: Wireshark and tshark run the first
     * pass in order) gets its own verdicts without reassembly. */
    gboolean reassembled = FALSE;
    if (!PINFO_FD_VISITED(pinfo))
        reassembled = csc_frag_feed(&frag, &f, &scratch, pinfo->num);

    struct pl_frame *s = (struct pl_frame *)wmem_alloc(wmem_file_scope(), pl_summary_size(&scratch));
    pl_summarize(&scratch, s);
    s->frag_reassembled = reassembled ? 1 : 0;
    if (!PINFO_FD_VISITED(pinfo))   /* the GRO engine, too, needs capture order */
        pl_gro_feed(&f, &scratch, pinfo, s);
    return s;
}

/* ------------------------------------------------------------------ */
/* Rendering */


static const char *dev_label(const struct pl_frame *s, unsigned dev)
{
    return dev < s->ndevs ? csc_dev_name(pl_devs(s)[dev].kind) : "?";
}

/* Labels matter only in a visible tree (-V, PDML, the GUI's details): a
 * fake tree (tshark -T fields from 4.2 on, filters, columns) never shows
 * them, so they are not built there. */
static bool shown(proto_tree *t)
{
    return t && PTREE_DATA(t)->visible;
}

static const char *result_name(uint8_t ok)
{
    return csc_tri_name(ok);
}

/* Expert info of one checksummed layer; `item` may be NULL (no tree). */
static void layer_expert(packet_info *pinfo, proto_item *vi, const struct pl_layer *l)
{
    const char *proto = csc_proto_name(l->proto);
    switch (l->verdict) {
    case CSC_V_BAD:
        expert_add_info_format(pinfo, vi, &ei_bad, "%s checksum bad: 0x%04x, expected 0x%04x%s%s",
                               proto, l->field, l->expected, l->reason != CSC_R_NONE ? " - " : "",
                               csc_reason_name(l->reason));
        break;
    case CSC_V_UNVERIFIABLE:
        expert_add_info_format(pinfo, vi, &ei_unverifiable, "%s checksum unverifiable (%s)", proto,
                               csc_reason_name(l->reason));
        break;
    case CSC_V_PARTIAL:
    case CSC_V_LCO:
    case CSC_V_RCO:
        expert_add_info_format(pinfo, vi, &ei_offload, "%s checksum is %s (%s): offload, not an error on a TX capture",
                               proto, csc_verdict_name(l->verdict), csc_reason_name(l->reason));
        break;
    case CSC_V_ZERO6:
        expert_add_info_format(pinfo, vi, &ei_zero6,
                               "%s checksum zero over IPv6: accepted only with udp6zerocsumrx", proto);
        break;
    default:
        break;
    }
}

static bool layer_has_rco(const struct pl_layer *l)
{
    return l->reason == CSC_R_RCO || l->reason == CSC_R_RCO_WRONG_SEED ||
           l->reason == CSC_R_RCO_OUTER_BAD || l->reason == CSC_R_RCO_OUTER_MISSING;
}

/*
 * Cost note (bench/plugin-cost.sh, docs/performance.md): with a tree (-V,
 * -T fields, PDML/JSON, the GUI's selected packet) tshark allocates, walks,
 * prints and frees every item, about 1,500 instructions an item (a string
 * item more than a number), while a frame's whole analysis costs about
 * 10,000. So the tree is kept to what is worth a field: a layer is seven
 * items (the layer itself, its value the protocol, its label the whole
 * story: verdict, replay path, device, result, software passes; then offset,
 * verdict, reason, checksum, calculated checksum, kernel method), and the
 * kernel and device items carry their counts in their labels. Labels are
 * built without printf (label.h), once per item.
 */
static void render_layer(tvbuff_t *tvb, packet_info *pinfo, proto_tree *t,
                         const struct pl_frame *s, const struct pl_layer *l, guint caplen)
{
    /* a layer of the datagram this frame completed sits at an offset in the
     * datagram (note reassembled), not in this frame's bytes */
    gboolean in_frame = !(l->notes & CSC_N_REASSEMBLED);
    guint at = in_frame && l->off <= caplen ? l->off : 0;
    const char *proto = csc_proto_name(l->proto);
    const char *verdict = csc_verdict_name(l->verdict);
    gboolean reached = s->ran && l->method != CSC_M_NOT_REACHED;
    proto_item *li = pl_gen(proto_tree_add_string(t, hf_layer, tvb, at, 0, proto));
    if (shown(t)) {
        struct sb lb = { .n = 0 };
        sb_s(&lb, proto);
        sb_s(&lb, " @");
        sb_u(&lb, l->off);
        sb_s(&lb, ": ");
        sb_s(&lb, verdict);
        if (l->verdict != CSC_V_NONE && l->verdict != CSC_V_ZERO6) {
            sb_s(&lb, " ");
            sb_hex4(&lb, l->field);
        }
        if (l->verdict == CSC_V_BAD) {
            sb_s(&lb, ", expected ");
            sb_hex4(&lb, l->expected);
        }
        if (l->reason != CSC_R_NONE) {
            sb_s(&lb, " (");
            sb_s(&lb, csc_reason_name(l->reason));
            sb_s(&lb, ")");
        }
        if (reached) {
            /* "kernel: sw-pass on the normal path at vxlan, failed (3 sw passes, 60 bytes)" */
            sb_s(&lb, "; kernel: ");
            sb_s(&lb, csc_method_name(l->method));
            sb_s(&lb, " on the ");
            sb_s(&lb, csc_path_name(pl_layer_path(l)));
            sb_s(&lb, " path at ");
            sb_s(&lb, dev_label(s, l->dev));
            sb_s(&lb, ", ");
            sb_s(&lb, result_name(pl_layer_ok(l)));
            if (l->passes) {
                sb_s(&lb, " (");
                sb_passes(&lb, l->passes);
                sb_s(&lb, ", ");
                sb_u(&lb, l->pass_bytes);
                sb_s(&lb, " bytes)");
            }
            if (l->flags & PL_F_GRO_CONV)
                sb_s(&lb, ", converted in GRO");
            if (l->flags & PL_F_NORMAL_CONV)
                sb_s(&lb, ", converted");
            if (l->flags & PL_F_ASSUMED)
                sb_s(&lb, ", assumed");
        } else if (s->ran) {
            sb_s(&lb, "; kernel: ");
            sb_s(&lb, csc_method_name(l->method));
        }
        proto_item_set_text(li, "%s", lb.b);
    }
    proto_tree *lt = proto_item_add_subtree(li, ett_layer);

    proto_item *vi = pl_gen(proto_tree_add_string(lt, hf_layer_verdict, tvb, at, 0, verdict));
    pl_gen(proto_tree_add_string(lt, hf_layer_reason, tvb, at, 0, csc_reason_name(l->reason)));
    /* The checksum item covers the checksum bytes when they are in this
     * frame (a reassembled datagram's may be in another fragment). */
    if (in_frame && l->csum_off != CSC_NO_OFF && l->csum_off + 2 <= caplen &&
        l->reason != CSC_R_FRAG_REASSEMBLED && tvb_get_ntohs(tvb, l->csum_off) == l->field)
        proto_tree_add_uint(lt, hf_layer_checksum, tvb, l->csum_off, 2, l->field);
    else
        pl_gen(proto_tree_add_uint(lt, hf_layer_checksum, tvb, at, 0, l->field));
    pl_gen(proto_tree_add_uint(lt, hf_layer_calculated, tvb, at, 0, l->expected));
    if (!pl_tx_layer(tvb, pinfo, lt, vi, (int)at, s, l))   /* a sent frame's: its TX view */
        layer_expert(pinfo, vi, l);
}

/* Findings that belong to some layers only: notes, and the fill RCO/LCO
 * write into a checksum field. Frame-level fields that name their layer,
 * so the per-layer lists stay one entry per layer. */
static void render_findings(tvbuff_t *tvb, proto_tree *t, const struct pl_frame *s)
{
    const struct pl_layer *ck = pl_ck(s);
    for (unsigned i = 0; i < s->nck; i++) {
        const struct pl_layer *l = &ck[i];
        for (uint32_t b = l->notes; b; b &= b - 1) {
            const char *note = csc_note_name((unsigned)__builtin_ctz(b));
            proto_item *ni = pl_gen(proto_tree_add_string(t, hf_note, tvb, 0, 0, note));
            if (shown(t)) {   /* "Layer Note: ip-options (ipv4 @14)" */
                struct sb nb = { .n = 0 };
                sb_s(&nb, "Layer Note: ");
                sb_s(&nb, note);
                sb_s(&nb, " (");
                sb_s(&nb, csc_proto_name(l->proto));
                sb_s(&nb, " @");
                sb_u(&nb, l->off);
                sb_s(&nb, ")");
                proto_item_set_text(ni, "%s", nb.b);
            }
        }
        bool rco = layer_has_rco(l);
        if (!rco && l->verdict != CSC_V_LCO)
            continue;
        proto_item *fi = pl_gen(proto_tree_add_uint(t, hf_fill, tvb, 0, 0, l->resolved));
        if (shown(t)) {   /* "RCO fill of tcp @84: 0x1234" */
            struct sb fb = { .n = 0 };
            sb_s(&fb, rco ? "RCO fill of " : "LCO fill of ");
            sb_s(&fb, csc_proto_name(l->proto));
            sb_s(&fb, " @");
            sb_u(&fb, l->off);
            sb_s(&fb, ": ");
            sb_hex4(&fb, l->resolved);
            proto_item_set_text(fi, "%s", fb.b);
        }
        proto_tree *ft = proto_item_add_subtree(fi, ett_fill);
        pl_gen(proto_tree_add_uint(ft, hf_fill_offset, tvb, 0, 0, l->off));
        if (rco)
            pl_gen(proto_tree_add_uint(ft, hf_fill_delta, tvb, 0, 0, l->rco_delta));
    }
}

static const char *first_counter(uint32_t counters)
{
    for (unsigned c = 0; c < CSC_C__COUNT; c++)
        if (counters & (1u << c))
            return csc_counter_name(c);
    return NULL;
}

static void drop_expert(packet_info *pinfo, proto_item *vi, const struct pl_frame *s)
{
    const char *dproto = s->drop_layer < s->nlayers ? csc_proto_name(pl_protos(s)[s->drop_layer]) : "?";
    const char *c = first_counter(s->counters);
    expert_add_info_format(pinfo, vi, &ei_drop, "The kernel drops this packet at %s (layer %u): %s%s%s", dproto,
                           s->drop_layer, csc_drop_name(s->drop_reason), c ? ", " : "", c ? c : "");
}

static void warning_expert(packet_info *pinfo, proto_item *wi, unsigned b)
{
    uint32_t w = 1u << b;
    if (w == CSC_W_RCO_NOTHING_VERIFIED)
        expert_add_info(pinfo, wi, &ei_rco_nothing);
    else if (w == CSC_W_HW_CSUM_FAULT || w == CSC_W_GARBAGE_ACCEPTED)
        expert_add_info_format(pinfo, wi, &ei_kernel_warn, "Kernel replay: %s", csc_warning_name(b));
    else
        expert_add_info_format(pinfo, wi, &ei_kernel_note, "Kernel replay: %s", csc_warning_name(b));
}

static void pref_expert(packet_info *pinfo, proto_item *ti)
{
    const GPtrArray *pref_errors = pl_prefs_errors();
    for (guint i = 0; pref_errors && i < pref_errors->len; i++)
        expert_add_info_format(pinfo, ti, &ei_pref, "%s", (const char *)g_ptr_array_index(pref_errors, i));
}

/* No tree (tshark's plain packet list, no filter, no fields): nothing is
 * shown but expert info (the Expert column, -z expert), so only that. */
/* Expert info without the items it would hang on: on `at` (the protocol
 * item in a fake tree, where expert filters and _ws.expert fields look for
 * it; NULL without a tree, for the expert tap alone). */
static void layers_expert_only(packet_info *pinfo, proto_item *at, const struct pl_frame *s)
{
    const struct pl_layer *ck = pl_ck(s);
    for (unsigned i = 0; i < s->nck; i++)
        if (!pl_tx_layer(NULL, pinfo, NULL, at, 0, s, &ck[i]))
            layer_expert(pinfo, at, &ck[i]);
}

static void kernel_expert_only(packet_info *pinfo, proto_item *at, const struct pl_frame *s)
{
    if (s->ran && s->kverdict == CSC_K_DROP)
        drop_expert(pinfo, at, s);
    if (s->ran)
        for (uint32_t bits = s->warnings; bits; bits &= bits - 1)
            warning_expert(pinfo, at, (unsigned)__builtin_ctz(bits));
}

static void expert_only(packet_info *pinfo, const struct pl_frame *s)
{
    layers_expert_only(pinfo, NULL, s);
    kernel_expert_only(pinfo, NULL, s);
    pl_stop_expert(pinfo, NULL, s);
    pref_expert(pinfo, NULL);
}

/*
 * A fake tree (not visible: tshark -T fields from 4.2 on, -Y, custom
 * columns) keeps only the fields someone asked for; Wireshark drops the
 * others at about 150-300 instructions a call. A group of items none of
 * whose fields is asked for is therefore not built at all (only its expert
 * info is added, which -z expert and expert filters read).
 */
static int *const layer_fields[] = { &hf_layer, &hf_layer_verdict, &hf_layer_reason, &hf_layer_checksum,
                                     &hf_layer_calculated, &hf_note, &hf_fill, &hf_fill_offset, &hf_fill_delta };
static int *const kernel_fields[] = { &hf_kernel, &hf_kernel_summary, &hf_kernel_drop_layer,
                                      &hf_kernel_drop_proto, &hf_kernel_drop_reason, &hf_kernel_counter,
                                      &hf_kernel_sw_passes, &hf_kernel_warning, &hf_dev, &hf_dev_ip_summed };

static bool any_referenced(proto_tree *t, int *const *ids, size_t n)
{
    if (shown(t))
        return true;
    for (size_t i = 0; i < n; i++)
        if (proto_field_is_referenced(t, *ids[i]))
            return true;
    return false;
}

static void render_kernel(tvbuff_t *tvb, packet_info *pinfo, proto_tree *t, const struct pl_frame *s,
                          const char *ksum)
{
    /* The item's value is the verdict word: csumcheck.kernel == "drop". */
    const char *kv = pl_kernel_verdict(s);
    proto_item *ki = pl_gen(proto_tree_add_string(t, hf_kernel, tvb, 0, 0, kv));
    if (shown(t)) {
        struct sb kb = { .n = 0 };
        sb_s(&kb, "Kernel (rx ");
        sb_s(&kb, pl_prefs_rx_text());
        sb_s(&kb, ", era ");
        sb_s(&kb, pl_prefs_config()->era.name);
        sb_s(&kb, "): ");
        sb_s(&kb, ksum);
        if (s->ran && s->kverdict == CSC_K_DROP && s->drop_layer < s->nlayers) {
            sb_s(&kb, " at layer ");
            sb_u(&kb, s->drop_layer);
        }
        if (s->ran) {
            /* the software work: "; 1 sw pass over 1480 bytes, 30 header bytes" */
            sb_s(&kb, "; ");
            sb_passes(&kb, s->sw_passes);
            if (s->sw_passes) {
                sb_s(&kb, " over ");
                sb_u(&kb, s->sw_bytes);
                sb_s(&kb, " bytes");
            }
            if (s->hdr_bytes) {
                sb_s(&kb, ", ");
                sb_u(&kb, s->hdr_bytes);
                sb_s(&kb, " header bytes");
            }
        }
        proto_item_set_text(ki, "%s", kb.b);
    }
    proto_tree *kt = proto_item_add_subtree(ki, ett_kernel);

    pl_gen(proto_tree_add_string(kt, hf_kernel_summary, tvb, 0, 0, ksum));
    if (!s->ran) {
        for (uint32_t b = s->warnings; b; b &= b - 1)
            pl_gen(proto_tree_add_string(kt, hf_kernel_warning, tvb, 0, 0, csc_warning_name((unsigned)__builtin_ctz(b))));
        return;
    }
    if (s->kverdict == CSC_K_DROP) {
        if (s->drop_layer < s->nlayers) {
            pl_gen(proto_tree_add_uint(kt, hf_kernel_drop_layer, tvb, 0, 0, s->drop_layer));
            pl_gen(proto_tree_add_string(kt, hf_kernel_drop_proto, tvb, 0, 0,
                                      csc_proto_name(pl_protos(s)[s->drop_layer])));
        }
        drop_expert(pinfo, pl_gen(proto_tree_add_string(kt, hf_kernel_drop_reason, tvb, 0, 0,
                                                     csc_drop_name(s->drop_reason))), s);
    }
    for (uint32_t c = s->counters; c; c &= c - 1)
        pl_gen(proto_tree_add_string(kt, hf_kernel_counter, tvb, 0, 0, csc_counter_name((unsigned)__builtin_ctz(c))));
    pl_gen(proto_tree_add_uint(kt, hf_kernel_sw_passes, tvb, 0, 0, s->sw_passes));
    for (uint32_t bits = s->warnings; bits; bits &= bits - 1) {
        unsigned b = (unsigned)__builtin_ctz(bits);
        proto_item *wi = pl_gen(proto_tree_add_string(kt, hf_kernel_warning, tvb, 0, 0, csc_warning_name(b)));
        warning_expert(pinfo, wi, b);
    }

    /* One item per receiving device: its entry state and GRO pass; the
     * label carries the software passes and the GRO engine's fate. */
    const struct pl_dev *d = pl_devs(s);
    for (unsigned i = 0; i < s->ndevs; i++) {
        const char *name = csc_dev_name(d[i].kind);
        proto_item *di = pl_gen(proto_tree_add_string(kt, hf_dev, tvb, 0, 0, name));
        if (shown(kt)) {
            struct sb db = { .n = 0 };
            sb_s(&db, "Device ");
            sb_s(&db, name);
            sb_s(&db, ": entry ");
            sb_s(&db, csc_ip_summed_name(d[i].ip_summed));
            if (d[i].ip_summed == CSC_CHECKSUM_UNNECESSARY || d[i].csum_level) {
                sb_s(&db, " level ");
                sb_u(&db, d[i].csum_level);
            }
            if (d[i].csum_valid)
                sb_s(&db, " csum_valid");
            if (d[i].csum_bad)
                sb_s(&db, " csum_bad");
            sb_s(&db, d[i].gro_ran ? ", GRO " : ", no GRO pass (");
            sb_s(&db, csc_gro_reason_name(d[i].gro_reason));
            if (!d[i].gro_ran) {
                sb_s(&db, ")");
            } else if (d[i].gro_layer < s->nlayers) {
                sb_s(&db, " at layer ");
                sb_u(&db, d[i].gro_layer);
            }
            if (d[i].passes) {   /* includes the ones in its GRO pass */
                sb_s(&db, ", ");
                sb_passes(&db, d[i].passes);
                sb_s(&db, " (");
                sb_u(&db, d[i].pass_bytes);
                sb_s(&db, " bytes");
                if (d[i].gro_passes) {
                    sb_s(&db, ", ");
                    sb_u(&db, d[i].gro_passes);
                    sb_s(&db, " in GRO");
                }
                sb_s(&db, ")");
            }
            pl_gro_fate_text(s, i, &db);
            proto_item_set_text(di, "%s", db.b);
        }
        proto_tree *dt = proto_item_add_subtree(di, ett_dev);
        pl_gen(proto_tree_add_string(dt, hf_dev_ip_summed, tvb, 0, 0, csc_ip_summed_name(d[i].ip_summed)));
        pl_gro_render_dev(tvb, dt, s, i);
    }
}

static int dissect_csumcheck(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data _U_)
{
    if (!pinfo->rec || pinfo->rec->rec_type != REC_TYPE_PACKET)
        return 0;

    struct pl_frame *s = (struct pl_frame *)p_get_proto_data(wmem_file_scope(), pinfo, proto_csumcheck, 0);
    if (!s) {
        s = analyze_frame(tvb, pinfo);
        p_add_proto_data(wmem_file_scope(), pinfo, proto_csumcheck, 0, s);
    }

    guint caplen = tvb_captured_length(tvb);   /* items may only point into what the tvb shows */
    if (!tree) {
        expert_only(pinfo, s);
        return caplen;
    }
    struct sb cs = { .n = 0 }, ks = { .n = 0 };
    sb_s(&cs, csc_verdict_name(s->worst));
    if (s->worst != CSC_V_GOOD && s->worst != CSC_V_NA) {
        const struct pl_layer *w = pl_ck(s);
        const char *sep = " ";
        for (unsigned i = 0; i < s->nck; i++)
            if (w[i].verdict == s->worst) {
                sb_s(&cs, sep);
                sb_s(&cs, csc_proto_name(w[i].proto));
                sep = ",";
            }
    }
    pl_kernel_words(s, &ks);
    const char *csum_text = cs.b, *ksum = ks.b;

    proto_item *ti = proto_tree_add_item(tree, proto_csumcheck, tvb, 0, 0, ENC_NA);
    if (shown(tree)) {
        struct sb pb = { .n = 0 };
        sb_s(&pb, "csumcheck: ");
        sb_s(&pb, csum_text);
        sb_s(&pb, "; kernel: ");
        sb_s(&pb, ksum);
        proto_item_set_text(ti, "%s", pb.b);
    }
    proto_tree *t = proto_item_add_subtree(ti, ett_csumcheck);

    pl_gen(proto_tree_add_string(t, hf_verdict, tvb, 0, 0, csc_verdict_name(s->worst)));
    pl_gen(proto_tree_add_string(t, hf_summary, tvb, 0, 0, csum_text));
    if (proto_field_is_referenced(t, hf_stack)) {   /* always true in a visible tree */
        char stack[CSC_MAX_LAYERS * 12];
        size_t n = 0;
        for (unsigned i = 0; i < s->nlayers; i++) {
            const char *p = csc_proto_name(pl_protos(s)[i]);
            size_t pl = strlen(p);
            if (n + pl + 2 > sizeof stack)
                break;
            if (i)
                stack[n++] = ':';
            memcpy(stack + n, p, pl);
            n += pl;
        }
        stack[n] = 0;
        pl_gen(proto_tree_add_string(t, hf_stack, tvb, 0, 0, stack));
    }
    pl_stop_render(tvb, pinfo, t, s);
    if (s->gso_segs_known)
        pl_gen(proto_tree_add_uint(t, hf_gso_segs, tvb, 0, 0, s->gso_segs));
    if (s->frag_reassembled)
        pl_gen(proto_tree_add_boolean(t, hf_reassembled, tvb, 0, 0, TRUE));
    pref_expert(pinfo, ti);

    const struct pl_layer *ck = pl_ck(s);
    if (any_referenced(t, layer_fields, G_N_ELEMENTS(layer_fields)) || pl_tx_fields_referenced(t)) {
        for (unsigned i = 0; i < s->nck; i++)
            render_layer(tvb, pinfo, t, s, &ck[i], caplen);
        render_findings(tvb, t, s);
    } else {
        layers_expert_only(pinfo, ti, s);
    }

    if (s->ran) {
        uint8_t gdev;
        pl_gen(proto_tree_add_string(t, hf_gro, tvb, 0, 0, csc_gro_reason_name(pl_frame_gro(s, &gdev))));
    }
    if (any_referenced(t, kernel_fields, G_N_ELEMENTS(kernel_fields)) || pl_gro_fields_referenced(t))
        render_kernel(tvb, pinfo, t, s, ksum);
    else
        kernel_expert_only(pinfo, ti, s);
    return caplen;
}

/* ------------------------------------------------------------------ */
/* Registration */

void proto_register_csumcheck(void)
{
    proto_csumcheck = proto_register_protocol("csumcheck: checksum verdicts and Linux RX replay",
                                              "csumcheck", "csumcheck");
    pl_fields_register(proto_csumcheck);
    module_t *m = pl_prefs_register(proto_csumcheck);
    pl_gro_register_prefs(m);
    register_init_routine(init_csumcheck);
    pl_prefs_apply();
}

void proto_reg_handoff_csumcheck(void)
{
    dissector_handle_t h = create_dissector_handle(dissect_csumcheck, proto_csumcheck);
    register_postdissector(h);
}
