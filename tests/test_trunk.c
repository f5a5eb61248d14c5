/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_trunk.c - unit tests of trunks (app/kinds/trunk.c): outer tags pushed
 *		  and popped, frames sorted into members
 *
 * xc_trunk_push() is checked on single frames (802.1ad and 802.1Q, a
 * guest's own tag kept inside, and the frames it must refuse). Sorting
 * runs on a real ethdev: a net_ring port stands for the trunk's NIC, the
 * test puts tagged frames in its receive ring and members take them with
 * xc_trunk_rx(), as their directions do. Checks which member gets which
 * frame, untagged and in order, and the unknown-tag and backlog counts,
 * and, on a port whose frames come one at a time, when a member's frames
 * wait to be gathered and when they are handed over.
 *
 * Prints "ok NAME" or "FAIL NAME: why" per check; exits 1 on any failure.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "cable.h"
#include "trunk.h"
#include "unitlib.h"

static int fails;
static struct rte_mempool *pool;

/**
 * tagged() - a numbered frame with an outer tag in front of its type
 * @seq:	its number
 * @tpid:	tag type, 0 for no tag
 * @tag:	VLAN id
 *
 * Return: the frame (unit_seq(m, 4) reads its number)
 */
static struct rte_mbuf *tagged(uint32_t seq, uint16_t tpid, uint16_t tag)
{
	struct rte_mbuf *m = unit_frame(pool, seq, 80);

	if (m != NULL && tpid)
		xc_trunk_push(m, tpid, tag);
	return m;
}

static void test_push(void)
{
	struct rte_mbuf *m = unit_frame(pool, 7, 80), *n;
	uint8_t *p;
	int rc;

	rc = xc_trunk_push(m, 0x88a8, 10);
	p = rte_pktmbuf_mtod(m, uint8_t *);
	CHECK("push 802.1ad tag 10: 4 bytes longer, tag behind the MACs",
	      rc == 0 && m->pkt_len == 84 &&
	      !memcmp(p, "\x52\x54\x00\xab\xcd\xef\x52\x54\x00\x12\x34\x56"
			 "\x88\xa8\x00\x0a\x08\x00", 18));
	rc = xc_trunk_push(m, 0x8100, 4094);
	p = rte_pktmbuf_mtod(m, uint8_t *);
	CHECK("push 802.1Q tag 4094 on top: the first tag stays inside",
	      rc == 0 && m->pkt_len == 88 &&
	      !memcmp(p + 12, "\x81\x00\x0f\xfe\x88\xa8\x00\x0a", 8) &&
	      unit_seq(m, 8) == 7);
	rte_pktmbuf_free(m);

	m = unit_frame(pool, 1, 80);
	m->data_off = 0;	/* no headroom */
	rc = xc_trunk_push(m, 0x88a8, 10);
	CHECK("push without headroom: -ENOSPC, frame unchanged",
	      rc == -ENOSPC && m->pkt_len == 80 && m->data_off == 0);
	rte_pktmbuf_free(m);

	m = unit_frame(pool, 2, 80);
	rte_mbuf_refcnt_update(m, 1);
	rc = xc_trunk_push(m, 0x88a8, 10);
	CHECK("push on a shared frame: -EINVAL", rc == -EINVAL &&
	      m->pkt_len == 80);
	rte_pktmbuf_free(m);
	rte_pktmbuf_free(m);

	m = unit_frame(pool, 3, 80);
	n = rte_pktmbuf_clone(m, pool);
	rc = xc_trunk_push(n, 0x88a8, 10);
	CHECK("push on an indirect frame (a clone): -EINVAL", rc == -EINVAL);
	rte_pktmbuf_free(n);
	rte_pktmbuf_free(m);

	m = rte_pktmbuf_alloc(pool);
	rte_pktmbuf_append(m, 10);
	rc = xc_trunk_push(m, 0x88a8, 10);
	CHECK("push on a 10-byte frame: -EINVAL", rc == -EINVAL);
	rte_pktmbuf_free(m);
}

static void test_add(struct xc_trunk *t, struct xc_port *tport)
{
	static struct xc_end mem[XC_TRUNK_MAX_MEMBERS + 1];
	static struct xc_trunk full;
	unsigned int i;
	int rc = 0;

	memset(t, 0, sizeof(*t));
	xc_trunk_init(t, tport, 0x88a8);
	CHECK("add tag 0: -EINVAL", xc_trunk_add(t, &mem[0], 0) == -EINVAL);
	CHECK("add tag 4095: -EINVAL",
	      xc_trunk_add(t, &mem[0], 4095) == -EINVAL);
	CHECK("add tag 10 to trunk: member 0, an end on the trunk's port",
	      xc_trunk_add(t, &mem[0], 10) == 0 &&
	      xc_trunk_member_of(&mem[0])->trunk == t &&
	      xc_trunk_member_of(&mem[0])->idx == 0 &&
	      xc_trunk_member_of(&mem[0])->tag == 10 &&
	      mem[0].port == tport && mem[0].hub == &t->hub &&
	      mem[0].ops == &xc_end_trunk_ops);
	CHECK("add tag 10 again: -EEXIST",
	      xc_trunk_add(t, &mem[1], 10) == -EEXIST);
	memset(&full, 0, sizeof(full));
	xc_trunk_init(&full, tport, 0x88a8);
	for (i = 0; i < XC_TRUNK_MAX_MEMBERS && rc == 0; i++)
		rc = xc_trunk_add(&full, &mem[i], (uint16_t)(i + 1));
	CHECK("64 members fit, a 65th is -ENOSPC", rc == 0 &&
	      xc_trunk_add(&full, &mem[XC_TRUNK_MAX_MEMBERS], 100) ==
	      -ENOSPC);
	CHECK("a full trunk: a member beside one of its tags fits, one with a new tag is -ENOSPC",
	      xc_trunk_add_beside(&full, &mem[XC_TRUNK_MAX_MEMBERS], 100) ==
	      -ENOSPC &&
	      xc_trunk_add_beside(&full, &mem[XC_TRUNK_MAX_MEMBERS], 5) ==
	      0 && full.n_pending == 1 &&
	      xc_trunk_member_of(&mem[XC_TRUNK_MAX_MEMBERS])->pending);
	xc_trunk_del(&full, &mem[XC_TRUNK_MAX_MEMBERS]);
	CHECK("the waiting member taken away: tag 5 still member 4's",
	      full.n_pending == 0 && full.n_members == XC_TRUNK_MAX_MEMBERS &&
	      full.member_of[5] == 5);
}

/**
 * test_beside() - a member made beside another with its tag waits, and
 *		   takes the tag once that one is gone
 * @tport:	the trunk's port
 */
static void test_beside(struct xc_port *tport)
{
	static struct xc_trunk t;
	static struct xc_end old, new;
	unsigned int idx;

	memset(&t, 0, sizeof(t));
	xc_trunk_init(&t, tport, 0x88a8);
	CHECK("beside a member with tag 10: waits, tag 10 still the old one's",
	      xc_trunk_add(&t, &old, 10) == 0 &&
	      xc_trunk_add_beside(&t, &new, 10) == 0 &&
	      xc_trunk_member_of(&new)->pending &&
	      t.member_of[10] == xc_trunk_member_of(&old)->idx + 1 &&
	      t.n_members == 2 && t.n_pending == 1);
	CHECK("settle while the old one has the tag: -EBUSY, still waiting",
	      xc_trunk_settle(&t, &new) == -EBUSY &&
	      xc_trunk_member_of(&new)->pending);
	xc_trunk_stop(&t, &new);
	CHECK("stopping the waiting one leaves the old one's tag",
	      t.member_of[10] == xc_trunk_member_of(&old)->idx + 1);
	xc_trunk_stop(&t, &old);
	xc_trunk_del(&t, &old);
	idx = xc_trunk_member_of(&new)->idx;
	CHECK("the old one gone, settle: the tag is the new one's",
	      xc_trunk_settle(&t, &new) == 0 &&
	      !xc_trunk_member_of(&new)->pending &&
	      t.member_of[10] == idx + 1 && t.n_pending == 0 &&
	      t.n_members == 1);
	CHECK("settle again: nothing to do", xc_trunk_settle(&t, &new) == 0);
}

/**
 * collect() - take what a member has, check numbers and untagged bytes
 * @m:		member
 * @want:	expected numbers, in order
 * @n:		how many
 *
 * Return: true if exactly those frames came, untagged
 */
static bool collect(struct xc_end *m, const uint32_t *want, unsigned int n)
{
	struct rte_mbuf *b[XC_BURST];
	unsigned int got = 0, i;
	uint16_t k;
	bool ok = true;

	while ((k = xc_trunk_rx(m, b, XC_BURST)) != 0) {
		for (i = 0; i < k; i++, got++) {
			if (got >= n || !unit_frame_ok(b[i], want[got], 80))
				ok = false;
			rte_pktmbuf_free(b[i]);
		}
	}
	return ok && got == n;
}

static void test_sort(struct xc_trunk *t, struct rte_ring *in,
		      struct xc_end *m10, struct xc_end *m20)
{
	static const uint32_t want10[] = { 0, 4 }, want20[] = { 1, 6 };
	struct rte_mbuf *b[7];

	b[0] = tagged(0, 0x88a8, 10);
	b[1] = tagged(1, 0x88a8, 20);
	b[2] = tagged(2, 0x88a8, 30);		/* nobody's */
	b[3] = tagged(3, 0, 0);			/* no tag */
	b[4] = tagged(4, 0x88a8, 10);
	b[5] = tagged(5, 0x8100, 10);		/* wrong tag type */
	b[6] = unit_frame(pool, 6, 80);		/* tag stripped by the NIC */
	b[6]->ol_flags |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	b[6]->vlan_tci = 20;
	rte_ring_enqueue_bulk(in, (void **)b, 7, NULL);
	CHECK("sort: member of tag 10 gets frames 0 and 4, untagged, in "
	      "order", collect(m10, want10, 2));
	CHECK("sort: member of tag 20 gets frames 1 and 6 (stripped tag "
	      "read from vlan_tci)", collect(m20, want20, 2));
	CHECK("sort: 7 received, 3 unknown-tag (tag 30, none, 802.1Q)",
	      t->rx_pkts == 7 && t->unknown_tag == 3 && t->backlog == 0);
}

static void test_backlog(struct xc_trunk *t, struct rte_ring *in,
			 struct xc_end *m10, struct xc_end *m20)
{
	struct rte_mbuf *b[XC_BURST];
	uint32_t want[XC_TRUNK_QLEN];
	unsigned int i, got = 0;

	for (i = 0; i < 600; i++) {
		struct rte_mbuf *m = tagged(1000 + i, 0x88a8, 20);

		rte_ring_enqueue(in, m);
	}
	/* the member of tag 10 finds its queue empty each time and takes a
	 * burst from the port: all for the member of tag 20 */
	for (i = 0; i < 20; i++)
		got += xc_trunk_rx(m10, b, XC_BURST);
	CHECK("backlog: member of tag 10 gets none of tag 20's frames",
	      got == 0);
	CHECK("backlog: 512 wait for tag 20, the other 88 counted backlog",
	      t->q[xc_trunk_member_of(m20)->idx].n == XC_TRUNK_QLEN && t->backlog == 88);
	CHECK("queued: tag 20's member says frames wait for it (its lcore "
	      "must poll again), tag 10's says none",
	      m20->ops->queued(m20) && !m10->ops->queued(m10));
	for (i = 0; i < XC_TRUNK_QLEN; i++)
		want[i] = 1000 + i;
	CHECK("backlog: tag 20 then gets the first 512, in order",
	      collect(m20, want, XC_TRUNK_QLEN));

	for (i = 0; i < 5; i++)
		rte_ring_enqueue(in, tagged(i, 0x88a8, 10));
	xc_trunk_rx(m20, b, XC_BURST);	/* sorts them for tag 10 */
	xc_trunk_flush(t);
	CHECK("flush: 5 frames waiting for tag 10 freed, counted backlog",
	      t->q[xc_trunk_member_of(m10)->idx].n == 0 && t->backlog == 93);
}

/**
 * put() - tagged frames numbered @base.. into the port's receive ring
 * @in:		the ring
 * @base:	the first number
 * @n:		how many
 * @tag:	their 802.1ad tag
 */
static void put(struct rte_ring *in, uint32_t base, unsigned int n,
		uint16_t tag)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		rte_ring_enqueue(in, tagged(base + i, 0x88a8, tag));
}

/**
 * collect_run() - collect() of the frames numbered @base..@base + @n - 1
 * @m:		member
 * @base:	the first number
 * @n:		how many (at most XC_BURST)
 *
 * Return: true if exactly those came, untagged, in order
 */
static bool collect_run(struct xc_end *m, uint32_t base, unsigned int n)
{
	uint32_t want[XC_BURST];
	unsigned int i;

	for (i = 0; i < n && i < XC_BURST; i++)
		want[i] = base + i;
	return collect(m, want, n);
}

/**
 * test_gather() - from a port whose frames come one at a time, a member's
 *		   frames wait for more while they keep coming, for at most
 *		   XC_RX_GATHER_MAX_US, and are handed over at once when a
 *		   burst is there or no frame came for it for the gap
 * @t:		trunk, on @tport
 * @tport:	its port
 * @in:		the port's receive ring
 * @m10:	the member of tag 10
 * @m20:	the member of tag 20
 */
static void test_gather(struct xc_trunk *t, struct xc_port *tport,
			struct rte_ring *in, struct xc_end *m10,
			struct xc_end *m20)
{
	static const struct xc_port_ops gops = { .kind = "test",
						 .rx_gather_us = 20 };
	uint64_t us = rte_get_tsc_hz() / 1000000;
	struct xc_trunk_q *q = &t->q[xc_trunk_member_of(m10)->idx];
	struct rte_mbuf *b[XC_BURST];
	uint64_t backlog = t->backlog;
	uint16_t k;

	tport->ops = &gops;
	tport->rx_gather_gap = us * gops.rx_gather_us;
	tport->rx_gather_max = us * XC_RX_GATHER_MAX_US;
	put(in, 2000, 5, 10);
	k = xc_trunk_rx(m10, b, XC_BURST);
	CHECK("gather: 5 frames just received, 32 asked for: none handed over yet, they wait (queued)",
	      k == 0 && q->n == 5 && m10->ops->queued(m10));
	put(in, 2005, XC_BURST - 5, 10);
	CHECK("gather: with 27 more a burst is there: all 32 at once, in order",
	      collect_run(m10, 2000, XC_BURST));

	put(in, 3000, 3, 10);
	xc_trunk_rx(m10, b, XC_BURST);
	/* frames for it came just now, but the first waits for longer than
	 * XC_RX_GATHER_MAX_US */
	q->since = rte_rdtsc() - us * (XC_RX_GATHER_MAX_US + 1);
	q->last = rte_rdtsc();
	CHECK("gather: frames still coming, the first waited 51 us: handed over",
	      collect_run(m10, 3000, 3));

	put(in, 4000, 3, 10);
	xc_trunk_rx(m10, b, XC_BURST);
	rte_delay_us_block(gops.rx_gather_us + 5);
	CHECK("gather: the port quiet for longer than the gap: the 3 waiting are handed over",
	      collect_run(m10, 4000, 3));

	put(in, 6000, 3, 10);
	xc_trunk_rx(m10, b, XC_BURST);
	rte_delay_us_block(gops.rx_gather_us + 5);
	put(in, 7000, 2, 20);
	CHECK("gather: frames for another member keep coming: tag 10's, quiet for the gap, are handed over",
	      collect_run(m10, 6000, 3));
	rte_delay_us_block(gops.rx_gather_us + 5);
	CHECK("gather: and tag 20's, once quiet for the gap",
	      collect_run(m20, 7000, 2));

	put(in, 5000, 4, 10);
	k = xc_trunk_rx(m10, b, XC_BURST);
	xc_trunk_flush(t);
	CHECK("gather: flush while 4 wait: freed, counted backlog",
	      k == 0 && q->n == 0 && t->backlog == backlog + 4);
	tport->ops = NULL;
	tport->rx_gather_gap = 0;
	tport->rx_gather_max = 0;
}

int main(int argc, char **argv)
{
	static struct xc_port tport;
	static struct xc_end m10, m20;
	static struct xc_trunk t;
	struct rte_ring *in, *out;
	int id;

	(void)argc;
	if (unit_eal_init(argv[0]))
		return 2;
	pool = rte_pktmbuf_pool_create("t_pool", 4095, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	in = rte_ring_create("t_in", 1024, SOCKET_ID_ANY, 0);
	out = rte_ring_create("t_out", 1024, SOCKET_ID_ANY, 0);
	if (pool == NULL || in == NULL || out == NULL)
		return 2;
	id = unit_ring_port("net_ring_trunk", in, out, pool);
	if (id < 0)
		return 2;
	snprintf(tport.name, sizeof(tport.name), "net_ring_trunk");
	tport.id = (uint16_t)id;
	tport.conf.n_queues = 1;

	test_push();
	test_add(&t, &tport);
	test_beside(&tport);
	memset(&t, 0, sizeof(t));
	xc_trunk_init(&t, &tport, 0x88a8);
	if (xc_trunk_add(&t, &m10, 10) || xc_trunk_add(&t, &m20, 20))
		return 2;
	test_sort(&t, in, &m10, &m20);
	test_backlog(&t, in, &m10, &m20);
	test_gather(&t, &tport, in, &m10, &m20);

	xc_trunk_flush(&t);
	unit_ring_free(in);
	unit_ring_free(out);
	rte_eth_dev_stop((uint16_t)id);
	rte_eth_dev_close((uint16_t)id);
	CHECK("no mbuf leaked", rte_mempool_in_use_count(pool) == 0);
	unit_eal_fini();
	return fails ? 1 : 0;
}
