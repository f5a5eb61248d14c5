/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * capture.c - xcablectl capture: the frames crossing cable ends, as a
 *	       pcapng stream on the control socket
 *
 *   capture CABLE[:END]... [-s SNAPLEN] [-c COUNT] [-a duration:S] [-f FILTER]
 *
 * Theory of operation: the control thread reads the request (capspec.c),
 * compiles the filter with libpcap and converts it for rte_bpf (as
 * dpdk-dumpcap does), makes the capture's own pool and ring, writes the
 * stream's first blocks (a section header, one interface per end: its
 * name CABLE:END) and puts a tap (tap.c) on every direction of every
 * captured end: the frames received from it (inbound) and those sent to
 * it that it took (outbound). Then the connection goes to the stream
 * thread (stream.c), which takes the copies from the ring and writes them
 * as enhanced packet blocks, as fast as the reader takes them: while it
 * does not, its buffer stays full, the ring fills, and the lcores count
 * the copies they cannot queue (the frames themselves go on: a capture
 * never slows or drops a cable's frames). The stream polls its ring every
 * millisecond while copies come, less often when none do, and not at all
 * once it ended.
 *
 * It ends when COUNT frames were written, after S seconds, when the
 * reader ends its side (xcablectl's Ctrl-C), or once the cables of all
 * its ends went (removed, or made again by a change: the statistics of
 * such an end are written when it goes, with a comment saying why). It
 * ends with an interface statistics block per end: frames seen, accepted
 * by the filter, dropped (the copies that could not be made or queued)
 * and written. Nothing of it uses hugepages of its own or a secondary
 * process: it works wherever xcable runs, as whoever may use the control
 * socket.
 *
 * Its taps are taken off first; the lcores may still be using them until
 * their next poll boundary, so the capture is freed only once every lcore
 * passed two (xc_captures_reap(), from the stream thread's tick).
 */
/* rte_bpf_convert() is experimental in DPDK 22.11 (dpdk-dumpcap's too) */
#define ALLOW_EXPERIMENTAL_API

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pcap/pcap.h>
#include <rte_bpf.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "capspec.h"
#include "capture.h"
#include "dir.h"
#include "log.h"
#include "pcapng.h"
#include "tap.h"

RTE_LOG_REGISTER(xc_logtype_capture, xcable.capture, INFO);

#define XC_CAP_RING		4096	/* copies queued at most */
#define XC_CAP_CACHE		64	/* per-lcore cache of its pool */
#define XC_CAP_ROOM		2048	/* data room of a copy's mbufs */
#define XC_CAP_POLL_MAX_MS	16	/* ring polled at least this often */
#define XC_CAP_BURST		64	/* copies taken from the ring at once */

/**
 * struct cap_if - one captured end: a pcapng interface
 * @cable:	its cable (the slot: it outlives the cable)
 * @end:	which end
 * @cname:	the cable's name (its slot forgets it when it goes)
 * @name:	CABLE:END
 * @tap:	its taps: one per direction it receives on or sends from
 * @n_tap:	how many
 * @written:	its frames written
 * @closed:	its statistics were written (its cable went, or the capture
 *		ended)
 */
struct cap_if {
	struct xc_cable *cable;
	int end;
	char cname[XC_NAME_MAX];
	char name[2 * XC_NAME_MAX + 8];
	struct xc_tap *tap[2 * XC_MAX_QUEUES];
	unsigned int n_tap;
	uint64_t written;
	bool closed;
};

/**
 * struct xc_capture - one capture (made by the control thread, then the
 *		       stream thread's)
 * @owner:	the captures it is one of
 * @ring:	the copies
 * @pool:	what they are made of
 * @bpf:	its filter, NULL for every frame
 * @spec:	what was asked (its words are gone: @filter kept apart)
 * @filter:	the filter's text
 * @written:	frames written
 * @start_ns:	when it began (CLOCK_REALTIME)
 * @start_tsc:	the TSC then
 * @end_ms:	when its duration is over (stream clock), 0 for never
 * @poll_ms:	how long until its ring is polled again
 * @next_ms:	when it is
 * @held:	copies taken from the ring, not written yet (the buffer
 *		was full)
 * @held_i:	the first of them
 * @held_n:	how many
 * @ending:	it ends: what remains and the statistics are written
 * @off:	its taps were taken off (at @mark)
 * @why:	why it ended, for the log
 * @mark:	where each lcore was when its taps were taken off
 * @next:	the next capture waiting for the lcores (@owner->dying)
 * @n_if:	its ends
 * @ifs:	each one
 */
struct xc_capture {
	struct xc_captures *owner;
	struct rte_ring *ring;
	struct rte_mempool *pool;
	struct rte_bpf *bpf;
	struct xc_capspec spec;
	char filter[XC_CTL_LINE_MAX];
	uint64_t written;
	uint64_t start_ns;
	uint64_t start_tsc;
	uint64_t end_ms;
	uint64_t poll_ms;
	uint64_t next_ms;
	struct rte_mbuf *held[XC_CAP_BURST];
	unsigned int held_i;
	unsigned int held_n;
	bool ending;
	bool off;
	char why[64];
	uint64_t mark[RTE_MAX_LCORE];
	struct xc_capture *next;
	unsigned int n_if;
	struct cap_if ifs[XC_CAP_IFS];
};

/**
 * now_ns() - nanoseconds since the epoch, as pcapng timestamps are
 *
 * Return: the time
 */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/**
 * compile() - the filter, for rte_bpf: compiled by libpcap for Ethernet
 *	       frames, converted from classic BPF (rte_bpf_convert())
 * @cap:	the capture: its @bpf is set
 * @why:	the reason it is refused
 * @whylen:	size of @why
 *
 * Return: 0, or -EINVAL with @why set
 */
static int compile(struct xc_capture *cap, char *why, size_t whylen)
{
	struct bpf_program prog;
	struct rte_bpf_prm *prm;
	pcap_t *pc;
	int rc = -EINVAL;

	pc = pcap_open_dead(DLT_EN10MB, (int)cap->spec.snaplen);
	if (pc == NULL) {
		snprintf(why, whylen, "capture: out of memory for the filter");
		return -ENOMEM;
	}
	if (pcap_compile(pc, &prog, cap->filter, 1, PCAP_NETMASK_UNKNOWN)) {
		snprintf(why, whylen, "capture: filter '%.80s': %.100s",
			 cap->filter, pcap_geterr(pc));
		pcap_close(pc);
		return -EINVAL;
	}
	prm = rte_bpf_convert(&prog);
	if (prm == NULL) {
		snprintf(why, whylen, "capture: filter '%.80s' cannot be run: %s",
			 cap->filter, rte_strerror(rte_errno));
	} else {
		cap->bpf = rte_bpf_load(prm);
		if (cap->bpf == NULL)
			snprintf(why, whylen, "capture: filter '%.80s' cannot be loaded: %s",
				 cap->filter, rte_strerror(rte_errno));
		else
			rc = 0;
		rte_free(prm);
	}
	pcap_freecode(&prog);
	pcap_close(pc);
	return rc;
}

/**
 * add_if() - add an end to a capture, once
 * @cap:	the capture
 * @c:		its cable
 * @end:	which end
 * @why:	the reason it cannot
 * @whylen:	size of @why
 *
 * Return: 0, or -E2BIG
 */
static int add_if(struct xc_capture *cap, struct xc_cable *c, int end,
		  char *why, size_t whylen)
{
	struct cap_if *f;
	unsigned int i;

	for (i = 0; i < cap->n_if; i++)
		if (cap->ifs[i].cable == c && cap->ifs[i].end == end)
			return 0;
	if (cap->n_if == XC_CAP_IFS) {
		snprintf(why, whylen, "capture: at most %d ends at once",
			 XC_CAP_IFS);
		return -E2BIG;
	}
	f = &cap->ifs[cap->n_if++];
	f->cable = c;
	f->end = end;
	snprintf(f->cname, sizeof(f->cname), "%s", c->name);
	snprintf(f->name, sizeof(f->name), "%s:%s", c->name, end ? "right" :
		 "left");
	return 0;
}

/**
 * resolve() - the ends the request names, among the shown cables (the
 *	       caller holds the cables' lock)
 * @cap:	the capture: its ends are added
 * @cables:	the cable slots
 * @n_cables:	how many
 * @why:	the reason it is refused
 * @whylen:	size of @why
 *
 * Return: 0, or -errno with @why set
 */
static int resolve(struct xc_capture *cap, struct xc_cable *cables,
		   unsigned int n_cables, char *why, size_t whylen)
{
	char name[XC_NAME_MAX];
	struct xc_cable *c;
	const char *end;
	unsigned int i;
	int j, rc;

	for (i = 0; i < cap->spec.n_target; i++) {
		if (xc_capspec_target(cap->spec.target[i], name, sizeof(name),
				      &end) ||
		    (c = xc_cable_find(cables, n_cables, name)) == NULL) {
			snprintf(why, whylen, "capture: no cable '%.40s'",
				 cap->spec.target[i]);
			return -ENOENT;
		}
		j = end ? xc_cable_end_named(c, end) : -1;
		if (end && j < 0) {
			snprintf(why, whylen, "capture: cable %s has no end '%.40s' (left or right)",
				 c->name, end);
			return -ENOENT;
		}
		rc = add_if(cap, c, j < 0 ? 0 : j, why, whylen);
		if (rc == 0 && j < 0)
			rc = add_if(cap, c, 1, why, whylen);
		if (rc)
			return rc;
	}
	return 0;
}

/**
 * make_taps() - the taps of every end, for every direction of its cable
 *		 (the caller holds the cables' lock)
 * @cap:	the capture, its ends resolved, its ring and pool made
 *
 * Return: 0, or -ENOMEM
 */
static int make_taps(struct xc_capture *cap)
{
	struct xc_tap *t;
	unsigned int i, q, k;

	for (i = 0; i < cap->n_if; i++) {
		struct cap_if *f = &cap->ifs[i];

		for (q = 0; q < f->cable->n_queues; q++) {
			for (k = 0; k < 2; k++) {
				t = calloc(1, sizeof(*t));
				if (t == NULL)
					return -ENOMEM;
				t->ring = cap->ring;
				t->pool = cap->pool;
				t->bpf = cap->bpf;
				t->snaplen = cap->spec.snaplen;
				t->ifidx = (uint16_t)i;
				t->out = k == 1;
				f->tap[f->n_tap++] = t;
			}
		}
	}
	return 0;
}

/**
 * attach_taps() - put the taps on: inbound on each direction receiving
 *		   from the end, outbound on each sending to it (the caller
 *		   holds the cables' lock: the cables are shown)
 * @cap:	the capture, its taps made
 */
static void attach_taps(struct xc_capture *cap)
{
	unsigned int i, k;

	for (i = 0; i < cap->n_if; i++) {
		struct cap_if *f = &cap->ifs[i];

		for (k = 0; k < f->n_tap; k++) {
			struct xc_tap *t = f->tap[k];
			/* dir[2q + j] receives from end j and sends to 1 - j */
			struct xc_dir *d = &f->cable->dir[2 * (k / 2) +
				(t->out ? 1 - f->end : f->end)];

			xc_tap_attach(t, t->out ? &d->tap_out : &d->tap_in);
		}
	}
}

/**
 * first_blocks() - the stream's first blocks: the section header, an
 *		    interface description per end
 * @cap:	the capture, its ends resolved (the cables' lock held)
 * @out:	appended to
 */
static void first_blocks(const struct xc_capture *cap, struct xc_sbuf *out)
{
	char app[64], descr[XC_CTL_LINE_MAX + 256];
	unsigned int i;

	snprintf(app, sizeof(app), "xcable %s", XC_VERSION);
	xc_pcapng_shb(out, app);
	for (i = 0; i < cap->n_if; i++) {
		const struct xc_end *e = &cap->ifs[i].cable->end[cap->ifs[i].end];

		snprintf(descr, sizeof(descr), "cable %s, %s end (%.64s: %.128s)%s%s",
			 cap->ifs[i].cable->name, cap->ifs[i].end ? "right" :
			 "left", e->port ? e->port->name : e->ops->kind,
			 xc_end_where(e), cap->spec.filter ? ", filter: " : "",
			 cap->spec.filter ? cap->filter : "");
		xc_pcapng_idb(out, cap->ifs[i].name, descr, cap->spec.snaplen);
	}
}

/**
 * free_capture() - free what a capture holds: its taps (no lcore uses
 *		    them), the copies left, its ring, pool and filter
 * @cap:	the capture
 */
static void free_capture(struct xc_capture *cap)
{
	struct rte_mbuf *m[XC_CAP_BURST];
	unsigned int i, k, n;

	for (i = 0; i < cap->n_if; i++)
		for (k = 0; k < cap->ifs[i].n_tap; k++)
			free(cap->ifs[i].tap[k]);
	rte_pktmbuf_free_bulk(cap->held + cap->held_i, cap->held_n);
	while (cap->ring &&
	       (n = rte_ring_sc_dequeue_burst(cap->ring, (void **)m,
					      XC_CAP_BURST, NULL)) > 0)
		rte_pktmbuf_free_bulk(m, n);
	rte_ring_free(cap->ring);
	rte_mempool_free(cap->pool);
	if (cap->bpf)
		rte_bpf_destroy(cap->bpf);
	free(cap);
}

/**
 * make() - the capture's ring, pool, filter and taps
 * @caps:	the captures
 * @cap:	the capture, its request read
 * @why:	the reason it cannot be made
 * @whylen:	size of @why
 *
 * Return: 0, or -errno with @why set
 */
static int make(struct xc_captures *caps, struct xc_capture *cap, char *why,
		size_t whylen)
{
	unsigned int id = __atomic_add_fetch(&caps->seq, 1, __ATOMIC_RELAXED);
	uint16_t room = (uint16_t)RTE_MIN(cap->spec.snaplen,
					  (uint32_t)XC_CAP_ROOM);
	char name[RTE_MEMPOOL_NAMESIZE];

	if (cap->spec.filter && compile(cap, why, whylen))
		return -EINVAL;
	snprintf(name, sizeof(name), "xc_cap%u", id);
	cap->ring = rte_ring_create(name, XC_CAP_RING, SOCKET_ID_ANY,
				    RING_F_SC_DEQ);
	cap->pool = rte_pktmbuf_pool_create(name, XC_CAP_RING + 1024,
					    XC_CAP_CACHE, 0,
					    (uint16_t)(room + RTE_PKTMBUF_HEADROOM),
					    SOCKET_ID_ANY);
	if (cap->ring == NULL || cap->pool == NULL) {
		snprintf(why, whylen, "capture: no memory for its %d copies: %s",
			 XC_CAP_RING, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	return 0;
}

/**
 * xc_capture_begin() - start a capture (control thread): read the
 *			request, make its ring, pool, filter and taps, write
 *			its first blocks, put its taps on
 * @caps:	the captures
 * @cables:	the cable slots
 * @n_cables:	how many
 * @lock:	held for reading while the cables are looked at, or NULL
 * @r:		the request, split
 * @first:	the stream's first bytes are appended
 * @out:	set to the capture, for the stream thread (xc_capture_kind)
 * @why:	the reason it is refused
 * @whylen:	size of @why
 *
 * Return: 0, or -errno with @why set (nothing is left of it)
 */
int xc_capture_begin(struct xc_captures *caps, struct xc_cable *cables,
		     unsigned int n_cables, pthread_rwlock_t *lock,
		     const struct xc_ctl_req *r, struct xc_sbuf *first,
		     void **out, char *why, size_t whylen)
{
	struct xc_capture *cap = calloc(1, sizeof(*cap));
	int rc;

	if (cap == NULL) {
		snprintf(why, whylen, "capture: out of memory");
		return -ENOMEM;
	}
	cap->owner = caps;
	rc = xc_capspec_parse(r, &cap->spec, why, whylen);
	if (rc == 0 && cap->spec.filter)
		snprintf(cap->filter, sizeof(cap->filter), "%s",
			 cap->spec.filter);
	cap->spec.filter = cap->spec.filter ? cap->filter : NULL;
	if (rc == 0 && __atomic_load_n(&caps->n, __ATOMIC_ACQUIRE) >= XC_CAP_MAX) {
		snprintf(why, whylen, "capture: %d captures run already: end one first",
			 XC_CAP_MAX);
		rc = -EBUSY;
	}
	if (rc == 0)
		rc = make(caps, cap, why, whylen);
	if (rc) {
		free_capture(cap);
		return rc;
	}
	if (lock)
		pthread_rwlock_rdlock(lock);
	rc = resolve(cap, cables, n_cables, why, whylen);
	if (rc == 0 && (rc = make_taps(cap)) != 0)
		snprintf(why, whylen, "capture: out of memory");
	if (rc == 0) {
		first_blocks(cap, first);
		cap->start_ns = now_ns();
		cap->start_tsc = rte_rdtsc();
		attach_taps(cap);
	}
	if (lock)
		pthread_rwlock_unlock(lock);
	if (rc) {
		free_capture(cap);
		return rc;
	}
	cap->poll_ms = 1;
	cap->next_ms = xc_stream_now_ms() + 1;
	if (cap->spec.seconds)
		cap->end_ms = xc_stream_now_ms() + cap->spec.seconds * 1000ULL;
	__atomic_add_fetch(&caps->n, 1, __ATOMIC_RELEASE);
	XC_LOG(capture, INFO, "capture of %u end(s) started (%s%s%s)",
	       cap->n_if, cap->ifs[0].name, cap->n_if > 1 ? ", ..." : "",
	       cap->spec.filter ? ", with a filter" : "");
	*out = cap;
	return 0;
}

/**
 * write_copy() - a copy as an enhanced packet block, if it fits
 * @s:		the client
 * @cap:	the capture
 * @c:		the copy
 *
 * Return: true if written (or dropped as no end's), false if no room
 */
static bool write_copy(struct xc_stream *s, struct xc_capture *cap,
		       struct rte_mbuf *c)
{
	const struct xc_tap_meta *m = xc_tap_meta_of(c);
	uint32_t caplen = c->pkt_len;
	size_t size = xc_pcapng_epb_size(caplen);
	uint8_t *p = s->buf + s->len, *d;
	const struct rte_mbuf *seg;
	uint64_t ts;

	if (m->ifidx >= cap->n_if)
		return true;	/* not ours: cannot be */
	if (xc_stream_room(s) < size)
		return false;
	ts = cap->start_ns + (uint64_t)((double)(m->tsc - cap->start_tsc) *
					1e9 / (double)rte_get_tsc_hz());
	xc_pcapng_epb(p, m->ifidx, ts, caplen, m->len,
		      m->out ? XC_PCAPNG_OUT : XC_PCAPNG_IN);
	d = p + XC_PCAPNG_EPB_HEAD;
	for (seg = c; seg; seg = seg->next) {
		memcpy(d, rte_pktmbuf_mtod(seg, const void *), seg->data_len);
		d += seg->data_len;
	}
	s->len += size;
	cap->ifs[m->ifidx].written++;
	cap->written++;
	return true;
}

/**
 * drain() - write the copies that came, as they fit, up to the count
 * @s:		the client
 * @cap:	the capture
 *
 * Return: copies written
 */
static unsigned int drain(struct xc_stream *s, struct xc_capture *cap)
{
	unsigned int n = 0;

	for (;;) {
		if (cap->held_n == 0) {
			cap->held_i = 0;
			cap->held_n = rte_ring_sc_dequeue_burst(cap->ring,
					(void **)cap->held, XC_CAP_BURST, NULL);
			if (cap->held_n == 0)
				return n;
		}
		if (cap->spec.count && cap->written >= cap->spec.count) {
			if (!cap->ending)
				snprintf(cap->why, sizeof(cap->why),
					 "%" PRIu64 " frames written",
					 cap->written);
			cap->ending = true;
			return n;
		}
		if (!write_copy(s, cap, cap->held[cap->held_i]))
			return n;
		rte_pktmbuf_free(cap->held[cap->held_i]);
		cap->held_i++;
		cap->held_n--;
		n++;
	}
}

/**
 * if_stats() - an end's statistics block
 * @cap:	the capture
 * @i:		the end
 * @why:	its comment, or NULL
 * @out:	appended to
 */
static void if_stats(const struct xc_capture *cap, unsigned int i,
		     const char *why, struct xc_sbuf *out)
{
	const struct cap_if *f = &cap->ifs[i];
	struct xc_pcapng_stats st = {
		.start_ns = cap->start_ns, .end_ns = now_ns(),
		.delivered = f->written, .comment = why,
	};
	unsigned int k;

	for (k = 0; k < f->n_tap; k++) {
		st.ifrecv += __atomic_load_n(&f->tap[k]->st.seen,
					     __ATOMIC_RELAXED);
		st.accepted += __atomic_load_n(&f->tap[k]->st.accepted,
					       __ATOMIC_RELAXED);
		st.ifdrop += __atomic_load_n(&f->tap[k]->st.dropped,
					     __ATOMIC_RELAXED);
	}
	xc_pcapng_isb(out, i, &st);
}

/**
 * put_stats() - write statistics blocks, if they fit
 * @s:		the client
 * @sb:		the blocks
 *
 * Return: true if written
 */
static bool put_stats(struct xc_stream *s, const struct xc_sbuf *sb)
{
	if (sb->failed || xc_stream_room(s) < sb->len)
		return false;
	xc_stream_put(s, sb->b, sb->len);
	return true;
}

/**
 * ends_gone() - write the statistics of the ends whose cable went, and
 *		 end the capture once none is left
 * @s:		the client
 * @cap:	the capture
 */
static void ends_gone(struct xc_stream *s, struct xc_capture *cap)
{
	struct xc_sbuf sb = { 0 };
	unsigned int i, k, open = 0;
	char why[128];
	bool gone;

	for (i = 0; i < cap->n_if; i++) {
		struct cap_if *f = &cap->ifs[i];

		if (f->closed)
			continue;
		for (gone = f->n_tap > 0, k = 0; k < f->n_tap; k++)
			gone &= __atomic_load_n(&f->tap[k]->gone,
						__ATOMIC_ACQUIRE) != 0;
		if (!gone) {
			open++;
			continue;
		}
		snprintf(why, sizeof(why), "cable %s was removed or made again: the capture of %s ended",
			 f->cname, f->name);
		xc_sbuf_free(&sb);
		if_stats(cap, i, why, &sb);
		if (!put_stats(s, &sb)) {
			open++;	/* next time */
			continue;
		}
		f->closed = true;
		XC_LOG(capture, INFO, "%s", why);
	}
	xc_sbuf_free(&sb);
	if (open == 0 && !cap->ending) {
		snprintf(cap->why, sizeof(cap->why), "its cables went");
		cap->ending = true;
	}
}

/**
 * take_off() - take a capture's taps off, once, and note where the lcores
 *		are (no copy comes after they passed it)
 * @cap:	the capture
 */
static void take_off(struct xc_capture *cap)
{
	unsigned int i, k;

	if (cap->off)
		return;
	for (i = 0; i < cap->n_if; i++)
		for (k = 0; k < cap->ifs[i].n_tap; k++)
			xc_tap_detach(cap->ifs[i].tap[k]);
	cap->owner->mark(cap->owner->lc_arg, cap->mark);
	cap->off = true;
}

/**
 * finish() - an ending capture: its taps off, the statistics of its ends
 *	      still open written
 * @s:		the client
 * @cap:	the capture
 *
 * Return: 1 once written, 0 to try again when there is room
 */
static int finish(struct xc_stream *s, struct xc_capture *cap)
{
	struct xc_sbuf sb = { 0 };
	unsigned int i;
	bool ok;

	take_off(cap);
	for (i = 0; i < cap->n_if; i++)
		if (!cap->ifs[i].closed)
			if_stats(cap, i, NULL, &sb);
	ok = put_stats(s, &sb);
	xc_sbuf_free(&sb);
	if (!ok)
		return 0;
	for (i = 0; i < cap->n_if; i++)
		cap->ifs[i].closed = true;
	XC_LOG(capture, INFO, "capture of %u end(s) ended (%s): %" PRIu64 " frames written",
	       cap->n_if, cap->why, cap->written);
	return 1;
}

/**
 * cap_fill() - the stream kind's fill: the copies that came, the ends
 *		that went, the end of the capture
 * @s:		the client
 * @priv:	the capture
 * @now:	asked by its time (its ring's poll, its duration)
 *
 * Return: 0 while it goes on, 1 once it said everything
 */
static int cap_fill(struct xc_stream *s, void *priv, bool now)
{
	struct xc_capture *cap = priv;
	uint64_t t = xc_stream_now_ms();
	unsigned int n;

	n = drain(s, cap);
	if (!cap->ending)
		ends_gone(s, cap);
	if (!cap->ending && cap->end_ms && t >= cap->end_ms) {
		snprintf(cap->why, sizeof(cap->why), "%u s", cap->spec.seconds);
		cap->ending = true;
	}
	if (cap->ending)
		return finish(s, cap);
	if (now || n) {	/* copies came: look again soon, else later */
		cap->poll_ms = n ? 1 : RTE_MIN(cap->poll_ms * 2,
					       (uint64_t)XC_CAP_POLL_MAX_MS);
		cap->next_ms = t + cap->poll_ms;
	}
	return 0;
}

/**
 * cap_eof() - the stream kind's eof: the reader ended its side (Ctrl-C)
 * @s:		the client
 * @priv:	the capture
 */
static void cap_eof(struct xc_stream *s, void *priv)
{
	struct xc_capture *cap = priv;

	(void)s;
	if (!cap->ending)
		snprintf(cap->why, sizeof(cap->why), "the reader ended it");
	cap->ending = true;
}

/**
 * cap_due() - the stream kind's due: when its ring is polled, or its
 *	       duration over
 * @s:		the client
 * @priv:	the capture
 *
 * Return: the time (stream clock), 0 for none
 */
static uint64_t cap_due(struct xc_stream *s, void *priv)
{
	struct xc_capture *cap = priv;

	(void)s;
	if (cap->ending)
		return 0;
	return cap->end_ms && cap->end_ms < cap->next_ms ? cap->end_ms :
	       cap->next_ms;
}

/**
 * cap_gone() - the stream kind's gone: the capture's taps off, and the
 *		capture freed once no lcore can hold them
 *		(xc_captures_reap())
 * @s:		the client, NULL if it was never served
 * @priv:	the capture
 */
static void cap_gone(struct xc_stream *s, void *priv)
{
	struct xc_capture *cap = priv;
	struct xc_captures *caps = cap->owner;

	(void)s;
	if (!cap->ending)
		XC_LOG(capture, INFO, "capture of %u end(s): the reader left: %" PRIu64 " frames written",
		       cap->n_if, cap->written);
	take_off(cap);
	pthread_mutex_lock(&caps->lock);
	cap->next = caps->dying;
	caps->dying = cap;
	pthread_mutex_unlock(&caps->lock);
	__atomic_sub_fetch(&caps->n, 1, __ATOMIC_RELEASE);
}

const struct xc_stream_kind xc_capture_kind = {
	.name = "capture",
	.buf_size = 1024 * 1024,
	.fill = cap_fill,
	.eof = cap_eof,
	.due = cap_due,
	.gone = cap_gone,
};

/**
 * xc_captures_reap() - free the captures over once every lcore passed
 *			their mark (the stream thread's tick)
 * @caps:	the captures
 *
 * Return: when to look again (stream clock), 0 if none waits
 */
uint64_t xc_captures_reap(struct xc_captures *caps)
{
	struct xc_capture **p, *cap;
	bool left;

	pthread_mutex_lock(&caps->lock);
	for (p = &caps->dying; (cap = *p) != NULL;) {
		if (caps->past(caps->lc_arg, cap->mark)) {
			*p = cap->next;
			free_capture(cap);
		} else {
			p = &cap->next;
		}
	}
	left = caps->dying != NULL;
	pthread_mutex_unlock(&caps->lock);
	return left ? xc_stream_now_ms() + 2 : 0;
}

/**
 * xc_captures_fini() - free the captures over (every lcore stopped, the
 *			stream thread too)
 * @caps:	the captures
 */
void xc_captures_fini(struct xc_captures *caps)
{
	struct xc_capture *cap;

	while ((cap = caps->dying) != NULL) {
		caps->dying = cap->next;
		free_capture(cap);
	}
}
