/*
 * config.c - defaults, the UDP port table and the device-report syntax
 * shared by the CLI (--rx) and the plugin preferences.
 */
#include "csumcheck/csumcheck.h"

#include "proto/protos.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void csc_config_default(struct csc_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->rx.kind = CSC_RX_NONE;
    csc_era_by_name("modern", &cfg->era);
    cfg->gro_nic = true;
    cfg->gro_tunnel = true;
    cfg->inner_socket = true;
    cfg->ipv6_mip6 = true;           /* CONFIG_IPV6_MIP6: Debian, Ubuntu, Fedora, RHEL */
    cfg->vlan_8021q = true;          /* CONFIG_VLAN_8021Q: the same */
    cfg->geneve_external = true;     /* the OVS/OVN device: the usual GENEVE receiver */
    cfg->trace_steps = true;
    cfg->l2tp_cookie_len = 0;
    cfg->l2tp_l2spec_len = CSC_L2TP_L2SPEC_AUTO;
    cfg->guess_direction = true;
    for (unsigned p = 0; p < CSC_P__COUNT; p++)   /* every row's default ports */
        for (unsigned i = 0; i < CSC_PROTO_PORTS && csc_protos[p].pub.ports[i]; i++)
            csc_config_set_port(cfg, csc_protos[p].pub.ports[i], (uint8_t)p, 0);
}

bool csc_config_set_port(struct csc_config *cfg, uint16_t port, uint8_t proto, uint8_t fou_ipproto)
{
    for (unsigned i = 0; i < cfg->nports; i++)
        if (cfg->ports[i].port == port) {
            cfg->ports[i].proto = proto;
            cfg->ports[i].fou_ipproto = fou_ipproto;
            return true;
        }
    if (cfg->nports >= CSC_MAX_PORTS)
        return false;
    cfg->ports[cfg->nports++] = (struct csc_port){ port, proto, fou_ipproto };
    return true;
}

void csc_config_clear_ports(struct csc_config *cfg, uint8_t proto)
{
    unsigned w = 0;
    for (unsigned i = 0; i < cfg->nports; i++)
        if (cfg->ports[i].proto != proto)
            cfg->ports[w++] = cfg->ports[i];
    cfg->nports = (uint8_t)w;
}

static bool parse_u16(const char *s, uint16_t *out)
{
    char *end;
    if (!*s)
        return false;
    unsigned long v = strtoul(s, &end, 10);
    if (*end || v > 0xffff)
        return false;
    *out = (uint16_t)v;
    return true;
}

bool csc_report_parse(const char *s, struct csc_report *out)
{
    struct csc_report r = { 0 };
    if (!strcmp(s, "none")) {
        r.kind = CSC_RX_NONE;
    } else if (!strcmp(s, "unnecessary")) {
        r.kind = CSC_RX_UNNECESSARY;
    } else if (!strncmp(s, "unnecessary:", 12)) {
        r.kind = CSC_RX_UNNECESSARY;
        if (s[12] < '0' || s[12] > '3' || s[13])
            return false;
        r.level = (uint8_t)(s[12] - '0');
    } else if (!strcmp(s, "complete")) {
        r.kind = CSC_RX_COMPLETE;
    } else if (!strcmp(s, "partial:outer") || !strcmp(s, "partial")) {
        r.kind = CSC_RX_PARTIAL;
        r.where = CSC_PARTIAL_OUTER;
    } else if (!strcmp(s, "partial:inner")) {
        r.kind = CSC_RX_PARTIAL;
        r.where = CSC_PARTIAL_INNER;
    } else if (!strncmp(s, "partial:", 8)) {
        char buf[32];
        const char *colon = strchr(s + 8, ':');
        size_t n = colon ? (size_t)(colon - (s + 8)) : 0;
        if (!colon || n == 0 || n >= sizeof buf)
            return false;
        memcpy(buf, s + 8, n);
        buf[n] = 0;
        r.kind = CSC_RX_PARTIAL;
        r.where = CSC_PARTIAL_EXPLICIT;
        if (!parse_u16(buf, &r.start) || !parse_u16(colon + 1, &r.offset))
            return false;
    } else if (!strcmp(s, "outer-l4")) {
        r.kind = CSC_RX_OUTER_L4;
    } else if (!strcmp(s, "tunnel-l4")) {
        r.kind = CSC_RX_TUNNEL_L4;
    } else if (!strcmp(s, "virtual")) {
        r.kind = CSC_RX_VIRTUAL;
    } else {
        return false;
    }
    *out = r;
    return true;
}

const char *csc_report_format(const struct csc_report *r, char *buf, size_t len)
{
    switch (r->kind) {
    case CSC_RX_UNNECESSARY: snprintf(buf, len, "unnecessary:%u", r->level); break;
    case CSC_RX_COMPLETE: snprintf(buf, len, "complete"); break;
    case CSC_RX_PARTIAL:
        if (r->where == CSC_PARTIAL_OUTER)
            snprintf(buf, len, "partial:outer");
        else if (r->where == CSC_PARTIAL_INNER)
            snprintf(buf, len, "partial:inner");
        else
            snprintf(buf, len, "partial:%u:%u", r->start, r->offset);
        break;
    case CSC_RX_OUTER_L4: snprintf(buf, len, "outer-l4"); break;
    case CSC_RX_TUNNEL_L4: snprintf(buf, len, "tunnel-l4"); break;
    case CSC_RX_VIRTUAL: snprintf(buf, len, "virtual"); break;
    default: snprintf(buf, len, "none"); break;
    }
    return buf;
}
