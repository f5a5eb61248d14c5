/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * end.c - cable ends that are a whole port: frames go to and come from
 *	   the port's own queues; and what the kinds whose ends are ports
 *	   share (endkind.h)
 */
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>

#include "cable.h"
#include "topology.h"

/* port_rx() - receive a burst from queue @q of the end's port */
static uint16_t port_rx(struct xc_end *e, uint16_t q, struct rte_mbuf **pkts,
			uint16_t n)
{
	return rte_eth_rx_burst(e->port->id, q, pkts, n);
}

/* port_tx() - offer a burst to queue @q of the end's port */
static uint16_t port_tx(struct xc_end *e, uint16_t q, struct rte_mbuf **pkts,
			uint16_t n, uint64_t *drop)
{
	(void)drop;	/* the port sends what it takes */
	return xc_port_tx(e->port, q, pkts, n);
}

/* port_caps() - what the end's port takes now */
static uint64_t port_caps(const struct xc_end *e)
{
	return __atomic_load_n(&e->port->caps, __ATOMIC_ACQUIRE);
}

/**
 * xc_end_describe() - report what people want to know of an end: its
 *		       port's facts, or those its kind gives
 * @e:		end
 * @fn:		called once per fact
 * @arg:	its argument
 */
void xc_end_describe(const struct xc_end *e, xc_kv_fn fn, void *arg)
{
	if (e->ops->describe)
		e->ops->describe(e, fn, arg);
	else
		xc_port_describe(e->port, fn, arg);
}

/**
 * xc_cable_numa() - the NUMA socket a cable's memory belongs on: its
 *		       first port's
 * @c:		cable
 *
 * Return: the socket, 0 if unknown or the cable has no port
 */
int xc_cable_numa(const struct xc_cable *c)
{
	int j, s;

	for (j = 0; j < 2; j++)
		if (c->end[j].port) {
			s = rte_eth_dev_socket_id(c->end[j].port->id);
			return s < 0 ? 0 : s;
		}
	return 0;
}

/**
 * xc_ends_poll() - let the ends of the shown cables that follow something
 *		    outside xcable look at it (the poll end op; main thread)
 * @cables:	the cable slots
 * @n:		how many
 *
 * Return: true if one of them wants to be polled again soon
 */
bool xc_ends_poll(struct xc_cable *cables, unsigned int n)
{
	bool soon = false;
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		if (!xc_cable_shown(&cables[i]))
			continue;
		for (j = 0; j < 2; j++)
			if (cables[i].end[j].ops && cables[i].end[j].ops->poll)
				soon |= cables[i].end[j].ops->poll(
						&cables[i].end[j]);
	}
	return soon;
}

const struct xc_end_ops xc_end_whole_ops = {
	.kind = "port",
	.rx = port_rx,
	.tx = port_tx,
	.caps = port_caps,
};

/**
 * xc_kind_set_port() - make an end of a cable a whole port (the ends of
 *			the socket and port kinds, and of the DPDK mode)
 * @c:		cable
 * @j:		which end
 * @p:		the port
 * @label:	the end's name, which the port takes too
 */
void xc_kind_set_port(struct xc_cable *c, unsigned int j, struct xc_port *p,
		      const char *label)
{
	struct xc_end *e = &c->end[j];

	e->ops = &xc_end_whole_ops;
	e->port = p;
	e->cable = c;
	e->idx = (int)j;
	snprintf(e->label, sizeof(e->label), "%s", label);
	snprintf(p->label, sizeof(p->label), "%s", label);
	snprintf(p->cable, sizeof(p->cable), "%s", c->name);
}

/**
 * xc_kind_eal_port() - make an end of the DPDK mode: a whole port the EAL
 *			made from its --vdev or PCI arguments, an end of
 *			the port kind
 * @c:		cable
 * @j:		which end
 * @p:		the port
 */
void xc_kind_eal_port(struct xc_cable *c, unsigned int j, struct xc_port *p)
{
	xc_kind_set_port(c, j, p, p->name);
	c->end[j].kind = &xc_kind_port;
}

/**
 * xc_kind_unused_port() - no end has a port of a [port NAME] any more
 *			   (an untagged end's, or a trunk's last member's):
 *			   stop it; during a change (struct xc_topo's
 *			   changing), only once the change is over and no end
 *			   took it again (xc_kind_tidy_port()), so that its
 *			   link does not go down for an end made on it again
 * @t:		topology
 * @p:		the port, configured
 */
void xc_kind_unused_port(struct xc_topo *t, struct xc_port *p)
{
	if (t->changing)
		p->lingers = true;
	else
		xc_port_stop(p);
}

/**
 * xc_kind_tidy_port() - a change is over: a port it left unused
 *			 (xc_kind_unused_port()) that no end took again is
 *			 stopped
 * @p:		the port
 * @unused:	no end has it now
 */
void xc_kind_tidy_port(struct xc_port *p, bool unused)
{
	if (!p->lingers)
		return;
	p->lingers = false;
	if (unused)
		xc_port_stop(p);
}

/**
 * xc_kind_beside_always() - end kind op beside() of a kind whose ends wait
 *			     beside the one that holds their key in a
 *			     table the kind shares (a trunk's tag, a
 *			     tunnel's VNI and remote), until settle()
 * @e:		the end's definition
 *
 * Return: true
 */
bool xc_kind_beside_always(const struct xc_end_def *e)
{
	(void)e;
	return true;
}

/**
 * xc_kind_start_port() - configure an end's port with its cable's pool
 *			  (a port of its own kind may use its own) and start
 *			  it, unless that was done (a trunk's port, for its
 *			  first member); a port made at runtime is wired to
 *			  the lcores' wake-up
 * @t:		topology
 * @e:		end on a port
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 or -errno
 */
int xc_kind_start_port(struct xc_topo *t, struct xc_end *e, char *err,
		       size_t errlen)
{
	return xc_kind_start_port_on(t, e->port, e->cable->pool, err, errlen);
}

/**
 * xc_kind_start_port_on() - configure a port with a pool and start it, as
 *			     xc_kind_start_port() does an end's (a standby's
 *			     port, which no end has yet)
 * @t:		topology
 * @p:		the port
 * @pool:	mbufs for its Rx queues (a port of its own kind may use its
 *		own)
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 or -errno
 */
int xc_kind_start_port_on(struct xc_topo *t, struct xc_port *p,
			  struct rte_mempool *pool, char *err, size_t errlen)
{
	int rc;

	if (t->notify && p->notify == NULL) {
		p->notify_arg = t->notify_arg;
		__atomic_store_n(&p->notify, t->notify, __ATOMIC_RELEASE);
	}
	if (!p->configured &&
	    (rc = xc_port_configure(p, pool, err, errlen)))
		return rc;
	if (!p->started && (rc = xc_port_start(p, err, errlen)))
		return rc;
	return 0;
}

/**
 * xc_kind_named_port() - the port a [port NAME] end definition names
 * @t:		topology, its ports created
 * @e:		end definition with a port
 * @err:	one-line message on error: why there is no such port
 * @errlen:	size of @err
 *
 * Return: the port, or NULL
 */
struct xc_port *xc_kind_named_port(struct xc_topo *t, const struct xc_end_def *e,
				 char *err, size_t errlen)
{
	const struct xc_port_def *pd = &t->opts->port_defs[e->port];
	char name[RTE_ETH_NAME_MAX_LEN], why[XC_ERR_LEN / 2];
	uint16_t id;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(pd->devargs, ","),
		 pd->devargs);
	if (rte_eth_dev_get_port_by_name(name, &id) == 0 && id < t->n_ports &&
	    t->ports[id].ops) {
		if (t->ports[id].ops->declared == NULL)
			return &t->ports[id];
		snprintf(err, errlen, "port %s: a %s port is declared %s",
			 pd->name, t->ports[id].ops->kind,
			 t->ports[id].ops->declared);
		return NULL;
	}
	if (xc_port_explain_absent(pd->devargs, why, sizeof(why)))
		snprintf(err, errlen, "port %s: %s", pd->name, why);
	else if (strncmp(name, "net_", 4) == 0)
		snprintf(err, errlen, "port %s: no device %s: it was not created (the reason, its driver's or the EAL's, is logged above)",
			 pd->name, name);
	else
		snprintf(err, errlen, "port %s: no device %s (write PCI addresses in full, e.g. 0000:03:00.0)",
			 pd->name, name);
	return NULL;
}
