/*
 * kfuzz_oops.c - frames that crash a kernel of the list: an oops ends the
 * VM and the whole run with it, so such a frame is not written; it is
 * counted as skipped, with the reason (docs/kernel-diff.md, "Long run").
 *
 * Debian's 5.10 (bullseye): ipv6_hop_jumbo (net/ipv6/exthdrs.c, v5.10)
 * reads `ipv6_skb_net(skb)` first, which is dev_net(skb_dst(skb)->dev)
 * whenever the skb has a dst. A collect_md tunnel device - GENEVE external,
 * VXLAN-GPE (always external) - hands its inner packet to ipv6_rcv with the
 * tunnel's metadata_dst attached (geneve_rx / vxlan_rcv: skb_dst_set of
 * the tun_dst), whose dst.dev is NULL: an inner IPv6 packet whose
 * hop-by-hop header reaches a jumbo option (0xc2) dereferences NULL in
 * ipv6_hop_jumbo (seen: the bullseye VM's oops ended a 100,000-frame run).
 * 6.1 and later no longer read the net there (ipv6_hop_jumbo in v6.12 has
 * no MIB count at all).
 */
#include "kfuzz.h"

#include <stdio.h>

#define OPT_PAD1 0
#define OPT_JUMBO 0xc2

/* Whether ip6_parse_tlv over the hop-by-hop header of the IPv6 header at
 * p (n bytes from it) reaches a jumbo option. Read as the kernel reads it
 * (the bytes, whatever the builder meant them to be), and on the safe side:
 * every option before it is taken as passed. */
static int reaches_jumbo(const uint8_t *p, size_t n)
{
    if (n < 40 + 8 || (p[0] >> 4) != 6 || p[6] != 0)  /* not IPv6, or no hop-by-hop header first */
        return 0;
    size_t len = ((size_t)p[41] + 1) * 8, off = 2;
    if (40 + len > n)
        len = n - 40;                   /* the kernel's pull fails first; cut short anyway */
    const uint8_t *h = p + 40;
    while (off < len) {
        if (h[off] == OPT_PAD1) {
            off++;
            continue;
        }
        if (off + 2 > len)
            return 0;
        size_t optlen = (size_t)h[off + 1] + 2;
        if (optlen > len - off)         /* ip6_parse_tlv: "bad" before any handler */
            return 0;
        if (h[off] == OPT_JUMBO)
            return 1;
        off += optlen;
    }
    return 0;
}

const char *kf_oops(const struct kf_case *c, const struct kf_frame *fr, const char *release)
{
    unsigned maj = 0, min = 0;
    if (!release || sscanf(release, "%u.%u", &maj, &min) != 2 || maj * 1000 + min >= 6001)
        return NULL;
    int collect_md = c->g.tun == KT_GPE || (c->g.tun == KT_GENEVE && (c->g.opts & KO_EXTERNAL));
    if (!collect_md || !fr->ok || !fr->iip_off || fr->iip_off >= fr->lf.len)
        return NULL;
    if (!reaches_jumbo(fr->lf.data + fr->iip_off, fr->lf.len - fr->iip_off))
        return NULL;
    return "5.10 oops: ipv6_hop_jumbo's ipv6_skb_net() on the metadata dst of a collect_md device "
           "(GENEVE external / VXLAN-GPE), inner IPv6 with a jumbo hop-by-hop option";
}
