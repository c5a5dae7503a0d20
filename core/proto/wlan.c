/*
 * wlan.c - IEEE 802.11 frames without FCS (IEEE Std 802.11-2020 §9.2-9.3),
 * as Aruba access points tunnel them over GRE (gre.c: protocols 0x8200 ..
 * 0x8370), and the LLC/SNAP header of a data frame (IEEE 802.2, RFC 1042).
 *
 *    0       2       4                 10                16                22      24
 *   +-------+-------+-----------------+-----------------+-----------------+-------+
 *   |  FC   |  Dur  |   Address 1     |   Address 2     |   Address 3     | SeqCtl|
 *   +-------+-------+-----------------+-----------------+-----------------+-------+
 *   [Address 4 (To DS and From DS)] [QoS Control (QoS data)] [HT Control (QoS + Order)]
 *   data: | AA | AA | 03 | OUI (3) | EtherType |  then the EtherType's packet
 *
 * The frame control field is little-endian: version (2 bits, 0), type (2),
 * subtype (4), then the flags To DS, From DS, More Fragments, Retry, Power
 * Management, More Data, Protected, +HTC/Order. The layer is the MAC header
 * and, for a data frame, its SNAP header (next: the EtherType). Management
 * and control frames carry no packet (the stack ends there); a data frame
 * without data (null) neither. A protected frame's body is encrypted (WEP,
 * TKIP, CCMP, GCMP): the stack ends "encrypted". A fragment after the first
 * ends it with "fragment"; an A-MSDU (several MSDUs in one frame) is not
 * decoded ("unsupported"); a body that is not SNAP carries no EtherType.
 */
#include "decode.h"

/* The MAC header's length from its frame control field and QoS bit */
static uint32_t wlan_mac_len(uint16_t fc, uint8_t subtype)
{
    uint32_t hdr = WIRE_LEN(wlan_hdr);
    if ((fc & (WLAN_FC_TO_DS | WLAN_FC_FROM_DS)) == (WLAN_FC_TO_DS | WLAN_FC_FROM_DS))
        hdr += WLAN_ADDR_LEN;
    if (subtype & WLAN_SUBTYPE_QOS) {
        hdr += WLAN_QOS_LEN;
        if (fc & WLAN_FC_ORDER)
            hdr += WLAN_HTC_LEN;
    }
    return hdr;
}

/* A data frame's body: a SNAP header naming the EtherType, pushed with the
 * MAC header; anything else ends the stack at the MAC header. */
static void wlan_data(struct dec *d, uint32_t off, uint16_t fc, uint8_t subtype)
{
    uint32_t mac = wlan_mac_len(fc, subtype);
    if (!dec_need(d, CSC_P_WLAN, off, mac))
        return;
    uint16_t seq = 0, qos = 0;
    pkt_le16(&d->p, off + WIRE_OFF(wlan_hdr, seq_ctrl), &seq);
    if (subtype & WLAN_SUBTYPE_QOS) {
        uint32_t qat = mac - WLAN_QOS_LEN - ((fc & WLAN_FC_ORDER) ? WLAN_HTC_LEN : 0);
        pkt_le16(&d->p, off + qat, &qos);
    }
    uint8_t b[WIRE_LEN(snap_hdr)];
    bool body = !(subtype & WLAN_SUBTYPE_NODATA) && !(fc & WLAN_FC_PROTECTED) &&
                !(seq & WLAN_SEQ_FRAG_MASK) && !(qos & WLAN_QOS_AMSDU);
    bool snap = body && pkt_copy(&d->p, off + mac, sizeof b, b) && b[0] == LLC_SAP_SNAP &&
                b[1] == LLC_SAP_SNAP && b[2] == LLC_UI;
    uint32_t oui = snap ? (uint32_t)b[3] << 16 | (uint32_t)b[4] << 8 | b[5] : 0;
    snap = snap && (oui == SNAP_OUI_RFC1042 || oui == SNAP_OUI_8021H);
    uint32_t hdr = snap ? mac + WIRE_LEN(snap_hdr) : mac;
    if (body && !snap && off + mac + WIRE_LEN(snap_hdr) > d->p.caplen &&
        off + mac + WIRE_LEN(snap_hdr) <= d->end) {
        dec_stop(d, CSC_STOP_TRUNCATED, CSC_P_WLAN, off);   /* the SNAP header is cut */
        return;
    }
    struct csc_layer *l = dec_push(d, CSC_P_WLAN, off, hdr);
    if (!l)
        return;
    bool more = off + mac < d->end;            /* a body follows the MAC header */
    if (!more || (subtype & WLAN_SUBTYPE_NODATA))
        return;
    if (d->quoted)
        return;
    if (fc & WLAN_FC_PROTECTED)
        dec_stop(d, CSC_STOP_ENCRYPTED, CSC_P_WLAN, off);
    else if (seq & WLAN_SEQ_FRAG_MASK)
        dec_stop(d, CSC_STOP_FRAGMENT, CSC_P_WLAN, off);
    else if (qos & WLAN_QOS_AMSDU)
        dec_stop(d, CSC_STOP_UNSUPPORTED, CSC_P_WLAN, off);
    else if (snap) {
        l->next = (uint16_t)((uint16_t)b[6] << 8 | b[7]);
        dec_ethertype(d, l->next, off + hdr);
    }
}

void dec_wlan(struct dec *d, uint32_t off)
{
    uint16_t fc = 0;
    if (!dec_need(d, CSC_P_WLAN, off, sizeof fc))
        return;
    pkt_le16(&d->p, off, &fc);
    uint8_t type = (uint8_t)((fc >> WLAN_FC_TYPE_SHIFT) & WLAN_FC_TYPE_MASK);
    uint8_t subtype = (uint8_t)((fc >> WLAN_FC_SUBTYPE_SHIFT) & WLAN_FC_SUBTYPE_MASK);
    if ((fc & WLAN_FC_VERSION) != 0) {
        if (!d->quoted)
            dec_stop_value(d, CSC_STOP_UNSUPPORTED, CSC_P_WLAN, off, fc & WLAN_FC_VERSION);
        return;
    }
    switch (type) {
    case WLAN_TYPE_DATA:
        wlan_data(d, off, fc, subtype);
        return;
    case WLAN_TYPE_MGMT:              /* beacons, (re)association, action...: no packet */
        dec_header(d, CSC_P_WLAN, off, WIRE_LEN(wlan_hdr));
        return;
    case WLAN_TYPE_CTRL:              /* ACK, RTS, block ack...: no packet */
        dec_header(d, CSC_P_WLAN, off, WLAN_CTRL_MIN_LEN);
        return;
    default:                          /* type 3: extension frames (DMG beacon, S1G) */
        if (dec_header(d, CSC_P_WLAN, off, WLAN_CTRL_MIN_LEN) && !d->quoted)
            dec_stop_value(d, CSC_STOP_UNSUPPORTED, CSC_P_WLAN, off, type);
        return;
    }
}
