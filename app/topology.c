/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topology.c - which ports make which cables, and bringing them up and
 *		down as a whole
 *
 * Every ethdev the EAL probed becomes a port (port.c picks its kind).
 * Cables then come from the definitions of the simple mode or the config
 * file (a socket end is the vhost port serving that socket; a [port NAME]
 * end is that port, or, with a tag, a member of the trunk it becomes; a
 * tunnel end is a tunnel on the one VXLAN socket, and has no port), or
 * in the DPDK mode from --cable A:B or the port order. Errors in what the
 * user wrote are -EINVAL with a message; the caller exits 2 for them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "fwd.h"
#include "log.h"
#include "simple.h"
#include "topology.h"

#define XC_POOL_MBUFS		8191	/* most mbufs of a cable, per queue */
#define XC_POOL_FIRST		256	/* to start with (pool.c grows it) */
#define XC_IPOOL_FIRST		1024	/* one burst's worth of segments */

/**
 * create_ports() - a port for every ethdev, with the global socket
 *		    settings
 * @t:		topology
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL (no ports), or what xc_port_create() returns
 */
static int create_ports(struct xc_topo *t, char *err, size_t errlen)
{
	uint16_t id;
	int rc;

	t->n_ports = rte_eth_dev_count_avail();
	if (t->n_ports == 0 && t->n_defs == 0) {
		snprintf(err, errlen, "no ports: add them with --vdev net_vhost0,iface=PATH (or use --left/--right)");
		return -EINVAL;
	}
	/* every slot a port can take, with room for cables added later */
	t->ports = calloc(RTE_MAX_ETHPORTS, sizeof(*t->ports));
	if (t->ports == NULL) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	t->guard_set = epoll_create1(EPOLL_CLOEXEC);	/* -1: polled */
	RTE_ETH_FOREACH_DEV(id) {
		struct xc_port *p;

		if (id >= t->n_ports) {
			snprintf(err, errlen, "port ids are not contiguous");
			return -EINVAL;
		}
		p = &t->ports[id];
		rc = xc_port_create(p, id, err, errlen);
		if (rc)
			return rc;
		p->guard_set = t->guard_set;
		p->conf.sock_mode = t->opts->sock_mode;
		p->conf.sock_gid = t->sock_gid;
		p->conf.sock_uid = t->sock_uid;
		p->conf.offloads = t->opts->offloads;
		/* the simple and config modes checked their sockets before
		 * the EAL started */
		p->conf.sock_checked = t->n_defs > 0;
	}
	return 0;
}

/**
 * set_end() - make an end of a cable a whole port
 * @c:		cable
 * @j:		which end
 * @p:		the port
 * @label:	the end's name
 */
static void set_end(struct xc_cable *c, unsigned int j, struct xc_port *p,
		    const char *label)
{
	struct xc_end *e = &c->end[j];

	e->ops = &xc_end_port_ops;
	e->port = p;
	e->cable = c;
	e->idx = (int)j;
	snprintf(e->label, sizeof(e->label), "%s", label);
	snprintf(p->label, sizeof(p->label), "%s", label);
}

/**
 * port_end() - the cable end a [port NAME] gives: the port itself, or, for
 *		a tagged end, a member of the trunk that port becomes
 * @t:		topology with ports created
 * @c:		cable
 * @j:		which end
 * @e:		the end's definition
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL, or -ENOMEM
 */
static int port_end(struct xc_topo *t, struct xc_cable *c, unsigned int j,
		    const struct xc_end_def *e, char *err, size_t errlen)
{
	const struct xc_port_def *pd = &t->opts->port_defs[e->port];
	char name[RTE_ETH_NAME_MAX_LEN];
	struct xc_trunk *tr;
	struct xc_port *p;
	uint16_t id;
	int rc;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(pd->devargs, ","),
		 pd->devargs);
	if (rte_eth_dev_get_port_by_name(name, &id) != 0 || id >= t->n_ports) {
		char why[XC_ERR_LEN / 2];

		if (xc_port_kernel_absent(pd->devargs, why, sizeof(why)))
			snprintf(err, errlen, "port %s: %s", pd->name, why);
		else if (strncmp(name, "net_", 4) == 0)
			snprintf(err, errlen, "port %s: no device %s: it was not created (the reason, its driver's or the EAL's, is logged above)",
				 pd->name, name);
		else
			snprintf(err, errlen, "port %s: no device %s (write PCI addresses in full, e.g. 0000:03:00.0)",
				 pd->name, name);
		return -EINVAL;
	}
	p = &t->ports[id];
	if (xc_port_vhost_socket(p) != NULL) {
		snprintf(err, errlen,
			 "port %s: a vhost port is declared by its socket",
			 pd->name);
		return -EINVAL;
	}
	p->conf.mtu = pd->mtu;
	if (e->tag == 0) {
		set_end(c, j, p, j ? "right" : "left");
		return 0;
	}
	snprintf(p->label, sizeof(p->label), "%s", pd->name);
	tr = t->trunk_of[id];
	if (tr == NULL) {
		tr = calloc(1, sizeof(*tr));
		if (tr == NULL) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		tr->port = p;
		tr->tpid = pd->tpid;
		p->conf.strip_vlan = true;
		t->trunk_of[id] = tr;
	}
	c->end[j].cable = c;
	c->end[j].idx = (int)j;
	snprintf(c->end[j].label, sizeof(c->end[j].label), "%s",
		 j ? "right" : "left");
	rc = xc_trunk_add(tr, &c->end[j], e->tag);
	if (rc)
		snprintf(err, errlen, "cable %s: port %s, tag %u: %s", c->name,
			 pd->name, e->tag, rc == -ENOSPC ?
			 "too many cables on one trunk (64)" : "tag used twice");
	return rc ? -EINVAL : 0;
}

/**
 * socket_end() - the cable end a socket gives: the vhost port serving it,
 *		  with the end's own socket settings
 * @t:		topology with ports created
 * @i:		cable index
 * @j:		which end
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -EINVAL if no port serves the socket
 */
static int socket_end(struct xc_topo *t, unsigned int i, unsigned int j,
		      char *err, size_t errlen)
{
	const struct xc_end_def *e = &t->defs[i].end[j];
	struct xc_cable *c = &t->cables[i];
	struct xc_port *p = NULL;
	uint16_t k;

	for (k = 0; k < t->n_ports && p == NULL; k++) {
		const char *s = t->ports[k].ops ?
				xc_port_vhost_socket(&t->ports[k]) : NULL;

		if (s != NULL && strcmp(s, e->path) == 0)
			p = &t->ports[k];
	}
	if (p == NULL) {
		snprintf(err, errlen, "cable %s: no port serves %s", c->name,
			 e->path);
		return -EINVAL;
	}
	set_end(c, j, p, j ? "right" : "left");
	p->conf.sock_mode = e->sock_mode;
	p->conf.sock_gid = t->end_gid[i][j];
	p->conf.sock_uid = t->end_uid[i][j];
	p->conf.offloads = e->offloads;
	p->conf.n_queues = (uint16_t)e->queues;
	return 0;
}

/**
 * vxlan_end() - the cable end a tunnel gives: a tunnel on the one VXLAN
 *		 socket, opened with the first
 * @t:		topology
 * @c:		cable
 * @j:		which end
 * @e:		the end's definition
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL (bad tunnel, or the socket cannot be opened: a
 *	   setup error), or -ENOMEM
 */
static int vxlan_end(struct xc_topo *t, struct xc_cable *c, unsigned int j,
		     const struct xc_end_def *e, char *err, size_t errlen)
{
	const struct xc_opts *o = t->opts;
	char why[XC_ERR_LEN];
	int rc;

	if (t->vxlan == NULL) {
		rc = xc_vxlan_open(&t->vxlan, o->vxlan_local,
				   (uint16_t)o->vxlan_port, o->vxlan_df, why,
				   sizeof(why));
		if (rc) {
			snprintf(err, errlen, "%s", why);
			return rc == -ENOMEM ? rc : -EINVAL;
		}
	}
	c->end[j].cable = c;
	c->end[j].idx = (int)j;
	snprintf(c->end[j].label, sizeof(c->end[j].label), "%s",
		 j ? "right" : "left");
	rc = xc_vxlan_add(t->vxlan, &c->end[j], e->vxlan,
			  (uint16_t)o->vxlan_port, e->vni, why, sizeof(why));
	if (rc)
		snprintf(err, errlen, "cable %s: %s", c->name, why);
	return rc;
}

/**
 * build_from_defs() - cables of the simple mode or the config file
 * @t:		topology with ports created
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 or -errno
 */
static int build_from_defs(struct xc_topo *t, char *err, size_t errlen)
{
	unsigned int i, j;
	int rc;

	t->n_cables = t->n_defs;
	for (i = 0; i < t->n_defs; i++) {
		struct xc_cable *c = &t->cables[i];
		int l = t->defs[i].lcore;

		RTE_BUILD_BUG_ON(sizeof(c->name) < XC_NAME_MAX);
		memcpy(c->name, t->defs[i].name, XC_NAME_MAX);
		if (l >= 0 && (l >= RTE_MAX_LCORE ||
			       !rte_lcore_is_enabled((unsigned int)l))) {
			snprintf(err, errlen,
				 "cable %s: lcore %d is not enabled (EAL -l)",
				 c->name, l);
			return -EINVAL;
		}
		for (j = 0; j < 2; j++) {
			const struct xc_end_def *e = &t->defs[i].end[j];

			if (xc_end_def_vxlan(e))
				rc = vxlan_end(t, c, j, e, err, errlen);
			else if (e->port >= 0)
				rc = port_end(t, c, j, e, err, errlen);
			else
				rc = socket_end(t, i, j, err, errlen);
			if (rc)
				return rc;
		}
		c->n_queues = t->defs[i].end[0].queues;
	}
	return 0;
}

/**
 * pair_ports() - the DPDK mode: pair ports into cables, from --cable or in
 *		  order
 * @t:		topology with ports created
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 or -EINVAL
 */
static int pair_ports(struct xc_topo *t, char *err, size_t errlen)
{
	const struct xc_opts *o = t->opts;
	bool used[RTE_MAX_ETHPORTS] = { false };
	unsigned int i, j;

	if (o->n_cables == 0 && t->n_ports % 2) {
		snprintf(err, errlen, "%u ports cannot be paired: give an even number of ports, or name the pairs with --cable A:B",
			 t->n_ports);
		return -EINVAL;
	}
	if (o->n_cables == 0 && t->n_ports / 2 > XC_MAX_CABLES) {
		snprintf(err, errlen, "%u ports make more than %d cables",
			 t->n_ports, XC_MAX_CABLES);
		return -EINVAL;
	}
	t->n_cables = o->n_cables ? o->n_cables : t->n_ports / 2u;
	for (i = 0; i < t->n_cables; i++) {
		struct xc_cable *c = &t->cables[i];
		uint16_t p[2] = { (uint16_t)(2 * i), (uint16_t)(2 * i + 1) };

		if (o->n_cables) {
			p[0] = o->cables[i].port[0];
			p[1] = o->cables[i].port[1];
		}
		snprintf(c->name, sizeof(c->name), "cable%u", i);
		for (j = 0; j < 2; j++) {
			if (p[j] >= t->n_ports) {
				snprintf(err, errlen, "--cable %u:%u: there is no port %u (ports are 0 to %d)",
					 p[0], p[1], p[j], t->n_ports - 1);
				return -EINVAL;
			}
			if (used[p[j]]) {
				snprintf(err, errlen,
					 "port %u is an end of two cables",
					 p[j]);
				return -EINVAL;
			}
			used[p[j]] = true;
			set_end(c, j, &t->ports[p[j]], t->ports[p[j]].name);
		}
		c->n_queues = RTE_MIN(t->ports[p[0]].conf.n_queues,
				      t->ports[p[1]].conf.n_queues);
		if (t->ports[p[0]].conf.n_queues != t->ports[p[1]].conf.n_queues)
			XC_LOG(main, WARNING,
			       "%s: ports %u and %u have %u and %u queues; %u are used",
			       c->name, p[0], p[1], t->ports[p[0]].conf.n_queues,
			       t->ports[p[1]].conf.n_queues, c->n_queues);
	}
	for (i = 0; i < t->n_ports; i++)
		if (!used[i])
			XC_LOG(main, WARNING,
			       "port %u (%s) is on no cable and stays unused",
			       i, t->ports[i].name);
	return 0;
}

/**
 * xc_topo_build() - create the ports and make cables of them
 * @t:		topology, with its inputs set
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL for an error in what the user wrote, other -errno
 */
int xc_topo_build(struct xc_topo *t, char *err, size_t errlen)
{
	int rc = create_ports(t, err, errlen);

	if (rc)
		return rc;
	return t->n_defs ? build_from_defs(t, err, errlen) :
			   pair_ports(t, err, errlen);
}

/**
 * cable_pools() - a cable's own mbuf pools, so one cable cannot starve
 *		   another; small at first, they grow with its traffic up
 *		   to a cap (pool.c)
 * @t:		topology
 * @i:		cable index
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 or -ENOMEM
 */
static int cable_pools(struct xc_topo *t, unsigned int i, char *err,
		       size_t errlen)
{
	struct xc_cable *c = &t->cables[i];
	int socket = xc_cable_socket(c);
	char name[RTE_MEMPOOL_NAMESIZE];

	snprintf(name, sizeof(name), "xc_pool%u", i);
	if (xc_pool_create(&t->pools[i][0], name, XC_POOL_FIRST * c->n_queues,
			   XC_POOL_MBUFS * c->n_queues,
			   RTE_MBUF_DEFAULT_BUF_SIZE, socket) == 0) {
		snprintf(name, sizeof(name), "xc_ipool%u", i);
		xc_pool_create(&t->pools[i][1], name, XC_IPOOL_FIRST,
			       XC_POOL_MBUFS * c->n_queues, 0, socket);
	}
	c->pool = t->pools[i][0].mp;
	c->pool_want = &t->pools[i][0].want;
	c->ipool = t->pools[i][1].mp;
	if (c->pool == NULL || c->ipool == NULL) {
		snprintf(err, errlen, "%s: cannot create mbuf pool: %s",
			 c->name, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	return 0;
}

/**
 * xc_topo_start() - give every cable its pools and directions, configure
 *		     every port (sockets appear), then start them all
 * @t:		topology, built
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * On error, what was done stays for xc_topo_free() to undo.
 *
 * Return: 0, -EINVAL for an error in what the user wrote, other -errno
 */
int xc_topo_start(struct xc_topo *t, char *err, size_t errlen)
{
	unsigned int i, j;
	int rc;

	for (i = 0; i < t->n_cables; i++) {
		struct xc_cable *c = &t->cables[i];
		const struct xc_impair_cfg *ic = t->n_defs ?
			t->defs[i].impair : t->opts->impair;

		rc = cable_pools(t, i, err, errlen);
		if (rc == 0 && xc_cable_dirs_create(c, ic, rte_rdtsc() ^
						    (uint64_t)i << 40)) {
			snprintf(err, errlen, "%s: out of memory", c->name);
			rc = -ENOMEM;
		}
		for (j = 0; j < 2 && rc == 0; j++)
			/* a trunk's port once: its frames go to many cables;
			 * a tunnel has no port */
			if (c->end[j].port && !c->end[j].port->configured)
				rc = xc_port_configure(c->end[j].port, c->pool,
						       err, errlen);
		if (rc)
			return rc;
	}
	for (i = 0; i < t->n_cables; i++)
		for (j = 0; j < 2; j++) {
			struct xc_port *p = t->cables[i].end[j].port;

			if (p && !p->started &&
			    (rc = xc_port_start(p, err, errlen)))
				return rc;
		}
	return 0;
}

/**
 * xc_topo_drain() - at shutdown (lcores stopped): drop held frames and
 *		     what the senders still have queued, counted as shutdown
 * @t:		topology
 */
void xc_topo_drain(struct xc_topo *t)
{
	unsigned int i, j;

	for (i = 0; i < t->n_cables; i++)
		for (j = 0; t->cables[i].dir && j < 2 * t->cables[i].n_queues;
		     j++) {
			/* a slot freed by a cable removed at runtime has none */
			xc_dir_flush(&t->cables[i].dir[j], XC_DROP_SHUTDOWN);
			xc_dir_drain(&t->cables[i].dir[j], 4 * XC_RING_SIZE);
		}
	for (i = 0; i < RTE_MAX_ETHPORTS; i++)
		if (t->trunk_of[i])
			xc_trunk_flush(t->trunk_of[i]);
	if (t->vxlan)
		xc_vxlan_flush(t->vxlan);
}

/**
 * xc_topo_free() - close every port and free everything built; safe at
 *		    any point of the start-up
 * @t:		topology (lcores stopped)
 */
void xc_topo_free(struct xc_topo *t)
{
	unsigned int i;

	for (i = 0; t->ports && i < t->n_ports; i++)
		xc_port_free(&t->ports[i]);
	for (i = 0; i < t->n_cables; i++) {
		xc_cable_dirs_free(&t->cables[i]);
		xc_pool_free(&t->pools[i][0]);
		xc_pool_free(&t->pools[i][1]);
		t->cables[i].pool = t->cables[i].ipool = NULL;
	}
	for (i = 0; i < RTE_MAX_ETHPORTS; i++) {
		free(t->trunk_of[i]);
		t->trunk_of[i] = NULL;
	}
	xc_vxlan_close(t->vxlan);
	t->vxlan = NULL;
	free(t->ports);
	t->ports = NULL;
	t->n_ports = 0;
	if (t->guard_set >= 0)
		close(t->guard_set);
	t->guard_set = -1;
}

/**
 * new_port() - probe a vhost port for a socket end of a cable added at
 *		runtime, and describe it in a free port slot
 * @t:		topology, running
 * @e:		the end
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, -ENOSPC (no port left), or -errno
 */
static int new_port(struct xc_topo *t, const struct xc_end_def *e,
		    char *err, size_t errlen)
{
	char devargs[XC_DEVARGS_LEN], name[RTE_ETH_NAME_MAX_LEN];
	uint16_t id, k;
	int rc;

	for (k = 0; k < RTE_MAX_ETHPORTS && t->ports[k].ops; k++)
		;
	if (k == RTE_MAX_ETHPORTS || rte_eth_dev_count_avail() >=
				     RTE_MAX_ETHPORTS) {
		snprintf(err, errlen, "no DPDK port left: this DPDK gives one process at most %d (RTE_MAX_ETHPORTS), one per socket end",
			 RTE_MAX_ETHPORTS);
		return -ENOSPC;
	}
	/* a name no device has: those of the start are net_vhost0... */
	do {
		xc_simple_vdev(devargs, sizeof(devargs), t->next_vdev++, e);
		snprintf(name, sizeof(name), "%.*s",
			 (int)strcspn(devargs, ","), devargs);
	} while (rte_eth_dev_get_port_by_name(name, &id) == 0);
	rc = rte_dev_probe(devargs);
	if (rc == 0)
		rc = rte_eth_dev_get_port_by_name(name, &id);
	if (rc) {
		snprintf(err, errlen, "%s: cannot create port %s: %s",
			 e->path, name, rte_strerror(-rc));
		return rc;
	}
	rc = xc_port_create(&t->ports[k], id, err, errlen);
	t->ports[k].guard_set = t->guard_set;
	t->ports[k].conf.sock_checked = true;	/* by the caller */
	if (k >= t->n_ports)
		t->n_ports = (uint16_t)(k + 1);
	if (rc)	/* xc_topo_del_cable() removes it */
		return rc;
	return 0;
}

/**
 * xc_topo_add_cable() - bring up a cable of two socket ends at runtime, in
 *			 a free slot whose definition is written: its ports
 *			 (the sockets appear), pools and directions; the
 *			 caller then gives it to an lcore
 * @t:		topology, running
 * @i:		the slot; t->defs[i] and the end owners are set
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * On error, xc_topo_del_cable() undoes what was done.
 *
 * Return: 0, -EINVAL (a port end), -ENOSPC, or -errno
 */
int xc_topo_add_cable(struct xc_topo *t, unsigned int i, char *err,
		      size_t errlen)
{
	struct xc_cable *c = &t->cables[i];
	unsigned int j;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	memcpy(c->name, t->defs[i].name, XC_NAME_MAX);
	if (i >= t->n_cables)
		t->n_cables = i + 1;
	for (j = 0; j < 2 && rc == 0; j++) {
		if (t->defs[i].end[j].port >= 0) {
			snprintf(err, errlen, "%s: only cables between two sockets can be added at runtime",
				 c->name);
			return -EINVAL;
		}
		rc = new_port(t, &t->defs[i].end[j], err, errlen);
		if (rc == 0)
			rc = socket_end(t, i, j, err, errlen);
	}
	if (rc)
		return rc;
	c->n_queues = t->defs[i].end[0].queues;
	rc = cable_pools(t, i, err, errlen);
	if (rc == 0 && xc_cable_dirs_create(c, t->defs[i].impair, rte_rdtsc() ^
					    (uint64_t)i << 40)) {
		snprintf(err, errlen, "%s: out of memory", c->name);
		rc = -ENOMEM;
	}
	for (j = 0; j < 2 && rc == 0; j++)
		rc = xc_port_configure(c->end[j].port, c->pool, err, errlen);
	for (j = 0; j < 2 && rc == 0; j++)
		rc = xc_port_start(c->end[j].port, err, errlen);
	return rc;
}

/**
 * xc_topo_del_cable() - take a cable of two socket ends away at runtime,
 *			 once no lcore has its directions: its ports are
 *			 unplugged (the guests see the carrier go, the sockets
 *			 are removed), what it holds is dropped, its memory
 *			 freed, its slot emptied
 * @t:		topology, running
 * @i:		the slot
 */
void xc_topo_del_cable(struct xc_topo *t, unsigned int i)
{
	struct xc_cable *c = &t->cables[i];
	unsigned int j;

	for (j = 0; j < 2; j++) {
		struct xc_port *p = c->end[j].port;

		if (p == NULL || p->ops == NULL)
			continue;
		if (!c->pulled[j] && p->configured)
			xc_port_unplug(p);
		xc_port_free(p);
		memset(p, 0, sizeof(*p));	/* a free slot */
	}
	for (j = 0; c->dir && j < 2 * c->n_queues; j++)
		xc_dir_flush(&c->dir[j], XC_DROP_SHUTDOWN);
	xc_cable_dirs_free(c);
	xc_pool_free(&t->pools[i][0]);
	xc_pool_free(&t->pools[i][1]);
	memset(c, 0, sizeof(*c));
}

/**
 * holds_frames() - does a cable hold frames on purpose: a delay or rate
 *		    impairment on one of its directions, as last published?
 * @c:		cable (its directions may be NULL: a free slot)
 *
 * Return: true if so
 */
static bool holds_frames(const struct xc_cable *c)
{
	struct xc_impair_cfg ic;
	unsigned int j;

	for (j = 0; c->dir && j < 2 * c->n_queues; j++) {
		xc_impair_get(&c->dir[j].im, &ic);
		if (ic.delay_us || ic.rate_bps)
			return true;
	}
	return false;
}

/**
 * xc_topo_grow() - grow the pools of the cables that are running short,
 *		    and shrink those of cables idle for a while (main
 *		    thread, housekeeping)
 * @t:		topology
 *
 * Return: true if a pool has mbufs in use (traffic: it may run short
 *	   soon)
 */
bool xc_topo_grow(struct xc_topo *t)
{
	bool busy = false;
	unsigned int i, j;

	for (i = 0; i < t->n_cables; i++) {
		bool hold = holds_frames(&t->cables[i]);

		for (j = 0; j < 2; j++) {
			struct xc_pool *p = &t->pools[i][j];
			uint32_t want = __atomic_exchange_n(&p->want, 0,
							    __ATOMIC_RELAXED);
			unsigned int n;
			bool more;

			/* a cable that holds frames grows to its cap at once;
			 * one whose guest could not send a whole burst, to
			 * what that burst needs */
			do {
				n = p->n;
				more = hold || (p->mp != NULL && want &&
						rte_mempool_avail_count(p->mp) < want);
				xc_pool_grow(p, more);
			} while (more && p->n > n);
			xc_pool_shrink(p, hold);
			busy |= xc_pool_in_use(p);
		}
	}
	return busy;
}
