/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * control.h - the runtime control socket that xcablectl talks to
 *
 * Folder app/control/: the control socket and its requests, changes at
 * runtime, counters, metrics, telemetry, capture. It shows every kind
 * through the ends' and hubs' ops (cable.h): a new kind needs no line
 * here.
 */
#ifndef XC_CONTROL_H
#define XC_CONTROL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "cable.h"
#include "capture.h"
#include "counters.h"
#include "ctlsrv.h"
#include "dropwatch.h"
#include "json.h"
#include "sockpath.h"
#include "stream.h"

/**
 * struct xc_control - control socket state
 * @path:	socket path
 * @mode:	its permission bits
 * @uid:	its owner, -1 to leave it
 * @gid:	its group, -1 to leave it
 * @cables:	the cables it controls
 * @n_cables:	how many
 * @gone:	the cables removed at runtime (list --json), or NULL
 * @fd:		listening socket (the engine's), -1 if not started
 * @id:		its device and inode: it is removed at stop only if the
 *		path still holds it
 * @srv:	the engine serving it (ctlsrv.c)
 * @thread:	the thread serving it
 * @quit:	asks the thread to end
 * @lock:	held for reading while requests look at the cables (they
 *		come and go at runtime), or NULL
 * @change_post: posts add, del, reload and migrate to the main thread
 *		(reconf.c xc_reconf_post(), with who asked, for the log's
 *		rate limit: xc_ctlsrv_source()): 0, or -errno with the
 *		reason in its @why; NULL if not available
 * @change_result: how the posted change went (xc_reconf_result()): 0
 *		pending, 1 done, -errno failed; its answer appended to @out
 * @change_arg:	their argument
 * @wake:	wakes the main thread, which carries out down, up and the
 *		pools of impairments (NULL: it looks on its own, later)
 * @wake_arg:	its argument
 * @streams:	the clients whose answer is a stream, served by the stream
 *		thread (stream.c)
 * @caps:	the captures (capture.c); its lcore callbacks are set by
 *		the caller
 * @drops:	drops starting and stopping, for the event listeners (the
 *		stream thread's)
 */
struct xc_control {
	char path[XC_SOCK_PATH_MAX];
	unsigned int mode;
	int uid;
	int gid;
	struct xc_cable *cables;
	unsigned int n_cables;
	const struct xc_gone_list *gone;
	int fd;
	struct xc_sock_id id;
	struct xc_ctlsrv srv;
	pthread_t thread;
	bool quit;
	pthread_rwlock_t *lock;
	int (*change_post)(void *arg, const char *src, int argc,
			   char *const *argv, char *why, size_t whylen);
	int (*change_result)(void *arg, struct xc_sbuf *out);
	void *change_arg;
	void (*wake)(void *arg);
	void *wake_arg;
	struct xc_streams streams;
	struct xc_captures caps;
	struct xc_dropwatch drops;
};

int xc_control_start(struct xc_control *c, char *err, size_t errlen);
void xc_control_stop(struct xc_control *c);

int xc_control_path(struct xc_control *c, const char *given, const char *dir);

#endif /* XC_CONTROL_H */
