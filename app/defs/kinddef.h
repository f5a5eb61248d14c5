/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * kinddef.h - how each kind of cable end is declared and checked: its own
 *	       options and config keys, the part of an end definition and
 *	       of the options they fill, its checks
 *
 * Folder app/defs/: what is declared (options, the config file, the
 * control commands) and the list of kinds of end, endkinds.def. A new
 * kind of end is one line there; its files go in app/kinds/.
 *
 * A kind of end (endkind.h) has two halves. This one belongs with the
 * parsers (no DPDK): the option table rows of its keys (left-vxlan,
 * vxlan-port...), which the command line, the config file and --help read
 * beside the common ones (options.c), and the checks of a definition that
 * name only the kind's own keys. Its values live in the kind's own part
 * of an end definition (xc_kind_def_area()) and of the options
 * (xc_kind_opts_area()), laid out by a struct of the kind's, so that
 * struct xc_end_def and struct xc_opts hold no kind's fields. The other
 * half, which makes and runs ends, is the kind's struct xc_end_kind.
 *
 * The kinds are listed once, in endkinds.def: the kind NAME defines
 * xc_kind_def_NAME here and xc_kind_NAME there.
 */
#ifndef XC_KINDDEF_H
#define XC_KINDDEF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define XC_KIND_DEF_MAX		128	/* bytes of an end definition a kind has */
#define XC_KIND_OPTS_MAX	64	/* bytes of the options a kind has */

/* the kinds' ids, in endkinds.def's order: xc_end_def's and xc_opts'
 * parts are indexed by them */
enum xc_kind_id {
#define XC_END_KIND(name) XC_KIND_ID_##name,
#include "endkinds.def"
#undef XC_END_KIND
	XC_N_END_KINDS
};

struct xc_end_def;
struct xc_opt_desc;
struct xc_opts;
struct xc_port_def;

/**
 * struct xc_kind_def - the declared half of a kind of cable end
 * @name:	what people call it ("socket", "port"...)
 * @declared:	how a [cable NAME] section declares one, for people
 * @id:		its index (XC_KIND_ID_NAME)
 * @opts:	rows of the option table that are the kind's own: an
 *		XC_OPT_END row's end_off, and any row's opts_off, are
 *		offsets into the kind's parts; NULL for none
 * @n_opts:	how many
 * @ports:	DPDK ports an end of this kind adds to the process (of its
 *		RTE_MAX_ETHPORTS): 1 for an end that has an ethdev of its
 *		own, 0 for one on a [port NAME] or with none
 * @one_process: the ends of this kind in a lab share one thing per
 *		process (a socket): a supervisor puts their cables in one
 *		worker
 * @is:		does a definition declare an end of this kind?
 * @check:	a [cable NAME] section or a simple mode's end was read: are
 *		the end's keys consistent? (@key: filled with the key to
 *		blame, "SIDE-KEY"); 0 or -EINVAL with @why set (may be NULL)
 * @clash:	would two ends of this kind take the same thing (a tunnel,
 *		an interface)? (may be NULL: only the common fields clash)
 * @port_clash: would an end of this kind take frames a [port NAME]
 *		takes too (the interface an af_packet port is on, its
 *		@kiface)? (may be NULL: never; a kind with it has @what,
 *		which the refusal quotes)
 * @what:	the thing an end takes, for people ("tunnel ADDR vni N"),
 *		to say which clashed
 * @simple:	the simple mode's checks of the kind's command line options
 *		(a tunnel needs --vni): 0 or -EINVAL with @err set (may be
 *		NULL)
 * @ready:	make the host ready for an end before a process makes it,
 *		where no process of xcable's may yet (the command line
 *		before the EAL, the supervisor before it changes its lab): a
 *		socket's owner and group exist, its path fits and is free (a
 *		stale socket of xcable's removed); 0 or -errno with @why set
 *		(NULL: nothing to do)
 * @port_claim:	does the kind declare ends on ports of such devargs itself
 *		(a guest's socket: net_vhost)? If so @why says how they
 *		are declared (may be NULL)
 * @vdev:	the virtual device an end of the kind is served by, as the
 *		EAL's --vdev or rte_dev_probe() take it (a socket's
 *		net_vhostIDX,iface=...), @idx unique in the process (may be
 *		NULL: none)
 * @eal_once:	an EAL argument added once when xcable builds them (the
 *		vhost library's log level), or NULL
 * @remote_addr: for a kind whose end reaches another host's xcable (a
 *		tunnel): its key of that host's address ("vxlan"), which
 *		xcablectl migrate --to-remote fills; NULL for others
 * @remote_id:	its key of the link's number there ("vni", migrate's
 *		--vni)
 * @tags:	an end of this kind may carry an outer VLAN tag of its own
 *		(left-tag) without a port: several ends share one thing,
 *		each under its tag (an interface)
 */
struct xc_kind_def {
	const char *name;
	const char *declared;
	enum xc_kind_id id;
	const struct xc_opt_desc *opts;
	unsigned int n_opts;
	unsigned int ports;
	bool one_process;
	bool (*is)(const struct xc_end_def *e);
	int (*check)(const struct xc_end_def *e, const struct xc_opts *o,
		     const char *side, char *key, size_t keylen, char *why,
		     size_t whylen);
	bool (*clash)(const struct xc_end_def *a, const struct xc_end_def *b,
		      const struct xc_opts *o);
	bool (*port_clash)(const struct xc_end_def *e,
			   const struct xc_port_def *pd);
	void (*what)(const struct xc_end_def *e, char *buf, size_t len);
	int (*simple)(const struct xc_opts *o, char *err, size_t errlen);
	int (*ready)(const struct xc_end_def *e, char *why, size_t whylen);
	bool (*port_claim)(const char *devargs, char *why, size_t whylen);
	void (*vdev)(const struct xc_end_def *e, unsigned int idx, char *buf,
		     size_t len);
	const char *eal_once;
	const char *remote_addr;
	const char *remote_id;
	bool tags;
};

#define XC_END_KIND(name) extern const struct xc_kind_def xc_kind_def_##name;
#include "endkinds.def"
#undef XC_END_KIND

extern const struct xc_kind_def *const xc_kind_defs[XC_N_END_KINDS];

const struct xc_kind_def *xc_kind_def_of(const struct xc_end_def *e);
void *xc_kind_def_area(struct xc_end_def *e, enum xc_kind_id k);
const void *xc_kind_def_carea(const struct xc_end_def *e, enum xc_kind_id k);
void *xc_kind_opts_area(struct xc_opts *o, enum xc_kind_id k);
const void *xc_kind_opts_carea(const struct xc_opts *o, enum xc_kind_id k);

#endif /* XC_KINDDEF_H */
