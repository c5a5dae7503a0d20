/*
 * stop.c - why the layer stack ended, in words every face shares: whether a
 * stop needs action, the receiver option a needs-option stop names, and
 * one short line for the text output, CSV and the plugin's expert info
 * (the reasons themselves: csc_stop_name in names.c, docs/json.md STOP).
 */
#include "protos.h"

#include <stdio.h>

bool csc_stop_is_finding(unsigned s)
{
    return s != CSC_STOP_END && s != CSC_STOP_FRAGMENT && s < CSC_STOP__COUNT;
}

void csc_stop_get(const struct csc_result *r, struct csc_stop_info *out)
{
    *out = (struct csc_stop_info){
        .off = r->stop_off, .value = r->stop_value, .reason = r->stop, .proto = r->stop_proto,
        .layer = r->stop_layer, .has_value = r->stop_has_value, .opt = r->stop_opt,
        .opt_proto = r->stop_opt_proto, .reasm = r->stop_reasm,
    };
}

/* The L2TPv3 options (analyzer/options.c, the plugin's preferences) */
static const struct { const char *option, *pref; } stop_opts[CSC_SO__COUNT] = {
    [CSC_SO_L2TP_COOKIE] = { "l2tp-cookie-len", "l2tp_cookie_len" },
    [CSC_SO_L2TP_L2SPEC] = { "l2tp-l2spec-len", "l2tp_l2spec_len" },
};

/* The CLI option (pref false) or the plugin's preference a needs-option
 * stop names: a port's is its protocol row's */
static const char *stop_option_name(const struct csc_stop_info *s, bool pref)
{
    if (s->reason != CSC_STOP_NEEDS_OPTION || s->opt >= CSC_SO__COUNT)
        return NULL;
    if (s->opt == CSC_SO_PORT) {
        const struct csc_proto_desc *p = csc_proto_desc(s->opt_proto);
        return pref ? p->pref : p->option;
    }
    return pref ? stop_opts[s->opt].pref : stop_opts[s->opt].option;
}

const char *csc_stop_option(const struct csc_stop_info *s)
{
    return stop_option_name(s, false);
}

const char *csc_stop_pref(const struct csc_stop_info *s)
{
    return stop_option_name(s, true);
}

/* The value as its field is usually written: EtherTypes and the other
 * codes in hex, IP protocol numbers, ports and lengths in decimal. */
static void value_text(const struct csc_stop_info *s, char *buf, size_t len)
{
    const char *opt = csc_stop_option(s);
    if (opt && s->has_value)
        snprintf(buf, len, " --%s %u", opt, s->value);
    else if (opt)
        snprintf(buf, len, " --%s", opt);
    else if (!s->has_value)
        buf[0] = 0;
    else if (s->reason == CSC_STOP_ETHERTYPE)
        snprintf(buf, len, " 0x%04x", s->value);
    else if (s->reason == CSC_STOP_NEXT || s->reason == CSC_STOP_ENCRYPTED)
        snprintf(buf, len, " 0x%x", s->value);
    else
        snprintf(buf, len, " %u", s->value);
}

const char *csc_stop_describe(const struct csc_stop_info *s, char *buf, size_t len)
{
    if (!len)
        return buf;
    buf[0] = 0;
    if (s->reason == CSC_STOP_END || s->reason >= CSC_STOP__COUNT)
        return buf;
    char v[48];
    value_text(s, v, sizeof v);
    snprintf(buf, len, "%s%s %s@%s%u", csc_stop_name(s->reason), v, csc_proto_name(s->proto),
             s->reasm ? "reasm+" : "", s->off);
    return buf;
}
