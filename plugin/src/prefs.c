/*
 * prefs.c - the plugin's preferences: the CLI's options (docs/wireshark.md
 * lists the mapping), their defaults from the core's, and the csc_config
 * csc_analyze() runs with, made from them (apply_prefs) with one message per
 * invalid preference.
 */
#include "prefs.h"

#include "gro-fate.h"
#include "ws-compat.h"

#include <wireshark.h>

#include <epan/prefs.h>
#include <epan/range.h>
#include <wsutil/wslog.h>

#include <stdarg.h>

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
static gint pref_gre_csum = 0;
static const enum_val_t gre_csum_enum[] = {
    { "packet", "packet: the tunnel matches each packet", CSC_GRE_CSUM_PACKET },
    { "on", "on (icsum)", CSC_GRE_CSUM_ON },
    { "off", "off", CSC_GRE_CSUM_OFF },
    { NULL, NULL, -1 },
};
/* The switches: a bool preference each over a bool of csc_config, named
 * after it (SWITCH), or saying its opposite under a name of its own
 * (SWITCH_NOT: no_socket for inner_socket). */
static const struct switch_pref {
    const char *name, *title, *desc;
    size_t member;                     /* offsetof(struct csc_config, ...) */
    bool negated;
} switch_prefs[] = {
#define SWITCH(m, title, desc) { #m, title, desc, offsetof(struct csc_config, m), false }
#define SWITCH_NOT(name, m, title, desc) { name, title, desc, offsetof(struct csc_config, m), true }
    SWITCH(remcsum_rx, "Remote checksum offload accepted",
           "VXLAN remcsumrx / GUE remcsum on the receiver (--remcsum-rx)"),
    SWITCH(remcsum_nopartial, "RCO without CHECKSUM_PARTIAL",
           "VXLAN_F_REMCSUM_NOPARTIAL / FOU_F_REMCSUM_NOPARTIAL (--remcsum-nopartial)"),
    SWITCH(udp6_zero_csum_rx, "Accept zero UDP checksums over IPv6",
           "udp6zerocsumrx / no_check6_rx on the tunnel (--udp6-zero-csum-rx)"),
    SWITCH_NOT("no_socket", inner_socket, "No socket for the innermost transport",
               "Nothing listens for the inner UDP/TCP: UdpNoPorts... (--no-socket)"),
    SWITCH(assume_bad, "Assume uncaptured checksums bad",
           "Checksums over bytes the capture lacks are assumed bad, not good (--assume-bad)"),
    SWITCH(replay_sent, "Replay sent frames as received",
           "A frame this host sent is replayed through the receive path too (--replay-sent; default: "
           "sent, not received)"),
#undef SWITCH
#undef SWITCH_NOT
};
static csc_pref_bool switch_values[G_N_ELEMENTS(switch_prefs)];

static bool *switch_member(struct csc_config *c, const struct switch_pref *sp)
{
    return (bool *)((char *)c + sp->member);
}
static guint pref_l2tp_cookie_len = 0;
static gint pref_l2tp_l2spec_len = CSC_L2TP_L2SPEC_AUTO;
static const enum_val_t l2spec_enum[] = {
    { "auto", "auto: chosen per frame from the bytes", CSC_L2TP_L2SPEC_AUTO },
    { "0", "0: none", 0 },
    { "4", "4: the default sublayer", 4 },
    { NULL, NULL, -1 },
};
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
    for (size_t i = 0; i < G_N_ELEMENTS(switch_prefs); i++)
        *switch_member(&c, &switch_prefs[i]) = (switch_values[i] ? true : false) != switch_prefs[i].negated;
    c.gre_csum = (uint8_t)pref_gre_csum;
    if (pref_l2tp_cookie_len == 0 || pref_l2tp_cookie_len == 4 || pref_l2tp_cookie_len == 8)
        c.l2tp_cookie_len = (uint8_t)pref_l2tp_cookie_len;
    else
        add_error("csumcheck.l2tp_cookie_len %u is not 0, 4 or 8; using %u", pref_l2tp_cookie_len,
                  c.l2tp_cookie_len);
    c.l2tp_l2spec_len = (uint8_t)pref_l2tp_l2spec_len;   /* an enum: auto, 0, 4 */
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


const struct csc_config *pl_prefs_config(void)
{
    return &cfg;
}

const char *pl_prefs_rx_text(void)
{
    return cfg_rx_text;
}

const GPtrArray *pl_prefs_errors(void)
{
    return pref_errors;
}

void pl_prefs_apply(void)
{
    apply_prefs();
}

module_t *pl_prefs_register(int proto)
{
    /* Preference defaults come from the core's defaults, as the CLI's do. */
    struct csc_config def;
    csc_config_default(&def);
    pref_gro = def.gro_nic ? (def.gro_tunnel ? GRO_ON : GRO_NIC) : (def.gro_tunnel ? GRO_TUNNEL : GRO_OFF);
    for (size_t i = 0; i < G_N_ELEMENTS(switch_prefs); i++)
        switch_values[i] = *switch_member(&def, &switch_prefs[i]) != switch_prefs[i].negated;
    pref_gre_csum = def.gre_csum;
    pref_l2tp_cookie_len = def.l2tp_cookie_len;
    pref_l2tp_l2spec_len = def.l2tp_l2spec_len;
    pref_era = def.era.name;

    /* Strings below live as long as the process: the preference dialog shows them. */
    GString *eras = g_string_new("Kernel behaviour preset (the CLI's --era):");
    for (size_t i = 0; i < csc_era_count(); i++)
        g_string_append_printf(eras, "\n  %s: %s", csc_era_at(i)->name,
                               csc_era_description(csc_era_at(i)->name));
    char *era_desc = g_string_free(eras, FALSE);

    module_t *m = prefs_register_protocol(proto, apply_prefs);
    prefs_register_string_preference(
        m, "rx", "Device report",
        "What the receiving NIC reports (the CLI's --rx): none, unnecessary:L (csum_level 0-3), "
        "complete, partial:outer, partial:inner, partial:START:OFFSET, outer-l4, tunnel-l4. "
        "An unknown value is reported as expert info on every frame.",
        &pref_rx);
    prefs_register_string_preference(m, "era", "Kernel era", era_desc, &pref_era);
    prefs_register_enum_preference(m, "gro", "GRO", "GRO on the NIC and tunnel devices (--gro)", &pref_gro,
                                   gro_enum, FALSE);
    prefs_register_enum_preference(m, "gre_csum", "GRE tunnel checksum flag",
                                   "The GRE tunnel's i_flags (--gre-csum)", &pref_gre_csum, gre_csum_enum,
                                   FALSE);
    for (size_t i = 0; i < G_N_ELEMENTS(switch_prefs); i++)
        prefs_register_bool_preference(m, switch_prefs[i].name, switch_prefs[i].title, switch_prefs[i].desc,
                                       &switch_values[i]);
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
    prefs_register_enum_preference(m, "l2tp_l2spec_len", "L2TPv3 L2-specific sublayer length",
                                   "auto (from the bytes, the default), 0 or 4 (--l2tp-l2spec-len)",
                                   &pref_l2tp_l2spec_len, l2spec_enum, FALSE);

    return m;
}
