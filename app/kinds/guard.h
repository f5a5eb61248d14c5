/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * guard.h - one frontend per vhost-user socket
 */
#ifndef XC_GUARD_H
#define XC_GUARD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "bounds.h"
#include "port.h"
#include "sockpath.h"

/**
 * struct xc_guard - keeps a second frontend off a socket that is in use
 * @lock:	serialises the event thread (attach, detach) and the main
 *		thread (poll, close)
 * @enabled:	the port is a vhost server and its hidden name fits
 * @path:	the socket path QEMU connects to
 * @hidden:	where the served socket is while a frontend is attached
 * @mode:	permission bits of the decoy socket
 * @uid:	owner of the decoy socket, -1 to leave it
 * @gid:	group of the decoy socket, -1 to leave it
 * @decoy:	listening socket on @path while attached, else -1
 * @set:	epoll set the decoy joins while it listens, with this guard
 *		as its data, so that the main thread waits on every decoy at
 *		once (xc_guard_set_poll()); -1: the guard is polled (set at
 *		init; the event thread or the main thread, under @lock, may
 *		set it to -1 for good; atomic)
 * @wake:	what the main thread does when the decoy is readable: turn
 *		away who connected (the decoy's data in @set)
 * @label:	the port's label, for messages
 * @refused:	frontends turned away (atomic)
 * @next_poll:	without @set: TSC before which xc_guard_poll() does not
 *		look again
 * @sock:	the served socket, as recorded right after it was bound
 *		(xc_guard_own()); nothing is hidden until it is known
 * @decoy_id:	the decoy's file on @path while it listens
 * @pinned:	the served socket stays hidden and the decoy on @path
 *		while no frontend is attached: the guest's device stopped
 *		while the guest moves to another QEMU (xc_guard_pin())
 * @lent:	@path holds another port's socket instead of the decoy,
 *		for the guest's next frontend (xc_guard_lend())
 * @lent_home:	where that socket goes back to
 * @lent_id:	its record
 */
struct xc_guard {
	pthread_mutex_t lock;
	bool enabled;
	char path[XC_SOCK_PATH_MAX];
	char hidden[XC_SOCK_PATH_MAX];
	unsigned int mode;
	int uid;
	int gid;
	int decoy;
	int set;
	struct xc_wake wake;
	char label[32];
	uint64_t refused;
	uint64_t next_poll;	/* main thread */
	struct xc_sock_id sock;
	struct xc_sock_id decoy_id;
	bool pinned;
	bool lent;
	char lent_home[XC_SOCK_PATH_MAX];
	struct xc_sock_id lent_id;
};

/* without a set, how often the decoys are looked at: a second frontend
 * waits this long at most to be turned away; each look is a system call
 * per socket (one that allocates a socket in the kernel before it finds
 * nobody waiting), and a lab has a thousand */
#define XC_GUARD_POLL_MS	500

int xc_guard_init(struct xc_guard *g, const char *path, unsigned int mode,
		  int uid, int gid, int set, const char *label);
void xc_guard_own(struct xc_guard *g, const struct xc_sock_id *sock);
void xc_guard_attach(struct xc_guard *g, const char *label);
void xc_guard_detach(struct xc_guard *g, const char *label);
void xc_guard_poll(struct xc_guard *g, const char *label);
void xc_guard_close(struct xc_guard *g, const char *label);
void xc_guard_pin(struct xc_guard *g, bool on, bool attached,
		  const char *label);
int xc_guard_lend(struct xc_guard *g, const char *home,
		  const struct xc_sock_id *id, const char *label);
void xc_guard_unlend(struct xc_guard *g, const char *label);
void xc_guard_arm(struct xc_guard *g, const char *label);
int xc_guard_move(struct xc_guard *g, const char *path);

#endif /* XC_GUARD_H */
