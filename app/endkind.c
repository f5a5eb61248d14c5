/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * endkind.c - the table of end kinds (see endkind.h): a new kind of cable
 *	       end is its own file and one line here
 */
#include <stddef.h>

#include <rte_common.h>

#include "endkind.h"

const struct xc_end_kind *const xc_end_kinds[] = {
	&xc_kind_socket,
	&xc_kind_trunk,		/* a [port] with a tag, before one without */
	&xc_kind_port,
	&xc_kind_vxlan,
	&xc_kind_netdev,
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
	unsigned int k;

	for (k = 0; k < xc_n_end_kinds; k++)
		if (xc_end_kinds[k]->is(e))
			return xc_end_kinds[k];
	return NULL;
}
