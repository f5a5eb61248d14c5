/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * counters.h - the counters of every cable and hub: the exit/interval
 *		lines, and the JSON document of xcablectl and --stats-json
 */
#ifndef XC_COUNTERS_H
#define XC_COUNTERS_H

#include <stdbool.h>

#include "cable.h"
#include "json.h"
#include "sbuf.h"
#include "stats.h"

#define XC_GONE_KEEP		64	/* removed cables remembered */
#define XC_GONE_LABEL		(2 * RTE_ETH_NAME_MAX_LEN + 8)	/* a direction's */

/**
 * struct xc_gone - the last counters of a cable removed at runtime (or
 *		    replaced by a reload): what it carried until it went
 * @name:	its name
 * @label:	its directions' labels ("left->right", "right->left")
 * @st:		their counters, summed over queues, once what it held was
 *		dropped (counted as shutdown)
 * @when:	when it went, in seconds since the epoch
 */
struct xc_gone {
	char name[XC_NAME_MAX];
	char label[2][XC_GONE_LABEL];
	struct xc_dir_stats st[2];
	uint64_t when;
};

/**
 * struct xc_gone_list - the cables removed since start, the last
 *			 XC_GONE_KEEP of them with their counters (each was
 *			 also logged when it went); written by the main
 *			 thread holding reconf's lock for writing
 * @g:		ring of the last ones
 * @n:		cables removed in all (g[(n - 1) % XC_GONE_KEEP] is the last)
 */
struct xc_gone_list {
	struct xc_gone g[XC_GONE_KEEP];
	uint64_t n;
};

/**
 * struct xc_counters_out - where and when the counters go (main thread)
 * @interval_s:	seconds between counter prints, 0 for exit only
 * @json_path:	--stats-json: the JSON document's file, or NULL
 * @metrics_path: --metrics-file: the metrics' file, or NULL
 * @next_print:	TSC of the next print
 * @next_metrics: TSC of the next write of the metrics' file
 */
struct xc_counters_out {
	unsigned int interval_s;
	const char *json_path;
	const char *metrics_path;
	uint64_t next_print;
	uint64_t next_metrics;
};

#define XC_METRICS_FILE_S	10	/* the metrics file, without an interval */

void xc_counters_print(struct xc_cable *cables, unsigned int n_cables,
		       bool final, const char *json_path,
		       const struct xc_gone_list *gone);
unsigned int xc_counters_tick(struct xc_counters_out *co,
			      struct xc_cable *cables, unsigned int n_cables,
			      const struct xc_gone_list *gone, bool final);
void xc_counters_doc(struct xc_cable *cables, unsigned int n_cables,
		     const struct xc_cable *only,
		     const struct xc_gone_list *gone, struct xc_json *j);
void xc_counters_gone(const struct xc_gone *g, const char *how,
		      struct xc_sbuf *out);
unsigned int xc_hubs_of(const struct xc_cable *cables, unsigned int n_cables,
			const struct xc_cable *only, const struct xc_hub **out,
			unsigned int max);
void xc_hub_line(const struct xc_hub *h, char *buf, size_t len);
int xc_counters_write(struct xc_cable *cables, unsigned int n_cables,
		      const char *path, const struct xc_gone_list *gone);
int xc_file_replace(const char *path, const char *text, size_t len);

#endif /* XC_COUNTERS_H */
