/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * port.c - the life cycle of a port, the same for every kind
 *
 * Theory of operation: a vhost port creates its socket in
 * rte_eth_dev_configure() and from then on QEMU may connect at any time,
 * from the vhost library's event thread. That thread reports link changes
 * (RTE_ETH_EVENT_INTR_LSC) and, for kinds with queue events, vring
 * enable/disable (RTE_ETH_EVENT_QUEUE_STATE, which the kind reads). We register for both before
 * configuring, so no event is missed, and keep the result in struct
 * xc_port as atomics that the forwarding lcores read before each transmit.
 * A port that does not report link changes by event is polled by the main
 * thread instead. What differs between kinds is asked of p->ops (port.h).
 */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>

#include <rte_bus.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_ethdev.h>

#include "evlog.h"
#include "log.h"
#include "logrl.h"
#include "port.h"

RTE_LOG_REGISTER(xc_logtype_port, xcable.port, INFO);

/* the kinds, most particular first: the last one takes any ethdev */
static const struct xc_port_ops *const xc_port_kinds[] = {
#define XC_PORT_KIND(name) &xc_port_##name##_ops,
#include "portkinds.def"
#undef XC_PORT_KIND
};

/**
 * xc_port_explain_absent() - say why the EAL made no device of a port's
 *			      devargs, if a port kind knows (a kernel
 *			      interface that is missing)
 * @devargs:	the port's device arguments
 * @why:	the reason, if one is known
 * @len:	size of @why
 *
 * Return: true if @why is set
 */
bool xc_port_explain_absent(const char *devargs, char *why, size_t len)
{
	unsigned int k;

	for (k = 0; k < RTE_DIM(xc_port_kinds); k++)
		if (xc_port_kinds[k]->absent &&
		    xc_port_kinds[k]->absent(devargs, why, len))
			return true;
	return false;
}

/**
 * xc_port_wake_poll() - handle the fds of a wake set that are ready: one
 *			 system call when none is (main thread, which can
 *			 also sleep on @set); one pass, so that an fd that
 *			 stays ready cannot hold the main thread
 * @set:	the epoll set, or -1
 */
void xc_port_wake_poll(int set)
{
	struct epoll_event ev[64];
	int n, i;

	if (set < 0)
		return;
	n = epoll_wait(set, ev, RTE_DIM(ev), 0);
	for (i = 0; i < n; i++) {
		struct xc_wake *w = ev[i].data.ptr;

		w->fn(w->arg);
	}
}

/**
 * xc_port_probe() - make a device at runtime (a socket end's vhost port)
 *		     and describe it in a free port slot
 * @p:		the slot, free
 * @devargs:	the device and its arguments
 * @name:	the device's name (the part of @devargs before a comma)
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -errno with @err set and the device gone again (@p free)
 */
int xc_port_probe(struct xc_port *p, const char *devargs, const char *name,
		  char *err, size_t errlen)
{
	struct rte_eth_dev_info info;
	uint16_t id;
	int rc;

	rc = rte_dev_probe(devargs);
	if (rc == 0)
		rc = rte_eth_dev_get_port_by_name(name, &id);
	if (rc) {
		snprintf(err, errlen, "cannot create port %s: %s", name,
			 rte_strerror(-rc));
		return rc;
	}
	rc = xc_port_create(p, id, err, errlen);
	if (rc == 0)
		return 0;
	xc_port_free(p);
	if (rte_eth_dev_info_get(id, &info) == 0)
		rte_dev_remove(info.device);
	memset(p, 0, sizeof(*p));	/* a free slot */
	return rc;
}

/**
 * xc_port_create() - describe an ethdev port and pick its kind, without
 *		      touching the device
 * @p:		port to fill
 * @id:		ethdev port id
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 on success, -errno on failure
 */
int xc_port_create(struct xc_port *p, uint16_t id, char *err, size_t errlen)
{
	const struct rte_devargs *da;
	struct rte_eth_dev_info info;
	unsigned int k;
	int rc;

	memset(p, 0, sizeof(*p));
	p->id = id;
	p->wake_set = -1;
	rc = rte_eth_dev_info_get(id, &info);
	if (rc) {
		snprintf(err, errlen, "port %u: cannot get device info: %s",
			 id, rte_strerror(-rc));
		return rc;
	}
	rte_eth_dev_get_name_by_port(id, p->name);
	snprintf(p->label, sizeof(p->label), "%s", p->name);
	p->lsc = (*info.dev_flags & RTE_ETH_DEV_INTR_LSC) != 0;
	p->conf.n_queues = 1;
	p->conf.offloads = true;
	p->conf.sock_uid = p->conf.sock_gid = -1;
	da = rte_dev_devargs(info.device);
	if (da != NULL)
		snprintf(p->devargs, sizeof(p->devargs), "%s%s%s", da->name,
			 da->args && *da->args ? "," : "",
			 da->args ? da->args : "");
	for (k = 0; k < RTE_DIM(xc_port_kinds); k++)
		if (xc_port_kinds[k]->match(&info))
			break;
	p->ops = xc_port_kinds[RTE_MIN(k, RTE_DIM(xc_port_kinds) - 1)];
	p->rx_gather_gap = rte_get_tsc_hz() / 1000000 * p->ops->rx_gather_us;
	p->rx_gather_max = p->ops->rx_gather_us ?
			   rte_get_tsc_hz() / 1000000 * XC_RX_GATHER_MAX_US : 0;
	return p->ops->init ? p->ops->init(p, &info, err, errlen) : 0;
}

/**
 * link_event() - a port's link went up or down: an event, naming its
 *		  cable and end, or the port shared by several
 * @p:		port
 * @up:		its link now
 * @caps:	what its receiver takes, if up
 */
static void link_event(struct xc_port *p, bool up, uint64_t caps)
{
	char takes[64], detail[XC_EV_DETAIL] = "";
	uint64_t f = up ? xc_port_features(p) : 0;
	size_t n = 0;

	if (f)
		n = (size_t)snprintf(detail, sizeof(detail),
				     "virtio features 0x%llx, ",
				     (unsigned long long)f);
	if (up) {
		xc_caps_describe(caps, takes, sizeof(takes));
		n += (size_t)snprintf(detail + n, sizeof(detail) - n,
				      "takes %s, frames up to %u bytes, ", takes,
				      xc_caps_max_frame(caps));
	}
	if (!p->cable[0])
		n += (size_t)snprintf(detail + n, sizeof(detail) - n,
				      "port %s, ", p->label);
	if (n >= 2 && n < sizeof(detail))
		detail[n - 2] = '\0';	/* its last ", " */
	xc_ev("link", p->cable[0] ? p->cable : NULL,
	      p->cable[0] ? p->label : NULL, up ? "up" : "down",
	      p->ops->peer ? p->ops->peer : "interface", "%s", detail);
}

/**
 * hold() - a port's link goes down while its guest's move waits for the
 *	    guest's device to stop: frames towards it wait from now on
 *	    (its cable's pause bits, before the lcores see the link down)
 * @p:		port
 */
static void hold(struct xc_port *p)
{
	uint32_t *w = __atomic_load_n(&p->hold_word, __ATOMIC_ACQUIRE);

	if (w)
		__atomic_fetch_or(w, p->hold_bits, __ATOMIC_SEQ_CST);
}

/**
 * update_link() - read the link state and what the port's receiver can
 *		   take, and tell the kind about a change
 * @p:		port
 */
static void update_link(struct xc_port *p)
{
	struct rte_eth_link link;
	uint64_t caps = 0;
	uint32_t up, was;

	if (rte_eth_link_get_nowait(p->id, &link) != 0)
		return;
	up = link.link_status == RTE_ETH_LINK_UP &&
	     (p->ops->link_ok == NULL || p->ops->link_ok(p));
	if (up && !xc_port_is_up(p)) {
		/* before the link is seen up, so lcores never use stale
		 * capabilities of a guest that restarted */
		caps = p->ops->caps(p);
		__atomic_store_n(&p->caps, caps, __ATOMIC_RELEASE);
	}
	if (!up)
		hold(p);
	was = __atomic_exchange_n(&p->link_up, up, __ATOMIC_SEQ_CST);
	if (!up && p->ops->quiesce)
		p->ops->quiesce(p);
	if (up == was)
		return;
	if (!up) {
		__atomic_store_n(&p->caps, 0, __ATOMIC_RELEASE);
		if (p->ops->queue_events) {
			/* the driver forgets queue state silently */
			__atomic_store_n(&p->txq_on, 0, __ATOMIC_RELEASE);
			__atomic_store_n(&p->rxq_on, 0, __ATOMIC_RELEASE);
		}
	}
	if (p->ops->link_changed)
		p->ops->link_changed(p, up, caps);
	else
		XC_LOG_FROM(p->label, port, INFO, "%s: link %s", p->label,
			    up ? "up" : "down");
	link_event(p, up, caps);
}

/**
 * port_event() - ethdev event callback, runs in the event thread
 * @port_id:	port the event is for
 * @type:	RTE_ETH_EVENT_INTR_LSC or RTE_ETH_EVENT_QUEUE_STATE
 * @arg:	the struct xc_port
 * @ret_param:	unused
 *
 * Return: 0
 */
static int port_event(uint16_t port_id, enum rte_eth_event_type type,
		      void *arg, void *ret_param)
{
	struct xc_port *p = arg;
	void (*notify)(void *);

	(void)ret_param;
	if (p->id != port_id)
		return 0;
	if (type == RTE_ETH_EVENT_INTR_LSC)
		update_link(p);
	if (p->ops->queue_events)
		p->ops->queue_events(p);
	notify = __atomic_load_n(&p->notify, __ATOMIC_ACQUIRE);
	if (notify)
		notify(p->notify_arg);
	return 0;
}

/**
 * register_events() - follow the port's link (and queue) events; before
 *		       configure, so that none is missed
 * @p:		port
 *
 * Return: 0 or -errno
 */
static int register_events(struct xc_port *p)
{
	int rc = rte_eth_dev_callback_register(p->id, RTE_ETH_EVENT_INTR_LSC,
					       port_event, p);

	if (rc == 0 && p->ops->queue_events)
		rc = rte_eth_dev_callback_register(p->id,
						   RTE_ETH_EVENT_QUEUE_STATE,
						   port_event, p);
	return rc;
}

/**
 * eth_conf() - the ethdev configuration of a port
 * @p:		port
 * @info:	its device info
 * @conf:	filled
 */
static void eth_conf(const struct xc_port *p,
		     const struct rte_eth_dev_info *info,
		     struct rte_eth_conf *conf)
{
	memset(conf, 0, sizeof(*conf));
	conf->intr_conf.lsc = p->lsc;
	if (info->tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS)
		conf->txmode.offloads |= RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	if (info->rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER)
		conf->rxmode.offloads |= RTE_ETH_RX_OFFLOAD_SCATTER;
	/* take partial checksums and TSO frames as they are: the offload
	 * stage decides per receiver (else the vhost PMD would complete
	 * every checksum in software on receive) */
	conf->rxmode.offloads |= info->rx_offload_capa &
		(RTE_ETH_RX_OFFLOAD_TCP_CKSUM | RTE_ETH_RX_OFFLOAD_UDP_CKSUM |
		 RTE_ETH_RX_OFFLOAD_TCP_LRO);
	/* a trunk's outer tag: where the driver strips it into the mbuf
	 * anyway (af_packet), take it from there rather than have the PMD
	 * put it back as 802.1Q whatever it was */
	if (p->conf.strip_vlan)
		conf->rxmode.offloads |= info->rx_offload_capa &
					 RTE_ETH_RX_OFFLOAD_VLAN_STRIP;
}

/**
 * setup_queues() - set up p->conf.n_queues Rx and Tx queues
 * @p:		port, configured
 * @pool:	mbufs for its Rx queues
 *
 * Return: 0 or -errno
 */
static int setup_queues(struct xc_port *p, struct rte_mempool *pool)
{
	int socket = rte_eth_dev_socket_id(p->id);
	uint16_t q;
	int rc = 0;

	if (socket < 0)
		socket = 0;
	__atomic_store_n(&p->rx_pool, pool, __ATOMIC_RELEASE);
	for (q = 0; q < p->conf.n_queues && rc == 0; q++) {
		rc = rte_eth_rx_queue_setup(p->id, q, XC_RING_SIZE, socket,
					    NULL, pool);
		if (rc == 0)
			rc = rte_eth_tx_queue_setup(p->id, q, XC_RING_SIZE,
						    socket, NULL);
	}
	return rc;
}

/**
 * configure() - prepare, configure and set up a port (see
 *		 xc_port_configure())
 * @p:		port
 * @pool:	the cable's mbufs, for a port without its own pool
 * @again:	the port is plugged in again
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 on success, -errno on failure
 */
static int configure(struct xc_port *p, struct rte_mempool *pool, bool again,
		     char *err, size_t errlen)
{
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;
	mode_t old;
	int rc;

	if (p->ops->prepare && (rc = p->ops->prepare(p, again, err, errlen)))
		return rc;
	rc = rte_eth_dev_info_get(p->id, &info);
	if (rc == 0)
		rc = register_events(p);
	if (rc)
		goto fail;
	eth_conf(p, &info, &conf);
	/* a vhost server binds its socket here: create it with no access
	 * for others at all, the kind's secure() opens it up as asked */
	old = umask(0177);
	rc = rte_eth_dev_configure(p->id, p->conf.n_queues, p->conf.n_queues,
				   &conf);
	umask(old);
	if (rc)
		goto fail;
	p->configured = true;
	if (p->conf.mtu && (rc = rte_eth_dev_set_mtu(p->id,
						     (uint16_t)p->conf.mtu)))
		XC_LOG(port, WARNING,
		       "%s: the driver refuses MTU %u (%s; it claims frames up to %u bytes): frames up to %u bytes are sent to it anyway, as configured",
		       p->label, p->conf.mtu, rte_strerror(-rc),
		       info.max_rx_pktlen, p->conf.mtu + RTE_ETHER_HDR_LEN);
	if (p->ops->secure && (rc = p->ops->secure(p, err, errlen)))
		return rc;
	rc = setup_queues(p, p->own_pool ? p->own_pool : pool);
	if (rc == 0)
		return 0;
fail:
	snprintf(err, errlen, "%s: cannot configure port: %s", p->label,
		 rte_strerror(rc < 0 ? -rc : rc));
	return rc < 0 ? rc : -rc;
}

/**
 * xc_port_configure() - let the kind prepare the port (its own pool,
 *			 socket checks), configure the ethdev with
 *			 p->conf.n_queues queue pairs (a vhost server's
 *			 socket appears), let the kind secure it
 * @p:		port, created
 * @pool:	the cable's mbufs, for a port without its own pool
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 on success, -errno on failure
 */
int xc_port_configure(struct xc_port *p, struct rte_mempool *pool,
		      char *err, size_t errlen)
{
	return configure(p, pool, false, err, errlen);
}

/**
 * xc_port_start() - start a configured port; a port without link events
 *		     has its link read now, the others get it by event
 * @p:		port
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 on success, -errno on failure
 */
int xc_port_start(struct xc_port *p, char *err, size_t errlen)
{
	int rc = rte_eth_dev_start(p->id);

	if (rc) {
		snprintf(err, errlen, "%s: cannot start port: %s", p->label,
			 rte_strerror(-rc));
		return rc;
	}
	p->started = true;
	/* a cable carries every frame: no MAC filtering on real NICs */
	rc = rte_eth_promiscuous_enable(p->id);
	if (rc && rc != -ENOTSUP)
		XC_LOG(port, WARNING, "%s: cannot enable promiscuous mode: %s",
		       p->label, rte_strerror(-rc));
	rte_eth_allmulticast_enable(p->id);
	if (!p->ops->queue_events) {
		/* only ports with queue events have queues that come and go */
		__atomic_store_n(&p->txq_on, ~0ULL, __ATOMIC_RELEASE);
		__atomic_store_n(&p->rxq_on, ~0ULL, __ATOMIC_RELEASE);
	}
	/* a vhost port's link comes up by event, from the vhost thread,
	 * once its guest is set up: reading it here too raced with that
	 * thread (in client mode the guest can attach during start) */
	if (!p->ops->event_link)
		update_link(p);
	return 0;
}

/**
 * xc_port_poll() - housekeeping of a port: refresh the link of a port
 *		    without events, and the kind's own (the guard)
 * @p:		port
 */
void xc_port_poll(struct xc_port *p)
{
	if (!p->started)
		return;
	if (!p->lsc)
		update_link(p);
	if (p->ops->poll)
		p->ops->poll(p);
}

/**
 * set_down() - take a port's link down before it is unplugged: lcores
 *		stop using it, calls into its peer's resources end
 * @p:		port
 */
static void set_down(struct xc_port *p)
{
	__atomic_store_n(&p->link_up, 0, __ATOMIC_SEQ_CST);
	if (p->ops->quiesce)
		p->ops->quiesce(p);
	__atomic_store_n(&p->caps, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&p->txq_on, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&p->rxq_on, 0, __ATOMIC_RELEASE);
}

/**
 * xc_port_stop() - stop a started port that no cable uses any more (its
 *		    last cable removed at runtime), keeping it configured:
 *		    lcores stop using it, and xc_port_start() starts it
 *		    again for the next cable
 * @p:		port
 */
void xc_port_stop(struct xc_port *p)
{
	int rc;

	if (!p->started)
		return;
	set_down(p);
	rc = rte_eth_dev_stop(p->id);
	if (rc)
		XC_LOG(port, WARNING, "%s: cannot stop port: %s", p->label,
		       rte_strerror(-rc));
	else	/* a NIC's link goes down: its peer sees it */
		XC_LOG(port, INFO, "%s: port stopped: no cable uses it now",
		       p->label);
	p->started = false;
}

/**
 * xc_port_close() - stop and close a port (a vhost server's socket goes
 *		     away); nothing happens to a port that is not configured
 * @p:		port
 */
void xc_port_close(struct xc_port *p)
{
	if (!p->configured)
		return;
	if (p->ops->close)
		p->ops->close(p);
	if (p->started)
		rte_eth_dev_stop(p->id);
	p->started = false;
	rte_eth_dev_callback_unregister(p->id, RTE_ETH_EVENT_INTR_LSC,
					port_event, p);
	if (p->ops->queue_events)
		rte_eth_dev_callback_unregister(p->id,
						RTE_ETH_EVENT_QUEUE_STATE,
						port_event, p);
	rte_eth_dev_close(p->id);
	p->configured = false;
	if (p->ops->closed)
		p->ops->closed(p);
}

/**
 * xc_port_unplug() - hot-unplug a port: its peer sees the carrier go
 * @p:		port of a pluggable kind, plugged
 *
 * Return: 0, or -errno (the port may then be gone anyway)
 */
int xc_port_unplug(struct xc_port *p)
{
	struct rte_eth_dev_info info;
	struct rte_device *dev;
	int rc;

	rc = rte_eth_dev_info_get(p->id, &info);
	if (rc)
		return rc;
	dev = info.device;
	p->unplugging = true;
	set_down(p);
	xc_port_close(p);
	rc = rte_dev_remove(dev);
	p->unplugging = false;
	if (rc)
		XC_LOG(port, ERR, "%s: cannot unplug %s: %s", p->label,
		       p->name, rte_strerror(-rc));
	return rc;
}

/**
 * xc_port_plug() - probe an unplugged port again from its devargs, then
 *		    configure and start it as at start-up
 * @p:		port, unplugged
 * @pool:	the cable's mbufs
 *
 * Return: 0 or -errno
 */
int xc_port_plug(struct xc_port *p, struct rte_mempool *pool)
{
	char err[XC_ERR_LEN];
	uint16_t id;
	int rc;

	rc = rte_dev_probe(p->devargs);
	if (rc == 0)
		rc = rte_eth_dev_get_port_by_name(p->name, &id);
	if (rc) {
		XC_LOG(port, ERR, "%s: cannot plug %s again: %s", p->label,
		       p->devargs, rte_strerror(-rc));
		return rc;
	}
	p->id = id;
	rc = configure(p, pool, true, err, sizeof(err));
	if (rc == 0)
		rc = xc_port_start(p, err, sizeof(err));
	if (rc)
		XC_LOG(port, ERR, "%s: %s", p->label, err);
	return rc;
}

/**
 * xc_port_free() - close a port and free what it and its kind own
 * @p:		port (created, or zeroed)
 */
void xc_port_free(struct xc_port *p)
{
	if (p->ops == NULL)
		return;
	xc_port_close(p);
	if (p->ops->fini)
		p->ops->fini(p);
	p->priv = NULL;
	__atomic_store_n(&p->rx_pool, NULL, __ATOMIC_RELEASE);
	rte_mempool_free(p->own_pool);
	p->own_pool = NULL;
}

/**
 * xc_port_describe() - report what people want to know of a port: its
 *			kind, name and link, then the kind's own facts
 * @p:		port
 * @fn:		called once per fact
 * @arg:	its argument
 */
void xc_port_describe(struct xc_port *p, xc_kv_fn fn, void *arg)
{
	fn(arg, "kind", p->ops->kind, 0);
	fn(arg, "port", p->name, 0);
	fn(arg, "port_id", NULL, p->id);
	fn(arg, "link", xc_port_is_up(p) ? "up" : "down", 0);
	if (p->ops->describe)
		p->ops->describe(p, fn, arg);
}

/**
 * xc_port_features() - the virtio features a port's guest negotiated
 * @p:		port
 *
 * Return: the features, 0 if none, no guest attached, or not a guest's
 */
uint64_t xc_port_features(struct xc_port *p)
{
	return p->ops->features ? p->ops->features(p) : 0;
}
