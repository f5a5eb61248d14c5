/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pull.h - pulling a cable out and plugging it back in; link propagation
 */
#ifndef XC_PULL_H
#define XC_PULL_H

#include <stdbool.h>

#include "cable.h"
#include "fwd.h"

/**
 * struct xc_pull_env - what the main thread needs to pull cables
 * @lcores:	per-lcore forwarding state, indexed by lcore id
 * @cables:	the cables
 * @n_cables:	how many
 * @propagate:	the carrier follows the far end (--no-link-propagation: no)
 */
struct xc_pull_env {
	struct xc_fwd_lcore *lcores;
	struct xc_cable *cables;
	unsigned int n_cables;
	bool propagate;
};

void xc_pull_housekeeping(struct xc_pull_env *env);

#endif /* XC_PULL_H */
