/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_mbstack.c - unit tests of the cable pools' mempool driver
 *		    (app/model/mbstack.c) on cable pools (app/model/pool.c),
 *		    in one process, two lcores on one CPU, no hugepages
 *
 * Checked from outside, through DPDK's mbuf calls as the vhost PMD makes
 * them and through the pool's free count: the mbuf freed last is the next
 * one handed out, with an lcore cache and without; what an lcore's cache
 * holds counts as in use, to every other thread, until a sweep gives it
 * back (the unused caches'
 * on a plain sweep, everything before a sleep), and a pool whose cache
 * an lcore lists says so (it must not be freed); a take larger than what
 * is free fails whole and loses nothing; bulk frees and takes, and frees
 * past a full cache, lose and double nothing; an lcore that lists its
 * most caches keeps no more (the next pool's mbufs go straight back);
 * two lcores taking and freeing at once while the main thread takes and
 * gives on the stack (as it grows and shrinks pools) end with every mbuf
 * back, each once; growing a pool puts its new mbufs where every lcore
 * finds them.
 *
 * Prints "ok NAME" or "FAIL NAME: why" per check; exits 1 on any failure.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "mbstack.h"
#include "pool.h"
#include "unitlib.h"

#define N_MBUFS		1024	/* each pool of the tests */

static int fails;

/* avail() - the free count of a pool, as DPDK and xcable read it */
static unsigned int avail(const struct xc_pool *p)
{
	return rte_mempool_avail_count(p->mp);
}

/**
 * all_back() - take every mbuf of a pool off its stack and check that
 *		each is there once, then give them back
 * @p:		pool, with no mbuf out or cached
 *
 * Return: true if all p->n are there, each once
 */
static bool all_back(struct xc_pool *p)
{
	void **objs = calloc(p->n, sizeof(*objs));
	unsigned int i, j;
	bool ok = objs != NULL && avail(p) == p->n &&
		  xc_mbstack_take(p->mp, objs, p->n) == 0;

	for (i = 0; ok && i < p->n; i++)
		for (j = i + 1; ok && j < p->n; j++)
			ok = objs[i] != objs[j];
	if (objs != NULL && avail(p) == 0)
		xc_mbstack_give(p->mp, objs, p->n);
	free(objs);
	return ok;
}

/* last_freed_first() - the mbuf freed last comes back first */
static void last_freed_first(struct xc_pool *p, const char *name)
{
	struct rte_mbuf *a = rte_pktmbuf_alloc(p->mp);
	struct rte_mbuf *b = rte_pktmbuf_alloc(p->mp);
	struct rte_mbuf *c = rte_pktmbuf_alloc(p->mp), *m;

	rte_pktmbuf_free(b);
	rte_pktmbuf_free(c);
	rte_pktmbuf_free(a);
	m = rte_pktmbuf_alloc(p->mp);
	CHECK(name, a != NULL && b != NULL && c != NULL && m == a);
	rte_pktmbuf_free(m);
}

/* test_uncached() - a thread that is no forwarding lcore: no cache */
static void test_uncached(struct xc_pool *p)
{
	struct rte_mbuf *m[40];

	last_freed_first(p, "uncached: the mbuf freed last comes first");
	CHECK("uncached: the free count is exact",
	      rte_pktmbuf_alloc_bulk(p->mp, m, 40) == 0 &&
	      avail(p) == p->n - 40);
	rte_pktmbuf_free_bulk(m, 40);
	CHECK("uncached: freed mbufs are free at once",
	      avail(p) == p->n && !xc_mbstack_cached(p->mp) &&
	      xc_mbstack_avail(p->mp) == p->n);
}

/* test_cached() - the main lcore attached: its cache and sweeps */
static void test_cached(struct xc_pool *p)
{
	struct rte_mbuf *m[200], *one;
	unsigned int i, n;

	CHECK("attach", xc_mbstack_attach() == 0);
	last_freed_first(p, "cached: the mbuf freed last comes first");
	one = rte_pktmbuf_alloc(p->mp);
	n = avail(p);
	CHECK("cached: the cache counts as in use",
	      one != NULL && n < p->n - 1 && n >= p->n - 1 - XC_MBSTACK_CACHE);
	CHECK("cached: but is free to its own lcore",
	      xc_mbstack_avail(p->mp) == p->n - 1);
	rte_pktmbuf_free(one);
	CHECK("cached: a freed mbuf stays in the cache, the pool says so",
	      avail(p) == n && xc_mbstack_cached(p->mp));
	xc_mbstack_sweep(false);
	CHECK("cached: a sweep keeps a cache used since the last one",
	      avail(p) == n && xc_mbstack_cached(p->mp));
	xc_mbstack_sweep(false);
	CHECK("cached: the next sweep gives the unused cache back",
	      avail(p) == p->n && !xc_mbstack_cached(p->mp));

	/* singly, past a full cache: its older half goes to the stack */
	for (i = 0; i < 200; i++)
		m[i] = rte_pktmbuf_alloc(p->mp);
	for (i = 0; i < 200; i++)
		rte_pktmbuf_free(m[i]);
	one = rte_pktmbuf_alloc(p->mp);
	CHECK("cached: freed past a full cache, the last freed comes first",
	      one == m[199]);
	rte_pktmbuf_free(one);
	xc_mbstack_sweep(true);
	CHECK("cached: everything back after a full sweep, each mbuf once",
	      !xc_mbstack_cached(p->mp) && all_back(p));

	/* in bulk, larger than half a cache */
	CHECK("cached: a bulk take of 200",
	      rte_pktmbuf_alloc_bulk(p->mp, m, 200) == 0);
	rte_pktmbuf_free_bulk(m, 200);
	xc_mbstack_sweep(true);
	CHECK("cached: bulk frees lose and double nothing", all_back(p));

	/* more than is free: fails whole, with mbufs in the cache; leave
	 * 10 on the stack, 5 taken into the cache and freed back to it */
	{
		void **rest = calloc(p->n, sizeof(*rest));
		bool taken = rest != NULL &&
			     xc_mbstack_take(p->mp, rest, p->n - 10) == 0;

		for (i = 0; i < 5; i++)
			m[i] = rte_pktmbuf_alloc(p->mp);
		rte_pktmbuf_free_bulk(m, 5);
		CHECK("cached: a take beyond what is free fails whole",
		      taken && rte_mempool_get_bulk(p->mp, (void **)m, 11) != 0);
		CHECK("cached: then what is free is still there",
		      rte_mempool_get_bulk(p->mp, (void **)m, 10) == 0);
		rte_mempool_put_bulk(p->mp, (void **)m, 10);
		if (taken)
			xc_mbstack_give(p->mp, rest, p->n - 10);
		free(rest);
	}
	xc_mbstack_sweep(true);
	CHECK("cached: the failed take lost nothing", all_back(p));
}

/**
 * test_listed_cap() - an lcore lists a bounded number of caches; a pool
 *		       beyond them goes uncached
 */
static void test_listed_cap(void)
{
	static struct xc_pool many[520];
	struct rte_mbuf *m;
	unsigned int i, cached = 0, made = 0;
	char name[32];

	for (i = 0; i < RTE_DIM(many); i++) {
		snprintf(name, sizeof(name), "t_many%u", i);
		if (xc_pool_create(&many[i], name, 4, 8, 0, SOCKET_ID_ANY))
			break;
		made++;
		m = rte_pktmbuf_alloc(many[i].mp);
		rte_pktmbuf_free(m);
		cached += xc_mbstack_cached(many[i].mp);
	}
	CHECK("listed: 520 pools made", made == RTE_DIM(many));
	CHECK("listed: the lcore caches 512 pools, no more", cached == 512);
	CHECK("listed: a pool beyond is whole at once",
	      made == RTE_DIM(many) &&
	      avail(&many[made - 1]) == many[made - 1].n);
	xc_mbstack_sweep(true);
	for (i = 0, cached = 0; i < made; i++)
		cached += xc_mbstack_cached(many[i].mp) ||
			  avail(&many[i]) != many[i].n;
	CHECK("listed: a full sweep gives all back", cached == 0);
	for (i = 0; i < made; i++)
		xc_pool_free(&many[i]);
}

/* what the worker lcore of test_two_lcores() did */
static volatile bool stop;
static unsigned int worker_rounds;
static int worker_err;

/**
 * worker() - an lcore that forwards: takes bursts of 32 and frees them
 *	      one by one, as the vhost PMD does, sweeping now and then
 * @arg:	the pool
 *
 * Return: 0
 */
static int worker(void *arg)
{
	struct xc_pool *p = arg;
	struct rte_mbuf *m[32];
	unsigned int i;

	if (xc_mbstack_attach())
		worker_err = 1;
	while (!stop) {
		if (rte_pktmbuf_alloc_bulk(p->mp, m, 32) == 0) {
			for (i = 0; i < 32; i++)
				rte_pktmbuf_free(m[i]);
		}
		if (++worker_rounds % 1000 == 0)
			xc_mbstack_sweep(false);
	}
	xc_mbstack_detach();
	return 0;
}

/* test_two_lcores() - two lcores and the main thread's stack at once */
static void test_two_lcores(struct xc_pool *p)
{
	unsigned int w = rte_get_next_lcore(-1, 1, 0), k, got = 0;
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 2;
	void *objs[100];
	struct rte_mbuf *m[32];

	stop = false;
	if (rte_eal_remote_launch(worker, p, w) != 0) {
		CHECK("two lcores: the worker started", false);
		return;
	}
	for (k = 0; rte_get_timer_cycles() < end; k++) {
		/* the main lcore forwards too, attached, and takes and
		 * gives on the stack as growing and shrinking do */
		if (rte_pktmbuf_alloc_bulk(p->mp, m, 32) == 0) {
			rte_pktmbuf_free_bulk(m, 32);
			got++;
		}
		if (xc_mbstack_take(p->mp, objs, 100) == 0)
			xc_mbstack_give(p->mp, objs, 100);
		if (k % 500 == 0)
			xc_mbstack_sweep(false);
	}
	stop = true;
	rte_eal_wait_lcore(w);
	xc_mbstack_sweep(true);
	printf("two lcores: %u bursts on the worker, %u on the main lcore\n",
	       worker_rounds, got);
	CHECK("two lcores: both took and freed", worker_err == 0 &&
	      worker_rounds > 1000 && got > 100);
	CHECK("two lcores: every mbuf back, each once", all_back(p));
}

/* test_grow() - the mbufs a pool grows by are free to every lcore */
static void test_grow(void)
{
	struct xc_pool g;
	void **objs;
	unsigned int n0;

	if (xc_pool_create(&g, "t_grow", 256, 4096, RTE_MBUF_DEFAULT_BUF_SIZE,
			   SOCKET_ID_ANY)) {
		CHECK("grow: pool made", false);
		return;
	}
	n0 = g.n;
	CHECK("grow: made by an lcore with caches, every mbuf on the stack",
	      avail(&g) == n0 && !xc_mbstack_cached(g.mp));
	xc_pool_grow(&g, true);
	objs = calloc(g.n, sizeof(*objs));
	CHECK("grow: doubled, every new mbuf free",
	      g.n == 2 * n0 && avail(&g) == g.n);
	CHECK("grow: an lcore takes all of them",
	      objs != NULL && rte_mempool_get_bulk(g.mp, objs, g.n) == 0);
	if (objs != NULL && avail(&g) == 0)
		rte_mempool_put_bulk(g.mp, objs, g.n);
	xc_mbstack_sweep(true);
	CHECK("grow: each once", all_back(&g));
	free(objs);
	xc_pool_free(&g);
}

int main(int argc, char **argv)
{
	struct xc_pool p;

	(void)argc;
	if (unit_eal_init_lcores(argv[0], "0@0,1@0"))
		return 1;
	if (xc_pool_create(&p, "t_pool", N_MBUFS, N_MBUFS,
			   RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY)) {
		printf("FAIL pool: cannot create it\n");
		return 1;
	}
	CHECK("pool: all its mbufs free", p.n > 0 && avail(&p) == p.n);
	test_uncached(&p);
	test_cached(&p);
	test_listed_cap();
	test_two_lcores(&p);
	test_grow();
	xc_mbstack_detach();
	xc_pool_free(&p);
	unit_eal_fini();
	return fails ? 1 : 0;
}
