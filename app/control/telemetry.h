/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * telemetry.h - the /xcable commands of dpdk-telemetry.py
 */
#ifndef XC_TELEMETRY_H
#define XC_TELEMETRY_H

#include <pthread.h>

#include "cable.h"

int xc_telemetry_init(struct xc_cable *cables, unsigned int n_cables);
void xc_telemetry_lock(pthread_rwlock_t *lock);

#endif /* XC_TELEMETRY_H */
