/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pull.h - pulling a cable out and plugging it back in, one end or both,
 *	    now or on a flap schedule; link propagation
 */
#ifndef XC_PULL_H
#define XC_PULL_H

#include <stdbool.h>
#include <stddef.h>

#include "cable.h"
#include "pullspec.h"

/* how long an end must stay down before its far end's carrier follows */
#define XC_PROP_DEBOUNCE_MS	300
/* how often an end gone down is looked at meanwhile */
#define XC_PROP_LOOK_MS		100
/* xc_pull_housekeeping(): nothing to do at any particular time */
#define XC_PULL_IDLE		((unsigned int)-1)

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

unsigned int xc_pull_housekeeping(struct xc_pull_env *env);
int xc_pull_check(const struct xc_cable *c, const struct xc_carrier_cfg *cc,
		  char *err, size_t errlen);
void xc_pull_set_carrier(struct xc_cable *c, const struct xc_carrier_cfg *cc);
void xc_flap_read(const struct xc_cable *c, struct xc_flap *f);
void xc_flap_text(const struct xc_cable *c, char *buf, size_t len);
struct xc_json;
void xc_flap_json(const struct xc_cable *c, struct xc_json *j);
const char *xc_pull_why_name(enum xc_pull_why why);

#endif /* XC_PULL_H */
