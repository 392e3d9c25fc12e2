/* The application-protocol registry: one line per protocol, indexed by its
 * enum app_proto value (app-layer.h). The app layer's detection, dispatch
 * and transaction calls, and through them detection, transaction logging
 * and the outputs, walk this table; nothing else names a protocol.
 *
 * Adding a protocol (doc/adding-a-protocol.md): its value in enum app_proto,
 * its ops entry in its own file (declared in app-layer-int.h), and a line
 * here. */
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
};
