/* The logger list (logger.h) and its entries that are one call each. */
#include "output/logger-int.h"
#include "output/lua-out.h"
#include "output/alert.h"
#include "output/drop.h"
#include "app-layer/frames.h"

#include <stdlib.h>

/* The packet's verdict for the alert and drop records (output_verdict_write). */
static AlertVerdict packet_verdict(const OutputThread *ot, const OutputPacketCtx *pc)
{
	AlertVerdict v = { ALERT_VERDICT_ALERT, ALERT_REJECT_NONE };
	int pass = 0;

	if (pc->detected && ot->dt)
		detect_packet_verdict(ot->dt, &pass, &v.reject);
	if (pc->dropped)
		v.action = ALERT_VERDICT_DROP;
	else if (pass)
		v.action = ALERT_VERDICT_PASS;
	return v;
}

static void alerts_write(OutputThread *ot, Packet *p, const DetectAlert *alerts, uint32_t n,
			 const AlertVerdict *v)
{
	for (uint32_t i = 0; i < n; i++) {
		AlertInfo ai;

		detect_alert_info(detect_thread_engine(ot->dt), p, &alerts[i], &ai);
		detect_alert_pktvars(ot->dt, &ai);
		if (v)
			ai.verdict = *v;
		output_alert(ot->o, p, p->flow, &ai);
	}
	if (n && p->flow)
		p->flow->alerted = 1;
}

static void alert_packet(OutputThread *ot, const OutputPacketCtx *pc)
{
	AlertVerdict v;

	if (pc->nalerts) {
		v = packet_verdict(ot, pc);
		alerts_write(ot, pc->p, pc->alerts, pc->nalerts, &v);
	}
	if (pc->detected && detect_packet_tagged(ot->dt))
		output_tagged_packet(ot->o, pc->p);
}

static const OutputLogger logger_alert = { "alert", alert_packet, NULL };

/* After the alerts, as Suricata writes them: the drop record names the
 * rule that dropped the packet, when one did. */
static void drop_packet(OutputThread *ot, const OutputPacketCtx *pc)
{
	AlertInfo ai;
	AlertVerdict v;

	if (!pc->dropped)
		return;
	v = packet_verdict(ot, pc);
	if (pc->drop_rule)
		detect_alert_info(detect_thread_engine(ot->dt), pc->p, pc->drop_rule, &ai);
	output_drop(ot->o, pc->p, pc->p->flow, pc->drop_rule ? &ai : NULL, &v);
}

static const OutputLogger logger_drop = { "drop", drop_packet, NULL };

static void anomaly_packet(OutputThread *ot, const OutputPacketCtx *pc)
{
	EveFlowMeta meta;

	/* the flow's variables only for a packet that has something to log */
	if (!output_anomaly_pending(pc->p))
		return;
	meta.n_flowbits = ot->dt ? detect_flowbits_get(ot->dt, pc->p->flow, meta.flowbits,
						       ALERT_FLOWBITS_MAX) : 0;
	meta.n_flowvars = detect_flowvars_get(pc->p->flow, meta.flowvars, ALERT_VARS_MAX);
	output_anomaly(ot->o, pc->p, &meta);
}

static const OutputLogger logger_anomaly = { "anomaly", anomaly_packet, NULL };

static void flow_end(OutputThread *ot, Flow *f, Packet *last, enum flow_end_reason why)
{
	(void)last;
	output_flow_end(ot->o, f, why);
}

static const OutputLogger logger_flow = { "flow", NULL, flow_end };

/* In the order the records are written: a packet's alerts before its drop
 * record and anomalies, then the transactions and frames its data
 * completed; at flow end the flow record last, after everything of the
 * flow it summarises. */
static const OutputLogger *const loggers[] = {
	&logger_alert,
	&logger_drop,
	&logger_anomaly,
	&output_logger_arp,
	&output_logger_stream,
	&output_logger_tx,
	&output_logger_frame,
	&output_logger_tls_store,
	&output_logger_pcap,
	&output_logger_lua,
	&logger_flow,
};

#define NLOGGERS (sizeof(loggers) / sizeof(loggers[0]))

int output_thread_init(OutputThread *ot, Outputs *o)
{
	ot->o = o;
	ot->dt = NULL;
	ot->pcap_log = NULL;
	ot->end_pkt = calloc(1, sizeof(Packet));
	output_thread_set_detect(ot, NULL);
	lua_output_thread_init(ot);
	return ot->end_pkt ? 0 : -1;
}

void output_thread_fini(OutputThread *ot)
{
	pcap_log_thread_fini(ot);
	lua_output_thread_fini(ot);
	free(ot->end_pkt);
	ot->end_pkt = NULL;
}

void output_thread_set_detect(OutputThread *ot, DetectThread *dt)
{
	unsigned need = 0;

	ot->dt = dt;
	if (dt && detect_engine_uses_frames(detect_thread_engine(dt)))
		need |= APP_FRAME_INSPECTED;
	if (outputs_frames_enabled(ot->o))
		need |= APP_FRAME_LOGGED;
	ot->frame_need = need;
}

void output_alerts(OutputThread *ot, Packet *p, const DetectAlert *alerts, uint32_t n)
{
	AlertVerdict v = { ALERT_VERDICT_ALERT, ALERT_REJECT_NONE };
	int pass = 0;

	if (!n)
		return;
	/* the flow-end inspection: its own pass and reject; nothing drops */
	detect_packet_verdict(ot->dt, &pass, &v.reject);
	if (pass)
		v.action = ALERT_VERDICT_PASS;
	alerts_write(ot, p, alerts, n, &v);
}

void output_packet(OutputThread *ot, const OutputPacketCtx *pc)
{
	for (size_t i = 0; i < NLOGGERS; i++)
		if (loggers[i]->packet)
			loggers[i]->packet(ot, pc);
}

void output_flow_done(OutputThread *ot, Flow *f, Packet *last, enum flow_end_reason why)
{
	for (size_t i = 0; i < NLOGGERS; i++)
		if (loggers[i]->flow_end)
			loggers[i]->flow_end(ot, f, last, why);
}
