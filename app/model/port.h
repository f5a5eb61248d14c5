/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * port.h - a port: one ethdev, whatever its driver, and its life cycle
 *
 * A port is what DPDK gives: an ethdev id, queues, a pool to receive into,
 * a link, and what its driver can do. What differs between drivers (a vhost
 * port's socket and guard, a kernel interface under af_packet or af_xdp,
 * the pool a NIC needs) sits behind struct xc_port_ops, one file per kind
 * (port_vhost.c, port_kernel.c, port_eth.c), the way testpmd's forwarding
 * engines do: a new kind of port is one new file and one line in the kind
 * table of port.c.
 *
 * Life cycle (port.c), the same for start-up, pulling a cable, link
 * propagation, shutdown and every error path:
 *
 *   xc_port_create()     describe ethdev @id, pick its kind
 *   xc_port_probe()      make a device at runtime, then as create
 *   xc_port_configure()  kind's prepare (pool, socket checks), configure
 *                        the ethdev (a vhost server's socket appears),
 *                        kind's secure (socket permissions), queues
 *   xc_port_start()      start; the link comes by event or by polling
 *   xc_port_stop()       stop, configured still (no cable uses it now)
 *   xc_port_unplug()     link down, close, hot-unplug the device
 *   xc_port_plug()       probe it again from its devargs, configure, start
 *   xc_port_close()      stop and close the ethdev (idempotent)
 *   xc_port_free()       close, and free what the kind and the port own
 *
 * Threads: the main thread (start-up, housekeeping, shutdown) runs the
 * life cycle; the ethdev event thread writes the link state (@link_up,
 * @txq_on, @rxq_on, @caps) through port_event(); forwarding lcores,
 * telemetry and the control thread only read those, atomically.
 */
#ifndef XC_PORT_H
#define XC_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_mempool.h>

#include "bounds.h"
#include "caps.h"

#define XC_RING_SIZE		1024	/* descriptors per queue */
#define XC_DEVARGS_LEN		512

struct xc_end_kind;
struct xc_port;

/**
 * typedef xc_kv_fn - receives one fact about a port (xc_port_describe())
 * @arg:	the caller's argument
 * @key:	name, lower case with '_'
 * @str:	value if it is text, else NULL
 * @num:	value if @str is NULL
 */
typedef void (*xc_kv_fn)(void *arg, const char *key, const char *str,
			 uint64_t num);

/**
 * struct xc_wake - what the main thread does when an fd of a wake set is
 *		    ready (xc_port_wake_poll())
 * @fn:		called with @arg, in the main thread
 * @arg:	its argument
 */
struct xc_wake {
	void (*fn)(void *arg);
	void *arg;
};

/**
 * struct xc_port_move - how a kind of port lets its guest move to a
 *			 standby port of the kind: a live migration of the
 *			 guest's VM to another QEMU (migrate.c); every op is
 *			 the main thread's
 * @open:	the slot opens: @twin, made for the guest's next frontend
 *		(struct xc_port_conf's @standby), is reachable where that
 *		frontend connects, and @p's socket stays guarded while its
 *		guest's device is stopped; with @twin NULL (the guest moves
 *		to another host) only the latter. 0, or -errno with @err
 * @frontends:	how many frontends are connected to @twin now (a port that
 *		connects: 1 once it did), or -errno
 * @shut:	one frontend came to @twin: the slot closes to any other
 * @close:	the slot closes (the move failed, or @twin took over): @p's
 *		socket follows its guest again, and what @open lent @twin
 *		is given back (@twin may be NULL)
 * @adopt:	@twin took over from @p, which was freed: it serves @path,
 *		@p's socket, from now on, guarded as @p's was
 * @bound:	the name @p's socket was bound at, by which the kind's
 *		library knows it, even after it took over another path: no
 *		other port may be made at that name (its failure would
 *		close @p's socket)
 */
struct xc_port_move {
	int (*open)(struct xc_port *p, struct xc_port *twin, char *err,
		    size_t errlen);
	int (*frontends)(struct xc_port *twin);
	void (*shut)(struct xc_port *p, struct xc_port *twin);
	void (*close)(struct xc_port *p, struct xc_port *twin);
	void (*adopt)(struct xc_port *twin, const char *path);
	const char *(*bound)(const struct xc_port *p);
};

/**
 * struct xc_port_ops - what one kind of port does its own way
 * @kind:	name shown to people ("vhost", "kernel", "ethdev")
 * @match:	is an ethdev with this driver of this kind?
 * @init:	read the device arguments, allocate @priv (main thread)
 * @prepare:	before configure: checks and the port's own pool (may be
 *		NULL)
 * @secure:	after configure: socket permissions, features (may be NULL)
 * @caps:	what the port's receiver takes, read when its link comes up
 *		(event thread)
 * @tx:		send frames on queue @q its own way, as rte_eth_tx_burst()
 *		would (forwarding lcore; NULL: rte_eth_tx_burst()); not
 *		called while the ethdev has send callbacks on the queue
 *		(xc_port_tx())
 * @link_ok:	besides the ethdev's link, is the port usable? (NULL: yes)
 * @link_changed: the link went up or down (event thread, or main thread
 *		for polled ports): log it, and follow it (the guard)
 * @quiesce:	the link is down: return once no thread uses the peer's
 *		resources any more (event or main thread), may be NULL
 * @poll:	housekeeping (main thread), may be NULL
 * @close:	before the ethdev is closed, may be NULL
 * @closed:	after the ethdev was closed (put back what @close moved
 *		out of the driver's way), may be NULL
 * @fini:	free @priv and what the kind allocated
 * @describe:	report the kind's own facts (socket, features...), may be NULL
 * @kick_fd:	for a port whose peer can wake a sleeping lcore (a guest's
 *		kick): turn kicks for queue @q on or off (@room: kicks
 *		that say the peer has room for frames sent to @q, else
 *		that it sent a frame to receive from @q) and give the fd
 *		to wait on and a generation that changes when the fd does;
 *		returns 1 instead of 0 if the peer may leave work without a
 *		kick or a wake-up (a guest behind a vIOMMU whose IOTLB
 *		updates the port cannot follow: a ring stalled on an IOTLB
 *		miss moves again when the update comes, unkicked);
 *		a kernel-backed port gives its driver's socket instead;
 *		NULL for ports without kicks (polled every millisecond)
 * @features:	virtio features the peer negotiated, NULL if none
 * @queue_events: apply the driver's pending queue state changes to
 *		@txq_on/@rxq_on (event thread); NULL if its queues never
 *		come and go
 * @event_link:	the link comes by event only, from another thread: it is
 *		not read at start (a guest may attach during start)
 * @pluggable:	the port can be unplugged and plugged again (a guest's end:
 *		its peer sees the carrier go)
 * @mt_txq:	several lcores may send on one Tx queue at once (the driver
 *		locks it): frames can be steered to any queue (steer.h)
 * @absent:	say why the EAL made no device of devargs that are this
 *		kind's (a kernel interface missing), false if they are not
 *		(may be NULL)
 * @socket:	the unix socket the port serves or connects to, NULL if it
 *		has none (may be NULL)
 * @declared:	how a cable end on such a port is declared, if not as a
 *		[port NAME] (a guest's socket), else NULL
 * @peer:	what is at the other end of its link, as its link events
 *		say it ("guest"); NULL: "interface"
 * @rx_chains:	the driver builds a frame that does not fit one mbuf as a
 *		chain from the pool and drops the frame, uncounted, if the
 *		pool runs dry in the middle (the vhost library does): its
 *		receive bursts are bounded by the pool's free mbufs (dir.c)
 * @move:	how its guest moves to another frontend (a live migration),
 *		NULL if its guests cannot
 * @rx_gather_us: the driver hands over frames as its kernel delivers
 *		them, one at a time and microseconds apart (an af_packet
 *		socket): frames meant for joining again (a trunk member's,
 *		coalesce.c) wait for more while more for the same member
 *		come within this many microseconds, at most
 *		XC_RX_GATHER_MAX_US in all (trunk.c); 0: never
 */
struct xc_port_ops {
	const char *kind;
	bool (*match)(const struct rte_eth_dev_info *info);
	int (*init)(struct xc_port *p, const struct rte_eth_dev_info *info,
		    char *err, size_t errlen);
	int (*prepare)(struct xc_port *p, bool again, char *err,
		       size_t errlen);
	int (*secure)(struct xc_port *p, char *err, size_t errlen);
	uint64_t (*caps)(struct xc_port *p);
	uint16_t (*tx)(struct xc_port *p, uint16_t q, struct rte_mbuf **pkts,
		       uint16_t n);
	bool (*link_ok)(struct xc_port *p);
	void (*link_changed)(struct xc_port *p, bool up, uint64_t caps);
	void (*quiesce)(struct xc_port *p);
	void (*poll)(struct xc_port *p);
	void (*close)(struct xc_port *p);
	void (*closed)(struct xc_port *p);
	void (*fini)(struct xc_port *p);
	void (*describe)(struct xc_port *p, xc_kv_fn fn, void *arg);
	int (*kick_fd)(struct xc_port *p, uint16_t q, bool room, bool on,
		       int *fd, int *gen);
	uint64_t (*features)(struct xc_port *p);
	void (*queue_events)(struct xc_port *p);
	bool (*absent)(const char *devargs, char *why, size_t len);
	const char *(*socket)(const struct xc_port *p);
	const char *declared;
	const char *peer;
	bool event_link;
	bool pluggable;
	bool mt_txq;
	bool rx_chains;
	const struct xc_port_move *move;
	uint16_t rx_gather_us;
};

/* the longest received frames wait for more to be joined with (trunk.c) */
#define XC_RX_GATHER_MAX_US	50

/**
 * struct xc_port_conf - what the user chose for a port, set before it is
 *			 configured (main thread)
 * @n_queues:	queue pairs
 * @mtu:	MTU to set at configure time, 0 to keep the driver's
 * @offloads:	offer offloads to the peer (a guest: virtio offloads)
 * @sock_mode:	permission bits of a socket the port serves
 * @sock_uid:	its owner, -1 to leave it
 * @sock_gid:	its group, -1 to leave it
 * @sock_checked: the socket path was checked before the EAL started
 * @strip_vlan:	let the driver strip an outer VLAN tag into the mbuf (a
 *		trunk's port, where the driver would anyway)
 * @standby:	the port is made for a guest's next frontend, while the
 *		guest moves (migrate.c): its kind leaves it unguarded until
 *		it takes over (struct xc_port_move)
 */
struct xc_port_conf {
	uint16_t n_queues;
	unsigned int mtu;
	bool offloads;
	unsigned int sock_mode;
	int sock_uid;
	int sock_gid;
	bool sock_checked;
	bool strip_vlan;
	bool standby;
};

/**
 * struct xc_port - one ethdev
 * @id:		ethdev port id (main thread; changes when plugged again)
 * @name:	ethdev name, e.g. "net_vhost0"
 * @label:	name shown to people: "left"/"right", a [port] name, or @name
 * @cable:	the cable whose end is the whole port, as events name it;
 *		empty for a port several ends share (a trunk's; main thread)
 * @devargs:	how to probe the port again after an unplug
 * @ops:	its kind
 * @priv:	the kind's own state
 * @conf:	what the user chose
 * @lsc:	the driver reports link changes by event
 * @configured:	the ethdev is configured (main thread)
 * @started:	the ethdev is started (main thread)
 * @unplugging:	being unplugged: its link events are ours (main thread)
 * @link_up:	link state (event thread, or main thread when polled;
 *		atomic)
 * @txq_on:	bit q set when Tx queue q may be used (event thread; atomic)
 * @rxq_on:	bit q set when Rx queue q is enabled (event thread; atomic)
 * @caps:	what the port can receive, xc_caps_pack() (event thread;
 *		atomic; 0 while the link is down)
 * @own_pool:	Rx mbufs of a port that is not a guest's, sized for its
 *		frames (kind's prepare), freed by xc_port_free()
 * @rx_pool:	the pool its Rx queues take mbufs from (main thread writes,
 *		at configure; atomic)
 * @whole_only:	its driver sends single-segment frames only: chains are
 *		copied into one mbuf of @own_pool before they go to it
 * @parked:	kept aside, running, by a change that makes its end anew
 *		(reconf.c): no new end takes it; the end's old form takes it
 *		again if the change is undone (main thread)
 * @user:	the kind of end that has the port (endkind.h), while one
 *		has it: a [port NAME] may be a trunk or an untagged end's,
 *		not both (main thread)
 * @lingers:	no end has it since a change let go of its last one, and
 *		it stays started until the change is over, for an end the
 *		change makes on it again (xc_kinds_tidy(); main thread)
 * @wake_set:	epoll set in which the port's kind puts fds whose events
 *		the main thread must handle at once (a guard's decoy socket,
 *		guard.c), each with a struct xc_wake as its data, so that
 *		the main thread waits on them all at once; -1 for none (the
 *		topology's, set after creation)
 * @notify:	called from the event thread after a link or queue change
 *		(set once by the lcore wiring, before start)
 * @notify_arg:	argument of @notify
 * @hold_word:	while its guest's move waits for the guest's device to
 *		stop (migrate.c): the word (its cable's @paused) in which
 *		the event thread sets @hold_bits before it takes the link
 *		down, so that frames towards the port wait for the
 *		destination instead of meeting a link down; NULL otherwise
 *		(main thread; atomic)
 * @hold_bits:	those bits (main thread, before @hold_word)
 * @busy_until:	TSC time until which the lcores that poll the port keep
 *		polling rather than sleep: its guest is in an exchange whose
 *		answers come without a kick (a vIOMMU guest's IOTLB misses
 *		and invalidations, port_vhost.c), so more work is due soon;
 *		0 for none (event thread writes; atomic)
 * @rx_gather_gap: @ops' rx_gather_us in TSC cycles, 0 for none (set at
 *		creation)
 * @rx_gather_max: XC_RX_GATHER_MAX_US in TSC cycles if @rx_gather_gap
 *		is set, else 0 (set at creation)
 */
struct xc_port {
	uint16_t id;
	char name[RTE_ETH_NAME_MAX_LEN];
	char label[RTE_ETH_NAME_MAX_LEN];
	char cable[XC_NAME_MAX];
	char devargs[XC_DEVARGS_LEN];
	const struct xc_port_ops *ops;
	void *priv;
	struct xc_port_conf conf;
	bool lsc;
	bool configured;
	bool started;
	bool unplugging;
	uint32_t link_up;
	uint64_t txq_on;
	uint64_t rxq_on;
	uint64_t caps;
	struct rte_mempool *own_pool;
	struct rte_mempool *rx_pool;
	bool whole_only;
	bool parked;
	const struct xc_end_kind *user;
	bool lingers;
	int wake_set;
	void (*notify)(void *arg);
	void *notify_arg;
	uint32_t *hold_word;
	uint32_t hold_bits;
	uint64_t busy_until;
	uint64_t rx_gather_gap;
	uint64_t rx_gather_max;
};

int xc_port_create(struct xc_port *p, uint16_t id, char *err,
		   size_t errlen);
int xc_port_probe(struct xc_port *p, const char *devargs, const char *name,
		  char *err, size_t errlen);
int xc_port_configure(struct xc_port *p, struct rte_mempool *pool,
		      char *err, size_t errlen);
int xc_port_start(struct xc_port *p, char *err, size_t errlen);
void xc_port_stop(struct xc_port *p);
int xc_port_unplug(struct xc_port *p);
int xc_port_plug(struct xc_port *p, struct rte_mempool *pool);
void xc_port_close(struct xc_port *p);
void xc_port_free(struct xc_port *p);
void xc_port_poll(struct xc_port *p);
void xc_port_describe(struct xc_port *p, xc_kv_fn fn, void *arg);
uint64_t xc_port_features(struct xc_port *p);

/**
 * xc_port_kicks() - can the port's peer wake a sleeping lcore?
 * @p:		port
 *
 * Return: true if so (a guest), false if the port must be polled
 */
static inline bool xc_port_kicks(const struct xc_port *p)
{
	return p->ops->kick_fd != NULL;
}

/**
 * xc_port_socket() - the unix socket a port serves or connects to
 * @p:		port
 *
 * Return: the path, or NULL if its kind has none
 */
static inline const char *xc_port_socket(const struct xc_port *p)
{
	return p->ops->socket ? p->ops->socket(p) : NULL;
}

/**
 * xc_port_is_up() - may frames be sent to the port now? (any thread)
 * @p:		port
 *
 * Return: true if its link is up
 */
static inline bool xc_port_is_up(const struct xc_port *p)
{
	return __atomic_load_n(&p->link_up, __ATOMIC_ACQUIRE) != 0;
}

/**
 * xc_port_tx() - offer frames to queue @q of a port: its kind's way, or
 *		  the ethdev's (forwarding lcore)
 * @p:		port
 * @q:		queue
 * @pkts:	frames
 * @n:		how many
 *
 * A kind's own send passes by the ethdev's, and so by the callbacks
 * others hang on it: rte_pdump's, while dpdk-dumpcap captures the port.
 * So while the queue has any, the frames go through rte_eth_tx_burst(),
 * which calls them (it reads the same list the same way, DPDK 22.11's
 * rte_ethdev.h: the list's head, NULL when there is none).
 *
 * Return: frames the port took (and frees); the rest are the caller's
 */
static inline uint16_t xc_port_tx(struct xc_port *p, uint16_t q,
				  struct rte_mbuf **pkts, uint16_t n)
{
	if (p->ops->tx != NULL &&
	    __atomic_load_n(&rte_eth_fp_ops[p->id].txq.clbk[q],
			    __ATOMIC_RELAXED) == NULL)
		return p->ops->tx(p, q, pkts, n);
	return rte_eth_tx_burst(p->id, q, pkts, n);
}

/**
 * xc_port_stopping() - is the port's guest moving, and its device
 *			stopping (its queues disabled, its link not yet
 *			down)? Frames towards it wait then, instead of
 *			meeting a peer that is down: a frontend disables its
 *			queues just before it stops its device (any thread)
 * @p:		port
 *
 * Return: true if so
 */
static inline bool xc_port_stopping(const struct xc_port *p)
{
	return __atomic_load_n(&p->hold_word, __ATOMIC_ACQUIRE) != NULL &&
	       xc_port_is_up(p);
}

/* the port kinds: xc_port_NAME_ops, one file each, listed in
 * portkinds.def */
#define XC_PORT_KIND(name) extern const struct xc_port_ops xc_port_##name##_ops;
#include "portkinds.def"
#undef XC_PORT_KIND

bool xc_port_explain_absent(const char *devargs, char *why, size_t len);
void xc_port_wake_poll(int set);

#endif /* XC_PORT_H */
