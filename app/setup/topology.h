/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topology.h - which ports make which cables, and bringing them up and
 *		down as a whole
 *
 * Folder app/setup/: building cables from their definitions through the
 * kinds' life cycle (endkind.h), placing directions on lcores, the command
 * line. A kind's state lives in its slot of struct xc_topo
 * (xc_kind_state()), its code in app/kinds/.
 */
#ifndef XC_TOPOLOGY_H
#define XC_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_build_config.h>

#include "cable.h"
#include "endkind.h"
#include "options.h"
#include "pool.h"

/**
 * struct xc_topo - the ports and cables xcable runs (main thread)
 * @opts:	parsed options (input)
 * @defs:	cables declared by --left/--right or the config file, one
 *		per cable slot (input; at runtime reconf.c writes the slots
 *		of cables it adds; none in the DPDK mode, where --cable or
 *		the port order pairs ports)
 * @n_defs:	number of @defs
 * @sock_uid:	owner of the sockets xcable creates, -1 to leave it (input)
 * @sock_gid:	their group, -1 to leave it (input)
 * @n_ports:	number of port slots used (ports made at runtime go in the
 *		first free slot)
 * @ports:	all of them, indexed by port id
 * @n_cables:	number of cables
 * @cables:	the cables
 * @kind_state:	each end kind's own (endkind.h: xc_kind_state())
 * @next_vdev:	number of the next vhost device created at runtime
 *		(net_vhostN: unique in the process)
 * @wake_set:	epoll set of the fds ports give the main thread (each with
 *		a struct xc_wake: a guard's decoy socket, which a second
 *		frontend makes readable); the main thread sleeps on it too;
 *		-1 if it could not be made (the kinds then poll); the
 *		caller sets -1 before xc_topo_build()
 * @pools:	each cable's pools, [0] for frames, [1] for indirect mbufs
 *		(segments); cable->pool and ->ipool are their mempools
 * @pool_gen:	pools made so far: their names are unique (a retired pool
 *		keeps its name until it is freed)
 * @retired:	pools of cables that went while some of their mbufs were
 *		still out (in a NIC's transmit ring): freed once all are back
 * @n_retired:	how many
 * @notify:	what ports made at runtime call on a link or queue change
 *		(the lcores' wake-up, set when they are wired), or NULL
 * @notify_arg:	its argument
 * @gone:	the cables removed at runtime, with their last counters
 * @changing:	a runtime change is being made (reconf.c): the kinds keep
 *		what their ends share (a [port]'s or a trunk's port
 *		started, the tunnel socket open) when its last end goes,
 *		for the ends the change makes again, and let go of it in
 *		xc_kinds_tidy() once the change is over (main thread)
 */
struct xc_topo {
	const struct xc_opts *opts;
	const struct xc_cable_def *defs;
	unsigned int n_defs;
	int sock_uid;
	int sock_gid;
	uint16_t n_ports;
	struct xc_port *ports;
	unsigned int n_cables;
	struct xc_cable cables[XC_MAX_CABLES];
	void *kind_state[XC_N_END_KINDS];
	unsigned int next_vdev;
	int wake_set;
	struct xc_pool pools[XC_MAX_CABLES][2];
	unsigned int pool_gen;
	struct xc_pool retired[4 * XC_MAX_CABLES];
	unsigned int n_retired;
	void (*notify)(void *arg);
	void *notify_arg;
	struct xc_gone_list gone;
	bool changing;
};

int xc_topo_build(struct xc_topo *t, char *err, size_t errlen);
int xc_topo_start(struct xc_topo *t, char *err, size_t errlen);
void xc_topo_drain(struct xc_topo *t);
void xc_topo_free(struct xc_topo *t);
int xc_topo_add_cable(struct xc_topo *t, unsigned int i,
		      const struct xc_cable_def *d, bool faults, char *err,
		      size_t errlen);
void xc_topo_show_cable(struct xc_topo *t, unsigned int i, bool on);
void xc_topo_stop_cable(struct xc_topo *t, unsigned int i);
void xc_topo_del_cable(struct xc_topo *t, unsigned int i, struct xc_gone *g);
void xc_topo_release_ends(struct xc_topo *t, unsigned int i,
			  unsigned int keep, struct xc_gone *g);
int xc_topo_remake_ends(struct xc_topo *t, unsigned int i,
			const struct xc_cable_def *d, unsigned int keep,
			bool faults, char *err, size_t errlen);
struct xc_port *xc_topo_new_port(struct xc_topo *t, const char *devargs,
				 const char *name, char *err, size_t errlen);
void xc_topo_free_port(struct xc_topo *t, struct xc_port *p, bool plugged);
bool xc_topo_port_held(const struct xc_topo *t, const struct xc_port *p);
bool xc_topo_pools(struct xc_topo *t);

#endif /* XC_TOPOLOGY_H */
