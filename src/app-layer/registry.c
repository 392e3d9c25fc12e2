/* The application-protocol registry: one line per protocol, indexed by its
 * enum app_proto value (app-layer.h). The app layer's detection, dispatch,
 * counters and transaction calls walk this table: the stream and the worker
 * reach a protocol's parser only through its AppProtoOps, detection through
 * it and the buffer getters of the protocol's keyword file.
 *
 * A protocol is also one line in the few other registries keyed by the same
 * value, each owned by its subsystem: its eve logger (output/tx-log.c), its
 * files (files-proto.c) and its detection buffers (detect/buffers.c).
 *
 * Adding a protocol (doc/adding-a-protocol.md): its value in enum
 * app_proto, its ops entry in its own <proto>-proto.c (declared in
 * app-layer-int.h; its tx and error counters through app-counters.h), and
 * a line here. */
#include "app-layer/app-layer-int.h"

const AppProtoOps *const app_protos[ALPROTO_MAX] = {
	[ALPROTO_HTTP1] = &http_proto_ops,
	[ALPROTO_TLS] = &tls_proto_ops,
	[ALPROTO_DNS] = &dns_proto_ops,
	[ALPROTO_SMTP] = &smtp_proto_ops,
	[ALPROTO_SSH] = &ssh_proto_ops,
	[ALPROTO_FTP] = &ftp_proto_ops,
	[ALPROTO_FTPDATA] = &ftpdata_proto_ops,
	[ALPROTO_DCERPC] = &dcerpc_proto_ops,
	[ALPROTO_SMB] = &smb_proto_ops,
	[ALPROTO_MQTT] = &mqtt_proto_ops,
	[ALPROTO_SIP] = &sip_proto_ops,
	[ALPROTO_MDNS] = &mdns_proto_ops,
	[ALPROTO_POP3] = &pop3_proto_ops,
	[ALPROTO_IMAP] = &imap_proto_ops,
	[ALPROTO_LDAP] = &ldap_proto_ops,
	[ALPROTO_KRB5] = &krb5_proto_ops,
	[ALPROTO_SNMP] = &snmp_proto_ops,
	[ALPROTO_PGSQL] = &pgsql_proto_ops,
	[ALPROTO_WEBSOCKET] = &websocket_proto_ops,
	[ALPROTO_DHCP] = &dhcp_proto_ops,
	[ALPROTO_TFTP] = &tftp_proto_ops,
	[ALPROTO_NTP] = &ntp_proto_ops,
	[ALPROTO_DNP3] = &dnp3_proto_ops,
	[ALPROTO_RFB] = &rfb_proto_ops,
	[ALPROTO_RDP] = &rdp_proto_ops,
	[ALPROTO_TELNET] = &telnet_proto_ops,
	[ALPROTO_HTTP2] = &http2_proto_ops,
	[ALPROTO_ENIP] = &enip_proto_ops,
	[ALPROTO_MODBUS] = &modbus_proto_ops,
	[ALPROTO_IKE] = &ike_proto_ops,
	[ALPROTO_BITTORRENT_DHT] = &bittorrent_dht_proto_ops,
	[ALPROTO_NFS] = &nfs_proto_ops,
	[ALPROTO_QUIC] = &quic_proto_ops,
	[ALPROTO_DOH2] = &doh2_proto_ops,
};
