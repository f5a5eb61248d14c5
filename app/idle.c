/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * idle.c - adaptive polling: sleep on the guests' kicks when idle
 *
 * Theory of operation: under load an lcore busy-polls. Once none of its
 * directions has had work for a short while, it asks each guest to kick
 * when it queues a new frame (rte_vhost_enable_guest_notification() on the
 * guest's Tx vring), polls once more to close the race with a frame that
 * arrived just before, and then sleeps in epoll_wait() on the guests' kick
 * eventfds, like l3fwd-power does with Rx interrupts. A kick, a link or
 * queue event (through the wake eventfd) or a timeout ends the sleep; the
 * kicks are read and turned off again, and polling resumes.
 *
 * The kick fds are taken from the vhost library (rte_vhost_get_vhost_vring)
 * rather than through the vhost PMD's Rx interrupt proxy, because the PMD
 * never reads the eventfd and a level-triggered epoll on it would then
 * never sleep again. They change when a guest reconnects, so they are
 * looked up again before every sleep. Ports that are not vhost are never
 * waited on; the timeout bounds how late their frames can be noticed.
 */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_eth_vhost.h>
#include <rte_vhost.h>

#include "idle.h"
#include "log.h"

/**
 * xc_idle_init() - create the epoll set and the wake eventfd
 * @s:		sleeping state to initialise
 *
 * Return: 0 on success, -errno on failure
 */
int xc_idle_init(struct xc_idle *s)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = -1 };

	memset(s, 0, sizeof(*s));
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	s->wakefd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (s->epfd < 0 || s->wakefd < 0)
		goto fail;
	ev.data.fd = s->wakefd;
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->wakefd, &ev) < 0)
		goto fail;
	return 0;
fail:
	xc_idle_fini(s);
	return -errno;
}

/**
 * xc_idle_watch() - watch the receive queue of a direction while sleeping
 * @s:		sleeping state
 * @d:		direction; only vhost receive ports can be watched
 *
 * Return: 0 on success (or nothing to watch), -ENOSPC if full
 */
int xc_idle_watch(struct xc_idle *s, const struct xc_dir *d)
{
	struct xc_idle_q *q;

	if (!d->rx->is_vhost)
		return 0;
	if (s->n_q == XC_IDLE_MAX_FDS)
		return -ENOSPC;
	q = &s->q[s->n_q++];
	q->port = d->rx->id;
	q->vring = (uint16_t)(d->rxq * 2 + 1);	/* the guest's Tx ring */
	q->vid = -1;
	q->kickfd = -1;
	return 0;
}

/**
 * refresh() - follow a queue's current vhost device and kick fd
 * @s:		sleeping state
 * @q:		queue
 */
static void refresh(struct xc_idle *s, struct xc_idle_q *q)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct rte_vhost_vring vr;
	int vid = rte_eth_vhost_get_vid_from_port_id(q->port);
	int fd = -1;

	if (vid >= 0 && rte_vhost_get_vhost_vring(vid, q->vring, &vr) == 0)
		fd = vr.kickfd;
	if (vid == q->vid && fd == q->kickfd)
		return;
	if (q->kickfd >= 0)
		epoll_ctl(s->epfd, EPOLL_CTL_DEL, q->kickfd, NULL);
	q->vid = vid;
	q->kickfd = -1;
	if (fd < 0)
		return;
	ev.data.fd = fd;
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev) == 0 ||
	    errno == EEXIST)
		q->kickfd = fd;
}

/**
 * xc_idle_arm() - ask every watched guest to kick on its next frame
 * @s:		sleeping state
 *
 * The caller must poll its queues once more after this, before sleeping.
 */
void xc_idle_arm(struct xc_idle *s)
{
	unsigned int i;

	for (i = 0; i < s->n_q; i++) {
		refresh(s, &s->q[i]);
		if (s->q[i].vid >= 0)
			rte_vhost_enable_guest_notification(s->q[i].vid,
							    s->q[i].vring, 1);
	}
}

/**
 * xc_idle_wait() - sleep until a kick, a wake-up or the timeout, then turn
 *		    kicks off again
 * @s:		sleeping state, armed
 * @timeout_ms:	longest sleep
 */
void xc_idle_wait(struct xc_idle *s, int timeout_ms)
{
	struct epoll_event ev[XC_IDLE_MAX_FDS + 1];
	unsigned int i;
	uint64_t v;
	int n, k;

	s->sleeps++;
	n = epoll_wait(s->epfd, ev, XC_IDLE_MAX_FDS + 1, timeout_ms);
	for (k = 0; k < n; k++)
		if (read(ev[k].data.fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
			XC_LOG(fwd, DEBUG, "reading fd %d: %s", ev[k].data.fd,
			       strerror(errno));
	for (i = 0; i < s->n_q; i++)
		if (s->q[i].vid >= 0)
			rte_vhost_enable_guest_notification(s->q[i].vid,
							    s->q[i].vring, 0);
}

/**
 * xc_idle_wake() - cut a sleep short; safe from any thread
 * @s:		sleeping state
 */
void xc_idle_wake(const struct xc_idle *s)
{
	uint64_t one = 1;

	if (s->wakefd >= 0 && write(s->wakefd, &one, sizeof(one)) < 0)
		return;
}

/**
 * xc_idle_fini() - close the epoll set and the wake eventfd
 * @s:		sleeping state
 */
void xc_idle_fini(struct xc_idle *s)
{
	if (s->epfd >= 0)
		close(s->epfd);
	if (s->wakefd >= 0)
		close(s->wakefd);
	s->epfd = s->wakefd = -1;
}
