/*
 * amt.c - Automatic Multicast Tunneling (RFC 7450 §5.1) on UDP port 2268
 * (IANA "amt"): a relay sends multicast IP packets to a gateway in
 * Multicast Data messages; a gateway's membership report and the relay's
 * query travel encapsulated as IP packets too.
 *
 *    0                   1                   2                   3
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |  V=0  |Type=6 |   Reserved    |   IP datagram (IPv4 or IPv6)  |  Data
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |  V=0  |Type=4 | Reserved  |L|G|         Response MAC          |  Query
 *   |  V=0  |Type=5 |   Reserved    |         (48 bits)             |  Update
 *   |                     Response MAC (cont.)                      |
 *   |                         Request Nonce                         |
 *   |   IGMP / MLD message in its IP packet ...  (Query with G: a   |
 *   |   gateway port and address follow the packet)                 |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * Discovery (1), Advertisement (2), Request (3) and Teardown (7) carry no
 * packet: the stack ends unsupported with the type. Type 0 and 8..15 do not
 * exist (malformed, the type); a version other than 0 is unsupported (amt_rcv
 * drops both: amt_parse_type, drivers/net/amt.c v6.12). Each of these ends
 * on an AMT layer of the first two bytes: the datagram is the amt socket's
 * whatever it holds.
 */
#include "decode.h"

struct amt_hdr { uint8_t ver_type, reserved; };
struct amt_mem_hdr { uint8_t ver_type, flags, response_mac[6], nonce[4]; };   /* Query, Update */

#define AMT_VERSION_SHIFT 4
#define AMT_TYPE_MASK     0x0f
#define AMT_TYPE_QUERY    4
#define AMT_TYPE_UPDATE   5
#define AMT_TYPE_DATA     6
#define AMT_TYPE_LAST     7      /* Teardown */

/* The header in front of the encapsulated packet; 0: the type carries none */
static uint32_t amt_hlen(uint8_t type)
{
    switch (type) {
    case AMT_TYPE_DATA: return WIRE_LEN(amt_hdr);
    case AMT_TYPE_QUERY: case AMT_TYPE_UPDATE: return WIRE_LEN(amt_mem_hdr);
    default: return 0;
    }
}

void dec_amt(struct dec *d, uint32_t off)
{
    struct span b = dec_need_span(d, CSC_P_AMT, off, 1);
    if (!b.b)
        return;
    uint8_t vt = span_u8(&b, WIRE_OFF(amt_hdr, ver_type));
    uint8_t type = vt & AMT_TYPE_MASK;
    bool v0 = (vt >> AMT_VERSION_SHIFT) == 0;
    uint32_t hdr = v0 ? amt_hlen(type) : 0;
    struct csc_layer *l = dec_header(d, CSC_P_AMT, off, hdr ? hdr : WIRE_LEN(amt_hdr));
    if (!l)
        return;
    l->next = type;
    if (!v0)                          /* no value: the type's would read the same */
        dec_stop(d, CSC_STOP_UNSUPPORTED, CSC_P_AMT, off);
    else if (type == 0 || type > AMT_TYPE_LAST)
        dec_stop_value(d, CSC_STOP_MALFORMED, CSC_P_AMT, off, type);
    else if (!hdr)
        dec_stop_value(d, CSC_STOP_UNSUPPORTED, CSC_P_AMT, off, type);
    else
        dec_ip_by_nibble(d, off + hdr);
}
