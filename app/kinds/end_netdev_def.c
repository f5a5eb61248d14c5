/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * end_netdev_def.c - how an end on a Linux interface is declared
 *		      (left-netdev = IFNAME, left-netns = PATH|PID,
 *		      left-tag = N, left-tag-type = 802.1ad|802.1q) and
 *		      checked
 *
 * An end with a tag is one of several on the interface, each under its
 * outer VLAN tag, as a trunk's members are: two ends clash on one
 * interface unless both have tags, and different ones.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>


#include "end_netdev_def.h"

#define NDD(f)	((int)offsetof(struct xc_netdev_def, f))

static const char g_netdev[] = "Linux interfaces (config files):";

/* the kind's keys, in the order --help lists them */
static const struct xc_opt_desc netdev_opts[] = {
	{ .name = "netdev", .where = XC_OPT_END, .type = XC_OPT_NAME,
	  .max = IF_NAMESIZE - 1, .declares = true, .arg = "IFNAME",
	  .what = "Linux interface name", .group = g_netdev,
	  .end_off = NDD(ifname),
	  .help = "config key left-netdev/right-netdev: the end is a Linux interface (xcable(1), netdev)" },
	{ .name = "netns", .where = XC_OPT_END, .type = XC_OPT_NAME,
	  .max = XC_SOCK_PATH_MAX - 1, .arg = "PATH|PID",
	  .what = "network namespace path or process ID", .group = g_netdev,
	  .end_off = NDD(netns),
	  .help = "config key left-netns/right-netns: the netdev end's interface is in this network namespace" },
	{ .name = "netdev-tag-type", .key = "tag-type", .where = XC_OPT_END,
	  .type = XC_OPT_TPID, .arg = "802.1ad|802.1q",
	  .group = g_netdev, .end_off = NDD(tpid),
	  .help = "config key left-tag-type/right-tag-type: with left-netdev and left-tag, the end's outer tag (default 802.1ad)" },
};

/* netdev_is() - does a definition declare an end on a Linux interface? */
static bool netdev_is(const struct xc_end_def *e)
{
	return xc_netdev_def(e)->ifname[0] != '\0';
}

/**
 * netdev_check() - an interface end uses one queue pair
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
static int netdev_check(const struct xc_end_def *e, const struct xc_opts *o,
			const char *side, char *key, size_t keylen, char *why,
			size_t whylen)
{
	(void)o;
	snprintf(key, keylen, "%s-queues", side);
	if (e->queues > 1) {
		snprintf(why, whylen, "netdev ends use one queue pair");
		return -EINVAL;
	}
	snprintf(key, keylen, "%s-tag-type", side);
	if (xc_end_def_given(e, "tag-type") && e->tag == 0) {
		snprintf(why, whylen, "a tag type needs a tag (%s-tag = N)",
			 side);
		return -EINVAL;
	}
	return 0;
}

/* netdev_clash() - do two ends take one interface in one namespace,
 * or one tag of it? (an end without a tag takes all of it) */
static bool netdev_clash(const struct xc_end_def *a, const struct xc_end_def *b,
			 const struct xc_opts *o)
{
	const struct xc_netdev_def *na = xc_netdev_def(a), *nb = xc_netdev_def(b);

	(void)o;
	return strcmp(na->ifname, nb->ifname) == 0 &&
	       strcmp(na->netns, nb->netns) == 0 &&
	       xc_end_def_same_frames(a, b);
}

/**
 * netdev_port_clash() - is an end in xcable's own namespace on the
 *			 interface a kernel-backed [port] is on (af_packet,
 *			 af_xdp)? Its socket and the port's would each take
 *			 the other's frames, under any tag. (An end in a
 *			 namespace of its own is on another interface of
 *			 that name.)
 * @e:		the end
 * @pd:		the port
 *
 * Return: true if so
 */
static bool netdev_port_clash(const struct xc_end_def *e,
			      const struct xc_port_def *pd)
{
	const struct xc_netdev_def *nd = xc_netdev_def(e);

	return nd->netns[0] == '\0' && pd->kiface[0] != '\0' &&
	       strcmp(pd->kiface, nd->ifname) == 0;
}

/* netdev_what() - "[tag N of ]interface IFNAME [in NETNS]" */
static void netdev_what(const struct xc_end_def *e, char *buf, size_t len)
{
	const struct xc_netdev_def *nd = xc_netdev_def(e);
	char tag[16] = "";

	if (e->tag)
		snprintf(tag, sizeof(tag), "tag %u of ", e->tag);
	snprintf(buf, len, "%sinterface %s%s%s", tag, nd->ifname,
		 nd->netns[0] ? " in " : "", nd->netns);
}

const struct xc_kind_def xc_kind_def_netdev = {
	.name = "netdev",
	.declared = "left-netdev = IFNAME, left-netns = PATH|PID, left-tag = N (any Linux interface, frame for frame, or its frames under tag N; netns and tag: optional)",
	.id = XC_KIND_ID_netdev,
	.opts = netdev_opts,
	.n_opts = sizeof(netdev_opts) / sizeof(netdev_opts[0]),
	.is = netdev_is,
	.check = netdev_check,
	.clash = netdev_clash,
	.port_clash = netdev_port_clash,
	.what = netdev_what,
	.tags = true,
};
