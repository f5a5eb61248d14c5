/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * idle.h - adaptive polling: sleep until a guest kicks when there is no work
 */
#ifndef XC_IDLE_H
#define XC_IDLE_H

#include <stdbool.h>
#include <stdint.h>

#include "cable.h"

struct xc_dir;

#define XC_IDLE_MAX_DIRS		(2 * XC_MAX_CABLES * XC_MAX_QUEUES)
#define XC_IDLE_MAX_FIXED		4	/* fds watched for good */

/**
 * struct xc_idle_q - a queue of a port whose peer's kicks can end a sleep
 * @p:		port with kicks, NULL if the port has none
 * @q:		queue
 * @room:	waits for room to send to the queue (the peer's buffers),
 *		else for frames to receive from it
 * @vid:	the port's generation of @kickfd (the vhost device id), -1
 * @kickfd:	the guest's kick eventfd being watched, -1 if none
 * @armed:	notifications were turned on for this sleep
 */
struct xc_idle_q {
	struct xc_port *p;
	uint16_t q;
	bool room;
	int vid;
	int kickfd;
	bool armed;
};

/**
 * struct xc_idle_dir - what a direction waits for while its lcore sleeps
 * @d:		the direction
 * @rx:		the sending guest's Tx ring: a kick means a new frame
 * @tx:		the receiving guest's Rx ring: a kick means new buffers,
 *		waited for while @d holds frames its peer did not take
 * @ownfd:	the receiving end's own fd (its wait_fd op: a netdev end's
 *		or a tunnel's socket), -1 if none
 */
struct xc_idle_dir {
	const struct xc_dir *d;
	struct xc_idle_q rx;
	struct xc_idle_q tx;
	int ownfd;
};

/**
 * struct xc_idle - sleeping state of one lcore
 * @epfd:	epoll set: the wake eventfd and the armed kick fds
 * @wakefd:	eventfd written to cut a sleep short (link events, quit)
 * @timerfd:	ends a sleep when a delayed frame is due (impairments)
 * @n_dirs:	number of watched directions
 * @dirs:	watched directions
 * @brief:	a guest armed last may leave work without a kick: the
 *		next sleep must be short
 * @sleeps:	times the lcore went to sleep
 * @fixed:	fds watched for good, for no direction (xc_idle_watch_fd():
 *		the main thread's guard set)
 * @n_fixed:	how many
 */
struct xc_idle {
	int epfd;
	int wakefd;
	int timerfd;
	int fixed[XC_IDLE_MAX_FIXED];
	unsigned int n_fixed;
	unsigned int n_dirs;
	struct xc_idle_dir dirs[XC_IDLE_MAX_DIRS];
	bool brief;
	uint64_t sleeps;
};

int xc_idle_init(struct xc_idle *s);
int xc_idle_watch(struct xc_idle *s, struct xc_dir *d);
void xc_idle_unwatch(struct xc_idle *s, const struct xc_dir *d);
void xc_idle_arm(struct xc_idle *s);
bool xc_idle_wait(struct xc_idle *s, int timeout_ms, uint64_t due_ns);
int xc_idle_watch_fd(struct xc_idle *s, int fd);
void xc_idle_wake(const struct xc_idle *s);
void xc_idle_fini(struct xc_idle *s);

#endif /* XC_IDLE_H */
