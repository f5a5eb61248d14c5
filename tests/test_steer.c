/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_steer.c - unit tests of multiqueue steering (app/datapath/steer.h, and the
 *		  steer stage of app/datapath/fwd.c on DPDK's ring driver), without
 *		  root or hugepages
 *
 * The flow hash: a flow and its replies hash alike, IPv4 and IPv6, TCP,
 * UDP, behind VLAN tags; fragments of one datagram hash alike; anything
 * that is not IP, or is cut short, hashes to 0 (every prefix of a frame is
 * read safely). The choice of queue: the queue the guest last sent the
 * flow on, if enabled; else a stable one by hash; non-IP on the lowest.
 *
 * Then two directions between two-queue ring ports A and B, as a cable
 * between two multiqueue guests: A's flows arrive at B each on one queue,
 * in order, whatever queue A sent them on; once B answers a flow on its
 * queue 1, what A sends of it arrives on B's queue 1; a queue B disables
 * is not used; a queue that takes no more holds its frames, in order,
 * while the other queue's frames go through, and nothing is lost; a flow
 * A moves to its other queue while frames of it are held is not
 * reordered.
 *
 * Prints "ok NAME" or "FAIL NAME: why" per check; exits 1 on any failure.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "cable.h"
#include "dir.h"
#include "steer.h"
#include "unitlib.h"

#define NQ	2	/* queue pairs of the ports */
#define CAP	64	/* frames a receive queue takes until read */

static int fails;
static struct rte_mempool *pool;

/* ================= frames ================= */

/**
 * struct flow - what a test frame carries
 * @v6:		IPv6, else IPv4
 * @proto:	6 TCP, 17 UDP, anything else
 * @src:	last byte of the source address
 * @dst:	last byte of the destination address
 * @sport:	source port
 * @dport:	destination port
 * @tags:	VLAN tags in front (0, 1 or 2)
 * @frag:	IPv4 fragment offset in 8-byte units (0: first or whole)
 * @mf:		IPv4 more-fragments flag
 */
struct flow {
	bool v6;
	uint8_t proto, src, dst;
	uint16_t sport, dport;
	int tags;
	uint16_t frag;
	bool mf;
};

/**
 * build() - write a frame of @f with sequence number @seq in its payload
 * @b:		buffer of at least 128 bytes
 * @f:		flow
 * @seq:	number
 *
 * Return: its length
 */
static uint32_t build(uint8_t *b, const struct flow *f, uint32_t seq)
{
	uint32_t o = 12, ip, l4;
	int t;

	memset(b, 0, 128);
	memcpy(b, "\x02\0\0\0\0\x02\x02\0\0\0\0\x01", 12);
	for (t = 0; t < f->tags; t++, o += 4) {
		b[o] = t == 0 && f->tags == 2 ? 0x88 : 0x81;
		b[o + 1] = t == 0 && f->tags == 2 ? 0xa8 : 0x00;
		b[o + 3] = (uint8_t)(10 + t);
	}
	b[o] = f->v6 ? 0x86 : 0x08;
	b[o + 1] = f->v6 ? 0xdd : 0x00;
	ip = o + 2;
	if (f->v6) {
		b[ip] = 0x60;
		b[ip + 6] = f->proto;
		b[ip + 8] = b[ip + 24] = 0xfd;
		b[ip + 23] = f->src;
		b[ip + 39] = f->dst;
		l4 = ip + 40;
	} else {
		b[ip] = 0x45;
		b[ip + 6] = (uint8_t)((f->mf ? 0x20 : 0) | f->frag >> 8);
		b[ip + 7] = (uint8_t)f->frag;
		b[ip + 9] = f->proto;
		b[ip + 12] = b[ip + 16] = 10;
		b[ip + 15] = f->src;
		b[ip + 19] = f->dst;
		l4 = ip + 20;
	}
	if (!f->frag) {
		b[l4] = (uint8_t)(f->sport >> 8);
		b[l4 + 1] = (uint8_t)f->sport;
		b[l4 + 2] = (uint8_t)(f->dport >> 8);
		b[l4 + 3] = (uint8_t)f->dport;
	}
	memcpy(b + l4 + 20, &seq, sizeof(seq));
	return l4 + 40;
}

/* hash() - the flow hash of a frame of @f */
static uint32_t hash(const struct flow *f)
{
	uint8_t b[128];
	uint32_t len = build(b, f, 0);

	return xc_steer_hash(b, len);
}

/* reverse() - the reply flow of @f */
static struct flow reverse(struct flow f)
{
	uint8_t a = f.src;
	uint16_t p = f.sport;

	f.src = f.dst;
	f.dst = a;
	f.sport = f.dport;
	f.dport = p;
	return f;
}

/* ================= the hash and the choice ================= */

static void test_hash(void)
{
	struct flow tcp4 = { .proto = 6, .src = 1, .dst = 2, .sport = 40000,
			     .dport = 5201 };
	struct flow udp6 = { .v6 = true, .proto = 17, .src = 1, .dst = 2,
			     .sport = 53, .dport = 40001 };
	struct flow other = tcp4, f1 = tcp4, f2 = tcp4, t;
	uint8_t b[128];
	uint32_t len, i, h;
	bool ok = true;

	CHECK("IPv4 TCP: a flow and its replies hash alike",
	      hash(&tcp4) != 0 && hash(&tcp4) == hash((t = reverse(tcp4), &t)));
	CHECK("IPv6 UDP: a flow and its replies hash alike",
	      hash(&udp6) != 0 && hash(&udp6) == hash((t = reverse(udp6), &t)));
	other.sport = 40002;
	CHECK("another source port is another flow",
	      hash(&other) != hash(&tcp4));
	t = tcp4;
	t.tags = 2;
	CHECK("behind two VLAN tags (802.1ad, 802.1Q): still hashed as IP",
	      hash(&t) != 0 && hash(&t) == hash((t = reverse(t), &t)));
	f1.proto = f2.proto = 17;
	f1.mf = true;
	f2.frag = 185;
	CHECK("first and later fragment of one datagram hash alike",
	      hash(&f1) == hash(&f2) && hash(&f1) != 0);
	len = build(b, &tcp4, 0);
	b[12] = 0x88;
	b[13] = 0xcc;	/* LLDP */
	CHECK("not IP: hash 0", xc_steer_hash(b, len) == 0);
	len = build(b, &udp6, 0);
	for (i = 0; i < 14 + 40; i++)
		ok &= xc_steer_hash(b, i) == 0;
	h = xc_steer_hash(b, 14 + 40);
	CHECK("every prefix shorter than the IP header hashes to 0, the "
	      "header alone to a hash", ok && h != 0);
}

static void test_pick(void)
{
	static struct xc_steer t;
	uint32_t h = 0x12345678;
	uint16_t q, again;

	xc_steer_init(&t, 4);
	q = xc_steer_pick(&t, h, 0xf, 1000);
	again = xc_steer_pick(&t, h, 0xf, 1001);

	CHECK("unknown flow: a stable queue among the enabled",
	      q == again && q < 4);
	xc_steer_learn(&t, h, (uint16_t)((q + 1) % 4), 1005);
	CHECK("the guest answers on another queue 4 ms after a frame went "
	      "to it: the flow stays", xc_steer_pick(&t, h, 0xf, 1006) == q);
	xc_steer_learn(&t, h, 3, 1006 + XC_STEER_HOLD_MS);
	CHECK("the guest answers on queue 3 once the flow was quiet for "
	      "the hold time: it moves there",
	      xc_steer_pick(&t, h, 0xf, 1020) == 3);
	CHECK("its queue disabled: another enabled queue",
	      xc_steer_pick(&t, h, 0x3, 1021) < 2);
	CHECK("not IP: the lowest enabled queue",
	      xc_steer_pick(&t, 0, 0xf, 1022) == 0 &&
	      xc_steer_pick(&t, 0, 0xc, 1022) == 2);
	h = 0x9abcdef0;
	xc_steer_learn(&t, h, 2, (uint32_t)-3);
	CHECK("times that wrap: a flow learned at the wrap stays 10 ms",
	      xc_steer_pick(&t, h, 0xf, 2) == 2 &&
	      (xc_steer_learn(&t, h, 1, 5), xc_steer_pick(&t, h, 0xf, 6)) == 2);
}

/* ================= two directions on ring ports ================= */

/**
 * struct rig - ports A and B of NQ queues each, as two guests
 * @in:		frames port X receives on queue q: in[X][q]
 * @out:	frames port X was given on queue q: out[X][q]
 * @p:		the ports
 * @e:		the ends, with flow tables
 * @ab:		direction A (queue 0) -> B
 * @ab1:	direction A (queue 1) -> B
 * @ba1:	direction B (queue 1) -> A
 * @paused:	their cable's pause flag
 */
struct rig {
	struct rte_ring *in[2][NQ], *out[2][NQ];
	struct xc_port p[2];
	struct xc_end e[2];
	struct xc_dir ab, ab1, ba1;
	uint32_t paused;
};

/**
 * rig_port() - port @x of the rig, on its rings
 * @r:		rig
 * @x:		0 for A, 1 for B
 *
 * Return: 0 or -1
 */
static int rig_port(struct rig *r, int x)
{
	char name[32];
	struct rte_eth_conf conf;
	struct xc_port *p = &r->p[x];
	uint16_t q;
	int id;

	for (q = 0; q < NQ; q++) {
		snprintf(name, sizeof(name), "in%d%u", x, q);
		r->in[x][q] = rte_ring_create(name, 1024, SOCKET_ID_ANY, 0);
		snprintf(name, sizeof(name), "out%d%u", x, q);
		r->out[x][q] = rte_ring_create(name, CAP, SOCKET_ID_ANY,
					       RING_F_EXACT_SZ);
		if (!r->in[x][q] || !r->out[x][q])
			return -1;
	}
	snprintf(name, sizeof(name), "net_ring_%c", 'A' + x);
	id = rte_eth_from_rings(name, r->in[x], NQ, r->out[x], NQ,
				SOCKET_ID_ANY);
	memset(&conf, 0, sizeof(conf));
	if (id < 0 || rte_eth_dev_configure((uint16_t)id, NQ, NQ, &conf))
		return -1;
	for (q = 0; q < NQ; q++)
		if (rte_eth_rx_queue_setup((uint16_t)id, q, 64, SOCKET_ID_ANY,
					   NULL, pool) ||
		    rte_eth_tx_queue_setup((uint16_t)id, q, 64, SOCKET_ID_ANY,
					   NULL))
			return -1;
	if (rte_eth_dev_start((uint16_t)id))
		return -1;
	memset(p, 0, sizeof(*p));
	p->id = (uint16_t)id;
	p->ops = &xc_port_eth_ops;
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->conf.n_queues = NQ;
	p->configured = p->started = true;
	p->link_up = 1;
	p->txq_on = p->rxq_on = (1u << NQ) - 1;
	p->caps = xc_caps_pack(XC_CAP_CSUM | XC_CAP_TSO4 | XC_CAP_TSO6, 9018);
	r->e[x] = (struct xc_end){ .ops = &xc_end_whole_ops, .port = p };
	snprintf(r->e[x].label, sizeof(r->e[x].label), "%c", 'A' + x);
	r->e[x].steer = rte_zmalloc("steer", sizeof(struct xc_steer), 0);
	if (r->e[x].steer == NULL)
		return -1;
	xc_steer_init(r->e[x].steer, NQ);
	return 0;
}

/**
 * rig_dir() - a direction from end @from queue @q to the other end
 * @r:		rig
 * @d:		filled
 * @from:	0 or 1
 * @q:		its receive queue (and own transmit queue)
 *
 * Return: 0 or -1
 */
static int rig_dir(struct rig *r, struct xc_dir *d, int from, uint16_t q)
{
	memset(d, 0, sizeof(*d));
	d->rx = &r->e[from];
	d->tx = &r->e[1 - from];
	d->rxq = d->txq = d->cur_txq = q;
	d->paused = &r->paused;
	snprintf(d->label, sizeof(d->label), "%s->%s", d->rx->label,
		 d->tx->label);
	xc_off_init(&d->off, pool, pool);
	if (xc_impair_init(&d->im, 1, SOCKET_ID_ANY))
		return -1;
	xc_dir_build(d);
	return 0;
}

/**
 * put() - give port @x frames of @f numbered @first.. on its queue @q
 * @r:		rig
 * @x:		port
 * @q:		queue
 * @f:		flow
 * @first:	first number
 * @n:		how many
 */
static void put(struct rig *r, int x, uint16_t q, const struct flow *f,
		 uint32_t first, unsigned int n)
{
	uint8_t b[128];
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint32_t len = build(b, f, first + i);
		struct rte_mbuf *m = mbuf_chain(pool, b, len, 0, RTE_MBUF_DEFAULT_DATAROOM);

		if (m == NULL || rte_ring_enqueue(r->in[x][q], m))
			rte_pktmbuf_free(m);
	}
}

/**
 * got() - take what port @x was given on queue @q, and check it: frames
 *	   of flow hash @h numbered @first.. in order
 * @r:		rig
 * @x:		port
 * @q:		queue
 * @f:		flow the frames must be of, NULL for any
 * @first:	number of the first
 *
 * Return: how many there were, or -1 if one was of another flow or out
 *	   of order
 */
static int got(struct rig *r, int x, uint16_t q, const struct flow *f,
	       uint32_t first)
{
	struct rte_mbuf *m[CAP];
	uint8_t b[128];
	unsigned int n, i;
	int bad = 0;

	n = rte_ring_dequeue_burst(r->out[x][q], (void **)m, CAP, NULL);
	for (i = 0; f != NULL && i < n; i++) {
		uint32_t len = build(b, f, first + i);

		if (m[i]->pkt_len != len ||
		    memcmp(rte_pktmbuf_mtod(m[i], void *), b, len))
			bad = 1;
	}
	rte_pktmbuf_free_bulk(m, n);
	return bad ? -1 : (int)n;
}

/* rounds() - run the directions a few rounds */
static void rounds(struct rig *r)
{
	int i;

	for (i = 0; i < 4; i++) {
		xc_dir_poll(&r->ab);
		xc_dir_poll(&r->ab1);
		xc_dir_poll(&r->ba1);
	}
}

/* new_flow_queue() - the queue of two a flow B never sent goes to */
static uint16_t new_flow_queue(const struct flow *f)
{
	static struct xc_steer scratch;

	xc_steer_init(&scratch, NQ);
	return xc_steer_pick(&scratch, hash(f), 3, 0);
}

static void test_directions(struct rig *r)
{
	struct flow f = { .proto = 6, .src = 1, .dst = 2, .sport = 40000,
			  .dport = 5201 }, g = f, back;
	uint16_t qf = new_flow_queue(&f);
	int nf, ng;

	g.sport = 40001;
	while (new_flow_queue(&g) == qf)
		g.sport++;	/* a flow B's hash puts on the other queue */
	/* A sends f on its queue 0, then on its queue 1; g on queue 0 */
	put(r, 0, 0, &f, 0, 10);
	put(r, 0, 0, &g, 0, 10);
	rounds(r);
	put(r, 0, 1, &f, 10, 10);
	rounds(r);
	nf = got(r, 1, qf, &f, 0);
	ng = got(r, 1, 1 - qf, &g, 0);
	CHECK("A sends a flow on two queues: B gets it on one, in order; "
	      "another flow on the other queue",
	      nf == 20 && ng == 10 && r->ab1.st.tx_pkts == 10 &&
	      r->ab.st.tx_pkts == 20);
	/* B answers f on its queue 1 at once: the flow stays where frames of
	 * it just went; once quiet for the hold time, it moves */
	back = reverse(f);
	put(r, 1, 1, &back, 0, 1);
	rounds(r);
	got(r, 0, 0, NULL, 0);
	got(r, 0, 1, NULL, 0);
	put(r, 0, 0, &f, 20, 5);
	rounds(r);
	CHECK("B answers the flow on its queue 1 just after frames of it "
	      "went to its queue 0: what A sends of it stays on queue 0",
	      qf == 1 || (got(r, 1, 0, &f, 20) == 5 &&
			  got(r, 1, 1, NULL, 0) == 0));
	got(r, 1, 0, NULL, 0);
	got(r, 1, 1, NULL, 0);
	rte_delay_ms(XC_STEER_HOLD_MS + 2);
	put(r, 1, 1, &back, 1, 1);
	rounds(r);
	got(r, 0, 0, NULL, 0);
	got(r, 0, 1, NULL, 0);
	put(r, 0, 0, &f, 20, 5);
	rounds(r);
	nf = got(r, 1, 1, &f, 20);
	CHECK("B answers on its queue 1 after the flow was quiet: what A "
	      "sends of it now arrives on B's queue 1",
	      nf == 5 && got(r, 1, 0, NULL, 0) == 0);
	/* B disables queue 1: nothing goes there */
	r->p[1].txq_on = 1;
	put(r, 0, 0, &f, 25, 5);
	rounds(r);
	CHECK("B disabled its queue 1: the flow comes on queue 0",
	      got(r, 1, 0, &f, 25) == 5 && got(r, 1, 1, NULL, 0) == 0);
	r->p[1].txq_on = 3;
}

static void test_held(struct rig *r)
{
	struct flow f = { .proto = 17, .src = 3, .dst = 4, .sport = 7,
			  .dport = 9 }, g, back = reverse(f);
	unsigned int drops = 0, i;
	int n1, n0;

	/* f learned on B's queue 1, g on B's queue 0 (both new flows) */
	g = f;
	g.sport = 8;
	put(r, 1, 1, &back, 0, 1);
	/* no direction of the rig reads B's queue 0: learn g by hand, as
	 * one would */
	xc_steer_learn(r->e[1].steer, hash(&g), 0, 0);
	rounds(r);
	got(r, 0, 0, NULL, 0);
	got(r, 0, 1, NULL, 0);
	/* 80 frames of f (queue 1 takes 64) and 10 of g, interleaved */
	for (i = 0; i < 8; i++) {
		put(r, 0, 0, &f, i * 10, 10);
		if (i == 2)
			put(r, 0, 0, &g, 0, 10);
	}
	rounds(r);
	n0 = got(r, 1, 0, &g, 0);
	n1 = got(r, 1, 1, &f, 0);
	CHECK("B's queue 1 full: its frames wait, the other queue's pass",
	      n0 == 10 && n1 == CAP && r->ab.hold_n == 16);
	rounds(r);
	n1 = got(r, 1, 1, &f, CAP);
	for (i = 0; i < XC_DROP__MAX; i++)
		drops += (unsigned int)r->ab.st.drop[i];
	CHECK("queue 1 read again: the 16 held arrive, in order, none lost",
	      n1 == 16 && r->ab.hold_n == 0 && drops == 0);
}

/* A moves a flow from its queue 0 to its queue 1 while xcable still holds
 * frames of it from queue 0 (B's queue was full): the newer frames, from
 * queue 1, must not overtake them, whichever direction is polled first */
static void test_moved_flow(struct rig *r)
{
	struct flow f = { .proto = 6, .src = 5, .dst = 6, .sport = 1234,
			  .dport = 80 };
	uint16_t qf = new_flow_queue(&f);
	int first, second;

	put(r, 0, 0, &f, 0, CAP + 16);
	xc_dir_poll(&r->ab);
	xc_dir_poll(&r->ab);
	xc_dir_poll(&r->ab);	/* B's queue full: 16 held */
	put(r, 0, 1, &f, CAP + 16, 10);
	xc_dir_poll(&r->ab1);	/* its frames are newer: they wait */
	first = got(r, 1, qf, &f, 0);
	xc_dir_poll(&r->ab1);
	xc_dir_poll(&r->ab);
	xc_dir_poll(&r->ab1);
	second = got(r, 1, qf, &f, CAP);
	CHECK("a flow moved to A's other queue while frames of it were "
	      "held: B gets all of it in order",
	      first == CAP && second == 26 && r->ab.hold_n == 0 &&
	      r->ab1.hold_n == 0);
}

int main(int argc, char **argv)
{
	static struct rig r;
	int x;

	(void)argc;
	test_hash();
	test_pick();
	if (unit_eal_init(argv[0]))
		return 2;
	pool = rte_pktmbuf_pool_create("s_pool", 4095, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (pool == NULL || rig_port(&r, 0) || rig_port(&r, 1) ||
	    rig_dir(&r, &r.ab, 0, 0) || rig_dir(&r, &r.ab1, 0, 1) ||
	    rig_dir(&r, &r.ba1, 1, 1)) {
		fprintf(stderr, "test_steer: set-up failed\n");
		return 2;
	}
	CHECK("the directions have the steer stage",
	      r.ab.n_stages == 2 && r.ba1.n_stages == 2);
	test_directions(&r);
	test_held(&r);
	test_moved_flow(&r);
	for (x = 0; x < 2; x++) {
		unit_ring_free(r.in[x][0]);
		unit_ring_free(r.in[x][1]);
		unit_ring_free(r.out[x][0]);
		unit_ring_free(r.out[x][1]);
		rte_free(r.e[x].steer);
	}
	xc_impair_fini(&r.ab.im);
	xc_impair_fini(&r.ab1.im);
	xc_impair_fini(&r.ba1.im);
	CHECK("no mbuf leaked", rte_mempool_in_use_count(pool) == 0);
	unit_eal_fini();
	return fails ? 1 : 0;
}
