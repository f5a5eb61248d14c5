/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * capture.h - frames crossing a cable captured by dpdk-dumpcap (rte_pdump)
 */
#ifndef XC_CAPTURE_H
#define XC_CAPTURE_H

#include <stdbool.h>

#include "cable.h"

bool xc_capture_init(const struct xc_cable *cables, unsigned int n_cables);
void xc_capture_fini(bool on);

#endif /* XC_CAPTURE_H */
