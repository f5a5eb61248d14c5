/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pull.h - pulling a cable out and plugging it back in; link propagation
 */
#ifndef XC_PULL_H
#define XC_PULL_H

#include <stdbool.h>

#include "cable.h"

/* how long an end must stay down before its far end's carrier follows */
#define XC_PROP_DEBOUNCE_MS	300

/**
 * struct xc_pull_env - what the main thread needs to pull cables
 * @pause:	stop every lcore from touching a cable's ports (set the
 *		cable's @paused and wait for them); 0 or -ETIMEDOUT
 * @pause_arg:	its argument
 * @cables:	the cables
 * @n_cables:	how many
 * @propagate:	the carrier follows the far end (--no-link-propagation: no)
 */
struct xc_pull_env {
	int (*pause)(void *arg, struct xc_cable *c);
	void *pause_arg;
	struct xc_cable *cables;
	unsigned int n_cables;
	bool propagate;
};

bool xc_pull_housekeeping(struct xc_pull_env *env);

#endif /* XC_PULL_H */
