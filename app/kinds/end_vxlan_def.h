/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * end_vxlan_def.h - what a tunnel end's definition and the tunnels'
 *		     options hold: the vxlan kind's parts of struct
 *		     xc_end_def and struct xc_opts (kinddef.h)
 */
#ifndef XC_END_VXLAN_DEF_H
#define XC_END_VXLAN_DEF_H

#include <assert.h>
#include <stdbool.h>

#include "addr.h"
#include "kinddef.h"
#include "options.h"

/**
 * struct xc_vxlan_def - a tunnel end, as declared
 * @remote:	where its frames go, "ADDR[:PORT]" (left-vxlan)
 * @vni:	its VNI (left-vni)
 */
struct xc_vxlan_def {
	char remote[XC_ADDR_TEXT_MAX];
	unsigned int vni;
};

/**
 * struct xc_vxlan_opts - the tunnels' options
 * @left:	simple mode: the left end is a tunnel to this remote
 * @right:	simple mode: the same for the right end
 * @vni:	simple mode: the tunnels' VNI
 * @port:	UDP port of the tunnels, here and by default there
 * @local:	local address of the tunnel socket, or NULL: any
 * @df:		outer packets may not be fragmented
 */
struct xc_vxlan_opts {
	const char *left;
	const char *right;
	unsigned int vni;
	unsigned int port;
	const char *local;
	bool df;
};

static_assert(sizeof(struct xc_vxlan_def) <= XC_KIND_DEF_MAX,
	      "a tunnel end's definition fits its kind's part");
static_assert(sizeof(struct xc_vxlan_opts) <= XC_KIND_OPTS_MAX,
	      "the tunnels' options fit their kind's part");

/* xc_vxlan_def() - a tunnel end's definition */
static inline const struct xc_vxlan_def *
xc_vxlan_def(const struct xc_end_def *e)
{
	return xc_kind_def_carea(e, XC_KIND_ID_vxlan);
}

/* xc_vxlan_opts() - the tunnels' options */
static inline const struct xc_vxlan_opts *
xc_vxlan_opts(const struct xc_opts *o)
{
	return xc_kind_opts_carea(o, XC_KIND_ID_vxlan);
}

#endif /* XC_END_VXLAN_DEF_H */
