/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwd.h - the forwarding loop of an lcore and the directions it owns
 */
#ifndef XC_FWD_H
#define XC_FWD_H

#include <stdbool.h>
#include <stdint.h>

#include "dir.h"
#include "idle.h"

#define XC_MAX_DIRS_PER_LCORE	(2 * XC_MAX_CABLES * XC_MAX_QUEUES)

/**
 * struct xc_fwd_lcore - what one lcore forwards
 * @quit:	set by the main thread to stop the loop
 * @dirs:	directions this lcore owns
 * @n_dirs:	number of @dirs
 * @hk:		housekeeping to run every @hk_period TSC cycles, or sooner
 *		when what it returns (the milliseconds until it wants to
 *		run again) says so, or NULL
 * @hk_arg:	argument of @hk
 * @hk_period:	cycles between two housekeeping runs
 * @hk_want:	for a worker lcore: set when its traffic may need the main
 *		thread's housekeeping soon (a full burst, frames waiting
 *		for mbufs), which it then wakes through @hk_wake; NULL on
 *		the main lcore (set at wiring; written by every lcore,
 *		cleared by the main thread before a long sleep; atomic)
 * @hk_wake:	the main lcore's sleeping state, for @hk_want
 * @adaptive:	sleep when idle (false: --poll, busy-poll always)
 * @idle_cycles: TSC cycles without work before sleeping
 * @max_sleep_ms: longest sleep, so that ports without kicks are still seen
 * @idle:	sleeping state
 * @epoch:	loop iterations, so that another thread can tell when this
 *		lcore has passed a poll boundary (atomic)
 * @next:	the directions the lcore is to own from now on, published
 *		by the main thread at runtime (cables added or removed)
 * @n_next:	number of @next
 * @gen:	generation of @next: the main thread increments it after
 *		writing @next (atomic)
 * @seen:	the generation the lcore took over, at a poll boundary; the
 *		main thread waits for it before it frees what was dropped
 *		or publishes again (atomic)
 */
struct xc_fwd_lcore {
	const volatile bool *quit;
	struct xc_dir *dirs[XC_MAX_DIRS_PER_LCORE];
	unsigned int n_dirs;
	unsigned int (*hk)(void *arg);
	void *hk_arg;
	uint64_t hk_period;
	uint32_t *hk_want;
	const struct xc_idle *hk_wake;
	bool adaptive;
	uint64_t idle_cycles;
	int max_sleep_ms;
	struct xc_idle idle;
	uint64_t epoch;
	struct xc_dir *next[XC_MAX_DIRS_PER_LCORE];
	unsigned int n_next;
	uint32_t gen;
	uint32_t seen;
};

int xc_fwd_loop(void *arg);
void xc_fwd_adopt(struct xc_fwd_lcore *lc);

#endif /* XC_FWD_H */
