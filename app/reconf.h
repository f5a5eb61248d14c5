/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reconf.h - cables added and removed while xcable runs: xcablectl add,
 *	      del and reload, and SIGHUP
 */
#ifndef XC_RECONF_H
#define XC_RECONF_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lcores.h"
#include "pull.h"
#include "sbuf.h"
#include "topology.h"

#define XC_RECONF_REQ_LEN	1024

/**
 * struct xc_reconf - what changing the set of cables at runtime needs
 * @t:		topology, running; its cable slots are indexed like @defs
 * @l:		the lcores
 * @pull:	cable pulling, which must see new cables
 * @defs:	the running cables' definitions, one per slot of @t
 * @end_uid:	owners of their ends' sockets, one per slot
 * @end_gid:	their groups
 * @opts:	the options xcable started with (defaults of new cables)
 * @config:	the config file to read again, NULL in the simple mode
 * @lock:	readers of the cables outside the main thread (control,
 *		telemetry) hold it for reading; the main thread holds it for
 *		writing while a cable comes or goes. Lcores never take it.
 * @req:	a request of the control thread: its words, space separated
 * @pending:	@req is waiting for the main thread (atomic)
 * @done:	how it went: 1 done, -errno failed (atomic; set before
 *		@pending is cleared)
 * @ans:	the main thread's answer, lines of text for xcablectl (what
 *		was done, or why it failed): the main thread's while
 *		@pending, the control thread's after
 * @hup:	SIGHUP came: reload (set by the signal handler)
 * @tmp:	room for the definitions a reload reads
 * @tmp_opts:	room for the options it reads
 */
struct xc_reconf {
	struct xc_topo *t;
	struct xc_lcores *l;
	struct xc_pull_env *pull;
	struct xc_cable_def *defs;
	int (*end_uid)[2];
	int (*end_gid)[2];
	const struct xc_opts *opts;
	const char *config;
	pthread_rwlock_t lock;
	char req[XC_RECONF_REQ_LEN];
	uint32_t pending;
	int done;
	struct xc_sbuf ans;
	volatile bool hup;
	struct xc_cable_def tmp[XC_MAX_CABLES];
	struct xc_opts tmp_opts;
};

int xc_reconf_post(void *arg, int argc, char *const *argv, char *why,
		   size_t whylen);
int xc_reconf_result(void *arg, struct xc_sbuf *out);
void xc_reconf_housekeeping(struct xc_reconf *r);

#endif /* XC_RECONF_H */
