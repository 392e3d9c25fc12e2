/* The run policy (run-policy.h). */
#include "util/run-policy.h"

#include <string.h>

int run_policy_resolve(RunPolicy *rp, int ips, int stream_inline, int midstream)
{
	memset(rp, 0, sizeof(*rp));
	rp->ips = ips != 0;
	/* stream.inline: auto means inline in IPS mode, as Suricata */
	rp->stream_inline = stream_inline < 0 ? rp->ips : stream_inline;
	/* both the IPS mode and stream.midstream shape the effective policies */
	return ep_config_resolve(&rp->ep, rp->ips, midstream);
}
