/*
 * erspan.c - what an ERSPAN device's own flags decide about a frame:
 * ip_tunnel_rcv (net/ipv4/ip_tunnel.c) and __ip6_tnl_rcv
 * (net/ipv6/ip6_tunnel.c) compare the GRE flags with the device's i_flags,
 * and an erspan / ip6erspan device's i_flags are fixed by its validation
 * (net/ipv4/ip_gre.c erspan_validate, net/ipv6/ip6_gre.c
 * ip6erspan_tap_validate); read at v6.12, the same in 6.1.192.
 */
#include "replay.h"

/* The device that takes the frame is a type II/III one: over IPv6 always
 * (ip6erspan_tap_validate accepts erspan_ver 1 and 2 only, and
 * ip6erspan_rcv reads a version from whatever follows the GRE header: there
 * is no type I); over IPv4 when the GRE header has S - erspan_rcv takes a
 * GRE header of 4 bytes as type I (is_erspan_type1), and a longer one
 * without S the replay does not size (not modelled). */
static bool erspan_type23_device(const struct rp *rp, uint8_t g)
{
    return under_ipv6(rp, g) || (L(rp, g)->u.gre.flags & GRE_S);
}

/* A type II/III device has exactly SEQ|KEY in i_flags (erspan_validate,
 * ip6erspan_tap_validate: `flags != (GRE_SEQ | GRE_KEY)` is -EINVAL unless
 * collect_md), whatever --gre-csum says. ip_tunnel_rcv / __ip6_tnl_rcv then
 * drop a frame whose CSUM bit differs from the device's - any GRE C bit -
 * with rx_crc_errors + rx_errors, and on a device with SEQ a frame without
 * S with rx_fifo_errors + rx_errors (the device's sequence number is not
 * modelled: a first frame). gre_parse_header has checked a C bit's
 * checksum before (a bad one is dropped there, silently). A type I device
 * has no KEY and no SEQ; a frame it takes has a 4-byte GRE header, no C.
 * False: dropped. */
bool erspan_tunnel_flags_ok(struct rp *rp, uint8_t g, uint8_t t)
{
    uint16_t flags = L(rp, g)->u.gre.flags;
    enum kfn fn = under_ipv6(rp, g) ? KF_IP6_TNL_RCV : KF_IP_TUNNEL_RCV;
    if (!erspan_type23_device(rp, g))
        return true;
    if (flags & GRE_C) {
        rp_step(rp, t, fn, W_FLAG_MISMATCH, CSC_TRI_NO, 0, NULL);
        rp_drop(rp, t, fn, KD_TUNNEL_CSUM_FLAGS,
                CNT(CSC_C_DEV_RX_CRC_ERRORS) | CNT(CSC_C_DEV_RX_ERRORS));
        return false;
    }
    if (!(flags & GRE_S)) {
        rp_step(rp, t, fn, W_FLAG_MISMATCH, CSC_TRI_NO, 0, NULL);
        rp_drop(rp, t, fn, KD_TUNNEL_SEQ,
                CNT(CSC_C_DEV_RX_FIFO_ERRORS) | CNT(CSC_C_DEV_RX_ERRORS));
        return false;
    }
    return true;
}
