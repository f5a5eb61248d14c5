/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * end_vxlan.c - the vxlan kind of cable end: a VXLAN tunnel to a remote
 *		 host (left-vxlan = ADDR[:PORT], left-vni = N), on the one
 *		 UDP socket of every tunnel (vxlan.c sends and sorts)
 *
 * The socket is opened with the first tunnel, at start-up or at runtime,
 * on vxlan-local and vxlan-port of [global]. Tunnels come and go at
 * runtime (see vxlan.h); the socket closes when its last tunnel goes and
 * none of its mbufs is out (else it stays open, and datagrams that come
 * are counted as of an unknown VNI).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "endkind.h"
#include "log.h"
#include "topology.h"
#include "end_vxlan_def.h"
#include "vxlan.h"

/* sock() - the kind's state: the socket of every tunnel, NULL if none */
static struct xc_vxlan **sock(struct xc_topo *t)
{
	return (struct xc_vxlan **)xc_kind_state(t, &xc_kind_vxlan);
}

/**
 * family() - the address family the tunnel socket has, or would have if
 *	      it were opened now
 * @t:		topology
 *
 * Return: AF_INET or AF_INET6 (dual stack)
 */
static int family(struct xc_topo *t)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char why[128];

	if (*sock(t))
		return getsockname((*sock(t))->fd, (struct sockaddr *)&ss,
				   &len) == 0 ? ss.ss_family : AF_INET;
	if (xc_vxlan_opts(t->opts)->local &&
	    xc_addr_parse(xc_vxlan_opts(t->opts)->local, false, 0, &ss, why,
			  sizeof(why)) == 0)
		return ss.ss_family;
	return AF_INET6;
}

/**
 * vxlan_check() - can a tunnel end be made now: its remote is an address
 *		   the socket reaches, no other tunnel has its VNI and
 *		   remote (unless a cable that goes does), the socket has
 *		   room
 * @t:		topology
 * @e:		the end
 * @freed:	a cable that goes has a tunnel with this VNI
 * @why:	the reason it cannot
 * @whylen:	size of @why
 *
 * Return: 0 or -EINVAL
 */
static int vxlan_check(struct xc_topo *t, const struct xc_end_def *e,
		       bool freed, char *why, size_t whylen)
{
	const struct xc_vxlan_def *vd = xc_vxlan_def(e);
	struct xc_vxlan *vx = *sock(t);
	struct sockaddr_storage ss;
	char err[128];

	if (xc_addr_parse(vd->remote, true,
			  (uint16_t)xc_vxlan_opts(t->opts)->port, &ss, err,
			  sizeof(err)) || vd->vni > XC_VXLAN_VNI_MAX) {
		snprintf(why, whylen, "tunnel %s vni %u: %s", vd->remote,
			 vd->vni, vd->vni > XC_VXLAN_VNI_MAX ?
			 "VNI above 16777215" : err);
		return -EINVAL;
	}
	if (ss.ss_family == AF_INET6 && family(t) == AF_INET) {
		snprintf(why, whylen, "tunnel %s: an IPv6 remote needs an IPv6 (or no) vxlan-local",
			 vd->remote);
		return -EINVAL;
	}
	if (vx == NULL || freed)
		return 0;
	if (vx->n_tuns == XC_VXLAN_MAX_TUNS) {
		snprintf(why, whylen, "too many tunnel ends (%d)",
			 XC_VXLAN_MAX_TUNS);
		return -EINVAL;
	}
	if (family(t) == AF_INET6)
		xc_addr_to_v6(&ss);
	if (xc_vxlan_find(vx, vd->vni, &ss) != NULL) {
		snprintf(why, whylen, "tunnel %s vni %u: used by another cable",
			 vd->remote, vd->vni);
		return -EINVAL;
	}
	return 0;
}

/**
 * close_unused() - close the socket if it has no tunnel and none of its
 *		    mbufs is out; not while a change is made (struct
 *		    xc_topo's changing): the tunnels it makes, or makes
 *		    again if it fails, find the socket open, its port never
 *		    free for another to take (socket_tidy() closes it after)
 * @t:		topology
 */
static void close_unused(struct xc_topo *t)
{
	struct xc_vxlan *vx = *sock(t);

	if (vx && !t->changing && vx->n_tuns == 0 && xc_vxlan_idle(vx)) {
		xc_vxlan_close(vx);
		*sock(t) = NULL;
		XC_LOG(port, INFO, "vxlan socket closed: no tunnel uses it now");
	}
}

/**
 * vxlan_make() - make a tunnel end on the socket, opened with the first
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
static int vxlan_make(struct xc_topo *t, struct xc_cable *c, unsigned int j,
		      const struct xc_end_def *e, char *err, size_t errlen)
{
	const struct xc_vxlan_opts *o = xc_vxlan_opts(t->opts);
	const struct xc_vxlan_def *vd = xc_vxlan_def(e);
	char why[XC_ERR_LEN];
	int rc;

	if (*sock(t) == NULL) {
		rc = xc_vxlan_open(sock(t), o->local, (uint16_t)o->port, o->df,
				   why, sizeof(why));
		if (rc) {
			snprintf(err, errlen, "%s", why);
			return rc == -ENOMEM ? rc : -EINVAL;
		}
		XC_LOG(port, INFO, "vxlan socket open on UDP port %u", o->port);
	}
	/* a VNI and remote still another's: that cable goes (vxlan_check()
	 * said so), and this tunnel goes live once it is gone */
	rc = xc_vxlan_add_beside(*sock(t), &c->end[j], vd->remote,
				 (uint16_t)o->port, vd->vni, why, sizeof(why));
	if (rc == 0)
		return 0;
	snprintf(err, errlen, "cable %s: %s", c->name, why);
	close_unused(t);
	return rc;
}

/* vxlan_stop() - datagrams for the tunnel are unknown from now on */
static void vxlan_stop(struct xc_topo *t, struct xc_end *e)
{
	(void)t;
	if (e->priv)
		xc_vxlan_stop(e);
}

/**
 * vxlan_free() - take the tunnel off the socket (what was sorted to it is
 *		  dropped, as backlog); close the socket with its last
 *		  tunnel, unless some of its mbufs are still out or a change
 *		  is being made (close_unused())
 * @t:		topology
 * @e:		the end
 */
static void vxlan_free(struct xc_topo *t, struct xc_end *e)
{
	struct xc_vxlan *vx = *sock(t);

	if (e->priv == NULL || vx == NULL)
		return;
	xc_vxlan_del(e);
	close_unused(t);
}

/**
 * vxlan_settle() - end kind op: the cable that had the tunnel's VNI and
 *		    remote is gone: the tunnel goes live
 * @t:		topology
 * @e:		the end
 * @def:	its definition
 */
static void vxlan_settle(struct xc_topo *t, struct xc_end *e,
			 const struct xc_end_def *def)
{
	(void)t;
	if (e->priv && xc_vxlan_settle(e) == -EBUSY)	/* an lcore did not let go */
		XC_LOG(port, ERR, "%s: %s: tunnel %s vni %u is still another cable's: its datagrams do not reach this end",
		       e->cable->name, e->label, xc_vxlan_def(def)->remote,
		       xc_vxlan_def(def)->vni);
}

/* socket_flush() - kind op: drop what the socket sorted for tunnels */
static void socket_flush(struct xc_topo *t)
{
	if (*sock(t))
		xc_vxlan_flush(*sock(t));
}

/* socket_tidy() - kind op: a change is over: close the socket if unused */
static void socket_tidy(struct xc_topo *t)
{
	close_unused(t);
}

/* socket_fini() - kind op: close the socket */
static void socket_fini(struct xc_topo *t)
{
	xc_vxlan_close(*sock(t));
	*sock(t) = NULL;
}

const struct xc_end_kind xc_kind_vxlan = {
	.def = &xc_kind_def_vxlan,
	.check = vxlan_check,
	.make = vxlan_make,
	.stop = vxlan_stop,
	.free = vxlan_free,
	.flush = socket_flush,
	.tidy = socket_tidy,
	.fini = socket_fini,
	.beside = xc_kind_beside_always,	/* xc_vxlan_add_beside() */
	.settle = vxlan_settle,
};
