/*
 * linkmap.c - WTAP_ENCAP_* -> enum csc_link (see linkmap.h).
 */
#include "linkmap.h"

#include <wiretap/wtap.h>

enum csc_link csc_link_from_wtap_encap(int encap)
{
    switch (encap) {
    case WTAP_ENCAP_ETHERNET: return CSC_LINK_ETHERNET;   /* LINKTYPE_ETHERNET */
    case WTAP_ENCAP_RAW_IP: return CSC_LINK_RAW;          /* LINKTYPE_RAW, DLT_RAW 12/14 */
    case WTAP_ENCAP_RAW_IP4: return CSC_LINK_IPV4;        /* LINKTYPE_IPV4 */
    case WTAP_ENCAP_RAW_IP6: return CSC_LINK_IPV6;        /* LINKTYPE_IPV6 */
    case WTAP_ENCAP_SLL: return CSC_LINK_SLL;             /* LINKTYPE_LINUX_SLL */
    case WTAP_ENCAP_SLL2: return CSC_LINK_SLL2;           /* LINKTYPE_LINUX_SLL2 */
    case WTAP_ENCAP_NULL: return CSC_LINK_NULL;           /* LINKTYPE_NULL */
    case WTAP_ENCAP_LOOP: return CSC_LINK_LOOP;           /* LINKTYPE_LOOP */
    case WTAP_ENCAP_PPP: return CSC_LINK_PPP;             /* LINKTYPE_PPP, PPP_HDLC */
    default: return CSC_LINK_UNKNOWN;
    }
}
