/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mbstack.c - the cable pools' mempool driver: free mbufs on a stack, last
 *	       in first out, with a small cache for each forwarding lcore
 *
 * Theory of operation: a pool's free mbufs are kept on a stack under a
 * spinlock, as DPDK's "stack" driver keeps them, so that the mbufs handed
 * out are those freed last, still in the CPU's caches (pool.c). What that
 * driver costs is a lock per call, and the vhost PMD frees every frame it
 * sent alone: a lock per frame. DPDK's answer, its per-lcore mempool
 * cache, comes sized for RTE_MAX_LCORE lcores, 1.5 MB a pool. Here a pool
 * has one small cache (XC_MBSTACK_CACHE mbufs, 1 KB) for each lcore of
 * the process, used only by a thread that runs the forwarding loop and
 * said so (xc_mbstack_attach()): it takes from and gives to its own cache
 * without a lock, and meets the stack, under the lock, once in half a
 * cache. The cache is a stack too: what was freed last is taken first.
 * Every other thread (the main thread growing or shrinking a pool, a
 * control thread) goes to the stack.
 *
 * What an lcore's cache holds counts as in use: the pool's free count
 * (get_count, so rte_mempool_avail_count()) is the stack's alone. What a
 * direction computes from it (dir.c's rx_budget()) it surely finds, and a
 * pool is idle (pool.c shrinks it) or free of frames (topology.c frees a
 * retired one) only when every mbuf is back on the stack. So an lcore
 * gives back what it keeps: all of it before it sleeps, when it lets
 * directions go (a cable being deleted: its pools are freed at once) and
 * when it stops, and, while it is busy, what it kept of a pool it has not used since the
 * sweep before (xc_mbstack_sweep(), every XC_MBSTACK_SWEEP_MS), so that an
 * idle cable on a busy lcore still shrinks. Each lcore lists the caches
 * it may hold mbufs in (at most XC_MBSTACK_LISTED: beyond that, a pool
 * goes uncached on that lcore until a sweep makes room), and a listed
 * cache keeps its pool from being freed (xc_mbstack_cached()): a sweep
 * only touches pools that are still there.
 *
 * The driver is registered after the EAL's init, so last in DPDK's table
 * of drivers (xc_mbstack_register()): a secondary process (dpdk-dumpcap)
 * registers DPDK's own drivers in the same order as xcable, and finds the
 * drivers of its own pools, which xcable fills, at the same index.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_per_lcore.h>
#include <rte_spinlock.h>

#include "mbstack.h"

/* caches an lcore lists at most */
#define XC_MBSTACK_LISTED	512

/**
 * struct xc_mbcache - one lcore's cache of one pool
 * @len:	mbufs in @objs (its lcore)
 * @used:	taken from or given to since the last sweep (its lcore)
 * @listed:	in its lcore's list (its lcore writes; the main thread reads,
 *		xc_mbstack_cached())
 * @objs:	the mbufs, the last freed on top
 */
struct xc_mbcache {
	uint32_t len;
	uint8_t used;
	uint8_t listed;
	void *objs[XC_MBSTACK_CACHE];
} __rte_cache_aligned;

/**
 * struct xc_mbstack - a pool's free mbufs: its pool_data
 * @lock:	guards @objs and the writes of @len
 * @len:	mbufs on the stack (any thread, under @lock; read without it
 *		by get_count and xc_mbstack_avail())
 * @n_caches:	caches lcores may use: 0 until the pool is filled, then
 *		@n_lcores (the main thread, in xc_mbstack_open(), before
 *		any lcore is given the pool)
 * @n_lcores:	caches, one per lcore index (the creating thread, mb_alloc())
 * @cache:	the caches, after @objs (the creating thread); cache i is
 *		written only by the lcore of index i
 * @objs:	the stack, as deep as the pool is large (under @lock)
 */
struct xc_mbstack {
	rte_spinlock_t lock;
	uint32_t len;
	unsigned int n_caches;
	unsigned int n_lcores;
	struct xc_mbcache *cache;
	void *objs[];
};

/**
 * struct xc_mblcore - a forwarding lcore's part: which cache of each pool
 *		       is its, and the caches it may hold mbufs in; only its
 *		       own thread reads or writes it
 * @idx:	its lcore index
 * @n:		caches listed
 * @list:	those caches, with their stacks
 */
struct xc_mblcore {
	unsigned int idx;
	unsigned int n;
	struct {
		struct xc_mbstack *s;
		struct xc_mbcache *c;
	} list[XC_MBSTACK_LISTED];
};

/* the calling thread's part; NULL for a thread that takes no cache */
static RTE_DEFINE_PER_LCORE(struct xc_mblcore *, xc_mb_me);
/* the driver's index in DPDK's table, -1 before it is registered */
static int xc_mb_ops = -1;

/**
 * push() - put mbufs on the stack, @a below @b
 * @s:		stack
 * @a:		mbufs
 * @na:		how many
 * @b:		more mbufs, the last freed, or NULL
 * @nb:		how many
 */
static void push(struct xc_mbstack *s, void *const *a, unsigned int na,
		 void *const *b, unsigned int nb)
{
	rte_spinlock_lock(&s->lock);
	memcpy(&s->objs[s->len], a, na * sizeof(*a));
	if (nb)
		memcpy(&s->objs[s->len + na], b, nb * sizeof(*b));
	__atomic_store_n(&s->len, s->len + na + nb, __ATOMIC_RELAXED);
	rte_spinlock_unlock(&s->lock);
}

/**
 * pop_locked() - take the top @n mbufs of the stack, the top one first
 * @s:		stack, locked
 * @top:	its depth (s->len, or more if mbufs were just put on it)
 * @objs:	filled
 * @n:		how many, at most @top
 */
static void pop_locked(struct xc_mbstack *s, unsigned int top, void **objs,
		       unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		objs[i] = s->objs[--top];
	__atomic_store_n(&s->len, top, __ATOMIC_RELAXED);
}

/**
 * pop() - take @n mbufs off the stack, all or none
 * @s:		stack
 * @objs:	filled
 * @n:		how many
 *
 * Return: 0, or -ENOBUFS if it holds fewer
 */
static int pop(struct xc_mbstack *s, void **objs, unsigned int n)
{
	int rc = -ENOBUFS;

	rte_spinlock_lock(&s->lock);
	if (s->len >= n) {
		pop_locked(s, s->len, objs, n);
		rc = 0;
	}
	rte_spinlock_unlock(&s->lock);
	return rc;
}

/**
 * my_cache() - the calling thread's cache of a pool, listed
 * @s:		the pool's stack
 *
 * Return: the cache, or NULL if the thread takes none (not a forwarding
 *	   lcore, an lcore that came after the pool, or a full list)
 */
static inline struct xc_mbcache *my_cache(struct xc_mbstack *s)
{
	struct xc_mblcore *me = RTE_PER_LCORE(xc_mb_me);
	struct xc_mbcache *c;

	if (me == NULL || me->idx >= s->n_caches)
		return NULL;
	c = &s->cache[me->idx];
	if (likely(c->listed))
		return c;
	if (me->n == XC_MBSTACK_LISTED)
		return NULL;
	me->list[me->n].s = s;
	me->list[me->n++].c = c;
	__atomic_store_n(&c->listed, 1, __ATOMIC_RELEASE);
	return c;
}

/**
 * mb_enqueue() - the driver's enqueue: free mbufs to the caller's cache,
 *		  or to the stack
 * @mp:		pool
 * @objs:	mbufs
 * @n:		how many
 *
 * Return: 0
 */
static int mb_enqueue(struct rte_mempool *mp, void *const *objs,
		      unsigned int n)
{
	struct xc_mbstack *s = mp->pool_data;
	struct xc_mbcache *c = my_cache(s);
	unsigned int k;

	if (c == NULL) {
		push(s, objs, n, NULL, 0);
		return 0;
	}
	c->used = 1;
	if (unlikely(n > XC_MBSTACK_CACHE / 2)) {
		/* a bulk free: all to the stack, the older ones first */
		push(s, c->objs, c->len, objs, n);
		c->len = 0;
		return 0;
	}
	if (c->len + n > XC_MBSTACK_CACHE) {
		/* the cache keeps the last freed, the older go to the stack */
		k = c->len + n - XC_MBSTACK_CACHE / 2;
		push(s, c->objs, k, NULL, 0);
		memmove(c->objs, c->objs + k, (c->len - k) * sizeof(void *));
		c->len -= k;
	}
	memcpy(&c->objs[c->len], objs, n * sizeof(void *));
	c->len += n;
	return 0;
}

/**
 * mb_dequeue() - the driver's dequeue: take mbufs from the caller's cache,
 *		  filled from the stack, or from the stack; all or none
 * @mp:		pool
 * @objs:	filled
 * @n:		how many
 *
 * Return: 0, or -ENOBUFS if there are fewer
 */
static int mb_dequeue(struct rte_mempool *mp, void **objs, unsigned int n)
{
	struct xc_mbstack *s = mp->pool_data;
	struct xc_mbcache *c = my_cache(s);
	unsigned int i, k;

	if (c == NULL)
		return pop(s, objs, n);
	c->used = 1;
	if (unlikely(n > XC_MBSTACK_CACHE / 2)) {
		/* a bulk take: the cache's on top of the stack, then all
		 * from the stack, the last freed first */
		rte_spinlock_lock(&s->lock);
		if (s->len + c->len < n) {
			rte_spinlock_unlock(&s->lock);
			return -ENOBUFS;
		}
		memcpy(&s->objs[s->len], c->objs, c->len * sizeof(void *));
		pop_locked(s, s->len + c->len, objs, n);
		c->len = 0;
		rte_spinlock_unlock(&s->lock);
		return 0;
	}
	if (c->len < n) {
		/* refill: what is missing and half a cache more, the top of
		 * the stack on top of the cache */
		rte_spinlock_lock(&s->lock);
		if (s->len < n - c->len) {
			rte_spinlock_unlock(&s->lock);
			return -ENOBUFS;
		}
		k = RTE_MIN(n - c->len + XC_MBSTACK_CACHE / 2, s->len);
		memcpy(&c->objs[c->len], &s->objs[s->len - k],
		       k * sizeof(void *));
		__atomic_store_n(&s->len, s->len - k, __ATOMIC_RELAXED);
		rte_spinlock_unlock(&s->lock);
		c->len += k;
	}
	for (i = 0; i < n; i++)
		objs[i] = c->objs[--c->len];
	return 0;
}

/**
 * mb_count() - the driver's get_count: mbufs on the stack (those in the
 *		lcores' caches count as in use)
 * @mp:		pool
 *
 * Return: the count
 */
static unsigned int mb_count(const struct rte_mempool *mp)
{
	const struct xc_mbstack *s = mp->pool_data;

	return __atomic_load_n(&s->len, __ATOMIC_RELAXED);
}

/**
 * mb_alloc() - the driver's alloc: a stack as deep as the pool, and a
 *		cache for each lcore
 * @mp:		pool
 *
 * Return: 0 or -ENOMEM
 */
static int mb_alloc(struct rte_mempool *mp)
{
	unsigned int nc = rte_lcore_count();
	size_t head = RTE_ALIGN_CEIL(sizeof(struct xc_mbstack) +
				     (size_t)mp->size * sizeof(void *),
				     RTE_CACHE_LINE_SIZE);
	struct xc_mbstack *s;

	s = rte_zmalloc_socket(mp->name, head + nc * sizeof(struct xc_mbcache),
			       RTE_CACHE_LINE_SIZE, mp->socket_id);
	if (s == NULL)
		return -ENOMEM;
	rte_spinlock_init(&s->lock);
	s->n_lcores = nc;
	s->cache = RTE_PTR_ADD(s, head);
	mp->pool_data = s;
	return 0;
}

/**
 * mb_free() - the driver's free
 * @mp:		pool, whose caches no lcore lists (xc_mbstack_cached())
 */
static void mb_free(struct rte_mempool *mp)
{
	rte_free(mp->pool_data);
}

/**
 * xc_mbstack_register() - add the driver to DPDK's table, once, after the
 *			   EAL's init (main thread)
 *
 * Return: 0, or -errno from rte_mempool_register_ops() (a full table)
 */
int xc_mbstack_register(void)
{
	static const struct rte_mempool_ops ops = {
		.name = XC_MBSTACK_OPS,
		.alloc = mb_alloc,
		.free = mb_free,
		.enqueue = mb_enqueue,
		.dequeue = mb_dequeue,
		.get_count = mb_count,
	};
	int rc;

	if (xc_mb_ops >= 0)
		return 0;
	rc = rte_mempool_register_ops(&ops);
	if (rc < 0)
		return rc;
	xc_mb_ops = rc;
	return 0;
}

/**
 * xc_mbstack_attach() - give the calling lcore a cache in every pool of
 *			 the driver (a forwarding lcore, as it starts)
 *
 * Return: 0, -EINVAL if the thread is no EAL lcore, or -ENOMEM
 */
int xc_mbstack_attach(void)
{
	int idx = rte_lcore_index(-1);
	struct xc_mblcore *me;

	if (idx < 0)
		return -EINVAL;
	if (RTE_PER_LCORE(xc_mb_me) != NULL)
		return 0;
	me = calloc(1, sizeof(*me));
	if (me == NULL)
		return -ENOMEM;
	me->idx = (unsigned int)idx;
	RTE_PER_LCORE(xc_mb_me) = me;
	return 0;
}

/**
 * xc_mbstack_sweep() - give back what the calling lcore keeps in its
 *			caches: of the pools it has not used since the last
 *			sweep, or, with @all, of every pool
 * @all:	everything (before a sleep)
 */
void xc_mbstack_sweep(bool all)
{
	struct xc_mblcore *me = RTE_PER_LCORE(xc_mb_me);
	unsigned int i = 0;

	if (me == NULL)
		return;
	while (i < me->n) {
		struct xc_mbstack *s = me->list[i].s;
		struct xc_mbcache *c = me->list[i].c;

		if (!all && c->used) {
			c->used = 0;
			i++;
			continue;
		}
		if (c->len)
			push(s, c->objs, c->len, NULL, 0);
		c->len = 0;
		c->used = 0;
		/* the last this lcore touches of the pool */
		__atomic_store_n(&c->listed, 0, __ATOMIC_RELEASE);
		me->list[i] = me->list[--me->n];
	}
}

/**
 * xc_mbstack_detach() - give everything back and take no more caches (a
 *			 forwarding lcore, as it stops)
 */
void xc_mbstack_detach(void)
{
	xc_mbstack_sweep(true);
	free(RTE_PER_LCORE(xc_mb_me));
	RTE_PER_LCORE(xc_mb_me) = NULL;
}

/**
 * xc_mbstack_open() - let forwarding lcores cache a pool's mbufs, once
 *		       it is filled (main thread, before any lcore sees the
 *		       pool): until then every mbuf goes on the stack, even
 *		       from a thread with caches
 * @mp:		pool of this driver
 */
void xc_mbstack_open(struct rte_mempool *mp)
{
	struct xc_mbstack *s = mp->pool_data;

	if (mp->ops_index == xc_mb_ops)
		s->n_caches = s->n_lcores;
}

/**
 * xc_mbstack_give() - put mbufs on a pool's stack, past every cache (the
 *		       main thread, growing a pool)
 * @mp:		pool, of this driver or another (then to its driver)
 * @objs:	mbufs
 * @n:		how many
 */
void xc_mbstack_give(struct rte_mempool *mp, void *const *objs,
		     unsigned int n)
{
	if (mp->ops_index == xc_mb_ops)
		push(mp->pool_data, objs, n, NULL, 0);
	else
		rte_mempool_ops_enqueue_bulk(mp, objs, n);
}

/**
 * xc_mbstack_take() - take mbufs off a pool's stack, past every cache (the
 *		       main thread, shrinking a pool); all or none
 * @mp:		pool, of this driver or another (then from its driver)
 * @objs:	filled
 * @n:		how many
 *
 * Return: 0, or -ENOBUFS if there are fewer
 */
int xc_mbstack_take(struct rte_mempool *mp, void **objs, unsigned int n)
{
	if (mp->ops_index == xc_mb_ops)
		return pop(mp->pool_data, objs, n);
	return rte_mempool_ops_dequeue_bulk(mp, objs, n) < 0 ? -ENOBUFS : 0;
}

/**
 * xc_mbstack_avail() - free mbufs the calling thread can take from a pool
 *			now: those on its stack and, on a forwarding lcore,
 *			in the lcore's own cache (what other lcores' caches
 *			hold is theirs)
 * @mp:		pool, of this driver or another (then its free count)
 *
 * Return: the count
 */
unsigned int xc_mbstack_avail(struct rte_mempool *mp)
{
	struct xc_mblcore *me = RTE_PER_LCORE(xc_mb_me);
	struct xc_mbstack *s = mp->pool_data;
	unsigned int n;

	if (mp->ops_index != xc_mb_ops)
		return rte_mempool_avail_count(mp);
	n = __atomic_load_n(&s->len, __ATOMIC_RELAXED);
	if (me != NULL && me->idx < s->n_caches)
		n += s->cache[me->idx].len;
	return n;
}

/**
 * xc_mbstack_cached() - may an lcore still hold a pool's mbufs in its
 *			 cache, or touch the cache? (main thread: a pool is
 *			 freed only once no lcore does)
 * @mp:		pool
 *
 * Return: true if an lcore lists one of the pool's caches
 */
bool xc_mbstack_cached(const struct rte_mempool *mp)
{
	const struct xc_mbstack *s = mp->pool_data;
	unsigned int i;

	if (mp->ops_index != xc_mb_ops)
		return false;
	for (i = 0; i < s->n_lcores; i++)
		if (__atomic_load_n(&s->cache[i].listed, __ATOMIC_ACQUIRE))
			return true;
	return false;
}
