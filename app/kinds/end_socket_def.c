/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * end_socket_def.c - how a socket end is declared: left = PATH (a VM's
 *		      vhost-user socket; its keys are the common ones, as
 *		      sockets are what most cables end in), and the vhost
 *		      port the EAL is given for it
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kinddef.h"
#include "options.h"
#include "sockpath.h"

/* socket_is() - does a definition declare a socket end? */
static bool socket_is(const struct xc_end_def *e)
{
	return e->path[0] != '\0';
}

/**
 * socket_check() - does the socket's path fit where DPDK puts it (a
 *		    server's guard hides it under a longer name)?
 * @e:		the end
 * @o:		options (unused)
 * @side:	"left" or "right"
 * @key:	filled with the key to blame
 * @keylen:	size of @key
 * @why:	the reason it does not
 * @whylen:	size of @why
 *
 * Return: 0 or -EINVAL
 */
static int socket_check(const struct xc_end_def *e, const struct xc_opts *o,
			const char *side, char *key, size_t keylen, char *why,
			size_t whylen)
{
	(void)o;
	snprintf(key, keylen, "%s", side);
	return xc_sock_path_fits(e->path, e->client, why, whylen);
}

/* socket_clash() - do two socket ends name one socket? */
static bool socket_clash(const struct xc_end_def *a, const struct xc_end_def *b,
			 const struct xc_opts *o)
{
	(void)o;
	return strcmp(a->path, b->path) == 0;
}

/* socket_what() - "socket PATH" */
static void socket_what(const struct xc_end_def *e, char *buf, size_t len)
{
	snprintf(buf, len, "socket %s", e->path);
}

/**
 * socket_ready() - may the socket be served or connected to: its owner
 *		    and group exist, its path fits and is free (a stale
 *		    socket of xcable's is removed)?
 * @e:		the end
 * @why:	the reason it may not
 * @whylen:	size of @why
 *
 * Return: 0, -EINVAL (no such owner or group, a path too long), or what
 *	   xc_sock_prepare() returns
 */
static int socket_ready(const struct xc_end_def *e, char *why, size_t whylen)
{
	int uid, gid;

	if (xc_sock_ids(e->sock_owner, e->sock_group, &uid, &gid, why, whylen) ||
	    xc_sock_path_fits(e->path, e->client, why, whylen))
		return -EINVAL;
	return xc_sock_prepare(e->path, e->client, why, whylen);
}

/**
 * socket_port_claim() - vhost ports are declared by their socket, not as
 *			 a [port NAME]
 * @devargs:	a [port NAME]'s devargs
 * @why:	how such ends are declared
 * @whylen:	size of @why
 *
 * Return: true if @devargs are a vhost port's
 */
static bool socket_port_claim(const char *devargs, char *why, size_t whylen)
{
	if (strncmp(devargs, "net_vhost", 9) != 0)
		return false;
	snprintf(why, whylen, "vhost-user ends are declared by their socket (left = PATH), not as ports");
	return true;
}

/**
 * socket_vdev() - the vhost port that serves a socket end, as the EAL's
 *		   --vdev or rte_dev_probe() take it
 * @e:		the end
 * @idx:	device number: net_vhostIDX, unique in the process
 * @buf:	filled
 * @len:	size of @buf
 */
static void socket_vdev(const struct xc_end_def *e, unsigned int idx,
			char *buf, size_t len)
{
	snprintf(buf, len, "net_vhost%u,iface=%s%s%s%s,queues=%u", idx,
		 e->path, e->client ? ",client=1" : "",
		 e->offloads ? ",tso=1" : "",
		 e->iommu ? ",iommu-support=1" : "", e->queues);
}

const struct xc_kind_def xc_kind_def_socket = {
	.name = "socket",
	.declared = "left = PATH (a vhost-user socket; left-client = yes: QEMU's)",
	.id = XC_KIND_ID_socket,
	.ports = 1,
	.is = socket_is,
	.check = socket_check,
	.clash = socket_clash,
	.what = socket_what,
	.ready = socket_ready,
	.port_claim = socket_port_claim,
	.vdev = socket_vdev,
	/* the vhost library logs ten lines per guest message at info: a
	 * guest that connects in a loop would fill the operator's disk */
	.eal_once = "--log-level=lib.vhost.config:warning",
};
