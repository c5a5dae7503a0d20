/*
 * macsec.c - MACsec (IEEE 802.1AE-2018), EtherType 0x88E5: the SecTAG, and
 * for a frame sent without encryption the user data behind it.
 *
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |  MACsec EtherType 0x88E5 (eth) |V|ES|SC|SCB|E|C|AN|0 0|  SL   |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |                        Packet Number (PN)                     |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |        Secure Channel Identifier (SCI, 8 bytes, with SC)      |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   | Secure Data: E=0, C=0: the user data's EtherType, then its    |
 *   | payload in clear; E=1: ciphertext                             |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |                 ICV (16 bytes by default, see below)          |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * TCI bits (§9.5): V version (0), ES end station, SC an explicit SCI
 * follows, SCB single copy broadcast, E encryption, C changed text; AN the
 * association number. SL (§9.7): the secure data's length when it is below
 * 48 bytes (the frame may then carry Ethernet padding after the ICV), else 0.
 *
 * Integrity only (E=0, C=0): the secure data is the user data as sent, so
 * its EtherType (part of this layer, as a VLAN tag's) and the layers after
 * it are decoded and judged; they end where the ICV starts. The ICV's
 * length is the SecY's setting and not in the frame: 16 bytes, the
 * default of every 802.1AE cipher suite (MACSEC_ICV_LEN, wire.h), is assumed
 * unless SL gives the data's end. A data end before the cleartext EtherType
 * or past the frame is malformed.
 * E=1 (encrypted): the stack ends `encrypted` at this layer. E=0 with C=1
 * (text changed but not encrypted) is no encoding a cipher suite makes:
 * `unsupported` with the TCI/AN byte. V=1 is malformed (§9.5).
 */
#include "decode.h"

void dec_macsec(struct dec *d, uint32_t off)
{
    uint8_t tci = 0;
    if (!dec_need(d, CSC_P_MACSEC, off, WIRE_LEN(macsec_hdr)))
        return;
    pkt_u8(&d->p, off + WIRE_OFF(macsec_hdr, tci_an), &tci);
    uint32_t tag = WIRE_LEN(macsec_hdr) + ((tci & MACSEC_TCI_SC) ? MACSEC_SCI_LEN : 0);
    bool clear = !(tci & (MACSEC_TCI_E | MACSEC_TCI_C));
    /* integrity only: the cleartext EtherType belongs to the layer */
    uint32_t hdr = clear ? tag + MACSEC_TYPE_LEN : tag;
    if ((tci & MACSEC_TCI_VERSION) && !d->quoted) {
        if (dec_header(d, CSC_P_MACSEC, off, WIRE_LEN(macsec_hdr)))
            dec_stop_value(d, CSC_STOP_MALFORMED, CSC_P_MACSEC, off, tci);
        return;
    }
    struct csc_layer *l = dec_header(d, CSC_P_MACSEC, off, hdr);
    if (!l)
        return;
    struct span b;
    pkt_hdr(&d->p, off, WIRE_LEN(macsec_hdr), &b);      /* there: dec_header */
    DEC_VAL(d, l, u.macsec.tci_an, &b, WIRE_OFF(macsec_hdr, tci_an), 1, 0xff, 0);
    /* SL decides where the data ends: a guarded read, not a value */
    l->u.macsec.sl = span_u8(&b, WIRE_OFF(macsec_hdr, sl)) & MACSEC_SL_MASK;
    DEC_VAL(d, l, u.macsec.pn, &b, WIRE_OFF(macsec_hdr, pn), 4, 0xffffffffu, 0);
    if (!clear) {
        if (d->quoted)
            return;
        if (tci & MACSEC_TCI_E)
            dec_stop(d, CSC_STOP_ENCRYPTED, CSC_P_MACSEC, off);
        else
            dec_stop_value(d, CSC_STOP_UNSUPPORTED, CSC_P_MACSEC, off, tci);
        return;
    }
    uint16_t type = 0;
    pkt_be16(&d->p, off + tag, &type);
    l->next = type;
    /* where the user data ends: SL says it for short data (what follows is
     * the ICV, whatever its length, and padding), else the ICV is the
     * frame's last MACSEC_ICV_LEN bytes */
    uint8_t sl = l->u.macsec.sl;
    uint64_t data_end = sl ? (uint64_t)off + tag + sl : (uint64_t)d->end - MACSEC_ICV_LEN;
    if (data_end < (uint64_t)off + hdr || data_end > d->end) {
        if (!d->quoted) {
            l->notes |= data_end > d->end ? CSC_N_LEN_EXCEEDS : CSC_N_LEN_SHORT;
            dec_stop(d, CSC_STOP_MALFORMED, CSC_P_MACSEC, off);
            return;
        }
    } else {
        d->end = (uint32_t)data_end;
        dec_break_end(d, data_end);
    }
    if (type >= ETH_P_802_3_MIN)
        dec_ethertype(d, type, off + hdr);
}
