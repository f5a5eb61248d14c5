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
int xc_counters_write(struct xc_cable *cables, unsigned int n_cables,
		      const char *path, const struct xc_gone_list *gone);
int xc_file_replace(const char *path, const char *text, size_t len);

#endif /* XC_COUNTERS_H */
