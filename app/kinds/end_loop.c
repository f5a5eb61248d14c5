/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * end_loop.c - the loop kind of cable end: a loopback plug
 *		(left-loop = yes): every frame sent to the end comes back
 *		out of it, unchanged, as from a loopback connector in a
 *		NIC's port; a guest alone on a cable meets its own frames
 *
 * Theory of operation: the end is a ring (rte_ring, one producer, one
 * consumer) of the frames sent to it, which its receive gives back. The
 * two directions of its cable may be on two lcores: the ring is their only
 * meeting point. A full ring takes no more: the direction towards the
 * plug holds its frames and stops taking the guest's, as with any slow
 * receiver (nothing is dropped). An idle lcore sleeps on an eventfd the
 * plug's send writes when the ring was found empty and nobody had said
 * so yet; the receive that empties the ring reads it back, then looks
 * once more, so that a frame put in between is never left unsaid. The
 * data path makes a system call only at those edges.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_ring.h>

#include "endkind.h"
#include "log.h"
#include "topology.h"

extern int xc_logtype_loop;
RTE_LOG_REGISTER(xc_logtype_loop, xcable.loop, INFO);

#define LOOP_RING	1024	/* frames the plug holds */

/**
 * struct loop - a loopback plug (the end's @priv)
 * @ring:	the frames sent to it, in order
 * @efd:	readable while the ring may hold frames (an lcore sleeps on
 *		it)
 * @said:	@efd was written and not read back since (the two lcores;
 *		atomic)
 * @where:	"loopback plug", for people
 */
struct loop {
	struct rte_ring *ring;
	int efd;
	uint32_t said;
	char where[32];
};

/* plug() - an end's plug */
static inline struct loop *plug(const struct xc_end *e)
{
	return e->priv;
}

/**
 * say() - make the plug's eventfd readable, unless it is
 * @l:		the plug
 */
static void say(struct loop *l)
{
	uint64_t one = 1;

	if (!__atomic_exchange_n(&l->said, 1, __ATOMIC_ACQ_REL) &&
	    write(l->efd, &one, sizeof(one)) < 0)
		__atomic_store_n(&l->said, 0, __ATOMIC_RELEASE);
}

/**
 * loop_rx() - end op: the frames sent to the plug, back
 * @e:		the end
 * @q:		queue (a plug has one)
 * @pkts:	filled
 * @n:		room
 *
 * Return: frames given
 */
static uint16_t loop_rx(struct xc_end *e, uint16_t q, struct rte_mbuf **pkts,
			uint16_t n)
{
	struct loop *l = plug(e);
	uint64_t v;
	unsigned int got;

	(void)q;
	got = rte_ring_sc_dequeue_burst(l->ring, (void **)pkts, n, NULL);
	if (got < n && __atomic_load_n(&l->said, __ATOMIC_ACQUIRE)) {
		/* empty: not readable any more, then look again */
		if (read(l->efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
			return (uint16_t)got;
		__atomic_store_n(&l->said, 0, __ATOMIC_RELEASE);
		if (!rte_ring_empty(l->ring))
			say(l);
	}
	return (uint16_t)got;
}

/**
 * loop_tx() - end op: take frames, to give them back
 * @e:		the end
 * @q:		queue
 * @pkts:	frames
 * @n:		how many
 * @drop:	unused: the plug drops nothing
 *
 * Return: frames taken (the rest wait, while the ring is full)
 */
static uint16_t loop_tx(struct xc_end *e, uint16_t q, struct rte_mbuf **pkts,
			uint16_t n, uint64_t *drop)
{
	struct loop *l = plug(e);
	unsigned int took;

	(void)q;
	(void)drop;
	took = rte_ring_sp_enqueue_burst(l->ring, (void **)pkts, n, NULL);
	if (took && !__atomic_load_n(&l->said, __ATOMIC_ACQUIRE))
		say(l);
	return (uint16_t)took;
}

/* loop_caps() - end op: the plug takes any frame, offloads included: its
 * way back adapts it to the guest it returns to */
static uint64_t loop_caps(const struct xc_end *e)
{
	(void)e;
	return xc_caps_pack(XC_CAP_CSUM | XC_CAP_TSO4 | XC_CAP_TSO6, 65535);
}

/* loop_queued() - end op: do frames wait in the plug? */
static bool loop_queued(const struct xc_end *e)
{
	return !rte_ring_empty(plug(e)->ring);
}

/* loop_is_up() - end op: a plug is always plugged in */
static bool loop_is_up(const struct xc_end *e)
{
	(void)e;
	return true;
}

/* loop_where() - end op: what people know the end by */
static const char *loop_where(const struct xc_end *e)
{
	return plug(e)->where;
}

/**
 * loop_describe() - end op: the plug's facts
 * @e:		the end
 * @fn:		called once per fact
 * @arg:	its argument
 */
static void loop_describe(const struct xc_end *e, xc_kv_fn fn, void *arg)
{
	fn(arg, "kind", "loop", 0);
	fn(arg, "link", "up", 0);
	fn(arg, "frames_waiting", NULL, rte_ring_count(plug(e)->ring));
}

/* loop_wait_fd() - end op: readable while frames may wait */
static int loop_wait_fd(const struct xc_end *e)
{
	return plug(e)->efd;
}

static const struct xc_end_ops loop_ops = {
	.kind = "loop",
	.rx = loop_rx,
	.tx = loop_tx,
	.caps = loop_caps,
	.queued = loop_queued,
	.is_up = loop_is_up,
	.where = loop_where,
	.describe = loop_describe,
	.wait_fd = loop_wait_fd,
};

/**
 * loop_free() - free the plug, and the frames waiting in it: the
 *		 direction that sent them counted them sent (the plug took
 *		 them), the way back never received them; the cable goes
 * @t:		topology
 * @e:		the end
 */
static void loop_free(struct xc_topo *t, struct xc_end *e)
{
	struct loop *l = plug(e);
	struct rte_mbuf *m[32];
	unsigned int n, held = 0;

	(void)t;
	if (l == NULL)
		return;
	while (l->ring &&
	       (n = rte_ring_dequeue_burst(l->ring, (void **)m, 32, NULL))) {
		rte_pktmbuf_free_bulk(m, n);
		held += n;
	}
	if (held)
		XC_LOG(loop, INFO, "%s: %s: the loopback plug held %u frame(s) when it went: dropped",
		       e->cable->name, e->label, held);
	rte_ring_free(l->ring);
	if (l->efd >= 0)
		close(l->efd);
	rte_free(l);
	e->priv = NULL;
}

/**
 * loop_make() - make a loopback plug: its ring and eventfd
 * @t:		topology
 * @c:		cable
 * @j:		which end
 * @e:		the end's definition
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 or -ENOMEM, -errno
 */
static int loop_make(struct xc_topo *t, struct xc_cable *c, unsigned int j,
		     const struct xc_end_def *e, char *err, size_t errlen)
{
	struct xc_end *end = &c->end[j];
	char name[RTE_RING_NAMESIZE];
	struct loop *l;

	(void)e;
	l = rte_zmalloc("xc_loop", sizeof(*l), 0);
	if (l == NULL) {
		snprintf(err, errlen, "cable %s: no memory for a loopback plug",
			 c->name);
		return -ENOMEM;
	}
	end->priv = l;
	end->ops = &loop_ops;
	end->port = NULL;
	snprintf(l->where, sizeof(l->where), "loopback plug");
	l->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	snprintf(name, sizeof(name), "xc_loop_%p", (void *)l);
	l->ring = rte_ring_create(name, LOOP_RING, SOCKET_ID_ANY,
				  RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (l->efd < 0 || l->ring == NULL) {
		snprintf(err, errlen, "cable %s: %s: cannot make a loopback plug: %s",
			 c->name, end->label, l->efd < 0 ? strerror(errno) :
			 rte_strerror(rte_errno));
		loop_free(t, end);
		return -ENOMEM;
	}
	return 0;
}

const struct xc_end_kind xc_kind_loop = {
	.def = &xc_kind_def_loop,
	.make = loop_make,
	.free = loop_free,
};
