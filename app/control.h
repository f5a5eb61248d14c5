/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * control.h - the runtime control socket that xcablectl talks to
 */
#ifndef XC_CONTROL_H
#define XC_CONTROL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "cable.h"
#include "counters.h"
#include "json.h"

#define XC_CTL_WORDS	32	/* words of a request */

/**
 * struct xc_control - control socket state
 * @path:	socket path
 * @mode:	its permission bits
 * @uid:	its owner, -1 to leave it
 * @gid:	its group, -1 to leave it
 * @cables:	the cables it controls
 * @n_cables:	how many
 * @gone:	the cables removed at runtime (list --json), or NULL
 * @fd:		listening socket, -1 if not started
 * @thread:	the thread serving it
 * @quit:	asks the thread to end
 * @ans:	answer being built
 * @ans_len:	bytes in @ans
 * @js:		a JSON answer, sent before @ans; empty otherwise
 * @why:	reason of a refused request
 * @lock:	held for reading while requests look at the cables (they
 *		come and go at runtime), or NULL
 * @change:	carries out add, del and reload (reconf.c): 0, or -errno
 *		with the reason in its @why; NULL if not available
 * @change_arg:	its argument
 * @wake:	wakes the main thread, which carries out down, up and the
 *		pools of impairments (NULL: it looks on its own, later)
 * @wake_arg:	its argument
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
	pthread_t thread;
	bool quit;
	char ans[65536];
	size_t ans_len;
	struct xc_json js;
	char why[XC_ERR_LEN];
	pthread_rwlock_t *lock;
	int (*change)(void *arg, int argc, char *const *argv, char *why,
		      size_t whylen);
	void *change_arg;
	void (*wake)(void *arg);
	void *wake_arg;
};

int xc_control_start(struct xc_control *c, char *err, size_t errlen);
void xc_control_stop(struct xc_control *c);

#endif /* XC_CONTROL_H */
