/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xcfront.c - a light vhost-user frontend for many cables, for tests
 *
 *   xcfront --pairs LEFT,RIGHT --count N [--first I] [--frames K]
 *	     [--listen left] [--plug right]
 *	     [--hold SECONDS|forever] [--flood SECONDS [--busy B]
 *	     [--flood-len L]] [--follow SECONDS]
 *
 * LEFT and RIGHT are the two socket paths of a cable, each with one %d
 * that is replaced by the cable's number (I .. I+N-1). xcfront plays both
 * guests of every cable at once, with the protocol code of vu.c (no DPDK,
 * guest memory in a small memfd, one queue pair), so that hundreds of
 * cables cost a few hundred KB each:
 *
 *   1. attach: connect to every socket (with --listen left, listen on
 *      each LEFT socket until xcable, a client there, connects) and do
 *      the handshake;
 *   2. link: send probes both ways on each cable until one crosses in
 *      each direction (xcable forwards only between two ends that are up);
 *   3. check: K frames each way on every cable, of sizes from 60 to 1514
 *      bytes, each naming its cable, direction and number and filled with
 *      bytes that follow from them; each must arrive once, byte for byte,
 *      on the other socket of the same cable: one that arrives anywhere
 *      else, twice, or changed is mismatched;
 *      With --plug right, the right end of every cable is a loopback plug
 *      (left-loop/right-loop = yes): nothing attaches to RIGHT, and each
 *      frame sent on LEFT must come back on LEFT, once, byte for byte;
 *   4. flood (--flood): frames of L bytes (64) both ways on the first B
 *      cables as fast as the rings take them, for SECONDS, and the rate
 *      that arrives. Every transmit buffer is written once beforehand, so
 *      a frame costs xcfront a descriptor and no copy, and a kick only
 *      while xcable asks for kicks: with large frames the copies xcable
 *      makes, not xcfront, set the pace;
 *   5. hold (--hold): stay attached, asleep in epoll, until SECONDS pass or
 *      SIGTERM/SIGINT comes, and report connections xcable closed;
 *   6. follow (--follow): for SECONDS, follow every guest's carrier as a
 *      guest with QEMU's reconnect sees it (a thread per guest): when
 *      xcable closes its
 *      connection (the end is unplugged) it says so, with the time, and
 *      connects again every 10 ms until a handshake succeeds (the end is
 *      plugged in again), and says that too:
 *        "xcfront: carrier cable N left down at T ms" ... "up at T ms"
 *      (T from the start of the phase), then per end
 *        "xcfront: carrier cable N left: downs D, ups U".
 *
 * It prints a line per phase and the summary
 *   "xcfront: cables N: ok X, failed Y; frames sent S, received R,
 *    mismatched M"
 *   "xcfront: link probes: sent P, received Q"
 * and exits 0 when every cable passed (and none was closed while held),
 * 1 otherwise, 2 on a usage error.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "vu.h"

#define MAX_CABLES	4096
#define MAX_FRAMES	128	/* per direction: half the receive ring */
#define PROBE		0xffffu	/* frame number of a link probe */
#define FLOOD_LEN	64u
#define ID_OFF		14	/* cable (4), direction (1), 0, number (2) */
#define ID_LEN		8
#define MIN_LEN		60u
#define MAX_LEN		1514u
/* how long check() waits, once every frame arrived, for one sent twice or
 * to the wrong cable: xcable forwards a burst within microseconds (an
 * adaptive lcore sleeps at most 1 ms), so a copy would come with the rest */
#define STRAY_MS	50

/**
 * struct cable - both guests of one cable and what crossed it
 * @g:		guest on the left (0) and right (1) socket
 * @up:		a probe crossed in direction d (0: left to right)
 * @got:	checked frames received intact, per direction
 * @bad:	frames received on this cable's sockets that were not
 *		expected there (another cable's, duplicated, changed)
 * @seen:	which frame numbers arrived, per direction
 * @closed:	xcable closed a connection while held
 * @downs:	per end: connections xcable closed while followed
 * @ups:	per end: connections made again while followed
 */
struct cable {
	struct guest g[2];
	bool up[2];
	uint32_t got[2];
	uint32_t bad;
	uint8_t seen[2][MAX_FRAMES];
	bool closed;
	unsigned int downs[2];
	unsigned int ups[2];
};

/**
 * struct front - the run: options and cables
 * @pat:	LEFT and RIGHT patterns
 * @listen:	listen on LEFT (xcable's end there is a client), as QEMU
 *		with server=on does, instead of connecting
 * @plug:	the right ends are loopback plugs: frames sent on LEFT come
 *		back on LEFT, nothing attaches to RIGHT
 * @first:	number of the first cable
 * @n:		how many cables
 * @frames:	K, frames each way per cable
 * @hold_s:	seconds to stay attached; -1: until a signal; 0: not at all
 * @flood_s:	seconds of flood, 0: none
 * @busy:	cables flooded
 * @flood_len:	length of a flood frame
 * @follow_s:	seconds to follow the carriers, 0: not at all
 * @probes_sent: link probes sent, every cable, both ways
 * @probes_got:	link probes received
 * @c:		the cables
 */
struct front {
	const char *pat[2];
	bool listen, plug;
	unsigned int first, n, frames, busy, flood_len;
	uint64_t probes_sent, probes_got;
	long hold_s, flood_s, follow_s;
	struct cable *c;
};

/* ends() - sockets a cable has for xcfront: 1 with a plug on the right */
static unsigned int ends(const struct front *fr)
{
	return fr->plug ? 1 : 2;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* say() - one line on stdout, prefixed and flushed (callers wait for it) */
static void say(const char *fmt, ...)
{
	va_list ap;

	flockfile(stdout);	/* one line at a time (follow's threads) */
	fputs("xcfront: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
	funlockfile(stdout);
}

/* frame_len() - length of frame @k of cable @c in direction @d */
static uint32_t frame_len(unsigned int c, unsigned int d, unsigned int k)
{
	if (k == PROBE)
		return MIN_LEN;
	return MIN_LEN + (c * 31 + d * 17 + k * 97) % (MAX_LEN - MIN_LEN + 1);
}

/**
 * make_frame() - frame @k of cable @c in direction @d
 * @f:		filled, frame_len() bytes
 * @c:		cable number
 * @d:		direction, 0: left to right
 * @k:		frame number, PROBE for a probe
 *
 * Return: its length
 */
static uint32_t make_frame(uint8_t *f, unsigned int c, unsigned int d,
			   unsigned int k)
{
	uint32_t len = frame_len(c, d, k), i, c32 = c;
	uint16_t k16 = (uint16_t)k;

	/* locally administered MACs: 02:00:00:00:<dir>:<end> */
	memset(f, 0, 12);
	f[0] = f[6] = 2;
	f[4] = f[10] = (uint8_t)d;
	f[5] = (uint8_t)!d;
	f[11] = (uint8_t)d;
	f[12] = 0x88;
	f[13] = 0xb5;
	memcpy(f + ID_OFF, &c32, 4);
	f[ID_OFF + 4] = (uint8_t)d;
	f[ID_OFF + 5] = 0;
	memcpy(f + ID_OFF + 6, &k16, 2);
	for (i = ID_OFF + ID_LEN; i < len; i++)
		f[i] = (uint8_t)(c * 131 + d * 71 + k * 7 + i);
	return len;
}

/**
 * check_frame() - account for a frame received on cable @i's end @side
 * @fr:		the run
 * @i:		cable index
 * @side:	0 left, 1 right: the frame travelled direction !side
 * @f:		the frame
 * @len:	its length
 */
static void check_frame(struct front *fr, unsigned int i, unsigned int side,
			const uint8_t *f, uint32_t len)
{
	struct cable *c = &fr->c[i];
	unsigned int d = fr->plug ? side : !side, num = fr->first + i;
	uint8_t want[MAX_LEN];
	uint32_t c32;
	uint16_t k;

	if (len < ID_OFF + ID_LEN) {
		c->bad++;
		return;
	}
	memcpy(&c32, f + ID_OFF, 4);
	memcpy(&k, f + ID_OFF + 6, 2);
	if (c32 != num || f[ID_OFF + 4] != d ||
	    (k != PROBE && (k >= fr->frames || c->seen[d][k]))) {
		c->bad++;
		return;
	}
	if (len != frame_len(num, d, k) ||
	    memcmp(f, want, make_frame(want, num, d, k))) {
		c->bad++;
		return;
	}
	if (k == PROBE) {
		c->up[d] = true;
		fr->probes_got++;
		return;
	}
	c->seen[d][k] = 1;
	c->got[d]++;
}

/* drain() - take every frame waiting on every socket and check it */
static void drain(struct front *fr)
{
	uint8_t f[BUF_SIZE];
	unsigned int i, s;
	int r;

	for (i = 0; i < fr->n; i++)
		for (s = 0; s < ends(fr); s++)
			while ((r = recv_frame(&fr->c[i].g[s], f, sizeof(f))))
				if (r < 0)
					fr->c[i].bad++;
				else
					check_frame(fr, i, s, f, (uint32_t)r);
}

/**
 * send_one() - send frame @k of cable @i in direction @d if its ring has
 *		room (never waits)
 *
 * Return: true if sent
 */
static bool send_one(struct front *fr, unsigned int i, unsigned int d,
		     unsigned int k)
{
	static const struct vnet_hdr h;
	struct guest *g = &fr->c[i].g[d];
	uint8_t f[MAX_LEN];
	uint32_t len;

	if (in_flight(g, 1) >= QSIZE - 1)
		return false;
	len = make_frame(f, fr->first + i, d, k);
	return send_frame(g, &h, f, len) == 0;
}

/**
 * attach() - connect to both sockets of every cable and do the handshake
 * @fr:		the run
 *
 * The left end first: with link propagation, xcable may take a right
 * socket away until its left end is attached. The memfd is closed once
 * xcable has it (one fd less per guest).
 *
 * Return: 0, or -errno (printed)
 */
static int attach(struct front *fr)
{
	char path[108];
	unsigned int i, s;
	int rc;

	for (i = 0; i < fr->n; i++)
		for (s = 0; s < ends(fr); s++) {
			struct guest *g = &fr->c[i].g[s];

			if (snprintf(path, sizeof(path), fr->pat[s],
				     (int)(fr->first + i)) >= (int)sizeof(path)) {
				say("%s: longer than a socket path may be",
				    path);
				return -ENAMETOOLONG;
			}
			rc = s == 0 && fr->listen ? guest_listen(g, path, 10000) :
						    guest_open(g, path);
			if (!rc)
				rc = guest_setup(g, &SETUP_DEFAULT, 0);
			if (rc) {
				say("%s: handshake failed: %s", path,
				    strerror(-rc));
				return rc;
			}
			close(g->memfd);
			g->memfd = -1;
		}
	return 0;
}

/**
 * link_up() - probe every cable both ways until each direction carried one
 * @fr:		the run
 * @ms:		how long to try
 *
 * Return: cables that came up both ways
 */
static unsigned int link_up(struct front *fr, unsigned int ms)
{
	uint64_t end = now_ms() + ms;
	unsigned int i, d, up = 0;

	while (up < fr->n && now_ms() < end) {
		for (i = 0; i < fr->n; i++)
			for (d = 0; d < ends(fr); d++)
				if (!fr->c[i].up[d] &&
				    in_flight(&fr->c[i].g[d], 1) < QSIZE / 2)
					fr->probes_sent +=
						send_one(fr, i, d, PROBE);
		msleep(20);
		drain(fr);
		for (up = 0, i = 0; i < fr->n; i++) {
			if (fr->plug)	/* one way, which comes back */
				fr->c[i].up[1] = fr->c[i].up[0];
			up += fr->c[i].up[0] && fr->c[i].up[1];
		}
	}
	/* late probes would otherwise arrive during the check */
	msleep(50);
	drain(fr);
	return up;
}

/**
 * check() - send K frames each way on every cable and wait until they all
 *	     arrived (or 10 s passed), then a little longer for strays
 * @fr:		the run
 *
 * Return: frames sent
 */
static uint64_t check(struct front *fr)
{
	uint64_t end = now_ms() + 10000, sent = 0, got;
	unsigned int i, d, k;

	for (k = 0; k < fr->frames; k++)
		for (i = 0; i < fr->n; i++)
			for (d = 0; d < ends(fr); d++)
				sent += send_one(fr, i, d, k);
	do {
		msleep(5);
		drain(fr);
		for (got = 0, i = 0; i < fr->n; i++)
			got += fr->c[i].got[0] + fr->c[i].got[1];
	} while (got < sent && now_ms() < end);
	msleep(STRAY_MS);
	drain(fr);
	return sent;
}

/**
 * report() - print failed cables (the first 20) and the summary
 * @fr:		the run
 * @sent:	frames sent by check()
 *
 * Return: failed cables
 */
static unsigned int report(struct front *fr, uint64_t sent)
{
	uint64_t got = 0, bad = 0;
	unsigned int i, failed = 0;

	for (i = 0; i < fr->n; i++) {
		struct cable *c = &fr->c[i];
		bool ok = c->up[0] && c->up[1] && c->bad == 0 &&
			  c->got[0] == fr->frames &&
			  c->got[1] == (fr->plug ? 0 : fr->frames);

		got += c->got[0] + c->got[1];
		bad += c->bad;
		if (ok)
			continue;
		if (failed++ < 20)
			say("cable %u failed: up %d/%d, received %u/%u of %u each way, mismatched %u",
			    fr->first + i, c->up[0], c->up[1], c->got[0],
			    c->got[1], fr->frames, c->bad);
	}
	say("cables %u: ok %u, failed %u; frames sent %llu, received %llu, mismatched %llu",
	    fr->n, fr->n - failed, failed, (unsigned long long)sent,
	    (unsigned long long)got, (unsigned long long)bad);
	say("link probes: sent %llu, received %llu",
	    (unsigned long long)fr->probes_sent,
	    (unsigned long long)fr->probes_got);
	return failed;
}

/**
 * flood_prefill() - write every transmit buffer of guest @g once: a frame
 *		     of cable @num in direction @d, and its descriptor
 * @len:	frame length
 */
static void flood_prefill(struct guest *g, unsigned int num, unsigned int d,
			  uint32_t len)
{
	uint16_t i;

	for (i = 0; i < QSIZE; i++) {
		memset(g->mem + buf_off(1, i), 0, HDR_LEN);
		make_frame(g->mem + buf_off(1, i) + HDR_LEN, num, d, 0);
		desc(g, 1)[i] = (struct vdesc){ gpa(buf_off(1, i)),
						HDR_LEN + len, 0, 0 };
	}
}

/**
 * flood_fill() - make every free slot of guest @g's transmit ring
 *		  available again (its prefilled frame), with one kick for
 *		  all if xcable asks for kicks
 *
 * Return: frames published
 */
static unsigned int flood_fill(struct guest *g)
{
	unsigned int n = 0;

	while (in_flight(g, 1) < QSIZE) {
		avail(g, 1)[2 + g->avail_idx[1] % QSIZE] =
			(uint16_t)(g->avail_idx[1] % QSIZE);
		g->avail_idx[1]++;
		n++;
	}
	if (n) {
		__atomic_store_n(&avail(g, 1)[1], g->avail_idx[1],
				 __ATOMIC_SEQ_CST);
		if (!(*used_flags(g, 1) & 1))	/* VRING_USED_F_NO_NOTIFY */
			kick(g, 1);
	}
	return n;
}

/**
 * flood_drain() - take every frame received by guest @g, count those of
 *		   cable @num and length @len, give the buffers back
 *
 * Return: frames of this cable received
 */
static unsigned int flood_drain(struct guest *g, unsigned int num,
				uint32_t len, unsigned int *bad)
{
	uint16_t used = __atomic_load_n(used_idx(g, 0), __ATOMIC_ACQUIRE);
	unsigned int n = 0, taken = 0;
	struct vused_elem e;
	uint32_t c32;

	for (; g->used_seen[0] != used; taken++) {
		e = used_ring(g, 0)[g->used_seen[0]++ % QSIZE];
		if (e.id >= QSIZE) {
			(*bad)++;
			continue;
		}
		memcpy(&c32, g->mem + buf_off(0, e.id) + HDR_LEN + ID_OFF, 4);
		if (c32 == num && e.len == HDR_LEN + len)
			n++;
		else
			(*bad)++;
		avail(g, 0)[2 + g->avail_idx[0]++ % QSIZE] = (uint16_t)e.id;
	}
	if (taken)
		__atomic_store_n(&avail(g, 0)[1], g->avail_idx[0],
				 __ATOMIC_RELEASE);
	return n;
}

/**
 * flood() - frames both ways on the first @fr->busy cables as fast as the
 *	     rings take them, for @fr->flood_s seconds; prints the rate
 *
 * Return: 0, 1 if a frame arrived where it should not
 */
static int flood(struct front *fr)
{
	uint64_t sent = 0, got = 0, t0 = now_ms(), end, ms;
	unsigned int i, d, bad = 0, num;

	for (i = 0; i < fr->busy; i++)
		for (d = 0; d < 2; d++)
			flood_prefill(&fr->c[i].g[d], fr->first + i, d,
				      fr->flood_len);
	end = t0 + (uint64_t)fr->flood_s * 1000;
	while (now_ms() < end)
		for (i = 0; i < fr->busy; i++)
			for (d = 0; d < 2; d++) {
				num = fr->first + i;
				sent += flood_fill(&fr->c[i].g[d]);
				got += flood_drain(&fr->c[i].g[!d], num,
						   fr->flood_len, &bad);
			}
	ms = now_ms() - t0;
	say("flood: %u cable(s) both ways, %u-byte frames, for %llu ms: sent %llu, received %llu, mismatched %u, %.3f Mpps received",
	    fr->busy, fr->flood_len, (unsigned long long)ms, (unsigned long long)sent,
	    (unsigned long long)got, bad, ms ? (double)got / (double)ms / 1e3 : 0);
	return bad ? 1 : 0;
}

/**
 * hold() - stay attached, asleep, until @fr->hold_s seconds pass or
 *	    SIGTERM/SIGINT comes; watch every connection
 * @fr:		the run
 *
 * Return: connections xcable closed meanwhile, or -errno
 */
static int hold(struct front *fr)
{
	struct epoll_event ev, evs[64];
	uint64_t end = now_ms() + (uint64_t)fr->hold_s * 1000;
	int ep, sfd, n, k, closed = 0, wait;
	unsigned int i, s;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	sfd = signalfd(-1, &set, SFD_CLOEXEC);
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (sfd < 0 || ep < 0)
		return -errno;
	ev = (struct epoll_event){ .events = EPOLLIN, .data.u64 = UINT64_MAX };
	epoll_ctl(ep, EPOLL_CTL_ADD, sfd, &ev);
	for (i = 0; i < fr->n; i++)
		for (s = 0; s < 2; s++) {
			ev = (struct epoll_event){ .events = EPOLLRDHUP,
						   .data.u64 = i * 2 + s };
			if (epoll_ctl(ep, EPOLL_CTL_ADD, fr->c[i].g[s].sock,
				      &ev) < 0)
				return -errno;
		}
	say("holding %u cable(s)%s", fr->n,
	    fr->hold_s < 0 ? " until SIGTERM" : "");
	for (;;) {
		if (fr->hold_s >= 0 && now_ms() >= end)
			break;
		wait = fr->hold_s < 0 ? -1 : (int)(end - now_ms());
		n = epoll_wait(ep, evs, 64, wait);
		if (n < 0 && errno != EINTR)
			return -errno;
		for (k = 0; k < n; k++) {
			uint64_t u = evs[k].data.u64;

			if (u == UINT64_MAX)
				goto out;
			i = (unsigned int)(u / 2);
			say("cable %u: xcable closed the %s connection",
			    fr->first + i, u % 2 ? "right" : "left");
			fr->c[i].closed = true;
			epoll_ctl(ep, EPOLL_CTL_DEL, fr->c[i].g[u % 2].sock,
				  NULL);
			closed++;
		}
	}
out:
	say("held: %d connection(s) closed by xcable", closed);
	close(ep);
	close(sfd);
	return closed;
}

/**
 * reconnect() - connect a guest again and do the handshake, once
 * @g:		guest, closed
 * @path:	its socket
 *
 * Return: 0 if it is connected again, -errno (and closed) otherwise
 */
static int reconnect(struct guest *g, const char *path)
{
	int rc;

	guest_init(g);
	rc = guest_open_for(g, path, 0);
	if (rc == 0)
		rc = guest_setup(g, &SETUP_DEFAULT, 0);
	if (rc) {
		guest_close(g);
		return rc;
	}
	close(g->memfd);
	g->memfd = -1;
	return 0;
}

/**
 * struct watch - one guest followed by its own thread (a handshake may
 *		  wait for xcable; the other guests are followed meanwhile)
 * @fr:		the run
 * @i:		cable index
 * @s:		0 left, 1 right
 * @t0:		start of the phase (now_ms())
 * @end:	end of the phase
 */
struct watch {
	struct front *fr;
	unsigned int i, s;
	uint64_t t0, end;
};

/**
 * watch_one() - follow one guest's carrier (a thread): when xcable closes
 *		 its connection, say so; then connect again every 10 ms,
 *		 and say when it is up
 * @arg:	struct watch
 *
 * Return: NULL
 */
static void *watch_one(void *arg)
{
	struct watch *w = arg;
	struct cable *c = &w->fr->c[w->i];
	const char *side = w->s ? "right" : "left";
	unsigned int num = w->fr->first + w->i;
	struct guest *g = &c->g[w->s];
	char path[108], byte;
	struct pollfd p;
	bool gone = false;

	snprintf(path, sizeof(path), w->fr->pat[w->s], (int)num);
	while (now_ms() < w->end) {
		if (gone) {
			if (reconnect(g, path) == 0) {
				gone = false;
				c->ups[w->s]++;
				say("carrier cable %u %s up at %llu ms", num, side,
				    (unsigned long long)(now_ms() - w->t0));
			} else {
				msleep(10);
			}
			continue;
		}
		p = (struct pollfd){ .fd = g->sock, .events = POLLIN | POLLRDHUP };
		if (poll(&p, 1, 10) <= 0)
			continue;
		if (!(p.revents & (POLLHUP | POLLRDHUP | POLLERR)) &&
		    recv(g->sock, &byte, 1, MSG_PEEK | MSG_DONTWAIT) != 0)
			continue;
		say("carrier cable %u %s down at %llu ms", num, side,
		    (unsigned long long)(now_ms() - w->t0));
		guest_close(g);
		gone = true;
		c->downs[w->s]++;
	}
	return NULL;
}

/**
 * follow() - follow every guest's carrier for @fr->follow_s seconds, as a
 *	      guest with QEMU's reconnect sees it (see the top of the file):
 *	      a thread per guest
 * @fr:		the run, attached
 *
 * Return: 0, or -errno
 */
static int follow(struct front *fr)
{
	unsigned int i, s, k, n = 2 * fr->n;
	struct watch *w = calloc(n, sizeof(*w));
	pthread_t *th = calloc(n, sizeof(*th));
	uint64_t t0 = now_ms();
	int rc = 0;

	if (w == NULL || th == NULL) {
		free(w);
		free(th);
		return -ENOMEM;
	}
	say("following the carrier of %u cable(s) for %ld s", fr->n,
	    fr->follow_s);
	for (k = 0; k < n; k++) {
		w[k] = (struct watch){ .fr = fr, .i = k / 2, .s = k % 2,
				       .t0 = t0,
				       .end = t0 + (uint64_t)fr->follow_s * 1000 };
		if (pthread_create(&th[k], NULL, watch_one, &w[k])) {
			rc = -EAGAIN;
			n = k;
			break;
		}
	}
	for (k = 0; k < n; k++)
		pthread_join(th[k], NULL);
	for (i = 0; i < fr->n && rc == 0; i++)
		for (s = 0; s < 2; s++)
			say("carrier cable %u %s: downs %u, ups %u",
			    fr->first + i, s ? "right" : "left",
			    fr->c[i].downs[s], fr->c[i].ups[s]);
	free(w);
	free(th);
	return rc;
}

/**
 * pattern_ok() - whether @p has exactly one %d and no other conversion
 */
static bool pattern_ok(const char *p)
{
	unsigned int d = 0;

	for (; *p; p++)
		if (*p == '%') {
			if (p[1] != 'd')
				return false;
			d++;
			p++;
		}
	return d == 1;
}

/* release() - close every guest (guest_init()ed or open) and free them */
static void release(struct front *fr)
{
	unsigned int i, s;

	for (i = 0; i < fr->n; i++)
		for (s = 0; s < 2; s++)
			if (fr->c[i].g[s].mem)
				guest_close(&fr->c[i].g[s]);
	free(fr->c);
}

static int usage(const char *why)
{
	fprintf(stderr, "xcfront: %s\n"
		"usage: xcfront --pairs LEFT,RIGHT --count N [--first I] [--frames K]\n"
		"               [--listen left] [--plug right]\n"
		"               [--hold SECONDS|forever] [--flood SECONDS [--busy B]\n"
		"               [--flood-len L]] [--follow SECONDS]\n"
		"  LEFT, RIGHT: socket paths with one %%d, the cable's number\n", why);
	return 2;
}

/**
 * number() - parse option @name's value @v into @out, within @lo..@hi
 *
 * Return: true if valid
 */
static bool number(const char *name, const char *v, long lo, long hi,
		   long *out)
{
	char *end;

	errno = 0;
	*out = strtol(v, &end, 10);
	if (errno || end == v || *end || *out < lo || *out > hi) {
		fprintf(stderr, "xcfront: %s: '%s' is not a number from %ld to %ld\n",
			name, v, lo, hi);
		return false;
	}
	return true;
}

/**
 * parse() - the command line into @fr
 *
 * Return: 0, or 2 (usage error, printed)
 */
static int parse(struct front *fr, int argc, char **argv)
{
	static char pairs[512];
	long v;
	char *comma;
	int a;

	*fr = (struct front){ .frames = 8 };
	for (a = 1; a < argc; a += 2) {
		const char *o = argv[a], *val = a + 1 < argc ? argv[a + 1] : NULL;

		if (!val)
			return usage("an option without its value");
		if (!strcmp(o, "--pairs")) {
			snprintf(pairs, sizeof(pairs), "%s", val);
			comma = strchr(pairs, ',');
			if (!comma)
				return usage("--pairs: LEFT,RIGHT expected");
			*comma = 0;
			fr->pat[0] = pairs;
			fr->pat[1] = comma + 1;
			if (!pattern_ok(fr->pat[0]) || !pattern_ok(fr->pat[1]))
				return usage("--pairs: each path needs exactly one %d and no other %");
		} else if (!strcmp(o, "--listen")) {
			if (strcmp(val, "left"))
				return usage("--listen: only left");
			fr->listen = true;
		} else if (!strcmp(o, "--plug")) {
			if (strcmp(val, "right"))
				return usage("--plug: only right");
			fr->plug = true;
		} else if (!strcmp(o, "--count")) {
			if (!number(o, val, 1, MAX_CABLES, &v))
				return 2;
			fr->n = (unsigned int)v;
		} else if (!strcmp(o, "--first")) {
			if (!number(o, val, 0, 1 << 20, &v))
				return 2;
			fr->first = (unsigned int)v;
		} else if (!strcmp(o, "--frames")) {
			if (!number(o, val, 0, MAX_FRAMES, &v))
				return 2;
			fr->frames = (unsigned int)v;
		} else if (!strcmp(o, "--hold")) {
			if (!strcmp(val, "forever"))
				fr->hold_s = -1;
			else if (!number(o, val, 0, 1 << 24, &fr->hold_s))
				return 2;
		} else if (!strcmp(o, "--flood")) {
			if (!number(o, val, 1, 3600, &fr->flood_s))
				return 2;
		} else if (!strcmp(o, "--follow")) {
			if (!number(o, val, 1, 3600, &fr->follow_s))
				return 2;
		} else if (!strcmp(o, "--busy")) {
			if (!number(o, val, 1, MAX_CABLES, &v))
				return 2;
			fr->busy = (unsigned int)v;
		} else if (!strcmp(o, "--flood-len")) {
			if (!number(o, val, MIN_LEN, MAX_LEN, &v))
				return 2;
			fr->flood_len = (unsigned int)v;
		} else {
			return usage("unknown option");
		}
	}
	if (!fr->pat[0] || !fr->n)
		return usage("--pairs and --count are needed");
	if (fr->busy > fr->n)
		return usage("--busy: more cables than --count");
	if (fr->plug && (fr->flood_s || fr->hold_s || fr->follow_s))
		return usage("--plug: checks only (no --flood, --hold, --follow)");
	if (!fr->busy)
		fr->busy = 1;
	if (!fr->flood_len)
		fr->flood_len = FLOOD_LEN;
	return 0;
}

int main(int argc, char **argv)
{
	struct rlimit rl;
	struct front fr;
	uint64_t t0, sent;
	unsigned int up, failed;
	int rc = parse(&fr, argc, argv), held = 0;

	if (rc)
		return rc;
	/* five fds a guest: socket, two kick and two call eventfds */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	fr.c = calloc(fr.n, sizeof(*fr.c));
	if (!fr.c)
		return 1;
	t0 = now_ms();
	if (attach(&fr)) {
		release(&fr);
		return 1;
	}
	say("attached %u cable(s) (%u sockets) in %llu ms", fr.n, ends(&fr) * fr.n,
	    (unsigned long long)(now_ms() - t0));
	t0 = now_ms();
	up = link_up(&fr, 10000);
	say("%u of %u cable(s) up both ways in %llu ms", up, fr.n,
	    (unsigned long long)(now_ms() - t0));
	sent = check(&fr);
	failed = report(&fr, sent);
	if (fr.flood_s && flood(&fr))
		failed++;
	if (fr.hold_s)
		held = hold(&fr);
	if (fr.follow_s && follow(&fr))
		failed++;
	release(&fr);
	return failed || held ? 1 : 0;
}
