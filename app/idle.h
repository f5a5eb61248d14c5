/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * idle.h - adaptive polling: sleep until a guest kicks when there is no work
 */
#ifndef XC_IDLE_H
#define XC_IDLE_H

#include <stdbool.h>
#include <stdint.h>

#include "cable.h"

#define XC_IDLE_MAX_FDS		(2 * XC_MAX_CABLES)

/**
 * struct xc_idle_q - one receive queue watched while sleeping
 * @port:	port id
 * @vring:	vring index of the guest's Tx ring for that queue
 * @vid:	vhost device id the kick fd belongs to, -1 if none
 * @kickfd:	the guest's kick eventfd being watched, -1 if none
 */
struct xc_idle_q {
	uint16_t port;
	uint16_t vring;
	int vid;
	int kickfd;
};

/**
 * struct xc_idle - sleeping state of one lcore
 * @epfd:	epoll set: the wake eventfd and the kick fds of @q
 * @wakefd:	eventfd written to cut a sleep short (link events, quit)
 * @n_q:	number of watched queues
 * @q:		watched queues
 * @sleeps:	times the lcore went to sleep (for the curious)
 */
struct xc_idle {
	int epfd;
	int wakefd;
	unsigned int n_q;
	struct xc_idle_q q[XC_IDLE_MAX_FDS];
	uint64_t sleeps;
};

int xc_idle_init(struct xc_idle *s);
int xc_idle_watch(struct xc_idle *s, const struct xc_dir *d);
void xc_idle_arm(struct xc_idle *s);
void xc_idle_wait(struct xc_idle *s, int timeout_ms);
void xc_idle_wake(const struct xc_idle *s);
void xc_idle_fini(struct xc_idle *s);

#endif /* XC_IDLE_H */
