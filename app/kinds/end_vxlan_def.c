/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * end_vxlan_def.c - how a tunnel end is declared: its keys and options
 *		     (left-vxlan = ADDR[:PORT], left-vni = N; --left-vxlan,
 *		     --vni, vxlan-port, vxlan-local, vxlan-df) and their
 *		     checks
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "end_vxlan_def.h"
#include "vxlan_wire.h"

#define VXO(f)	((int)offsetof(struct xc_vxlan_opts, f))
#define VXD(f)	((int)offsetof(struct xc_vxlan_def, f))

static const char g_vxlan[] = "VXLAN tunnels (simple and config modes; RFC 7348, as Linux's vxlan device):";

/* the kind's keys and options, in the order --help lists them */
static const struct xc_opt_desc vxlan_opts[] = {
	{ .name = "left-vxlan", .where = XC_OPT_CLI, .type = XC_OPT_ADDR,
	  .once = true, .side = 1, .max = 1, .arg = "ADDR[:PORT]",
	  .group = g_vxlan, .opts_off = VXO(left), .end_off = VXD(remote),
	  .help = "the left end is a VXLAN tunnel to ADDR (IPv4, or IPv6 as [ADDR]:PORT), instead of --left" },
	{ .name = "right-vxlan", .where = XC_OPT_CLI, .type = XC_OPT_ADDR,
	  .once = true, .side = 2, .max = 1, .arg = "ADDR[:PORT]",
	  .group = g_vxlan, .opts_off = VXO(right), .end_off = VXD(remote),
	  .help = "the right end is a VXLAN tunnel to ADDR, instead of --right" },
	{ .name = "vxlan", .where = XC_OPT_END, .type = XC_OPT_ADDR, .max = 1,
	  .declares = true, .arg = "ADDR[:PORT]", .group = g_vxlan,
	  .end_off = VXD(remote),
	  .help = "config key left-vxlan/right-vxlan: the end is a tunnel" },
	{ .name = "vni", .where = XC_OPT_CLI | XC_OPT_END, .type = XC_OPT_UINT,
	  .max = XC_VXLAN_VNI_MAX, .arg = "N", .what = "a VNI",
	  .group = g_vxlan, .opts_off = VXO(vni), .end_off = VXD(vni),
	  .help = "the tunnels' VXLAN network identifier, 0 to 16777215 (needed with a tunnel end)" },
	{ .name = "vxlan-port", .where = XC_OPT_CLI | XC_OPT_GLOBAL,
	  .type = XC_OPT_UINT, .min = 1, .max = 65535,
	  .def = XC_VXLAN_PORT_DEFAULT, .arg = "PORT", .what = "a UDP port",
	  .group = g_vxlan, .opts_off = VXO(port),
	  .help = "the one UDP port every tunnel of xcable uses, and the remotes' port unless ADDR:PORT says otherwise" },
	{ .name = "vxlan-local", .where = XC_OPT_CLI | XC_OPT_GLOBAL,
	  .type = XC_OPT_ADDR, .arg = "ADDR", .group = g_vxlan,
	  .opts_off = VXO(local),
	  .help = "local address of the tunnel socket (default: any, IPv4 and IPv6)" },
	{ .name = "vxlan-df", .where = XC_OPT_CLI | XC_OPT_GLOBAL,
	  .type = XC_OPT_ON, .group = g_vxlan, .opts_off = VXO(df),
	  .help = "outer packets may not be fragmented: a frame that does not fit the path is refused and counted (default: the kernel fragments, as Linux's vxlan device does)" },
};

/* vxlan_is() - does a definition declare a tunnel end? */
static bool vxlan_is(const struct xc_end_def *e)
{
	return xc_vxlan_def(e)->remote[0] != '\0';
}

/**
 * vxlan_check() - a tunnel end names its VNI, and uses one queue pair
 * @e:		the end
 * @o:		options (unused)
 * @side:	"left" or "right"
 * @key:	filled with the key to blame
 * @keylen:	size of @key
 * @why:	what is wrong
 * @whylen:	size of @why
 *
 * Return: 0 or -EINVAL
 */
static int vxlan_check(const struct xc_end_def *e, const struct xc_opts *o,
		       const char *side, char *key, size_t keylen, char *why,
		       size_t whylen)
{
	(void)o;
	snprintf(key, keylen, "%s-vni", side);
	if (!xc_end_def_given(e, "vni")) {
		snprintf(why, whylen, "missing: a tunnel end needs a VNI (left-vni = N)");
		return -EINVAL;
	}
	snprintf(key, keylen, "%s-queues", side);
	if (e->queues > 1) {
		snprintf(why, whylen, "tunnel ends use one queue pair");
		return -EINVAL;
	}
	return 0;
}

/**
 * vxlan_clash() - are two tunnel ends one tunnel: the same VNI to the same
 *		   remote host?
 * @a:		a tunnel end
 * @b:		another
 * @o:		options: the default UDP port
 *
 * Return: true if so
 */
static bool vxlan_clash(const struct xc_end_def *a, const struct xc_end_def *b,
			const struct xc_opts *o)
{
	const struct xc_vxlan_def *va = xc_vxlan_def(a), *vb = xc_vxlan_def(b);
	uint16_t def_port = (uint16_t)xc_vxlan_opts(o)->port;
	struct sockaddr_storage sa, sb;
	char why[128];

	if (va->vni != vb->vni)
		return false;
	if (xc_addr_parse(va->remote, true, def_port, &sa, why, sizeof(why)) ||
	    xc_addr_parse(vb->remote, true, def_port, &sb, why, sizeof(why)))
		return strcmp(va->remote, vb->remote) == 0;
	xc_addr_to_v6(&sa);
	xc_addr_to_v6(&sb);
	return xc_addr_same_host(&sa, &sb);
}

/* vxlan_what() - "tunnel ADDR vni N" */
static void vxlan_what(const struct xc_end_def *e, char *buf, size_t len)
{
	snprintf(buf, len, "tunnel %s vni %u", xc_vxlan_def(e)->remote,
		 xc_vxlan_def(e)->vni);
}

/**
 * vxlan_simple() - the simple mode's tunnel ends need --vni
 * @o:		parsed options
 * @err:	what is wrong
 * @errlen:	size of @err
 *
 * Return: 0 or -EINVAL
 */
static int vxlan_simple(const struct xc_opts *o, char *err, size_t errlen)
{
	const struct xc_vxlan_opts *vo = xc_vxlan_opts(o);

	if ((vo->left || vo->right) && !xc_opt_given(o, "vni")) {
		snprintf(err, errlen,
			 "a tunnel end (--left-vxlan, --right-vxlan) needs --vni N");
		return -EINVAL;
	}
	return 0;
}

const struct xc_kind_def xc_kind_def_vxlan = {
	.name = "vxlan",
	.declared = "left-vxlan = ADDR[:PORT], left-vni = N (a VXLAN tunnel)",
	.id = XC_KIND_ID_vxlan,
	.opts = vxlan_opts,
	.n_opts = sizeof(vxlan_opts) / sizeof(vxlan_opts[0]),
	/* every tunnel of a process is on its one UDP socket (vxlan-port) */
	.one_process = true,
	.is = vxlan_is,
	.check = vxlan_check,
	.clash = vxlan_clash,
	.what = vxlan_what,
	.simple = vxlan_simple,
	/* a guest that moves to another host: its end follows as a tunnel
	 * (xcablectl migrate --to-remote ADDR --vni N) */
	.remote_addr = "vxlan",
	.remote_id = "vni",
};
