/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * metrics.h - the counters in the Prometheus text exposition format
 */
#ifndef XC_METRICS_H
#define XC_METRICS_H

#include "cable.h"
#include "sbuf.h"

void xc_metrics_text(const struct xc_cable *cables, unsigned int n,
		     const struct xc_gone_list *gone, struct xc_sbuf *out);

#endif /* XC_METRICS_H */
