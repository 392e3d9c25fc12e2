/* Transaction records for every application protocol: the table of eve
 * loggers, one line per protocol (indexed by enum app_proto), and the two
 * calls that dispatch to them: the worker's once-per-transaction records
 * and the app-layer members of alerts on a transaction. Adding a protocol:
 * its logger in its own file (declared in output-private.h) and a line
 * here (doc/adding-a-protocol.md). */
#include "output/output-private.h"
#include "output/lua-out.h"
#include "app-layer/app-layer.h"
#include "app-layer/files.h"

static const EveTxLogger *const eve_tx_loggers[ALPROTO_MAX] = {
	[ALPROTO_HTTP1] = &eve_http_logger,
	[ALPROTO_TLS] = &eve_tls_logger,
	[ALPROTO_DNS] = &eve_dns_logger,
	[ALPROTO_SMTP] = &eve_smtp_logger,
	[ALPROTO_SSH] = &eve_ssh_logger,
	[ALPROTO_MQTT] = &eve_mqtt_logger,
	[ALPROTO_FTP] = &eve_ftp_logger,
	[ALPROTO_FTPDATA] = &eve_ftpdata_logger,
	[ALPROTO_DCERPC] = &eve_dcerpc_logger,
	[ALPROTO_SMB] = &eve_smb_logger,
	[ALPROTO_SIP] = &eve_sip_logger,
	[ALPROTO_MDNS] = &eve_mdns_logger,
	[ALPROTO_POP3] = &eve_pop3_logger,
	[ALPROTO_LDAP] = &eve_ldap_logger,
	[ALPROTO_KRB5] = &eve_krb5_logger,
	[ALPROTO_SNMP] = &eve_snmp_logger,
	[ALPROTO_PGSQL] = &eve_pgsql_logger,
	[ALPROTO_WEBSOCKET] = &eve_websocket_logger,
	[ALPROTO_DHCP] = &eve_dhcp_logger,
	[ALPROTO_TFTP] = &eve_tftp_logger,
	[ALPROTO_NTP] = &eve_ntp_logger,
	[ALPROTO_DNP3] = &eve_dnp3_logger,
	[ALPROTO_RFB] = &eve_rfb_logger,
	[ALPROTO_RDP] = &eve_rdp_logger,
	[ALPROTO_HTTP2] = &eve_http2_logger,
	[ALPROTO_ENIP] = &eve_enip_logger,
	[ALPROTO_MODBUS] = &eve_modbus_logger,
	[ALPROTO_IKE] = &eve_ike_logger,
	[ALPROTO_BITTORRENT_DHT] = &eve_bittorrent_dht_logger,
	[ALPROTO_NFS] = &eve_nfs_logger,
	[ALPROTO_QUIC] = &eve_quic_logger,
};

static const EveTxLogger *logger_of(const Flow *f)
{
	return f && f->app_proto < ALPROTO_MAX ? eve_tx_loggers[f->app_proto] : NULL;
}

void output_tx_log(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	const EveTxLogger *l = logger_of(f);

	if (o && l && l->log_tx && tx)
		l->log_tx(o, p, f, tx);
}

int output_tx_files_on(const Outputs *o, const Flow *f)
{
	const EveTxLogger *l = logger_of(f);

	return o && l && l->file_record_write &&
	       (o->eve_files || files_config()->store_enabled || lua_output_files_on());
}

int output_tx_log_files(Outputs *o, const Packet *p, const Flow *f, void *tx, int final)
{
	if (!tx || !output_tx_files_on(o, f))
		return 1;
	return eve_files_log(o, logger_of(f), p, f, tx, final);
}

int output_tx_events_on(const Outputs *o, const Flow *f)
{
	const EveTxLogger *l = logger_of(f);

	return o && l && l->log_events && o->cfg.eve_anomaly.applayer && o->eve_anomaly;
}

void output_tx_log_events(Outputs *o, const Packet *p, const Flow *f, void *tx)
{
	const EveTxLogger *l = logger_of(f);

	if (o && l && l->log_events && tx && p)
		l->log_events(o, p, f, tx);
}

void output_tx_alert_write(struct JsonWriter *w, const Flow *f, uint64_t tx_id,
			   const struct OutputAlertConfig *ac)
{
	const EveTxLogger *l = logger_of(f);
	void *tx;

	if (!l || !(tx = app_layer_tx_get(f, tx_id)))
		return;
	if (l->alert_write_opts)
		(void)l->alert_write_opts(w, f, tx, ac);
	else if (l->alert_write)
		(void)l->alert_write(w, f, tx);
}

