/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * kinds.c - the table of end kinds (see endkind.h), made from
 *	       endkinds.def, and what runs every kind's op at once
 *
 * Folder app/kinds/: every kind of end and of port, each its own files,
 * and the only files that name a kind. A new kind of end NAME is
 * end_NAME.c (struct xc_end_kind xc_kind_NAME: making and running its
 * ends), end_NAME_def.c (struct xc_kind_def xc_kind_def_NAME: its keys and
 * checks), any file of its own beside them, and one line in
 * app/defs/endkinds.def; a new kind of port is port_NAME.c and one line in
 * app/model/portkinds.def.
 */
#include <stddef.h>

#include <rte_common.h>

#include "endkind.h"
#include "topology.h"

const struct xc_end_kind *const xc_end_kinds[] = {
#define XC_END_KIND(name) &xc_kind_##name,
#include "endkinds.def"
#undef XC_END_KIND
};

const unsigned int xc_n_end_kinds = RTE_DIM(xc_end_kinds);

/**
 * xc_end_kind_of() - the kind an end definition declares
 * @e:		the definition
 *
 * Return: the kind, or NULL if it declares none (config.c refuses such a
 *	   definition before anything is made of it)
 */
const struct xc_end_kind *xc_end_kind_of(const struct xc_end_def *e)
{
	const struct xc_kind_def *kd = xc_kind_def_of(e);

	return kd ? xc_end_kinds[kd->id] : NULL;
}

/**
 * xc_kind_state() - a kind's slot in the topology, for what its ends
 *		     share (main thread)
 * @t:		topology
 * @k:		the kind
 *
 * Return: the slot (NULL until the kind puts something there)
 */
void **xc_kind_state(struct xc_topo *t, const struct xc_end_kind *k)
{
	unsigned int i;

	for (i = 0; i < xc_n_end_kinds && xc_end_kinds[i] != k; i++)
		;
	RTE_VERIFY(i < xc_n_end_kinds);
	return &t->kind_state[i];
}

/**
 * xc_kinds_flush() - at shutdown, the lcores stopped: every kind drops
 *		      what it holds for its ends (counted)
 * @t:		topology
 */
void xc_kinds_flush(struct xc_topo *t)
{
	unsigned int i;

	for (i = 0; i < xc_n_end_kinds; i++)
		if (xc_end_kinds[i]->flush)
			xc_end_kinds[i]->flush(t);
}

/**
 * xc_kinds_tidy() - a runtime change is over: every kind lets go of what
 *		     it kept for the change's ends (struct xc_topo's
 *		     changing, cleared by the caller)
 * @t:		topology
 */
void xc_kinds_tidy(struct xc_topo *t)
{
	unsigned int i;

	for (i = 0; i < xc_n_end_kinds; i++)
		if (xc_end_kinds[i]->tidy)
			xc_end_kinds[i]->tidy(t);
}

/**
 * xc_kinds_fini() - every kind frees its state in the topology
 * @t:		topology, everything stopped
 */
void xc_kinds_fini(struct xc_topo *t)
{
	unsigned int i;

	for (i = 0; i < xc_n_end_kinds; i++)
		if (xc_end_kinds[i]->fini)
			xc_end_kinds[i]->fini(t);
}
