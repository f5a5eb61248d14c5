/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * end_trunk_def.c - how a trunk member is declared: left-port = NAME,
 *		     left-tag = N (the keys are the common ones: ports are
 *		     shared with the port kind)
 */
#include <stdio.h>

#include "kinddef.h"
#include "options.h"

/* trunk_is() - does a definition declare a trunk member? */
static bool trunk_is(const struct xc_end_def *e)
{
	return e->port >= 0 && e->tag != 0;
}

/* trunk_what() - "tag N", should the common check not name it */
static void trunk_what(const struct xc_end_def *e, char *buf, size_t len)
{
	snprintf(buf, len, "tag %u of port %d", e->tag, e->port);
}

const struct xc_kind_def xc_kind_def_trunk = {
	.name = "trunk",
	.declared = "left-port = NAME, left-tag = N (a member of a trunk, under its outer VLAN tag)",
	.id = XC_KIND_ID_trunk,
	.is = trunk_is,
	.what = trunk_what,
};
