/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ctlclient.c - a client of xcable's control socket
 *
 * The socket is xcable.ctl in xcable's EAL runtime directory
 * (/var/run/dpdk/PREFIX, or $XDG_RUNTIME_DIR/dpdk/PREFIX for other users),
 * or one of the service's sockets, /run/xcable/NAME.ctl. Every wait is
 * bounded by the exchange's time: connecting (xcable's listen backlog may
 * be full), sending, and reading its answer.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "ctlclient.h"
#include "sockprobe.h"

/* the Debian package's service puts its control sockets here
 * (config/xcable@.service.in: --control /run/xcable/NAME.ctl) */
#define XC_SERVICE_DIR	"/run/xcable"

/**
 * xc_cl_run_dir() - the EAL runtime directory's parent for this user
 * @buf:	filled
 * @len:	size of @buf
 */
void xc_cl_run_dir(char *buf, size_t len)
{
	const char *x = getenv("XDG_RUNTIME_DIR");

	if (getuid() == 0 || x == NULL)
		snprintf(buf, len, "/var/run/dpdk");
	else
		snprintf(buf, len, "%s/dpdk", x);
}

/**
 * found_add() - count a path if a process listens on it (a killed
 *		 xcable leaves its socket file behind)
 * @f:		what was found so far
 * @path:	a candidate
 */
static void found_add(struct xc_found *f, const char *path)
{
	size_t used = strlen(f->all);
	struct stat st;

	if (stat(path, &st) || !S_ISSOCK(st.st_mode) || xc_sock_probe(path) != 1)
		return;
	if (f->n < XC_FOUND_MAX)
		snprintf(f->path[f->n], sizeof(f->path[0]), "%s", path);
	f->n++;
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
static void found_scan(struct xc_found *f, const char *dir, const char *sub)
{
	char path[XC_PATH_LEN];
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
 * xc_cl_find_all() - the control sockets of every running xcable this
 *		      user may reach by looking: in the EAL runtime
 *		      directories (xcable without --control) and the
 *		      service's directory
 * @f:		filled
 */
void xc_cl_find_all(struct xc_found *f)
{
	char dir[256];

	memset(f, 0, sizeof(*f));
	xc_cl_run_dir(dir, sizeof(dir));
	found_scan(f, dir, "xcable.ctl");
	found_scan(f, XC_SERVICE_DIR, NULL);
}

/**
 * xc_cl_find_socket() - the control socket of the one running xcable;
 *			 says which on stderr
 * @out:	filled with its path
 * @len:	size of @out
 *
 * Return: 0, or -ENOENT / -EEXIST (none or several) with a message printed
 */
int xc_cl_find_socket(char *out, size_t len)
{
	static struct xc_found f;
	char dir[256];

	xc_cl_find_all(&f);
	if (f.n == 1) {
		snprintf(out, len, "%s", f.path[0]);
		fprintf(stderr, "xcablectl: the running xcable's socket is %s\n",
			f.path[0]);
		return 0;
	}
	xc_cl_run_dir(dir, sizeof(dir));
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
 * xc_cl_now() - seconds on CLOCK_MONOTONIC
 *
 * Return: the time
 */
double xc_cl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/**
 * say() - a failure of an exchange, on stderr unless it is quiet
 * @x:		the exchange
 * @fmt:	printf-style
 */
__attribute__((format(printf, 2, 3)))
static void say(const struct ctl *x, const char *fmt, ...)
{
	va_list ap;

	if (x->quiet)
		return;
	va_start(ap, fmt);
	fputs("xcablectl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/**
 * xc_cl_wait_fd() - wait until the socket is ready, within the exchange's
 *		     time
 * @x:		the exchange
 * @fd:		the socket
 * @events:	POLLIN or POLLOUT
 *
 * Return: 0, or -ETIMEDOUT (said)
 */
int xc_cl_wait_fd(const struct ctl *x, int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };
	double left;
	int n;

	do {
		left = x->end - xc_cl_now();
		if (left <= 0) {
			say(x, "no answer from xcable within %g s", x->timeout);
			return -ETIMEDOUT;
		}
		n = poll(&p, 1, (int)(left * 1000) + 1);
	} while (n == 0 || (n < 0 && errno == EINTR));
	return 0;
}

/**
 * xc_cl_connect() - connect to xcable's socket, within the exchange's time
 *		     (a connect waits while xcable's listen backlog is full)
 * @x:		the exchange
 *
 * Return: the connected, non-blocking socket, or -1 (said)
 */
int xc_cl_connect(const struct ctl *x)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	double left = x->end - xc_cl_now();
	struct timeval tv = {
		.tv_sec = (time_t)left,
		.tv_usec = (suseconds_t)((left - (double)(time_t)left) * 1e6),
	};
	int fd;

	if (strlen(x->path) >= sizeof(sa.sun_path)) {
		say(x, "socket path too long: %s", x->path);
		return -1;
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
			say(x, "no answer from xcable within %g s", x->timeout);
		else
			say(x, "cannot reach xcable at %s: %s", x->path,
			    strerror(errno));
		close(fd);
		return -1;
	}
	if (fd < 0 || fcntl(fd, F_SETFL, O_NONBLOCK) < 0) {
		say(x, "socket: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/**
 * xc_cl_send() - send the request, within the exchange's time
 * @x:		the exchange
 * @fd:		its connection
 *
 * Return: 0, or -1 (said)
 */
int xc_cl_send(const struct ctl *x, int fd)
{
	size_t sent = 0;
	ssize_t n;

	while (sent < x->req_len) {
		if (xc_cl_wait_fd(x, fd, POLLOUT))
			return -1;
		n = send(fd, x->req + sent, x->req_len - sent, MSG_NOSIGNAL);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0) {
			say(x, "cannot send: %s", strerror(errno));
			return -1;
		}
		sent += (size_t)n;
	}
	return 0;
}

/**
 * xc_cl_request() - the request line of some words
 * @x:		the exchange: its @req is set
 * @argc:	how many words
 * @argv:	the words
 *
 * Return: 0, or -E2BIG or -EINVAL (said)
 */
int xc_cl_request(struct ctl *x, int argc, char **argv)
{
	size_t used = 0;
	int i, k;

	for (i = 0; i < argc; i++) {
		if (strchr(argv[i], '\n')) {	/* a request is one line */
			say(x, "'%.40s...': a newline in a word of the request",
			    argv[i]);
			return -EINVAL;
		}
		k = snprintf(x->req + used, sizeof(x->req) - used, "%s%s",
			     argv[i], i + 1 < argc ? " " : "\n");
		if (k < 0 || (size_t)k >= sizeof(x->req) - used ||
		    used + (size_t)k > XC_CTL_LINE_MAX) {
			say(x, "request too long (at most %d bytes)",
			    XC_CTL_LINE_MAX - 1);
			return -E2BIG;
		}
		used += (size_t)k;
	}
	x->req_len = used;
	return 0;
}

/**
 * xc_cl_exchange() - send the request, read the whole answer (until xcable
 *		      closes), within the exchange's time
 * @x:		the exchange; its answer is filled (NUL-terminated)
 *
 * Return: 0, or -1 (said)
 */
int xc_cl_exchange(struct ctl *x)
{
	int fd = xc_cl_connect(x);
	ssize_t n = 0;
	char *b;

	if (fd < 0 || xc_cl_send(x, fd)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	for (;;) {
		if (x->ans_cap - x->ans_len < 4096) {
			x->ans_cap = x->ans_cap ? x->ans_cap * 2 : 65536;
			b = realloc(x->ans, x->ans_cap);
			if (b == NULL) {
				say(x, "out of memory");
				n = -1;
				break;
			}
			x->ans = b;
		}
		if (xc_cl_wait_fd(x, fd, POLLIN)) {
			close(fd);
			return -1;
		}
		n = read(fd, x->ans + x->ans_len, x->ans_cap - x->ans_len - 1);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0)
			break;	/* xcable closes after its answer */
		x->ans_len += (size_t)n;
	}
	close(fd);
	if (n < 0) {
		say(x, "cannot read the answer: %s", strerror(errno));
		return -1;
	}
	x->ans[x->ans_len] = '\0';
	return 0;
}
