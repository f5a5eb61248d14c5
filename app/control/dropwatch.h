/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dropwatch.h - drops starting and stopping, as events: each cable's
 *		 drop counters looked at once a second while someone
 *		 listens (dropwatch.c)
 */
#ifndef XC_DROPWATCH_H
#define XC_DROPWATCH_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "bounds.h"
#include "cable.h"
#include "stats.h"

#define XC_DROPWATCH_MS	1000	/* counters looked at this often */

/**
 * struct xc_dropwatch_cable - what a cable's drops were at the last look
 * @name:	the cable in the slot then ("" for none)
 * @last:	each direction's drops by reason
 * @since:	each reason's drops since they started, 0 while it drops
 *		none
 */
struct xc_dropwatch_cable {
	char name[XC_NAME_MAX];
	uint64_t last[2][XC_DROP__MAX];
	uint64_t since[2][XC_DROP__MAX];
};

/**
 * struct xc_dropwatch - the drops of every cable slot (the stream thread's)
 * @next_ms:	when to look again (stream clock), 0 while nobody listens
 * @c:		each slot
 */
struct xc_dropwatch {
	uint64_t next_ms;
	struct xc_dropwatch_cable c[XC_MAX_CABLES];
};

uint64_t xc_dropwatch_tick(struct xc_dropwatch *w, struct xc_cable *cables,
			   unsigned int n, pthread_rwlock_t *lock,
			   bool listening);

#endif /* XC_DROPWATCH_H */
