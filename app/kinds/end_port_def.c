/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * end_port_def.c - how a port end is declared: left-port = NAME, a
 *		    [port NAME] of its own, untagged (the keys are the
 *		    common ones: ports are shared with the trunk kind)
 */
#include <stdio.h>

#include "kinddef.h"
#include "options.h"

/* port_is() - does a definition declare an untagged port end? */
static bool port_is(const struct xc_end_def *e)
{
	return e->port >= 0 && e->tag == 0;
}

/* port_what() - "port NUMBER", should the common check not name it */
static void port_what(const struct xc_end_def *e, char *buf, size_t len)
{
	snprintf(buf, len, "port %d", e->port);
}

const struct xc_kind_def xc_kind_def_port = {
	.name = "port",
	.declared = "left-port = NAME (a [port NAME] of its own: a NIC, af_xdp...)",
	.id = XC_KIND_ID_port,
	.is = port_is,
	.what = port_what,
};
