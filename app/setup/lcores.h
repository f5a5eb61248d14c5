/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lcores.h - which lcore forwards which direction, and running them
 */
#ifndef XC_LCORES_H
#define XC_LCORES_H

#include <stdbool.h>
#include <stddef.h>

#include <rte_lcore.h>

#include "fwd.h"
#include "pull.h"
#include "topology.h"

/**
 * struct xc_lcores - the forwarding lcores (main thread, before launch)
 * @lc:		per-lcore work, indexed by lcore id
 * @quit:	set by the signal handler: every loop ends
 * @hk:		the main lcore's housekeeping; returns the milliseconds
 *		until it wants to run again (a main lcore that forwards
 *		runs it every @hk_ms)
 * @hk_arg:	its argument
 * @hk_ms:	its period in milliseconds while anything is going on
 * @hk_want:	a worker lcore's traffic wants housekeeping soon (see
 *		struct xc_fwd_lcore; cleared by the main thread; atomic)
 * @hk_fd:	an fd whose readiness the housekeeping handles (the guards'
 *		decoys): a main thread that does not forward sleeps on it
 *		too; -1 for none
 * @ready:	every enabled lcore's sleeping state exists
 * @main_fwd:	the main lcore forwards too (set at launch)
 */
struct xc_lcores {
	struct xc_fwd_lcore lc[RTE_MAX_LCORE];
	volatile bool quit;
	unsigned int (*hk)(void *arg);
	void *hk_arg;
	unsigned int hk_ms;
	uint32_t hk_want;
	int hk_fd;
	bool ready;
	bool main_fwd;
};

int xc_lcores_assign(struct xc_lcores *l, struct xc_topo *t, bool poll,
		     unsigned int idle_us, char *err, size_t errlen);
void xc_lcores_wire(struct xc_lcores *l, struct xc_topo *t,
		    struct xc_pull_env *pull);
void xc_lcores_run(struct xc_lcores *l);
void xc_lcores_wake(void *arg);
void xc_lcores_fini(struct xc_lcores *l);
int xc_lcores_add_cable(struct xc_lcores *l, struct xc_cable *c, int want,
			char *err, size_t errlen);
int xc_lcores_del_cable(struct xc_lcores *l, const struct xc_cable *c);

void xc_lcores_report(const struct xc_lcores *l);
void xc_lcores_mark(void *arg, uint64_t *mark);
bool xc_lcores_past(void *arg, const uint64_t *mark);

#endif /* XC_LCORES_H */
