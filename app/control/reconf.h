/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reconf.h - cables added, removed and changed while xcable runs:
 *	      xcablectl add, del and reload, and SIGHUP
 */
#ifndef XC_RECONF_H
#define XC_RECONF_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctlsrv.h"
#include "lcores.h"
#include "pull.h"
#include "sbuf.h"
#include "topology.h"

#define XC_RECONF_REQ_LEN	1024

/**
 * struct xc_plan - one change, as planned and as it is being applied
 *		    (reconf.c; main thread)
 * @add:	the cables that come (new, or the new form of a changed one)
 * @n_add:	how many
 * @slot:	where add[k] was made, -1 while it is not
 * @shown:	add[k] is shown and on an lcore
 * @later:	add[k] is made once the cables that go first are gone: it
 *		takes what one of them holds (a socket, a tag, a tunnel),
 *		or the room they free is needed
 * @del:	for each slot, the cable in it goes
 * @first:	for each slot, it goes before the later cables are made
 * @gone:	for each slot, it went already (@was keeps it, to be made
 *		again if the change fails)
 * @was:	the definitions of the cables that went
 * @tune:	for each slot, only the impairments or the carrier (down =,
 *		flap =) of its cable change: they are set in place
 *		(@tune_to, @tune_carrier), nothing is made again
 * @tune_to:	the new impairments
 * @tune_carrier: the new carrier
 * @keep_slot:	add[k] is the new form of the running cable in this slot
 *		whose ends in @keep stay as they run; -1: add[k] is made
 *		whole in a free slot (and a cable it replaces is in @del)
 * @keep:	the ends of add[k] that stay (bit j: end j)
 * @kept_by:	for each slot, the k of add[k] that keeps its ends, -1
 * @released:	add[k]'s cable let go of its other ends (its old form is
 *		gone, its counters kept; @was keeps its definition)
 * @spare:	the ends of add[k]'s running cable whose ports are kept
 *		aside as they let go, not freed (bit j: end j): a guest
 *		that moved to another host may come back to its port, which
 *		its socket finds again (xc_reconf_change_end())
 * @parked:	the ports of add[k]'s running cable's changed ends, kept
 *		aside and running while their new form is made (ends whose
 *		kind makes an end beside another: a served socket): freed
 *		once the new form runs, taken again by the old form if the
 *		change is undone, so that their guests notice nothing of a
 *		change that failed
 */
struct xc_plan {
	struct xc_cable_def add[XC_MAX_CABLES];
	unsigned int n_add;
	int slot[XC_MAX_CABLES];
	bool shown[XC_MAX_CABLES];
	bool later[XC_MAX_CABLES];
	bool del[XC_MAX_CABLES];
	bool first[XC_MAX_CABLES];
	bool gone[XC_MAX_CABLES];
	struct xc_cable_def was[XC_MAX_CABLES];
	bool tune[XC_MAX_CABLES];
	struct xc_impair_cfg tune_to[XC_MAX_CABLES][2];
	struct xc_carrier_cfg tune_carrier[XC_MAX_CABLES];
	int keep_slot[XC_MAX_CABLES];
	uint8_t keep[XC_MAX_CABLES];
	int kept_by[XC_MAX_CABLES];
	bool released[XC_MAX_CABLES];
	uint8_t spare[XC_MAX_CABLES];
	struct xc_port *parked[XC_MAX_CABLES][2];
};

/**
 * struct xc_reconf - what changing the set of cables at runtime needs
 * @t:		topology, running; its cable slots are indexed like @defs
 * @l:		the lcores
 * @pull:	cable pulling, which must see new cables
 * @defs:	the running cables' definitions, one per slot of @t (empty
 *		for a cable of the DPDK mode, made of the EAL's ports)
 * @opts:	the options xcable started with (defaults of new cables)
 * @config:	the config file to read again, NULL in the simple mode
 * @lock:	readers of the cables outside the main thread (control,
 *		telemetry) hold it for reading; the main thread holds it for
 *		writing while a cable comes or goes. Lcores never take it.
 * @req:	a request of the control thread: its words, space separated
 * @src:	who asked for the change being made, the source its log
 *		lines are limited as (logrl.h): set with @req, or SIGHUP
 * @verb:	the change being made: "add", "del", "reload" (its events
 *		say so; main thread)
 * @pending:	@req is waiting for the main thread (atomic)
 * @done:	how it went: 1 done, -errno failed (atomic; set before
 *		@pending is cleared)
 * @answer:	the main thread's answer, lines of text for xcablectl (what
 *		was done, with the last counters of the cables that went, or
 *		why it failed): the main thread's while @pending, the
 *		control thread's after
 * @out:	where the change being made writes its lines: @answer for
 *		a request of xcablectl, another buffer for SIGHUP (main
 *		thread)
 * @hup:	SIGHUP came: reload (set by the signal handler)
 * @tmp:	room for the definitions a reload reads
 * @tmp_opts:	room for the options it reads
 * @plan:	the change being made
 * @request:	carries out a request that is none of add, del and reload
 *		(migrate: control/migrate.c), its lines to @out: 0, or -errno
 *		with the reason in @why; NULL if none is
 * @request_arg: its argument
 */
struct xc_reconf {
	struct xc_topo *t;
	struct xc_lcores *l;
	struct xc_pull_env *pull;
	struct xc_cable_def *defs;
	const struct xc_opts *opts;
	const char *config;
	pthread_rwlock_t lock;
	char req[XC_RECONF_REQ_LEN];
	char src[XC_CTLSRV_SRC_LEN];
	char verb[16];
	uint32_t pending;
	int done;
	struct xc_sbuf answer;
	struct xc_sbuf *out;
	volatile bool hup;
	struct xc_cable_def tmp[XC_MAX_CABLES];
	struct xc_opts tmp_opts;
	struct xc_plan plan;
	int (*request)(void *arg, int argc, char **argv, struct xc_sbuf *out,
		       char *why, size_t whylen);
	void *request_arg;
};

int xc_reconf_post(void *arg, const char *src, int argc, char *const *argv,
		   char *why, size_t whylen);
int xc_reconf_result(void *arg, struct xc_sbuf *out);
void xc_reconf_housekeeping(struct xc_reconf *r);
int xc_reconf_change_end(struct xc_reconf *r, unsigned int s, unsigned int j,
			 const struct xc_end_def *e, bool spare,
			 const char *src, char *why, size_t whylen);
void xc_reconf_redefine(struct xc_reconf *r, unsigned int s, unsigned int j,
			const struct xc_end_def *e);
void xc_reconf_fini(struct xc_reconf *r);

#endif /* XC_RECONF_H */
