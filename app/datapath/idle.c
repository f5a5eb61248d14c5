/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * idle.c - adaptive polling: sleep on the guests' kicks when idle
 *
 * Theory of operation: under load an lcore busy-polls. Once none of its
 * directions has had work for a short while, it asks each guest to kick
 * when something changes that would let a direction move again
 * (rte_vhost_enable_guest_notification()): for a direction with nothing
 * held, the sending guest's Tx vring (a new frame); for a direction
 * holding frames its peer did not take, the receiving guest's Rx vring
 * (new buffers). It then polls once more, to close the race with a change
 * that happened just before, and sleeps in epoll_wait() on those kick
 * eventfds, like l3fwd-power does with Rx interrupts. A kick, a link or
 * queue event (through the wake eventfd) or a timeout ends the sleep; the
 * kicks are read and turned off again, and polling resumes. A guest
 * behind a vIOMMU can leave its rings stalled on an IOTLB miss, which
 * QEMU's answer resolves without a kick: the vhost port wakes the lcores
 * when an answer has come (the wake eventfd), or, should it be unable to
 * follow the guest's IOTLB messages, asks for sleeps of at most 1 ms.
 *
 * The kick fds are taken from the vhost library (rte_vhost_get_vhost_vring)
 * rather than through the vhost PMD's Rx interrupt proxy, because the PMD
 * never reads the eventfd and a level-triggered epoll on it would then
 * never sleep again; and the PMD has nothing for the Rx ring at all. The
 * kick fds change when a guest reconnects, so they are looked up again
 * before every sleep. A kernel-backed port (af_packet, af_xdp) gives its
 * driver's socket instead, and an end with a socket of its own (a VXLAN
 * tunnel) gives that (the wait_fd end op): readable while a frame waits,
 * it stays in the epoll set, level triggered, and is never read here (the
 * driver or the end's receive takes the frame); only an error on it is
 * cleared. Ports without either (NICs) are never waited on; the timeout
 * bounds how late their frames can be noticed. What is
 * vhost's own (the vhost library calls, made safe against a guest that
 * goes away mid-call) is the port kind's kick_fd op, in port_vhost.c.
 */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "dir.h"
#include "idle.h"
#include "log.h"

/* epoll data: the fd, and this bit for a socket (waited on, never read
 * here; an error on it is cleared) */
#define XC_IDLE_SOCK		(1ULL << 32)

/**
 * xc_idle_init() - create the epoll set and the wake eventfd
 * @s:		sleeping state to initialise
 *
 * Return: 0 on success, -errno on failure
 */
int xc_idle_init(struct xc_idle *s)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = 0 };

	memset(s, 0, sizeof(*s));
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	s->wakefd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	s->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (s->epfd < 0 || s->wakefd < 0 || s->timerfd < 0)
		goto fail;
	ev.data.u64 = (uint32_t)s->wakefd;
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->wakefd, &ev) < 0)
		goto fail;
	ev.data.u64 = (uint32_t)s->timerfd;
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->timerfd, &ev) < 0)
		goto fail;
	return 0;
fail:
	xc_idle_fini(s);
	return -errno;
}

/**
 * watch_sock() - wait on an fd in every sleep, level triggered (the waker
 *		  must take what makes it readable)
 * @s:		sleeping state
 * @fd:		the fd, -1 for none; several directions may give one fd
 *
 * Return: 0, or -errno
 */
static int watch_sock(struct xc_idle *s, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN };

	if (fd < 0)
		return 0;
	ev.data.u64 = XC_IDLE_SOCK | (uint32_t)fd;
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/**
 * xc_idle_watch_fd() - wait on an fd in every sleep, for good, for no
 *			direction: the main thread's guard set
 * @s:		sleeping state
 * @fd:		the fd, -1 for none
 *
 * Return: 0, -ENOSPC if XC_IDLE_MAX_FIXED are watched, or -errno
 */
int xc_idle_watch_fd(struct xc_idle *s, int fd)
{
	int rc;

	if (fd < 0)
		return 0;
	if (s->n_fixed == XC_IDLE_MAX_FIXED)
		return -ENOSPC;
	rc = watch_sock(s, fd);
	if (rc == 0)
		s->fixed[s->n_fixed++] = fd;
	return rc;
}

/**
 * xc_idle_watch() - let a direction's guests end the lcore's sleeps
 * @s:		sleeping state
 * @d:		direction; only ports with kicks (guests) and ends with an
 *		fd of their own are watched
 *
 * Return: 0 on success, -ENOSPC if full, or -errno from epoll
 */
int xc_idle_watch(struct xc_idle *s, struct xc_dir *d)
{
	struct xc_idle_dir *w;

	if (s->n_dirs == XC_IDLE_MAX_DIRS)
		return -ENOSPC;
	w = &s->dirs[s->n_dirs++];
	w->d = d;
	w->rx = (struct xc_idle_q){ .p = d->rx->port,
		.q = d->rxq, .room = false,	/* a frame from the peer */
		.vid = -1, .kickfd = -1 };
	w->tx = (struct xc_idle_q){ .p = d->tx->port,
		.q = d->txq, .room = true,	/* room at the peer */
		.vid = -1, .kickfd = -1 };
	if (d->rx->port == NULL || !xc_port_kicks(d->rx->port))
		w->rx.p = NULL;
	if (d->tx->port == NULL || !xc_port_kicks(d->tx->port))
		w->tx.p = NULL;
	w->ownfd = d->rx->ops->wait_fd ? d->rx->ops->wait_fd(d->rx) : -1;
	return watch_sock(s, w->ownfd);
}

/**
 * drop_fd() - take an fd out of the epoll set, unless something watched
 *	       still waits on it: a queue's kick fd (the members of a trunk
 *	       share its port's socket: deleting one must not deafen the
 *	       others), a direction's own fd, or a fixed one (a number a
 *	       closed fd had may be another fd's now)
 * @s:		sleeping state, the fd no longer listed where it was
 * @fd:		the fd, -1 for none
 */
static void drop_fd(struct xc_idle *s, int fd)
{
	unsigned int i;

	if (fd < 0)
		return;
	for (i = 0; i < s->n_dirs; i++)
		if (s->dirs[i].rx.kickfd == fd || s->dirs[i].tx.kickfd == fd ||
		    s->dirs[i].ownfd == fd)
			return;
	for (i = 0; i < s->n_fixed; i++)
		if (s->fixed[i] == fd)
			return;
	epoll_ctl(s->epfd, EPOLL_CTL_DEL, fd, NULL);
}

/**
 * unfollow() - stop watching a queue's kick fd (drop_fd())
 * @s:		sleeping state
 * @q:		the queue; its @kickfd is -1 after
 */
static void unfollow(struct xc_idle *s, struct xc_idle_q *q)
{
	int fd = q->kickfd;

	q->kickfd = -1;
	drop_fd(s, fd);
}

/**
 * xc_idle_unwatch() - stop watching a direction's kicks and own fd (the
 *		       lcore drops it: its cable is removed, or moves to
 *		       another lcore with its end's socket)
 * @s:		sleeping state, not armed
 * @d:		the direction
 */
void xc_idle_unwatch(struct xc_idle *s, const struct xc_dir *d)
{
	unsigned int i;
	int own;

	for (i = 0; i < s->n_dirs; i++) {
		struct xc_idle_dir *w = &s->dirs[i];

		if (w->d != d)
			continue;
		own = w->ownfd;
		w->ownfd = -1;
		unfollow(s, &w->rx);
		unfollow(s, &w->tx);
		drop_fd(s, own);
		*w = s->dirs[--s->n_dirs];
		return;
	}
}

/**
 * follow() - watch a queue's current kick fd in the epoll set
 * @s:		sleeping state
 * @q:		vring
 * @fd:		its kick fd now, -1 if none
 * @gen:	the port's generation of that fd (a guest that reconnects
 *		may get the same fd number for a new eventfd)
 */
static void follow(struct xc_idle *s, struct xc_idle_q *q, int fd, int gen)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct stat st;

	if (gen == q->vid && fd == q->kickfd)
		return;
	unfollow(s, q);
	q->vid = gen;
	if (fd < 0)
		return;
	ev.data.u64 = (uint32_t)fd;
	if (fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode))
		ev.data.u64 |= XC_IDLE_SOCK;
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev) == 0 ||
	    errno == EEXIST)
		q->kickfd = fd;
}

/**
 * arm() - turn on a guest's kicks for one queue
 * @s:		sleeping state
 * @q:		vring
 */
static void arm(struct xc_idle *s, struct xc_idle_q *q)
{
	int fd = -1, gen = -1, rc;

	if (q->p == NULL)
		return;
	rc = q->p->ops->kick_fd(q->p, q->q, q->room, true, &fd, &gen);
	if (rc >= 0)
		q->armed = true;
	s->brief |= rc > 0;
	follow(s, q, fd, gen);
}

/**
 * disarm() - turn a guest's kicks off again
 * @q:		vring
 */
static void disarm(struct xc_idle_q *q)
{
	int fd, gen;

	/* a guest that went away took its vrings with it */
	if (q->armed)
		q->p->ops->kick_fd(q->p, q->q, q->room, false, &fd, &gen);
	q->armed = false;
}

/**
 * xc_idle_arm() - ask the guests to kick when a direction could move:
 *		   a new frame, or new buffers where frames are held
 * @s:		sleeping state
 *
 * The caller must poll its queues once more after this, before sleeping,
 * and sleep briefly if @s->brief is set after it.
 */
void xc_idle_arm(struct xc_idle *s)
{
	unsigned int i;

	s->brief = false;
	for (i = 0; i < s->n_dirs; i++) {
		struct xc_idle_dir *w = &s->dirs[i];

		if (w->d->hold_n)
			arm(s, &w->tx);
		else
			arm(s, &w->rx);
	}
}

/**
 * xc_idle_wait() - sleep until a kick, a wake-up, a delayed frame's time or
 *		    the timeout, then turn kicks off again
 * @s:		sleeping state, armed
 * @timeout_ms:	longest sleep
 * @due_ns:	nanoseconds until a delayed frame is due, 0 if none
 *
 * Return: true if something ended the sleep, false if it timed out
 */
bool xc_idle_wait(struct xc_idle *s, int timeout_ms, uint64_t due_ns)
{
	struct epoll_event ev[2 * XC_IDLE_MAX_DIRS + 2];
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };
	unsigned int i;
	socklen_t len = sizeof(int);
	uint64_t v;
	int n, k, fd;

	s->sleeps += timeout_ms > 0;
	if (due_ns) {
		its.it_value.tv_sec = (time_t)(due_ns / 1000000000);
		its.it_value.tv_nsec = (long)(due_ns % 1000000000);
		timerfd_settime(s->timerfd, 0, &its, NULL);
	}
	n = epoll_wait(s->epfd, ev, 2 * XC_IDLE_MAX_DIRS + 2, timeout_ms);
	if (due_ns) {	/* disarm, whatever ended the sleep */
		its.it_value.tv_sec = 0;
		its.it_value.tv_nsec = 0;
		timerfd_settime(s->timerfd, 0, &its, NULL);
	}
	for (k = 0; k < n; k++) {
		fd = (int)(uint32_t)ev[k].data.u64;
		if (ev[k].data.u64 & XC_IDLE_SOCK) {
			/* an error (the interface went down) stays reported
			 * until taken */
			if (ev[k].events & EPOLLERR)
				getsockopt(fd, SOL_SOCKET, SO_ERROR, &v, &len);
		} else if (read(fd, &v, sizeof(v)) < 0 && errno != EAGAIN) {
			XC_LOG(fwd, DEBUG, "reading fd %d: %s", fd,
			       strerror(errno));
		}
	}
	for (i = 0; i < s->n_dirs; i++) {
		disarm(&s->dirs[i].rx);
		disarm(&s->dirs[i].tx);
	}
	return n > 0;
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
	if (s->timerfd >= 0)
		close(s->timerfd);
	s->epfd = s->wakefd = s->timerfd = -1;
}
