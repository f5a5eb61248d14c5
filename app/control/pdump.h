/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pdump.h - frames crossing a cable captured by dpdk-dumpcap (rte_pdump)
 */
#ifndef XC_PDUMP_H
#define XC_PDUMP_H

#include <stdbool.h>

#include "cable.h"

bool xc_pdump_init(const struct xc_cable *cables, unsigned int n_cables);
void xc_pdump_fini(bool on);

#endif /* XC_PDUMP_H */
