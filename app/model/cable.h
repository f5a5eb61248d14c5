/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cable.h - cables and their ends: the data model of xcable
 *
 * Folder app/model/: cables, ends, hubs, ports (port.h, its life cycle in
 * port.c, the list of port kinds in portkinds.def), the life cycle of an
 * end (endkind.h), counters, pools, pulling. It names no kind: a kind's
 * ops are declared here and defined in app/kinds/.
 *
 * The model, from the bottom up:
 * - a port (port.h) is one ethdev, of a kind (vhost, kernel, ethdev);
 * - an end is what a cable sees: a whole port, or a tag on a port shared
 *   by several cables (a trunk member). Its ops receive and transmit and
 *   say what it takes, so a new kind of end (a tunnel) is its own files;
 * - a cable joins two ends point to point. Each of its directions
 *   (struct xc_dir, dir.h) receives from one end and transmits to the
 *   other through a list of stages, and is owned by one lcore.
 *
 * Who writes what: the main thread builds everything at start-up and
 * changes it at runtime (a cable made, then shown; hidden, then freed:
 * endkind.h, reconf.c), and pulls cables (@paused, @pulled, @pull_why,
 * @flap);
 * the ethdev event thread
 * writes the ports' link state; the control thread writes @req and the
 * impairment settings (through their seqlock); forwarding lcores write
 * their directions' queues and counters; telemetry and the control thread
 * only read, atomically. Each field says which below.
 */
#ifndef XC_CABLE_H
#define XC_CABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "bounds.h"
#include "mig.h"
#include "port.h"
#include "stats.h"
#include "pullspec.h"

#define XC_BURST		32	/* packets per rx burst */

struct xc_burst;
struct xc_cable;
struct xc_counter_table;
struct xc_dir;
struct xc_end;
struct xc_end_kind;
struct xc_hub;
struct xc_steer;

#define XC_HUB_STATS_MAX	32	/* counters of one hub, at most */

/**
 * struct xc_hub_ops - what a hub says of itself, for people and programs
 *
 * A hub is what the ends of several cables share and count together: a
 * trunk's port, the socket of the tunnels. Its kind owns it (its file
 * defines these ops); the views (counters.c, control.c, telemetry.c) show
 * every hub the shown cables' ends are on, each once, through them.
 * @group:	JSON member its kind's hubs are listed under, by name
 *		("trunks")
 * @tel:	telemetry key of its counters, under an end's ("trunk")
 * @counters:	its counter table (stats.h)
 * @snapshot:	read its counters into @s, the struct of @counters's
 *		offsets (XC_HUB_STATS_MAX uint64_t at most; any thread)
 * @name:	what people know it by (a trunk's name, the socket's
 *		address)
 * @title:	its line's start, as the counter lines show it
 * @describe:	its facts besides its counters
 */
struct xc_hub_ops {
	const char *group;
	const char *tel;
	const struct xc_counter_table *counters;
	void (*snapshot)(const struct xc_hub *h, void *s);
	const char *(*name)(const struct xc_hub *h);
	void (*title)(const struct xc_hub *h, char *buf, size_t len);
	void (*describe)(const struct xc_hub *h, xc_kv_fn fn, void *arg);
};

/**
 * struct xc_hub - a hub, embedded in its kind's own struct
 * @ops:	what it says of itself
 */
struct xc_hub {
	const struct xc_hub_ops *ops;
};

/* one stage of a direction: works on the frames of a burst, between
 * receive and transmit (dir.c) */
typedef void xc_stage_fn(struct xc_dir *d, struct xc_burst *b);

/**
 * struct xc_end_ops - what one kind of cable end does its own way, on the
 *		       forwarding lcore that owns its directions
 * @kind:	name shown to people ("port", "trunk")
 * @rx:		receive up to @n frames from queue @q
 * @tx:		send frames on queue @q; returns how many the end took. A
 *		frame it took but could not send (a tunnel's datagram the
 *		kernel refused) it frees, counts in @drop (the sending
 *		direction's drop counters, indexed by enum xc_drop) and
 *		sets to NULL in @pkts, so that it is not counted as sent
 * @caps:	what the end takes now (0 while it is down)
 * @shared:	the end shares what it receives from with other cables' ends
 *		(a trunk's port, the tunnel socket): one lcore serves every
 *		such cable
 * @queued:	for a shared end: do frames already received for it wait
 *		in its own queue? Another end's receive may have sorted them
 *		there after this end's direction was polled, so its lcore
 *		must poll again rather than sleep on a drained socket
 *		(NULL: the end has no such queue)
 * @drain:	for a shared end with an fd to sleep on: read what waits
 *		on the port or socket and sort it into the ends' queues (or
 *		count it dropped), for a direction that holds frames and so
 *		does not receive: else the fd stays readable and its lcore
 *		spins (NULL: none)
 *
 * An end of a kind that has no ethdev (@port NULL: a VXLAN tunnel) says
 * the rest itself, through the ops below; for the others they are NULL
 * and the port answers:
 * @is_up:	may frames be sent to the end now?
 * @where:	what people know the end by
 * @describe:	the end's facts, as xc_port_describe() gives a port's
 * @wait_fd:	an fd that becomes readable when the end has frames to
 *		receive (an idle lcore sleeps on it), -1 if none
 *
 * and, for any kind:
 * @poll:	main thread, at each housekeeping run of a shown cable:
 *		follow what the end depends on outside xcable (the state
 *		of a kernel interface), so that the data path needs no
 *		syscall for it; returns true to be called again soon
 *		(NULL: nothing to follow)
 * @tx_stage:	a stage every direction towards the end runs, after
 *		steering and before impairment (a trunk member's: push its
 *		tag); NULL for none
 * @rx_stage:	a stage every direction from the end runs, after
 *		impairment (a wire's kinds: join its TCP segments into TSO
 *		frames for a guest, coalesce.c); NULL for none
 * @rx_chains:	the end's receive chains large frames out of the cable's
 *		pool (a netdev end's GSO packets): its direction receives
 *		only what the free mbufs hold and has the pool grown, as
 *		for a guest's port (dir.c, rx_budget())
 */
struct xc_end_ops {
	const char *kind;
	uint16_t (*rx)(struct xc_end *e, uint16_t q, struct rte_mbuf **pkts,
		       uint16_t n);
	uint16_t (*tx)(struct xc_end *e, uint16_t q, struct rte_mbuf **pkts,
		       uint16_t n, uint64_t *drop);
	uint64_t (*caps)(const struct xc_end *e);
	bool shared;
	bool (*queued)(const struct xc_end *e);
	void (*drain)(struct xc_end *e);
	bool (*is_up)(const struct xc_end *e);
	const char *(*where)(const struct xc_end *e);
	void (*describe)(const struct xc_end *e, xc_kv_fn fn, void *arg);
	int (*wait_fd)(const struct xc_end *e);
	bool (*poll)(struct xc_end *e);
	xc_stage_fn *tx_stage;
	xc_stage_fn *rx_stage;
	bool rx_chains;
};

/**
 * struct xc_end - one end of a cable (set at start-up by the main thread)
 * @ops:	its kind's data path
 * @kind:	its kind's life cycle (endkind.h): what made it, and frees it;
 *		NULL for an end not made yet
 * @port:	the port it is on, NULL for an end of a kind without one
 *		(a tunnel: its ops say what the port would)
 * @label:	"left"/"right", or the port's name in the DPDK mode
 * @hub:	what the end shares with other cables' ends and is counted
 *		on (a trunk, the tunnel socket), NULL for none
 * @cable:	the cable, and which end of it (@idx)
 * @idx:	0 or 1
 * @was_up:	link up when the main thread last looked (propagation;
 *		main thread)
 * @down_since:	TSC at which the main thread first saw the end down after
 *		it was up, 0 if it is not (propagation; main thread)
 * @steer:	flow table of a multiqueue end whose port lets several lcores
 *		send on one queue, else NULL (steer.h; set up with the
 *		cable's directions; its entries are written by the lcores
 *		receiving from this end)
 * @priv:	the kind's own state (a tunnel's, a trunk member's), NULL
 *		for ends that are a whole port
 */
struct xc_end {
	const struct xc_end_ops *ops;
	const struct xc_end_kind *kind;
	struct xc_port *port;
	char label[RTE_ETH_NAME_MAX_LEN];
	struct xc_hub *hub;
	struct xc_cable *cable;
	int idx;
	bool was_up;
	uint64_t down_since;
	struct xc_steer *steer;
	void *priv;
};

/* ends that are a whole port, whichever kind made them (end.c: a guest's
 * socket, a [port NAME] without a tag, a port of the DPDK mode); the data
 * path calls such a port's bursts directly. Other ends have ops of their
 * own, in their kind's file */
extern const struct xc_end_ops xc_end_whole_ops;

/**
 * enum xc_pull_why - why an end is unplugged (xc_cable.pull_why)
 * @XC_PULL_NONE:	it is not
 * @XC_PULL_ADMIN:	an operator took it down (xcablectl down, the
 *			config's down =); only an operator brings it back
 * @XC_PULL_FLAP:	a flap schedule took it down, and brings it back
 * @XC_PULL_PROPAGATED:	its far end went away (link propagation); it comes
 *			back with it
 */
enum xc_pull_why {
	XC_PULL_NONE,
	XC_PULL_ADMIN,
	XC_PULL_FLAP,
	XC_PULL_PROPAGATED,
};

/**
 * struct xc_flap - a cable's flap schedule as it runs (pull.c; written by
 *		    the main thread under @seq, read by others with
 *		    xc_flap_read())
 * @seq:	odd while the main thread changes the rest
 * @cfg:	the schedule
 * @on:		it runs
 * @down:	the carrier is down now (the first half of a cycle)
 * @done:	cycles completed (the carrier given back)
 * @next:	TSC of its next change
 */
struct xc_flap {
	uint32_t seq;
	struct xc_flap_cfg cfg;
	bool on;
	bool down;
	uint32_t done;
	uint64_t next;
};

/**
 * struct xc_cable - two ends joined point to point
 * @name:	cable name, e.g. "cable0"; empty for a free slot (main thread)
 * @shown:	the cable is part of the lab: threads other than the main
 *		one (control, telemetry) and the main thread's housekeeping
 *		look at it; a cable being made or freed is not shown (set
 *		and cleared by the main thread holding reconf's lock for
 *		writing; atomic)
 * @end:	its two ends
 * @n_queues:	queue pairs used on both ends
 * @dir:	2 * @n_queues directions: dir[2q] carries end[0] -> end[1] on
 *		queue q, dir[2q + 1] the reverse (dir.h)
 * @pool:	mbufs for this cable only, so one cable cannot starve another
 * @pool_want:	where directions ask for @pool to grow (struct xc_pool's
 *		@want)
 * @ipool:	indirect mbufs for segments that point into a TSO frame
 * @paused:	lcores leave this cable's ports alone: XC_PAUSED_ALL all of
 *		them (while an end is unplugged or plugged), XC_PAUSED_RX(i)
 *		the receive side of end i, which is unplugged (what is sent
 *		to it meets a link down); XC_PAUSED_HOLD(i): end i's guest
 *		is moving, and frames towards it wait (set by the event
 *		thread as the source's device stops, struct xc_port's
 *		@hold_word, and cleared by the main thread); 0 none (main
 *		thread; atomic)
 * @pulled:	end[i] is unplugged: by an operator, a flap, or because
 *		end[1-i] went away (link propagation; main thread)
 * @pull_why:	why each end is unplugged, enum xc_pull_why (main thread;
 *		atomic for the control thread)
 * @req:	request for the main thread: XC_REQ_* (control thread; atomic)
 * @req_end:	the end @req is about: -1 both, else 0 or 1 (control
 *		thread, before @req)
 * @req_flap:	the schedule of an XC_REQ_FLAP (control thread, before @req)
 * @req_done:	the main thread's answer to @req: 1 done, -errno failed
 *		(main thread; atomic)
 * @carrier:	what the cable's definition says of its carrier: ends down
 *		from the start, a flap schedule (main thread)
 * @carrier_due: @carrier is still to be carried out (main thread: set
 *		when the cable is made or its definition changes in place)
 * @flap:	its flap schedule (main thread, see struct xc_flap)
 * @mig:	its last move, a live migration of one end's guest (main
 *		thread, see struct xc_mig)
 */
struct xc_cable {
	char name[XC_NAME_MAX];
	uint32_t shown;
	struct xc_end end[2];
	unsigned int n_queues;
	struct xc_dir *dir;
	struct rte_mempool *pool;
	uint32_t *pool_want;
	struct rte_mempool *ipool;
	uint32_t paused;
	bool pulled[2];
	uint8_t pull_why[2];
	uint32_t req;
	int req_end;
	struct xc_flap_cfg req_flap;
	int req_done;
	struct xc_carrier_cfg carrier;
	bool carrier_due;
	struct xc_flap flap;
	struct xc_mig mig;
};

#define XC_PAUSED_ALL	1u		/* xc_cable.paused: every port */
#define XC_PAUSED_RX(i)	(2u << (i))	/* end i's, to receive from */
#define XC_PAUSED_HOLD(i) (8u << (i))	/* frames to end i wait: it moves */
#define XC_PAUSED_HOLDS	(XC_PAUSED_HOLD(0) | XC_PAUSED_HOLD(1))

#define XC_REQ_NONE	0
#define XC_REQ_DOWN	1	/* operator: take the cable (req_end) down */
#define XC_REQ_UP	2	/* operator: bring it (req_end) up */
#define XC_REQ_FLAP	3	/* operator: flap it as req_flap says */
#define XC_REQ_FLAP_STOP 4	/* operator: stop its flapping */

/**
 * xc_end_rx() - receive up to @n frames from queue @q of an end; a whole
 *		 port (the common case) directly, other kinds through their
 *		 ops (forwarding lcore)
 * @e:		end
 * @q:		queue
 * @pkts:	filled
 * @n:		room
 *
 * Return: frames received
 */
static inline uint16_t xc_end_rx(struct xc_end *e, uint16_t q,
				 struct rte_mbuf **pkts, uint16_t n)
{
	if (likely(e->ops == &xc_end_whole_ops))
		return rte_eth_rx_burst(e->port->id, q, pkts, n);
	return e->ops->rx(e, q, pkts, n);
}

/**
 * xc_end_tx() - offer frames to queue @q of an end, as xc_end_rx() does
 * @e:		end
 * @q:		queue
 * @pkts:	frames
 * @n:		how many
 * @drop:	the sending direction's drop counters (enum xc_drop): where
 *		the end counts frames it took but could not send (set to
 *		NULL in @pkts)
 *
 * Return: frames the end took; the rest are still the caller's
 */
static inline uint16_t xc_end_tx(struct xc_end *e, uint16_t q,
				 struct rte_mbuf **pkts, uint16_t n,
				 uint64_t *drop)
{
	if (likely(e->ops == &xc_end_whole_ops))
		return xc_port_tx(e->port, q, pkts, n);
	return e->ops->tx(e, q, pkts, n, drop);
}

/**
 * xc_end_caps() - what an end takes now, as xc_end_rx() asks it
 * @e:		end
 *
 * Return: packed capabilities, 0 while it is down
 */
static inline uint64_t xc_end_caps(const struct xc_end *e)
{
	if (likely(e->ops == &xc_end_whole_ops))
		return __atomic_load_n(&e->port->caps, __ATOMIC_ACQUIRE);
	return e->ops->caps(e);
}

/**
 * xc_end_is_up() - may frames be sent to an end now? (any thread)
 * @e:		end
 *
 * Return: true if the link of its port is up (a tunnel: always)
 */
static inline bool xc_end_is_up(const struct xc_end *e)
{
	if (unlikely(e->ops->is_up != NULL))
		return e->ops->is_up(e);
	return xc_port_is_up(e->port);
}

/**
 * xc_end_pluggable() - can the end be unplugged, its peer seeing the
 *			carrier go? (a guest's; not a shared port)
 * @e:		end
 *
 * Return: true if so
 */
static inline bool xc_end_pluggable(const struct xc_end *e)
{
	return e->port != NULL && !e->ops->shared && e->port->ops->pluggable;
}

/**
 * xc_end_where() - what people know an end by: its socket, or its port
 * @e:		end
 *
 * Return: a string that lives as long as the end
 */
static inline const char *xc_end_where(const struct xc_end *e)
{
	const char *s;

	if (e->ops->where)
		return e->ops->where(e);
	s = xc_port_socket(e->port);
	return s ? s : e->port->name;
}

/**
 * xc_end_queues() - the queue pairs of an end (an end without a port: one)
 * @e:		end
 *
 * Return: how many
 */
static inline unsigned int xc_end_queues(const struct xc_end *e)
{
	return e->port ? e->port->conf.n_queues : 1;
}

/**
 * xc_end_wakes() - can the end wake a sleeping lcore when frames come?
 *		    (a guest's kick, a tunnel's socket; else it is polled
 *		    every millisecond while its lcore sleeps)
 * @e:		end
 *
 * Return: true if so
 */
static inline bool xc_end_wakes(const struct xc_end *e)
{
	if (e->ops->wait_fd)
		return true;
	return e->port != NULL && xc_port_kicks(e->port);
}

/**
 * xc_cable_shown() - is a cable part of the lab, for those who look at it?
 * @c:		cable slot
 *
 * Return: true if so (false for a free slot, or one being made or freed)
 */
static inline bool xc_cable_shown(const struct xc_cable *c)
{
	return __atomic_load_n(&c->shown, __ATOMIC_ACQUIRE) != 0;
}

/**
 * xc_cable_find() - a shown cable by name (the caller holds the cables
 *		     still: the main thread, or reconf's lock)
 * @cables:	the cable slots
 * @n:		how many
 * @name:	its name, or NULL
 *
 * Return: the cable, or NULL
 */
static inline struct xc_cable *xc_cable_find(struct xc_cable *cables,
					     unsigned int n, const char *name)
{
	unsigned int i;

	for (i = 0; name && i < n; i++)
		if (xc_cable_shown(&cables[i]) &&
		    strcmp(cables[i].name, name) == 0)
			return &cables[i];
	return NULL;
}

/**
 * xc_cable_end_named() - the end of a cable a word names
 * @c:		cable
 * @w:		"left", "right", or an end's label (the DPDK mode's port
 *		names)
 *
 * Return: 0 or 1, -1 if the word names neither
 */
static inline int xc_cable_end_named(const struct xc_cable *c, const char *w)
{
	int i;

	if (strcmp(w, "left") == 0)
		return 0;
	if (strcmp(w, "right") == 0)
		return 1;
	for (i = 0; i < 2; i++)
		if (strcmp(w, c->end[i].label) == 0)
			return i;
	return -1;
}

void xc_end_describe(const struct xc_end *e, xc_kv_fn fn, void *arg);
int xc_cable_numa(const struct xc_cable *c);
bool xc_ends_poll(struct xc_cable *cables, unsigned int n);

/* the cables removed at runtime, and what they carried */
#define XC_GONE_KEEP		64	/* removed cables remembered */
#define XC_GONE_LABEL		(2 * RTE_ETH_NAME_MAX_LEN + 8)	/* a direction's */

/**
 * struct xc_gone - the last counters of a cable removed at runtime (or
 *		    replaced by a reload): what it carried until it went
 * @name:	its name
 * @label:	its directions' labels ("left->right", "right->left")
 * @st:		their counters, summed over queues, once what it held was
 *		dropped (counted as shutdown)
 * @when:	when it went, in seconds since the epoch
 */
struct xc_gone {
	char name[XC_NAME_MAX];
	char label[2][XC_GONE_LABEL];
	struct xc_dir_stats st[2];
	uint64_t when;
};

/**
 * struct xc_gone_list - the cables removed since start, the last
 *			 XC_GONE_KEEP of them with their counters (each was
 *			 also logged when it went); written by the main
 *			 thread holding reconf's lock for writing
 * @g:		ring of the last ones
 * @n:		cables removed in all (g[(n - 1) % XC_GONE_KEEP] is the last)
 */
struct xc_gone_list {
	struct xc_gone g[XC_GONE_KEEP];
	uint64_t n;
};

unsigned int xc_hubs_of(const struct xc_cable *cables, unsigned int n_cables,
			const struct xc_cable *only, const struct xc_hub **out,
			unsigned int max);
void xc_hub_line(const struct xc_hub *h, char *buf, size_t len);

#endif /* XC_CABLE_H */
