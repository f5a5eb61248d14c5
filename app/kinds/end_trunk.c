/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * end_trunk.c - the trunk kind of cable end: a member of the trunk a
 *		 [port NAME] becomes, under its own outer VLAN tag
 *		 (left-port = NAME, left-tag = N; trunk.c sorts the frames)
 *
 * The first member makes the port a trunk: the trunk is made then, and
 * the port configured and started for it (with the driver stripping the
 * outer tag where it would anyway). Members come and go at runtime (see
 * trunk.h); a trunk left without members stops its port, and the next
 * member starts it again. A port set up for an untagged end at start-up
 * does not become a trunk at runtime: its configuration differs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "endkind.h"
#include "log.h"
#include "topology.h"
#include "trunk.h"

/**
 * struct trunks - the kind's state in the topology: the trunk each port
 *		   carries (main thread)
 * @of:		by port id, NULL where a port is no trunk
 */
struct trunks {
	struct xc_trunk *of[RTE_MAX_ETHPORTS];
};

/**
 * trunk_on() - where the trunk a port carries is kept
 * @t:		topology
 * @p:		the port
 *
 * Return: the slot, or NULL if there is no room for the kind's state
 */
static struct xc_trunk **trunk_on(struct xc_topo *t, const struct xc_port *p)
{
	struct trunks **st = (struct trunks **)xc_kind_state(t, &xc_kind_trunk);

	if (*st == NULL)
		*st = calloc(1, sizeof(**st));
	return *st ? &(*st)->of[p->id] : NULL;
}

/**
 * holder() - the name of the cable whose member has a tag on a trunk
 * @tr:		trunk
 * @tag:	a tag some member has (member_of[tag] set)
 *
 * Return: the cable's name
 */
static const char *holder(const struct xc_trunk *tr, uint16_t tag)
{
	return tr->member[tr->member_of[tag] - 1]->cable->name;
}

/**
 * trunk_check() - can a member be made now: the port exists, is a trunk
 *		   or can become one, and the trunk has room
 * @t:		topology
 * @e:		the end
 * @freed:	a cable that goes holds the tag (its slot is free then)
 * @why:	the reason it cannot
 * @whylen:	size of @why
 *
 * Return: 0 or -EINVAL
 */
static int trunk_check(struct xc_topo *t, const struct xc_end_def *e,
		       bool freed, char *why, size_t whylen)
{
	const char *name = t->opts->port_defs[e->port].name;
	struct xc_port *p = xc_kind_named_port(t, e, why, whylen);
	struct xc_trunk *tr;

	if (p == NULL)
		return -EINVAL;
	if (trunk_on(t, p) == NULL) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	tr = *trunk_on(t, p);
	if (tr == NULL && p->configured) {
		snprintf(why, whylen, "port %s was set up for an untagged end: a tagged end on it needs a restart of xcable",
			 name);
		return -EINVAL;
	}
	if (tr == NULL || freed)
		return 0;
	if (tr->member_of[e->tag]) {
		snprintf(why, whylen, "port %s, tag %u: used by cable %s", name,
			 e->tag, holder(tr, e->tag));
		return -EINVAL;
	}
	if (tr->n_members - tr->n_pending >= XC_TRUNK_MAX_MEMBERS) {
		snprintf(why, whylen, "port %s: too many cables on one trunk (%d)",
			 name, XC_TRUNK_MAX_MEMBERS);
		return -EINVAL;
	}
	return 0;
}

/**
 * trunk_make() - make a member: the trunk of the port (made with the
 *		  first member), and the end on it under its tag
 * @t:		topology
 * @c:		cable
 * @j:		which end
 * @e:		the end's definition
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL, or -ENOMEM
 */
static int trunk_make(struct xc_topo *t, struct xc_cable *c, unsigned int j,
		      const struct xc_end_def *e, char *err, size_t errlen)
{
	const struct xc_port_def *pd = &t->opts->port_defs[e->port];
	struct xc_port *p = xc_kind_named_port(t, e, err, errlen);
	struct xc_trunk *tr, **slot;
	bool made = false;
	int rc;

	if (p == NULL)
		return -EINVAL;
	slot = trunk_on(t, p);
	tr = slot ? *slot : NULL;
	if (tr == NULL) {
		tr = slot ? calloc(1, sizeof(*tr)) : NULL;
		if (tr == NULL) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		xc_trunk_init(tr, p, pd->tpid);
		p->conf.strip_vlan = true;
		p->conf.mtu = pd->mtu;
		p->user = &xc_kind_trunk;
		*slot = tr;
		made = true;
	}
	snprintf(p->label, sizeof(p->label), "%s", pd->name);
	/* a tag still another's: that cable goes (trunk_check() said so),
	 * and this member takes the tag once it is gone (trunk_settle()) */
	rc = xc_trunk_add_beside(tr, &c->end[j], e->tag);
	if (rc == 0)
		return 0;
	snprintf(err, errlen, "cable %s: port %s, tag %u: %s", c->name,
		 pd->name, e->tag, rc == -ENOSPC ?
		 "too many cables on one trunk (64)" : "bad tag");
	if (made) {
		*slot = NULL;
		p->user = NULL;
		free(tr);
	}
	return -EINVAL;
}

/* trunk_stop() - frames with the member's tag are unknown from now on */
static void trunk_stop(struct xc_topo *t, struct xc_end *e)
{
	const struct xc_trunk_member *m = xc_trunk_member_of(e);

	(void)t;
	if (m)
		xc_trunk_stop(m->trunk, e);
}

/**
 * trunk_free() - take the member off its trunk (what was sorted to it is
 *		  dropped, as backlog); a trunk left without members stops
 *		  its port (during a change, once the change is over and if
 *		  no member came: trunks_tidy()), or, if its port was never
 *		  configured (the member was its first, and failed), is
 *		  forgotten
 * @t:		topology
 * @e:		the end
 */
static void trunk_free(struct xc_topo *t, struct xc_end *e)
{
	const struct xc_trunk_member *m = xc_trunk_member_of(e);
	struct xc_trunk *tr;
	struct xc_port *p;

	if (m == NULL)
		return;
	tr = m->trunk;
	p = tr->port;
	xc_trunk_del(tr, e);
	e->port = NULL;
	if (tr->n_members)
		return;
	if (p->configured) {
		xc_kind_unused_port(t, p);	/* for a member a change makes */
		return;
	}
	p->conf.strip_vlan = false;
	p->user = NULL;
	*trunk_on(t, p) = NULL;
	free(tr);
}

/**
 * trunk_settle() - end kind op: the cable that had the member's tag is
 *		    gone: the member takes the tag
 * @t:		topology
 * @e:		the end
 * @def:	its definition
 */
static void trunk_settle(struct xc_topo *t, struct xc_end *e,
			 const struct xc_end_def *def)
{
	const struct xc_trunk_member *m = xc_trunk_member_of(e);

	(void)t;
	if (m && xc_trunk_settle(m->trunk, e) == -EBUSY)	/* an lcore did not let go */
		XC_LOG(port, ERR, "%s: %s: tag %u is still cable %s's: frames with it do not reach this end",
		       e->cable->name, e->label, def->tag,
		       holder(m->trunk, def->tag));
}

/* trunks_flush() - kind op: drop what the trunks sorted for members */
static void trunks_flush(struct xc_topo *t)
{
	struct trunks *st = *xc_kind_state(t, &xc_kind_trunk);
	unsigned int i;

	for (i = 0; st && i < RTE_MAX_ETHPORTS; i++)
		if (st->of[i])
			xc_trunk_flush(st->of[i]);
}

/**
 * trunks_tidy() - kind op: a change is over: the ports of the trunks it
 *		   left without members are stopped
 * @t:		topology
 */
static void trunks_tidy(struct xc_topo *t)
{
	struct trunks *st = *xc_kind_state(t, &xc_kind_trunk);
	unsigned int i;

	for (i = 0; st && i < RTE_MAX_ETHPORTS; i++) {
		struct xc_trunk *tr = st->of[i];

		if (tr != NULL)
			xc_kind_tidy_port(tr->port, tr->n_members == 0);
	}
}

/* trunks_fini() - kind op: free the trunks */
static void trunks_fini(struct xc_topo *t)
{
	struct trunks **st = (struct trunks **)xc_kind_state(t, &xc_kind_trunk);
	unsigned int i;

	for (i = 0; *st && i < RTE_MAX_ETHPORTS; i++)
		free((*st)->of[i]);
	free(*st);
	*st = NULL;
}

const struct xc_end_kind xc_kind_trunk = {
	.def = &xc_kind_def_trunk,
	.check = trunk_check,
	.make = trunk_make,
	.start = xc_kind_start_port,
	.stop = trunk_stop,
	.free = trunk_free,
	.flush = trunks_flush,
	.tidy = trunks_tidy,
	.fini = trunks_fini,
	.beside = xc_kind_beside_always,	/* xc_trunk_add_beside() */
	.settle = trunk_settle,
};
