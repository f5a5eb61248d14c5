/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * end_socket.c - the socket kind of cable end: a VM's vhost-user socket,
 *		  served by a vhost port of its own (left = PATH; with
 *		  left-client = yes, xcable connects to QEMU's socket)
 *
 * At start-up the EAL probed the end's vhost port from the arguments the
 * simple and config modes built (simple.c); an end made at runtime probes
 * its own (rte_dev_probe(), net_vhostN with a number no device has). The
 * end is the whole port (end.c's port ops). Freeing it unplugs the port:
 * the guest sees its carrier go and a server's socket is removed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>

#include "endkind.h"
#include "log.h"
#include "sockpath.h"
#include "topology.h"

/**
 * socket_check() - can a socket end be made now: its owner and group
 *		    exist, and its path is free (a stale socket is removed),
 *		    unless a cable being removed holds it
 * @t:		topology (unused: the path is all that matters)
 * @e:		the end
 * @freed:	a cable that goes holds the path
 * @why:	the reason it cannot
 * @whylen:	size of @why
 *
 * Return: 0, or -errno
 */
static int socket_check(struct xc_topo *t, const struct xc_end_def *e,
			bool freed, char *why, size_t whylen)
{
	int uid, gid;

	(void)t;
	if (!freed)	/* as at start-up */
		return xc_kind_def_socket.ready(e, why, whylen);
	return xc_sock_ids(e->sock_owner, e->sock_group, &uid, &gid, why,
			   whylen) ? -EINVAL : 0;
}

/**
 * serving() - the port that serves a socket, if there is one (the EAL's,
 *	       at start-up)
 * @t:		topology
 * @path:	the socket
 *
 * Return: the port, or NULL
 */
static struct xc_port *serving(struct xc_topo *t, const char *path)
{
	uint16_t k;

	for (k = 0; k < t->n_ports; k++) {
		const char *s = t->ports[k].ops ?
				xc_port_socket(&t->ports[k]) : NULL;

		if (s != NULL && strcmp(s, path) == 0)
			return &t->ports[k];
	}
	return NULL;
}

/**
 * held() - is a port an end of a cable (a running one, one that goes, or
 *	    one whose end is being made anew: parked)? Not a port of the
 *	    EAL's before the cables were made, nor one a change kept aside
 *	    for its guest (xc_reconf_change_end()'s spare)
 * @t:		topology
 * @p:		the port
 *
 * Return: true if so
 */
static bool held(const struct xc_topo *t, const struct xc_port *p)
{
	/* parked: its end's old form, while the change is made */
	return p->parked || xc_topo_port_held(t, p);
}

/**
 * known() - is a live port's socket known by @path where it was bound?
 *	     (a port that took over another's path keeps the name it was
 *	     bound at; the vhost library closes the socket of that name
 *	     when a port made there goes, even one that never bound it)
 * @t:		topology
 * @path:	a name a new port would be made at
 *
 * Return: true if so
 */
static bool known(const struct xc_topo *t, const char *path)
{
	uint16_t k;

	for (k = 0; k < t->n_ports; k++) {
		const struct xc_port *p = &t->ports[k];

		if (p->ops && p->ops->move && p->ops->move->bound &&
		    strcmp(p->ops->move->bound(p), path) == 0)
			return true;
	}
	return false;
}

/**
 * hidden_name() - a hidden name beside a socket path that no live port's
 *		   socket is known by: the first of two names a sockid.c
 *		   function gives
 * @t:		topology
 * @name:	xc_sock_next() or xc_sock_standby()
 * @path:	the socket path
 * @out:	filled with the name
 * @len:	size of @out
 *
 * Return: 0, -ENAMETOOLONG, or -EBUSY (both are known)
 */
static int hidden_name(const struct xc_topo *t,
		       int (*name)(const char *, bool, char *, size_t),
		       const char *path, char *out, size_t len)
{
	int alt, rc;

	for (alt = 0; alt < 2; alt++) {
		rc = name(path, alt, out, len);
		if (rc || !known(t, out))
			return rc;
	}
	return -EBUSY;
}

/**
 * probe() - a vhost port for a socket end made at runtime, but not at a
 *	     name a live port's socket is known by (known())
 * @t:		topology, running
 * @e:		the end
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: the port, or NULL
 */
static struct xc_port *probe(struct xc_topo *t, const struct xc_end_def *e,
			     char *err, size_t errlen)
{
	char devargs[XC_DEVARGS_LEN], name[RTE_ETH_NAME_MAX_LEN];
	char why[XC_ERR_LEN];
	struct xc_port *p;
	uint16_t id;

	if (known(t, e->path)) {	/* a hidden name of another's socket */
		snprintf(err, errlen, "%s: a socket this xcable serves is known by that name (it was bound there before it took over another path)",
			 e->path);
		return NULL;
	}
	/* a name no device has: those of the start are net_vhost0... */
	do {
		xc_kind_def_socket.vdev(e, t->next_vdev++, devargs,
					sizeof(devargs));
		snprintf(name, sizeof(name), "%.*s",
			 (int)strcspn(devargs, ","), devargs);
	} while (rte_eth_dev_get_port_by_name(name, &id) == 0);
	p = xc_topo_new_port(t, devargs, name, why, sizeof(why));
	if (p == NULL)
		snprintf(err, errlen, "%s: %.*s", e->path, XC_ERR_LEN / 2, why);
	return p;
}

/**
 * socket_make() - make a socket end: the vhost port serving its socket,
 *		   with the end's own socket settings
 * @t:		topology
 * @c:		cable
 * @j:		which end
 * @e:		the end's definition
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL (its owner or group went), or -errno of the probe
 */
static int socket_make(struct xc_topo *t, struct xc_cable *c, unsigned int j,
		       const struct xc_end_def *e, char *err, size_t errlen)
{
	struct xc_port *p = serving(t, e->path);
	struct xc_end_def next = *e;
	char why[XC_ERR_LEN];
	bool beside = false;
	int uid, gid;

	if (xc_sock_ids(e->sock_owner, e->sock_group, &uid, &gid, why,
			sizeof(why))) {
		snprintf(err, errlen, "cable %s: %s", c->name, why);
		return -EINVAL;
	}
	/* the end of a cable that goes serves it (reconf.c asked
	 * socket_beside()): bound beside it until it is gone */
	if (p != NULL && held(t, p)) {
		if (e->client ||
		    hidden_name(t, xc_sock_next, e->path, next.path,
				sizeof(next.path))) {
			snprintf(err, errlen, "cable %s: %s is served by cable %s",
				 c->name, e->path, p->cable);
			return -EBUSY;
		}
		p = NULL;
		beside = true;
	}
	if (p == NULL && (p = probe(t, &next, why, sizeof(why))) == NULL) {
		snprintf(err, errlen, "cable %s: %s", c->name, why);
		return -EIO;
	}
	xc_kind_set_port(c, j, p, j ? "right" : "left");
	p->conf.standby = beside;	/* unguarded until it settles */
	p->conf.sock_mode = e->sock_mode;
	p->conf.sock_gid = gid;
	p->conf.sock_uid = uid;
	p->conf.offloads = e->offloads;
	p->conf.n_queues = (uint16_t)e->queues;
	return 0;
}

/**
 * socket_free() - free a socket end: its port is unplugged (the guest
 *		   sees the carrier go, a served socket is removed) and its
 *		   slot emptied
 * @t:		topology
 * @e:		the end
 */
static void socket_free(struct xc_topo *t, struct xc_end *e)
{
	xc_topo_free_port(t, e->port, !e->cable->pulled[e->idx]);
	e->port = NULL;
}

/**
 * socket_standby() - end kind op: a standby port for the guest of a
 *		      socket end, for its next frontend while it moves to
 *		      another QEMU: a vhost port as the end's, but on @sock
 *		      (for an end that connects to QEMU: the destination's
 *		      socket, which it must name), or, by default, bound at
 *		      the standby name beside the end's socket
 * @t:		topology
 * @e:		the end
 * @def:	the end's definition
 * @sock:	the destination's socket, or NULL
 * @out:	set to the port
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -errno with nothing left behind
 */
static int socket_standby(struct xc_topo *t, struct xc_end *e,
			  const struct xc_end_def *def, const char *sock,
			  struct xc_port **out, char *err, size_t errlen)
{
	struct xc_end_def d = *def;
	char why[XC_ERR_LEN];
	struct xc_port *p;
	int rc = 0;

	if (sock == NULL && d.client) {
		snprintf(err, errlen, "%s connects to QEMU's socket: name the destination's (--socket PATH)",
			 e->label);
		return -EINVAL;
	}
	if (sock ? (size_t)snprintf(d.path, sizeof(d.path), "%s", sock) >=
		   sizeof(d.path) :
		   (rc = hidden_name(t, xc_sock_standby, def->path, d.path,
				     sizeof(d.path))) != 0) {
		snprintf(err, errlen, "%s: the standby's socket path is %s",
			 e->label, rc == -EBUSY ?
			 "taken by two earlier moves' sockets" : "too long");
		return sock || rc != -EBUSY ? -ENAMETOOLONG : -EBUSY;
	}
	rc = xc_sock_path_fits(d.path, d.client, why, sizeof(why));
	if (rc == 0)
		rc = xc_sock_prepare(d.path, d.client, why, sizeof(why));
	if (rc == 0 && (p = probe(t, &d, why, sizeof(why))) == NULL)
		rc = -EIO;
	if (rc) {
		snprintf(err, errlen, "%s: standby: %.200s", e->label, why);
		return rc;
	}
	snprintf(p->label, sizeof(p->label), "%s", e->label);
	p->conf = e->port->conf;
	p->conf.standby = true;
	p->conf.sock_checked = true;
	rc = xc_kind_start_port_on(t, p, e->cable->pool, err, errlen);
	if (rc) {
		xc_topo_free_port(t, p, true);
		return rc;
	}
	*out = p;
	return 0;
}

/**
 * socket_beside() - end kind op: can the socket end be made while a cable
 *		     that goes still serves its socket? A socket it serves
 *		     can (bound at .NAME.next, it takes the path in
 *		     socket_settle()); QEMU's socket, which it connects to,
 *		     cannot be connected to twice
 * @e:		the end's definition
 *
 * Return: true if so
 */
static bool socket_beside(const struct xc_end_def *e)
{
	char next[XC_SOCK_PATH_MAX];

	return !e->client && xc_sock_next(e->path, false, next, sizeof(next)) == 0;
}

/**
 * socket_settle() - end kind op: the cable that served the socket is gone
 *		     (its socket removed): the end made beside it takes the
 *		     path, where its guest connects again, and is guarded
 *		     there (the vhost port's move op adopt())
 * @t:		topology
 * @e:		the end
 * @def:	its definition
 */
static void socket_settle(struct xc_topo *t, struct xc_end *e,
			  const struct xc_end_def *def)
{
	struct xc_port *o = serving(t, def->path);

	if (e->port == NULL || !e->port->conf.standby)
		return;	/* made on its path */
	if (o != NULL) {	/* an lcore did not let go of that cable */
		XC_LOG(port, ERR, "%s: %s: %s is still served by cable %s: this end stays at %s",
		       e->cable->name, e->label, def->path, o->cable,
		       xc_port_socket(e->port));
		return;
	}
	e->port->ops->move->adopt(e->port, def->path);	/* logs a failure */
	if (strcmp(xc_port_socket(e->port), def->path) == 0)
		XC_LOG(port, INFO, "%s: %s: serves %s in place of the cable it replaced",
		       e->cable->name, e->label, def->path);
}

const struct xc_end_kind xc_kind_socket = {
	.def = &xc_kind_def_socket,
	.check = socket_check,
	.make = socket_make,
	.start = xc_kind_start_port,
	.free = socket_free,
	.standby = socket_standby,
	.beside = socket_beside,
	.settle = socket_settle,
	.parks = true,
};
