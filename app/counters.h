/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * counters.h - the counters of every cable and trunk: the exit/interval
 *		lines, and the JSON document of xcablectl and --stats-json
 */
#ifndef XC_COUNTERS_H
#define XC_COUNTERS_H

#include <stdbool.h>

#include "cable.h"
#include "json.h"
#include "stats.h"
#include "trunk.h"
#include "vxlan.h"

void xc_counters_print(struct xc_cable *cables, unsigned int n_cables,
		       bool final, const char *json_path);
void xc_counters_doc(struct xc_cable *cables, unsigned int n_cables,
		     const struct xc_cable *only, struct xc_json *j);
void xc_counters_trunk_stats(const struct xc_trunk *t,
			     struct xc_trunk_stats *s);
const struct xc_vxlan *xc_counters_vxlan(const struct xc_cable *cables,
					 unsigned int n_cables,
					 const struct xc_cable *only);
int xc_counters_write(struct xc_cable *cables, unsigned int n_cables,
		      const char *path);

#endif /* XC_COUNTERS_H */
