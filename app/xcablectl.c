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
 * for an add takes up to 20 s). xcable itself closes a client that has
 * not sent its whole request line within 2 s.
 *
 * Exit status: 0 on success, 2 if xcable refuses the request, cannot be
 * reached or does not answer in time, with the reason on stderr.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "ctlcmd.h"

#define XC_USAGE 2
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
		"-t SEC, --timeout SEC: longest wait for the whole exchange (default\n"
		"      %d s for the requests that change nothing, %d s for the others)\n",
		XC_READ_S, XC_CHANGE_S);
	exit(status);
}

/**
 * run_dir() - the EAL runtime directory's parent for this user
 * @buf:	filled
 * @len:	size of @buf
 */
static void run_dir(char *buf, size_t len)
{
	const char *x = getenv("XDG_RUNTIME_DIR");

	if (getuid() == 0 || x == NULL)
		snprintf(buf, len, "/var/run/dpdk");
	else
		snprintf(buf, len, "%s/dpdk", x);
}

/* the Debian package's service puts its control sockets here
 * (config/xcable@.service.in: --control /run/xcable/NAME.ctl) */
#define XC_SERVICE_DIR	"/run/xcable"

/**
 * struct found - the control sockets found by looking
 * @n:		how many
 * @first:	the first one's path
 * @all:	every path, ", " between them (cut short if very many)
 */
struct found {
	int n;
	char first[256 + 256 + 16];
	char all[1024];
};

/**
 * found_add() - count a path if it is a socket
 * @f:		what was found so far
 * @path:	a candidate
 */
static void found_add(struct found *f, const char *path)
{
	size_t used = strlen(f->all);
	struct stat st;

	if (stat(path, &st) || !S_ISSOCK(st.st_mode))
		return;
	if (f->n++ == 0)
		snprintf(f->first, sizeof(f->first), "%s", path);
	if (used + strlen(path) + 8 < sizeof(f->all))
		snprintf(f->all + used, sizeof(f->all) - used, "%s%s",
			 used ? ", " : "", path);
	else if (!strstr(f->all, ", ..."))
		snprintf(f->all + used, sizeof(f->all) - used, ", ...");
}

/**
 * found_scan() - add the control sockets of one directory
 * @f:		what was found so far
 * @dir:	the directory
 * @sub:	each entry's socket inside it ("xcable.ctl" for an EAL
 *		runtime directory's), or NULL: the entries named *.ctl
 */
static void found_scan(struct found *f, const char *dir, const char *sub)
{
	char path[256 + 256 + 16];
	struct dirent *e;
	size_t n;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d)) != NULL) {
		n = strlen(e->d_name);
		if (e->d_name[0] == '.' ||
		    (!sub && (n < 5 || strcmp(e->d_name + n - 4, ".ctl"))))
			continue;
		snprintf(path, sizeof(path), "%s/%s%s%s", dir, e->d_name,
			 sub ? "/" : "", sub ? sub : "");
		found_add(f, path);
	}
	if (d)
		closedir(d);
}

/**
 * find_socket() - the control socket of the one running xcable: in an
 *		   EAL runtime directory (xcable without --control) or the
 *		   service's directory /run/xcable; says which on stderr
 * @out:	filled with its path
 * @len:	size of @out
 *
 * Return: 0, or -ENOENT / -EEXIST (none or several) with a message printed
 */
static int find_socket(char *out, size_t len)
{
	struct found f = { 0 };
	char dir[256];

	run_dir(dir, sizeof(dir));
	found_scan(&f, dir, "xcable.ctl");
	found_scan(&f, XC_SERVICE_DIR, NULL);
	if (f.n == 1) {
		snprintf(out, len, "%s", f.first);
		fprintf(stderr, "xcablectl: the running xcable's socket is %s\n",
			f.first);
		return 0;
	}
	if (f.n == 0) {
		fprintf(stderr, "xcablectl: no running xcable found (no xcable.ctl in %s/*, no %s/*.ctl): give -s SOCKET or -p PREFIX\n",
			dir, XC_SERVICE_DIR);
		return -ENOENT;
	}
	fprintf(stderr, "xcablectl: %d xcables are running (%s): give -s SOCKET or -p PREFIX\n",
		f.n, f.all);
	return -EEXIST;
}

/**
 * struct ctl - one exchange with xcable
 * @path:	its control socket
 * @req:	the request line, newline included
 * @req_len:	its length
 * @timeout:	longest wait for the whole exchange, seconds
 * @end:	when it is over (CLOCK_MONOTONIC, seconds)
 * @ans:	the answer, NUL-terminated
 * @ans_len:	its length
 * @ans_cap:	bytes allocated for it
 */
struct ctl {
	char path[256 + 256 + 16];
	char req[XC_CTL_LINE_MAX * 2];
	size_t req_len;
	double timeout;
	double end;
	char *ans;
	size_t ans_len;
	size_t ans_cap;
};

/**
 * now_s() - seconds on CLOCK_MONOTONIC
 *
 * Return: the time
 */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/**
 * timed_out() - say that xcable did not answer in time, exit 2
 * @x:		the exchange
 */
__attribute__((noreturn))
static void timed_out(const struct ctl *x)
{
	fprintf(stderr, "xcablectl: no answer from xcable within %g s\n",
		x->timeout);
	exit(XC_USAGE);
}

/**
 * wait_fd() - wait until the socket is ready, within the exchange's time
 * @x:		the exchange
 * @fd:		the socket
 * @events:	POLLIN or POLLOUT
 */
static void wait_fd(const struct ctl *x, int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };
	double left;
	int n;

	do {
		left = x->end - now_s();
		if (left <= 0)
			timed_out(x);
		n = poll(&p, 1, (int)(left * 1000) + 1);
	} while (n == 0 || (n < 0 && errno == EINTR));
}

/**
 * connect_to() - connect to xcable's socket, within the exchange's time
 *		  (a connect waits while xcable's listen backlog is full)
 * @x:		the exchange
 *
 * Return: the connected, non-blocking socket; exits 2 on failure
 */
static int connect_to(const struct ctl *x)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	double left = x->end - now_s();
	struct timeval tv = {
		.tv_sec = (time_t)left,
		.tv_usec = (suseconds_t)((left - (double)(time_t)left) * 1e6),
	};
	int fd;

	if (strlen(x->path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "xcablectl: socket path too long: %s\n",
			x->path);
		exit(XC_USAGE);
	}
	strcpy(sa.sun_path, x->path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && tv.tv_sec == 0 && tv.tv_usec == 0)
		tv.tv_usec = 1;
	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	while (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN)	/* its backlog stayed full */
			timed_out(x);
		fprintf(stderr, "xcablectl: cannot reach xcable at %s: %s\n",
			x->path, strerror(errno));
		exit(XC_USAGE);
	}
	if (fd < 0 || fcntl(fd, F_SETFL, O_NONBLOCK) < 0) {
		fprintf(stderr, "xcablectl: socket: %s\n", strerror(errno));
		exit(XC_USAGE);
	}
	return fd;
}

/**
 * exchange() - send the request, read the whole answer (until xcable
 *		closes), within the exchange's time; exits 2 on failure
 * @x:		the exchange; its answer is filled
 */
static void exchange(struct ctl *x)
{
	int fd = connect_to(x);
	size_t sent = 0;
	ssize_t n;
	char *b;

	while (sent < x->req_len) {
		wait_fd(x, fd, POLLOUT);
		n = send(fd, x->req + sent, x->req_len - sent, MSG_NOSIGNAL);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0) {
			fprintf(stderr, "xcablectl: cannot send: %s\n",
				strerror(errno));
			exit(XC_USAGE);
		}
		sent += (size_t)n;
	}
	for (;;) {
		if (x->ans_cap - x->ans_len < 4096) {
			x->ans_cap = x->ans_cap ? x->ans_cap * 2 : 65536;
			b = realloc(x->ans, x->ans_cap);
			if (b == NULL) {
				fprintf(stderr, "xcablectl: out of memory\n");
				exit(XC_USAGE);
			}
			x->ans = b;
		}
		wait_fd(x, fd, POLLIN);
		n = read(fd, x->ans + x->ans_len, x->ans_cap - x->ans_len - 1);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0)
			break;	/* xcable closes after its answer */
		x->ans_len += (size_t)n;
	}
	if (n < 0) {
		fprintf(stderr, "xcablectl: cannot read the answer: %s\n",
			strerror(errno));
		exit(XC_USAGE);
	}
	x->ans[x->ans_len] = '\0';
	close(fd);
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

int main(int argc, char **argv)
{
	static struct ctl x;
	const struct xc_ctl_cmd *cmd;
	char dir[256], *last;
	int i = 1, rc = 0;
	size_t used;

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
			run_dir(dir, sizeof(dir));
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
	if (x.timeout == 0) {
		cmd = xc_ctl_lookup(argv[i]);	/* unknown: refused at once */
		x.timeout = cmd && cmd->changes ? XC_CHANGE_S : XC_READ_S;
	}
	x.end = now_s() + x.timeout;
	if (x.path[0] == '\0' && find_socket(x.path, sizeof(x.path)))
		return XC_USAGE;
	for (used = 0; i < argc; i++) {
		int k = snprintf(x.req + used, sizeof(x.req) - used, "%s%s",
				 argv[i], i + 1 < argc ? " " : "\n");

		if (k < 0 || (size_t)k >= sizeof(x.req) - used ||
		    used + (size_t)k > XC_CTL_LINE_MAX) {
			fprintf(stderr, "xcablectl: request too long (at most %d bytes)\n",
				XC_CTL_LINE_MAX - 1);
			return XC_USAGE;
		}
		used += (size_t)k;
	}
	x.req_len = used;
	exchange(&x);
	/* the last line says how it went: "ok" or "error: WHY" */
	while (x.ans_len && x.ans[x.ans_len - 1] == '\n')
		x.ans[--x.ans_len] = '\0';
	last = strrchr(x.ans, '\n');
	last = last ? last + 1 : x.ans;
	fwrite(x.ans, 1, (size_t)(last - x.ans), stdout);
	if (strcmp(last, "ok") != 0) {
		fprintf(stderr, "xcablectl: %s\n",
			last[0] ? last : "no answer from xcable");
		rc = XC_USAGE;
	}
	free(x.ans);
	fflush(stdout);
	return rc;
}
