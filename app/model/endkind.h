/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * endkind.h - the kinds of cable end a definition declares, and the life
 *	       cycle of an end, the same at start-up and at runtime
 *
 * A cable end is made from its definition (struct xc_end_def) by the kind
 * that definition names: a vhost-user socket (a vhost port of its own), a
 * [port NAME] alone, a member of the trunk a [port NAME] becomes under a
 * tag, a VXLAN tunnel. Each kind says through struct xc_end_kind how an
 * end of it is checked, made, started, stopped and freed; topology.c and
 * reconf.c run that life cycle and name no kind, so a new kind is a file
 * of its own and a line in endkinds.def.
 *
 *   check()  can the end be made now, beside what runs? (runtime changes;
 *            at start-up the checks before the EAL did it)
 *   make()   the end exists: its port found or probed, its member or
 *            tunnel added where a shared port or socket sorts frames to
 *            it; nothing forwards it yet
 *   start()  its port configured and started, with the cable's pool
 *            -- lcores forward it --
 *   stop()   before the lcores let go of it: nothing more is sorted to it
 *            (a member's tag, a tunnel's VNI), so its queue stays empty
 *   free()   after they let go: its port unplugged or stopped, what it
 *            holds dropped (and counted), its resources free again
 *
 * Every op runs in the main thread. make() may fail half-way: it leaves
 * nothing behind. free() undoes make() and start() from wherever they got
 * to, so that a change that fails leaves the lab as it was.
 */
#ifndef XC_ENDKIND_H
#define XC_ENDKIND_H

#include <stdbool.h>
#include <stddef.h>

#include "kinddef.h"

struct xc_cable;
struct xc_end;
struct xc_end_def;
struct xc_port;
struct xc_topo;

/**
 * struct xc_end_kind - one kind of cable end, as definitions declare it
 * @def:	how an end of the kind is declared and checked (kinddef.h)
 * @check:	can the end be made now, beside the running cables? (NULL:
 *		make() finds out, and leaves nothing behind if it cannot)
 *		@freed: a cable being removed holds what the end takes (its
 *		socket, tag or tunnel), which is free once that one is gone
 * @make:	make end @j of cable @c from @e; on error nothing is left
 * @start:	configure and start what the end needs (NULL: nothing)
 * @stop:	nothing more is sorted to the end (NULL: nothing to do)
 * @free:	free what make() and start() made
 * @flush:	at shutdown, the lcores stopped: drop what the kind holds
 *		for its ends (queues of a shared port or socket), counted
 *		(NULL: nothing)
 * @tidy:	a runtime change is over (struct xc_topo's changing): let
 *		go of what the kind kept for it, a shared port or socket
 *		that no end has now (NULL: nothing kept)
 * @fini:	free the kind's own state in the topology, everything
 *		stopped (NULL: none)
 * @standby:	a port for the next frontend of end @e's guest, while the
 *		guest moves to another QEMU (control/migrate.c): made as
 *		the end's own from its definition @def, but on @sock (NULL:
 *		a standby name beside the end's own socket), configured and
 *		started on the cable's pool, on no lcore, unguarded (struct
 *		xc_port_move); 0 with *@out set, or -errno with nothing
 *		left behind. NULL: the kind's guests cannot move
 * @beside:	can an end of definition @e be made while an end of a
 *		cable that goes still holds what it takes? Then make()
 *		makes it beside that one, out of the way of its guest (a
 *		served socket: bound at a hidden name), and settle() puts
 *		it in its place once that cable is gone: a change is then
 *		made whole before anything goes (reconf.c). NULL: no, the
 *		end is made once the other is gone
 * @settle:	the ends end @e was made beside are gone: it takes their
 *		place (a socket its path, where its guest reconnects, a
 *		trunk member its tag); @def is its definition. NULL:
 *		nothing to do
 * @parks:	an end's port is its own, and when the end changes, the
 *		port can stay aside, running, while the new form is made
 *		beside it (where the new form needs what it holds, @beside
 *		says whether it can be), and be taken again if the change
 *		fails (reconf.c park(); a socket). False: the changed end is
 *		let go of first (a trunk member, whose port others share;
 *		what such ends share stays up through the change: @tidy)
 *
 * A kind keeps what its ends share (a port's trunk, the tunnel socket) in
 * its slot of the topology, xc_kind_state().
 */
struct xc_end_kind {
	const struct xc_kind_def *def;
	int (*check)(struct xc_topo *t, const struct xc_end_def *e,
		     bool freed, char *why, size_t whylen);
	int (*make)(struct xc_topo *t, struct xc_cable *c, unsigned int j,
		    const struct xc_end_def *e, char *err, size_t errlen);
	int (*start)(struct xc_topo *t, struct xc_end *e, char *err,
		     size_t errlen);
	void (*stop)(struct xc_topo *t, struct xc_end *e);
	void (*free)(struct xc_topo *t, struct xc_end *e);
	void (*flush)(struct xc_topo *t);
	void (*tidy)(struct xc_topo *t);
	void (*fini)(struct xc_topo *t);
	int (*standby)(struct xc_topo *t, struct xc_end *e,
		       const struct xc_end_def *def, const char *sock,
		       struct xc_port **out, char *err, size_t errlen);
	bool (*beside)(const struct xc_end_def *e);
	void (*settle)(struct xc_topo *t, struct xc_end *e,
		       const struct xc_end_def *def);
	bool parks;
};

/* the kinds: xc_kind_NAME, one file each, listed in endkinds.def */
#define XC_END_KIND(name) extern const struct xc_end_kind xc_kind_##name;
#include "endkinds.def"
#undef XC_END_KIND


extern const struct xc_end_kind *const xc_end_kinds[];
extern const unsigned int xc_n_end_kinds;

const struct xc_end_kind *xc_end_kind_of(const struct xc_end_def *e);
void **xc_kind_state(struct xc_topo *t, const struct xc_end_kind *k);
void xc_kinds_flush(struct xc_topo *t);
void xc_kinds_tidy(struct xc_topo *t);
void xc_kinds_fini(struct xc_topo *t);

/* what the kinds whose ends are on a port share (end.c) */
void xc_kind_set_port(struct xc_cable *c, unsigned int j, struct xc_port *p,
		      const char *label);
void xc_kind_eal_port(struct xc_cable *c, unsigned int j, struct xc_port *p);
bool xc_kind_beside_always(const struct xc_end_def *e);
void xc_kind_unused_port(struct xc_topo *t, struct xc_port *p);
void xc_kind_tidy_port(struct xc_port *p, bool unused);
int xc_kind_start_port(struct xc_topo *t, struct xc_end *e, char *err,
		       size_t errlen);
struct rte_mempool;
int xc_kind_start_port_on(struct xc_topo *t, struct xc_port *p,
			  struct rte_mempool *pool, char *err, size_t errlen);
struct xc_port *xc_kind_named_port(struct xc_topo *t, const struct xc_end_def *e,
				 char *err, size_t errlen);

#endif /* XC_ENDKIND_H */
