/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * extcap.c - Wireshark's extcap interface: every cable end of every
 *	      xcable this user reaches, as capture interfaces
 *
 * Wireshark (and tshark) run each program of their extcap folder with
 * --extcap-interfaces; xcable's, xcable-extcap, is a script that runs
 * xcablectl with the arguments it got. xcablectl looks for the running
 * xcables as it always does (the EAL runtime directories, the service's
 * /run/xcable) and lists each end of each of their cables:
 *
 *   interface {value=xcable:PREFIX:CABLE:END}{display=xcable PREFIX: ...}
 *
 * (PREFIX: the xcable's EAL prefix, or the service's name). Then, for a
 * capture,
 *
 *   --capture --extcap-interface xcable:PREFIX:CABLE:END --fifo PATH
 *   [--extcap-capture-filter FILTER] [--snaplen N] [--filter FILTER]
 *
 * is xcablectl capture CABLE:END -w PATH on that xcable's socket (the
 * capture filter of Wireshark's box, or the interface's own option; both
 * given, frames must pass both). xcable:CABLE:END stands for the end of
 * the one xcable running. A capture filter given alone (Wireshark checks
 * it as it is typed) is compiled with libpcap: nothing on stdout if it is
 * good, the reason if not.
 */
#include <pcap/pcap.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctlclient.h"
#include "ctlstream.h"
#include "extcap.h"
#include "json.h"

#define XC_EXTCAP_S	3	/* longest wait for an xcable's list */

/**
 * struct extcap_args - what Wireshark asked
 * @what:	"interfaces", "dlts", "config", "capture", or "filter"
 * @iface:	--extcap-interface
 * @fifo:	--fifo
 * @filter:	--extcap-capture-filter
 * @own:	--filter (the interface's option)
 * @snaplen:	--snaplen
 */
struct extcap_args {
	const char *what;
	const char *iface;
	const char *fifo;
	const char *filter;
	const char *own;
	const char *snaplen;
};

/**
 * xc_extcap_asked() - is xcablectl run by Wireshark?
 * @argc:	argument count
 * @argv:	arguments
 *
 * Return: true if an argument is one of extcap's
 */
bool xc_extcap_asked(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (strncmp(argv[i], "--extcap-", 9) == 0 ||
		    strcmp(argv[i], "--capture") == 0)
			return true;
	return false;
}

/**
 * id_of() - what an xcable is called in its interfaces: the EAL prefix of
 *	     DIR/PREFIX/xcable.ctl, the NAME of /run/xcable/NAME.ctl
 * @path:	its control socket
 * @buf:	filled
 * @len:	size of @buf
 */
static void id_of(const char *path, char *buf, size_t len)
{
	const char *b = strrchr(path, '/'), *d;
	size_t n;

	b = b ? b + 1 : path;
	if (strcmp(b, "xcable.ctl") == 0 && b - path >= 2) {
		for (d = b - 2; d > path && *d != '/'; d--)
			;
		d += *d == '/';
		snprintf(buf, len, "%.*s", (int)(b - 1 - d), d);
		return;
	}
	n = strlen(b);
	snprintf(buf, len, "%.*s", (int)(n > 4 ? n - 4 : n), b);
}

/**
 * list_one() - the interfaces of one xcable: two per cable
 * @path:	its control socket
 */
static void list_one(const char *path)
{
	static struct ctl x;
	struct xc_json_member m, c;
	char id[256], name[256];
	const char *p, *q;

	free(x.ans);
	memset(&x, 0, sizeof(x));
	snprintf(x.path, sizeof(x.path), "%s", path);
	x.quiet = true;
	x.timeout = XC_EXTCAP_S;
	x.end = xc_cl_now() + x.timeout;
	if (xc_cl_request(&x, 2, (char *[]){ "list", "--json" }) ||
	    xc_cl_exchange(&x) || x.ans == NULL)
		return;	/* one that does not answer is not listed */
	id_of(path, id, sizeof(id));
	for (p = x.ans; xc_json_next_member(&p, &m);) {
		if (!xc_json_key_is(&m, "cables") || m.val[0] != '{')
			continue;
		for (q = m.val; xc_json_next_member(&q, &c);) {
			snprintf(name, sizeof(name), "%.*s", (int)c.klen - 2,
				 c.key + 1);
			if (strpbrk(name, "{}\\\"") != NULL)
				continue;	/* no name Wireshark can take */
			printf("interface {value=xcable:%s:%s:left}{display=xcable %s: cable %s, left end}\n",
			       id, name, id, name);
			printf("interface {value=xcable:%s:%s:right}{display=xcable %s: cable %s, right end}\n",
			       id, name, id, name);
		}
	}
}

/**
 * interfaces() - --extcap-interfaces: this extcap, and every end
 *
 * Return: 0
 */
static int interfaces(void)
{
	static struct xc_found f;
	int i;

	printf("extcap {version=%s}{help=man:xcablectl(1)}{display=xcable cable ends}\n",
	       XC_VERSION);
	xc_cl_find_all(&f);
	for (i = 0; i < f.n && i < XC_FOUND_MAX; i++)
		list_one(f.path[i]);
	return 0;
}

/**
 * check_filter() - a capture filter alone: compile it as xcable will
 * @filter:	the filter
 *
 * Return: 0 (its error, if any, on stdout: how Wireshark wants it)
 */
static int check_filter(const char *filter)
{
	struct bpf_program prog;
	pcap_t *pc = pcap_open_dead(DLT_EN10MB, 262144);

	if (pc == NULL)
		return 0;
	if (pcap_compile(pc, &prog, filter, 1, PCAP_NETMASK_UNKNOWN))
		printf("%s\n", pcap_geterr(pc));
	else
		pcap_freecode(&prog);
	pcap_close(pc);
	return 0;
}

/**
 * capture() - --capture: xcablectl capture of the end, into the fifo
 * @a:		what Wireshark asked
 *
 * Return: the exit status
 */
static int capture(const struct extcap_args *a)
{
	static struct ctl x;
	static struct xc_found f;
	char id[256], target[512], both[2 * XC_CTL_LINE_MAX];
	const char *end, *cable, *rest, *filter;
	char *words[10];
	int n = 0, i;

	rest = a->iface ? a->iface + 7 : NULL;	/* past "xcable:" */
	end = rest ? strrchr(rest, ':') : NULL;
	if (a->fifo == NULL || a->iface == NULL ||
	    strncmp(a->iface, "xcable:", 7) || end == NULL) {
		fprintf(stderr, "xcable-extcap: --capture needs --fifo PATH and --extcap-interface xcable:PREFIX:CABLE:END\n");
		return XC_USAGE;
	}
	for (cable = end; cable > rest && cable[-1] != ':'; cable--)
		;
	snprintf(target, sizeof(target), "%.*s:%s", (int)(end - cable),
		 cable, end + 1);
	snprintf(id, sizeof(id), "%.*s", (int)(cable > rest ?
		 cable - 1 - rest : 0), rest);
	if (id[0] == '\0' && xc_cl_find_socket(x.path, sizeof(x.path)))
		return XC_USAGE;
	xc_cl_find_all(&f);
	for (i = 0; id[0] && i < f.n && i < XC_FOUND_MAX; i++) {
		char other[256];

		id_of(f.path[i], other, sizeof(other));
		if (strcmp(other, id) == 0)
			snprintf(x.path, sizeof(x.path), "%s", f.path[i]);
	}
	if (x.path[0] == '\0') {
		fprintf(stderr, "xcable-extcap: no running xcable %s\n", id);
		return XC_USAGE;
	}
	filter = a->filter && a->filter[0] ? a->filter : a->own;
	if (a->filter && a->filter[0] && a->own && a->own[0]) {
		snprintf(both, sizeof(both), "(%s) and (%s)", a->filter, a->own);
		filter = both;
	}
	words[n++] = (char *)"capture";
	words[n++] = target;
	words[n++] = (char *)"-w";
	words[n++] = (char *)a->fifo;
	if (a->snaplen && a->snaplen[0]) {
		words[n++] = (char *)"-s";
		words[n++] = (char *)a->snaplen;
	}
	if (filter && filter[0]) {
		words[n++] = (char *)"-f";
		words[n++] = (char *)filter;
	}
	x.timeout = XC_EXTCAP_S;
	x.end = xc_cl_now() + x.timeout;
	return xc_cl_capture(&x, n, words, true);
}

/**
 * xc_extcap_main() - xcablectl run by Wireshark (xc_extcap_asked())
 * @argc:	argument count
 * @argv:	arguments
 *
 * Return: the exit status
 */
int xc_extcap_main(int argc, char **argv)
{
	static const struct { const char *opt; size_t off; } val[] = {
		{ "--extcap-interface", offsetof(struct extcap_args, iface) },
		{ "--fifo", offsetof(struct extcap_args, fifo) },
		{ "--extcap-capture-filter", offsetof(struct extcap_args, filter) },
		{ "--filter", offsetof(struct extcap_args, own) },
		{ "--snaplen", offsetof(struct extcap_args, snaplen) },
	};
	struct extcap_args a = { 0 };
	unsigned int k;
	int i;

	for (i = 1; i < argc; i++) {
		for (k = 0; k < sizeof(val) / sizeof(val[0]); k++)
			if (strcmp(argv[i], val[k].opt) == 0 && i + 1 < argc)
				*(const char **)((char *)&a + val[k].off) =
					argv[++i];
		if (strcmp(argv[i], "--extcap-interfaces") == 0)
			a.what = "interfaces";
		else if (strcmp(argv[i], "--extcap-dlts") == 0)
			a.what = "dlts";
		else if (strcmp(argv[i], "--extcap-config") == 0)
			a.what = "config";
		else if (strcmp(argv[i], "--capture") == 0)
			a.what = "capture";
	}
	if (a.what == NULL && a.filter)
		return check_filter(a.filter);
	if (a.what == NULL) {
		fprintf(stderr, "xcable-extcap: expected --extcap-interfaces, --extcap-dlts, --extcap-config or --capture\n");
		return XC_USAGE;
	}
	if (strcmp(a.what, "interfaces") == 0)
		return interfaces();
	if (strcmp(a.what, "dlts") == 0) {
		printf("dlt {number=1}{name=EN10MB}{display=Ethernet}\n");
		return 0;
	}
	if (strcmp(a.what, "config") == 0) {
		printf("arg {number=0}{call=--snaplen}{display=Snap length}{tooltip=Bytes of each frame kept (0: whole frames)}{type=integer}{range=0,262144}{default=262144}\n");
		printf("arg {number=1}{call=--filter}{display=Capture filter}{tooltip=Frames to keep, in pcap filter syntax (tcpdump's)}{type=string}\n");
		return 0;
	}
	return capture(&a);
}
