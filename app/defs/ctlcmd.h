/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ctlcmd.h - the requests xcablectl makes: the command table and the
 *	      splitting of a request line, shared by xcable's control
 *	      socket, the supervisor's and xcablectl itself
 */
#ifndef XC_CTLCMD_H
#define XC_CTLCMD_H

#include <stdbool.h>
#include <stddef.h>

#define XC_CTL_WORDS	32	/* words of a request */
#define XC_CTL_LINE_MAX	1024	/* a request line, its '\n' included */

/**
 * enum xc_ctl_op - what a request asks for
 * @XC_CTL_LIST:	list [--json]
 * @XC_CTL_SHOW:	show CABLE [--json]
 * @XC_CTL_IMPAIR:	impair CABLE [to-right|to-left] SPEC
 * @XC_CTL_CLEAR:	clear CABLE
 * @XC_CTL_DOWN:	down CABLE [END]
 * @XC_CTL_UP:		up CABLE [END]
 * @XC_CTL_FLAP:	flap CABLE [END] --down T --up T --count N, or
 *			flap CABLE stop
 * @XC_CTL_ADD:		add NAME KEY=VALUE...
 * @XC_CTL_DEL:		del NAME
 * @XC_CTL_RELOAD:	reload
 * @XC_CTL_WORKERS:	workers (a supervisor's only)
 * @XC_CTL_METRICS:	metrics
 * @XC_CTL_CAPTURE:	capture CABLE[:END]... [-s SNAPLEN] [-c COUNT]
 *			[-a duration:S] [-f FILTER]
 * @XC_CTL_EVENTS:	events [--json]
 * @XC_CTL_MIGRATE:	migrate CABLE END [OPTIONS], migrate CABLE cancel
 * @XC_CTL_N_OPS:	how many there are
 */
enum xc_ctl_op {
	XC_CTL_LIST,
	XC_CTL_SHOW,
	XC_CTL_IMPAIR,
	XC_CTL_CLEAR,
	XC_CTL_DOWN,
	XC_CTL_UP,
	XC_CTL_FLAP,
	XC_CTL_ADD,
	XC_CTL_DEL,
	XC_CTL_RELOAD,
	XC_CTL_WORKERS,
	XC_CTL_METRICS,
	XC_CTL_CAPTURE,
	XC_CTL_EVENTS,
	XC_CTL_MIGRATE,
	XC_CTL_N_OPS,
};

/**
 * struct xc_ctl_cmd - one request xcablectl can make
 * @name:	its first word
 * @op:		what it asks for
 * @min_args:	fewest words, the name included
 * @max_args:	most words
 * @cable:	its second word names a cable
 * @json:	it can answer in JSON
 * @changes:	it changes the lab (xcablectl waits longer for its answer)
 * @stream:	its answer is a stream, until one side ends it (capture:
 *		pcapng; events: a line per event)
 * @rest:	the word after which the rest of the line is one word (a
 *		capture's filter, "-f"), or NULL
 * @usage:	its words after the name, for people ("" for none)
 */
struct xc_ctl_cmd {
	const char *name;
	enum xc_ctl_op op;
	int min_args;
	int max_args;
	bool cable;
	bool json;
	bool changes;
	bool stream;
	const char *rest;
	const char *usage;
};

/**
 * struct xc_ctl_req - one request, split
 * @argv:	its words, "--json" left out (pointers into the line)
 * @argc:	how many
 * @json:	"--json" was among them
 */
struct xc_ctl_req {
	char *argv[XC_CTL_WORDS];
	int argc;
	bool json;
};

const struct xc_ctl_cmd *xc_ctl_lookup(const char *name);
const struct xc_ctl_cmd *xc_ctl_cmd_at(unsigned int i);
int xc_ctl_parse(char *line, struct xc_ctl_req *r,
		 const struct xc_ctl_cmd **cmd, char *why, size_t whylen);

#endif /* XC_CTLCMD_H */
