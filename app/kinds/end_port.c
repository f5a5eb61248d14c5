/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * end_port.c - the port kind of cable end: a [port NAME] that is this
 *		end's alone, untagged (left-port = NAME): a NIC, af_xdp...
 *
 * The port is the EAL's, probed at start-up from the [port NAME] section;
 * it is configured and started with the first cable on it. When that
 * cable goes at runtime the port is stopped, still configured, and a
 * cable added on it later starts it again. A port that carries tagged
 * ends is a trunk (end_trunk.c), and stays one.
 */
#include <errno.h>
#include <stdio.h>

#include "endkind.h"
#include "topology.h"

/**
 * port_check() - can a port end be made now: the port exists and is no
 *		  trunk (the config checks see that no other cable has it)
 * @t:		topology
 * @e:		the end
 * @freed:	unused: a cable that goes may hold the port
 * @why:	the reason it cannot
 * @whylen:	size of @why
 *
 * Return: 0 or -EINVAL
 */
static int port_check(struct xc_topo *t, const struct xc_end_def *e,
		      bool freed, char *why, size_t whylen)
{
	struct xc_port *p = xc_kind_named_port(t, e, why, whylen);

	(void)freed;
	if (p == NULL)
		return -EINVAL;
	if (p->user && p->user != &xc_kind_port) {
		snprintf(why, whylen, "port %s carries %s ends: an end on it is one too (%s)",
			 t->opts->port_defs[e->port].name, p->user->def->name,
			 p->user->def->declared);
		return -EINVAL;
	}
	return 0;
}

/**
 * port_make() - make a port end: the port itself, with the MTU its
 *		 section asks for
 * @t:		topology
 * @c:		cable
 * @j:		which end
 * @e:		the end's definition
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 or -EINVAL
 */
static int port_make(struct xc_topo *t, struct xc_cable *c, unsigned int j,
		     const struct xc_end_def *e, char *err, size_t errlen)
{
	struct xc_port *p = xc_kind_named_port(t, e, err, errlen);

	if (p == NULL)
		return -EINVAL;
	p->conf.mtu = t->opts->port_defs[e->port].mtu;
	p->user = &xc_kind_port;
	xc_kind_set_port(c, j, p, j ? "right" : "left");
	return 0;
}

/**
 * port_free() - no cable uses the port any more: stop it (it stays
 *		 configured for the next); during a change, only once the
 *		 change is over (port_tidy()), so that an end the change
 *		 makes on it again (its new form, or its old one if the
 *		 change fails) finds it running: its link never went down
 * @t:		topology
 * @e:		the end
 */
static void port_free(struct xc_topo *t, struct xc_end *e)
{
	if (e->port) {
		xc_kind_unused_port(t, e->port);
		e->port->user = NULL;
	}
	e->port = NULL;
}

/**
 * port_tidy() - kind op: a change is over: the ports it let go of that no
 *		 end took again are stopped
 * @t:		topology
 */
static void port_tidy(struct xc_topo *t)
{
	unsigned int i;

	for (i = 0; i < t->n_ports; i++) {
		struct xc_port *p = &t->ports[i];

		/* one another kind has (a trunk's) is that kind's to tidy */
		if (p->user == NULL || p->user == &xc_kind_port)
			xc_kind_tidy_port(p, p->user == NULL);
	}
}

const struct xc_end_kind xc_kind_port = {
	.def = &xc_kind_def_port,
	.check = port_check,
	.make = port_make,
	.start = xc_kind_start_port,
	.free = port_free,
	.tidy = port_tidy,
};
