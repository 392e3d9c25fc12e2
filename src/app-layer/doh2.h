/* DNS over HTTP/2 (RFC 8484) as Suricata 8 names it: "doh2", an HTTP/2
 * flow one of whose requests is a DNS query (doh2-proto.c). The HTTP/2
 * parser keeps parsing the flow (f->app_proto stays ALPROTO_HTTP2, its
 * transactions HTTP/2's); the flow shows as doh2 (Flow.app_proto_shown):
 * eve's app_proto, app-layer-protocol and the rules' protocol. */
#ifndef APP_LAYER_DOH2_H
#define APP_LAYER_DOH2_H

#include "app-layer/http2.h"
#include "flow/flow.h"

/* Whether the request side s (headers complete) is a DoH query: GET with
 * a "dns" query parameter, or POST of content-type
 * application/dns-message. */
int doh2_is_request(const Http2Side *s);
/* An HTTP/2 request of f was a DoH query: f shows as doh2 from now on,
 * unless the yaml switched doh2 off. */
void doh2_flow_mark(Flow *f);

struct dns_msg;
/* The DNS messages of DoH transaction tx: the query (GET's base64url dns
 * parameter, or POST's body) into *req, the answer (a response body of
 * content-type application/dns-message) into *resp; each NULL where the
 * tx has none or it does not parse. The caller frees them
 * (dns_msg_free()). 0 when tx holds neither. */
int doh2_tx_msgs(const Http2Tx *tx, struct dns_msg **req, struct dns_msg **resp);

#endif
