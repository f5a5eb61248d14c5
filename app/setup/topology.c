/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topology.c - which ports make which cables, and bringing them up and
 *		down as a whole
 *
 * Every ethdev the EAL probed becomes a port (port.c picks its kind).
 * Cables then come from the definitions of the simple mode or the config
 * file, each end made by the kind its definition names (endkind.h: a
 * socket end is the vhost port serving that socket; a [port NAME] end is
 * that port, or, with a tag, a member of the trunk it becomes; a tunnel
 * end is a tunnel on the one VXLAN socket, and has no port), or in the
 * DPDK mode from --cable A:B or the port order. Errors in what the user
 * wrote are -EINVAL with a message; the caller exits 2 for them.
 *
 * A cable's life is the same at start-up and at runtime (reconf.c): its
 * ends made, its pools and directions made and its ends started
 * (xc_topo_start(), xc_topo_add_cable()); shown to the rest of xcable;
 * given to lcores (lcores.c); and the other way round: hidden, its ends
 * stopped (xc_topo_stop_cable()), taken from its lcores, then freed
 * (xc_topo_del_cable()), its last counters kept.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "dir.h"
#include "fault.h"
#include "log.h"
#include "mbstack.h"
#include "pull.h"
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
		snprintf(err, errlen, "no ports: give the EAL the devices to join (--vdev, see --help), or use --left/--right or --config");
		return -EINVAL;
	}
	/* every slot a port can take, with room for cables added later */
	t->ports = calloc(RTE_MAX_ETHPORTS, sizeof(*t->ports));
	if (t->ports == NULL) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	t->wake_set = epoll_create1(EPOLL_CLOEXEC);	/* -1: polled */
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
		p->wake_set = t->wake_set;
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
 * drop_ends() - stop and free some ends of a cable, by their kinds
 * @t:		topology
 * @i:		the slot
 * @mask:	the ends (bit j: end j); those not made yet are skipped
 */
static void drop_ends(struct xc_topo *t, unsigned int i, unsigned int mask)
{
	struct xc_cable *c = &t->cables[i];
	unsigned int j;

	for (j = 0; j < 2; j++) {
		if (!(mask & (1u << j)) || c->end[j].kind == NULL)
			continue;
		if (c->end[j].kind->stop)
			c->end[j].kind->stop(t, &c->end[j]);
		c->end[j].kind->free(t, &c->end[j]);
		memset(&c->end[j], 0, sizeof(c->end[j]));
		c->pulled[j] = false;
		c->pull_why[j] = XC_PULL_NONE;
	}
}

/**
 * make_ends() - make the ends of a cable, each by the kind its definition
 *		 declares; undone on failure. A new cable is named in a
 *		 free slot; a cable whose other ends are kept is not touched
 *		 but for the ends made
 * @t:		topology
 * @i:		the slot: free, or the cable's whose ends in @keep stay
 * @d:		the cable's definition
 * @keep:	ends not made (bit j: end j is the running cable's, kept)
 * @runtime:	a change at runtime (its steps may fail on purpose: fault.c)
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL for an error in the definition, other -errno (a new
 *	   cable's slot is then free again; a kept cable has its kept ends
 *	   alone)
 */
static int make_ends(struct xc_topo *t, unsigned int i,
		     const struct xc_cable_def *d, unsigned int keep,
		     bool runtime, char *err, size_t errlen)
{
	char step[16];
	struct xc_cable *c = &t->cables[i];
	const struct xc_end_kind *k;
	unsigned int j;
	int rc;

	RTE_BUILD_BUG_ON(sizeof(c->name) < XC_NAME_MAX);
	if (keep == 0) {
		memset(c, 0, sizeof(*c));
		memcpy(c->name, d->name, XC_NAME_MAX);
	}
	if (i >= t->n_cables)
		t->n_cables = i + 1;
	for (j = 0; j < 2; j++) {
		if (keep & (1u << j))
			continue;
		memset(&c->end[j], 0, sizeof(c->end[j]));
		c->end[j].cable = c;
		c->end[j].idx = (int)j;
		snprintf(c->end[j].label, sizeof(c->end[j].label), "%s",
			 j ? "right" : "left");
		k = xc_end_kind_of(&d->end[j]);
		rc = k ? k->make(t, c, j, &d->end[j], err, errlen) : -EINVAL;
		if (rc == -EINVAL && k == NULL)
			snprintf(err, errlen, "cable %s: %s end of no known kind",
				 c->name, c->end[j].label);
		if (rc)
			goto fail;
		c->end[j].kind = k;
		snprintf(step, sizeof(step), "end%u made", j);
		if (runtime && xc_fault(step, c->name, err, errlen)) {
			rc = -EIO;
			goto fail;
		}
	}
	c->n_queues = d->end[0].queues;
	return 0;
fail:
	if (keep == 0)
		xc_topo_del_cable(t, i, NULL);
	else
		drop_ends(t, i, ~keep & 3u);
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
	unsigned int i;
	int rc;

	t->n_cables = t->n_defs;
	for (i = 0; i < t->n_defs; i++) {
		int l = t->defs[i].lcore;

		if (l >= 0 && (l >= RTE_MAX_LCORE ||
			       !rte_lcore_is_enabled((unsigned int)l))) {
			snprintf(err, errlen,
				 "cable %s: lcore %d is not enabled (EAL -l)",
				 t->defs[i].name, l);
			return -EINVAL;
		}
		rc = make_ends(t, i, &t->defs[i], 0, false, err, errlen);
		if (rc)
			return rc;
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
			xc_kind_eal_port(c, j, &t->ports[p[j]]);
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
	int socket = xc_cable_numa(c);
	char name[RTE_MEMPOOL_NAMESIZE];
	unsigned int gen = t->pool_gen++;

	snprintf(name, sizeof(name), "xc_pool%u.%u", i, gen);
	if (xc_pool_create(&t->pools[i][0], name, XC_POOL_FIRST * c->n_queues,
			   XC_POOL_MBUFS * c->n_queues,
			   RTE_MBUF_DEFAULT_BUF_SIZE, socket) == 0) {
		snprintf(name, sizeof(name), "xc_ipool%u.%u", i, gen);
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
 * ready_cable() - give a cable whose ends are made its pools and
 *		   directions, then start its ends (a vhost server's socket
 *		   appears: a guest may attach from now on)
 * @t:		topology
 * @i:		cable index
 * @ic:		impairments to start with
 * @cc:		its carrier to start with: ends down, a flap schedule
 *		(pull.c carries it out once the cable is shown)
 * @keep:	ends that run already (bit j: end j), a cable whose other
 *		ends were made again: its pools, which their ports' queues
 *		use, stay; 0 for a new cable
 * @runtime:	a change at runtime (its steps may fail on purpose: fault.c)
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL for an error in what the user wrote, other -errno
 */
static int ready_cable(struct xc_topo *t, unsigned int i,
		       const struct xc_impair_cfg ic[2],
		       const struct xc_carrier_cfg *cc, unsigned int keep,
		       bool runtime, char *err, size_t errlen)
{
	struct xc_cable *c = &t->cables[i];
	char step[16];
	unsigned int j;
	int rc = 0;

	rc = xc_pull_check(c, cc, err, errlen);
	if (rc)
		return rc;
	if (cc->down || cc->flap.down_ms)
		xc_pull_set_carrier(c, cc);
	if (keep == 0)
		rc = cable_pools(t, i, err, errlen);
	if (rc == 0 && xc_cable_dirs_create(c, ic, rte_rdtsc() ^
					    (uint64_t)i << 40)) {
		snprintf(err, errlen, "%s: out of memory", c->name);
		rc = -ENOMEM;
	}
	if (rc == 0 && runtime && xc_fault("pools", c->name, err, errlen))
		rc = -EIO;
	for (j = 0; j < 2 && rc == 0; j++) {
		if (keep & (1u << j))
			continue;
		if (c->end[j].kind->start)
			rc = c->end[j].kind->start(t, &c->end[j], err, errlen);
		snprintf(step, sizeof(step), "end%u started", j);
		if (rc == 0 && runtime && xc_fault(step, c->name, err, errlen))
			rc = -EIO;
	}
	return rc;
}

/**
 * xc_topo_start() - give every cable its pools and directions and start
 *		     its ends (sockets appear), then show them all
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
	unsigned int i;
	int rc;

	for (i = 0; i < t->n_cables; i++) {
		rc = t->n_defs ?
		     ready_cable(t, i, t->defs[i].impair, &t->defs[i].carrier,
				 0, false, err, errlen) :
		     ready_cable(t, i, t->opts->impair, &t->opts->carrier,
				 0, false, err, errlen);
		if (rc)
			return rc;
	}
	for (i = 0; i < t->n_cables; i++)
		xc_topo_show_cable(t, i, true);
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
	xc_kinds_flush(t);
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
	for (i = 0; i < t->n_retired; i++)
		xc_pool_free(&t->retired[i]);
	t->n_retired = 0;
	xc_kinds_fini(t);
	free(t->ports);
	t->ports = NULL;
	t->n_ports = 0;
	if (t->wake_set >= 0)
		close(t->wake_set);
	t->wake_set = -1;
}

/**
 * xc_topo_new_port() - probe a device for an end made at runtime (a
 *			socket end's vhost port) and describe it in a free
 *			port slot, with the settings every port gets
 * @t:		topology, running
 * @devargs:	the device and its arguments
 * @name:	the device's name (the part of @devargs before a comma)
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: the port, or NULL (no port left, the probe failed) with @err
 */
struct xc_port *xc_topo_new_port(struct xc_topo *t, const char *devargs,
				 const char *name, char *err, size_t errlen)
{
	struct xc_port *p;
	uint16_t k;

	for (k = 0; k < RTE_MAX_ETHPORTS && t->ports[k].ops; k++)
		;
	if (k == RTE_MAX_ETHPORTS || rte_eth_dev_count_avail() >=
				     RTE_MAX_ETHPORTS) {
		snprintf(err, errlen, "no DPDK port left: this DPDK gives one process at most %d (RTE_MAX_ETHPORTS), one per socket end",
			 RTE_MAX_ETHPORTS);
		return NULL;
	}
	p = &t->ports[k];
	if (xc_port_probe(p, devargs, name, err, errlen))
		return NULL;
	p->wake_set = t->wake_set;
	p->conf.sock_mode = t->opts->sock_mode;
	p->conf.offloads = t->opts->offloads;
	if (k >= t->n_ports)
		t->n_ports = (uint16_t)(k + 1);
	return p;
}

/**
 * xc_topo_free_port() - remove a port made at runtime (a socket end's,
 *			 or a standby's): unplugged if it is (its peer sees
 *			 the carrier go, a served socket is removed), freed,
 *			 its slot free again
 * @t:		topology
 * @p:		the port (nothing happens to a free slot)
 * @plugged:	it is plugged (else it was unplugged already: pulled)
 */
void xc_topo_free_port(struct xc_topo *t, struct xc_port *p, bool plugged)
{
	(void)t;
	if (p == NULL || p->ops == NULL)
		return;
	/* one probed but not configured yet is removed all the same */
	if (plugged)
		xc_port_unplug(p);
	xc_port_free(p);
	memset(p, 0, sizeof(*p));	/* a free slot */
}

/**
 * xc_topo_port_held() - is a port the port of some cable's end (a running
 *			 cable, or one that goes)?
 * @t:		topology
 * @p:		the port
 *
 * Return: true if so
 */
bool xc_topo_port_held(const struct xc_topo *t, const struct xc_port *p)
{
	unsigned int i, j;

	for (i = 0; i < t->n_cables; i++)
		for (j = 0; j < 2; j++)
			if (t->cables[i].end[j].port == p)
				return true;
	return false;
}

/**
 * xc_topo_add_cable() - bring up a cable at runtime in a free slot: its
 *			 ends made by their kinds, its pools and directions,
 *			 its ends started (sockets appear); not shown yet,
 *			 and no lcore has it (reconf.c does both)
 * @t:		topology, running
 * @i:		the slot, free
 * @d:		the cable's definition, checked
 * @faults:	its steps may fail on purpose (fault.c): not when a cable
 *		is made again as it was, after a change failed
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -errno with the slot free again and nothing left behind
 */
int xc_topo_add_cable(struct xc_topo *t, unsigned int i,
		      const struct xc_cable_def *d, bool faults, char *err,
		      size_t errlen)
{
	int rc = make_ends(t, i, d, 0, faults, err, errlen);

	if (rc)
		return rc;
	rc = ready_cable(t, i, d->impair, &d->carrier, 0, faults, err, errlen);
	if (rc)
		xc_topo_del_cable(t, i, NULL);
	return rc;
}

/**
 * last_counters() - a cable's counters as it goes, to keep
 * @c:		cable, its directions flushed
 * @g:		filled
 */
static void last_counters(const struct xc_cable *c, struct xc_gone *g)
{
	unsigned int j;

	memset(g, 0, sizeof(*g));
	memcpy(g->name, c->name, sizeof(g->name));
	g->when = (uint64_t)time(NULL);
	for (j = 0; c->dir && j < 2; j++) {
		snprintf(g->label[j], sizeof(g->label[j]), "%s",
			 c->dir[j].label);
		xc_cable_stats(c, j, &g->st[j]);
	}
}

/**
 * xc_topo_release_ends() - the first half of changing a cable whose ends
 *			    in @keep stay as they run (their ports, their
 *			    guests' connections, the cable's pools): its
 *			    directions flushed (what they hold counted as
 *			    shutdown), its last counters kept in @g, its
 *			    directions freed, its other ends stopped and
 *			    freed (their guests see the carrier go)
 * @t:		topology
 * @i:		the slot, hidden, no lcore has it
 * @keep:	the ends that stay (bit j: end j)
 * @g:		filled with its last counters, or NULL
 */
void xc_topo_release_ends(struct xc_topo *t, unsigned int i,
			  unsigned int keep, struct xc_gone *g)
{
	struct xc_cable *c = &t->cables[i];
	unsigned int j;

	for (j = 0; c->dir && j < 2 * c->n_queues; j++)
		xc_dir_flush(&c->dir[j], XC_DROP_SHUTDOWN);
	if (g)
		last_counters(c, g);
	drop_ends(t, i, ~keep & 3u);
	xc_cable_dirs_free(c);
}

/**
 * xc_topo_remake_ends() - the second half: the ends not in @keep made
 *			   from @d and started, the cable's directions made
 *			   anew (its counters start from zero); not shown,
 *			   and no lcore has it
 * @t:		topology
 * @i:		the slot, released by xc_topo_release_ends()
 * @d:		the cable's definition, checked; its ends in @keep are
 *		those that run
 * @keep:	the ends that stay (bit j: end j)
 * @faults:	its steps may fail on purpose (fault.c)
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -errno with the cable as xc_topo_release_ends() left it
 */
int xc_topo_remake_ends(struct xc_topo *t, unsigned int i,
			const struct xc_cable_def *d, unsigned int keep,
			bool faults, char *err, size_t errlen)
{
	int rc = make_ends(t, i, d, keep, faults, err, errlen);

	if (rc)
		return rc;
	rc = ready_cable(t, i, d->impair, &d->carrier, keep, faults, err,
			 errlen);
	if (rc)
		xc_topo_release_ends(t, i, keep, NULL);
	return rc;
}

/**
 * xc_topo_show_cable() - show a cable to the rest of xcable, or hide it
 *			  (the caller holds reconf's lock for writing)
 * @t:		topology
 * @i:		the slot
 * @on:		show (true) or hide
 */
void xc_topo_show_cable(struct xc_topo *t, unsigned int i, bool on)
{
	__atomic_store_n(&t->cables[i].shown, on, __ATOMIC_RELEASE);
}

/**
 * xc_topo_stop_cable() - before a cable's lcores let go of it: nothing
 *			  more is sorted to its ends (a trunk member's tag,
 *			  a tunnel's VNI are unknown from now on)
 * @t:		topology
 * @i:		the slot, hidden
 */
void xc_topo_stop_cable(struct xc_topo *t, unsigned int i)
{
	struct xc_cable *c = &t->cables[i];
	unsigned int j;

	for (j = 0; j < 2; j++)
		if (c->end[j].kind && c->end[j].kind->stop)
			c->end[j].kind->stop(t, &c->end[j]);
}

/**
 * retire() - free a pool of a cable that went, or, if some of its mbufs
 *	      are still out (a NIC's transmit ring), keep it until they are
 *	      back (xc_topo_pools())
 * @t:		topology
 * @p:		the pool, emptied of its cable's frames
 */
static void retire(struct xc_topo *t, struct xc_pool *p)
{
	/* the frames of the cable this thread dropped may sit in its own
	 * cache, if it forwards too (mbstack.c): back on the stack first */
	xc_mbstack_sweep(true);
	if (p->mp && xc_pool_in_use(p) && t->n_retired < RTE_DIM(t->retired)) {
		t->retired[t->n_retired++] = *p;
		memset(p, 0, sizeof(*p));
		return;
	}
	if (p->mp && xc_pool_in_use(p))	/* cannot happen: 4 per slot */
		XC_LOG(main, ERR, "%s: mbufs still out, pool kept for good",
		       p->mp->name);
	else
		xc_pool_free(p);
	memset(p, 0, sizeof(*p));
}

/**
 * xc_topo_del_cable() - free a cable once no lcore has its directions
 *			 (or a cable half made): what it holds is dropped and
 *			 counted as shutdown, its last counters kept in @g,
 *			 its ends freed by their kinds (a guest sees the
 *			 carrier go, a socket is removed), its pools freed
 *			 and its slot emptied
 * @t:		topology
 * @i:		the slot, hidden, its ends stopped
 * @g:		filled with its last counters, or NULL
 */
void xc_topo_del_cable(struct xc_topo *t, unsigned int i, struct xc_gone *g)
{
	struct xc_cable *c = &t->cables[i];

	xc_topo_release_ends(t, i, 0, g);
	retire(t, &t->pools[i][0]);
	retire(t, &t->pools[i][1]);
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
 * xc_topo_pools() - grow the pools of the cables that are running short,
 *		    and shrink those of cables idle for a while (main
 *		    thread, housekeeping)
 * @t:		topology
 *
 * Return: true if a pool has mbufs in use (traffic: it may run short
 *	   soon)
 */
bool xc_topo_pools(struct xc_topo *t)
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
	for (i = 0; i < t->n_retired; i++)
		if (!xc_pool_in_use(&t->retired[i])) {
			xc_pool_free(&t->retired[i]);
			t->retired[i--] = t->retired[--t->n_retired];
		}
	return busy || t->n_retired;
}
