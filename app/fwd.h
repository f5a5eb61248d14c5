/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwd.h - the forwarding loop
 */
#ifndef XC_FWD_H
#define XC_FWD_H

#include <stdbool.h>
#include <stdint.h>

#include "cable.h"
#include "idle.h"

#define XC_MAX_DIRS_PER_LCORE	(2 * XC_MAX_CABLES * XC_MAX_QUEUES)

/**
 * struct xc_fwd_lcore - what one lcore forwards
 * @quit:	set by the main thread to stop the loop
 * @dirs:	directions this lcore owns
 * @n_dirs:	number of @dirs
 * @hk:		housekeeping to run every @hk_period TSC cycles, or NULL
 * @hk_arg:	argument of @hk
 * @hk_period:	cycles between two housekeeping runs
 * @adaptive:	sleep when idle (false: --poll, busy-poll always)
 * @idle_cycles: TSC cycles without work before sleeping
 * @max_sleep_ms: longest sleep, so that ports without kicks are still seen
 * @idle:	sleeping state
 * @epoch:	loop iterations, so that another thread can tell when this
 *		lcore has passed a poll boundary (atomic)
 */
struct xc_fwd_lcore {
	const volatile bool *quit;
	struct xc_dir *dirs[XC_MAX_DIRS_PER_LCORE];
	unsigned int n_dirs;
	void (*hk)(void *arg);
	void *hk_arg;
	uint64_t hk_period;
	bool adaptive;
	uint64_t idle_cycles;
	int max_sleep_ms;
	struct xc_idle idle;
	uint64_t epoch;
};

/**
 * struct xc_burst - the frames of one round of a direction, on their way
 *		     from receive to transmit (the stages' work, see fwd.c)
 * @pkts:	the frames, in order
 * @n:		how many
 * @room:	size of @pkts: a stage may add frames up to it
 */
struct xc_burst {
	struct rte_mbuf **pkts;
	uint16_t n;
	uint16_t room;
};

void xc_dir_build(struct xc_dir *d);
unsigned int xc_dir_poll(struct xc_dir *d);
void xc_dir_flush(struct xc_dir *d, enum xc_drop why);
void xc_dir_drain(struct xc_dir *d, unsigned int max);
int xc_fwd_loop(void *arg);

#endif /* XC_FWD_H */
