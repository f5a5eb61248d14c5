/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_fwd.c - unit tests of the forwarding loop (app/datapath/fwd.c) on DPDK's
 *		ring driver, in one process, without root or hugepages
 *
 * One direction at a time forwards from a sending end to a receiving end,
 * both net_ring ethdevs: the test puts numbered frames in the sender's
 * receive ring, calls xc_dir_poll() as the lcore would, and reads what
 * came out of the receiver's transmit ring, whose capacity (64) is how
 * much the receiver takes before it stops taking. A third ring port is a
 * trunk with members under tags 10 and 20. Only what can be seen from
 * outside is checked: frames delivered (order, bytes, tags, segments)
 * and the direction's counters by reason, through xc_dir_poll(),
 * xc_dir_flush() and xc_dir_drain().
 *
 * Checked: frames arrive in order and whole; a receiver that takes
 * nothing makes the direction hold what it has, stop receiving and lose
 * nothing; every drop reason that can be provoked in one process
 * (peer-down, cable-down, shutdown, too-big, bad-offload, unsupported,
 * no-mbuf, impair-loss, impair-queue-full); a frame that finds no mbufs
 * to be segmented into waits, in order, up to XC_SEG_WAIT_MS before it is
 * dropped as no-mbuf; the stages run in their
 * order: offload fix-up, then outer tag, then impairment, then making
 * chains whole. After each test the counters must balance
 * (xc_dir_unaccounted(), stats.h). A trunk member's TCP segments reach a receiver with TSO
 * joined into TSO frames (coalesce.c), in order, and only those that may
 * be.
 *
 * Prints "ok NAME" or "FAIL NAME: why" per check; exits 1 on any failure.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "cable.h"
#include "dir.h"
#include "pool.h"
#include "trunk.h"
#include "l4frames.h"
#include "unitlib.h"

#define OUT_CAP		64	/* frames a receiver takes until read */
#define MAX_FRAME	9018	/* a receiver's largest frame by default */

static int fails;
static struct rte_mempool *pool, *ipool, *own;

/* ================= harness: how ports and directions are built =========
 * Everything that knows the layout of struct xc_port and struct xc_dir is
 * here; the tests below only poll and read counters.
 */

/**
 * struct rig - the ports of the tests and the one direction under test
 * @in:		frames the sending end receives
 * @out:	frames the receiving end was given
 * @tin:	frames the trunk port receives
 * @tout:	frames the trunk port was given
 * @spare:	the unused rings of the plain ports
 * @a:		port of the sending end
 * @b:		port of the receiving end
 * @t:		trunk port
 * @ea:		sending end, the whole port @a
 * @eb:		receiving end, the whole port @b
 * @m10:	trunk member under tag 10 (a sending end)
 * @m20:	trunk member under tag 20 (a receiving end)
 * @trunk:	the trunk, 802.1ad
 * @d:		the direction
 * @paused:	its cable's pause flag
 */
struct rig {
	struct rte_ring *in, *out, *tin, *tout, *spare;
	struct xc_port a, b, t;
	struct xc_end ea, eb, m10, m20;
	struct xc_trunk trunk;
	struct xc_dir d;
	uint32_t paused;
};

/**
 * struct rig_opts - the direction a test wants
 * @caps:	XC_CAP_* of the receiving end
 * @max_frame:	its largest frame, 0 for MAX_FRAME
 * @from_trunk:	receive from trunk member 10 instead of port a
 * @to_trunk:	send to trunk member 20 instead of port b
 * @whole_only:	the receiving port takes single mbufs only (own pool)
 * @im:		impairment, NULL for none
 */
struct rig_opts {
	uint32_t caps;
	uint32_t max_frame;
	bool from_trunk;
	bool to_trunk;
	bool whole_only;
	const struct xc_impair_cfg *im;
};

/**
 * rig_port() - one plain end on a new net_ring ethdev
 * @p:		filled
 * @name:	ethdev name
 * @rx:		its receive ring
 * @tx:		its transmit ring
 *
 * Return: 0 or -1
 */
static int rig_port(struct xc_port *p, const char *name, struct rte_ring *rx,
		    struct rte_ring *tx)
{
	int id = unit_ring_port(name, rx, tx, pool);

	if (id < 0)
		return -1;
	memset(p, 0, sizeof(*p));
	p->id = (uint16_t)id;
	p->ops = &xc_port_eth_ops;
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->label, sizeof(p->label), "%s", name);
	p->conf.n_queues = 1;
	p->configured = p->started = true;
	return 0;
}

/**
 * rig_init() - create the rings and ports, once
 * @r:		rig
 *
 * Return: 0 or -1
 */
static int rig_init(struct rig *r)
{
	r->in = rte_ring_create("in", 1024, SOCKET_ID_ANY, 0);
	r->tin = rte_ring_create("tin", 1024, SOCKET_ID_ANY, 0);
	r->out = rte_ring_create("out", OUT_CAP, SOCKET_ID_ANY,
				 RING_F_EXACT_SZ);
	r->tout = rte_ring_create("tout", OUT_CAP, SOCKET_ID_ANY,
				  RING_F_EXACT_SZ);
	r->spare = rte_ring_create("spare", 64, SOCKET_ID_ANY, 0);
	if (!r->in || !r->tin || !r->out || !r->tout || !r->spare ||
	    rig_port(&r->a, "net_ring_a", r->in, r->spare) ||
	    rig_port(&r->b, "net_ring_b", r->spare, r->out) ||
	    rig_port(&r->t, "net_ring_t", r->tin, r->tout))
		return -1;
	r->ea = (struct xc_end){ .ops = &xc_end_whole_ops, .port = &r->a };
	r->eb = (struct xc_end){ .ops = &xc_end_whole_ops, .port = &r->b };
	snprintf(r->ea.label, sizeof(r->ea.label), "a");
	snprintf(r->eb.label, sizeof(r->eb.label), "b");
	snprintf(r->m10.label, sizeof(r->m10.label), "t.10");
	snprintf(r->m20.label, sizeof(r->m20.label), "t.20");
	xc_trunk_init(&r->trunk, &r->t, 0x88a8);
	r->t.conf.strip_vlan = true;
	if (xc_trunk_add(&r->trunk, &r->m10, 10) ||
	    xc_trunk_add(&r->trunk, &r->m20, 20))
		return -1;
	return 0;
}

/**
 * rig_end_up() - a cable end whose peer is ready: link up, queue 0 on
 * @e:		end
 * @caps:	XC_CAP_* it takes
 * @max:	its largest frame (a trunk's port takes 4 bytes more, for the
 *		member's tag)
 */
static void rig_end_up(struct xc_end *e, uint32_t caps, uint32_t max)
{
	struct xc_port *p = e->port;

	p->link_up = 1;
	p->txq_on = p->rxq_on = 1;
	p->caps = xc_caps_pack(caps, e->hub ? max + 4 : max);
}

/**
 * rig_dir() - set up the direction under test afresh
 * @r:		rig, whose previous direction was rig_done()
 * @o:		what is wanted
 *
 * Return: the direction
 */
static struct xc_dir *rig_dir(struct rig *r, const struct rig_opts *o)
{
	struct xc_dir *d = &r->d;

	memset(d, 0, sizeof(*d));
	d->rx = o->from_trunk ? &r->m10 : &r->ea;
	d->tx = o->to_trunk ? &r->m20 : &r->eb;
	rig_end_up(d->rx, XC_CAP_CSUM | XC_CAP_TSO4 | XC_CAP_TSO6, MAX_FRAME);
	rig_end_up(d->tx, o->caps, o->max_frame ? o->max_frame : MAX_FRAME);
	r->b.whole_only = r->t.whole_only = o->whole_only;
	r->b.own_pool = r->t.own_pool = o->whole_only ? own : NULL;
	snprintf(d->label, sizeof(d->label), "%s->%s", d->rx->label,
		 d->tx->label);
	xc_off_init(&d->off, pool, ipool);
	if (xc_impair_init(&d->im, 1, SOCKET_ID_ANY))
		return NULL;
	if (o->im)
		xc_impair_set(&d->im, o->im);
	r->paused = 0;
	d->paused = &r->paused;
	xc_dir_build(d);
	return d;
}

/**
 * rig_in() - give the sending end a frame to receive
 * @r:		rig
 * @m:		frame
 */
static void rig_in(struct rig *r, struct rte_mbuf *m)
{
	if (rte_ring_enqueue(r->d.rx->hub ? r->tin : r->in, m))
		rte_pktmbuf_free(m);
}

/**
 * rig_waiting() - frames the sending end has not received yet
 * @r:		rig
 *
 * Return: their number
 */
static unsigned int rig_waiting(struct rig *r)
{
	return rte_ring_count(r->d.rx->hub ? r->tin : r->in);
}

/**
 * rig_out() - take what the receiving end was given
 * @r:		rig
 * @m:		filled
 * @n:		room
 *
 * Return: frames taken, in the order given
 */
static unsigned int rig_out(struct rig *r, struct rte_mbuf **m, unsigned int n)
{
	return rte_ring_dequeue_burst(r->d.tx->hub ? r->tout : r->out,
				      (void **)m, n, NULL);
}

/**
 * rig_given() - frames the receiving end was given and not yet read
 * @r:		rig
 *
 * Return: their number
 */
static unsigned int rig_given(struct rig *r)
{
	return rte_ring_count(r->d.tx->hub ? r->tout : r->out);
}

/**
 * rig_done() - end a test: drop what the direction still has (as
 *		shutdown), empty the rings and the trunk's member queues
 * @r:		rig
 */
static void rig_done(struct rig *r)
{
	xc_dir_flush(&r->d, XC_DROP_SHUTDOWN);
	xc_impair_fini(&r->d.im);
	xc_trunk_flush(&r->trunk);
	unit_ring_free(r->in);
	unit_ring_free(r->tin);
	unit_ring_free(r->out);
	unit_ring_free(r->tout);
}

/* ================= helpers on top of the harness ================= */

/**
 * balanced() - check the direction's counters add up
 * @name:	test name
 * @d:		direction, idle
 */
static void balanced(const char *name, const struct xc_dir *d)
{
	const struct xc_dir_stats *s = &d->st;
	char what[160];

	snprintf(what, sizeof(what), "%s: counters balance", name);
	CHECK(what, xc_dir_unaccounted(s) == 0);
}

/**
 * test_unaccounted() - the balance that balanced() and the JSON's
 *			"unaccounted" read shows a frame gone uncounted, and
 *			one counted twice, with their signs
 */
static void test_unaccounted(void)
{
	struct xc_dir_stats s = { .rx_pkts = 10, .tx_pkts = 7,
				  .seg_frames = 1, .seg_out = 3,
				  .duplicated = 1, .coal_in = 4,
				  .coal_frames = 1 };

	s.drop[XC_DROP_TOO_BIG] = 2;
	/* 10 - 1 + 3 + 1 - 4 + 1 = 10 came; 7 + 2 went: one lost
	 * uncounted */
	CHECK("unaccounted: a frame lost uncounted is +1",
	      xc_dir_unaccounted(&s) == 1);
	s.drop[XC_DROP_NO_MBUF] = 2;
	CHECK("unaccounted: a frame counted twice is -1",
	      xc_dir_unaccounted(&s) == -1);
	s.drop[XC_DROP_NO_MBUF] = 1;
	CHECK("unaccounted: 0 once every frame is counted",
	      xc_dir_unaccounted(&s) == 0);
}

/**
 * drop_of() - a drop counter of the direction
 * @d:		direction
 * @why:	reason
 *
 * Return: its value
 */
static uint64_t drop_of(const struct xc_dir *d, enum xc_drop why)
{
	return d->st.drop[why];
}

/**
 * others_zero() - tell whether no drop reason but @why counted anything
 * @d:		direction
 * @why:	the reason allowed, XC_DROP__MAX for none
 *
 * Return: true if so
 */
static bool others_zero(const struct xc_dir *d, enum xc_drop why)
{
	int i;

	for (i = 0; i < XC_DROP__MAX; i++)
		if (i != (int)why && d->st.drop[i]) {
			printf("  unexpected drops: %" PRIu64 " %s\n",
			       d->st.drop[i], xc_drop_name((enum xc_drop)i));
			return false;
		}
	return true;
}

/**
 * feed() - numbered frames of varied lengths to the sending end
 * @r:		rig
 * @first:	first number
 * @n:		how many
 */
static void feed(struct rig *r, uint32_t first, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		rig_in(r, unit_frame(pool, first + i,
				     (uint16_t)(60 + (first + i) * 37 % 1400)));
}

/**
 * run() - poll and read the receiver until nothing moves, checking that
 *	   frames @first... arrive whole and in order
 * @r:		rig
 * @first:	number of the first frame expected
 * @ok:		cleared if a frame is wrong or out of order
 *
 * Return: frames that arrived
 */
static unsigned int run(struct rig *r, uint32_t first, bool *ok)
{
	struct rte_mbuf *m[OUT_CAP];
	unsigned int got = 0, k, i, idle = 0;

	while (idle < 3) {
		unsigned int w = xc_dir_poll(&r->d);

		k = rig_out(r, m, OUT_CAP);
		for (i = 0; i < k; i++, got++) {
			uint32_t s = first + got;

			if (!unit_frame_ok(m[i], s,
					   (uint16_t)(60 + s * 37 % 1400)))
				*ok = false;
			rte_pktmbuf_free(m[i]);
		}
		idle = w || k ? 0 : idle + 1;
	}
	return got;
}

/**
 * tso_frame() - a TCP/IPv4 or UFO frame as a guest with offloads sends
 *		 it: partial checksum, RX_LRO, tso_segsz
 * @s:		how to build it
 * @f:		filled with the original, flat
 *
 * Return: the frame, a chain
 */
static struct rte_mbuf *tso_frame(const struct spec *s, struct frame *f)
{
	static struct frame g;
	uint8_t *ip;
	struct rte_mbuf *m;

	build_flat(s, f);
	g = *f;
	ip = g.b + g.l2;
	put16(ip + g.l3 + (s->tcp ? 16 : 6),
	      fold16(pseudo(ip, s->v4, s->tcp ? 6 : 17, g.len - g.l2 - g.l3)));
	m = mbuf_chain(pool, g.b, g.len, 0, UINT32_MAX);
	m->ol_flags |= RTE_MBUF_F_RX_L4_CKSUM_NONE;
	if (s->mss) {
		m->ol_flags |= RTE_MBUF_F_RX_LRO;
		m->tso_segsz = s->mss;
	}
	return m;
}

/**
 * flatten() - copy a frame, one mbuf or a chain, into a flat buffer
 * @m:		frame, at most L4F_MAX_FRAME bytes
 * @f:		filled: bytes and length
 */
static void flatten(const struct rte_mbuf *m, struct frame *f)
{
	const void *p = rte_pktmbuf_read(m, 0, m->pkt_len, f->b);

	if (p != f->b)
		memcpy(f->b, p, m->pkt_len);
	f->len = m->pkt_len;
}

/* ================= the tests ================= */

static void test_order(struct rig *r)
{
	struct xc_dir *d = rig_dir(r, &(struct rig_opts){ 0 });
	uint64_t bytes = 0;
	unsigned int got, i;
	bool ok = true;

	for (i = 0; i < 300; i++)
		bytes += 60 + i * 37 % 1400;
	feed(r, 0, 300);
	got = run(r, 0, &ok);
	CHECK("300 frames of 60..1459 bytes arrive whole and in order",
	      got == 300 && ok);
	CHECK("rx and tx count 300 frames and their bytes, no drops",
	      d->st.rx_pkts == 300 && d->st.tx_pkts == 300 &&
	      d->st.rx_bytes == bytes && d->st.tx_bytes == bytes &&
	      others_zero(d, XC_DROP__MAX));
	balanced("in order", d);
	rig_done(r);
}

static void test_backpressure(struct rig *r)
{
	struct xc_dir *d = rig_dir(r, &(struct rig_opts){ 0 });
	unsigned int i, work = 0, got;
	bool ok = true;

	feed(r, 0, 100);
	for (i = 0; i < 3; i++)
		xc_dir_poll(d);
	/* 3 bursts of 32 received, the receiver took 64 */
	for (i = 0; i < 50; i++)
		work += xc_dir_poll(d);
	CHECK("receiver full: 50 more rounds move nothing (idle)", work == 0);
	CHECK("receiver full: the direction stops receiving (4 frames wait "
	      "at the sender, 96 received)",
	      rig_waiting(r) == 4 && d->st.rx_pkts == 96);
	CHECK("receiver full: 64 sent, 32 held, nothing dropped",
	      d->st.tx_pkts == 64 && others_zero(d, XC_DROP__MAX));
	got = run(r, 0, &ok);
	CHECK("receiver reads again: all 100 arrive in order, none lost",
	      got == 100 && ok && d->st.tx_pkts == 100 &&
	      others_zero(d, XC_DROP__MAX));
	balanced("backpressure", d);
	rig_done(r);
}

static void test_hold_segments(struct rig *r)
{
	static const struct spec s = { .v4 = true, .tcp = true,
				       .payload = 40000, .mss = 1000,
				       .tcp_flags = 0x18 };
	static struct frame orig, g;
	struct xc_dir *d = rig_dir(r, &(struct rig_opts){ .max_frame = 1514 });
	struct rte_mbuf *m[OUT_CAP];
	unsigned int got = 0, k, i, idle = 0;
	bool ok = true;

	for (i = 0; i < 3; i++)
		rig_in(r, tso_frame(&s, &orig));
	while (idle < 3) {
		unsigned int w = xc_dir_poll(d);

		k = rig_out(r, m, OUT_CAP);
		for (i = 0; i < k; i++, got++) {
			flatten(m[i], &g);
			if (!check_tcp_segment("hold", &s, &orig, &g,
						     (int)(got % 40), 40,
						     false))
				ok = false;
			rte_pktmbuf_free(m[i]);
		}
		idle = w || k ? 0 : idle + 1;
	}
	CHECK("3 TSO frames to a receiver without TSO: 120 right segments "
	      "through the hold queue, in order", got == 120 && ok);
	CHECK("segmentation counted: 3 frames, 120 segments, 120 checksums",
	      d->st.seg_frames == 3 && d->st.seg_out == 120 &&
	      d->st.csum_filled == 120 && d->st.tx_pkts == 120);
	balanced("hold queue", d);
	rig_done(r);
}

/**
 * take_all() - take every free mbuf of a pool, as busy guests would
 * @mp:		pool
 * @held:	filled
 * @room:	size of @held
 *
 * Return: mbufs taken
 */
static unsigned int take_all(struct rte_mempool *mp, struct rte_mbuf **held,
			     unsigned int room)
{
	unsigned int k = 0;

	while (k < room && (held[k] = rte_pktmbuf_alloc(mp)) != NULL)
		k++;
	return k;
}

static void test_segment_waits(struct rig *r)
{
	static const struct spec tso = { .v4 = true, .tcp = true,
					 .payload = 3000, .mss = 1000,
					 .tcp_flags = 0x18 };
	static struct rte_mbuf *held[8192];
	static struct frame f, g;
	struct xc_dir *d = rig_dir(r, &(struct rig_opts){ .max_frame = 1514 });
	struct rte_mbuf *out[8];
	unsigned int n, k, i;
	uint64_t end;
	bool ok;

	rig_in(r, tso_frame(&tso, &f));
	rig_in(r, unit_frame(pool, 7, 100));
	k = take_all(ipool, held, RTE_DIM(held));
	for (i = 0; i < 10; i++)
		xc_dir_poll(d);
	CHECK("no mbufs to segment into: the TSO frame and the one behind it "
	      "wait, nothing is dropped", rig_given(r) == 0 &&
	      others_zero(d, XC_DROP__MAX));
	rte_pktmbuf_free_bulk(held, k);
	xc_dir_poll(d);
	n = rig_out(r, out, 8);
	for (i = 0, ok = n == 4; ok && i < 3; i++) {
		flatten(out[i], &g);
		ok = check_tcp_segment("wait", &tso, &f, &g, (int)i, 3, false);
	}
	CHECK("mbufs back: 3 right segments, then the frame behind, in order",
	      ok && unit_seq(out[3], 0) == 7 && others_zero(d, XC_DROP__MAX));
	rte_pktmbuf_free_bulk(out, n);
	balanced("segment waits", d);
	rig_done(r);

	d = rig_dir(r, &(struct rig_opts){ .max_frame = 1514 });
	rig_in(r, tso_frame(&tso, &f));
	rig_in(r, unit_frame(pool, 8, 100));
	k = take_all(ipool, held, RTE_DIM(held));
	end = rte_get_tsc_cycles() +
	      rte_get_tsc_hz() / 1000 * (XC_SEG_WAIT_MS + 50);
	while (rte_get_tsc_cycles() < end && rig_given(r) == 0) {
		xc_dir_poll(d);
		rte_delay_us_sleep(1000);
	}
	n = rig_out(r, out, 8);
	CHECK("still no mbufs after XC_SEG_WAIT_MS: the TSO frame is no-mbuf, "
	      "the frame behind it passes", n == 1 && unit_seq(out[0], 0) == 8 &&
	      drop_of(d, XC_DROP_NO_MBUF) == 1 &&
	      others_zero(d, XC_DROP_NO_MBUF));
	rte_pktmbuf_free_bulk(held, k);
	rte_pktmbuf_free_bulk(out, n);
	balanced("segment gives up", d);
	rig_done(r);
}

/* a driver that chains large frames (the vhost library) and loses the
 * frame whose chain runs dry: bursts bounded by the free mbufs, the pool
 * asked to grow (at once for chains, after a run of cut bursts of small
 * frames), the rest left waiting, nothing lost */
static void test_rx_budget(struct rig *r)
{
	static struct rte_mbuf *held[8192];
	static uint8_t buf[3000];
	struct xc_dir *d = rig_dir(r, &(struct rig_opts){ 0 });
	struct rte_mbuf *out[64];
	uint32_t want = 0;
	unsigned int k, n, i, got = 0, seq = 0, polls;
	bool ok = true;

	d->rx_pool = pool;
	d->rx_share = 1;
	d->pool_want = &want;
	for (i = 0; i < 40; i++)
		rig_in(r, unit_frame(pool, i, 100));
	k = take_all(pool, held, RTE_DIM(held));
	/* 100 free: what 3 of the largest frames could need */
	rte_pktmbuf_free_bulk(held + k - 100, 100);
	k -= 100;
	for (polls = 0; polls < 8; polls++) {
		xc_dir_poll(d);
		n = rig_out(r, out, RTE_DIM(out));
		ok &= n == 3 && (polls == 7 || want == 0);
		for (i = 0; i < n; i++)
			ok &= unit_seq(out[i], 0) == seq++;
		rte_pktmbuf_free_bulk(out, n);
		got += n;
	}
	CHECK("pool short: bursts of 3 small frames (100 free mbufs / 33); "
	      "the 8th cut in a row asks for 32 x 33 mbufs; 16 wait",
	      ok && rig_waiting(r) == 16 && want == 32 * 33);
	/* fewer free than one frame may need: nothing is taken */
	while (rte_mempool_avail_count(pool) > 20)
		held[k++] = rte_pktmbuf_alloc(pool);
	want = 0;
	xc_dir_poll(d);
	CHECK("fewer free mbufs than one frame may take: nothing received, "
	      "the pool asked at once", rig_waiting(r) == 16 &&
	      rig_given(r) == 0 && want == 32 * 33 && d->starved);
	rte_pktmbuf_free_bulk(held, k);
	for (i = 0; i < 10 && rig_waiting(r); i++) {
		xc_dir_poll(d);
		n = rig_out(r, out, RTE_DIM(out));
		for (k = 0; k < n; k++)
			ok &= unit_seq(out[k], 0) == seq++;
		rte_pktmbuf_free_bulk(out, n);
		got += n;
	}
	CHECK("mbufs back: whole bursts again, all 40 frames in order, none "
	      "dropped", got == 40 && ok && !d->starved &&
	      others_zero(d, XC_DROP__MAX));
	/* chains (large frames) in a cut burst: asked at once */
	for (i = 0; i < 4; i++)
		rig_in(r, mbuf_chain(pool, buf, sizeof(buf), 1000, 1000));
	k = take_all(pool, held, RTE_DIM(held));
	rte_pktmbuf_free_bulk(held + k - 80, 80);
	k -= 80;
	want = 0;
	xc_dir_poll(d);
	n = rig_out(r, out, RTE_DIM(out));
	CHECK("pool short, 3-mbuf chains: a burst of 2 (80 free / 33), the "
	      "pool asked at once", n == 2 && want == 32 * 33);
	rte_pktmbuf_free_bulk(out, n);
	rte_pktmbuf_free_bulk(held, k);
	xc_dir_poll(d);
	n = rig_out(r, out, RTE_DIM(out));
	rte_pktmbuf_free_bulk(out, n);
	CHECK("mbufs back: the other 2 chains follow, none dropped", n == 2 &&
	      others_zero(d, XC_DROP__MAX));
	balanced("rx budget", d);
	rig_done(r);
}

static void test_peer_down(struct rig *r)
{
	struct xc_dir *d = rig_dir(r, &(struct rig_opts){ 0 });

	d->tx->port->link_up = 0;
	feed(r, 0, 10);
	xc_dir_poll(d);
	CHECK("peer link down: 10 frames received, dropped as peer-down",
	      d->st.rx_pkts == 10 && drop_of(d, XC_DROP_PEER_DOWN) == 10 &&
	      rig_given(r) == 0 && others_zero(d, XC_DROP_PEER_DOWN));
	d->tx->port->link_up = 1;
	d->tx->port->txq_on = 0;
	feed(r, 10, 10);
	xc_dir_poll(d);
	CHECK("peer queue disabled: 10 more dropped as peer-down",
	      drop_of(d, XC_DROP_PEER_DOWN) == 20);
	d->tx->port->txq_on = 1;
	feed(r, 20, 100);
	xc_dir_poll(d);
	xc_dir_poll(d);
	xc_dir_poll(d);		/* 64 sent, 32 held */
	d->tx->port->link_up = 0;
	xc_dir_poll(d);
	CHECK("peer goes down with 32 frames held: they are peer-down",
	      drop_of(d, XC_DROP_PEER_DOWN) == 52 && d->st.tx_pkts == 64);
	balanced("peer-down", d);
	rig_done(r);
}

/**
 * test_move_holds() - the guest a direction sends to moves (migrate.c):
 *		       the event thread names the cable's word it will set
 *		       and the guest disables its queues, while the lcore
 *		       has read that word before it was set (once a poll).
 *		       tx_stopping() must keep what the direction holds,
 *		       held frames and a burst just received, until the
 *		       destination takes over: none dropped, all in order
 * @r:		rig
 */
static void test_move_holds(struct rig *r)
{
	struct xc_dir *d = rig_dir(r, &(struct rig_opts){ 0 });
	struct xc_port *p = d->tx->port;
	struct rte_mbuf *m[OUT_CAP];
	unsigned int k, i, work, got;
	bool ok = true;

	feed(r, 0, 100);
	xc_dir_poll(d);
	xc_dir_poll(d);
	xc_dir_poll(d);		/* 64 sent, 32 held, 4 waiting */
	p->hold_bits = XC_PAUSED_HOLD(d->tx->idx);
	p->hold_word = &r->paused;	/* the word itself not set yet */
	p->txq_on = 0;
	work = xc_dir_poll(d);
	CHECK("the guest moves, its queues off, the hold not seen yet: "
	      "the 32 held frames wait, none dropped",
	      work == 0 && d->hold_n == 32 && xc_stats_drops(&d->st) == 0);
	r->paused = XC_PAUSED_HOLD(d->tx->idx);
	work = xc_dir_poll(d);
	CHECK("the hold seen: nothing moves, nothing received",
	      work == 0 && d->st.rx_pkts == 96 && rig_waiting(r) == 4);
	/* the destination takes over: frames go on where they stopped */
	r->paused = 0;
	p->hold_word = NULL;
	p->txq_on = 1;
	k = rig_out(r, m, OUT_CAP);
	for (i = 0; i < k; i++) {
		if (!unit_frame_ok(m[i], i, (uint16_t)(60 + i * 37 % 1400)))
			ok = false;
		rte_pktmbuf_free(m[i]);
	}
	got = run(r, k, &ok);
	CHECK("after the move: all 100 arrive, in order, none dropped",
	      k == 64 && got == 36 && ok && xc_stats_drops(&d->st) == 0);
	balanced("move, held frames", d);
	rig_done(r);

	d = rig_dir(r, &(struct rig_opts){ 0 });
	p = d->tx->port;
	p->hold_bits = XC_PAUSED_HOLD(d->tx->idx);
	p->hold_word = &r->paused;
	p->txq_on = 0;
	feed(r, 0, 10);
	work = xc_dir_poll(d);
	xc_dir_poll(d);
	CHECK("a burst received as the guest's queues go off: it waits, "
	      "none dropped", work == 10 && d->st.rx_pkts == 10 &&
	      xc_stats_drops(&d->st) == 0 && rig_given(r) == 0);
	p->hold_word = NULL;
	p->txq_on = 1;
	ok = true;
	got = run(r, 0, &ok);
	CHECK("after the move: the 10 arrive in order, none dropped",
	      got == 10 && ok && xc_stats_drops(&d->st) == 0);
	balanced("move, fresh burst", d);
	rig_done(r);
}

static void test_cable_down(struct rig *r)
{
	static const struct xc_impair_cfg delay = { .delay_us = 1000000,
		.limit = XC_IMPAIR_LIMIT_DEFAULT };
	struct xc_dir *d = rig_dir(r, &(struct rig_opts){ 0 });
	unsigned int work;

	feed(r, 0, 100);
	xc_dir_poll(d);
	xc_dir_poll(d);
	xc_dir_poll(d);		/* 64 sent, 32 held */
	r->paused = 1;
	work = xc_dir_poll(d);
	CHECK("cable pulled with 32 frames held: cable-down 32, no port "
	      "touched", work == 0 && drop_of(d, XC_DROP_CABLE_DOWN) == 32 &&
	      rig_waiting(r) == 4 && d->st.rx_pkts == 96 &&
	      others_zero(d, XC_DROP_CABLE_DOWN));
	xc_dir_poll(d);
	CHECK("cable still pulled: nothing received", d->st.rx_pkts == 96);
	balanced("cable-down", d);
	rig_done(r);

	d = rig_dir(r, &(struct rig_opts){ .im = &delay });
	feed(r, 0, 5);
	xc_dir_poll(d);
	r->paused = 1;
	xc_dir_poll(d);
	CHECK("cable pulled with 5 frames delayed: cable-down 5",
	      drop_of(d, XC_DROP_CABLE_DOWN) == 5 && d->st.tx_pkts == 0);
	balanced("cable-down, delayed", d);
	rig_done(r);
}

static void test_shutdown(struct rig *r)
{
	struct xc_dir *d = rig_dir(r, &(struct rig_opts){ 0 });

	feed(r, 0, 100);
	xc_dir_poll(d);
	xc_dir_poll(d);
	xc_dir_poll(d);		/* 64 sent, 32 held, 4 waiting */
	xc_dir_flush(d, XC_DROP_SHUTDOWN);
	CHECK("shutdown: xc_dir_flush drops the 32 held as shutdown",
	      drop_of(d, XC_DROP_SHUTDOWN) == 32 &&
	      others_zero(d, XC_DROP_SHUTDOWN));
	xc_dir_drain(d, 1000);
	CHECK("shutdown: xc_dir_drain takes the 4 waiting, counts them "
	      "received and shutdown", rig_waiting(r) == 0 &&
	      d->st.rx_pkts == 100 && drop_of(d, XC_DROP_SHUTDOWN) == 36);
	balanced("shutdown", d);
	rig_done(r);
}

static void test_offload_drops(struct rig *r)
{
	static const struct spec ufo6 = { .v4 = false, .tcp = false,
					  .payload = 3000, .mss = 1000 };
	static const struct spec tso = { .v4 = true, .tcp = true,
					 .payload = 3000, .mss = 1000 };
	static const uint16_t len[] = { 900, 1200, 1000, 1001 };
	static struct frame f;
	struct xc_dir *d = rig_dir(r, &(struct rig_opts){ .max_frame = 1000 });
	struct rte_mbuf *m, *out[8];
	unsigned int i, n;

	for (i = 0; i < 4; i++)
		rig_in(r, unit_frame(pool, i, len[i]));
	xc_dir_poll(d);
	n = rig_out(r, out, 8);
	CHECK("receiver takes 1000 bytes: 900 and 1000 pass, 1200 and 1001 "
	      "are too-big", n == 2 && unit_seq(out[0], 0) == 0 &&
	      unit_seq(out[1], 0) == 2 && drop_of(d, XC_DROP_TOO_BIG) == 2 &&
	      others_zero(d, XC_DROP_TOO_BIG));
	rte_pktmbuf_free_bulk(out, n);
	balanced("too-big", d);
	rig_done(r);

	d = rig_dir(r, &(struct rig_opts){ .max_frame = 1514 });
	m = tso_frame(&tso, &f);
	m->tso_segsz = 0;	/* TSO without a segment size */
	rig_in(r, m);
	rig_in(r, tso_frame(&ufo6, &f));
	rig_in(r, unit_frame(pool, 9, 100));
	xc_dir_poll(d);
	n = rig_out(r, out, 8);
	CHECK("TSO with mss 0: bad-offload; UFO over IPv6: unsupported; the "
	      "frame behind them passes", n == 1 && unit_seq(out[0], 0) == 9 &&
	      drop_of(d, XC_DROP_BAD_OFFLOAD) == 1 &&
	      drop_of(d, XC_DROP_UNSUPPORTED) == 1);
	rte_pktmbuf_free_bulk(out, n);
	balanced("bad-offload, unsupported", d);
	rig_done(r);
}

static void test_impair_drops(struct rig *r)
{
	static const struct xc_impair_cfg loss = { .loss_ppm = 1000000,
		.limit = XC_IMPAIR_LIMIT_DEFAULT };
	static const struct xc_impair_cfg full = { .delay_us = 1000000,
		.limit = 5 };
	static const struct xc_impair_cfg delay = { .delay_us = 20000,
		.limit = XC_IMPAIR_LIMIT_DEFAULT };
	struct xc_dir *d = rig_dir(r, &(struct rig_opts){ .im = &loss });
	unsigned int got, early;
	bool ok = true;

	feed(r, 0, 20);
	run(r, 0, &ok);
	CHECK("loss 100%: 20 frames impair-loss, none sent",
	      drop_of(d, XC_DROP_IMPAIR_LOSS) == 20 && d->st.tx_pkts == 0 &&
	      others_zero(d, XC_DROP_IMPAIR_LOSS));
	balanced("impair-loss", d);
	rig_done(r);

	d = rig_dir(r, &(struct rig_opts){ .im = &full });
	feed(r, 0, 20);
	xc_dir_poll(d);
	CHECK("delay 1 s, limit 5: 15 of 20 frames impair-queue-full",
	      drop_of(d, XC_DROP_IMPAIR_FULL) == 15 && d->st.tx_pkts == 0);
	rig_done(r);
	CHECK("the 5 delayed frames are counted shutdown when flushed",
	      drop_of(d, XC_DROP_SHUTDOWN) == 5);
	balanced("impair-queue-full", d);

	d = rig_dir(r, &(struct rig_opts){ .im = &delay });
	feed(r, 0, 10);
	xc_dir_poll(d);
	early = rig_given(r);
	rte_delay_us_sleep(25000);
	ok = true;
	got = run(r, 0, &ok);
	CHECK("delay 20 ms: nothing at once, all 10 in order after 25 ms "
	      "(with nothing new received)", early == 0 && got == 10 && ok);
	balanced("delay", d);
	rig_done(r);
}

/**
 * untag() - check and remove the outer tag 20 a frame got for the trunk
 * @m:		frame
 *
 * Return: true if it had 802.1ad tag 20 behind its MAC addresses
 */
static bool untag(struct rte_mbuf *m)
{
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);

	if (memcmp(p + 12, "\x88\xa8\x00\x14", 4))
		return false;
	memmove(p + 4, p, 12);
	rte_pktmbuf_adj(m, 4);
	return true;
}

static void test_stage_order(struct rig *r)
{
	static const struct spec s = { .v4 = true, .tcp = true,
				       .payload = 5000, .mss = 1000,
				       .tcp_flags = 0x10 };
	static const struct xc_impair_cfg loss = { .loss_ppm = 1000000,
		.limit = XC_IMPAIR_LIMIT_DEFAULT };
	static struct frame orig, g;
	struct rig_opts o = { .max_frame = 1514, .to_trunk = true };
	struct rte_mbuf *out[OUT_CAP], *m;
	unsigned int n, i;
	bool ok = true;
	struct xc_dir *d = rig_dir(r, &o);

	rig_in(r, tso_frame(&s, &orig));
	xc_dir_poll(d);
	n = rig_out(r, out, OUT_CAP);
	for (i = 0; i < n; i++) {
		if (!untag(out[i])) {
			ok = false;
			continue;
		}
		flatten(out[i], &g);
		if (!check_tcp_segment("stages", &s, &orig, &g, (int)i, 5,
				       false))
			ok = false;
	}
	rte_pktmbuf_free_bulk(out, n);
	CHECK("fix-up, then tag: a TSO frame to a trunk member without TSO "
	      "becomes 5 right segments, each with the outer tag", n == 5 && ok);
	balanced("fix-up then tag", d);
	rig_done(r);

	o.im = &loss;
	d = rig_dir(r, &o);
	rig_in(r, tso_frame(&s, &orig));
	m = unit_frame(pool, 1, 100);
	m->data_off = 0;	/* no room for the tag */
	rig_in(r, m);
	xc_dir_poll(d);
	CHECK("fix-up, then impairment: loss 100% loses 5 segments, not 1 "
	      "frame", d->st.seg_out == 5 &&
	      drop_of(d, XC_DROP_IMPAIR_LOSS) == 5);
	CHECK("tag, then impairment: a frame without headroom is no-mbuf, "
	      "not impair-loss", drop_of(d, XC_DROP_NO_MBUF) == 1);
	balanced("impairment after fix-up and tag", d);
	rig_done(r);
}

static void test_whole(struct rig *r)
{
	static uint8_t buf[3000];
	struct rig_opts o = { .whole_only = true, .to_trunk = true };
	struct rte_mbuf *out[8], *held[256];
	unsigned int n, k, i;
	struct xc_dir *d;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7 + 3);
	d = rig_dir(r, &o);
	rig_in(r, mbuf_chain(pool, buf, 1500, 700, 400));
	rig_in(r, mbuf_chain(pool, buf, 3000, 1000, 1000));
	xc_dir_poll(d);
	n = rig_out(r, out, 8);
	CHECK("whole-only receiver: a 3-mbuf chain arrives as one mbuf, "
	      "tagged, bytes intact", n == 1 && out[0]->nb_segs == 1 &&
	      out[0]->pool == own && untag(out[0]) &&
	      out[0]->pkt_len == 1500 &&
	      !memcmp(rte_pktmbuf_mtod(out[0], uint8_t *), buf, 1500));
	CHECK("whole-only receiver: a chain of 3000 bytes does not fit one "
	      "mbuf: too-big", drop_of(d, XC_DROP_TOO_BIG) == 1 &&
	      others_zero(d, XC_DROP_TOO_BIG));
	rte_pktmbuf_free_bulk(out, n);
	balanced("whole", d);
	rig_done(r);

	d = rig_dir(r, &o);
	for (k = 0; k < 256 && (held[k] = rte_pktmbuf_alloc(own)); k++)
		;
	rig_in(r, mbuf_chain(pool, buf, 1500, 700, 400));
	xc_dir_poll(d);
	CHECK("whole-only receiver, its pool empty: the chain is no-mbuf",
	      drop_of(d, XC_DROP_NO_MBUF) == 1 && rig_out(r, out, 8) == 0);
	rte_pktmbuf_free_bulk(held, k);
	balanced("whole, no mbuf", d);
	rig_done(r);
}

static void test_from_trunk(struct rig *r)
{
	struct xc_dir *d = rig_dir(r, &(struct rig_opts){ .from_trunk = true });
	uint64_t unknown = r->trunk.unknown_tag;
	struct rte_mbuf *out[8], *m;
	unsigned int n;
	uint16_t tag;

	for (tag = 10; tag <= 30; tag += 10) {
		m = unit_frame(pool, tag, 100);
		xc_trunk_push(m, 0x88a8, tag);
		rig_in(r, m);
	}
	xc_dir_poll(d);
	n = rig_out(r, out, 8);
	CHECK("from trunk member 10: only the tag-10 frame, untagged",
	      n == 1 && unit_frame_ok(out[0], 10, 100) &&
	      d->st.rx_pkts == 1 && r->trunk.unknown_tag == unknown + 1);
	rte_pktmbuf_free_bulk(out, n);
	balanced("from trunk", d);
	rig_done(r);
}

/* ---- coalescing: TCP segments from a trunk member, to a guest ---- */

#define CO_MSS		1000	/* payload of each segment but the last */

/* the byte at offset @off of the test stream */
static uint8_t co_byte(uint32_t off)
{
	return (uint8_t)(off * 7 + (off >> 8) + 3);
}

/**
 * co_seg6() - one segment of a TCP stream, as a Linux sender's TSO would
 *	       cut it, tagged for trunk member 10
 * @i:		its index: payload from i * CO_MSS, IP ID L4F_ID0 + i
 * @len:	payload bytes
 * @flags:	TCP flags
 * @tos:	IP TOS (IPv6: added to the traffic class)
 * @bad_sum:	spoil its TCP checksum
 * @v6:		over IPv6, else IPv4
 *
 * Return: the frame (NULL if the pool is empty)
 */
static struct rte_mbuf *co_seg6(uint32_t i, uint32_t len, uint8_t flags,
				uint8_t tos, bool bad_sum, bool v6)
{
	static struct frame f;
	struct spec s = { .v4 = !v6, .tcp = true, .payload = len,
			  .tcp_flags = flags };
	struct rte_mbuf *m;
	uint8_t *ip, *th, *p;
	uint32_t k, l4len;

	build_flat(&s, &f);
	ip = f.b + f.l2;
	th = ip + f.l3;
	for (k = 0; k < len; k++)
		th[f.l4 + k] = co_byte(i * CO_MSS + k);
	if (v6) {
		ip[1] |= (uint8_t)(tos << 4);
	} else {
		ip[1] = tos;
		put16(ip + 4, (uint16_t)(L4F_ID0 + i));
		put16(ip + 10, 0);
		put16(ip + 10, (uint16_t)~fold16(sum16(ip, 20, 0)));
	}
	put32(th + 4, L4F_SEQ0 + i * CO_MSS);
	l4len = f.l4 + len;
	put16(th + 16, 0);
	put16(th + 16, (uint16_t)~fold16(sum16(th, l4len,
					     pseudo(ip, !v6, 6, l4len))));
	if (bad_sum)
		th[17] ^= 1;
	m = rte_pktmbuf_alloc(pool);
	p = m ? (uint8_t *)rte_pktmbuf_append(m, (uint16_t)f.len) : NULL;
	if (p == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memcpy(p, f.b, f.len);
	xc_trunk_push(m, 0x88a8, 10);
	return m;
}

/* co_seg() - co_seg6() over IPv4 */
static struct rte_mbuf *co_seg(uint32_t i, uint32_t len, uint8_t flags,
			       uint8_t tos, bool bad_sum)
{
	return co_seg6(i, len, flags, tos, bad_sum, false);
}

/**
 * co_joined6() - tell whether a frame is segments @first..@first+@n-1
 *		  joined: one TSO frame with their payload in order, the
 *		  first's headers with the IP length (and IPv4 checksum)
 *		  made right, the pseudo-header sum, gso_size CO_MSS
 * @m:		the frame
 * @first:	index of its first segment
 * @n:		segments
 * @payload:	payload bytes in all
 * @psh:	PSH expected
 * @v6:		over IPv6, else IPv4
 *
 * Return: true if so
 */
static bool co_joined6(const struct rte_mbuf *m, uint32_t first,
		       unsigned int n, uint32_t payload, bool psh, bool v6)
{
	static struct frame f;
	const uint8_t *ip, *th;
	uint32_t k, l3 = v6 ? 40 : 20;

	if (m->nb_segs != n || m->pkt_len > sizeof(f.b) ||
	    !(m->ol_flags & RTE_MBUF_F_TX_TCP_SEG) || m->tso_segsz != CO_MSS ||
	    !(m->ol_flags & (v6 ? RTE_MBUF_F_TX_IPV6 : RTE_MBUF_F_TX_IPV4)) ||
	    m->l3_len != l3)
		return false;
	flatten(m, &f);
	f.l2 = 14;
	f.l3 = l3;
	f.l4 = 32;
	f.v4 = !v6;
	f.tcp = true;
	ip = f.b + 14;
	th = ip + l3;
	if (f.len != 14 + l3 + 32 + payload ||
	    (v6 ? get16(ip + 4) != 32 + payload :
		  get16(ip + 2) != 20 + 32 + payload ||
		  get16(ip + 4) != (uint16_t)(L4F_ID0 + first) ||
		  !ip4_valid(&f)) ||
	    !l4_partial_ok(&f) || get32(th + 4) != L4F_SEQ0 + first * CO_MSS ||
	    th[13] != (RTE_TCP_ACK_FLAG | (psh ? RTE_TCP_PSH_FLAG : 0)))
		return false;
	for (k = 0; k < payload; k++)
		if (th[32 + k] != co_byte(first * CO_MSS + k))
			return false;
	return true;
}

/* co_joined() - co_joined6() over IPv4 */
static bool co_joined(const struct rte_mbuf *m, uint32_t first, unsigned int n,
		      uint32_t payload, bool psh)
{
	return co_joined6(m, first, n, payload, psh, false);
}

/* IPv6: joined for a receiver with TSO6 alone, never with IPv4
 * segments, a new traffic class or a spoiled checksum ending a run */
static void test_coalesce6(struct rig *r)
{
	const uint8_t ack = RTE_TCP_ACK_FLAG, psh = ack | RTE_TCP_PSH_FLAG;
	struct rig_opts o = { .from_trunk = true,
			      .caps = XC_CAP_CSUM | XC_CAP_TSO6,
			      .max_frame = 65535 };
	struct rte_mbuf *out[32];
	struct xc_dir *d = rig_dir(r, &o);
	unsigned int n, i;

	for (i = 0; i < 8; i++)
		rig_in(r, co_seg6(i, i < 7 ? CO_MSS : 300, i < 7 ? ack : psh, 0,
				  false, true));
	xc_dir_poll(d);
	n = rig_out(r, out, RTE_DIM(out));
	CHECK("coalesce: eight IPv6 segments become one TSO frame (TSO6)",
	      n == 1 && co_joined6(out[0], 0, 8, 7 * CO_MSS + 300, true, true) &&
	      d->st.coal_frames == 1 && d->st.coal_in == 8);
	rte_pktmbuf_free_bulk(out, n);
	balanced("coalesce IPv6", d);
	rig_done(r);

	/* IPv4 segments 0-2 (not joined: no TSO4), IPv6 3-4, a spoiled
	 * checksum (5), 6-7, a new traffic class (8): 0, 1, 2, 3-4, 5,
	 * 6-7, 8 */
	d = rig_dir(r, &o);
	for (i = 0; i < 9; i++)
		rig_in(r, co_seg6(i, CO_MSS, ack, i == 8 ? 4 : 0, i == 5,
				  i >= 3));
	xc_dir_poll(d);
	n = rig_out(r, out, RTE_DIM(out));
	CHECK("coalesce: IPv6 not joined to IPv4, past a bad checksum or a new traffic class",
	      n == 7 && out[0]->nb_segs == 1 && out[1]->nb_segs == 1 &&
	      out[2]->nb_segs == 1 &&
	      co_joined6(out[3], 3, 2, 2 * CO_MSS, false, true) &&
	      out[4]->nb_segs == 1 &&
	      co_joined6(out[5], 6, 2, 2 * CO_MSS, false, true) &&
	      out[6]->nb_segs == 1 &&
	      d->st.coal_frames == 2 && d->st.coal_in == 4);
	rte_pktmbuf_free_bulk(out, n);
	balanced("coalesce IPv6 refusals", d);
	rig_done(r);

	/* a new hop limit (segment 2) or flow label (4) ends a run: 0-1, 2,
	 * 3, 4, 5 */
	d = rig_dir(r, &o);
	for (i = 0; i < 6; i++) {
		struct rte_mbuf *s6 = co_seg6(i, CO_MSS, ack, 0, false, true);
		/* behind the trunk's tag: the IPv6 header at 18 */
		uint8_t *ip = rte_pktmbuf_mtod_offset(s6, uint8_t *, 18);

		if (i == 2)
			ip[7] = 63;
		if (i == 4)
			ip[3] = 5;
		rig_in(r, s6);
	}
	xc_dir_poll(d);
	n = rig_out(r, out, RTE_DIM(out));
	CHECK("coalesce: a new IPv6 hop limit or flow label ends a run",
	      n == 5 && co_joined6(out[0], 0, 2, 2 * CO_MSS, false, true) &&
	      out[1]->nb_segs == 1 && out[4]->nb_segs == 1 &&
	      d->st.coal_frames == 1 && d->st.coal_in == 2);
	rte_pktmbuf_free_bulk(out, n);
	balanced("coalesce IPv6 stream", d);
	rig_done(r);

	/* the receiver's largest frame counts the IPv6 header: two
	 * segments make 14 + 40 + 32 + 2 * CO_MSS bytes, which fit a
	 * receiver taking exactly that, and not one taking a byte less */
	for (i = 0; i < 2; i++) {
		unsigned int k;

		o.max_frame = 14 + 40 + 32 + 2 * CO_MSS - i;
		d = rig_dir(r, &o);
		for (k = 0; k < 4; k++)
			rig_in(r, co_seg6(k, CO_MSS, ack, 0, false, true));
		xc_dir_poll(d);
		n = rig_out(r, out, RTE_DIM(out));
		CHECK(i == 0 ? "coalesce: IPv6 frames up to the receiver's largest" :
			       "coalesce: no IPv6 frame above the receiver's largest",
		      i == 0 ? n == 2 && co_joined6(out[0], 0, 2, 2 * CO_MSS, false, true) &&
			       co_joined6(out[1], 2, 2, 2 * CO_MSS, false, true) :
			       n == 4 && d->st.coal_frames == 0);
		rte_pktmbuf_free_bulk(out, n);
		balanced("coalesce IPv6 largest frame", d);
		rig_done(r);
	}
	o.max_frame = 65535;

	/* a receiver with TSO4 alone gets IPv6 segments as they came */
	o.caps = XC_CAP_CSUM | XC_CAP_TSO4;
	d = rig_dir(r, &o);
	for (i = 0; i < 4; i++)
		rig_in(r, co_seg6(i, CO_MSS, ack, 0, false, true));
	xc_dir_poll(d);
	n = rig_out(r, out, RTE_DIM(out));
	CHECK("coalesce: a receiver without TSO6 gets IPv6 segments alone",
	      n == 4 && d->st.coal_frames == 0);
	rte_pktmbuf_free_bulk(out, n);
	balanced("coalesce IPv6 without TSO6", d);
	rig_done(r);
}

static void test_coalesce(struct rig *r)
{
	const uint8_t ack = RTE_TCP_ACK_FLAG, psh = ack | RTE_TCP_PSH_FLAG;
	struct rig_opts o = { .from_trunk = true,
			      .caps = XC_CAP_CSUM | XC_CAP_TSO4,
			      .max_frame = 65535 };
	struct rte_mbuf *out[32], *m;
	struct xc_dir *d = rig_dir(r, &o);
	unsigned int n, i;

	/* a frame of another kind, ten segments (the last shorter, PSH),
	 * another frame: the segments become one frame between the two */
	m = unit_frame(pool, 1, 100);
	xc_trunk_push(m, 0x88a8, 10);
	rig_in(r, m);
	for (i = 0; i < 10; i++)
		rig_in(r, co_seg(i, i < 9 ? CO_MSS : 600, i < 9 ? ack : psh, 0,
				 false));
	m = unit_frame(pool, 2, 100);
	xc_trunk_push(m, 0x88a8, 10);
	rig_in(r, m);
	xc_dir_poll(d);
	n = rig_out(r, out, RTE_DIM(out));
	CHECK("coalesce: ten segments from a trunk become one TSO frame, in place",
	      n == 3 && unit_frame_ok(out[0], 1, 100) &&
	      co_joined(out[1], 0, 10, 9 * CO_MSS + 600, true) &&
	      unit_frame_ok(out[2], 2, 100) &&
	      d->st.coal_frames == 1 && d->st.coal_in == 10 &&
	      d->st.rx_pkts == 12 && d->st.tx_pkts == 3);
	rte_pktmbuf_free_bulk(out, n);
	balanced("coalesce", d);
	rig_done(r);

	/* what must not be joined: a spoiled checksum (segment 3), a gap
	 * (segment 6 missing: 7 starts anew), another TOS (segment 8, and
	 * so 9 after it): 0-2, 3, 4-5, 7, 8, 9 */
	d = rig_dir(r, &o);
	for (i = 0; i < 10; i++)
		if (i != 6)
			rig_in(r, co_seg(i, CO_MSS, ack, i == 8 ? 4 : 0, i == 3));
	xc_dir_poll(d);
	n = rig_out(r, out, RTE_DIM(out));
	CHECK("coalesce: no segment joined past a bad checksum, a gap or a new TOS",
	      n == 6 && co_joined(out[0], 0, 3, 3 * CO_MSS, false) &&
	      out[1]->nb_segs == 1 && out[1]->pkt_len == 14 + 20 + 32 + CO_MSS &&
	      co_joined(out[2], 4, 2, 2 * CO_MSS, false) &&
	      out[3]->nb_segs == 1 && out[4]->nb_segs == 1 &&
	      out[5]->nb_segs == 1 &&
	      d->st.coal_frames == 2 && d->st.coal_in == 5);
	rte_pktmbuf_free_bulk(out, n);
	balanced("coalesce refusals", d);
	rig_done(r);

	/* a receiver without TSO gets every segment as it came */
	o.caps = XC_CAP_CSUM;
	o.max_frame = 0;
	d = rig_dir(r, &o);
	for (i = 0; i < 10; i++)
		rig_in(r, co_seg(i, CO_MSS, ack, 0, false));
	xc_dir_poll(d);
	n = rig_out(r, out, RTE_DIM(out));
	CHECK("coalesce: a receiver without TSO gets the segments alone",
	      n == 10 && d->st.coal_frames == 0 && out[0]->nb_segs == 1 &&
	      out[9]->nb_segs == 1);
	rte_pktmbuf_free_bulk(out, n);
	balanced("coalesce without TSO", d);
	rig_done(r);
	test_coalesce6(r);
}

/* a cable's pool (pool.c) hands back the mbuf freed last, whose memory
 * the CPU still caches, before it grows and after it shrinks; growing
 * and shrinking keep the count */
static void test_pool_lifo(void)
{
	static struct rte_mbuf *held[64];
	struct rte_mbuf *m;
	struct xc_pool xp;
	unsigned int i, first;
	bool ok = true;

	if (xc_pool_create(&xp, "t_xp", 256, 1024, RTE_MBUF_DEFAULT_BUF_SIZE,
			   0)) {
		CHECK("a cable pool of up to 256 mbufs is made", false);
		return;
	}
	first = xp.n;
	for (i = 0; i < RTE_DIM(held); i++)
		ok &= (held[i] = rte_pktmbuf_alloc(xp.mp)) != NULL;
	rte_pktmbuf_free(held[7]);
	m = rte_pktmbuf_alloc(xp.mp);
	CHECK("of 64 taken, the one freed is the next one taken",
	      ok && first > 64 && m == held[7]);
	xc_pool_grow(&xp, true);
	rte_pktmbuf_free(held[9]);
	m = rte_pktmbuf_alloc(xp.mp);
	CHECK("grown to twice its mbufs, all free but the 64 out; the mbuf "
	      "freed last is still taken first",
	      xp.n == 2 * first &&
	      rte_mempool_avail_count(xp.mp) == xp.n - 64 && m == held[9]);
	rte_pktmbuf_free_bulk(held, RTE_DIM(held));
	xp.idle_since = 1;	/* as if idle for XC_POOL_IDLE_MS already */
	xc_pool_shrink(&xp, false);
	m = rte_pktmbuf_alloc(xp.mp);
	ok = m != NULL && rte_mempool_avail_count(xp.mp) == first - 1;
	rte_pktmbuf_free(m);
	CHECK("idle: shrunk back to its first mbufs, which still work",
	      xp.n == first && xp.n_chunks == 0 && ok);
	xc_pool_free(&xp);
}

int main(int argc, char **argv)
{
	static struct rig r;

	(void)argc;
	if (unit_eal_init(argv[0]))
		return 2;
	pool = rte_pktmbuf_pool_create("t_pool", 8191, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	ipool = rte_pktmbuf_pool_create("t_ipool", 8191, 0, 0, 0, 0);
	own = rte_pktmbuf_pool_create("t_own", 255, 0, 0,
				      RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (pool == NULL || ipool == NULL || own == NULL || rig_init(&r)) {
		fprintf(stderr, "test_fwd: set-up failed\n");
		return 2;
	}
	test_unaccounted();
	test_order(&r);
	test_backpressure(&r);
	test_hold_segments(&r);
	test_segment_waits(&r);
	test_rx_budget(&r);
	test_peer_down(&r);
	test_move_holds(&r);
	test_cable_down(&r);
	test_shutdown(&r);
	test_offload_drops(&r);
	test_impair_drops(&r);
	test_stage_order(&r);
	test_whole(&r);
	test_from_trunk(&r);
	test_coalesce(&r);
	test_pool_lifo();
	CHECK("no mbuf leaked", rte_mempool_in_use_count(pool) == 0 &&
	      rte_mempool_in_use_count(ipool) == 0 &&
	      rte_mempool_in_use_count(own) == 0);
	unit_eal_fini();
	return fails ? 1 : 0;
}
