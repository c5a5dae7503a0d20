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
#include "gro-fate.h"
#include "linkmap.h"
#include "frame-record.h"
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

/* frame */
static int hf_verdict = -1;
static int hf_summary = -1;
static int hf_stack = -1;
static int hf_stop = -1;
static int hf_stop_offset = -1;
static int hf_gso_segs = -1;
static int hf_reassembled = -1;
static int hf_gro = -1;
/* per checksummed layer */
static int hf_layer = -1;
static int hf_layer_index = -1;
static int hf_layer_proto = -1;
static int hf_layer_offset = -1;
static int hf_layer_verdict = -1;
static int hf_layer_reason = -1;
static int hf_layer_field = -1;
static int hf_layer_expected = -1;
static int hf_layer_resolved = -1;
static int hf_layer_rco_delta = -1;
static int hf_layer_note = -1;
static int hf_layer_method = -1;
static int hf_layer_path = -1;
static int hf_layer_result = -1;
static int hf_layer_gro_conv = -1;
static int hf_layer_normal_conv = -1;
static int hf_layer_assumed = -1;
static int hf_layer_sw_passes = -1;
static int hf_layer_sw_bytes = -1;
/* kernel */
static int hf_kernel = -1;
static int hf_kernel_replayed = -1;
static int hf_kernel_verdict = -1;
static int hf_kernel_summary = -1;
static int hf_kernel_drop_layer = -1;
static int hf_kernel_drop_proto = -1;
static int hf_kernel_drop_reason = -1;
static int hf_kernel_counter = -1;
static int hf_kernel_sw_passes = -1;
static int hf_kernel_sw_bytes = -1;
static int hf_kernel_hdr_bytes = -1;
static int hf_kernel_warning = -1;
/* per receiving device */
static int hf_dev = -1;
static int hf_dev_ip_summed = -1;
static int hf_dev_csum_level = -1;
static int hf_dev_csum_valid = -1;
static int hf_dev_csum_bad = -1;
static int hf_dev_gro_ran = -1;
static int hf_dev_gro = -1;
static int hf_dev_gro_layer = -1;
static int hf_dev_sw_passes = -1;
static int hf_dev_sw_bytes = -1;
static int hf_dev_gro_sw_passes = -1;
static int hf_dev_gro_sw_bytes = -1;

static gint ett_csumcheck = -1;
static gint ett_layer = -1;
static gint ett_layer_kernel = -1;
static gint ett_kernel = -1;
static gint ett_dev = -1;

static expert_field ei_bad = EI_INIT;
static expert_field ei_unverifiable = EI_INIT;
static expert_field ei_offload = EI_INIT;
static expert_field ei_zero6 = EI_INIT;
static expert_field ei_drop = EI_INIT;
static expert_field ei_rco_nothing = EI_INIT;
static expert_field ei_kernel_warn = EI_INIT;
static expert_field ei_kernel_note = EI_INIT;
static expert_field ei_stop = EI_INIT;
static expert_field ei_pref = EI_INIT;

/* Value strings built from the core's name tables, so column text, filter
 * words and the CLI's JSON vocabulary are one and the same. */
static value_string vals_proto[CSC_P__COUNT + 1];
static value_string vals_verdict[CSC_V__COUNT + 1];
static value_string vals_reason[CSC_R__COUNT + 1];
static value_string vals_stop[CSC_STOP__COUNT + 1];
static value_string vals_method[CSC_M__COUNT + 1];
static value_string vals_path[CSC_PATH__COUNT + 1];
static value_string vals_summed[CSC_CHECKSUM__COUNT + 1];
static value_string vals_kverdict[CSC_K__COUNT + 1];
static value_string vals_gro[CSC_G__COUNT + 1];
static value_string vals_result[CSC_TRI__COUNT + 1];

static void fill_vals(value_string *v, unsigned n, const char *(*name)(unsigned))
{
    for (unsigned i = 0; i < n; i++) {
        v[i].value = i;
        v[i].strptr = name(i);
    }
    v[n].value = 0;
    v[n].strptr = NULL;
}

/* ------------------------------------------------------------------ */
/* Preferences: the CLI's options (docs/wireshark.md lists the mapping) */

static const char *pref_rx = "none";
static const char *pref_era = "modern";
enum { GRO_ON = 0, GRO_OFF, GRO_NIC, GRO_TUNNEL };
static gint pref_gro = GRO_ON;
static const enum_val_t gro_enum[] = {
    { "on", "on: NIC and tunnel devices", GRO_ON },
    { "off", "off", GRO_OFF },
    { "nic", "nic: the NIC only", GRO_NIC },
    { "tunnel", "tunnel: tunnel devices only", GRO_TUNNEL },
    { NULL, NULL, -1 },
};
static csc_pref_bool pref_remcsum_rx = false;
static csc_pref_bool pref_remcsum_nopartial = false;
static csc_pref_bool pref_udp6_zero_csum_rx = false;
static gint pref_gre_csum = 0;
static const enum_val_t gre_csum_enum[] = {
    { "packet", "packet: the tunnel matches each packet", CSC_GRE_CSUM_PACKET },
    { "on", "on (icsum)", CSC_GRE_CSUM_ON },
    { "off", "off", CSC_GRE_CSUM_OFF },
    { NULL, NULL, -1 },
};
static csc_pref_bool pref_no_socket = false;
static csc_pref_bool pref_assume_bad = false;
static guint pref_l2tp_cookie_len = 0;
static guint pref_l2tp_l2spec_len = 4;
static const char *pref_fou_ports = "";

/* UDP port tables: a range preference for every row of the core's protocol
 * table that names one (csc_proto_desc: vxlan_ports, ...); FOU's takes
 * PORT:IPPROTO pairs (pref_fou_ports). */
static range_t *port_ranges[CSC_P__COUNT];

static bool is_port_range_pref(unsigned p)
{
    const struct csc_proto_desc *d = csc_proto_desc(p);
    return d->pref && !(d->flags & CSC_PF_PORT_IPPROTO);
}

static struct csc_config cfg;          /* what csc_analyze() runs with */
static GPtrArray *pref_errors;         /* one message per invalid preference */
static char cfg_rx_text[48];           /* report actually in force */

static struct csc_frag_table frag;
static struct csc_result scratch;      /* ~10 KB: never per frame */

static char *default_ports(const struct csc_config *c, uint8_t proto)
{
    GString *s = g_string_new(NULL);
    for (unsigned i = 0; i < c->nports; i++)
        if (c->ports[i].proto == proto)
            g_string_append_printf(s, "%s%u", s->len ? "," : "", c->ports[i].port);
    return g_string_free(s, FALSE);
}

static void add_error(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
static void add_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *m = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    ws_warning("csumcheck preferences: %s", m);
    g_ptr_array_add(pref_errors, m);
}

/* "PORT:IPPROTO[,PORT:IPPROTO...]" as the CLI's --fou-port PORT:IPPROTO. */
static void parse_fou_ports(const char *s, struct csc_config *c)
{
    gchar **items = g_strsplit_set(s, ", ", -1);
    for (gchar **it = items; *it; it++) {
        if (!**it)
            continue;
        guint64 port, ipp;
        gchar **pp = g_strsplit(*it, ":", 3);
        gboolean ok = g_strv_length(pp) == 2 &&
                      g_ascii_string_to_unsigned(pp[0], 10, 1, 65535, &port, NULL) &&
                      g_ascii_string_to_unsigned(pp[1], 10, 1, 255, &ipp, NULL);
        g_strfreev(pp);
        if (!ok) {
            add_error("csumcheck.fou_ports: \"%s\" is not PORT:IPPROTO (e.g. 5555:4); ignored", *it);
        } else if (!csc_config_set_port(c, (uint16_t)port, CSC_P_FOU, (uint8_t)ipp)) {
            add_error("csumcheck.fou_ports: more than %d tunnel ports in all; %s and later ignored",
                      CSC_MAX_PORTS, *it);
            break;
        }
    }
    g_strfreev(items);
}

static void apply_prefs(void)
{
    struct csc_config c;
    gchar *s;

    csc_config_default(&c);
    if (pref_errors)
        g_ptr_array_free(pref_errors, TRUE);
    pref_errors = g_ptr_array_new_with_free_func(g_free);

    s = g_strstrip(g_strdup(pref_rx ? pref_rx : ""));
    if (!csc_report_parse(s, &c.rx))
        add_error("csumcheck.rx \"%s\" is not a device report (none, unnecessary:L, complete, "
                  "partial:outer|inner|START:OFFSET, outer-l4, tunnel-l4); using none", s);
    g_free(s);

    s = g_strstrip(g_strdup(pref_era ? pref_era : ""));
    if (!csc_era_by_name(s, &c.era)) {
        GString *names = g_string_new(NULL);
        for (size_t i = 0; i < csc_era_count(); i++)
            g_string_append_printf(names, "%s%s", i ? ", " : "", csc_era_at(i)->name);
        add_error("csumcheck.era \"%s\" is not an era (%s); using modern", s, names->str);
        g_string_free(names, TRUE);
    }
    g_free(s);

    c.gro_nic = pref_gro == GRO_ON || pref_gro == GRO_NIC;
    c.gro_tunnel = pref_gro == GRO_ON || pref_gro == GRO_TUNNEL;
    c.remcsum_rx = pref_remcsum_rx ? true : false;
    c.remcsum_nopartial = pref_remcsum_nopartial ? true : false;
    c.udp6_zero_csum_rx = pref_udp6_zero_csum_rx ? true : false;
    c.gre_csum = (uint8_t)pref_gre_csum;
    c.inner_socket = pref_no_socket ? false : true;
    c.assume_bad = pref_assume_bad ? true : false;
    if (pref_l2tp_cookie_len == 0 || pref_l2tp_cookie_len == 4 || pref_l2tp_cookie_len == 8)
        c.l2tp_cookie_len = (uint8_t)pref_l2tp_cookie_len;
    else
        add_error("csumcheck.l2tp_cookie_len %u is not 0, 4 or 8; using %u", pref_l2tp_cookie_len,
                  c.l2tp_cookie_len);
    if (pref_l2tp_l2spec_len == 0 || pref_l2tp_l2spec_len == 4)
        c.l2tp_l2spec_len = (uint8_t)pref_l2tp_l2spec_len;
    else
        add_error("csumcheck.l2tp_l2spec_len %u is not 0 or 4; using %u", pref_l2tp_l2spec_len,
                  c.l2tp_l2spec_len);
    c.trace_steps = false;   /* the plugin shows per-layer summaries, not the step trace */

    for (unsigned p = 0; p < CSC_P__COUNT; p++)
        if (csc_proto_desc(p)->pref)
            csc_config_clear_ports(&c, (uint8_t)p);
    for (unsigned p = 0; p < CSC_P__COUNT; p++) {
        const range_t *r = is_port_range_pref(p) ? port_ranges[p] : NULL;
        for (guint i = 0; r && i < r->nranges; i++)
            for (guint32 port = r->ranges[i].low; port <= r->ranges[i].high && port <= 65535; port++)
                if (port && !csc_config_set_port(&c, (uint16_t)port, (uint8_t)p, 0)) {
                    add_error("csumcheck.%s: more than %d tunnel ports in all; %u and later ignored",
                              csc_proto_desc(p)->pref, CSC_MAX_PORTS, port);
                    goto ports_done;
                }
    }
    parse_fou_ports(pref_fou_ports ? pref_fou_ports : "", &c);
ports_done:
    if (pl_gro_pref_error())
        add_error("%s", pl_gro_pref_error());
    cfg = c;
    csc_report_format(&cfg.rx, cfg_rx_text, sizeof cfg_rx_text);
}

static void init_csumcheck(void)
{
    csc_frag_init(&frag);
    pl_gro_init();
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

    csc_analyze(&cfg, &f, &scratch);
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

static proto_item *gen(proto_item *pi)
{
    proto_item_set_generated(pi);
    return pi;
}

static const char *dev_label(const struct pl_frame *s, unsigned dev)
{
    return dev < s->ndevs ? csc_dev_name(pl_devs(s)[dev].kind) : "?";
}

/*
 * Labels are built with this small appender, not printf: with a visible tree
 * (-V, -T fields, the GUI) every label is formatted for every frame, and
 * printf-style formatting was the largest part of the plugin's cost
 * (bench/plugin-cost.sh, callgrind). proto_item_set_text(pi, "%s", buf) then
 * copies the finished string.
 */
struct sb {
    char b[192];
    size_t n;
};

static void sb_s(struct sb *sb, const char *s)
{
    size_t l = strlen(s);
    if (l > sizeof sb->b - 1 - sb->n)
        l = sizeof sb->b - 1 - sb->n;
    memcpy(sb->b + sb->n, s, l);
    sb->n += l;
    sb->b[sb->n] = 0;
}

static void sb_u(struct sb *sb, uint32_t v)
{
    char t[11];
    int i = (int)sizeof t;
    do {
        t[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    size_t l = sizeof t - (size_t)i;
    if (l > sizeof sb->b - 1 - sb->n)
        return;
    memcpy(sb->b + sb->n, t + i, l);
    sb->n += l;
    sb->b[sb->n] = 0;
}

static void sb_hex4(struct sb *sb, uint16_t v)
{
    static const char hex[] = "0123456789abcdef";
    if (sb->n + 6 > sizeof sb->b - 1)
        return;
    char *p = sb->b + sb->n;
    p[0] = '0';
    p[1] = 'x';
    p[2] = hex[v >> 12];
    p[3] = hex[(v >> 8) & 15];
    p[4] = hex[(v >> 4) & 15];
    p[5] = hex[v & 15];
    sb->n += 6;
    sb->b[sb->n] = 0;
}

static void sb_passes(struct sb *sb, unsigned n)
{
    sb_u(sb, n);
    sb_s(sb, n == 1 ? " sw pass" : " sw passes");
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

/*
 * Cost note (bench/plugin-cost.sh): with a visible tree (-V, -T fields, the
 * GUI) every item is allocated and walked, and every custom label is a
 * printf. Labels are therefore formatted once per item (no append_text,
 * which also renders the default label first), and items that only repeat a
 * default (no conversion, zero passes, csum_level 0 outside UNNECESSARY)
 * are left out; an absent item means the default, as in Wireshark's own
 * dissectors.
 */
static void render_layer(tvbuff_t *tvb, packet_info *pinfo, proto_tree *t,
                         const struct pl_frame *s, const struct pl_layer *l, guint caplen)
{
    guint at = l->off <= caplen ? l->off : 0;
    const char *proto = csc_proto_name(l->proto);
    const char *verdict = csc_verdict_name(l->verdict);
    gboolean reached = s->ran && l->method != CSC_M_NOT_REACHED;
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
        sb_s(&lb, "; kernel: ");
        sb_s(&lb, csc_method_name(l->method));
        sb_s(&lb, ", ");
        sb_s(&lb, result_name(pl_layer_ok(l)));
    }
    proto_item *li = gen(proto_tree_add_item(t, hf_layer, tvb, at, 0, ENC_NA));
    proto_item_set_text(li, "%s", lb.b);
    proto_tree *lt = proto_item_add_subtree(li, ett_layer);

    gen(proto_tree_add_uint(lt, hf_layer_index, tvb, at, 0, l->index));
    gen(proto_tree_add_uint(lt, hf_layer_proto, tvb, at, 0, l->proto));
    gen(proto_tree_add_uint(lt, hf_layer_offset, tvb, at, 0, l->off));
    proto_item *vi = gen(proto_tree_add_uint(lt, hf_layer_verdict, tvb, at, 0, l->verdict));
    if (l->reason != CSC_R_NONE)
        gen(proto_tree_add_uint(lt, hf_layer_reason, tvb, at, 0, l->reason));

    /* The field item covers the checksum bytes when they are in this frame
     * (a reassembled datagram's field may be in another fragment). */
    if (l->csum_off != CSC_NO_OFF && l->csum_off + 2 <= caplen && l->reason != CSC_R_FRAG_REASSEMBLED &&
        tvb_get_ntohs(tvb, l->csum_off) == l->field)
        proto_tree_add_uint(lt, hf_layer_field, tvb, l->csum_off, 2, l->field);
    else
        gen(proto_tree_add_uint(lt, hf_layer_field, tvb, at, 0, l->field));
    gen(proto_tree_add_uint(lt, hf_layer_expected, tvb, at, 0, l->expected));
    /* RCO: what remcsum_adjust writes (also when the verdict is bad for an
     * RCO reason), and its delta; LCO: the inner fill. As the CLI's JSON. */
    bool rco = l->reason == CSC_R_RCO || l->reason == CSC_R_RCO_WRONG_SEED ||
               l->reason == CSC_R_RCO_OUTER_BAD || l->reason == CSC_R_RCO_OUTER_MISSING;
    if (rco || l->verdict == CSC_V_LCO)
        gen(proto_tree_add_uint(lt, hf_layer_resolved, tvb, at, 0, l->resolved));
    if (rco)
        gen(proto_tree_add_uint(lt, hf_layer_rco_delta, tvb, at, 0, l->rco_delta));
    for (uint32_t b = l->notes; b; b &= b - 1)
        gen(proto_tree_add_string(lt, hf_layer_note, tvb, at, 0, csc_note_name((unsigned)__builtin_ctz(b))));

    layer_expert(pinfo, vi, l);

    if (!s->ran)
        return;
    /* How the replay resolved this checksum: the method item heads a subtree;
     * its label names the device (a per-layer device string item cost more
     * than it was worth, see the cost note above). */
    proto_item *ki = gen(proto_tree_add_uint(lt, hf_layer_method, tvb, at, 0, l->method));
    if (!reached) {
        proto_item_set_text(ki, "Kernel: %s", csc_method_name(l->method));
        return;
    }
    struct sb mb = { .n = 0 };
    sb_s(&mb, "Kernel: ");
    sb_s(&mb, csc_method_name(l->method));
    sb_s(&mb, " on the ");
    sb_s(&mb, csc_path_name(pl_layer_path(l)));
    sb_s(&mb, " path at ");
    sb_s(&mb, dev_label(s, l->dev));
    sb_s(&mb, ", ");
    sb_s(&mb, result_name(pl_layer_ok(l)));
    if (l->passes) {
        sb_s(&mb, " (");
        sb_passes(&mb, l->passes);
        sb_s(&mb, ", ");
        sb_u(&mb, l->pass_bytes);
        sb_s(&mb, " bytes)");
    }
    proto_item_set_text(ki, "%s", mb.b);
    proto_tree *kt = proto_item_add_subtree(ki, ett_layer_kernel);
    gen(proto_tree_add_uint(kt, hf_layer_path, tvb, at, 0, pl_layer_path(l)));
    gen(proto_tree_add_uint(kt, hf_layer_result, tvb, at, 0, pl_layer_ok(l)));
    if (l->flags & PL_F_GRO_CONV)
        gen(proto_tree_add_boolean(kt, hf_layer_gro_conv, tvb, at, 0, TRUE));
    if (l->flags & PL_F_NORMAL_CONV)
        gen(proto_tree_add_boolean(kt, hf_layer_normal_conv, tvb, at, 0, TRUE));
    if (l->flags & PL_F_ASSUMED)
        gen(proto_tree_add_boolean(kt, hf_layer_assumed, tvb, at, 0, TRUE));
    if (l->passes) {
        gen(proto_tree_add_uint(kt, hf_layer_sw_passes, tvb, at, 0, l->passes));
        gen(proto_tree_add_uint(kt, hf_layer_sw_bytes, tvb, at, 0, l->pass_bytes));
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

static void stop_expert(packet_info *pinfo, proto_item *pi, const struct pl_frame *s)
{
    if (s->stop != CSC_STOP_END && s->stop != CSC_STOP_FRAGMENT)
        expert_add_info_format(pinfo, pi, &ei_stop, "Layer stack ends early: %s %s at offset %u",
                               csc_stop_name(s->stop), csc_proto_name(s->stop_proto), s->stop_off);
}

static void pref_expert(packet_info *pinfo, proto_item *ti)
{
    for (guint i = 0; pref_errors && i < pref_errors->len; i++)
        expert_add_info_format(pinfo, ti, &ei_pref, "%s", (const char *)g_ptr_array_index(pref_errors, i));
}

/* No tree (tshark's plain packet list, no filter, no fields): nothing is
 * shown but expert info (the Expert column, -z expert), so only that. */
static void expert_only(packet_info *pinfo, const struct pl_frame *s)
{
    const struct pl_layer *ck = pl_ck(s);
    for (unsigned i = 0; i < s->nck; i++)
        layer_expert(pinfo, NULL, &ck[i]);
    if (s->ran && s->kverdict == CSC_K_DROP)
        drop_expert(pinfo, NULL, s);
    if (s->ran)
        for (uint32_t bits = s->warnings; bits; bits &= bits - 1)
            warning_expert(pinfo, NULL, (unsigned)__builtin_ctz(bits));
    stop_expert(pinfo, NULL, s);
    pref_expert(pinfo, NULL);
}

static void render_kernel(tvbuff_t *tvb, packet_info *pinfo, proto_tree *t, const struct pl_frame *s,
                          const char *ksum)
{
    proto_item *ki = gen(proto_tree_add_item(t, hf_kernel, tvb, 0, 0, ENC_NA));
    struct sb kb = { .n = 0 };
    sb_s(&kb, "Kernel (rx ");
    sb_s(&kb, cfg_rx_text);
    sb_s(&kb, ", era ");
    sb_s(&kb, cfg.era.name);
    sb_s(&kb, "): ");
    sb_s(&kb, ksum);
    proto_item_set_text(ki, "%s", kb.b);
    proto_tree *kt = proto_item_add_subtree(ki, ett_kernel);

    gen(proto_tree_add_string(kt, hf_kernel_summary, tvb, 0, 0, ksum));
    gen(proto_tree_add_boolean(kt, hf_kernel_replayed, tvb, 0, 0, s->ran));
    if (!s->ran) {
        /* No IP layer to replay: "unknown", as the CLI's JSON says. */
        gen(proto_tree_add_uint(kt, hf_kernel_verdict, tvb, 0, 0, CSC_K_UNKNOWN));
        for (uint32_t b = s->warnings; b; b &= b - 1)
            gen(proto_tree_add_string(kt, hf_kernel_warning, tvb, 0, 0, csc_warning_name((unsigned)__builtin_ctz(b))));
        return;
    }
    proto_item *vi = gen(proto_tree_add_uint(kt, hf_kernel_verdict, tvb, 0, 0, s->kverdict));
    if (s->kverdict == CSC_K_DROP) {
        const char *dproto = s->drop_layer < s->nlayers ? csc_proto_name(pl_protos(s)[s->drop_layer]) : "?";
        if (s->drop_layer < s->nlayers) {
            gen(proto_tree_add_uint(kt, hf_kernel_drop_layer, tvb, 0, 0, s->drop_layer));
            gen(proto_tree_add_uint(kt, hf_kernel_drop_proto, tvb, 0, 0, pl_protos(s)[s->drop_layer]));
        }
        gen(proto_tree_add_string(kt, hf_kernel_drop_reason, tvb, 0, 0, csc_drop_name(s->drop_reason)));
        (void)dproto;
        drop_expert(pinfo, vi, s);
    }
    for (uint32_t c = s->counters; c; c &= c - 1)
        gen(proto_tree_add_string(kt, hf_kernel_counter, tvb, 0, 0, csc_counter_name((unsigned)__builtin_ctz(c))));
    gen(proto_tree_add_uint(kt, hf_kernel_sw_passes, tvb, 0, 0, s->sw_passes));
    gen(proto_tree_add_uint(kt, hf_kernel_sw_bytes, tvb, 0, 0, s->sw_bytes));
    if (s->hdr_bytes)
        gen(proto_tree_add_uint(kt, hf_kernel_hdr_bytes, tvb, 0, 0, s->hdr_bytes));
    for (uint32_t bits = s->warnings; bits; bits &= bits - 1) {
        unsigned b = (unsigned)__builtin_ctz(bits);
        proto_item *wi = gen(proto_tree_add_string(kt, hf_kernel_warning, tvb, 0, 0, csc_warning_name(b)));
        warning_expert(pinfo, wi, b);
    }

    const struct pl_dev *d = pl_devs(s);
    for (unsigned i = 0; i < s->ndevs; i++) {
        const char *name = csc_dev_name(d[i].kind);
        unsigned np = d[i].passes;   /* includes the ones in its GRO pass */
        struct sb db = { .n = 0 };
        sb_s(&db, "Device ");
        sb_s(&db, name);
        sb_s(&db, ": entry ");
        sb_s(&db, csc_ip_summed_name(d[i].ip_summed));
        if (d[i].ip_summed == CSC_CHECKSUM_UNNECESSARY) {
            sb_s(&db, " level ");
            sb_u(&db, d[i].csum_level);
        }
        sb_s(&db, d[i].gro_ran ? ", GRO " : ", no GRO pass (");
        sb_s(&db, csc_gro_reason_name(d[i].gro_reason));
        if (!d[i].gro_ran) {
            sb_s(&db, ")");
        } else if (d[i].gro_layer < s->nlayers) {
            sb_s(&db, " at layer ");
            sb_u(&db, d[i].gro_layer);
        }
        if (np) {
            sb_s(&db, ", ");
            sb_passes(&db, np);
        }
        /* The item's value is the device name: csumcheck.dev == "vxlan". */
        proto_item *di = gen(proto_tree_add_string(kt, hf_dev, tvb, 0, 0, name));
        proto_item_set_text(di, "%s", db.b);
        proto_tree *dt = proto_item_add_subtree(di, ett_dev);
        gen(proto_tree_add_uint(dt, hf_dev_ip_summed, tvb, 0, 0, d[i].ip_summed));
        if (d[i].ip_summed == CSC_CHECKSUM_UNNECESSARY || d[i].csum_level)
            gen(proto_tree_add_uint(dt, hf_dev_csum_level, tvb, 0, 0, d[i].csum_level));
        if (d[i].csum_valid)
            gen(proto_tree_add_boolean(dt, hf_dev_csum_valid, tvb, 0, 0, TRUE));
        if (d[i].csum_bad)
            gen(proto_tree_add_boolean(dt, hf_dev_csum_bad, tvb, 0, 0, TRUE));
        gen(proto_tree_add_boolean(dt, hf_dev_gro_ran, tvb, 0, 0, d[i].gro_ran));
        gen(proto_tree_add_uint(dt, hf_dev_gro, tvb, 0, 0, d[i].gro_reason));
        if (d[i].gro_layer < s->nlayers)
            gen(proto_tree_add_uint(dt, hf_dev_gro_layer, tvb, 0, 0, d[i].gro_layer));
        if (d[i].gro_passes) {
            gen(proto_tree_add_uint(dt, hf_dev_gro_sw_passes, tvb, 0, 0, d[i].gro_passes));
            gen(proto_tree_add_uint(dt, hf_dev_gro_sw_bytes, tvb, 0, 0, d[i].gro_pass_bytes));
        }
        if (d[i].passes) {
            gen(proto_tree_add_uint(dt, hf_dev_sw_passes, tvb, 0, 0, d[i].passes));
            gen(proto_tree_add_uint(dt, hf_dev_sw_bytes, tvb, 0, 0, d[i].pass_bytes));
        }
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
    if (!s->ran) {
        sb_s(&ks, "not replayed");
    } else if (s->kverdict == CSC_K_DROP) {
        const char *c = first_counter(s->counters);
        sb_s(&ks, "drop ");
        sb_s(&ks, c ? c : csc_drop_name(s->drop_reason));
    } else {
        sb_s(&ks, csc_kverdict_name(s->kverdict));
        if (s->sw_passes) {
            sb_s(&ks, ", ");
            sb_passes(&ks, s->sw_passes);
        }
    }
    const char *csum_text = cs.b, *ksum = ks.b;

    proto_item *ti = proto_tree_add_item(tree, proto_csumcheck, tvb, 0, 0, ENC_NA);
    struct sb pb = { .n = 0 };
    sb_s(&pb, "csumcheck: ");
    sb_s(&pb, csum_text);
    sb_s(&pb, "; kernel: ");
    sb_s(&pb, ksum);
    proto_item_set_text(ti, "%s", pb.b);
    proto_tree *t = proto_item_add_subtree(ti, ett_csumcheck);

    gen(proto_tree_add_uint(t, hf_verdict, tvb, 0, 0, s->worst));
    gen(proto_tree_add_string(t, hf_summary, tvb, 0, 0, csum_text));
    {
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
        gen(proto_tree_add_string(t, hf_stack, tvb, 0, 0, stack));
    }
    if (s->stop != CSC_STOP_END) {
        proto_item *pi = gen(proto_tree_add_uint(t, hf_stop, tvb, 0, 0, s->stop));
        gen(proto_tree_add_uint(t, hf_stop_offset, tvb, 0, 0, s->stop_off));
        stop_expert(pinfo, pi, s);
    }
    if (s->gso_segs_known)
        gen(proto_tree_add_uint(t, hf_gso_segs, tvb, 0, 0, s->gso_segs));
    if (s->frag_reassembled)
        gen(proto_tree_add_boolean(t, hf_reassembled, tvb, 0, 0, TRUE));
    pref_expert(pinfo, ti);

    const struct pl_layer *ck = pl_ck(s);
    for (unsigned i = 0; i < s->nck; i++)
        render_layer(tvb, pinfo, t, s, &ck[i], caplen);

    if (s->ran) {
        uint8_t gdev;
        uint8_t g = pl_frame_gro(s, &gdev);
        proto_item *gi = gen(proto_tree_add_uint(t, hf_gro, tvb, 0, 0, g));
        if (gdev != CSC_NO_DEV) {
            struct sb gb = { .n = 0 };
            sb_s(&gb, "GRO: ");
            sb_s(&gb, csc_gro_reason_name(g));
            sb_s(&gb, " at ");
            sb_s(&gb, dev_label(s, gdev));
            proto_item_set_text(gi, "%s", gb.b);
        }
        pl_gro_render_frame(tvb, t, s);
    }
    render_kernel(tvb, pinfo, t, s, ksum);
    return caplen;
}

/* ------------------------------------------------------------------ */
/* Registration */

void proto_register_csumcheck(void)
{
    fill_vals(vals_proto, CSC_P__COUNT, csc_proto_name);
    fill_vals(vals_verdict, CSC_V__COUNT, csc_verdict_name);
    fill_vals(vals_reason, CSC_R__COUNT, csc_reason_name);
    fill_vals(vals_stop, CSC_STOP__COUNT, csc_stop_name);
    fill_vals(vals_method, CSC_M__COUNT, csc_method_name);
    fill_vals(vals_path, CSC_PATH__COUNT, csc_path_name);
    fill_vals(vals_summed, CSC_CHECKSUM__COUNT, csc_ip_summed_name);
    fill_vals(vals_kverdict, CSC_K__COUNT, csc_kverdict_name);
    fill_vals(vals_result, CSC_TRI__COUNT, csc_tri_name);
    fill_vals(vals_gro, CSC_G__COUNT, csc_gro_reason_name);

    static hf_register_info hf[] = {
        { &hf_verdict, { "Verdict", "csumcheck.verdict", FT_UINT8, BASE_NONE, VALS(vals_verdict), 0,
                         "Worst raw checksum verdict of the frame", HFILL } },
        { &hf_summary, { "Checksums", "csumcheck.summary", FT_STRING, BASE_NONE, NULL, 0,
                         "Worst verdict and the layers that have it (the csum column)", HFILL } },
        { &hf_stack, { "Layer stack", "csumcheck.stack", FT_STRING, BASE_NONE, NULL, 0,
                       "Every layer the core decoded, outermost first", HFILL } },
        { &hf_stop, { "Stack ends", "csumcheck.stop", FT_UINT8, BASE_NONE, VALS(vals_stop), 0,
                      "Why decoding stopped before the payload", HFILL } },
        { &hf_stop_offset, { "Stack ends at offset", "csumcheck.stop.offset", FT_UINT32, BASE_DEC, NULL,
                             0, NULL, HFILL } },
        { &hf_gso_segs, { "GSO segments", "csumcheck.gso_segs", FT_UINT16, BASE_DEC, NULL, 0,
                          "Segments a NIC would cut from this super-packet", HFILL } },
        { &hf_reassembled, { "Completes a fragmented datagram", "csumcheck.reassembled", FT_BOOLEAN,
                             BASE_NONE, NULL, 0, "The last layer is the reassembled datagram's L4 verdict",
                             HFILL } },
        { &hf_gro, { "GRO", "csumcheck.gro", FT_UINT8, BASE_NONE, VALS(vals_gro), 0,
                     "Per-frame GRO outcome: held for merging, or why the first device refused it",
                     HFILL } },

        { &hf_layer, { "Layer", "csumcheck.layer", FT_NONE, BASE_NONE, NULL, 0,
                       "A layer that carries a checksum", HFILL } },
        { &hf_layer_index, { "Index", "csumcheck.layer.index", FT_UINT8, BASE_DEC, NULL, 0,
                             "Index in the layer stack (0 = outermost)", HFILL } },
        { &hf_layer_proto, { "Protocol", "csumcheck.layer.proto", FT_UINT8, BASE_NONE, VALS(vals_proto), 0,
                             NULL, HFILL } },
        { &hf_layer_offset, { "Offset", "csumcheck.layer.offset", FT_UINT32, BASE_DEC, NULL, 0,
                              "Header offset in the frame", HFILL } },
        { &hf_layer_verdict, { "Verdict", "csumcheck.layer.verdict", FT_UINT8, BASE_NONE,
                               VALS(vals_verdict), 0, "Raw checksum verdict of the bytes", HFILL } },
        { &hf_layer_reason, { "Reason", "csumcheck.layer.reason", FT_UINT8, BASE_NONE, VALS(vals_reason), 0,
                              NULL, HFILL } },
        { &hf_layer_field, { "Field", "csumcheck.layer.field", FT_UINT16, BASE_HEX, NULL, 0,
                             "Checksum value in the packet", HFILL } },
        { &hf_layer_expected, { "Expected", "csumcheck.layer.expected", FT_UINT16, BASE_HEX, NULL, 0,
                                "Value that would be right over these bytes", HFILL } },
        { &hf_layer_resolved, { "Resolved", "csumcheck.layer.resolved", FT_UINT16, BASE_HEX, NULL, 0,
                                "RCO: what remcsum_adjust writes into the field; LCO: the inner fill", HFILL } },
        { &hf_layer_rco_delta, { "RCO delta", "csumcheck.layer.rco_delta", FT_UINT16, BASE_HEX, NULL, 0,
                                 "RCO: the delta remcsum_adjust returns (resolved - field)", HFILL } },
        { &hf_layer_note, { "Note", "csumcheck.layer.note", FT_STRING, BASE_NONE, NULL, 0, NULL, HFILL } },
        { &hf_layer_method, { "Kernel method", "csumcheck.layer.method", FT_UINT8, BASE_NONE,
                              VALS(vals_method), 0, "How the kernel replay resolved this checksum", HFILL } },
        { &hf_layer_path, { "Kernel path", "csumcheck.layer.path", FT_UINT8, BASE_NONE, VALS(vals_path), 0,
                            NULL, HFILL } },
        { &hf_layer_result, { "Kernel result", "csumcheck.layer.kernel_result", FT_UINT8, BASE_NONE,
                              VALS(vals_result), 0, NULL, HFILL } },
        { &hf_layer_gro_conv, { "Converted in GRO", "csumcheck.layer.gro_converted", FT_BOOLEAN,
                                BASE_NONE, NULL, 0, "GRO converted UNNECESSARY to a NAPI checksum here",
                                HFILL } },
        { &hf_layer_normal_conv, { "Converted on the normal path", "csumcheck.layer.converted",
                                   FT_BOOLEAN, BASE_NONE, NULL, 0, "skb_checksum_try_convert here",
                                   HFILL } },
        { &hf_layer_assumed, { "Assumed", "csumcheck.layer.assumed", FT_BOOLEAN, BASE_NONE, NULL, 0,
                               "Bytes missing: the result rests on an assumption", HFILL } },
        { &hf_layer_sw_passes, { "Software passes", "csumcheck.layer.sw_passes", FT_UINT8, BASE_DEC, NULL,
                                 0, NULL, HFILL } },
        { &hf_layer_sw_bytes, { "Software pass bytes", "csumcheck.layer.sw_bytes", FT_UINT32, BASE_DEC,
                                NULL, 0, NULL, HFILL } },

        { &hf_kernel, { "Kernel", "csumcheck.kernel", FT_NONE, BASE_NONE, NULL, 0,
                        "What the Linux RX path does with the frame", HFILL } },
        { &hf_kernel_replayed, { "Replayed", "csumcheck.kernel.replayed", FT_BOOLEAN, BASE_NONE, NULL, 0,
                                 "False when the frame has no IP layer to replay", HFILL } },
        { &hf_kernel_verdict, { "Verdict", "csumcheck.kernel.verdict", FT_UINT8, BASE_NONE,
                                VALS(vals_kverdict), 0, NULL, HFILL } },
        { &hf_kernel_summary, { "Kernel outcome", "csumcheck.kernel.summary", FT_STRING, BASE_NONE, NULL,
                                0, "Verdict, drop counter, software passes (the kernel column)", HFILL } },
        { &hf_kernel_drop_layer, { "Drop layer", "csumcheck.kernel.drop_layer", FT_UINT8, BASE_DEC, NULL,
                                   0, "Index in the layer stack", HFILL } },
        { &hf_kernel_drop_proto, { "Drop protocol", "csumcheck.kernel.drop_proto", FT_UINT8, BASE_NONE,
                                   VALS(vals_proto), 0, NULL, HFILL } },
        { &hf_kernel_drop_reason, { "Drop reason", "csumcheck.kernel.drop_reason", FT_STRING, BASE_NONE,
                                    NULL, 0, "Kernel SKB_DROP_REASON", HFILL } },
        { &hf_kernel_counter, { "Counter", "csumcheck.kernel.counter", FT_STRING, BASE_NONE, NULL, 0,
                                "nstat counter the kernel bumps", HFILL } },
        { &hf_kernel_sw_passes, { "Software passes", "csumcheck.kernel.sw_passes", FT_UINT8, BASE_DEC,
                                  NULL, 0, "Full software checksum passes over packet bytes", HFILL } },
        { &hf_kernel_sw_bytes, { "Software pass bytes", "csumcheck.kernel.sw_bytes", FT_UINT32, BASE_DEC,
                                 NULL, 0, NULL, HFILL } },
        { &hf_kernel_hdr_bytes, { "Header-sized sum bytes", "csumcheck.kernel.hdr_bytes", FT_UINT32,
                                  BASE_DEC, NULL, 0, "csum_partial work on headers (postpull...)", HFILL } },
        { &hf_kernel_warning, { "Warning", "csumcheck.kernel.warning", FT_STRING, BASE_NONE, NULL, 0, NULL,
                                HFILL } },

        { &hf_dev, { "Device", "csumcheck.dev", FT_STRING, BASE_NONE, NULL, 0,
                     "A receiving device: the NIC, then each tunnel device", HFILL } },
        { &hf_dev_ip_summed, { "Entry ip_summed", "csumcheck.dev.ip_summed", FT_UINT8, BASE_NONE,
                               VALS(vals_summed), 0, NULL, HFILL } },
        { &hf_dev_csum_level, { "Entry csum_level", "csumcheck.dev.csum_level", FT_UINT8, BASE_DEC, NULL,
                                0, NULL, HFILL } },
        { &hf_dev_csum_valid, { "Entry csum_valid", "csumcheck.dev.csum_valid", FT_BOOLEAN, BASE_NONE,
                                NULL, 0, NULL, HFILL } },
        { &hf_dev_csum_bad, { "Entry csum_bad", "csumcheck.dev.csum_bad", FT_BOOLEAN, BASE_NONE, NULL, 0,
                              NULL, HFILL } },
        { &hf_dev_gro_ran, { "GRO ran", "csumcheck.dev.gro_ran", FT_BOOLEAN, BASE_NONE, NULL, 0, NULL,
                             HFILL } },
        { &hf_dev_gro, { "GRO", "csumcheck.dev.gro", FT_UINT8, BASE_NONE, VALS(vals_gro), 0,
                         "held, or the flush/refusal reason", HFILL } },
        { &hf_dev_gro_sw_passes, { "GRO software passes", "csumcheck.dev.gro_sw_passes", FT_UINT8,
                                   BASE_DEC, NULL, 0, "Software passes in this device's GRO pass", HFILL } },
        { &hf_dev_gro_sw_bytes, { "GRO software pass bytes", "csumcheck.dev.gro_sw_bytes", FT_UINT32,
                                  BASE_DEC, NULL, 0, NULL, HFILL } },
        { &hf_dev_sw_passes, { "Software passes", "csumcheck.dev.sw_passes", FT_UINT8, BASE_DEC, NULL, 0,
                               "Software passes while this device held the packet, its GRO pass included", HFILL } },
        { &hf_dev_sw_bytes, { "Software pass bytes", "csumcheck.dev.sw_bytes", FT_UINT32, BASE_DEC, NULL,
                              0, NULL, HFILL } },
        { &hf_dev_gro_layer, { "GRO decided at layer", "csumcheck.dev.gro_layer", FT_UINT8, BASE_DEC,
                               NULL, 0, NULL, HFILL } },
    };

    static gint *ett[] = { &ett_csumcheck, &ett_layer, &ett_layer_kernel, &ett_kernel, &ett_dev };

    static ei_register_info ei[] = {
        { &ei_bad, { "csumcheck.bad", PI_CHECKSUM, PI_ERROR, "Bad checksum", EXPFILL } },
        { &ei_unverifiable, { "csumcheck.unverifiable", PI_CHECKSUM, PI_WARN, "Checksum unverifiable",
                              EXPFILL } },
        { &ei_offload, { "csumcheck.offload", PI_CHECKSUM, PI_NOTE,
                         "Checksum left to offload (partial/lco/rco)", EXPFILL } },
        { &ei_zero6, { "csumcheck.zero6", PI_CHECKSUM, PI_NOTE, "Zero UDP checksum over IPv6", EXPFILL } },
        { &ei_drop, { "csumcheck.kernel.drop", PI_CHECKSUM, PI_WARN, "The kernel drops this packet",
                      EXPFILL } },
        { &ei_rco_nothing, { "csumcheck.rco_nothing_verified", PI_CHECKSUM, PI_WARN,
                             "RCO with a zero outer checksum: the inner checksum was accepted, nothing "
                             "verified it (rco-nothing-verified)", EXPFILL } },
        { &ei_kernel_warn, { "csumcheck.kernel.warn", PI_CHECKSUM, PI_WARN, "Kernel replay warning",
                             EXPFILL } },
        { &ei_kernel_note, { "csumcheck.kernel.note", PI_CHECKSUM, PI_NOTE, "Kernel replay note",
                             EXPFILL } },
        { &ei_stop, { "csumcheck.stack_ends", PI_MALFORMED, PI_NOTE, "Layer stack ends early", EXPFILL } },
        { &ei_pref, { "csumcheck.bad_preference", PI_ASSUMPTION, PI_WARN,
                      "A csumcheck preference is invalid: its default is used", EXPFILL } },
    };

    proto_csumcheck = proto_register_protocol("csumcheck: checksum verdicts and Linux RX replay",
                                              "csumcheck", "csumcheck");
    proto_register_field_array(proto_csumcheck, hf, array_length(hf));
    proto_register_subtree_array(ett, array_length(ett));
    expert_module_t *em = expert_register_protocol(proto_csumcheck);
    expert_register_field_array(em, ei, array_length(ei));

    /* Preference defaults come from the core's defaults, as the CLI's do. */
    struct csc_config def;
    csc_config_default(&def);
    pref_gro = def.gro_nic ? (def.gro_tunnel ? GRO_ON : GRO_NIC) : (def.gro_tunnel ? GRO_TUNNEL : GRO_OFF);
    pref_remcsum_rx = def.remcsum_rx;
    pref_remcsum_nopartial = def.remcsum_nopartial;
    pref_udp6_zero_csum_rx = def.udp6_zero_csum_rx;
    pref_gre_csum = def.gre_csum;
    pref_no_socket = !def.inner_socket;
    pref_assume_bad = def.assume_bad;
    pref_l2tp_cookie_len = def.l2tp_cookie_len;
    pref_l2tp_l2spec_len = def.l2tp_l2spec_len;
    pref_era = def.era.name;

    /* Strings below live as long as the process: the preference dialog shows them. */
    GString *eras = g_string_new("Kernel behaviour preset (the CLI's --era):");
    for (size_t i = 0; i < csc_era_count(); i++)
        g_string_append_printf(eras, "\n  %s: %s", csc_era_at(i)->name,
                               csc_era_description(csc_era_at(i)->name));
    char *era_desc = g_string_free(eras, FALSE);

    module_t *m = prefs_register_protocol(proto_csumcheck, apply_prefs);
    prefs_register_string_preference(
        m, "rx", "Device report",
        "What the receiving NIC reports (the CLI's --rx): none, unnecessary:L (csum_level 0-3), "
        "complete, partial:outer, partial:inner, partial:START:OFFSET, outer-l4, tunnel-l4. "
        "An unknown value is reported as expert info on every frame.",
        &pref_rx);
    prefs_register_string_preference(m, "era", "Kernel era", era_desc, &pref_era);
    prefs_register_enum_preference(m, "gro", "GRO", "GRO on the NIC and tunnel devices (--gro)", &pref_gro,
                                   gro_enum, FALSE);
    prefs_register_bool_preference(m, "remcsum_rx", "Remote checksum offload accepted",
                                   "VXLAN remcsumrx / GUE remcsum on the receiver (--remcsum-rx)",
                                   &pref_remcsum_rx);
    prefs_register_bool_preference(m, "remcsum_nopartial", "RCO without CHECKSUM_PARTIAL",
                                   "VXLAN_F_REMCSUM_NOPARTIAL / FOU_F_REMCSUM_NOPARTIAL (--remcsum-nopartial)",
                                   &pref_remcsum_nopartial);
    prefs_register_bool_preference(m, "udp6_zero_csum_rx", "Accept zero UDP checksums over IPv6",
                                   "udp6zerocsumrx / no_check6_rx on the tunnel (--udp6-zero-csum-rx)",
                                   &pref_udp6_zero_csum_rx);
    prefs_register_enum_preference(m, "gre_csum", "GRE tunnel checksum flag",
                                   "The GRE tunnel's i_flags (--gre-csum)", &pref_gre_csum, gre_csum_enum,
                                   FALSE);
    prefs_register_bool_preference(m, "no_socket", "No socket for the innermost transport",
                                   "Nothing listens for the inner UDP/TCP: UdpNoPorts... (--no-socket)",
                                   &pref_no_socket);
    prefs_register_bool_preference(m, "assume_bad", "Assume uncaptured checksums bad",
                                   "Checksums over bytes the capture lacks are assumed bad, not good "
                                   "(--assume-bad)", &pref_assume_bad);
    for (unsigned p = 0; p < CSC_P__COUNT; p++) {
        if (!is_port_range_pref(p))
            continue;
        const struct csc_proto_desc *pd = csc_proto_desc(p);
        char *d = default_ports(&def, (uint8_t)p);
        range_convert_str(wmem_epan_scope(), &port_ranges[p], d, 65535);
        g_free(d);
        char *title = g_strdup_printf("UDP ports for %s", pd->title);
        char *desc = g_strdup_printf("UDP ports decoded as %s (the CLI's --%s; this list replaces the "
                                     "default, so keep the default port in it)", pd->name, pd->option);
        prefs_register_range_preference(m, pd->pref, title, desc, &port_ranges[p], 65535);
    }
    prefs_register_string_preference(m, csc_proto_desc(CSC_P_FOU)->pref, "UDP ports for FOU",
                                     "PORT:IPPROTO list as the CLI's --fou-port, e.g. \"5555:4,5556:47\" "
                                     "(4 IPIP, 41 IPv6, 47 GRE)",
                                     &pref_fou_ports);
    prefs_register_uint_preference(m, "l2tp_cookie_len", "L2TPv3 cookie length", "0, 4 or 8 (--l2tp-cookie-len)",
                                   10, &pref_l2tp_cookie_len);
    prefs_register_uint_preference(m, "l2tp_l2spec_len", "L2TPv3 L2-specific sublayer length",
                                   "0 or 4 (--l2tp-l2spec-len)", 10, &pref_l2tp_l2spec_len);

    pl_gro_register(proto_csumcheck, m);
    register_init_routine(init_csumcheck);
    apply_prefs();
}

void proto_reg_handoff_csumcheck(void)
{
    dissector_handle_t h = create_dissector_handle(dissect_csumcheck, proto_csumcheck);
    register_postdissector(h);
}
