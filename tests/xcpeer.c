/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xcpeer.c - a test frontend for xcable, built on DPDK's net_virtio_user
 *
 * It plays the VMs: its virtio_user ports connect to xcable's vhost-user
 * sockets (or listen, with server=1, for xcable --client). Modes:
 *
 *   frames        ports 0 and 1: send every kind of frame a cable must carry
 *                 from 0 to 1 and from 1 to 0, and compare byte for byte
 *   backpressure  ports 0 and 1: send --count frames from 0 while port 1 is
 *                 not read for --stall-ms, then drain: all must arrive, in
 *                 order
 *   stream        port 0: send --pps tagged frames for --seconds, count what
 *                 arrives from each other stream (--id tells them apart)
 *   loop          ports 0 and 1 (benchmark): inject --inflight frames of
 *                 --size bytes, half on each port, and send back out of the
 *                 same port whatever arrives, so that a fixed set of frames
 *                 circulates through the cable in both directions; after
 *                 --warmup seconds count for --seconds, then report rates
 *                 and how many of the injected frames were lost
 *   rr            ports 0 and 1 (benchmark): round trips of 64-byte
 *                 requests from 0 answered by 1, back to back on an idle
 *                 cable (--load 0) or every --gap-us while a bulk stream
 *                 goes from 0 to 1 (--load 1; --window N: at most N bulk
 *                 frames in flight, as a TCP's window, else as fast as
 *                 the cable takes them)
 *   sizes         ports 0 and 1: --count frames of each length of --lens
 *                 (a "v" after a length: with an 802.1Q tag) from 0 to 1,
 *                 and how many of each arrived
 *
 * With --wait-file F it starts sending only once F exists, so that a test
 * harness can first see xcable report both ends up. In frames mode,
 * --record P writes the frames sent from port 0 to P-0.pcap and those sent
 * from port 1 to P-1.pcap, in order (to compare a capture with).
 *
 * Output is one line per check, "ok ..." or "FAIL ...", and the exit
 * status is 0 only if every check passed.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <limits.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "l4frames.h"
#include "testlib.h"

#define SEG_SIZE	2048
#define MAX_FRAME	9018
#define MAGIC		0x58434142u	/* "XCAB" */
#define MAX_IDS		16

/**
 * struct peer - state of the test frontend
 * @pool:	mbufs
 * @n_ports:	ports in use
 * @mtu:	MTU configured on the ports
 * @rx_offl:	Rx offloads to ask for: 0 none, 1 checksums, 2 also TSO
 * @tx_offl:	Tx offloads to ask for: 0 none, 1 checksums, 2 also TSO
 */
struct peer {
	struct rte_mempool *pool;
	uint16_t n_ports;
	uint16_t mtu;
	int rx_offl;
	int tx_offl;
};

/**
 * struct kind - one frame of the catalogue
 * @name:	what it is
 * @len:	frame length without FCS
 * @hdr:	the first bytes (addresses, tags, ethertype)
 * @hdr_len:	bytes in @hdr
 */
struct kind {
	const char *name;
	uint16_t len;
	uint8_t hdr[32];
	uint8_t hdr_len;
};

#define SRC 0x52, 0x54, 0x00, 0x12, 0x34, 0x56
#define UCAST 0x52, 0x54, 0x00, 0xab, 0xcd, 0xef

static const struct kind kinds[] = {
	{ "unicast 60 bytes", 60, { UCAST, SRC, 0x88, 0xb5 }, 14 },
	{ "unicast 64 bytes", 64, { UCAST, SRC, 0x88, 0xb5 }, 14 },
	{ "unicast 65 bytes", 65, { UCAST, SRC, 0x88, 0xb5 }, 14 },
	{ "unicast 128 bytes", 128, { UCAST, SRC, 0x88, 0xb5 }, 14 },
	{ "unicast 511 bytes", 511, { UCAST, SRC, 0x88, 0xb5 }, 14 },
	{ "unicast 1023 bytes", 1023, { UCAST, SRC, 0x88, 0xb5 }, 14 },
	{ "unicast 1514 bytes", 1514, { UCAST, SRC, 0x88, 0xb5 }, 14 },
	{ "unicast 1518 bytes", 1518, { UCAST, SRC, 0x88, 0xb5 }, 14 },
	{ "broadcast ARP", 60,
	  { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, SRC, 0x08, 0x06 }, 14 },
	{ "IPv4 multicast", 100,
	  { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01, SRC, 0x08, 0x00 }, 14 },
	{ "IPv6 multicast", 100,
	  { 0x33, 0x33, 0x00, 0x00, 0x00, 0x01, SRC, 0x86, 0xdd }, 14 },
	{ "STP BPDU 01:80:c2:00:00:00", 60,
	  { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x00, SRC, 0x00, 0x26,
	    0x42, 0x42, 0x03 }, 17 },
	{ "LACP 01:80:c2:00:00:02", 124,
	  { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x02, SRC, 0x88, 0x09, 0x01,
	    0x01 }, 16 },
	{ "LLDP 01:80:c2:00:00:0e", 80,
	  { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e, SRC, 0x88, 0xcc }, 14 },
	{ "802.1Q VLAN 100", 64,
	  { UCAST, SRC, 0x81, 0x00, 0x00, 0x64, 0x08, 0x00 }, 18 },
	{ "802.1Q VLAN 100, 1522 bytes", 1522,
	  { UCAST, SRC, 0x81, 0x00, 0x00, 0x64, 0x08, 0x00 }, 18 },
	{ "QinQ 802.1ad 10 / 802.1Q 20", 68,
	  { UCAST, SRC, 0x88, 0xa8, 0x00, 0x0a, 0x81, 0x00, 0x00, 0x14,
	    0x08, 0x00 }, 22 },
	{ "unknown ethertype 0x1234", 60, { UCAST, SRC, 0x12, 0x34 }, 14 },
	{ "unknown ethertype 0xffff", 200, { UCAST, SRC, 0xff, 0xff }, 14 },
	{ "jumbo 9014 bytes (MTU 9000)", 9014,
	  { UCAST, SRC, 0x88, 0xb5 }, 14 },
	{ "jumbo 9018 bytes (MTU 9000, VLAN)", 9018,
	  { UCAST, SRC, 0x81, 0x00, 0x00, 0x64, 0x88, 0xb5 }, 18 },
};

#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))

static volatile bool stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = true;
}

/**
 * fill_frame() - write a frame's expected bytes
 * @k:		kind
 * @seq:	sequence number, mixed into the payload
 * @buf:	at least k->len bytes
 */
static void fill_frame(const struct kind *k, uint32_t seq, uint8_t *buf)
{
	uint32_t i;

	memcpy(buf, k->hdr, k->hdr_len);
	for (i = k->hdr_len; i < k->len; i++)
		buf[i] = (uint8_t)(i * 7 + seq * 13 + 0x5a);
	if (k->len >= k->hdr_len + 8u) {
		uint32_t m = MAGIC;

		memcpy(buf + k->hdr_len, &m, 4);
		memcpy(buf + k->hdr_len + 4, &seq, 4);
	}
}

/**
 * make_mbuf() - build an mbuf chain holding @len bytes of @buf
 * @pr:		peer
 * @buf:	bytes
 * @len:	length
 *
 * Return: the mbuf, or NULL if the pool is empty
 */
static struct rte_mbuf *make_mbuf(struct peer *pr, const uint8_t *buf,
				  uint32_t len)
{
	return mbuf_chain(pr->pool, buf, len, 0, SEG_SIZE);
}

/**
 * send_one() - transmit one mbuf, retrying until taken or @ms pass
 * @port:	port
 * @m:		mbuf, freed if not taken
 * @ms:		patience
 *
 * Return: true if the port took it
 */
static bool send_one(uint16_t port, struct rte_mbuf *m, unsigned int ms)
{
	uint64_t end = rte_get_tsc_cycles() + rte_get_tsc_hz() / 1000 * ms;

	while (rte_get_tsc_cycles() < end && !stop) {
		if (rte_eth_tx_burst(port, 0, &m, 1) == 1)
			return true;
		usleep(50);
	}
	rte_pktmbuf_free(m);
	return false;
}

/**
 * recv_one() - wait for one frame and copy it out
 * @port:	port
 * @buf:	MAX_FRAME bytes
 * @ms:		patience
 *
 * Return: frame length, 0 on timeout
 */
static uint32_t recv_one(uint16_t port, uint8_t *buf, unsigned int ms)
{
	uint64_t end = rte_get_tsc_cycles() + rte_get_tsc_hz() / 1000 * ms;
	struct rte_mbuf *m;
	uint32_t len = 0;

	while (rte_get_tsc_cycles() < end && !stop) {
		if (rte_eth_rx_burst(port, 0, &m, 1) == 1) {
			len = m->pkt_len;
			if (len > MAX_FRAME)
				len = MAX_FRAME;
			{
				const void *d = rte_pktmbuf_read(m, 0, len,
								 buf);

				if (d != NULL && d != buf)
					memcpy(buf, d, len);
			}
			rte_pktmbuf_free(m);
			return len;
		}
		usleep(20);
	}
	return 0;
}

/**
 * flatten_mbuf() - copy an mbuf chain into a flat frame
 * @m:		mbuf
 * @f:		filled (len and bytes)
 */
static void flatten_mbuf(const struct rte_mbuf *m, struct frame *f)
{
	uint32_t len = RTE_MIN(m->pkt_len, (uint32_t)L4F_MAX_FRAME);
	const void *p = rte_pktmbuf_read(m, 0, len, f->b);

	if (p != NULL && p != f->b)
		memcpy(f->b, p, len);
	f->len = len;
}

/**
 * show_frame() - describe a frame on stdout: destination, source,
 *		  ethertype, length
 * @port:	port it arrived on
 * @m:		the frame
 */
static void show_frame(uint16_t port, const struct rte_mbuf *m)
{
	char d[RTE_ETHER_ADDR_FMT_SIZE], s[RTE_ETHER_ADDR_FMT_SIZE];
	struct rte_ether_hdr eh;
	const struct rte_ether_hdr *h = rte_pktmbuf_read(m, 0, sizeof(eh), &eh);

	if (h == NULL) {
		printf("  port %u: %u bytes\n", port, m->pkt_len);
		return;
	}
	rte_ether_format_addr(d, sizeof(d), &h->dst_addr);
	rte_ether_format_addr(s, sizeof(s), &h->src_addr);
	printf("  port %u: %s <- %s type 0x%04x, %u bytes\n", port, d, s,
	       rte_be_to_cpu_16(h->ether_type), m->pkt_len);
}

/**
 * drain() - discard whatever is waiting on a port, describing the first
 *	     few frames (show_frame()) so that a stray frame can be told
 *	     from a duplicate
 * @port:	port
 * @show:	describe the first frames
 *
 * Return: number of frames discarded
 */
static unsigned int drain(uint16_t port, bool show)
{
	struct rte_mbuf *m[32];
	unsigned int n = 0, k, i;

	do {
		k = rte_eth_rx_burst(port, 0, m, 32);
		for (i = 0; show && i < k && n + i < 4; i++)
			show_frame(port, m[i]);
		rte_pktmbuf_free_bulk(m, k);
		n += k;
	} while (k);
	return n;
}

/**
 * wait_links() - wait until every port's link is up
 * @pr:		peer
 * @ms:		patience
 *
 * Return: true if all came up
 */
static bool wait_links(struct peer *pr, unsigned int ms)
{
	uint64_t end = rte_get_tsc_cycles() + rte_get_tsc_hz() / 1000 * ms;
	struct rte_eth_link l;
	uint16_t p, up;

	while (rte_get_tsc_cycles() < end && !stop) {
		for (p = 0, up = 0; p < pr->n_ports; p++)
			if (rte_eth_link_get_nowait(p, &l) == 0 &&
			    l.link_status)
				up++;
		if (up == pr->n_ports)
			return true;
		usleep(10000);
	}
	return false;
}

/**
 * pcap_open() - start a pcap file of Ethernet frames
 * @prefix:	the file is PREFIX-@port.pcap
 * @port:	the port whose frames it holds
 *
 * Return: the file, or NULL (said on stderr)
 */
static FILE *pcap_open(const char *prefix, unsigned int port)
{
	/* magic, version 2.4, zone, sigfigs, snaplen, Ethernet */
	const uint32_t hdr[6] = { 0xa1b2c3d4, 0x00040002, 0, 0, 65535, 1 };
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s-%u.pcap", prefix, port);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(hdr, sizeof(hdr), 1, f) != 1) {
		fprintf(stderr, "xcpeer: %s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		return NULL;
	}
	return f;
}

/**
 * pcap_put() - append one frame to a pcap file (timestamp 0)
 * @f:		file, or NULL for none
 * @buf:	frame
 * @len:	its length
 */
static void pcap_put(FILE *f, const uint8_t *buf, uint32_t len)
{
	const uint32_t rec[4] = { 0, 0, len, len };

	if (f == NULL)
		return;
	fwrite(rec, sizeof(rec), 1, f);
	fwrite(buf, 1, len, f);
}

/**
 * mode_frames() - send the catalogue both ways and compare byte for byte
 * @pr:		peer with two ports
 * @rounds:	how many times to send the catalogue each way
 * @gap_us:	pause before each frame
 * @drop_over:	frames longer than this, sent from port 0, must not arrive
 *		(the receiver cannot take them); 0: all must arrive
 * @drop_back:	the same for frames sent from port 1
 * @record:	NULL, or where to record the frames sent (see pcap_open())
 *
 * Return: number of failed checks
 */
static int mode_frames(struct peer *pr, unsigned int rounds,
		       unsigned int gap_us, unsigned int drop_over,
		       unsigned int drop_back, const char *record)
{
	static uint8_t want[MAX_FRAME], got[MAX_FRAME];
	unsigned int dir, r, i, fails = 0, total = 0, too_big = 0;
	uint64_t worst = 0, hz = rte_get_tsc_hz();
	FILE *rec[2] = { NULL, NULL };
	uint32_t seq = 1;

	for (dir = 0; record && dir < 2; dir++) {
		rec[dir] = pcap_open(record, dir);
		if (rec[dir] == NULL) {
			if (rec[0])
				fclose(rec[0]);
			return 1;
		}
	}
	for (dir = 0; dir < 2; dir++) {
		uint16_t from = (uint16_t)dir, to = (uint16_t)(1 - dir);
		unsigned int bad_kind[N_KINDS] = { 0 };
		unsigned int limit = dir == 0 ? drop_over : drop_back;

		for (r = 0; r < rounds; r++) {
			for (i = 0; i < N_KINDS; i++, seq++) {
				const struct kind *k = &kinds[i];
				struct rte_mbuf *m;
				uint64_t t0;
				uint32_t len;

				if (gap_us)
					usleep(gap_us);
				fill_frame(k, seq, want);
				m = make_mbuf(pr, want, k->len);
				if (m == NULL || !send_one(from, m, 2000)) {
					printf("FAIL %s port %u->%u: not sent\n",
					       k->name, from, to);
					bad_kind[i]++;
					continue;
				}
				pcap_put(rec[dir], want, k->len);
				if (limit && k->len > limit) {
					/* too big for the receiver: dropped */
					too_big++;
					if (recv_one(to, got, 200)) {
						printf("FAIL %s port %u->%u: arrived, but the receiver cannot take it\n",
						       k->name, from, to);
						bad_kind[i]++;
					}
					continue;
				}
				t0 = rte_get_tsc_cycles();
				len = recv_one(to, got, 2000);
				if (rte_get_tsc_cycles() - t0 > worst)
					worst = rte_get_tsc_cycles() - t0;
				total++;
				if (len == 0) {
					printf("FAIL %s port %u->%u: never arrived\n",
					       k->name, from, to);
					bad_kind[i]++;
				} else if (len != k->len ||
					   memcmp(want, got, len)) {
					printf("FAIL %s port %u->%u: arrived as %u bytes, differing\n",
					       k->name, from, to, len);
					bad_kind[i]++;
				}
			}
		}
		for (i = 0; i < N_KINDS; i++) {
			if (bad_kind[i])
				fails++;
			printf("%s %s port %u->%u x%u\n",
			       bad_kind[i] ? "FAIL" : "ok", kinds[i].name, from,
			       to, rounds);
		}
	}
	for (dir = 0; dir < 2; dir++)
		if (rec[dir] && fclose(rec[dir])) {
			printf("FAIL cannot write the record of port %u\n",
			       dir);
			fails++;
		}
	/* nothing extra may arrive: no duplicates, no strays */
	usleep(100000);
	for (i = 0; i < 2; i++) {
		unsigned int extra = drain((uint16_t)i, true);

		if (extra) {
			printf("FAIL port %u: %u unexpected frames\n", i, extra);
			fails++;
		}
	}
	printf("%s catalogue: %u frames checked byte for byte, slowest arrived after %" PRIu64 " us\n",
	       fails ? "FAIL" : "ok", total, worst * 1000000 / hz);
	if (drop_over || drop_back)
		printf("too-big %u frames sent that the receiver cannot take\n",
		       too_big);
	return (int)fails;
}

/**
 * mode_sizes() - frames of given lengths from port 0 to port 1: which
 *		  arrive (a cable that drops some lengths, an MTU)
 * @pr:		peer with two ports
 * @lens:	"L[v],L[v],...": frame lengths without FCS, "v" for a frame
 *		with an 802.1Q tag (its length includes the tag)
 * @count:	frames of each length
 *
 * Prints "size L[v] sent N received M" per length.
 *
 * Return: 0, 1 on a bad list
 */
static int mode_sizes(struct peer *pr, const char *lens, unsigned int count)
{
	static uint8_t f[MAX_FRAME];
	const struct kind plain = { "sized", 0, { UCAST, SRC, 0x88, 0xb5 }, 14 };
	const struct kind tagged = { "sized", 0,
		{ UCAST, SRC, 0x81, 0x00, 0x00, 0x64, 0x88, 0xb5 }, 18 };
	const char *p = lens;
	uint32_t seq = 0;

	while (*p) {
		char *e;
		unsigned long len = strtoul(p, &e, 10);
		bool vlan = *e == 'v';
		struct kind k = vlan ? tagged : plain;
		unsigned int i, sent = 0, got = 0;

		if (vlan)
			e++;
		if (e == p || (*e && *e != ',') || len < 60 || len > MAX_FRAME) {
			printf("FAIL --lens '%s': lengths from 60 to %d, a v after one for a tag\n",
			       lens, MAX_FRAME);
			return 1;
		}
		k.len = (uint16_t)len;
		for (i = 0; i < count; i++) {
			struct rte_mbuf *m;

			fill_frame(&k, seq++, f);
			m = make_mbuf(pr, f, k.len);
			if (m && send_one(0, m, 1000))
				sent++;
		}
		/* what is on its way arrives within 0.5 s, or never */
		while (recv_one(1, f, 500))
			got++;
		printf("size %lu%s sent %u received %u\n", len, vlan ? "v" : "",
		       sent, got);
		p = *e ? e + 1 : e;
	}
	return 0;
}

/**
 * mode_backpressure() - a receiver that stops draining must cost nothing
 * @pr:		peer with two ports
 * @count:	frames to send from port 0
 * @stall_ms:	how long port 1 is not read
 *
 * Return: number of failed checks
 */
static int mode_backpressure(struct peer *pr, uint32_t count,
			     unsigned int stall_ms)
{
	static const struct kind k = { "bp", 1000, { UCAST, SRC, 0x88, 0xb5 },
				       14 };
	uint64_t hz = rte_get_tsc_hz(), t0 = rte_get_tsc_cycles();
	uint64_t drain_at = t0 + hz / 1000 * stall_ms;
	uint64_t deadline = drain_at + hz * 30;
	uint32_t sent = 0, rcvd = 0, next = 0, stalled_sent = 0;
	unsigned int disorder = 0, bad = 0;
	static uint8_t buf[MAX_FRAME], want[MAX_FRAME];
	bool draining = false;

	while ((sent < count || rcvd < count) &&
	       rte_get_tsc_cycles() < deadline && !stop) {
		struct rte_mbuf *m[32];
		uint16_t i, n;

		if (sent < count) {
			n = (uint16_t)RTE_MIN(32u, count - sent);
			for (i = 0; i < n; i++) {
				fill_frame(&k, sent + i, buf);
				m[i] = make_mbuf(pr, buf, k.len);
				if (m[i] == NULL)
					break;
			}
			n = i;
			i = rte_eth_tx_burst(0, 0, m, n);
			sent += i;
			rte_pktmbuf_free_bulk(m + i, n - i);
		}
		if (!draining && rte_get_tsc_cycles() >= drain_at) {
			draining = true;
			stalled_sent = sent;
		}
		if (draining) {
			n = rte_eth_rx_burst(1, 0, m, 32);
			for (i = 0; i < n; i++) {
				const void *d;
				uint32_t seq = UINT32_MAX;

				d = rte_pktmbuf_read(m[i], 18, 4, buf);
				if (d != NULL)
					memcpy(&seq, d, 4);
				if (seq != next)
					disorder++;
				fill_frame(&k, seq, want);
				d = m[i]->pkt_len == k.len ?
				    rte_pktmbuf_read(m[i], 0, k.len, buf) :
				    NULL;
				if (d == NULL || memcmp(d, want, k.len))
					bad++;
				next = seq + 1;
				rcvd++;
			}
			rte_pktmbuf_free_bulk(m, n);
		} else {
			usleep(100);
		}
	}
	printf("%s backpressure: sent %u (%u while the receiver stalled %u ms), received %u, out of order %u, damaged %u\n",
	       sent == count && rcvd == count && !disorder && !bad ? "ok" :
	       "FAIL", sent, stalled_sent, stall_ms, rcvd, disorder, bad);
	return sent == count && rcvd == count && !disorder && !bad ? 0 : 1;
}

#define ORDER_MAX	(1u << 20)	/* frames of a stream whose order is kept */

/**
 * struct order - the numbers of a stream's frames, in the order they came
 * @seq:	the numbers, ORDER_MAX at most
 * @n:		how many
 */
struct order {
	uint32_t *seq;
	uint32_t n;
};

/**
 * order_report() - how many frames of a stream came ahead of one sent
 *		    before them, by their number mod 5
 * @o:		the stream's order
 * @id:		its id, for the line printed
 */
static void order_report(const struct order *o, unsigned int id)
{
	uint64_t early[5] = { 0 }, n = 0;
	uint32_t low = UINT32_MAX, k;

	for (k = o->n; k-- > 0;) {
		if (o->seq[k] > low) {
			early[o->seq[k] % 5]++;
			n++;
		}
		if (o->seq[k] < low)
			low = o->seq[k];
	}
	printf("early-from %u %" PRIu64 " mod5 %" PRIu64 ",%" PRIu64 ",%"
	       PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", id, n, early[0], early[1],
	       early[2], early[3], early[4]);
}

/**
 * count_rx() - receive one burst on port 0 and count frames by stream id
 * @from:	per-id counters
 * @stray:	frames of no stream
 * @order:	per-id order of arrival, or NULL
 *
 * Return: frames received
 */
static uint16_t count_rx(uint64_t *from, uint64_t *stray, struct order *order)
{
	struct rte_mbuf *m[32];
	uint16_t n = rte_eth_rx_burst(0, 0, m, 32), j;

	for (j = 0; j < n; j++) {
		uint32_t hdr[2];
		const void *h = rte_pktmbuf_read(m[j], 14, 8, hdr);

		if (h != NULL && h != hdr)
			memcpy(hdr, h, sizeof(hdr)); /* may be unaligned */
		if (h && hdr[0] == MAGIC && (hdr[1] >> 24) < MAX_IDS) {
			struct order *o = order ? &order[hdr[1] >> 24] : NULL;

			from[hdr[1] >> 24]++;
			if (o && o->seq == NULL)	/* a stream's first */
				o->seq = calloc(ORDER_MAX, sizeof(uint32_t));
			if (o && o->seq && o->n < ORDER_MAX)
				o->seq[o->n++] = hdr[1] & 0xffffff;
		} else {
			(*stray)++;
		}
	}
	rte_pktmbuf_free_bulk(m, n);
	return n;
}

/* frames a stream sends at once when it is behind its rate */
#define STREAM_CATCH_UP	32

/**
 * mode_stream() - send tagged frames at a rate and count what comes back
 * @pr:		peer (port 0 used)
 * @id:		this stream's id, 0..MAX_IDS-1
 * @pps:	frames per second to send
 * @seconds:	how long
 *
 * Prints "sent N", "received-from ID N" for each id seen, "stray N",
 * "link-downs N": how often the port's link went from up to down (read
 * every 100 ms: a cable removed or pulled), and for each id seen
 * "early-from ID N mod5 A,B,C,D,E": N frames of that stream arrived ahead
 * of a frame sent before them (reordered), A of them numbered 0 mod 5,
 * B 1 mod 5, ... (for the first 2^20 frames of each stream).
 *
 * Return: 0
 */
static int mode_stream(struct peer *pr, unsigned int id, unsigned int pps,
		       unsigned int seconds)
{
	static const struct kind k = { "stream", 200,
				       { UCAST, SRC, 0x88, 0xb5 }, 14 };
	uint64_t hz = rte_get_tsc_hz(), now = rte_get_tsc_cycles();
	uint64_t end = now + hz * seconds, gap = hz / (pps ? pps : 1);
	uint64_t next_tx = now, from[MAX_IDS] = { 0 }, stray = 0, sent = 0;
	uint64_t next_link = now, downs = 0, last_rx;
	static struct order order[MAX_IDS];
	struct rte_eth_link l;
	bool was_up = true;
	uint8_t buf[256];
	unsigned int i, due;

	(void)pr;
	while ((now = rte_get_tsc_cycles()) < end && !stop) {
		if (now >= next_link) {
			if (rte_eth_link_get_nowait(0, &l) == 0) {
				downs += was_up && !l.link_status;
				was_up = l.link_status;
			}
			next_link = now + hz / 10;
		}
		/* every frame that is due, up to STREAM_CATCH_UP at once: a
		 * sleep that overran (a busy machine) delays frames rather
		 * than losing their turn, so the rate asked for is kept */
		for (due = 0; pps && now >= next_tx && due < STREAM_CATCH_UP;
		     due++) {
			uint32_t tag = (uint32_t)(id << 24 | (sent & 0xffffff));
			struct rte_mbuf *one;

			fill_frame(&k, tag, buf);
			one = make_mbuf(pr, buf, k.len);
			if (one && rte_eth_tx_burst(0, 0, &one, 1) == 1)
				sent++;
			else
				rte_pktmbuf_free(one);
			next_tx += gap;
		}
		if (pps && next_tx < now)
			next_tx = now;
		if (count_rx(from, &stray, order) == 0)
			usleep(100);
	}
	/* stopped sending: go on taking what comes until nothing has come
	 * for 0.3 s (at most 5 s), so that a graceful stop loses nothing the
	 * cable delivered, even while a peer started later still sends */
	end = rte_get_tsc_cycles() + hz * 5;
	for (now = last_rx = rte_get_tsc_cycles();
	     now < end && now - last_rx < hz * 3 / 10;
	     now = rte_get_tsc_cycles()) {
		if (count_rx(from, &stray, order))
			last_rx = now;
		else
			usleep(100);
	}
	printf("sent %" PRIu64 "\n", sent);
	for (i = 0; i < MAX_IDS; i++)
		if (from[i])
			printf("received-from %u %" PRIu64 "\n", i, from[i]);
	printf("stray %" PRIu64 "\n", stray);
	printf("link-downs %" PRIu64 "\n", downs);
	for (i = 0; i < MAX_IDS; i++) {
		if (from[i])
			order_report(&order[i], i);
		free(order[i].seq);
	}
	return 0;
}

/**
 * struct ocase - one frame sent by the offload mode
 * @name:	what it is
 * @s:		how it is built (see l4frames.h)
 */
struct ocase {
	const char *name;
	struct spec s;
};

static const struct ocase ocases[] = {
	{ "TCP/IPv4 TSO 30000 bytes, MSS 1448",
	  { .v4 = true, .tcp = true, .payload = 30000, .mss = 1448,
	    .tcp_flags = 0x18 } },
	{ "TCP/IPv6 TSO 30000 bytes, MSS 1428, VLAN",
	  { .v4 = false, .tcp = true, .tags = 1, .payload = 30000,
	    .mss = 1428, .tcp_flags = 0x18 } },
	{ "TCP/IPv4 TSO 20000 bytes, MSS 1440, QinQ",
	  { .v4 = true, .tcp = true, .tags = 2, .payload = 20000,
	    .mss = 1440, .tcp_flags = 0x19 } },
	{ "TCP/IPv6 TSO 60000 bytes, MSS 1428",
	  { .v4 = false, .tcp = true, .payload = 60000, .mss = 1428,
	    .tcp_flags = 0x10 } },
	{ "TCP/IPv4 partial checksum, 1000 bytes",
	  { .v4 = true, .tcp = true, .payload = 1000, .tcp_flags = 0x18 } },
	{ "UDP/IPv4 partial checksum, 1200 bytes",
	  { .v4 = true, .tcp = false, .payload = 1200 } },
	{ "UDP/IPv6 partial checksum, 800 bytes, VLAN",
	  { .v4 = false, .tcp = false, .tags = 1, .payload = 800 } },
};

/**
 * send_offload() - send one case as a guest with offloads would: the
 *		    pseudo-header sum in the checksum field, Tx offload flags
 * @pr:		peer
 * @s:		case
 * @f:		filled with the frame as it should arrive (full checksum)
 *
 * Return: true if the port took it
 */
static bool send_offload(struct peer *pr, const struct spec *s,
			 struct frame *f)
{
	static struct frame g;
	struct rte_mbuf *m;
	uint32_t l4len;

	build_flat(s, f);
	g = *f;
	l4len = g.len - g.l2 - g.l3;
	put16(g.b + g.l2 + g.l3 + (s->tcp ? 16 : 6),
	      fold16(pseudo(g.b + g.l2, s->v4, s->tcp ? 6 : 17, l4len)));
	m = make_mbuf(pr, g.b, g.len);
	if (m == NULL)
		return false;
	m->l2_len = g.l2;
	m->l3_len = g.l3;
	m->l4_len = g.l4;
	m->ol_flags = (s->v4 ? RTE_MBUF_F_TX_IPV4 : RTE_MBUF_F_TX_IPV6) |
		      (s->tcp ? RTE_MBUF_F_TX_TCP_CKSUM : RTE_MBUF_F_TX_UDP_CKSUM);
	if (s->mss) {
		m->ol_flags |= RTE_MBUF_F_TX_TCP_SEG;
		m->tso_segsz = s->mss;
	}
	return send_one(0, m, 2000);
}

/**
 * check_offload() - receive what one case became and check it
 * @pr:		peer
 * @c:		case
 * @f:		the frame as sent, with a full checksum
 *
 * Return: 0 if right, 1 if not (reason printed)
 */
static int check_offload(struct peer *pr, const struct ocase *c,
			 const struct frame *f)
{
	static struct frame g;
	const struct spec *s = &c->s;
	uint64_t end = rte_get_tsc_cycles() + rte_get_tsc_hz() * 2;
	bool whole = s->mss && pr->rx_offl == 2;
	int want = s->mss && !whole ?
		   (int)((s->payload + s->mss - 1) / s->mss) : 1;
	int got = 0, bad = 0;
	struct rte_mbuf *m;

	(void)pr;
	while (got < want && rte_get_tsc_cycles() < end && !stop) {
		uint64_t l4f;
		bool partial;

		if (rte_eth_rx_burst(1, 0, &m, 1) == 0) {
			usleep(50);
			continue;
		}
		l4f = m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK;
		partial = l4f == RTE_MBUF_F_RX_L4_CKSUM_NONE;
		flatten_mbuf(m, &g);
		if (partial && pr->rx_offl == 0) {
			printf("FAIL %s: frame %d left to a receiver without checksum offload\n",
			       c->name, got);
			bad++;
		} else if (whole) {
			/* passed whole: same bytes but the checksum field,
			 * and the MSS carried in the metadata */
			uint32_t fo = f->l2 + f->l3 + (s->tcp ? 16 : 6);

			if (!(m->ol_flags & RTE_MBUF_F_RX_LRO) ||
			    m->tso_segsz != s->mss || g.len != f->len ||
			    memcmp(g.b, f->b, fo) ||
			    memcmp(g.b + fo + 2, f->b + fo + 2, f->len - fo - 2)) {
				printf("FAIL %s: TSO frame not passed whole (len %u, lro %d, mss %u)\n",
				       c->name, g.len,
				       !!(m->ol_flags & RTE_MBUF_F_RX_LRO),
				       m->tso_segsz);
				bad++;
			}
		} else if (s->mss) {
			if (!check_tcp_segment(c->name, s, f, &g, got, want,
					       partial))
				bad++;
		} else {
			g.l2 = f->l2;
			g.l3 = f->l3;
			g.v4 = f->v4;
			g.tcp = f->tcp;
			if (g.len != f->len ||
			    (partial ? !l4_partial_ok(&g) :
				       memcmp(g.b, f->b, f->len) != 0)) {
				printf("FAIL %s: frame differs or bad checksum\n",
				       c->name);
				bad++;
			}
		}
		rte_pktmbuf_free(m);
		got++;
	}
	if (got != want) {
		printf("FAIL %s: %d frames arrived, expected %d\n", c->name, got,
		       want);
		return 1;
	}
	usleep(20000);
	if (drain(1, true)) {
		printf("FAIL %s: more frames than expected\n", c->name);
		return 1;
	}
	printf("%s %s: %d frame%s %s\n", bad ? "FAIL" : "ok", c->name, got,
	       got > 1 ? "s" : "",
	       whole ? "passed whole" : s->mss ? "segmented, all checked" :
	       "checked");
	return bad != 0;
}

/**
 * mode_offload() - send TSO and partial-checksum frames from port 0 and
 *		    check what port 1 receives for its offload settings
 * @pr:		peer with two ports
 *
 * Return: number of failed cases
 */
static int mode_offload(struct peer *pr)
{
	static struct frame f;
	unsigned int i;
	int fails = 0;

	for (i = 0; i < sizeof(ocases) / sizeof(ocases[0]); i++) {
		if (!send_offload(pr, &ocases[i].s, &f)) {
			printf("FAIL %s: not sent\n", ocases[i].name);
			fails++;
			continue;
		}
		fails += check_offload(pr, &ocases[i], &f);
	}
	printf("%s offload: %u cases, %d failed\n", fails ? "FAIL" : "ok", i,
	       fails);
	return fails;
}

/**
 * struct gp_count - what mode_goodput()'s receiver got
 * @bytes:	TCP payload bytes of the frames counted
 * @frames:	frames counted (after the warm-up)
 * @got:	frames received in all
 */
struct gp_count {
	uint64_t bytes;
	uint64_t frames;
	uint64_t got;
};

/**
 * gp_take() - receive one burst on port 1 for mode_goodput() and free it
 * @c:		counts, updated
 * @hl:		header bytes of each frame (not payload)
 * @counted:	past the warm-up: count payload and frames too
 *
 * Return: frames received
 */
static uint16_t gp_take(struct gp_count *c, uint32_t hl, bool counted)
{
	struct rte_mbuf *m[32];
	uint16_t n = rte_eth_rx_burst(1, 0, m, 32), j;

	c->got += n;
	for (j = 0; j < n && counted; j++) {
		c->bytes += m[j]->pkt_len > hl ? m[j]->pkt_len - hl : 0;
		c->frames++;
	}
	rte_pktmbuf_free_bulk(m, n);
	return n;
}

/**
 * mode_goodput() - TCP payload through the cable, as fast as it goes:
 *		    64 KB TSO frames if the port may send them (--tx tso),
 *		    else MSS-sized frames with their checksums done (a guest
 *		    without offloads); the receiver counts payload bytes
 * @pr:		peer with two ports
 * @warmup:	seconds before counting
 * @seconds:	seconds counted
 * @burst:	0: four frames offered per round, one by one, without a
 *		pause; N (at most 32): N frames in one tx burst (one kick),
 *		then a wait until all arrived (10 ms at most), so that the
 *		forwarder finds N queued at once after a sleep, as a guest's
 *		backlog; each frame is then one mbuf, one ring slot (as a
 *		guest's, with indirect descriptors), not a 32-slot chain
 *
 * Prints "goodput tso T rx R secs S payload_bytes B gbps G frames F
 * sent N received M": F frames counted, N sent in all and M received in
 * all, warm-up included and after 200 ms without a frame at the end (a
 * lossless cable gives M = N less what it counted as dropped).
 *
 * Return: 0, 1 if nothing arrived
 */
static int mode_goodput(struct peer *pr, unsigned int warmup,
			unsigned int seconds, unsigned int burst)
{
	static struct frame f;
	struct spec sp = { .v4 = true, .tcp = true, .mss = 1448,
			   .tcp_flags = 0x10 };
	bool tso = pr->tx_offl == 2;
	uint64_t hz = rte_get_tsc_hz(), t0 = rte_get_tsc_cycles();
	uint64_t start = t0 + hz * warmup, end = start + hz * seconds;
	uint64_t sent = 0, now, quiet;
	struct gp_count c = { 0 };
	struct rte_mempool *big = NULL;
	uint32_t hl;

	sp.payload = tso ? 44 * 1448 : 1448;	/* 64 KB at most */
	build_flat(&sp, &f);
	hl = f.l2 + f.l3 + f.l4;
	if (tso)	/* as a guest leaves it: the pseudo-header sum */
		put16(f.b + f.l2 + f.l3 + 16,
		      fold16(pseudo(f.b + f.l2, true, 6, f.len - f.l2 - f.l3)));
	if (burst) {
		big = rte_pktmbuf_pool_create("xcpeer_big", 511, 0, 0,
					      UINT16_MAX, 0);
		if (big == NULL) {
			fprintf(stderr, "xcpeer: no memory for 64 KB mbufs\n");
			return 1;
		}
	}
	while ((now = rte_get_tsc_cycles()) < end && !stop) {
		struct rte_mbuf *xs[32];
		uint16_t k, nx = 0;

		for (k = 0; k < (burst ? burst : 4); k++) {
			struct rte_mbuf *x = big ?
				mbuf_chain(big, f.b, f.len, 0, UINT32_MAX) :
				make_mbuf(pr, f.b, f.len);

			if (x == NULL)
				break;
			if (tso) {
				x->l2_len = f.l2;
				x->l3_len = f.l3;
				x->l4_len = f.l4;
				x->tso_segsz = sp.mss;
				x->ol_flags = RTE_MBUF_F_TX_IPV4 |
					      RTE_MBUF_F_TX_TCP_CKSUM |
					      RTE_MBUF_F_TX_TCP_SEG;
			}
			if (burst) {
				xs[nx++] = x;
				continue;
			}
			if (rte_eth_tx_burst(0, 0, &x, 1) == 0) {
				rte_pktmbuf_free(x);
				break;
			}
			sent++;
		}
		if (nx) {
			uint16_t t = rte_eth_tx_burst(0, 0, xs, nx);
			uint64_t until = rte_get_tsc_cycles() + hz / 100;

			rte_pktmbuf_free_bulk(xs + t, nx - t);
			sent += t;
			while (c.got < sent && rte_get_tsc_cycles() < until)
				gp_take(&c, hl, now >= start);
			continue;
		}
		gp_take(&c, hl, now >= start);
	}
	/* what is still on its way */
	for (quiet = rte_get_tsc_cycles() + hz / 5;
	     rte_get_tsc_cycles() < quiet && !stop;)
		if (gp_take(&c, hl, false))
			quiet = rte_get_tsc_cycles() + hz / 5;
	printf("goodput tso %d rx %d secs %u payload_bytes %" PRIu64
	       " gbps %.3f frames %" PRIu64 " sent %" PRIu64 " received %"
	       PRIu64 "\n", tso, pr->rx_offl, seconds, c.bytes,
	       (double)c.bytes * 8 / 1e9 / seconds, c.frames, sent, c.got);
	return c.bytes ? 0 : 1;
}

/**
 * cmp_u64() - qsort comparison of two uint64_t
 * @a:		first
 * @b:		second
 *
 * Return: <0, 0 or >0
 */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/**
 * mode_latency() - one-way latency of each direction: frames stamped with
 *		    the send time go alternately 0->1 and 1->0, --gap-us
 *		    apart; the other port reads the stamp
 * @pr:		peer with two ports
 * @count:	frames per direction
 * @gap_us:	pause between frames
 *
 * Prints "latency DIR sent N received N min_us X median_us X max_us X"
 * per direction.
 *
 * Return: 0, 1 if a direction received nothing
 */
static int mode_latency(struct peer *pr, unsigned int count,
			unsigned int gap_us)
{
	static const struct kind k = { "latency", 128,
				       { UCAST, SRC, 0x88, 0xb5 }, 14 };
	uint64_t hz = rte_get_tsc_hz(), *lat[2];
	unsigned int got[2] = { 0, 0 }, sent[2] = { 0, 0 }, i, dir;
	uint8_t buf[256];
	int fails = 0;

	lat[0] = calloc(count, sizeof(uint64_t));
	lat[1] = calloc(count, sizeof(uint64_t));
	if (lat[0] == NULL || lat[1] == NULL)
		return 1;
	for (i = 0; i < 2 * count && !stop; i++) {
		uint64_t t = rte_get_tsc_cycles(), end = t + hz * gap_us / 1000000;
		struct rte_mbuf *m;

		dir = i & 1;
		fill_frame(&k, i, buf);
		memcpy(buf + 30, &t, sizeof(t));
		m = make_mbuf(pr, buf, k.len);
		if (m && rte_eth_tx_burst((uint16_t)dir, 0, &m, 1) == 1)
			sent[dir]++;
		else
			rte_pktmbuf_free(m);
		do {	/* collect arrivals on both ports until the next send */
			for (dir = 0; dir < 2; dir++) {
				struct rte_mbuf *r[32];
				uint16_t n = rte_eth_rx_burst((uint16_t)(1 - dir),
							      0, r, 32), j;

				for (j = 0; j < n; j++) {
					uint64_t ts, now = rte_get_tsc_cycles();
					const void *p = rte_pktmbuf_read(r[j], 30,
						8, &ts);

					if (p && p != &ts)
						memcpy(&ts, p, 8);
					if (p && got[dir] < count && ts <= now)
						lat[dir][got[dir]++] = now - ts;
				}
				rte_pktmbuf_free_bulk(r, n);
			}
		} while (rte_get_tsc_cycles() < end ||
			 (i + 1 == 2 * count &&
			  rte_get_tsc_cycles() < end + hz * 2 &&
			  got[0] + got[1] < sent[0] + sent[1]));
	}
	for (dir = 0; dir < 2; dir++) {
		qsort(lat[dir], got[dir], sizeof(uint64_t), cmp_u64);
		if (got[dir] == 0) {
			fails = 1;
			printf("latency %u->%u sent %u received 0\n", dir, 1 - dir,
			       sent[dir]);
			continue;
		}
		printf("latency %u->%u sent %u received %u min_us %.1f median_us %.1f max_us %.1f\n",
		       dir, 1 - dir, sent[dir], got[dir],
		       lat[dir][0] * 1e6 / hz, lat[dir][got[dir] / 2] * 1e6 / hz,
		       lat[dir][got[dir] - 1] * 1e6 / hz);
	}
	free(lat[0]);
	free(lat[1]);
	return fails;
}

#define RR_MAX		(1u << 22)	/* round trips kept */
#define RR_BULK		1514		/* bulk frame, an MSS-sized TCP segment */

/**
 * struct rr - a request/response measurement: port 0 is the client, port 1
 *	       the server, a bulk stream (if any) goes the same way, 0 to 1
 * @rtt:	round trips counted, in TSC cycles
 * @n_rtt:	entries in @rtt
 * @got:	responses received for requests counted (kept or not)
 * @sent:	requests sent after the warm-up
 * @count_from:	TSC from which requests are counted
 * @out_seq:	sequence number of the request awaited (idle mode)
 * @out_t:	when it left, 0 if none is awaited
 * @bulk_bytes:	bulk bytes received by the server after the warm-up
 * @bulk_made:	bulk frames made (sent or held to be sent)
 * @bulk_got:	bulk frames the server received
 * @window:	at most this many bulk frames in flight (made, not yet
 *		received), 0 for no limit
 * @held:	bulk frames (and requests queued behind them) not yet taken
 * @n_held:	entries in @held
 * @resp:	responses port 1 did not take yet
 * @n_resp:	entries in @resp
 */
struct rr {
	uint64_t *rtt;
	uint32_t n_rtt;
	uint64_t got;
	uint64_t sent;
	uint64_t count_from;
	uint32_t out_seq;
	uint64_t out_t;
	uint64_t bulk_bytes;
	uint64_t bulk_made;
	uint64_t bulk_got;
	unsigned int window;
	struct rte_mbuf *held[1024];
	unsigned int n_held;
	struct rte_mbuf *resp[64];
	unsigned int n_resp;
};

/**
 * rr_frame() - build a 64-byte request (ethertype 0x88b6, 'Q') stamped
 *		with its sequence number and send time
 * @pr:		peer
 * @seq:	sequence number
 * @t:		TSC stamp
 *
 * Return: the mbuf, or NULL if the pool is empty
 */
static struct rte_mbuf *rr_frame(struct peer *pr, uint32_t seq, uint64_t t)
{
	uint8_t b[64] = { UCAST, SRC, 0x88, 0xb6, 'Q' };

	memcpy(b + 16, &seq, 4);
	memcpy(b + 24, &t, 8);
	return make_mbuf(pr, b, sizeof(b));
}

/**
 * rr_serve() - the server: answer each request from port 1 with the same
 *		frame marked 'R', count and free the bulk
 * @st:		measurement
 */
static void rr_serve(struct rr *st)
{
	struct rte_mbuf *m[32];
	uint16_t n = 0, j, sent;

	if (st->n_resp <= RTE_DIM(st->resp) - 32)
		n = rte_eth_rx_burst(1, 0, m, 32);
	for (j = 0; j < n; j++) {
		uint8_t *d = rte_pktmbuf_mtod(m[j], uint8_t *);

		if (m[j]->data_len >= 32 && d[12] == 0x88 && d[13] == 0xb6) {
			d[14] = 'R';
			st->resp[st->n_resp++] = m[j];
			continue;
		}
		if (rte_get_tsc_cycles() >= st->count_from)
			st->bulk_bytes += m[j]->pkt_len;
		st->bulk_got++;
		rte_pktmbuf_free(m[j]);
	}
	if (st->n_resp == 0)
		return;
	sent = rte_eth_tx_burst(1, 0, st->resp, (uint16_t)st->n_resp);
	memmove(st->resp, st->resp + sent, (st->n_resp - sent) * sizeof(st->resp[0]));
	st->n_resp -= sent;
}

/**
 * rr_collect() - the client: take responses from port 0, keep round trips
 * @st:		measurement
 */
static void rr_collect(struct rr *st)
{
	struct rte_mbuf *m[32];
	uint16_t n, j;

	n = rte_eth_rx_burst(0, 0, m, 32);
	for (j = 0; j < n; j++) {
		uint8_t *d = rte_pktmbuf_mtod(m[j], uint8_t *);
		uint64_t t, now = rte_get_tsc_cycles();
		uint32_t seq;

		if (m[j]->data_len >= 32 && d[12] == 0x88 && d[13] == 0xb6 &&
		    d[14] == 'R') {
			memcpy(&seq, d + 16, 4);
			memcpy(&t, d + 24, 8);
			if (seq == st->out_seq)
				st->out_t = 0;
			if (t < st->count_from || t > now)
				continue;
			st->got++;
			if (st->n_rtt < RR_MAX)
				st->rtt[st->n_rtt++] = now - t;
		}
	}
	rte_pktmbuf_free_bulk(m, n);
}

/**
 * rr_push() - the client's transmit queue: top the bulk up (with @load),
 *	       append a request, send what port 0 takes, keep the rest in order
 * @pr:		peer
 * @st:		measurement
 * @load:	keep bulk frames queued
 * @req:	a request to queue behind them, or NULL
 */
static void rr_push(struct peer *pr, struct rr *st, bool load,
		    struct rte_mbuf *req)
{
	static uint8_t bulk[RR_BULK] = { UCAST, SRC, 0x88, 0xb5 };
	uint16_t sent;

	while (load && st->n_held < 32 &&
	       (st->window == 0 || st->bulk_made - st->bulk_got < st->window)) {
		struct rte_mbuf *m = make_mbuf(pr, bulk, sizeof(bulk));

		if (m == NULL)
			break;
		st->held[st->n_held++] = m;
		st->bulk_made++;
	}
	if (req && st->n_held < RTE_DIM(st->held))
		st->held[st->n_held++] = req;
	else if (req)
		rte_pktmbuf_free(req);
	if (st->n_held == 0)
		return;
	sent = rte_eth_tx_burst(0, 0, st->held, (uint16_t)st->n_held);
	memmove(st->held, st->held + sent, (st->n_held - sent) * sizeof(st->held[0]));
	st->n_held -= sent;
}

/**
 * mode_rr() - request/response round trips: 64-byte requests from port 0
 *	       answered by port 1; with --load 1 every --gap-us while a bulk
 *	       stream of 1514-byte frames goes from 0 to 1 as fast as the cable
 *	       takes it, else back to back (one awaited at a time, 10 ms
 *	       before a request counts as lost), which gives the rate
 * @pr:		peer with two ports
 * @load:	with the bulk stream
 * @gap_us:	request interval under load
 * @warmup:	seconds before counting
 * @seconds:	seconds counted
 * @window:	bulk frames in flight at most, 0 for no limit
 *
 * Prints "rr load L seconds S sent N received R lost X tps T min_us A
 * p50_us B p99_us C max_us D bulk_gbps G".
 *
 * Return: 0, 1 if no response came back
 */
static int mode_rr(struct peer *pr, bool load, unsigned int gap_us,
		   unsigned int warmup, unsigned int seconds,
		   unsigned int window)
{
	uint64_t hz = rte_get_tsc_hz(), now = rte_get_tsc_cycles(), next;
	uint64_t end, lost, gap = hz * (gap_us ? gap_us : 1) / 1000000;
	struct rr st = { .count_from = now + hz * warmup, .window = window };
	uint32_t seq = 0;
	double us = 1e6 / (double)hz;

	st.rtt = calloc(RR_MAX, sizeof(uint64_t));
	if (st.rtt == NULL)
		return 1;
	end = st.count_from + hz * seconds;
	next = now;
	while ((now = rte_get_tsc_cycles()) < end && !stop) {
		struct rte_mbuf *req = NULL;

		if (!load && st.out_t && now - st.out_t > hz / 100)
			st.out_t = 0;	/* lost: counted at the end */
		if ((load && now >= next) || (!load && st.out_t == 0)) {
			req = rr_frame(pr, ++seq, now);
			st.out_seq = seq;
			st.out_t = req ? now : 0;	/* no mbuf: try again */
			st.sent += req && now >= st.count_from;
			next = req ? now + gap : next;
		}
		rr_push(pr, &st, load, req);
		rr_serve(&st);
		rr_collect(&st);
	}
	for (end = rte_get_tsc_cycles() + hz / 5; rte_get_tsc_cycles() < end;) {
		rr_push(pr, &st, false, NULL);
		rr_serve(&st);
		rr_collect(&st);
	}
	rte_pktmbuf_free_bulk(st.held, st.n_held);
	rte_pktmbuf_free_bulk(st.resp, st.n_resp);
	qsort(st.rtt, st.n_rtt, sizeof(uint64_t), cmp_u64);
	lost = st.sent > st.got ? st.sent - st.got : 0;
	printf("rr load %d seconds %u sent %" PRIu64 " received %" PRIu64
	       " lost %" PRIu64 " tps %.0f", load, seconds, st.sent, st.got,
	       lost, (double)st.got / seconds);
	if (st.n_rtt)
		printf(" min_us %.1f p50_us %.1f p99_us %.1f max_us %.1f",
		       st.rtt[0] * us, st.rtt[st.n_rtt / 2] * us,
		       st.rtt[(uint64_t)st.n_rtt * 99 / 100] * us,
		       st.rtt[st.n_rtt - 1] * us);
	printf(" bulk_gbps %.3f\n", (double)st.bulk_bytes * 8 / 1e9 / seconds);
	free(st.rtt);
	return st.n_rtt ? 0 : 1;
}

/**
 * mode_loop() - circulate a fixed set of frames through the cable
 * @pr:		peer with two ports
 * @size:	frame size in bytes (without FCS)
 * @inflight:	frames injected
 * @warmup:	seconds before counting
 * @seconds:	seconds counted
 *
 * Prints one line: "loop size S inflight N seconds T rx_pkts P mpps M
 * gbps G lost L".
 *
 * Return: 0
 */
static int mode_loop(struct peer *pr, unsigned int size, unsigned int inflight,
		     unsigned int warmup, unsigned int seconds)
{
	static const struct kind k = { "loop", 64, { UCAST, SRC, 0x88, 0xb5 },
				       14 };
	struct kind kk = k;
	struct rte_mbuf *held[2][512];
	unsigned int n_held[2] = { 0, 0 }, i, p;
	uint64_t hz = rte_get_tsc_hz(), t0, t1, t_end, count = 0;
	uint64_t back = 0;
	static uint8_t buf[MAX_FRAME];
	bool counting = false;

	kk.len = (uint16_t)RTE_MAX(60u, RTE_MIN(size, (unsigned int)MAX_FRAME));
	inflight = RTE_MIN(inflight, 1000u);
	/* the forwarder may see our links later than we do: probe each way
	 * until a frame gets through, so no injected frame meets a port that
	 * is still down */
	for (p = 0; p < 2 && !stop; p++) {
		for (i = 0; i < 100 && !stop; i++) {
			struct rte_mbuf *m;

			fill_frame(&kk, UINT32_MAX, buf);
			m = make_mbuf(pr, buf, kk.len);
			if (m && send_one((uint16_t)p, m, 100) &&
			    recv_one((uint16_t)(1 - p), buf, 100))
				break;
		}
		if (i == 100) {
			printf("FAIL loop: no frame got through port %u->%u\n",
			       p, 1 - p);
			return 1;
		}
	}
	usleep(100000);
	drain(0, false);
	drain(1, false);
	for (i = 0; i < inflight; i++) {
		p = i & 1;
		fill_frame(&kk, i, buf);
		held[p][n_held[p]] = make_mbuf(pr, buf, kk.len);
		if (held[p][n_held[p]] == NULL)
			break;
		n_held[p]++;
	}
	t0 = rte_get_tsc_cycles();
	t1 = t0 + hz * warmup;
	t_end = t1 + hz * seconds;
	while (!stop) {
		uint64_t now = rte_get_tsc_cycles();

		if (!counting && now >= t1) {
			counting = true;
			count = 0;
		}
		if (now >= t_end)
			break;
		for (p = 0; p < 2; p++) {
			uint16_t n, sent;

			/* what came in on p goes back out of p, to the far end */
			if (n_held[p] < 512 - 32) {
				n = rte_eth_rx_burst((uint16_t)p, 0,
						     held[p] + n_held[p], 32);
				n_held[p] += n;
				count += n;
			}
			if (n_held[p] == 0)
				continue;
			sent = rte_eth_tx_burst((uint16_t)p, 0, held[p],
						(uint16_t)n_held[p]);
			memmove(held[p], held[p] + sent,
				(n_held[p] - sent) * sizeof(held[p][0]));
			n_held[p] -= sent;
		}
	}
	/* stop sending; see how many of the injected frames come back */
	t_end = rte_get_tsc_cycles() + hz / 2;
	while (rte_get_tsc_cycles() < t_end) {
		for (p = 0; p < 2; p++) {
			struct rte_mbuf *m[32];
			uint16_t n = rte_eth_rx_burst((uint16_t)p, 0, m, 32);

			back += n;
			rte_pktmbuf_free_bulk(m, n);
		}
	}
	for (p = 0; p < 2; p++) {
		back += n_held[p];
		rte_pktmbuf_free_bulk(held[p], n_held[p]);
	}
	printf("loop size %u inflight %u seconds %u rx_pkts %" PRIu64
	       " mpps %.4f gbps %.4f lost %" PRId64 "\n",
	       kk.len, inflight, seconds, count,
	       (double)count / seconds / 1e6,
	       (double)count * kk.len * 8 / seconds / 1e9,
	       (int64_t)inflight - (int64_t)back);
	return 0;
}

/**
 * setup_port() - configure and start one virtio_user port
 * @pr:		peer
 * @port:	port id
 *
 * Return: 0 on success, -errno on failure
 */
static int setup_port(struct peer *pr, uint16_t port)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	int rc;

	memset(&conf, 0, sizeof(conf));
	rc = rte_eth_dev_info_get(port, &info);
	if (rc)
		return rc;
	conf.rxmode.mtu = RTE_MIN((uint32_t)pr->mtu, info.max_mtu);
	if (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS)
		conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	if (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER)
		conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_SCATTER;
	/* the virtio PMD negotiates the features the offloads need */
	if (pr->rx_offl >= 1)
		conf.rxmode.offloads |= info.rx_offload_capa &
			(RTE_ETH_RX_OFFLOAD_TCP_CKSUM |
			 RTE_ETH_RX_OFFLOAD_UDP_CKSUM);
	if (pr->rx_offl >= 2) {
		conf.rxmode.offloads |= info.rx_offload_capa &
					RTE_ETH_RX_OFFLOAD_TCP_LRO;
		conf.rxmode.max_lro_pkt_size = RTE_MIN(65535u,
						       info.max_lro_pkt_size);
	}
	if (pr->tx_offl >= 1)
		conf.txmode.offloads |= info.tx_offload_capa &
			(RTE_ETH_TX_OFFLOAD_TCP_CKSUM |
			 RTE_ETH_TX_OFFLOAD_UDP_CKSUM);
	if (pr->tx_offl >= 2)
		conf.txmode.offloads |= info.tx_offload_capa &
					RTE_ETH_TX_OFFLOAD_TCP_TSO;
	rc = rte_eth_dev_configure(port, 1, 1, &conf);
	if (rc == 0)
		rc = rte_eth_rx_queue_setup(port, 0, 256, 0, NULL, pr->pool);
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(port, 0, 256, 0, NULL);
	if (rc == 0)
		rc = rte_eth_dev_start(port);
	return rc;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: xcpeer [EAL options] -- MODE [--wait-file F] ...\n"
		"       xcpeer [EAL options] -- frames [--rounds N] [--gap-us US] [--drop-over LEN]\n"
		"              [--drop-over-back LEN] [--record PREFIX]\n"
		"       xcpeer [EAL options] -- backpressure --count N --stall-ms MS\n"
		"       xcpeer [EAL options] -- stream --id ID --pps N --seconds S\n"
		"       xcpeer [EAL options] -- loop --size B --inflight N --warmup S --seconds S\n"
		"       xcpeer [EAL options] -- offload --rx none|csum|tso\n"
		"       xcpeer [EAL options] -- goodput --tx tso|none --rx tso|none [--burst N] --warmup S --seconds S\n"
		"       xcpeer [EAL options] -- latency --count N --gap-us US\n"
		"       xcpeer [EAL options] -- rr --load 0|1 [--window N] --gap-us US --warmup S --seconds S\n"
		"       xcpeer [EAL options] -- sizes --lens L[v],L[v],... --count N\n"
		"(any mode: --rx/--tx none|csum|tso choose the offloads a port asks for,\n"
		" --mtu N its MTU, default 9200)\n");
	exit(2);
}

/* the EAL's runtime directory, removed at exit (rmdir_at_exit()) */
static char rundir[PATH_MAX];

/**
 * rmdir_at_exit() - remove the EAL's runtime directory, empty by now
 *
 * Registered before rte_eal_init(), so that it runs after every exit
 * handler the EAL registers: the telemetry library's removes its socket
 * from that directory in one, and a directory removed before it was not
 * empty, and stayed (one per test frontend, hundreds per test run).
 */
static void rmdir_at_exit(void)
{
	if (rundir[0])
		rmdir(rundir);
}

int main(int argc, char **argv)
{
	unsigned long count = 20000, stall = 2000, rounds = 3, id = 0;
	unsigned long pps = 1000, seconds = 5, size = 64, inflight = 256;
	unsigned long warmup = 1, gap_us = 0, drop_over = 0, drop_back = 0;
	unsigned long load = 0, burst = 0, window = 0;
	const char *wait_file = NULL, *record = NULL, *lens = "";
	struct peer pr = { .mtu = 9200 };
	const char *mode;
	uint16_t p;
	int rc, i, fails = 0;

	atexit(rmdir_at_exit);
	rc = rte_eal_init(argc, argv);
	if (rc < 0) {
		fprintf(stderr, "xcpeer: EAL init failed\n");
		return 2;
	}
	snprintf(rundir, sizeof(rundir), "%s", rte_eal_get_runtime_dir());
	argc -= rc;
	argv += rc;
	if (argc < 2)
		usage();
	mode = argv[1];
	for (i = 2; i + 1 < argc; i += 2) {
		unsigned long v = strtoul(argv[i + 1], NULL, 0);
		const char *a = argv[i + 1];
		int ol = !strcmp(a, "tso") ? 2 : !strcmp(a, "csum") ? 1 :
			 !strcmp(a, "none") ? 0 : -1;

		if (!strcmp(argv[i], "--rx") || !strcmp(argv[i], "--tx")) {
			if (ol < 0)
				usage();
			if (argv[i][2] == 'r')
				pr.rx_offl = ol;
			else
				pr.tx_offl = ol;
		} else if (!strcmp(argv[i], "--wait-file"))
			wait_file = argv[i + 1];
		else if (!strcmp(argv[i], "--record"))
			record = argv[i + 1];
		else if (!strcmp(argv[i], "--count"))
			count = v;
		else if (!strcmp(argv[i], "--stall-ms"))
			stall = v;
		else if (!strcmp(argv[i], "--rounds"))
			rounds = v;
		else if (!strcmp(argv[i], "--id"))
			id = v % MAX_IDS;
		else if (!strcmp(argv[i], "--pps"))
			pps = v;
		else if (!strcmp(argv[i], "--seconds"))
			seconds = v ? v : 1;
		else if (!strcmp(argv[i], "--size"))
			size = v;
		else if (!strcmp(argv[i], "--inflight"))
			inflight = v;
		else if (!strcmp(argv[i], "--burst") && v >= 1 && v <= 32)
			burst = v;
		else if (!strcmp(argv[i], "--gap-us"))
			gap_us = v;
		else if (!strcmp(argv[i], "--drop-over"))
			drop_over = v;
		else if (!strcmp(argv[i], "--drop-over-back"))
			drop_back = v;
		else if (!strcmp(argv[i], "--mtu"))
			pr.mtu = (uint16_t)v;
		else if (!strcmp(argv[i], "--warmup"))
			warmup = v;
		else if (!strcmp(argv[i], "--load"))
			load = v;
		else if (!strcmp(argv[i], "--window"))
			window = v;
		else if (!strcmp(argv[i], "--lens"))
			lens = argv[i + 1];
		else
			usage();
	}
	if (i != argc)
		usage();
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	/* as QEMU: xcable may close a port's connection while this frontend
	 * still talks on it (link propagation when the other port stops);
	 * that is a failed write, not a reason to die */
	signal(SIGPIPE, SIG_IGN);

	pr.n_ports = rte_eth_dev_count_avail();
	pr.pool = rte_pktmbuf_pool_create("xcpeer", 8191, 256, 0,
					  SEG_SIZE + RTE_PKTMBUF_HEADROOM, 0);
	if (pr.pool == NULL || pr.n_ports == 0) {
		fprintf(stderr, "xcpeer: no ports or no memory\n");
		return 2;
	}
	for (p = 0; p < pr.n_ports; p++) {
		rc = setup_port(&pr, p);
		if (rc) {
			fprintf(stderr, "xcpeer: port %u setup failed: %s\n",
				p, rte_strerror(-rc));
			return 2;
		}
	}
	if (!wait_links(&pr, 10000)) {
		printf("FAIL links did not come up\n");
		return 1;
	}
	/* the harness creates this file once xcable reports both ends up */
	for (i = 0; wait_file && access(wait_file, F_OK) != 0; i++) {
		if (i == 2000 || stop) {
			printf("FAIL %s never appeared\n", wait_file);
			return 1;
		}
		usleep(10000);
	}
	if (!strcmp(mode, "frames") && pr.n_ports >= 2)
		fails = mode_frames(&pr, (unsigned int)rounds,
				    (unsigned int)gap_us, (unsigned int)drop_over,
				    (unsigned int)drop_back, record);
	else if (!strcmp(mode, "backpressure") && pr.n_ports >= 2)
		fails = mode_backpressure(&pr, (uint32_t)count,
					  (unsigned int)stall);
	else if (!strcmp(mode, "loop") && pr.n_ports >= 2)
		fails = mode_loop(&pr, (unsigned int)size,
				  (unsigned int)inflight, (unsigned int)warmup,
				  (unsigned int)seconds);
	else if (!strcmp(mode, "offload") && pr.n_ports >= 2)
		fails = mode_offload(&pr);
	else if (!strcmp(mode, "latency") && pr.n_ports >= 2)
		fails = mode_latency(&pr, (unsigned int)count,
				     (unsigned int)gap_us);
	else if (!strcmp(mode, "goodput") && pr.n_ports >= 2)
		fails = mode_goodput(&pr, (unsigned int)warmup,
				     (unsigned int)seconds, (unsigned int)burst);
	else if (!strcmp(mode, "rr") && pr.n_ports >= 2)
		fails = mode_rr(&pr, load != 0, (unsigned int)gap_us,
				(unsigned int)warmup, (unsigned int)seconds,
				(unsigned int)window);
	else if (!strcmp(mode, "sizes") && pr.n_ports >= 2)
		fails = mode_sizes(&pr, lens, (unsigned int)count);
	else if (!strcmp(mode, "stream"))
		fails = mode_stream(&pr, (unsigned int)id,
				    (unsigned int)pps, (unsigned int)seconds);
	else
		usage();
	fflush(stdout);
	for (p = 0; p < pr.n_ports; p++) {
		rte_eth_dev_stop(p);
		rte_eth_dev_close(p);
	}
	rte_eal_cleanup();
	return fails ? 1 : 0;
}
