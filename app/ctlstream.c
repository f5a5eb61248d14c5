/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ctlstream.c - xcablectl's requests whose answer is a stream
 *
 *   capture CABLE[:END]... [-w FILE|-] [-f FILTER] [-s SNAPLEN] [-c COUNT]
 *           [-a duration:S]
 *	xcable's answer is a pcapng stream (it begins with a section
 *	header), or one line, "error: WHY". The stream goes to FILE, or to
 *	stdout with -w - (xcablectl capture c1 -w - | wireshark -k -i -),
 *	as it comes; Ctrl-C (SIGINT, SIGTERM) ends it: xcablectl ends its
 *	side of the connection, xcable writes the statistics of each end and
 *	closes, and xcablectl says on stderr what was written and dropped. A
 *	second Ctrl-C leaves at once. If the reader of stdout goes (Wireshark
 *	closed), so does xcablectl.
 *   events [--json]
 *	a line per event, from now on, until xcable goes or cuts the
 *	listener off (its last line then says why).
 *
 * --timeout bounds the wait for the stream's first bytes only.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctlstream.h"
#include "pcapng.h"

/* signals ending a stream: counted by the handler, read by the loop */
static volatile sig_atomic_t xc_cl_stop;

/**
 * on_stop() - SIGINT, SIGTERM: end the stream (the second time: now)
 * @sig:	the signal
 */
static void on_stop(int sig)
{
	(void)sig;
	xc_cl_stop++;
}

/**
 * struct capout - where a capture goes, and what passed
 * @fd:		the file or stdout
 * @path:	the file ("-" for stdout)
 * @made:	xcablectl created the file (removed if xcable refuses)
 * @blk:	the block being read: its first bytes (a statistics block
 *		whole)
 * @blk_have:	bytes of it read
 * @blk_len:	its length, 0 while its header is not read
 * @blk_type:	its type
 * @in:		frames received from the ends
 * @out:	frames sent to them
 * @dropped:	copies xcable dropped (statistics blocks)
 * @why:	the comments of the statistics blocks
 */
struct capout {
	int fd;
	const char *path;
	bool made;
	uint8_t blk[65536];
	size_t blk_have;
	size_t blk_len;
	uint32_t blk_type;
	uint64_t in;
	uint64_t out;
	uint64_t dropped;
	char why[512];
};

/* min_sz() - the smaller of two sizes */
static inline size_t min_sz(size_t a, size_t b)
{
	return a < b ? a : b;
}

/**
 * look() - follow the blocks of the stream as it passes: count frames,
 *	    read the statistics blocks
 * @o:		what passed so far
 * @p:		bytes of the stream
 * @n:		how many
 */
static void look(struct capout *o, const uint8_t *p, size_t n)
{
	struct xc_pcapng_stats st;
	uint32_t h[2], flags;
	char c[256];
	size_t k;

	while (n) {
		if (o->blk_len == 0) {	/* its header first */
			k = min_sz(8 - o->blk_have, n);
			memcpy(o->blk + o->blk_have, p, k);
			o->blk_have += k;
			p += k;
			n -= k;
			if (o->blk_have < 8)
				return;
			memcpy(h, o->blk, sizeof(h));
			o->blk_type = h[0];
			o->blk_len = h[1] < 12 ? 12 : h[1];
		}
		k = min_sz(o->blk_len - o->blk_have, n);
		if (o->blk_have + k <= sizeof(o->blk))
			memcpy(o->blk + o->blk_have, p, k);
		else if (o->blk_have < sizeof(o->blk))
			memcpy(o->blk + o->blk_have, p,
			       sizeof(o->blk) - o->blk_have);
		o->blk_have += k;
		p += k;
		n -= k;
		if (o->blk_have < o->blk_len)
			return;
		if (o->blk_type == XC_PCAPNG_EPB && o->blk_len >= 44 &&
		    o->blk_len <= sizeof(o->blk)) {
			memcpy(&flags, o->blk + o->blk_len - 12, sizeof(flags));
			o->in += (flags & 3) == XC_PCAPNG_IN;
			o->out += (flags & 3) == XC_PCAPNG_OUT;
		} else if (o->blk_type == XC_PCAPNG_EPB) {
			o->in++;	/* a long frame: its flags not kept */
		} else if (o->blk_type == XC_PCAPNG_ISB &&
			   o->blk_len <= sizeof(o->blk) &&
			   xc_pcapng_isb_read(o->blk, o->blk_len, &st, c,
					      sizeof(c)) == 0) {
			o->dropped += st.ifdrop;
			if (c[0] && strlen(o->why) + strlen(c) + 3 < sizeof(o->why))
				snprintf(o->why + strlen(o->why),
					 sizeof(o->why) - strlen(o->why), "%s%s",
					 o->why[0] ? "; " : "", c);
		}
		o->blk_have = o->blk_len = 0;
	}
}

/**
 * put_all() - write bytes of the stream where it goes
 * @o:		where
 * @p:		the bytes
 * @n:		how many
 *
 * Return: 0, 1 if the reader of a pipe went, or -errno
 */
static int put_all(struct capout *o, const uint8_t *p, size_t n)
{
	ssize_t k;

	look(o, p, n);
	while (n) {
		k = write(o->fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return errno == EPIPE ? 1 : -errno;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/**
 * first_bytes() - wait for the stream's first bytes (within --timeout)
 * @x:		the exchange
 * @fd:		its connection
 * @b:		filled
 * @len:	size of @b
 *
 * Return: bytes read (0: xcable closed), or -1 (said)
 */
static ssize_t first_bytes(const struct ctl *x, int fd, uint8_t *b,
			   size_t len)
{
	ssize_t n;

	for (;;) {
		if (xc_cl_wait_fd(x, fd, POLLIN))
			return -1;
		n = read(fd, b, len);
		if (n >= 0 || (errno != EAGAIN && errno != EINTR))
			return n < 0 ? 0 : n;
	}
}

/**
 * refused() - xcable answered with a line, not a stream: say it
 * @fd:		the connection
 * @b:		the first bytes of the answer
 * @n:		how many
 *
 * Return: XC_USAGE
 */
static int refused(int fd, uint8_t *b, ssize_t n)
{
	char line[1024];
	size_t have = 0;
	struct pollfd p = { .fd = fd, .events = POLLIN };

	while (n > 0 && have + (size_t)n < sizeof(line)) {
		memcpy(line + have, b, (size_t)n);
		have += (size_t)n;
		if (memchr(line, '\n', have) || poll(&p, 1, 1000) <= 0)
			break;
		n = read(fd, b, 512);
	}
	line[have] = '\0';
	line[strcspn(line, "\n")] = '\0';
	fprintf(stderr, "xcablectl: %s\n", have ? line : "no answer from xcable");
	return XC_USAGE;
}

/**
 * pump() - pass the stream on until xcable closes it; the first signal
 *	    ends xcablectl's side (xcable then writes the capture's end),
 *	    the second leaves at once
 * @fd:		the connection
 * @o:		where it goes
 *
 * Return: 0 once the stream ended whole (or its reader went), else
 *	   XC_USAGE (said)
 */
static int pump(int fd, struct capout *o)
{
	static uint8_t b[1 << 16];
	struct pollfd p = { .fd = fd, .events = POLLIN };
	bool ended = false;
	ssize_t n;
	int rc;

	for (;;) {
		if (xc_cl_stop && !ended) {
			shutdown(fd, SHUT_WR);	/* xcable writes the end */
			ended = true;
		}
		if (xc_cl_stop > 1) {
			fprintf(stderr, "xcablectl: interrupted: the capture in %s has no end\n",
				o->path);
			return XC_USAGE;
		}
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			break;
		n = read(fd, b, sizeof(b));
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0)
			break;
		rc = put_all(o, b, (size_t)n);
		if (rc > 0)
			return 0;	/* its reader (Wireshark) went */
		if (rc < 0) {
			fprintf(stderr, "xcablectl: cannot write %s: %s\n",
				o->path, strerror(-rc));
			return XC_USAGE;
		}
	}
	if (o->blk_have || o->blk_len) {
		fprintf(stderr, "xcablectl: the capture stream broke off in the middle of a block (did xcable stop?)\n");
		return XC_USAGE;
	}
	return 0;
}

/**
 * cap_args() - a capture's words for xcable, and where it goes (-w)
 * @argc:	its words, "capture" first
 * @argv:	them
 * @words:	filled: the request's words (-w left out, -f last)
 * @n:		set to how many
 * @path:	set to -w's value, NULL if none
 *
 * Return: 0, or XC_USAGE (said)
 */
static int cap_args(int argc, char **argv, char **words, int *n,
		    const char **path)
{
	const char *filter = NULL;
	int i, k = 0;

	*path = NULL;
	words[k++] = argv[0];
	for (i = 1; i < argc; i++) {
		if (k >= XC_CTL_WORDS - 4) {	/* room for one more and -f */
			fprintf(stderr, "xcablectl: capture: too many words (at most %d)\n",
				XC_CTL_WORDS - 4);
			return XC_USAGE;
		}
		if (argv[i][0] != '-') {
			words[k++] = argv[i];
			continue;
		}
		if (i + 1 >= argc) {
			fprintf(stderr, "xcablectl: capture: %s needs a value\n",
				argv[i]);
			return XC_USAGE;
		}
		if (strcmp(argv[i], "-w") == 0) {
			*path = argv[++i];
		} else if (strcmp(argv[i], "-f") == 0) {
			filter = argv[++i];
		} else {
			words[k++] = argv[i++];	/* xcable checks them */
			words[k++] = argv[i];
		}
	}
	if (filter) {
		words[k++] = (char *)"-f";
		words[k++] = (char *)filter;
	}
	*n = k;
	return 0;
}

/**
 * open_out() - where the capture goes: the file of -w, or stdout (-w -,
 *		or no -w when stdout is no terminal)
 * @o:		filled
 * @path:	-w's value, or NULL
 *
 * Return: 0, or XC_USAGE (said)
 */
static int open_out(struct capout *o, const char *path)
{
	struct stat st;

	if (path == NULL && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "xcablectl: capture: give -w FILE, or -w - for stdout (a pcapng stream, not for a terminal)\n");
		return XC_USAGE;
	}
	if (path == NULL || strcmp(path, "-") == 0) {
		o->fd = STDOUT_FILENO;
		o->path = "stdout";
		return 0;
	}
	o->path = path;
	o->made = stat(path, &st) != 0;
	o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (o->fd < 0) {
		fprintf(stderr, "xcablectl: capture: cannot write %s: %s\n",
			path, strerror(errno));
		return XC_USAGE;
	}
	return 0;
}

/**
 * catch_stop() - let SIGINT and SIGTERM end the stream, SIGPIPE fail a
 *		  write instead
 */
static void catch_stop(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/**
 * stream_open() - ask for a stream and wait for its first bytes
 * @x:		the exchange, its path and time set
 * @argc:	the request's words
 * @argv:	them
 * @b:		where the first bytes go
 * @len:	size of @b
 * @k:		set to how many came
 *
 * Return: the connection, or -1 (said on stderr; nothing to close)
 */
static int stream_open(struct ctl *x, int argc, char **argv, uint8_t *b,
		       size_t len, ssize_t *k)
{
	int fd;

	if (xc_cl_request(x, argc, argv))
		return -1;
	catch_stop();
	fd = xc_cl_connect(x);
	if (fd >= 0 && (xc_cl_send(x, fd) ||
			(*k = first_bytes(x, fd, b, len)) < 0)) {
		close(fd);
		return -1;
	}
	return fd;
}

/**
 * xc_cl_capture() - capture: the stream to a file or stdout
 * @x:		the exchange, its path and time set
 * @argc:	the request's words, "capture" first
 * @argv:	them
 * @quiet:	say nothing of what was written (Wireshark's extcap)
 *
 * Return: the exit status
 */
int xc_cl_capture(struct ctl *x, int argc, char **argv, bool quiet)
{
	static struct capout o;
	static uint8_t b[4096];
	char *words[XC_CTL_WORDS + 4];
	const char *path;
	int n, fd, rc;
	ssize_t k = 0;

	if (cap_args(argc, argv, words, &n, &path) || open_out(&o, path))
		return XC_USAGE;
	fd = stream_open(x, n, words, b, sizeof(b), &k);
	if (fd < 0)
		rc = XC_USAGE;
	else if (k == 0 || b[0] != 0x0A)	/* no section header */
		rc = refused(fd, b, k);
	else
		rc = put_all(&o, b, (size_t)k) < 0 ? XC_USAGE : pump(fd, &o);
	if (fd >= 0)
		close(fd);
	if (rc && o.made && o.in + o.out == 0)
		unlink(o.path);
	if (rc == 0 && !quiet)
		fprintf(stderr, "xcablectl: capture: %" PRIu64 " frames written to %s (%" PRIu64 " received from the ends, %" PRIu64 " sent to them); copies dropped for a slow reader: %" PRIu64 "%s%s\n",
			o.in + o.out, o.path, o.in, o.out, o.dropped,
			o.why[0] ? "; " : "", o.why);
	if (o.fd > STDOUT_FILENO)
		close(o.fd);
	return rc;
}

/**
 * xc_cl_events() - events: print each line as it comes, until xcable
 *		    closes the stream (its last line may be an error) or a
 *		    signal ends it
 * @x:		the exchange, its path and time set
 * @argc:	the request's words, "events" first
 * @argv:	them
 *
 * Return: the exit status: 0, or XC_USAGE if xcable refused or cut off
 *	   the listener
 */
int xc_cl_events(struct ctl *x, int argc, char **argv)
{
	static char b[1 << 16];
	size_t have = 0;
	int fd, rc = XC_USAGE;
	char *nl, *s;
	ssize_t n;

	fd = stream_open(x, argc, argv, (uint8_t *)b, sizeof(b) - 1, &n);
	if (fd < 0)
		return XC_USAGE;
	while (n > 0) {
		have += (size_t)n;
		b[have] = '\0';
		for (s = b; (nl = strchr(s, '\n')) != NULL; s = nl + 1) {
			*nl = '\0';
			if (strncmp(s, "error: ", 7) == 0)
				fprintf(stderr, "xcablectl: %s\n", s + 7);
			else
				printf("%s\n", s);
		}
		fflush(stdout);
		have = (size_t)(b + have - s);
		memmove(b, s, have);
		if (have == sizeof(b) - 1)
			have = 0;	/* no line is that long */
		do {
			if (xc_cl_stop) {
				rc = 0;	/* ended here */
				goto out;
			}
			poll(&(struct pollfd){ .fd = fd, .events = POLLIN }, 1,
			     -1);
			n = read(fd, b + have, sizeof(b) - 1 - have);
		} while (n < 0 && (errno == EAGAIN || errno == EINTR));
	}
	fprintf(stderr, "xcablectl: events: xcable ended the stream\n");
out:
	close(fd);
	return rc;
}
