/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * end_netdev_def.h - what an interface end's definition holds: the netdev
 *		      kind's part of struct xc_end_def (kinddef.h)
 */
#ifndef XC_END_NETDEV_DEF_H
#define XC_END_NETDEV_DEF_H

#include <assert.h>
#include <net/if.h>

#include "kinddef.h"
#include "options.h"

/**
 * struct xc_netdev_def - an end on a Linux interface, as declared
 * @ifname:	the interface (left-netdev)
 * @netns:	its network namespace, a path or a process ID, empty for
 *		xcable's own (left-netns)
 * @tpid:	the type of the end's outer tag (left-tag-type), with a tag
 *		(struct xc_end_def's @tag); 0 if not given: 802.1ad
 */
struct xc_netdev_def {
	char ifname[IF_NAMESIZE];
	char netns[XC_SOCK_PATH_MAX];
	uint16_t tpid;
};

static_assert(sizeof(struct xc_netdev_def) <= XC_KIND_DEF_MAX,
	      "an interface end's definition fits its kind's part");

/* xc_netdev_def() - an interface end's definition */
static inline const struct xc_netdev_def *
xc_netdev_def(const struct xc_end_def *e)
{
	return xc_kind_def_carea(e, XC_KIND_ID_netdev);
}

#endif /* XC_END_NETDEV_DEF_H */
