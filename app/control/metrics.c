/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * metrics.c - every counter of every cable and hub in the Prometheus text
 *	       exposition format (xcablectl metrics, --metrics-file)
 *
 * Generated from the counter tables (stats.c, and each hub kind's), so a
 * counter added to a table is a metric at once. One family per counter:
 *
 *   xcable_direction_COUNTER_total{cable, from, to}   each direction
 *   xcable_HUB_COUNTER_total{HUB}                      each hub (a trunk,
 *                                                      the tunnel socket,
 *                                                      an interface's)
 *   xcable_end_up{cable, end, kind}                    1 if frames may go
 *                                                      to the end now
 *                                                      (kind: the end's,
 *                                                      socket, trunk...)
 *   xcable_cables, xcable_removed_cables_total
 *
 * where COUNTER is the table's name with '_' for '-' ("rx-pkts":
 * xcable_direction_rx_pkts_total), and the HELP line its meaning. A
 * family's samples follow its HELP and TYPE lines, as the format wants.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "dir.h"
#include "endkind.h"
#include "metrics.h"

/**
 * metric_name() - "xcable_PREFIX_NAME_total", '_' for '-' and '.'
 * @buf:	filled
 * @len:	size of @buf
 * @prefix:	"direction", or a hub's telemetry key
 * @name:	the counter's name in its table
 */
static void metric_name(char *buf, size_t len, const char *prefix,
			const char *name)
{
	char *c;

	snprintf(buf, len, "xcable_%s_%s_total", prefix, name);
	for (c = buf; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '_'))
			*c = '_';
}

/**
 * label_value() - a label's value as the format quotes it: '\\', '"' and
 *		   newlines escaped
 * @buf:	filled
 * @len:	size of @buf
 * @v:		the value
 */
static void label_value(char *buf, size_t len, const char *v)
{
	size_t n = 0;

	for (; *v && n + 3 < len; v++) {
		if (*v == '\\' || *v == '"') {
			buf[n++] = '\\';
			buf[n++] = *v;
		} else if (*v == '\n') {
			buf[n++] = '\\';
			buf[n++] = 'n';
		} else {
			buf[n++] = *v;
		}
	}
	buf[n] = '\0';
}

/**
 * family() - a family's HELP and TYPE lines
 * @out:	appended to
 * @name:	the metric's name
 * @help:	what it counts
 * @type:	"counter" or "gauge"
 */
static void family(struct xc_sbuf *out, const char *name, const char *help,
		   const char *type)
{
	xc_sbuf_printf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name,
		       type);
}

/**
 * dir_families() - one family per counter of a direction, a sample per
 *		    shown cable and direction
 * @cables:	cable slots
 * @n:		how many
 * @out:	appended to
 */
static void dir_families(const struct xc_cable *cables, unsigned int n,
			 struct xc_sbuf *out)
{
	const struct xc_counter_table *t = &xc_dir_counters;
	char name[128], cv[2 * XC_NAME_MAX], fv[128], tv[128];
	struct xc_dir_stats s;
	unsigned int k, i, j;

	for (k = 0; k < t->n; k++) {
		metric_name(name, sizeof(name), "direction", t->c[k].name);
		family(out, name, t->c[k].meaning, "counter");
		for (i = 0; i < n; i++) {
			if (!xc_cable_shown(&cables[i]))
				continue;
			label_value(cv, sizeof(cv), cables[i].name);
			for (j = 0; j < 2; j++) {
				xc_cable_stats(&cables[i], j, &s);
				label_value(fv, sizeof(fv),
					    cables[i].dir[j].rx->label);
				label_value(tv, sizeof(tv),
					    cables[i].dir[j].tx->label);
				xc_sbuf_printf(out, "%s{cable=\"%s\",from=\"%s\",to=\"%s\"} %" PRIu64 "\n",
					       name, cv, fv, tv,
					       xc_counter_value(&t->c[k], &s));
			}
		}
	}
}

/**
 * hub_families() - one family per counter of each kind of hub, a sample
 *		    per hub
 * @hub:	the hubs, each once
 * @n:		how many
 * @out:	appended to
 */
static void hub_families(const struct xc_hub *const *hub, unsigned int n,
			 struct xc_sbuf *out)
{
	uint64_t st[XC_HUB_STATS_MAX];
	char name[128], hv[256];
	unsigned int i, k, c;

	for (i = 0; i < n; i++) {
		const struct xc_hub_ops *ops = hub[i]->ops;

		for (k = 0; k < i && hub[k]->ops != ops; k++)
			;
		if (k < i)
			continue;	/* its kind's families were written */
		for (c = 0; c < ops->counters->n; c++) {
			metric_name(name, sizeof(name), ops->tel,
				    ops->counters->c[c].name);
			family(out, name, ops->counters->c[c].meaning,
			       "counter");
			for (k = i; k < n; k++) {
				if (hub[k]->ops != ops)
					continue;
				ops->snapshot(hub[k], st);
				label_value(hv, sizeof(hv), ops->name(hub[k]));
				xc_sbuf_printf(out, "%s{%s=\"%s\"} %" PRIu64 "\n",
					       name, ops->tel, hv,
					       xc_counter_value(&ops->counters->c[c],
								st));
			}
		}
	}
}

/**
 * xc_metrics_text() - the metrics of the shown cables, their hubs and
 *		       the cables removed, in the text exposition format
 * @cables:	cable slots
 * @n:		how many
 * @gone:	the cables removed at runtime, or NULL
 * @out:	appended to (check its failed flag)
 */
void xc_metrics_text(const struct xc_cable *cables, unsigned int n,
		     const struct xc_gone_list *gone, struct xc_sbuf *out)
{
	const struct xc_hub *hub[2 * XC_MAX_CABLES];
	char cv[2 * XC_NAME_MAX], ev[128];
	unsigned int i, j, shown = 0, nh;

	dir_families(cables, n, out);
	nh = xc_hubs_of(cables, n, NULL, hub, RTE_DIM(hub));
	hub_families(hub, nh, out);
	family(out, "xcable_end_up",
	       "1 while frames may be sent to the end (its link is up)",
	       "gauge");
	for (i = 0; i < n; i++) {
		if (!xc_cable_shown(&cables[i]))
			continue;
		shown++;
		label_value(cv, sizeof(cv), cables[i].name);
		for (j = 0; j < 2; j++) {
			const struct xc_end *e = &cables[i].end[j];

			label_value(ev, sizeof(ev), e->label);
			xc_sbuf_printf(out, "xcable_end_up{cable=\"%s\",end=\"%s\",kind=\"%s\"} %d\n",
				       cv, ev, e->kind ? e->kind->def->name :
				       e->ops->kind, xc_end_is_up(e));
		}
	}
	family(out, "xcable_cables", "cables running now", "gauge");
	xc_sbuf_printf(out, "xcable_cables %u\n", shown);
	family(out, "xcable_removed_cables_total",
	       "cables removed or replaced at runtime since start", "counter");
	xc_sbuf_printf(out, "xcable_removed_cables_total %" PRIu64 "\n",
		       gone ? gone->n : 0);
}
