/* The eve "dhcp" object of a DHCP message, as Suricata 8 writes it (schema:
 * eve-schema.json "dhcp"): type, id, client_mac, assigned_ip always; with
 * `extended` the rest (client_ip; relay_ip and next_server_ip of a reply;
 * the options' lease, renewal and rebinding times, subnet_mask, routers,
 * dns_servers, params, requested_ip, vendor_class_identifier). client_id,
 * hostname and dhcp_type are written either way. */
#ifndef OUTPUT_DHCP_JSON_H
#define OUTPUT_DHCP_JSON_H

#include "app-layer/dhcp.h"

#include <jansson.h>

struct JsonWriter;
void dhcp_json_write(struct JsonWriter *w, const DhcpMsg *m, int extended);
/* The same as a tree, for tests; the caller owns it. */
json_t *dhcp_json_object(const DhcpMsg *m, int extended);

#endif
