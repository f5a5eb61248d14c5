/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trunk.c - many cables over one port, each under its own outer VLAN tag
 *
 * See trunk.h. Receiving: a member asking for frames gets those already
 * sorted into its queue; when it holds fewer than asked for, one burst is
 * taken from the port and sorted for every member first. From a port
 * whose frames come one at a time (xc_port_ops.rx_gather_us: af_packet,
 * af_xdp), a member's queue is handed over only once it holds what was
 * asked for, or once no frame for it came for that gap, or once its
 * first frame has waited XC_RX_GATHER_MAX_US: the segments of a TSO
 * frame the other host sent together are then taken together, and the
 * member's directions can join them again (coalesce.c). Meanwhile the
 * lcore goes on with its other directions (a guest's ACKs), and its loop
 * does not sleep while a queue holds frames (fwd.c: queued()).
 *
 * Drivers that strip the outer tag into the mbuf (af_packet: the kernel
 * strips it and the PMD reports it with RX_VLAN_STRIPPED) are read from
 * vlan_tci; that path cannot tell 802.1ad from 802.1Q, so the tag value
 * alone decides. Otherwise the frame's own bytes must carry the trunk's
 * tag type.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ether.h>

#include "coalesce.h"
#include "dir.h"
#include "stats.h"
#include "trunk.h"

/* mem() - what a member end is on its trunk */
static inline struct xc_trunk_member *mem(const struct xc_end *e)
{
	return e->priv;
}

/**
 * add() - make a cable end a member of a trunk under a tag, in its first
 *	   free slot (main thread)
 * @t:		trunk, with @port and @tpid set
 * @member:	the cable end; it becomes an end on the trunk's port
 * @tag:	VLAN id, 1..4094
 * @beside:	if another member has the tag, the new one waits beside it
 *
 * Return: 0, -EINVAL for a bad tag, -EEXIST if the tag is taken (and not
 *	   @beside), -ENOSPC if the trunk is full
 */
static int add(struct xc_trunk *t, struct xc_end *member, uint16_t tag,
	       bool beside)
{
	bool taken;
	unsigned int idx;

	if (tag == 0 || tag >= XC_VLAN_IDS - 1)
		return -EINVAL;
	taken = t->member_of[tag] != 0;
	if (taken && !beside)
		return -EEXIST;
	/* members waiting beside another share its tag: not counted */
	if (!taken && t->n_members - t->n_pending >= XC_TRUNK_MAX_MEMBERS)
		return -ENOSPC;
	for (idx = 0; idx < XC_TRUNK_SLOTS && t->member[idx]; idx++)
		;
	if (idx == XC_TRUNK_SLOTS)
		return -ENOSPC;
	t->mem[idx] = (struct xc_trunk_member){ .trunk = t, .tag = tag,
						.idx = (uint8_t)idx,
						.pending = taken };
	member->ops = &xc_end_trunk_ops;
	member->priv = &t->mem[idx];
	member->hub = &t->hub;
	member->port = t->port;
	t->q[idx].head = t->q[idx].n = 0;
	t->member[idx] = member;
	t->n_members++;
	if (taken) {
		t->n_pending++;
		return 0;
	}
	/* the slot is ready before the lcore can sort a frame into it */
	__atomic_store_n(&t->member_of[tag], (uint8_t)(idx + 1),
			 __ATOMIC_RELEASE);
	return 0;
}

/**
 * xc_trunk_add() - make a cable end a member of a trunk under a tag, in
 *		    its first free slot; frames with the tag are sorted to
 *		    it from now on (main thread)
 * @t:		trunk, with @port and @tpid set
 * @member:	the cable end; it becomes an end on the trunk's port
 * @tag:	VLAN id, 1..4094
 *
 * Return: 0, -EINVAL for a bad tag, -EEXIST if the tag is taken, -ENOSPC
 *	   if the trunk is full
 */
int xc_trunk_add(struct xc_trunk *t, struct xc_end *member, uint16_t tag)
{
	return add(t, member, tag, false);
}

/**
 * xc_trunk_add_beside() - as xc_trunk_add(), but a tag another member
 *			   has is no error: the new member waits beside
 *			   it, nothing sorted to it, until that one is gone
 *			   and xc_trunk_settle() gives it the tag (a cable
 *			   made whole before the one it replaces goes)
 * @t:		trunk, with @port and @tpid set
 * @member:	the cable end
 * @tag:	VLAN id, 1..4094
 *
 * Return: 0, -EINVAL for a bad tag, -ENOSPC if the trunk is full
 */
int xc_trunk_add_beside(struct xc_trunk *t, struct xc_end *member,
			uint16_t tag)
{
	return add(t, member, tag, true);
}

/**
 * xc_trunk_settle() - a member waiting beside another takes its tag, now
 *		       free: frames with it are sorted to it from now on
 *		       (main thread)
 * @t:		trunk
 * @member:	a member of it
 *
 * Return: 0 (or it was not waiting), -EBUSY if another member still has
 *	   the tag (it keeps waiting)
 */
int xc_trunk_settle(struct xc_trunk *t, const struct xc_end *member)
{
	struct xc_trunk_member *m = mem(member);

	if (m == NULL || !m->pending)
		return 0;
	if (t->member_of[m->tag])
		return -EBUSY;
	m->pending = false;
	t->n_pending--;
	__atomic_store_n(&t->member_of[m->tag], (uint8_t)(m->idx + 1),
			 __ATOMIC_RELEASE);
	return 0;
}

/**
 * xc_trunk_stop() - sort no more frames to a member: its tag is unknown
 *		     from now on (main thread, before the lcore lets go of
 *		     the member's cable)
 * @t:		trunk
 * @member:	a member of it
 */
void xc_trunk_stop(struct xc_trunk *t, const struct xc_end *member)
{
	const struct xc_trunk_member *m = mem(member);

	if (m && t->member_of[m->tag] == m->idx + 1)
		__atomic_store_n(&t->member_of[m->tag], 0, __ATOMIC_RELEASE);
}

/**
 * drop_queue() - free the frames sorted for one member that it will not
 *		  take any more, counted as backlog
 * @t:		trunk
 * @q:		the member's queue
 */
static void drop_queue(struct xc_trunk *t, struct xc_trunk_q *q)
{
	xc_stat_add(&t->backlog, q->n);
	while (q->n) {
		rte_pktmbuf_free(q->m[q->head]);
		q->head = (uint16_t)((q->head + 1) % XC_TRUNK_QLEN);
		q->n--;
	}
}

/**
 * xc_trunk_del() - take a stopped member away: the frames still sorted
 *		    for it are dropped (backlog), its slot is free (main
 *		    thread, once the trunk's lcore let go of its cable)
 * @t:		trunk
 * @member:	a member of it, stopped (xc_trunk_stop())
 */
void xc_trunk_del(struct xc_trunk *t, struct xc_end *member)
{
	unsigned int idx;

	if (mem(member) == NULL)
		return;
	idx = mem(member)->idx;
	if (idx >= XC_TRUNK_SLOTS || t->member[idx] != member)
		return;
	if (mem(member)->pending)
		t->n_pending--;
	xc_trunk_stop(t, member);
	drop_queue(t, &t->q[idx]);
	t->member[idx] = NULL;
	t->n_members--;
	member->priv = NULL;
	member->hub = NULL;
}

/**
 * pop_tag() - find and remove a frame's outer tag
 * @t:		trunk
 * @m:		frame from the trunk's port
 *
 * Return: member index + 1, or 0 if no member has the frame's tag (the
 *	   frame is then unchanged)
 */
static unsigned int pop_tag(const struct xc_trunk *t, struct rte_mbuf *m)
{
	uint8_t *eth;
	unsigned int idx;

	if (m->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED) {
		idx = __atomic_load_n(&t->member_of[m->vlan_tci & 0xfff],
				      __ATOMIC_ACQUIRE);
		if (idx) {
			m->ol_flags &= ~(RTE_MBUF_F_RX_VLAN |
					 RTE_MBUF_F_RX_VLAN_STRIPPED);
			m->vlan_tci = 0;
		}
		return idx;
	}
	if (rte_pktmbuf_data_len(m) < RTE_ETHER_HDR_LEN + 4)
		return 0;
	eth = rte_pktmbuf_mtod(m, uint8_t *);
	if ((eth[12] << 8 | eth[13]) != t->tpid)
		return 0;
	idx = __atomic_load_n(&t->member_of[(eth[14] << 8 | eth[15]) & 0xfff],
			      __ATOMIC_ACQUIRE);
	if (idx) {
		memmove(eth + 4, eth, 2 * RTE_ETHER_ADDR_LEN);
		rte_pktmbuf_adj(m, 4);
	}
	return idx;
}

/**
 * fill() - take one burst from the trunk's port and sort it by tag
 * @t:		trunk
 */
static void fill(struct xc_trunk *t)
{
	struct rte_mbuf *b[XC_BURST];
	uint64_t now = 0;
	uint16_t n, i;

	n = rte_eth_rx_burst(t->port->id, 0, b, XC_BURST);
	if (n == 0)
		return;
	if (t->port->rx_gather_gap)
		now = rte_rdtsc();
	xc_stat_add(&t->rx_pkts, n);
	for (i = 0; i < n; i++) {
		unsigned int idx = pop_tag(t, b[i]);
		struct xc_trunk_q *q;

		if (idx == 0) {
			rte_pktmbuf_free(b[i]);
			xc_stat_add(&t->unknown_tag, 1);
			continue;
		}
		q = &t->q[idx - 1];
		if (q->n == XC_TRUNK_QLEN) {
			rte_pktmbuf_free(b[i]);
			xc_stat_add(&t->backlog, 1);
			continue;
		}
		if (q->n == 0)
			q->since = now;
		q->last = now;
		q->m[(q->head + q->n++) % XC_TRUNK_QLEN] = b[i];
	}
}

/**
 * gathering() - should a member's queue wait for more frames before it is
 *		 handed over? Its port's frames come one at a time
 *		 (xc_port_ops.rx_gather_us), it holds fewer than asked for,
 *		 its last frame came within the gap (another member's frames
 *		 do not hold it), and its first frame has waited less than
 *		 XC_RX_GATHER_MAX_US.
 * @t:		trunk
 * @q:		the member's queue, not empty
 * @n:		frames asked for
 *
 * Return: true to wait
 */
static inline bool gathering(const struct xc_trunk *t,
			     const struct xc_trunk_q *q, uint16_t n)
{
	uint64_t gap = t->port->rx_gather_gap, now;

	if (gap == 0 || q->n >= n)
		return false;
	now = rte_rdtsc();
	return now - q->last < gap && now - q->since < t->port->rx_gather_max;
}

/**
 * xc_trunk_rx() - receive frames for one member of a trunk
 * @member:	the member
 * @pkts:	filled
 * @n:		room in @pkts
 *
 * Return: frames given, outer tag removed; 0 also while the member's
 *	   frames wait for more to come (gathering())
 */
uint16_t xc_trunk_rx(struct xc_end *member, struct rte_mbuf **pkts,
		     uint16_t n)
{
	struct xc_trunk *t = mem(member)->trunk;
	struct xc_trunk_q *q = &t->q[mem(member)->idx];
	uint16_t i;

	if (q->n < n)
		fill(t);
	if (q->n == 0 || gathering(t, q, n))
		return 0;
	for (i = 0; i < n && q->n; i++) {
		pkts[i] = q->m[q->head];
		q->head = (uint16_t)((q->head + 1) % XC_TRUNK_QLEN);
		q->n--;
	}
	return i;
}

/**
 * trunk_rx() - end op: receive the frames carrying the member's tag
 * @e:		member
 * @q:		queue (a trunk has one)
 * @pkts:	filled
 * @n:		room
 *
 * Return: frames given, outer tag removed
 */
static uint16_t trunk_rx(struct xc_end *e, uint16_t q, struct rte_mbuf **pkts,
			 uint16_t n)
{
	(void)q;
	return xc_trunk_rx(e, pkts, n);
}

/**
 * trunk_tx() - end op: send frames, their outer tag already pushed (the
 *		direction's tag stage), on the trunk's port
 * @e:		member
 * @q:		queue
 * @pkts:	frames
 * @n:		how many
 * @drop:	unused: the port sends what it takes
 *
 * Return: frames the port took
 */
static uint16_t trunk_tx(struct xc_end *e, uint16_t q, struct rte_mbuf **pkts,
			 uint16_t n, uint64_t *drop)
{
	(void)drop;
	return rte_eth_tx_burst(e->port->id, q, pkts, n);
}

/**
 * trunk_caps() - end op: a member takes what its port takes less the 4
 *		  bytes of its tag (the MTU of a trunk port must leave room
 *		  for them: 1508 for guests' 1518-byte frames under
 *		  802.1ad), and no offloads
 * @e:		member
 *
 * Return: packed capabilities, 0 while the port is down
 */
static uint64_t trunk_caps(const struct xc_end *e)
{
	uint64_t caps = __atomic_load_n(&e->port->caps, __ATOMIC_ACQUIRE);
	/* the tag takes 4 bytes, which Linux gives back for 802.1Q */
	uint32_t max = xc_caps_max_frame(caps) +
		       (mem(e)->trunk->tpid == XC_TPID_8021Q ? 4 : 0);

	if (caps == 0)
		return 0;
	return xc_caps_pack(0, max > 4 ? max - 4 : 0);
}

/**
 * trunk_drain() - end op: take one burst from the trunk's port for every
 *		   member (a member's direction holds frames and does not
 *		   receive)
 * @e:		member
 */
static void trunk_drain(struct xc_end *e)
{
	fill(mem(e)->trunk);
}

/**
 * trunk_queued() - end op: do frames sorted for the member wait in its
 *		    queue?
 * @e:		member
 *
 * Return: true if so
 */
static bool trunk_queued(const struct xc_end *e)
{
	return mem(e)->trunk->q[mem(e)->idx].n != 0;
}

/**
 * push_tags() - end op, the stage of every direction towards a member:
 *		 give the frames the member's outer tag (frames that cannot
 *		 take one are dropped as no-mbuf; those from guests always
 *		 have the headroom)
 * @d:		direction whose receiver is a trunk member
 * @b:		burst
 */
static void push_tags(struct xc_dir *d, struct xc_burst *b)
{
	const struct xc_trunk_member *tm = mem(d->tx);
	uint16_t tpid = tm->trunk->tpid, tag = tm->tag;
	uint16_t i, k = 0;

	for (i = 0; i < b->n; i++) {
		struct rte_mbuf *m = b->pkts[i];

		if (unlikely(xc_trunk_push(m, tpid, tag))) {
			xc_dir_drop(d, &m, 1, XC_DROP_NO_MBUF);
			continue;
		}
		b->pkts[k++] = m;
	}
	b->n = k;
}

/**
 * trunk_describe() - end op: the port's facts, and the member's on the
 *		      trunk
 * @e:		member
 * @fn:		called once per fact
 * @arg:	its argument
 */
static void trunk_describe(const struct xc_end *e, xc_kv_fn fn, void *arg)
{
	const struct xc_trunk_member *tm = mem(e);

	xc_port_describe(e->port, fn, arg);
	if (tm == NULL)
		return;
	fn(arg, "trunk", tm->trunk->port->label, 0);
	fn(arg, "tag", NULL, tm->tag);
	fn(arg, "tag_type", NULL, tm->trunk->tpid);
}

const struct xc_end_ops xc_end_trunk_ops = {
	.kind = "trunk",
	.rx = trunk_rx,
	.tx = trunk_tx,
	.caps = trunk_caps,
	.shared = true,
	.queued = trunk_queued,
	.drain = trunk_drain,
	.describe = trunk_describe,
	.tx_stage = push_tags,
	.rx_stage = xc_coalesce_stage,
};

/**
 * xc_trunk_member_of() - what a trunk member end is on its trunk
 * @e:		an end of the trunk kind
 *
 * Return: its member state, NULL if it is on no trunk (any more)
 */
const struct xc_trunk_member *xc_trunk_member_of(const struct xc_end *e)
{
	return mem(e);
}

/**
 * xc_trunk_push() - put an outer tag in front of a frame's own tags
 * @m:		frame, owned by the caller
 * @tpid:	tag type
 * @tag:	VLAN id
 *
 * Return: 0, or -EINVAL if the frame is shared or too short, -ENOSPC if
 *	   it has no headroom (the frame is unchanged then)
 */
int xc_trunk_push(struct rte_mbuf *m, uint16_t tpid, uint16_t tag)
{
	uint8_t *eth;

	if (!RTE_MBUF_DIRECT(m) || rte_mbuf_refcnt_read(m) > 1 ||
	    rte_pktmbuf_data_len(m) < 2 * RTE_ETHER_ADDR_LEN)
		return -EINVAL;
	eth = (uint8_t *)rte_pktmbuf_prepend(m, 4);
	if (eth == NULL)
		return -ENOSPC;
	memmove(eth, eth + 4, 2 * RTE_ETHER_ADDR_LEN);
	eth[12] = (uint8_t)(tpid >> 8);
	eth[13] = (uint8_t)tpid;
	eth[14] = (uint8_t)(tag >> 8);
	eth[15] = (uint8_t)tag;
	return 0;
}

/**
 * xc_trunk_flush() - at shutdown, free frames sorted for members that
 *		      will not take them any more (counted as backlog)
 * @t:		trunk, whose lcore is not running
 */
void xc_trunk_flush(struct xc_trunk *t)
{
	unsigned int i;

	for (i = 0; i < XC_TRUNK_SLOTS; i++)
		drop_queue(t, &t->q[i]);
}

#define TRUNK_CTR(name, field, meaning) \
	{ name, meaning, offsetof(struct xc_trunk_stats, field), 1, 0 }

/* every counter of a trunk port, in the order shown */
static const struct xc_counter trunk_counters[] = {
	TRUNK_CTR("rx-pkts", rx_pkts, "frames received from the trunk's port"),
	TRUNK_CTR("unknown-tag", unknown_tag,
		  "dropped: no cable has their tag, or they had none"),
	TRUNK_CTR("backlog", backlog,
		  "dropped: their cable's queue from the trunk was full"),
	TRUNK_CTR("oerrors", oerrors, "the driver's: frames it could not send"),
	TRUNK_CTR("imissed", imissed,
		  "the driver's: frames it had no room to receive"),
	TRUNK_CTR("ierrors", ierrors,
		  "the driver's: erroneous frames it received"),
};

static const struct xc_counter_table trunk_table = {
	trunk_counters, RTE_DIM(trunk_counters)
};

static_assert(sizeof(struct xc_trunk_stats) <=
	      XC_HUB_STATS_MAX * sizeof(uint64_t), "trunk counters fit a hub's");

/**
 * xc_trunk_stats() - read a trunk's counters and its driver's (any thread)
 * @t:		trunk
 * @s:		filled
 */
void xc_trunk_stats(const struct xc_trunk *t, struct xc_trunk_stats *s)
{
	struct rte_eth_stats st;

	if (rte_eth_stats_get(t->port->id, &st))
		memset(&st, 0, sizeof(st));
	s->rx_pkts = __atomic_load_n(&t->rx_pkts, __ATOMIC_RELAXED);
	s->unknown_tag = __atomic_load_n(&t->unknown_tag, __ATOMIC_RELAXED);
	s->backlog = __atomic_load_n(&t->backlog, __ATOMIC_RELAXED);
	s->oerrors = st.oerrors;
	s->imissed = st.imissed;
	s->ierrors = st.ierrors;
}

/* hub_snapshot() - hub op: the trunk's counters */
static void hub_snapshot(const struct xc_hub *h, void *s)
{
	xc_trunk_stats((const struct xc_trunk *)h, s);
}

/* hub_name() - hub op: the trunk's name, its [port]'s */
static const char *hub_name(const struct xc_hub *h)
{
	return ((const struct xc_trunk *)h)->port->label;
}

/* hub_title() - hub op: "trunk NAME (ETHDEV)" */
static void hub_title(const struct xc_hub *h, char *buf, size_t len)
{
	const struct xc_trunk *t = (const struct xc_trunk *)h;

	snprintf(buf, len, "trunk %s (%s)", t->port->label, t->port->name);
}

/* hub_describe() - hub op: the trunk's port */
static void hub_describe(const struct xc_hub *h, xc_kv_fn fn, void *arg)
{
	fn(arg, "port", ((const struct xc_trunk *)h)->port->name, 0);
}

static const struct xc_hub_ops trunk_hub_ops = {
	.group = "trunks",
	.tel = "trunk",
	.counters = &trunk_table,
	.snapshot = hub_snapshot,
	.name = hub_name,
	.title = hub_title,
	.describe = hub_describe,
};

/**
 * xc_trunk_init() - make a port a trunk, without members yet (main
 *		     thread)
 * @t:		zeroed trunk
 * @port:	its port
 * @tpid:	outer tag type
 */
void xc_trunk_init(struct xc_trunk *t, struct xc_port *port, uint16_t tpid)
{
	t->hub.ops = &trunk_hub_ops;
	t->port = port;
	t->tpid = tpid;
}
