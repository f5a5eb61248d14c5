/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ports.c - ethdev ports as cable ends
 *
 * Theory of operation: the vhost PMD creates its socket in
 * rte_eth_dev_configure() and from then on QEMU may connect at any time,
 * from the vhost library's event thread. That thread reports link changes
 * (RTE_ETH_EVENT_INTR_LSC, a VM came or went) and vring enable/disable
 * (RTE_ETH_EVENT_QUEUE_STATE). We register for both before configuring,
 * so no event is missed, and keep the result in struct xc_port as atomics
 * that the forwarding lcores read before each transmit. A port that does
 * not report link changes by event is polled by the main thread instead.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_bus.h>
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_eth_vhost.h>
#include <rte_ethdev.h>
#include <rte_kvargs.h>
#include <rte_pause.h>
#include <rte_vhost.h>

#include "log.h"
#include "ports.h"

RTE_LOG_REGISTER(xc_logtype_port, xcable.port, INFO);

/* virtio-net offload features, withheld from guests by --no-offloads:
 * CSUM, GUEST_CSUM, GUEST_TSO4/6, GUEST_ECN, GUEST_UFO, HOST_TSO4/6,
 * HOST_ECN, HOST_UFO */
#define XC_VIRTIO_OFFLOADS	(0x3ULL | (0xffULL << 7))

/**
 * read_vhost_args() - take the socket path and mode from a vhost port's
 *		       device arguments
 * @p:		port, whose @iface and @client are filled
 * @dev:	its device
 *
 * Return: 0 on success, -EINVAL if the arguments carry no usable iface
 */
static int read_vhost_args(struct xc_port *p, const struct rte_device *dev)
{
	const struct rte_devargs *da = rte_dev_devargs(dev);
	struct rte_kvargs *kv;
	const char *v;
	int rc = -EINVAL;

	if (da == NULL || da->args == NULL)
		return -EINVAL;
	kv = rte_kvargs_parse(da->args, NULL);
	if (kv == NULL)
		return -EINVAL;
	snprintf(p->devargs, sizeof(p->devargs), "%s,%s", da->name, da->args);
	v = rte_kvargs_get(kv, "iface");
	if (v != NULL && strlen(v) < sizeof(p->iface)) {
		strcpy(p->iface, v);
		rc = 0;
	}
	v = rte_kvargs_get(kv, "client");
	p->client = v != NULL && strcmp(v, "0") != 0;
	v = rte_kvargs_get(kv, "queues");
	if (v != NULL)
		p->n_queues = (uint16_t)RTE_MIN(strtoul(v, NULL, 10),
						(unsigned long)XC_MAX_QUEUES);
	rte_kvargs_free(kv);
	return rc;
}

/**
 * read_kernel_iface() - for drivers on a kernel interface (af_packet,
 *			 af_xdp), its name from iface=: their PMDs report
 *			 the link up whatever the interface does, so xcable
 *			 looks at the interface itself
 * @p:		port, whose @kiface is filled (empty if none)
 * @dev:	its device
 */
static void read_kernel_iface(struct xc_port *p, const struct rte_device *dev)
{
	const struct rte_devargs *da = rte_dev_devargs(dev);
	struct rte_kvargs *kv;
	const char *v;

	p->kiface[0] = '\0';
	p->kfd = -1;
	if (da == NULL || da->args == NULL)
		return;
	kv = rte_kvargs_parse(da->args, NULL);
	if (kv == NULL)
		return;
	v = rte_kvargs_get(kv, "iface");
	if (v != NULL && strlen(v) < sizeof(p->kiface))
		strcpy(p->kiface, v);
	/* af_packet copies each frame into one mbuf that must hold its
	 * whole frame size */
	v = rte_kvargs_get(kv, "framesz");
	if (v != NULL)
		p->framesz = (unsigned int)RTE_MIN(strtoul(v, NULL, 0),
						   65536UL);
	rte_kvargs_free(kv);
}

/**
 * kernel_up() - is the port's kernel interface up and running?
 * @p:		port
 *
 * Return: true if so, or if the port has none (or it cannot be asked)
 */
static bool kernel_up(struct xc_port *p)
{
	struct ifreq ifr;

	if (p->kiface[0] == '\0')
		return true;
	if (p->kfd < 0)
		p->kfd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (p->kfd < 0)
		return true;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, p->kiface, sizeof(ifr.ifr_name) - 1);
	if (ioctl(p->kfd, SIOCGIFFLAGS, &ifr) < 0)
		return false;	/* gone */
	return (ifr.ifr_flags & IFF_UP) && (ifr.ifr_flags & IFF_RUNNING);
}

/**
 * xc_port_init() - describe an ethdev port, without touching it
 * @p:		port to fill
 * @id:		ethdev port id
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 on success, -errno on failure
 */
int xc_port_init(struct xc_port *p, uint16_t id, char *err, size_t errlen)
{
	struct rte_eth_dev_info info;
	int rc;

	memset(p, 0, sizeof(*p));
	p->id = id;
	rc = rte_eth_dev_info_get(id, &info);
	if (rc) {
		snprintf(err, errlen, "port %u: cannot get device info: %s",
			 id, rte_strerror(-rc));
		return rc;
	}
	p->n_queues = 1;
	p->offloads = true;
	rte_eth_dev_get_name_by_port(id, p->name);
	snprintf(p->label, sizeof(p->label), "%s", p->name);
	p->lsc = (*info.dev_flags & RTE_ETH_DEV_INTR_LSC) != 0;
	p->kfd = -1;
	if (strcmp(info.driver_name, "net_af_packet") == 0 ||
	    strcmp(info.driver_name, "net_af_xdp") == 0)
		read_kernel_iface(p, info.device);
	if (strcmp(info.driver_name, "net_vhost") == 0) {
		p->is_vhost = true;
		if (read_vhost_args(p, info.device)) {
			snprintf(err, errlen,
				 "port %u (%s): no usable iface= socket path",
				 id, p->name);
			return -EINVAL;
		}
		if (p->n_queues == 0)
			p->n_queues = 1;
	}
	return 0;
}

/**
 * drain_queue_events() - apply the vhost PMD's pending vring state changes
 * @p:		vhost port
 */
static void drain_queue_events(struct xc_port *p)
{
	struct rte_eth_vhost_queue_event ev;

	while (rte_eth_vhost_get_queue_event(p->id, &ev) == 0) {
		uint64_t *mask = ev.rx ? &p->rxq_on : &p->txq_on;
		uint64_t bit = 1ULL << (ev.queue_id & 63);

		if (ev.enable)
			__atomic_fetch_or(mask, bit, __ATOMIC_RELEASE);
		else
			__atomic_fetch_and(mask, ~bit, __ATOMIC_RELEASE);
		XC_LOG(port, DEBUG, "%s: %s queue %u %s", p->label,
		       ev.rx ? "rx" : "tx", ev.queue_id,
		       ev.enable ? "enabled" : "disabled");
	}
}

/**
 * read_caps() - what the port's receiver can take, read when its link is up
 * @p:		port
 *
 * Return: packed capabilities (see xc_caps_pack())
 */
static uint64_t read_caps(const struct xc_port *p)
{
	uint64_t features = 0;
	uint16_t mtu = 0;
	int vid;

	if (!p->is_vhost) {
		/* other ports: frames up to their MTU plus the Ethernet
		 * header (Linux takes 4 bytes more only for frames tagged
		 * 802.1Q; NIC offloads are not used: frames to them are
		 * segmented and checksummed here) */
		if (p->mtu)
			mtu = (uint16_t)p->mtu;
		else if (rte_eth_dev_get_mtu(p->id, &mtu) != 0)
			mtu = RTE_ETHER_MTU;
		return xc_caps_pack(0, (uint32_t)mtu + RTE_ETHER_HDR_LEN);
	}
	vid = rte_eth_vhost_get_vid_from_port_id(p->id);
	if (vid < 0 || rte_vhost_get_negotiated_features(vid, &features))
		return 0;
	if (rte_vhost_get_mtu(vid, &mtu))
		mtu = 0;
	return xc_caps_from_virtio(features, mtu);
}

/**
 * update_members() - a trunk's members follow its port: link, and what it
 *		      takes less the 4 bytes of their tag (the MTU of a trunk
 *		      port must leave room for them: 1508 for guests' 1518-byte
 *		      frames under 802.1ad)
 * @t:		trunk
 * @up:		link state of its port
 * @caps:	what the port takes (when up)
 */
static void update_members(struct xc_trunk *t, uint32_t up, uint64_t caps)
{
	/* the tag takes 4 bytes, which Linux gives back for 802.1Q */
	uint32_t max = xc_caps_max_frame(caps) +
		       (t->tpid == XC_TPID_8021Q ? 4 : 0);
	unsigned int i;

	for (i = 0; i < t->n_members; i++) {
		struct xc_port *m = t->member[i];

		__atomic_store_n(&m->caps,
				 up ? xc_caps_pack(0, max > 4 ? max - 4 : 0) : 0,
				 __ATOMIC_RELEASE);
		__atomic_store_n(&m->txq_on, up ? ~0ULL : 0, __ATOMIC_RELEASE);
		__atomic_store_n(&m->rxq_on, up ? ~0ULL : 0, __ATOMIC_RELEASE);
		__atomic_store_n(&m->link_up, up, __ATOMIC_RELEASE);
	}
}

/**
 * update_link() - read the link state and what the port's receiver can
 *		   take, and log a change
 * @p:		port
 */
static void update_link(struct xc_port *p)
{
	struct rte_eth_link link;
	uint64_t caps = 0;
	uint32_t up, was;
	char takes[64];

	if (rte_eth_link_get_nowait(p->id, &link) != 0)
		return;
	up = link.link_status == RTE_ETH_LINK_UP && kernel_up(p);
	if (up && !__atomic_load_n(&p->link_up, __ATOMIC_ACQUIRE)) {
		/* before the link is seen up, so lcores never use stale
		 * capabilities of a guest that restarted */
		caps = read_caps(p);
		__atomic_store_n(&p->caps, caps, __ATOMIC_RELEASE);
	}
	was = __atomic_exchange_n(&p->link_up, up, __ATOMIC_SEQ_CST);
	if (!up) {
		/* the vhost library frees the device when we return: wait
		 * for lcores and telemetry still using it */
		while (__atomic_load_n(&p->vh_busy, __ATOMIC_ACQUIRE))
			rte_pause();
	}
	if (up == was)
		return;
	if (!up) {
		__atomic_store_n(&p->caps, 0, __ATOMIC_RELEASE);
		if (p->is_vhost) {
			/* the PMD forgets vring state silently when a VM
			 * goes */
			__atomic_store_n(&p->txq_on, 0, __ATOMIC_RELEASE);
			__atomic_store_n(&p->rxq_on, 0, __ATOMIC_RELEASE);
		}
	}
	xc_caps_describe(caps, takes, sizeof(takes));
	if (p->is_vhost && up)
		XC_LOG(port, INFO,
		       "%s (%s): link up, VM connected; it takes %s, frames up to %u bytes",
		       p->label, p->iface, takes, xc_caps_max_frame(caps));
	else if (p->is_vhost)
		XC_LOG(port, INFO, "%s (%s): link down, VM gone", p->label,
		       p->iface);
	if (p->is_vhost && !p->client) {
		if (up)
			xc_guard_attach(&p->guard, p->label);
		else
			xc_guard_detach(&p->guard, p->label);
	}
	else
		XC_LOG(port, INFO, "%s: link %s", p->label, up ? "up" : "down");
	if (p->carries)
		update_members(p->carries, up,
			       __atomic_load_n(&p->caps, __ATOMIC_ACQUIRE));
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

	(void)ret_param;
	if (p->id != port_id)
		return 0;
	if (type == RTE_ETH_EVENT_INTR_LSC) {
		update_link(p);
		if (p->is_vhost)
			drain_queue_events(p);
	} else if (type == RTE_ETH_EVENT_QUEUE_STATE && p->is_vhost) {
		drain_queue_events(p);
	}
	{
		void (*notify)(void *) = __atomic_load_n(&p->notify,
							 __ATOMIC_ACQUIRE);

		if (notify)
			notify(p->notify_arg);
	}
	return 0;
}

/**
 * xc_port_configure() - configure a port with p->n_queues Rx and Tx queues
 * @p:		port
 * @pool:	mbufs for its Rx queues
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * For a vhost port in server mode this creates the socket.
 *
 * Return: 0 on success, -errno on failure
 */
int xc_port_configure(struct xc_port *p, struct rte_mempool *pool,
		      char *err, size_t errlen)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	int socket = rte_eth_dev_socket_id(p->id);
	uint16_t q;
	int rc;

	if (socket < 0)
		socket = 0;
	rc = rte_eth_dev_info_get(p->id, &info);
	if (rc)
		goto fail;
	if (p->is_vhost && !p->client &&
	    xc_guard_init(&p->guard, p->iface, p->sock_mode, p->sock_uid,
			  p->sock_gid))
		XC_LOG(port, WARNING,
		       "%s: path %s too long to hide while in use: a second frontend could take the port over",
		       p->label, p->iface);
	memset(&conf, 0, sizeof(conf));
	conf.intr_conf.lsc = p->lsc;
	if (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS)
		conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	if (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER)
		conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_SCATTER;
	/* take partial checksums and TSO frames as they are: the offload
	 * stage decides per receiver (else the vhost PMD would complete
	 * every checksum in software on receive) */
	conf.rxmode.offloads |= info.rx_offload_capa &
		(RTE_ETH_RX_OFFLOAD_TCP_CKSUM | RTE_ETH_RX_OFFLOAD_UDP_CKSUM |
		 RTE_ETH_RX_OFFLOAD_TCP_LRO);
	/* a trunk's outer tag: where the driver strips it into the mbuf
	 * anyway (af_packet), take it from there rather than have the PMD
	 * put it back as 802.1Q whatever it was */
	if (p->carries)
		conf.rxmode.offloads |= info.rx_offload_capa &
					RTE_ETH_RX_OFFLOAD_VLAN_STRIP;

	rc = rte_eth_dev_callback_register(p->id, RTE_ETH_EVENT_INTR_LSC,
					   port_event, p);
	if (rc == 0 && p->is_vhost)
		rc = rte_eth_dev_callback_register(p->id,
						   RTE_ETH_EVENT_QUEUE_STATE,
						   port_event, p);
	if (rc)
		goto fail;

	rc = rte_eth_dev_configure(p->id, p->n_queues, p->n_queues, &conf);
	if (rc) {
		if (p->is_vhost) {
			snprintf(err, errlen,
				 "%s: cannot %s vhost-user socket '%s' (see the log above)",
				 p->label, p->client ? "use" : "create",
				 p->iface);
			return rc;
		}
		goto fail;
	}
	p->configured = true;
	if (p->mtu && (rc = rte_eth_dev_set_mtu(p->id, (uint16_t)p->mtu)))
		XC_LOG(port, WARNING,
		       "%s: the driver refuses MTU %u (%s; it claims frames up to %u bytes): frames up to %u bytes are sent to it anyway, as configured",
		       p->label, p->mtu, rte_strerror(-rc), info.max_rx_pktlen,
		       p->mtu + RTE_ETHER_HDR_LEN);
	rc = 0;
	if (p->is_vhost && !p->offloads) {
		rc = rte_vhost_driver_disable_features(p->iface,
						       XC_VIRTIO_OFFLOADS);
		if (rc)
			goto fail;
	}
	for (q = 0; q < p->n_queues && rc == 0; q++) {
		rc = rte_eth_rx_queue_setup(p->id, q, XC_RING_SIZE, socket,
					    NULL, pool);
		if (rc == 0)
			rc = rte_eth_tx_queue_setup(p->id, q, XC_RING_SIZE,
						    socket, NULL);
	}
	if (rc)
		goto fail;
	return 0;
fail:
	snprintf(err, errlen, "%s: cannot configure port: %s", p->label,
		 rte_strerror(rc < 0 ? -rc : rc));
	return rc < 0 ? rc : -rc;
}

/**
 * xc_port_start() - start a configured port and read its first link state
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
	if (!p->is_vhost) {
		/* only the vhost PMD has queues that come and go */
		__atomic_store_n(&p->txq_on, ~0ULL, __ATOMIC_RELEASE);
		__atomic_store_n(&p->rxq_on, ~0ULL, __ATOMIC_RELEASE);
	}
	/* a vhost port's link comes up by event, from the vhost thread,
	 * once its guest is set up: reading it here too raced with that
	 * thread (in client mode the guest can attach during start) and
	 * could record a half-attached guest as taking nothing */
	if (!p->is_vhost)
		update_link(p);
	return 0;
}

/**
 * xc_port_poll_link() - refresh the link state of a port without events,
 *			 and turn away second frontends
 * @p:		port
 */
void xc_port_poll_link(struct xc_port *p)
{
	if (p->trunk)
		p = p->trunk->port;
	if (p->started && !p->lsc)
		update_link(p);
	if (p->started && p->is_vhost && !p->client)
		xc_guard_poll(&p->guard, p->label);
}

/**
 * xc_port_features() - the virtio features a vhost port's guest negotiated
 * @p:		port
 *
 * Return: the features, 0 if none or no guest is attached
 */
uint64_t xc_port_features(struct xc_port *p)
{
	uint64_t features = 0;
	int vid;

	if (!p->is_vhost || !xc_port_vhost_enter(p))
		return 0;
	vid = rte_eth_vhost_get_vid_from_port_id(p->id);
	if (vid < 0 || rte_vhost_get_negotiated_features(vid, &features))
		features = 0;
	xc_port_vhost_exit(p);
	return features;
}

/**
 * xc_port_set_down() - take a port's link down before it is unplugged:
 *			lcores stop using it, vhost calls on it end
 * @p:		port
 */
void xc_port_set_down(struct xc_port *p)
{
	__atomic_store_n(&p->link_up, 0, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&p->vh_busy, __ATOMIC_ACQUIRE))
		rte_pause();
	__atomic_store_n(&p->caps, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&p->txq_on, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&p->rxq_on, 0, __ATOMIC_RELEASE);
	p->was_up = false;
}

/**
 * xc_port_close() - stop and close a port; a vhost server socket goes away
 * @p:		port
 */
void xc_port_close(struct xc_port *p)
{
	if (p->is_vhost && !p->client)
		xc_guard_close(&p->guard, p->label);
	if (p->started)
		rte_eth_dev_stop(p->id);
	p->started = false;
	rte_eth_dev_callback_unregister(p->id, RTE_ETH_EVENT_INTR_LSC,
					port_event, p);
	if (p->is_vhost)
		rte_eth_dev_callback_unregister(p->id,
						RTE_ETH_EVENT_QUEUE_STATE,
						port_event, p);
	rte_eth_dev_close(p->id);
	p->configured = false;
	if (p->kfd >= 0)
		close(p->kfd);
	p->kfd = -1;
}
