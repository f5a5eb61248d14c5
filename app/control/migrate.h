/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * migrate.h - a cable end's guest moving to another QEMU, on this host or
 *	       another: xcablectl migrate
 */
#ifndef XC_MIGRATE_H
#define XC_MIGRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reconf.h"

/* how long the slot stays open unless --within says otherwise, and at
 * most (seconds) */
#define XC_MIG_WITHIN_S		60
#define XC_MIG_WITHIN_MAX_S	3600
/* how long frames towards a moving guest wait, at most, from the source's
 * stop: QEMU's downtime (300 ms by default) and the time its destination
 * takes to start, with room to spare */
#define XC_MIG_HOLD_MS		3000

/**
 * struct xc_mig_slot - one cable's move as the main thread runs it (the
 *			part others see is the cable's struct xc_mig)
 * @src:	the source's port (its guest's, until the move is over)
 * @twin:	the standby port the destination's frontend reaches, NULL
 *		for a move to another host
 * @was:	the end's definition before the move
 * @to:		its definition once the destination is the end (the same
 *		but for the socket, or the tunnel to the other host)
 * @remote:	it moves to another host
 * @aside:	to another host: the end is the tunnel already, the
 *		source's port kept aside (its guest may come back)
 * @within_s:	the slot's time, seconds
 * @hold_until:	TSC until which frames towards the end wait
 * @next_scan:	TSC of the next count of the standby's frontends
 * @frontends:	that count, last time
 * @drops0:	drops of the directions towards the end when the source
 *		stopped (this form of the cable)
 * @dropped:	drops counted in forms of the cable that are gone
 * @rx0:	to another host: frames received from the tunnel when the
 *		end became it
 */
struct xc_mig_slot {
	struct xc_port *src;
	struct xc_port *twin;
	struct xc_end_def was;
	struct xc_end_def to;
	bool remote;
	bool aside;
	unsigned int within_s;
	uint64_t hold_until;
	uint64_t next_scan;
	int frontends;
	uint64_t drops0;
	uint64_t dropped;
	uint64_t rx0;
};

/**
 * struct xc_migrate - the moves of every cable (main thread)
 * @r:		runtime changes: the cables' definitions, their lock, and
 *		changes of one end (to another host)
 * @slot:	each cable slot's move
 */
struct xc_migrate {
	struct xc_reconf *r;
	struct xc_mig_slot slot[XC_MAX_CABLES];
};

void xc_migrate_init(struct xc_migrate *m, struct xc_reconf *r);
unsigned int xc_migrate_housekeeping(struct xc_migrate *m);

#endif /* XC_MIGRATE_H */
