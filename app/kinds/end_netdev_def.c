/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * end_netdev_def.c - how an end on a Linux interface is declared
 *		      (left-netdev = IFNAME, left-netns = PATH|PID) and
 *		      checked
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
	return 0;
}

/* netdev_clash() - do two ends name one interface in one namespace? */
static bool netdev_clash(const struct xc_end_def *a, const struct xc_end_def *b,
			 const struct xc_opts *o)
{
	const struct xc_netdev_def *na = xc_netdev_def(a), *nb = xc_netdev_def(b);

	(void)o;
	return strcmp(na->ifname, nb->ifname) == 0 &&
	       strcmp(na->netns, nb->netns) == 0;
}

/* netdev_what() - "interface IFNAME [in NETNS]" */
static void netdev_what(const struct xc_end_def *e, char *buf, size_t len)
{
	const struct xc_netdev_def *nd = xc_netdev_def(e);

	snprintf(buf, len, "interface %s%s%s", nd->ifname,
		 nd->netns[0] ? " in " : "", nd->netns);
}

const struct xc_kind_def xc_kind_def_netdev = {
	.name = "netdev",
	.declared = "left-netdev = IFNAME, left-netns = PATH|PID (any Linux interface, frame for frame; netns: optional)",
	.id = XC_KIND_ID_netdev,
	.opts = netdev_opts,
	.n_opts = sizeof(netdev_opts) / sizeof(netdev_opts[0]),
	.is = netdev_is,
	.check = netdev_check,
	.clash = netdev_clash,
	.what = netdev_what,
};
