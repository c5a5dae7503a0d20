/*
 * spec.c - the stack description language of the case table.
 *
 * A stack is a list of layers, outermost first, separated by spaces:
 *
 *     eth ipv4 udp:zero vxlan eth ipv4 tcp:bad pay:len=100
 *
 * Each layer is KIND[:ITEM,ITEM...]. An ITEM is a checksum state or a
 * field setting:
 *
 *   states   ok bad zero seed seednolen lco garb   (pb.h PB_OK ... PB_GARBAGE)
 *   kinds    eth vlan qinq mpls sll2 ipv4 ipv6 udp tcp icmp icmpv6 gre vxlan
 *            gpe geneve gue l2tp pay raw igmp nhrp ah esp wlan macsec
 *   fields   opts=N (IPv4 option bytes)  id=N  frag=N (IPv4 flags+offset,
 *            IPv6 fragment field)  tl0 (total/payload length 0: BIG TCP)
 *            ext=hbh+dst+rh0+srh+frag+hao (IPv6 extension headers)
 *            mss=N seq=N ack=N flags=N (TCP)  sport=N dport=N
 *            C K=N S=N gflags=N (GRE: checksum, key, sequence, raw flags)
 *            proto=N (next-protocol override)  vni=N  rco  shift=N (RCO
 *            start moved off target)  v1 (GUE variant 1)  optw=N (GENEVE
 *            option words)  vlan=N label=N pkt=N (SLL2 packet type)
 *            len=N fill=N (payload)  hex=0011.. (raw bytes)
 *            type=N code=N (ICMP)  reply (ICMP echo reply)  lenfix=N (length
 *            field override)  rev (IP: source and destination swapped)
 *            cookie=N nol2spec (L2TPv3 cookie bytes, no L2-specific sublayer)
 *            spi=N (AH, ESP)  prot (802.11 protected: CCMP, payload opaque)
 *            tci=N (MACsec TCI/AN byte: 0x20 SC, 0x08 E, 0x04 C)
 * Numbers are decimal or 0x-hex.
 */
#include "gen.h"

#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    enum pb_kind kind;
} kinds[] = {
    { "eth", PB_ETH }, { "vlan", PB_VLAN }, { "qinq", PB_QINQ }, { "mpls", PB_MPLS },
    { "sll2", PB_SLL2 }, { "ipv4", PB_IPV4 }, { "ipv6", PB_IPV6 }, { "udp", PB_UDP },
    { "tcp", PB_TCP }, { "icmp", PB_ICMP }, { "icmpv6", PB_ICMPV6 }, { "gre", PB_GRE }, { "nhrp", PB_NHRP },
    { "vxlan", PB_VXLAN }, { "gpe", PB_VXLAN_GPE }, { "geneve", PB_GENEVE }, { "gue", PB_GUE },
    { "l2tp", PB_L2TPV3 }, { "pay", PB_PAYLOAD }, { "raw", PB_RAW }, { "igmp", PB_IGMP },
    { "ah", PB_AH }, { "esp", PB_ESP }, { "wlan", PB_WLAN }, { "macsec", PB_MACSEC },
};

static const struct {
    const char *name;
    enum pb_state st;
} states[] = {
    { "ok", PB_OK }, { "bad", PB_BAD }, { "zero", PB_ZERO }, { "seed", PB_SEED },
    { "seednolen", PB_SEED_NOLEN }, { "lco", PB_LCO }, { "garb", PB_GARBAGE },
};

static int num(const char *s, unsigned long *v)
{
    char *end;
    if (!s || !*s)
        return -1;
    *v = strtoul(s, &end, 0);
    return *end ? -1 : 0;
}

static int hexbytes(const char *s, uint8_t *out, size_t cap, size_t *n)
{
    size_t k = 0;
    for (; s[0] && s[1]; s += 2) {
        char b[3] = { s[0], s[1], 0 };
        char *end;
        unsigned long v = strtoul(b, &end, 16);
        if (*end || k >= cap)
            return -1;
        out[k++] = (uint8_t)v;
    }
    if (*s)
        return -1;
    *n = k;
    return 0;
}

static int item(struct pb_layer *l, const char *it, char *err, size_t errlen)
{
    char key[32];
    const char *eq = strchr(it, '=');
    size_t kl = eq ? (size_t)(eq - it) : strlen(it);
    if (kl >= sizeof key)
        goto bad;
    memcpy(key, it, kl);
    key[kl] = 0;
    const char *val = eq ? eq + 1 : NULL;
    unsigned long v = 0;

    for (size_t i = 0; i < sizeof states / sizeof states[0]; i++)
        if (!eq && !strcmp(key, states[i].name)) {
            l->csum = (uint8_t)states[i].st;
            return 0;
        }
    if (!eq) {
        if (!strcmp(key, "tl0"))
            l->tot_len_zero = 1;
        else if (!strcmp(key, "C"))
            l->gre_flags |= 0x8000;
        else if (!strcmp(key, "rco"))
            l->rco = 1;
        else if (!strcmp(key, "v1"))
            l->gue_variant = 1;
        else if (!strcmp(key, "reply"))
            l->echo_reply = 1;
        else if (!strcmp(key, "rev")) {
            uint8_t t[16];
            memcpy(t, l->src, 16);
            memcpy(l->src, l->dst, 16);
            memcpy(l->dst, t, 16);
        }
        else if (!strcmp(key, "nol2spec"))
            l->l2tp_no_l2spec = 1;
        else if (!strcmp(key, "prot"))
            l->wlan_prot = 1;
        else
            goto bad;
        return 0;
    }
    if (!strcmp(key, "ext")) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", val);
        char *sv = NULL;
        for (char *t = strtok_r(buf, "+", &sv); t; t = strtok_r(NULL, "+", &sv)) {
            if (!strcmp(t, "hbh")) l->v6_ext |= PB_X_HBH;
            else if (!strcmp(t, "dst")) l->v6_ext |= PB_X_DST;
            else if (!strcmp(t, "rh0")) l->v6_ext |= PB_X_RH0;
            else if (!strcmp(t, "srh")) l->v6_ext |= PB_X_SRH;
            else if (!strcmp(t, "frag")) l->v6_ext |= PB_X_FRAG;
            else if (!strcmp(t, "hao")) {
                static const uint8_t hoa[16] = { 0x20, 0x01, 0x0d, 0xb8, [14] = 0xaa, [15] = 0xaa };
                l->v6_ext |= PB_X_HAO;
                memcpy(l->hao, hoa, 16);
            } else
                goto bad;
        }
        return 0;
    }
    if (!strcmp(key, "hex")) {
        size_t n = 0;
        if (hexbytes(val, l->raw, sizeof l->raw, &n))
            goto bad;
        l->len = (uint16_t)n;
        return 0;
    }
    if (num(val, &v))
        goto bad;
    if (!strcmp(key, "opts")) l->ip_opts = (uint8_t)v;
    else if (!strcmp(key, "id")) l->ip_id = (uint16_t)v;
    else if (!strcmp(key, "frag")) l->frag = (uint16_t)v;
    else if (!strcmp(key, "mss")) l->mss = (uint16_t)v;
    else if (!strcmp(key, "seq")) l->seq = (uint32_t)v;
    else if (!strcmp(key, "ack")) l->ack = (uint32_t)v;
    else if (!strcmp(key, "flags")) l->tcp_flags = (uint8_t)v;
    else if (!strcmp(key, "sport")) l->sport = (uint16_t)v;
    else if (!strcmp(key, "dport")) l->dport = (uint16_t)v;
    else if (!strcmp(key, "K")) { l->gre_flags |= 0x2000; l->key = (uint32_t)v; }
    else if (!strcmp(key, "S")) { l->gre_flags |= 0x1000; l->gre_seq = (uint32_t)v; }
    else if (!strcmp(key, "gflags")) l->gre_flags = (uint16_t)v;
    else if (!strcmp(key, "proto")) l->proto = (uint16_t)v;
    else if (!strcmp(key, "vni")) l->vni = (uint32_t)v;
    else if (!strcmp(key, "shift")) l->rco_shift = (int16_t)(long)strtol(val, NULL, 0);
    else if (!strcmp(key, "optw")) l->opt_words = (uint8_t)v;
    else if (!strcmp(key, "vlan")) l->vlan = (uint16_t)v;
    else if (!strcmp(key, "label")) l->label = (uint32_t)v;
    else if (!strcmp(key, "pkt")) l->pkttype = (uint8_t)v;
    else if (!strcmp(key, "len")) l->len = (uint16_t)v;
    else if (!strcmp(key, "fill")) l->fill = (uint8_t)v;
    else if (!strcmp(key, "type")) l->icmp_type = (uint8_t)v;
    else if (!strcmp(key, "code")) l->icmp_code = (uint8_t)v;
    else if (!strcmp(key, "lenfix")) l->len_override = (uint16_t)v;
    else if (!strcmp(key, "cookie")) l->l2tp_cookie = (uint8_t)v;
    else if (!strcmp(key, "spi")) l->spi = (uint32_t)v;
    else if (!strcmp(key, "tci")) l->macsec_tci = (uint8_t)v;
    else goto bad;
    return 0;
bad:
    snprintf(err, errlen, "bad item '%s'", it);
    return -1;
}

int gen_parse(const char *spec, struct pb_frame *f, char *err, size_t errlen)
{
    char buf[1024];
    if (strlen(spec) >= sizeof buf) {
        snprintf(err, errlen, "stack too long");
        return -1;
    }
    memcpy(buf, spec, strlen(spec) + 1);
    pb_init(f);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *colon = strchr(tok, ':');
        if (colon)
            *colon = 0;
        size_t k;
        for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            if (!strcmp(tok, kinds[k].name))
                break;
        if (k == sizeof kinds / sizeof kinds[0]) {
            snprintf(err, errlen, "unknown layer '%s'", tok);
            return -1;
        }
        if (f->n >= PB_MAX_LAYERS) {
            snprintf(err, errlen, "too many layers");
            return -1;
        }
        struct pb_layer *l = pb_push(f, kinds[k].kind);
        if (!colon)
            continue;
        char *save2 = NULL;
        for (char *it = strtok_r(colon + 1, ",", &save2); it; it = strtok_r(NULL, ",", &save2))
            if (item(l, it, err, errlen))
                return -1;
    }
    if (!f->n) {
        snprintf(err, errlen, "empty stack");
        return -1;
    }
    return 0;
}
