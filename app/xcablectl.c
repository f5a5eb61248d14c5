/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xcablectl - talk to a running xcable over its control socket
 *
 *   xcablectl [-s SOCKET | -p PREFIX] list [--json]
 *   xcablectl ... show CABLE [--json]   (--json: one JSON document, the
 *                 counters under the names of the text, see counters.c)
 *   xcablectl ... impair CABLE [to-right|to-left] SPEC   (SPEC: none, or
 *                 delay=10ms,jitter=1ms,loss=1%,ge=1%/30%,rate=100mbit,
 *                 dup=0.1%,corrupt=0.1%,reorder=25%,gap=5,mtu=1500,
 *                 blackhole,limit=1000)
 *   xcablectl ... clear CABLE
 *   xcablectl ... down CABLE [END] | up CABLE [END]   pull the cable (or
 *		   one end: left, right) out, plug it in
 *   xcablectl ... flap CABLE [END] --down TIME --up TIME --count N|forever
 *		   pull and plug it on a schedule; flap CABLE stop ends it
 *   xcablectl ... add NAME left=SOCK right=SOCK [KEY=VALUE]...   a new
 *		   cable (the keys of a [cable NAME] section)
 *   xcablectl ... del NAME | reload   remove a cable; read the config
 *		   file again and apply the difference
 *   xcablectl ... workers   an xcable that supervises workers (more cables
 *		   than one process holds): each worker's pid, EAL prefix,
 *		   state, cables and restarts
 *   xcablectl ... metrics   every counter, in Prometheus' text format
 *   xcablectl ... capture CABLE[:END]... [-w FILE|-] [-f FILTER]
 *		   [-s SNAPLEN] [-c COUNT] [-a duration:S]   the frames
 *		   crossing the ends, as pcapng (ctlstream.c)
 *   xcablectl ... events [--json]   a line per event, as they happen
 *   xcablectl --extcap-interfaces ...   Wireshark's extcap interface
 *		   (extcap.c; installed as xcable-extcap)
 *
 * The socket is xcable.ctl in xcable's EAL runtime directory
 * (/var/run/dpdk/PREFIX, or $XDG_RUNTIME_DIR/dpdk/PREFIX for other users);
 * -p names the prefix (xcable logs it), -s gives the path (xcable
 * --control PATH). Without either, the one running xcable is found there
 * or among the service's sockets, /run/xcable/NAME.ctl (stderr says which
 * socket; with several, none is picked).
 *
 * -t SEC, --timeout SEC bounds the whole exchange (connect, send, answer):
 * by default 5 s for requests that only read (list, show, workers) and
 * 60 s for those that change the lab (a supervisor that starts a worker
 * for an add takes up to 20 s); for a stream (capture, events), until
 * its first bytes. xcable itself closes a client that has not sent its
 * whole request line within 2 s.
 *
 * Exit status: 0 on success, 2 if xcable refuses the request, cannot be
 * reached or does not answer in time, with the reason on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctlclient.h"
#include "ctlcmd.h"
#include "ctlstream.h"
#include "extcap.h"

#define XC_READ_S	5	/* default --timeout of list, show, workers */
#define XC_CHANGE_S	60	/* ... of requests that change the lab */
#define XC_TIMEOUT_MAX	86400

/**
 * usage() - print how to call, and exit
 * @f:		where: stderr for a usage error, stdout for --help
 * @status:	exit status: XC_USAGE, or 0 for --help
 */
__attribute__((noreturn))
static void usage(FILE *f, int status)
{
	const struct xc_ctl_cmd *c;
	unsigned int i;

	fprintf(f, "usage: xcablectl [-s SOCKET | -p PREFIX] [-t SEC] REQUEST\n"
		"       xcablectl --version | --help\n"
		"REQUEST:\n");
	for (i = 0; (c = xc_ctl_cmd_at(i)) != NULL; i++)
		fprintf(f, "       %s%s%s\n", c->name, c->usage[0] ? " " : "",
			c->usage);
	fprintf(f,
		"SPEC: none, or delay=10ms,jitter=1ms,loss=1%%,ge=1%%/30%%[/100%%],\n"
		"      rate=100mbit,dup=0.1%%,corrupt=0.1%%,reorder=25%%,gap=5,\n"
		"      mtu=1500,blackhole,limit=1000\n"
		"END: left or right\n"
		"FILTER: pcap filter syntax (tcpdump's), one argument: -f 'tcp port 80'\n"
		"capture: pcapng to FILE, or to stdout with -w - (xcablectl capture c1\n"
		"      -w - | wireshark -k -i -); Ctrl-C ends it; -s 0: whole frames\n"
		"-t SEC, --timeout SEC: longest wait for the whole exchange (default\n"
		"      %d s for the requests that change nothing, %d s for the others;\n"
		"      capture, events: for their first bytes)\n",
		XC_READ_S, XC_CHANGE_S);
	exit(status);
}

/**
 * parse_timeout() - the value of --timeout
 * @arg:	it
 *
 * Return: seconds; exits 2 if it is not a number of seconds
 */
static double parse_timeout(const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v > 0 && v <= XC_TIMEOUT_MAX)) {
		fprintf(stderr, "xcablectl: --timeout '%s': expected seconds, more than 0 and at most %d\n",
			arg, XC_TIMEOUT_MAX);
		exit(XC_USAGE);
	}
	return v;
}

/**
 * answer() - print an answer's lines; its last one says how it went
 * @x:		the exchange, answered
 *
 * Return: the exit status: 0 for "ok", else 2 (the reason on stderr)
 */
static int answer(struct ctl *x)
{
	char *last;
	int rc = 0;

	while (x->ans_len && x->ans[x->ans_len - 1] == '\n')
		x->ans[--x->ans_len] = '\0';
	last = strrchr(x->ans, '\n');
	last = last ? last + 1 : x->ans;
	fwrite(x->ans, 1, (size_t)(last - x->ans), stdout);
	if (strcmp(last, "ok") != 0) {
		fprintf(stderr, "xcablectl: %s\n",
			last[0] ? last : "no answer from xcable");
		rc = XC_USAGE;
	}
	fflush(stdout);
	return rc;
}

int main(int argc, char **argv)
{
	static struct ctl x;
	const struct xc_ctl_cmd *cmd;
	char dir[256];
	int i = 1, rc;

	if (xc_extcap_asked(argc, argv))
		return xc_extcap_main(argc, argv);
	if (argc == 2 && (strcmp(argv[1], "--version") == 0 ||
			  strcmp(argv[1], "-V") == 0)) {
		printf("xcablectl %s (xcable's control protocol; built with DPDK %s)\n",
		       XC_VERSION, XC_DPDK_VERSION);
		return 0;
	}
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 ||
			  strcmp(argv[1], "-h") == 0))
		usage(stdout, 0);
	while (i < argc && argv[i][0] == '-') {
		if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
			snprintf(x.path, sizeof(x.path), "%s", argv[i + 1]);
		} else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc) {
			xc_cl_run_dir(dir, sizeof(dir));
			snprintf(x.path, sizeof(x.path), "%s/%s/xcable.ctl",
				 dir, argv[i + 1]);
		} else if ((strcmp(argv[i], "-t") == 0 ||
			    strcmp(argv[i], "--timeout") == 0) && i + 1 < argc) {
			x.timeout = parse_timeout(argv[i + 1]);
		} else if (strncmp(argv[i], "--timeout=", 10) == 0) {
			x.timeout = parse_timeout(argv[i] + 10);
			i++;
			continue;
		} else {
			usage(stderr, XC_USAGE);
		}
		i += 2;
	}
	if (i >= argc)
		usage(stderr, XC_USAGE);
	cmd = xc_ctl_lookup(argv[i]);	/* unknown: refused by xcable */
	if (x.timeout == 0)
		x.timeout = cmd && cmd->changes ? XC_CHANGE_S : XC_READ_S;
	x.end = xc_cl_now() + x.timeout;
	if (x.path[0] == '\0' && xc_cl_find_socket(x.path, sizeof(x.path)))
		return XC_USAGE;
	if (cmd && cmd->op == XC_CTL_CAPTURE)
		return xc_cl_capture(&x, argc - i, argv + i, false);
	if (cmd && cmd->stream)
		return xc_cl_events(&x, argc - i, argv + i);
	if (xc_cl_request(&x, argc - i, argv + i) || xc_cl_exchange(&x))
		return XC_USAGE;
	rc = answer(&x);
	free(x.ans);
	return rc;
}
