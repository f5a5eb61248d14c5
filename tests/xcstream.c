/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xcstream.c - a TCP stream whose every byte the receiver checks
 *
 *   xcstream send HOST PORT BYTES SECONDS
 *       connect to HOST:PORT (retrying for up to 30 s: the receiver may
 *       not listen yet), send BYTES of the pattern evenly over SECONDS,
 *       close the sending side and wait for the receiver to close; then
 *       "XC-VERIFY-SEND rc=0 bytes=N secs=S" (rc=1 and the error if not)
 *   xcstream recv PORT BYTES TIMEOUT
 *       accept one connection on PORT, read until BYTES arrived, the
 *       sender closed or TIMEOUT seconds passed, check every byte against
 *       the pattern, then "XC-VERIFY ok bytes=N" or "XC-VERIFY BAD
 *       bytes=N want=N bad=N first_bad=OFFSET" and the first few runs of
 *       wrong bytes, a line each ("  bad OFFSET+LEN want XX got XX",
 *       the first byte's; fewer than 64 right bytes do not end a run);
 *       exits 0 if every byte of BYTES arrived as sent, 1 if not
 *
 * The pattern: byte O of the stream is byte O % 8 of splitmix64(O / 8),
 * so every 8 bytes of the stream differ from every other 8. A buffer the
 * receiving guest reads with old content (a page of guest memory a
 * migration did not copy again after the cable wrote it) holds bytes of
 * another offset, or zeroes, and is found, where TCP's checksum would not
 * be checked at all for a frame its virtio header marks valid. iperf3's
 * -F file mode was used for this before; its maintainers call it no file
 * transfer tool, and it reported a difference at the same offset in runs
 * with no migration in them.
 *
 * Static, no library but libc, so it runs in the tiny busybox test guest.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define CHUNK 16384
#define MAX_RUNS 5

/* splitmix64() - the pattern's 8 bytes at word X */
static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* pattern_byte() - the byte the stream has at offset OFF */
static uint8_t pattern_byte(uint64_t off)
{
	return (uint8_t)(splitmix64(off / 8) >> (8 * (off % 8)));
}

/* fill() - LEN bytes of the pattern from offset OFF into BUF */
static void fill(uint8_t *buf, size_t len, uint64_t off)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = pattern_byte(off + i);
}

/* now_s() - a monotonic clock, in seconds */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* number() - ARG as a number from MIN to MAX, or -1 (said) */
static long long number(const char *what, const char *arg, unsigned long long min,
			unsigned long long max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v < min || v > max) {
		fprintf(stderr, "xcstream: %s: not a number from %llu to %llu: '%s'\n", what, min, max,
			arg);
		return -1;
	}
	return (long long)v;
}

/* do_send() - send BYTES of the pattern to HOST:PORT over SECS; returns
 * the exit status */
static int do_send(const char *host, int port, uint64_t bytes, double secs)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	static uint8_t buf[CHUNK];
	uint64_t sent = 0;
	double t0, deadline;
	int fd = -1;
	ssize_t n;

	if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
		fprintf(stderr, "xcstream: not an IPv4 address: '%s'\n", host);
		return 2;
	}
	deadline = now_s() + 30;
	for (;;) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			goto fail;
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			break;
		close(fd);
		fd = -1;
		if (now_s() > deadline)
			goto fail;
		usleep(200000);
	}
	t0 = now_s();
	while (sent < bytes) {
		size_t len = bytes - sent < CHUNK ? bytes - sent : CHUNK;
		double due = t0 + secs * (double)sent / (double)bytes;
		double t = now_s();

		if (due > t)
			usleep((useconds_t)((due - t) * 1e6));
		fill(buf, len, sent);
		n = send(fd, buf, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		sent += n;
	}
	/* the receiver closes once it has all: then every byte arrived */
	if (shutdown(fd, SHUT_WR) < 0)
		goto fail;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	if (n < 0)
		goto fail;
	printf("XC-VERIFY-SEND rc=0 bytes=%llu secs=%.1f\n", (unsigned long long)sent, now_s() - t0);
	close(fd);
	return 0;
fail:
	printf("XC-VERIFY-SEND rc=1 bytes=%llu error=%s\n", (unsigned long long)sent, strerror(errno));
	if (fd >= 0)
		close(fd);
	return 1;
}

struct check {
	uint64_t got;		/* bytes received */
	uint64_t bad;		/* of them, not the pattern's */
	uint64_t first_bad;
	unsigned int runs;	/* runs of wrong bytes kept below */
	struct { uint64_t off, len; uint8_t want, got; } run[MAX_RUNS];
};

/* check_bytes() - compare LEN received bytes at the stream's offset
 * C->got with the pattern, noting the runs of wrong ones */
static void check_bytes(struct check *c, const uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		uint64_t off = c->got + i;
		uint8_t want = pattern_byte(off);

		if (buf[i] == want)
			continue;
		if (c->bad == 0)
			c->first_bad = off;
		c->bad++;
		/* bytes that match by chance do not split a run */
		if (c->runs && off - (c->run[c->runs - 1].off + c->run[c->runs - 1].len) < 64)
			c->run[c->runs - 1].len = off - c->run[c->runs - 1].off + 1;
		else if (c->runs < MAX_RUNS)
			c->run[c->runs++] = (typeof(c->run[0])){ off, 1, want, buf[i] };
	}
	c->got += len;
}

/* do_recv() - accept one stream on PORT and check BYTES of it, for at
 * most SECS; returns the exit status */
static int do_recv(int port, uint64_t bytes, double secs)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_ANY) };
	static uint8_t buf[CHUNK];
	struct check c = { 0 };
	double deadline = now_s() + secs;
	const char *why = "";
	int one = 1, lfd, fd = -1;
	unsigned int i;
	ssize_t n;

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(lfd, 1) < 0) {
		printf("XC-VERIFY BAD bytes=0 error=listen: %s\n", strerror(errno));
		return 1;
	}
	while (fd < 0) {
		struct pollfd p = { .fd = lfd, .events = POLLIN };
		int left = (int)((deadline - now_s()) * 1000);

		if (left <= 0 || poll(&p, 1, left) == 0) {
			why = " error=nobody connected";
			goto out;
		}
		fd = accept(lfd, NULL, NULL);
		if (fd < 0 && errno != EINTR) {
			why = " error=accept failed";
			goto out;
		}
	}
	while (c.got < bytes) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int left = (int)((deadline - now_s()) * 1000);
		size_t want = bytes - c.got < CHUNK ? bytes - c.got : CHUNK;

		if (left <= 0 || poll(&p, 1, left) == 0) {
			why = " error=timed out";
			break;
		}
		n = read(fd, buf, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			why = " error=read failed";
			break;
		}
		if (n == 0) {
			why = " error=the sender closed early";
			break;
		}
		check_bytes(&c, buf, n);
	}
out:
	if (c.got == bytes && c.bad == 0) {
		printf("XC-VERIFY ok bytes=%llu\n", (unsigned long long)c.got);
	} else {
		printf("XC-VERIFY BAD bytes=%llu want=%llu bad=%llu", (unsigned long long)c.got,
		       (unsigned long long)bytes, (unsigned long long)c.bad);
		if (c.bad)
			printf(" first_bad=%llu", (unsigned long long)c.first_bad);
		printf("%s\n", why);
		for (i = 0; i < c.runs; i++)
			printf("  bad %llu+%llu want %02x got %02x\n", (unsigned long long)c.run[i].off,
			       (unsigned long long)c.run[i].len, c.run[i].want, c.run[i].got);
	}
	fflush(stdout);
	if (fd >= 0)
		close(fd);	/* tells the sender all arrived */
	close(lfd);
	return c.got == bytes && c.bad == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	long long port, bytes, secs;

	if (argc == 6 && !strcmp(argv[1], "send")) {
		port = number("PORT", argv[3], 1, 65535);
		bytes = number("BYTES", argv[4], 1, 1ULL << 40);
		secs = number("SECONDS", argv[5], 0, 3600);
		if (port < 0 || bytes < 0 || secs < 0)
			return 2;
		return do_send(argv[2], (int)port, bytes, secs);
	}
	if (argc == 5 && !strcmp(argv[1], "recv")) {
		port = number("PORT", argv[2], 1, 65535);
		bytes = number("BYTES", argv[3], 1, 1ULL << 40);
		secs = number("TIMEOUT", argv[4], 1, 3600);
		if (port < 0 || bytes < 0 || secs < 0)
			return 2;
		return do_recv((int)port, bytes, secs);
	}
	fprintf(stderr, "usage: xcstream send HOST PORT BYTES SECONDS\n"
			"       xcstream recv PORT BYTES TIMEOUT\n");
	return 2;
}
