/* IPv4 option bits kept in Packet.ipopts (the rule keyword ipopts matches them). */
#ifndef DECODE_IPV4_H
#define DECODE_IPV4_H

#define IPV4_OPT_RR     (1u << 0)   /* record route (7) */
#define IPV4_OPT_QS     (1u << 1)   /* quick start (25) */
#define IPV4_OPT_TS     (1u << 2)   /* timestamp (68) */
#define IPV4_OPT_SEC    (1u << 3)   /* security (130) */
#define IPV4_OPT_LSRR   (1u << 4)   /* loose source route (131) */
#define IPV4_OPT_ESEC   (1u << 5)   /* extended security (133) */
#define IPV4_OPT_CIPSO  (1u << 6)   /* commercial security (134) */
#define IPV4_OPT_SID    (1u << 7)   /* stream id (136) */
#define IPV4_OPT_SSRR   (1u << 8)   /* strict source route (137) */
#define IPV4_OPT_RTRALT (1u << 9)   /* router alert (148) */
#define IPV4_OPT_EOL    (1u << 10)  /* end of list (0) */
#define IPV4_OPT_NOP    (1u << 11)  /* no operation (1) */

#endif
