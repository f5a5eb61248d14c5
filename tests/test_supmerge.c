/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_supmerge.c - unit tests of what the supervisor makes of its
 *		     workers' answers (app/supervisor/supmerge.c)
 *
 * Two workers' JSON documents become one: the cables in config order,
 * each hub group (trunks, the tunnel socket, interfaces), whatever its
 * name, merged by its members, the removed cables end to end and their
 * total summed; a worker that did not answer is left out. Two workers'
 * metrics become one exposition: each family's HELP and TYPE once, every
 * sample, the samples without labels summed.
 *
 * Prints "ok NAME" or "FAIL NAME: why" per check; exits 1 on any failure.
 */
#include <stdio.h>
#include <string.h>

#include "supervise.h"
#include "testlib.h"

static int fails;

/* count() - how many times @w is in @s */
static int count(const char *s, const char *w)
{
	int n = 0;

	for (s = strstr(s, w); s; s = strstr(s + 1, w))
		n++;
	return n;
}

int main(void)
{
	static struct xc_sup s;
	const char *docs[3] = {
		"{\"cables\":{\"b\":{\"queues\":1},\"d\":{\"queues\":1}},"
		"\"trunks\":{\"wire\":{\"port\":\"net_af_packet0\",\"counters\":{\"rx-pkts\":3}}},"
		"\"removed\":[{\"name\":\"x\"}],\"removed-total\":2}\n",
		NULL,
		"{\"cables\":{\"a\":{\"queues\":1},\"c\":{\"queues\":2}},"
		"\"trunks\":{\"wire2\":{\"counters\":{\"rx-pkts\":5}}},"
		"\"vxlan\":{\"[::]:4789\":{\"local\":\"[::]:4789\"}},"
		"\"interfaces\":{\"va\":{\"counters\":{\"kernel-drops\":0}}},"
		"\"removed\":[],\"removed-total\":1}\n",
	};
	const char *prom[2] = {
		"# HELP xcable_direction_rx_pkts_total frames received\n"
		"# TYPE xcable_direction_rx_pkts_total counter\n"
		"xcable_direction_rx_pkts_total{cable=\"a\",from=\"left\",to=\"right\"} 1\n"
		"# HELP xcable_cables cables running now\n"
		"# TYPE xcable_cables gauge\n"
		"xcable_cables 2\n",
		"# HELP xcable_direction_rx_pkts_total frames received\n"
		"# TYPE xcable_direction_rx_pkts_total counter\n"
		"xcable_direction_rx_pkts_total{cable=\"c\",from=\"left\",to=\"right\"} 7\n"
		"# HELP xcable_trunk_rx_pkts_total frames from the trunk\n"
		"# TYPE xcable_trunk_rx_pkts_total counter\n"
		"xcable_trunk_rx_pkts_total{trunk=\"wire\"} 3\n"
		"# HELP xcable_cables cables running now\n"
		"# TYPE xcable_cables gauge\n"
		"xcable_cables 3\n",
	};
	const char *names = "abcd";
	struct xc_sbuf out = { 0 };
	const char *o;
	unsigned int i;

	s.n_cables = 4;
	for (i = 0; i < 4; i++)
		snprintf(s.cables[i].def.name, sizeof(s.cables[i].def.name),
			 "%c", names[i]);
	CHECK("json: merged", xc_sup_json_merge(&s, docs, 3, &out) == 0);
	o = xc_sbuf_str(&out);
	CHECK("json: the cables in config order",
	      strstr(o, "{\"cables\":{\"a\":{\"queues\":1},\"b\":{\"queues\":1},\"c\":{\"queues\":2},\"d\":{\"queues\":1}}"));
	CHECK("json: the trunks of both workers, in one object",
	      count(o, "\"trunks\"") == 1 && strstr(o, "\"wire\":{") &&
	      strstr(o, "\"wire2\":{"));
	CHECK("json: a group one worker has (tunnels, interfaces), once",
	      count(o, "\"vxlan\"") == 1 && count(o, "\"interfaces\"") == 1 &&
	      strstr(o, "\"[::]:4789\":{\"local\""));
	CHECK("json: removed end to end, total summed",
	      strstr(o, "\"removed\":[{\"name\":\"x\"}],\"removed-total\":3}"));
	xc_sbuf_free(&out);

	CHECK("metrics: merged", xc_sup_metrics_merge(prom, 2, &out) == 0);
	o = xc_sbuf_str(&out);
	CHECK("metrics: each family's HELP and TYPE once",
	      count(o, "# HELP xcable_direction_rx_pkts_total") == 1 &&
	      count(o, "# TYPE xcable_direction_rx_pkts_total") == 1 &&
	      count(o, "# HELP xcable_cables") == 1 &&
	      count(o, "# HELP xcable_trunk_rx_pkts_total") == 1);
	CHECK("metrics: every worker's samples, under their family",
	      strstr(o, "counter\nxcable_direction_rx_pkts_total{cable=\"a\",from=\"left\",to=\"right\"} 1\nxcable_direction_rx_pkts_total{cable=\"c\",from=\"left\",to=\"right\"} 7\n") &&
	      strstr(o, "xcable_trunk_rx_pkts_total{trunk=\"wire\"} 3\n"));
	CHECK("metrics: a sample without labels is the workers' sum",
	      strstr(o, "\nxcable_cables 5\n") && count(o, "\nxcable_cables ") == 1);
	xc_sbuf_free(&out);
	return fails ? 1 : 0;
}
