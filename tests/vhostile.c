/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vhostile.c - a hostile vhost-user frontend, for tests
 *
 *   vhostile TX_SOCK RX_SOCK CASE [--seed N]
 *   vhostile --list
 *
 * Plays both guests of one cable: it connects to TX_SOCK as the guest that
 * sends and to RX_SOCK as the guest that receives, speaking the vhost-user
 * protocol itself with guest memory in a memfd (no DPDK, no QEMU), and
 * does to xcable what a broken or malicious guest could: descriptors that
 * point nowhere, loops, bad indirect tables, lying virtio-net headers,
 * out-of-range vring indexes, overflowing memory tables, missing and extra
 * fds, disconnects in the middle of a burst, thousands of connections,
 * and, as a guest behind a vIOMMU (VIRTIO_F_IOMMU_PLATFORM), IOTLB
 * messages that overflow, overlap, or map outside the memory table,
 * invalidations of what was never mapped, addresses with no mapping, and
 * a storm of good ones (iotlb-storm: 3 s of an update every 200 us, then
 * 3 s of quiet, for a caller that measures what xcable spends on each).
 *
 * The case "good" is a correct guest pair: it sends frames of many sizes
 * and checks that each arrives byte for byte; tests run it after every
 * hostile case ("good-iommu": the same pair behind a vIOMMU). Every case prints what it did ("sent N", "delivered N",
 * "handshakes N") on lines starting with two spaces, and exits 0 when it
 * ran as planned, 1 when a check of its own failed (a good frame lost or
 * changed, a handshake refused), 2 on a usage error. Whether xcable
 * survived, leaked or disturbed another cable is checked by the caller.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "vu.h"

static const struct setup SETUP_IOMMU = {
	.want = 1ull << F_VERSION_1 | 1ull << F_PROTOCOL | 1ull << F_INDIRECT |
		1ull << F_CSUM | 1ull << F_HOST_TSO4 | 1ull << F_HOST_TSO6,
	.proto = 0,
	.rx_posted = true,
	.iommu = true,
};

static unsigned int seed = 1;

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
	va_list ap;

	fputs("  ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

/* make_frame() - a test frame: seq in its payload, len bytes in all */
static void make_frame(uint8_t *f, uint32_t len, uint32_t seq)
{
	static const uint8_t head[14] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1,
					  0x88, 0xb5 };
	uint32_t i;

	memcpy(f, head, sizeof(head));
	memcpy(f + 14, &seq, 4);
	for (i = 18; i < len; i++)
		f[i] = (uint8_t)(seq * 7 + i);
}

/**
 * pair_open() - open and set up both guests of the cable
 * @tx:		sending guest, on @txp
 * @rx:		receiving guest, on @rxp
 * @ts:		setup of the sender
 * @rs:		setup of the receiver
 *
 * Return: 0, or -errno (printed)
 */
static int pair_open(struct guest *tx, const char *txp, struct guest *rx,
		     const char *rxp, const struct setup *ts,
		     const struct setup *rs)
{
	int rc;

	guest_init(tx);
	rc = guest_open_for(rx, rxp, 300);
	if (!rc) {
		rc = guest_setup(rx, rs, 0);
		if (!rc)
			rc = guest_open(tx, txp);
		if (!rc)
			rc = guest_setup(tx, ts, 0);
	} else {
		/* with link propagation, the receiver's socket is away until
		 * the sender is back */
		guest_close(rx);
		rc = guest_open(tx, txp);
		if (!rc)
			rc = guest_setup(tx, ts, 0);
		if (!rc)
			rc = guest_open(rx, rxp);
		if (!rc)
			rc = guest_setup(rx, rs, 0);
	}
	if (rc)
		out("handshake failed: %s", strerror(-rc));
	return rc;
}

/**
 * wait_link() - send probe frames until one crosses (both links up in
 *		 xcable), draining everything the receiver gets
 * @tx:		sender
 * @rx:		receiver
 *
 * Return: 0, or -ETIMEDOUT after 10 s
 */
static int wait_link(struct guest *tx, struct guest *rx)
{
	uint64_t end = now_ms() + 10000;
	struct vnet_hdr h = { 0 };
	uint8_t f[BUF_SIZE];

	while (now_ms() < end) {
		make_frame(f, 60, 0xfffffff0u);
		if (send_frame(tx, &h, f, 60))
			return -EBUSY;
		msleep(10);
		if (recv_frame(rx, f, sizeof(f)) > 0) {
			msleep(50);
			while (recv_frame(rx, f, sizeof(f)) > 0)
				;
			return 0;
		}
	}
	return -ETIMEDOUT;
}

/**
 * case_good() - a correct guest pair: 2000 frames of 60..1514 bytes, each
 *		 checked byte for byte on arrival, in order
 * @s:		both guests' setup (SETUP_IOMMU: both behind a vIOMMU)
 *
 * Return: 0 if all arrived intact, 1 otherwise
 */
static int case_good(const char *txp, const char *rxp, const struct setup *s)
{
	struct guest tx, rx;
	uint8_t f[BUF_SIZE], want[BUF_SIZE];
	uint32_t sent = 0, got = 0, bad = 0, n = 2000, len;
	struct vnet_hdr h = { 0 };
	uint64_t end;
	int r, rc = 1;

	if (pair_open(&tx, txp, &rx, rxp, s, s) ||
	    wait_link(&tx, &rx)) {
		out("link did not come up");
		goto out;
	}
	end = now_ms() + 20000;
	while (got < n && now_ms() < end) {
		/* keep at most 128 in flight: the receiver has 256 buffers */
		if (sent < n && sent - got < 128) {
			make_frame(f, 60 + (sent * 97) % 1455, sent);
			if (send_frame(&tx, &h, f, 60 + (sent * 97) % 1455))
				break;
			sent++;
			continue;
		}
		r = recv_frame(&rx, f, sizeof(f));
		if (r < 0) {
			bad++;
			continue;
		}
		if (r == 0) {
			msleep(1);
			continue;
		}
		len = 60 + (got * 97) % 1455;
		make_frame(want, len, got);
		if ((uint32_t)r != len || memcmp(f, want, len))
			bad++;
		got++;
	}
	out("good frames: sent %u, delivered %u, damaged or out of order %u",
	    sent, got, bad);
	rc = (sent == n && got == n && bad == 0) ? 0 : 1;
out:
	guest_close(&tx);
	guest_close(&rx);
	return rc;
}

/**
 * bad_tx() - the sender publishes a hostile chain, then a good frame;
 *	      reports whether either arrived
 * @txp, @rxp:	sockets
 * @build:	writes the hostile chain into the sender's memory, returns
 *		its head
 *
 * Return: 0 (the case ran), 1 if the handshake failed
 */
static int bad_tx(const char *txp, const char *rxp,
		  uint16_t (*build)(struct guest *g))
{
	struct guest tx, rx;
	struct vnet_hdr h = { 0 };
	uint8_t f[BUF_SIZE];
	unsigned int got = 0, i;
	int rc = 1, r;

	if (pair_open(&tx, txp, &rx, rxp, &SETUP_DEFAULT, &SETUP_DEFAULT) ||
	    wait_link(&tx, &rx))
		goto out;
	/* the hostile chain takes the descriptors from the top of the
	 * ring; the frames after it use the normal slots */
	publish(&tx, 1, build(&tx));
	for (i = 0; i < 4; i++) {
		make_frame(f, 100, 1000 + i);
		if (send_frame(&tx, &h, f, 100))
			break;
	}
	msleep(300);
	while ((r = recv_frame(&rx, f, sizeof(f))) != 0)
		got += r > 0;
	out("hostile chain published with 4 good frames after it; delivered %u, "
	    "used entries %u of %u", got,
	    (unsigned int)*used_idx(&tx, 1), (unsigned int)tx.avail_idx[1]);
	rc = 0;
out:
	guest_close(&tx);
	guest_close(&rx);
	return rc;
}

#define TOP		(QSIZE - 8)	/* descriptors used by hostile chains */

/* put a frame with a header into the buffer of descriptor @d */
static uint64_t frame_at(struct guest *g, unsigned int d, uint32_t len)
{
	uint64_t off = buf_off(1, d);
	struct vnet_hdr h = { 0 };

	memcpy(g->mem + off, &h, HDR_LEN);
	make_frame(g->mem + off + HDR_LEN, len, 0xbad);
	return off;
}

static uint16_t b_past_region(struct guest *g)
{
	desc(g, 1)[TOP] = (struct vdesc){ gpa(MEM_SIZE - 64), 1500, 0, 0 };
	return TOP;
}

static uint16_t b_unmapped(struct guest *g)
{
	desc(g, 1)[TOP] = (struct vdesc){ 0x1000, 1500, 0, 0 };
	return TOP;
}

static uint16_t b_unmapped_zero(struct guest *g)
{
	desc(g, 1)[TOP] = (struct vdesc){ 0xfffffffffffff000ull, 0, 0, 0 };
	return TOP;
}

static uint16_t b_zero_len(struct guest *g)
{
	desc(g, 1)[TOP] = (struct vdesc){ gpa(frame_at(g, TOP, 100)), 0, 0, 0 };
	return TOP;
}

static uint16_t b_loop(struct guest *g)
{
	uint64_t off = frame_at(g, TOP, 100);

	desc(g, 1)[TOP] = (struct vdesc){ gpa(off), 40, D_NEXT, TOP + 1 };
	desc(g, 1)[TOP + 1] = (struct vdesc){ gpa(off + 40), 40, D_NEXT, TOP };
	return TOP;
}

static uint16_t b_next_past_ring(struct guest *g)
{
	uint64_t off = frame_at(g, TOP, 100);

	desc(g, 1)[TOP] = (struct vdesc){ gpa(off), 40, D_NEXT, 4000 };
	return TOP;
}

/**
 * indirect_chain() - an indirect table whose @n entries chain through the
 *		      same buffer, @len bytes each (a frame of @flen bytes
 *		      behind a header)
 *
 * Return: the head: descriptor TOP, pointing at the table
 */
static uint16_t indirect_chain(struct guest *g, unsigned int n, uint32_t len,
			       uint32_t flen)
{
	struct vdesc *t = (struct vdesc *)(g->mem + INDIR_OFF);
	uint64_t off = frame_at(g, TOP, flen);
	unsigned int i;

	for (i = 0; i < n; i++)
		t[i] = (struct vdesc){ gpa(off), len, i + 1 < n ? D_NEXT : 0,
				       (uint16_t)(i + 1) };
	desc(g, 1)[TOP] = (struct vdesc){ gpa(INDIR_OFF), n * 16, D_INDIRECT,
					  0 };
	return TOP;
}

/* a chain through every entry of an indirect table of 1024: longer than
 * the ring */
static uint16_t b_chain_longer_than_ring(struct guest *g)
{
	return indirect_chain(g, 1024, 1, 100);
}

static uint16_t b_indirect_odd(struct guest *g)
{
	struct vdesc *t = (struct vdesc *)(g->mem + INDIR_OFF);

	t[0] = (struct vdesc){ gpa(frame_at(g, TOP, 100)), 112, 0, 0 };
	desc(g, 1)[TOP] = (struct vdesc){ gpa(INDIR_OFF), 24, D_INDIRECT, 0 };
	return TOP;
}

static uint16_t b_indirect_nested(struct guest *g)
{
	struct vdesc *t = (struct vdesc *)(g->mem + INDIR_OFF);

	t[0] = (struct vdesc){ gpa(INDIR_OFF + 256), 32, D_INDIRECT, 0 };
	t[16] = (struct vdesc){ gpa(frame_at(g, TOP, 100)), 112, 0, 0 };
	t[17] = (struct vdesc){ gpa(INDIR_OFF), 32, D_INDIRECT, 0 };
	desc(g, 1)[TOP] = (struct vdesc){ gpa(INDIR_OFF), 32, D_INDIRECT, 0 };
	return TOP;
}

static uint16_t b_indirect_past_region(struct guest *g)
{
	desc(g, 1)[TOP] = (struct vdesc){ gpa(MEM_SIZE - 32), 4096, D_INDIRECT,
					  0 };
	return TOP;
}

static uint16_t b_indirect_empty(struct guest *g)
{
	desc(g, 1)[TOP] = (struct vdesc){ gpa(INDIR_OFF), 0, D_INDIRECT, 0 };
	return TOP;
}

/* a chain of 8 bytes: shorter than the 12-byte header */
static uint16_t b_header_short(struct guest *g)
{
	desc(g, 1)[TOP] = (struct vdesc){ gpa(frame_at(g, TOP, 100)), 8, 0, 0 };
	return TOP;
}

/* a header alone, no frame */
static uint16_t b_header_only(struct guest *g)
{
	desc(g, 1)[TOP] = (struct vdesc){ gpa(frame_at(g, TOP, 100)), HDR_LEN,
					  0, 0 };
	return TOP;
}

/* a frame of 70 000 bytes (larger than any mbuf chain limit we have),
 * in 35 descriptors over the same 2 KB */
static uint16_t b_huge_chain(struct guest *g)
{
	return indirect_chain(g, 35, 2000, 2000);
}

/* a writable descriptor in a transmit chain */
static uint16_t b_write_in_tx(struct guest *g)
{
	desc(g, 1)[TOP] = (struct vdesc){ gpa(frame_at(g, TOP, 100)), 112,
					  D_WRITE, 0 };
	return TOP;
}

/**
 * case_header_split() - a valid chain whose 12-byte header is spread over
 *			 three descriptors of 4 bytes and whose frame is in
 *			 two more: xcable must deliver it intact
 *
 * Return: 0 if delivered byte for byte, 1 otherwise
 */
static int case_header_split(const char *txp, const char *rxp)
{
	struct guest tx, rx;
	uint8_t f[BUF_SIZE], want[200];
	unsigned int i, got = 0, good = 0;
	int rc = 1, r;

	if (pair_open(&tx, txp, &rx, rxp, &SETUP_DEFAULT, &SETUP_DEFAULT) ||
	    wait_link(&tx, &rx))
		goto out;
	for (i = 0; i < 10; i++) {
		uint64_t off = frame_at(&tx, TOP, 150);
		unsigned int d = TOP;

		make_frame(want, 150, 0xbad);
		desc(&tx, 1)[d] = (struct vdesc){ gpa(off), 4, D_NEXT, d + 1 };
		desc(&tx, 1)[d + 1] = (struct vdesc){ gpa(off + 4), 4, D_NEXT,
						      d + 2 };
		desc(&tx, 1)[d + 2] = (struct vdesc){ gpa(off + 8), 4, D_NEXT,
						      d + 3 };
		desc(&tx, 1)[d + 3] = (struct vdesc){ gpa(off + 12), 1 + i,
						      D_NEXT, d + 4 };
		desc(&tx, 1)[d + 4] = (struct vdesc){ gpa(off + 13 + i),
						      149 - i, 0, 0 };
		/* descriptors TOP.. are reused: wait until the last is used */
		publish(&tx, 1, (uint16_t)d);
		for (r = 0; r < 200 && in_flight(&tx, 1); r++)
			msleep(5);
		msleep(20);
		while ((r = recv_frame(&rx, f, sizeof(f))) > 0) {
			got++;
			good += r == 150 && !memcmp(f, want, 150);
		}
	}
	out("header split over 3 descriptors, frame over 2: sent 10, "
	    "delivered %u, intact %u", got, good);
	rc = (got == 10 && good == 10) ? 0 : 1;
out:
	guest_close(&tx);
	guest_close(&rx);
	return rc;
}

static uint32_t sum16(const uint8_t *p, uint32_t len, uint32_t acc);
static uint16_t fold(uint32_t acc);

/* IPv4/TCP or UDP frame for the offload cases: 14 + 20 + 20|8 + payload */
static uint32_t ip_frame(uint8_t *f, uint8_t proto, uint32_t payload)
{
	uint32_t l4 = proto == 6 ? 20 : 8, len = 14 + 20 + l4 + payload, i;
	static const uint8_t eth[14] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1,
					 8, 0 };

	memset(f, 0, len);
	memcpy(f, eth, 14);
	f[14] = 0x45;
	f[16] = (uint8_t)((len - 14) >> 8);
	f[17] = (uint8_t)(len - 14);
	f[22] = 64;
	f[23] = proto;
	memcpy(f + 26, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
	f[34] = 0x30; f[35] = 0x39; f[36] = 0x00; f[37] = 0x50;
	if (proto == 6) {
		f[46] = 0x50;	/* data offset 5 words */
		f[47] = 0x18;
	} else {
		f[38] = (uint8_t)((l4 + payload) >> 8);
		f[39] = (uint8_t)(l4 + payload);
	}
	for (i = 14 + 20 + l4; i < len; i++)
		f[i] = (uint8_t)i;
	/* IP header checksum, and the pseudo-header sum in the L4 checksum
	 * field, as a guest asking for checksum offload leaves them */
	i = (uint16_t)~fold(sum16(f + 14, 20, 0));
	f[24] = (uint8_t)(i >> 8);
	f[25] = (uint8_t)i;
	i = fold(sum16(f + 26, 8, 0) + proto + l4 + payload);
	f[proto == 6 ? 50 : 40] = (uint8_t)(i >> 8);
	f[proto == 6 ? 51 : 41] = (uint8_t)i;
	return len;
}

static uint32_t sum16(const uint8_t *p, uint32_t len, uint32_t acc)
{
	uint32_t i;

	for (i = 0; i + 1 < len; i += 2)
		acc += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		acc += (uint32_t)p[len - 1] << 8;
	return acc;
}

static uint16_t fold(uint32_t acc)
{
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return (uint16_t)acc;
}

/**
 * checksums_ok() - does an IPv4 TCP/UDP frame carry correct IP and L4
 *		    checksums (what a receiver without checksum offload needs)?
 * @f:		frame
 * @len:	its length
 *
 * Return: true if both verify
 */
static bool checksums_ok(const uint8_t *f, uint32_t len)
{
	uint32_t ihl, tot, l4len, acc;

	if (len < 34 || f[12] != 8 || f[13] != 0)
		return false;
	ihl = (f[14] & 15u) * 4;
	tot = (uint32_t)(f[16] << 8 | f[17]);
	if (ihl < 20 || tot < ihl || 14 + tot > len ||
	    fold(sum16(f + 14, ihl, 0)) != 0xffff)
		return false;
	if ((f[20] & 0x3f) || f[21])
		return true;	/* an IP fragment: its L4 checksum spans all */
	l4len = tot - ihl;
	acc = sum16(f + 26, 8, 0) + f[23] + l4len;
	if (f[23] == 17 && l4len >= 8 && f[14 + ihl + 6] == 0 &&
	    f[14 + ihl + 7] == 0)
		return true;	/* UDP without checksum */
	return (f[23] == 6 || f[23] == 17) &&
	       fold(sum16(f + 14 + ihl, l4len, acc)) == 0xffff;
}

/**
 * case_lying_offload() - virtio-net headers that lie: checksum offsets past
 *			  the frame, TSO with gso_size 0 or hdr_len past
 *			  the data, TSO on UDP, bogus gso types, IP and TCP
 *			  header lengths that lie; 20 frames of each kind.
 *			  The receiver takes no offloads, so xcable has to
 *			  finish or refuse each one.
 *
 * Prints "sent N delivered M"; the caller compares with xcable's drop
 * counters. Return: 0, 1 if the handshake failed
 */
static int case_lying_offload(const char *txp, const char *rxp)
{
	static const struct lie {
		const char *what;
		uint8_t proto;
		uint32_t payload;
		struct vnet_hdr h;
		int ihl;	/* !0: IP header length field */
		int doff;	/* !0: TCP data offset field */
	} lies[] = {
		{ "csum_start past the end", 6, 100, { 1, 0, 0, 0, 4000, 16, 0 }, 0, 0 },
		{ "csum_offset past the end", 6, 100, { 1, 0, 0, 0, 34, 4000, 0 }, 0, 0 },
		{ "csum_start+offset wraps", 6, 100, { 1, 0, 0, 0, 0xfff0, 0x20, 0 }, 0, 0 },
		{ "TSO with gso_size 0", 6, 3000, { 1, 1, 54, 0, 34, 16, 0 }, 0, 0 },
		{ "TSO hdr_len past the data", 6, 1000, { 1, 1, 9000, 500, 34, 16, 0 }, 0, 0 },
		{ "TSO4 on a UDP frame", 17, 1400, { 1, 1, 42, 500, 34, 6, 0 }, 0, 0 },
		{ "TSO6 on an IPv4 frame", 6, 1400, { 1, 4, 54, 500, 34, 16, 0 }, 0, 0 },
		{ "UFO on IPv4", 17, 1400, { 1, 3, 42, 500, 34, 6, 0 }, 0, 0 },
		{ "unknown gso_type 7", 6, 1400, { 1, 7, 54, 500, 34, 16, 0 }, 0, 0 },
		{ "ECN without TSO", 6, 100, { 1, 0x80, 0, 0, 34, 16, 0 }, 0, 0 },
		{ "TSO without NEEDS_CSUM", 6, 3000, { 0, 1, 54, 1000, 0, 0, 0 }, 0, 0 },
		{ "IP header length 60 on a 20-byte header", 6, 20, { 1, 1, 54, 10, 34, 16, 0 }, 15, 0 },
		{ "IP header length 0", 6, 100, { 1, 0, 0, 0, 34, 16, 0 }, 1, 0 },
		{ "TCP data offset 15 on a short frame", 6, 10, { 1, 1, 54, 4, 34, 16, 0 }, 0, 15 },
		{ "TCP data offset 0", 6, 3000, { 1, 1, 54, 1000, 34, 16, 0 }, 0, 1 },
	};
	struct guest tx, rx;
	struct setup ts = SETUP_DEFAULT;
	uint8_t f[BUF_SIZE], big[4200];
	unsigned int k, i, sent = 0, got = 0, bad = 0, kgot, kbad;
	int rc = 1, r;

	if (pair_open(&tx, txp, &rx, rxp, &ts, &SETUP_DEFAULT) ||
	    wait_link(&tx, &rx))
		goto out;
	for (k = 0; k < sizeof(lies) / sizeof(lies[0]); k++) {
		const struct lie *l = &lies[k];
		uint32_t len = ip_frame(big, l->proto, l->payload);

		if (l->ihl)
			big[14] = (uint8_t)(0x40 | (l->ihl & 15));
		if (l->doff)
			big[46] = (uint8_t)((l->doff & 15) << 4);
		for (i = 0; i < 20; i++) {
			/* frames above one buffer go out as a two-descriptor
			 * chain through the indirect area */
			if (len + HDR_LEN <= BUF_SIZE) {
				if (send_frame(&tx, &l->h, big, len))
					break;
			} else {
				uint64_t off = INDIR_OFF + 0x2000;
				struct vdesc *t = (struct vdesc *)(tx.mem + INDIR_OFF +
								   (i % 8) * 64);

				while (in_flight(&tx, 1) >= QSIZE - 16)
					msleep(1);
				memcpy(tx.mem + off, &l->h, HDR_LEN);
				memcpy(tx.mem + off + HDR_LEN, big, len);
				t[0] = (struct vdesc){ gpa(off), 1000, D_NEXT, 1 };
				t[1] = (struct vdesc){ gpa(off + 1000),
						       HDR_LEN + len - 1000, 0, 0 };
				desc(&tx, 1)[TOP] = (struct vdesc){
					gpa(INDIR_OFF + (i % 8) * 64), 32,
					D_INDIRECT, 0 };
				publish(&tx, 1, TOP);
				for (r = 0; r < 400 && in_flight(&tx, 1); r++)
					msleep(5);
			}
			sent++;
		}
		msleep(100);
		kgot = kbad = 0;
		while ((r = recv_frame(&rx, f, sizeof(f))) != 0) {
			kgot += r > 0;
			kbad += r < 0 || !checksums_ok(f, (uint32_t)r);
		}
		out("%-40s sent 20, delivered %u, with wrong checksums %u",
		    l->what, kgot, kbad);
		got += kgot;
		bad += kbad;
	}
	msleep(300);
	while ((r = recv_frame(&rx, f, sizeof(f))) != 0) {
		got += r > 0;
		bad += r < 0 || !checksums_ok(f, (uint32_t)r);
	}
	out("lying virtio-net headers: %zu kinds, sent %u, delivered %u, "
	    "with wrong checksums %u", sizeof(lies) / sizeof(lies[0]), sent,
	    got, bad);
	rc = 0;
out:
	guest_close(&tx);
	guest_close(&rx);
	return rc;
}

/**
 * bad_rx() - the receiver posts hostile buffers; the sender sends 50 good
 *	      frames at it
 * @kind:	0 unmapped, 1 read-only, 2 loop, 3 4 bytes, 4 zero length,
 *		5 past the region
 *
 * Return: 0 (the case ran), 1 if the handshake failed
 */
static int bad_rx(const char *txp, const char *rxp, int kind)
{
	struct guest tx, rx;
	struct setup rs = SETUP_DEFAULT;
	struct vnet_hdr h = { 0 };
	uint8_t f[BUF_SIZE];
	unsigned int i, sent = 0;
	int rc = 1;

	rs.rx_posted = false;
	if (pair_open(&tx, txp, &rx, rxp, &SETUP_DEFAULT, &rs))
		goto out;
	for (i = 0; i < QSIZE; i += 2) {
		struct vdesc *d = &desc(&rx, 0)[i];
		uint64_t a = gpa(buf_off(0, i));

		switch (kind) {
		case 0: d[0] = (struct vdesc){ 0x2000, BUF_SIZE, D_WRITE, 0 }; break;
		case 1: d[0] = (struct vdesc){ a, BUF_SIZE, 0, 0 }; break;
		case 2:
			d[0] = (struct vdesc){ a, 8, D_WRITE | D_NEXT, (uint16_t)(i + 1) };
			d[1] = (struct vdesc){ a + 8, 8, D_WRITE | D_NEXT, (uint16_t)i };
			break;
		case 3: d[0] = (struct vdesc){ a, 4, D_WRITE, 0 }; break;
		case 4: d[0] = (struct vdesc){ a, 0, D_WRITE, 0 }; break;
		default:
			d[0] = (struct vdesc){ gpa(MEM_SIZE - 16), BUF_SIZE,
					       D_WRITE, 0 };
		}
		publish(&rx, 0, (uint16_t)i);
	}
	msleep(300);	/* no probe can cross: give the links time */
	for (i = 0; i < 50; i++) {
		make_frame(f, 100, i);
		if (send_frame(&tx, &h, f, 100))
			break;
		sent++;
	}
	msleep(300);
	out("receiver posted %u hostile buffers; sent %u, used entries on the "
	    "receiver %u", QSIZE / 2, sent, (unsigned int)*used_idx(&rx, 0));
	rc = 0;
out:
	guest_close(&tx);
	guest_close(&rx);
	return rc;
}

/**
 * closed() - has xcable closed this guest's connection?
 * @g:		guest
 * @ms:		how long to wait for it
 *
 * Return: true if closed
 */
static bool closed(struct guest *g, int ms)
{
	struct pollfd p = { g->sock, POLLIN | POLLRDHUP, 0 };
	char c;

	return poll(&p, 1, ms) > 0 &&
	       recv(g->sock, &c, 1, MSG_DONTWAIT | MSG_PEEK) <= 0;
}

/* proto_one() - open, run @fn on a fresh guest, report whether xcable
 * closed the connection */
static int proto_one(const char *path, const char *what, bool setup,
		     int (*fn)(struct guest *g, int arg), int arg)
{
	struct guest g;
	int rc;

	rc = guest_open(&g, path);
	if (!rc && setup)
		rc = guest_setup(&g, &SETUP_DEFAULT, 0);
	if (rc) {
		out("%s: handshake failed: %s", what, strerror(-rc));
		guest_close(&g);
		return 1;
	}
	rc = fn(&g, arg);
	out("%s: %s", what, rc < 0 ? "xcable closed the connection at once" :
	    closed(&g, 500) ? "xcable closed the connection" :
	    "connection still open (message refused or ignored)");
	guest_close(&g);
	return 0;
}

static int p_vring_num(struct guest *g, int arg)
{
	static const uint32_t idx[] = { 2, 255, 256, 0xffffffffu };
	static const uint32_t num[] = { 0, 3, 32769, 65536, 0xffffffffu };

	if (arg < 4)
		return vu_state(g, VU_SET_VRING_NUM, idx[arg], QSIZE);
	return vu_state(g, VU_SET_VRING_NUM, 0, num[arg - 4]);
}

static int p_vring_addr(struct guest *g, int arg)
{
	if (arg == 0)
		return vu_addr(g, 300, 0, 0, 0);
	/* ring addresses outside guest memory, and a used ring that
	 * would end past the region */
	if (arg == 1)
		return vu_addr(g, 0, 0x1234, 0x5678, 0x9abc);
	return vu_addr(g, 0, (uint64_t)(uintptr_t)g->mem,
		       (uint64_t)(uintptr_t)g->mem + 4096,
		       (uint64_t)(uintptr_t)g->mem + MEM_SIZE - 8);
}

static int p_vring_file(struct guest *g, int arg)
{
	switch (arg) {
	case 0: return vu_file(g, VU_SET_VRING_KICK, 0xff, g->kick[0]);
	case 1: return vu_file(g, VU_SET_VRING_CALL, 0xff | VU_NOFD, -1);
	case 2: return vu_state(g, VU_SET_VRING_ENABLE, 500, 1);
	case 3: return vu_state(g, VU_SET_VRING_BASE, 0x7fffffff, 0);
	default: return vu_state(g, VU_GET_VRING_BASE, 300, 0);
	}
}

/* memory tables that lie */
static int p_mem(struct guest *g, int arg)
{
	struct vu_msg m = { .req = VU_SET_MEM_TABLE, .size = 8 + 32 };
	uint64_t uva = (uint64_t)(uintptr_t)g->mem;
	int fds[VU_MAX_REGIONS + 1], i;

	m.mem.n = 1;
	m.mem.r[0] = (struct vu_region){ GPA_BASE, MEM_SIZE, uva, 0 };
	switch (arg) {
	case 0:		/* nine regions */
		m.mem.n = 9;
		for (i = 0; i < 9; i++)
			fds[i] = g->memfd;
		m.size = 8 + 32 * 8;
		return vu_send(g, &m, fds, 9);
	case 1:		/* a huge count */
		m.mem.n = 0xffffffffu;
		break;
	case 2:		/* guest address + size overflows */
		m.mem.r[0].gpa = 0xfffffffffff00000ull;
		break;
	case 3:		/* mmap_offset + size overflows */
		m.mem.r[0].offset = 0xffffffffffff0000ull;
		break;
	case 4:		/* size 0 */
		m.mem.r[0].size = 0;
		break;
	case 5:		/* userspace address + size overflows */
		m.mem.r[0].uva = 0xfffffffffff00000ull;
		break;
	case 6:		/* no fd */
		return vu_send(g, &m, NULL, 0);
	case 7:		/* two regions overlapping */
		m.mem.n = 2;
		m.size = 8 + 64;
		m.mem.r[1] = m.mem.r[0];
		fds[0] = fds[1] = g->memfd;
		return vu_send(g, &m, fds, 2);
	case 8:		/* payload shorter than its count says */
		m.mem.n = 4;
		break;
	default:	/* size far beyond the memfd */
		m.mem.r[0].size = 1ull << 40;
		break;
	}
	return vu_send(g, &m, &g->memfd, 1);
}

/* fds: missing where needed, extra where none belongs, too many */
static int p_fds(struct guest *g, int arg)
{
	struct vu_msg m = { .req = VU_GET_FEATURES };
	int fds[16], i, rc;

	switch (arg) {
	case 0:		/* kick without fd, without the no-fd flag */
		return vu_file(g, VU_SET_VRING_KICK, 0, -1);
	case 1:		/* three fds on GET_FEATURES */
		for (i = 0; i < 3; i++)
			fds[i] = g->kick[i & 1];
		if ((rc = vu_send(g, &m, fds, 3)) != 0)
			return rc;
		return vu_recv(g, &m) == 0 ? 0 : -ECONNRESET;
	case 2:		/* sixteen fds with a kick */
		for (i = 0; i < 16; i++)
			fds[i] = g->kick[0];
		m.req = VU_SET_VRING_KICK;
		m.size = 8;
		m.u64 = 0;
		return vu_send(g, &m, fds, 16);
	default:	/* a message header promising more than it sends */
		m.req = VU_SET_FEATURES;
		m.size = 8;
		{
			struct iovec iov = { &m, MSG_HDR };
			struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

			m.flags = VU_VERSION;
			if (sendmsg(g->sock, &mh, MSG_NOSIGNAL) < 0)
				return -errno;
			shutdown(g->sock, SHUT_WR);
		}
		return 0;
	}
}

/* SET_LOG_BASE whose size + offset overflows */
static int p_log(struct guest *g, int arg)
{
	struct vu_msg m = { .req = VU_SET_LOG_BASE, .size = 16 };

	m.log.size = arg ? 0x1000 : 0xffffffffffff0000ull;
	m.log.offset = arg ? 0xfffffffffffff000ull : 0x20000;
	return vu_send(g, &m, &g->memfd, 1);
}

/* unknown and absurd requests */
static int p_junk(struct guest *g, int arg)
{
	struct vu_msg m = { .req = arg ? 0x7fffffff : 0, .size = arg ? 0 : 8 };

	if (arg == 2) {
		m.req = VU_SET_FEATURES;
		m.size = 0xffff;	/* larger than any payload */
	}
	return vu_send(g, &m, NULL, 0);
}

/* what case iotlb-bad's variants do */
static const char *const iotlb_what[] = {
	"UPDATE whose iova + size overflows",
	"UPDATE of the buffers' range onto the rings (overlap)",
	"UPDATE to an address outside the memory table",
	"UPDATE running past the end of the memory table",
	"INVALIDATE of ranges never mapped",
	"unknown type, no permission, size 0",
	"5000 UPDATEs of single pages (more than the IOTLB cache holds), then the memory's mapping again",
	"frame at an I/O virtual address with no mapping",
	"INVALIDATE of the rings while running, then UPDATE again",
};

/*
 * What the 4 good frames after each variant must do: arrive (4), be
 * stuck behind it (0: the variant leaves a descriptor whose address has
 * no mapping at the head of the ring, and nobody here answers the vhost
 * library's IOTLB miss as QEMU would, so the guest's own ring stalls,
 * and only it), or either (-1: the vhost library closes the connection
 * on that message, and frames sent before it noticed may still arrive).
 * The flood (variant 6) may evict the memory's own mapping from the
 * library's cache of 2048 entries at random; QEMU would answer the miss
 * with an UPDATE, so the variant sends that UPDATE itself, and the frames
 * must then arrive.
 */
static const int iotlb_want[] = { 4, 4, -1, 4, 4, -1, 4, 0, 4 };
_Static_assert(sizeof(iotlb_want) / sizeof(iotlb_want[0]) ==
	       sizeof(iotlb_what) / sizeof(iotlb_what[0]),
	       "one expectation per variant");

/**
 * iotlb_hostile() - send variant @k of case iotlb-bad
 * @g:		sender, set up behind a vIOMMU
 * @k:		index into iotlb_what
 *
 * Return: 0, or -errno from the socket
 */
static int iotlb_hostile(struct guest *g, int k)
{
	uint64_t mem = (uint64_t)(uintptr_t)g->mem;
	int rc = 0, i;

	switch (k) {
	case 0:
		rc |= vu_iotlb(g, IOTLB_UPDATE, ~0ull - 0xfff, 0x2000, mem, IOTLB_RW);
		rc |= vu_iotlb(g, IOTLB_UPDATE, GPA_BASE, ~0ull, mem, IOTLB_RW);
		return rc;
	case 1:
		return vu_iotlb(g, IOTLB_UPDATE, gpa(BUF_OFF), 0x10000, mem,
				IOTLB_RW);
	case 2:
		return vu_iotlb(g, IOTLB_UPDATE, 0x10000000, 0x1000, 0x1000,
				IOTLB_RW);
	case 3:
		return vu_iotlb(g, IOTLB_UPDATE, gpa(MEM_SIZE - 0x1000),
				0x100000, mem + MEM_SIZE - 0x1000, IOTLB_RW);
	case 4:
		rc |= vu_iotlb(g, IOTLB_INVALIDATE, 0x1000, 0x1000, 0, 0);
		rc |= vu_iotlb(g, IOTLB_INVALIDATE, 0, 0, 0, 0);
		rc |= vu_iotlb(g, IOTLB_INVALIDATE, ~0ull - 0xfff, 0x2000, 0, 0);
		return rc;
	case 5:
		rc |= vu_iotlb(g, 9, GPA_BASE, 0x1000, mem, IOTLB_RW);
		rc |= vu_iotlb(g, IOTLB_UPDATE, 0x20000000, 0x1000, mem, 0);
		rc |= vu_iotlb(g, IOTLB_UPDATE, 0x20001000, 0, mem, IOTLB_RW);
		return rc;
	case 6:
		for (i = 0; i < 5000 && !rc; i++)
			rc = vu_iotlb(g, IOTLB_UPDATE,
				      0x100000000ull + (uint64_t)i * 0x1000,
				      0x1000, mem + (uint64_t)(i % 1024) * 0x1000,
				      IOTLB_RW);
		/* as QEMU answers the miss of an evicted mapping */
		rc |= vu_iotlb(g, IOTLB_UPDATE, GPA_BASE, MEM_SIZE, mem,
			       IOTLB_RW);
		return rc;
	case 7:
		desc(g, 1)[TOP] = (struct vdesc){ 0x20000000, 100, 0, 0 };
		publish(g, 1, TOP);
		return 0;
	default:
		rc |= vu_iotlb(g, IOTLB_INVALIDATE, GPA_BASE, MEM_SIZE, 0, 0);
		msleep(100);
		rc |= vu_iotlb(g, IOTLB_UPDATE, GPA_BASE, MEM_SIZE, mem,
			       IOTLB_RW);
		return rc;
	}
}

/**
 * case_iotlb_bad() - both guests behind a vIOMMU; the sender sends
 *		      hostile IOTLB messages (or a frame with no mapping),
 *		      then 4 good frames; reports what arrived against
 *		      iotlb_want
 * @only:	run only this variant, -1 for all
 *
 * Return: 0, or 1 if a handshake failed or the good frames did not do
 *	   what iotlb_want says
 */
static int case_iotlb_bad(const char *txp, const char *rxp, int only)
{
	int k, r, sent, rc = 0;
	int n = (int)(sizeof(iotlb_what) / sizeof(iotlb_what[0]));
	struct vnet_hdr h = { 0 };
	uint8_t f[BUF_SIZE];
	struct guest tx, rx;
	unsigned int got, i;

	for (k = 0; k < n; k++) {
		if (only >= 0 && k != only)
			continue;
		if (pair_open(&tx, txp, &rx, rxp, &SETUP_IOMMU, &SETUP_IOMMU) ||
		    wait_link(&tx, &rx)) {
			out("%s: the link did not come up", iotlb_what[k]);
			rc = 1;
			goto next;
		}
		sent = iotlb_hostile(&tx, k);
		for (i = 0; i < 4; i++) {
			make_frame(f, 100, 1000 + i);
			if (send_frame(&tx, &h, f, 100))
				break;
		}
		msleep(300);
		got = 0;
		while ((r = recv_frame(&rx, f, sizeof(f))) != 0)
			got += r > 0;
		out("%s: %s; good frames after it delivered %u of 4 (%s)",
		    iotlb_what[k], sent < 0 || closed(&tx, 200) ?
		    "xcable closed the connection" : "connection still open",
		    got, iotlb_want[k] < 0 ? "any number: closed" :
		    iotlb_want[k] ? "all must arrive" : "stuck behind it, as expected");
		if (iotlb_want[k] >= 0 && got != (unsigned int)iotlb_want[k]) {
			out("FAIL %s: %u good frames arrived, expected %d",
			    iotlb_what[k], got, iotlb_want[k]);
			rc = 1;
		}
		if (iotlb_want[k] < 0 && sent >= 0 && !closed(&tx, 200)) {
			out("FAIL %s: the connection should have been closed",
			    iotlb_what[k]);
			rc = 1;
		}
next:
		guest_close(&tx);
		guest_close(&rx);
	}
	return rc;
}

/**
 * case_iotlb_storm() - both guests behind a vIOMMU; the sender sends the
 *			mapping of its memory again (an IOTLB update, as
 *			QEMU answers a miss) every 200 us for 3 s, with a
 *			frame after every 50th, then stays connected and
 *			quiet for 3 s. Prints "storm" and "quiet" as each
 *			starts: the caller measures xcable's CPU in each
 *
 * Return: 0 if every frame arrived, 1 if not or the handshake failed
 */
static int case_iotlb_storm(const char *txp, const char *rxp)
{
	struct guest tx, rx;
	uint64_t mem, end;
	struct vnet_hdr h = { 0 };
	uint8_t f[BUF_SIZE];
	unsigned int n = 0, sent = 0, got = 0;
	int r, rc = 1;

	if (pair_open(&tx, txp, &rx, rxp, &SETUP_IOMMU, &SETUP_IOMMU) ||
	    wait_link(&tx, &rx)) {
		out("link did not come up");
		goto out;
	}
	mem = (uint64_t)(uintptr_t)tx.mem;
	out("storm");
	end = now_ms() + 3000;
	while (now_ms() < end) {
		if (vu_iotlb(&tx, IOTLB_UPDATE, GPA_BASE, MEM_SIZE, mem,
			     IOTLB_RW)) {
			out("xcable closed the connection after %u updates", n);
			goto out;
		}
		if (++n % 50 == 0 && sent - got < 128) {
			make_frame(f, 100, sent);
			if (send_frame(&tx, &h, f, 100) == 0)
				sent++;
		}
		while ((r = recv_frame(&rx, f, sizeof(f))) != 0)
			got += r > 0;
		usleep(200);
	}
	out("quiet");
	end = now_ms() + 3000;
	while (now_ms() < end) {
		while ((r = recv_frame(&rx, f, sizeof(f))) != 0)
			got += r > 0;
		msleep(10);
	}
	out("IOTLB updates sent: %u in 3 s; frames among them: sent %u, delivered %u",
	    n, sent, got);
	rc = sent > 0 && got == sent ? 0 : 1;
out:
	guest_close(&tx);
	guest_close(&rx);
	return rc;
}

/**
 * case_mem_beyond_file() - a memory table larger than the memfd behind it
 *			    (or a memfd shrunk after xcable mapped it): the
 *			    sender's frames point past the end of the file,
 *			    where a read raises SIGBUS
 * @truncate:	shrink the memfd to nothing once the link is up, instead
 *
 * Return: 0 (the case ran), 1 if the handshake failed
 */
static int case_mem_beyond_file(const char *txp, const char *rxp,
				bool truncate)
{
	struct guest tx, rx;
	struct setup ts = SETUP_DEFAULT;
	unsigned int i;
	int rc = 1;

	if (!truncate)
		ts.table_size = 16 * MEM_SIZE;
	if (pair_open(&tx, txp, &rx, rxp, &ts, &SETUP_DEFAULT) ||
	    wait_link(&tx, &rx))
		goto out;
	if (truncate) {
		/* our own mapping is gone too: touch nothing, only kick */
		if (ftruncate(tx.memfd, 0) < 0)
			goto out;
		for (i = 0; i < 10; i++) {
			kick(&tx, 1);
			msleep(20);
		}
		out("memfd shrunk to 0 bytes under a running link");
	} else {
		for (i = 0; i < 8; i++) {
			uint64_t off = 4 * MEM_SIZE + i * 4096;

			desc(&tx, 1)[TOP] = (struct vdesc){ gpa(off), 1500, 0, 0 };
			publish(&tx, 1, TOP);
			msleep(20);
		}
		out("region of %u MiB over a %u MiB memfd; 8 frames beyond the "
		    "file's end", 16 * MEM_SIZE >> 20, MEM_SIZE >> 20);
	}
	msleep(200);
	rc = 0;
out:
	/* the truncated mapping must not be touched by guest_close either */
	guest_close(&tx);
	guest_close(&rx);
	return rc;
}

/**
 * case_repeat() - messages that replace resources, sent 200 times on one
 *		   connection: memory tables, kick and call fds; then the
 *		   link is checked
 *
 * Return: 0 if the cable still worked on the same connection, 1 otherwise
 */
static int case_repeat(const char *txp, const char *rxp)
{
	struct guest tx, rx;
	int i, q, fd, rc = 1;

	if (pair_open(&tx, txp, &rx, rxp, &SETUP_DEFAULT, &SETUP_DEFAULT) ||
	    wait_link(&tx, &rx))
		goto out;
	for (i = 0; i < 200; i++) {
		/* the same memory, its size alternating by a page (so that
		 * the table differs and is mapped again), its fd sent anew */
		if (vu_mem(&tx, GPA_BASE, i % 2 ? MEM_SIZE - 4096 : MEM_SIZE,
			   (uint64_t)(uintptr_t)tx.mem, 0))
			goto out;
		for (q = 0; q < 2; q++) {
			fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
			close(tx.kick[q]);
			tx.kick[q] = fd;
			if (vu_file(&tx, VU_SET_VRING_KICK, q, fd))
				goto out;
			fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
			close(tx.call[q]);
			tx.call[q] = fd;
			if (vu_file(&tx, VU_SET_VRING_CALL, q, fd))
				goto out;
		}
	}
	out("200 times: new memory table, kick and call fds on a running link");
	rc = wait_link(&tx, &rx) ? 1 : 0;
	out("cable %s on the same connection afterwards", rc ? "dead" : "works");
out:
	guest_close(&tx);
	guest_close(&rx);
	return rc;
}

/**
 * case_disconnect_mid_burst() - 40 times: the sender publishes 256 frames
 *				 and disconnects at once; then the receiver
 *				 disconnects while frames pour into it
 *
 * Return: 0, 1 if a handshake failed
 */
static int case_disconnect_mid_burst(const char *txp, const char *rxp)
{
	struct guest tx, rx, tx2;
	struct vnet_hdr h = { 0 };
	uint8_t f[128];
	unsigned int round, i;
	int rc = 1;

	for (round = 0; round < 40; round++) {
		if (pair_open(&tx, txp, &rx, rxp, &SETUP_DEFAULT,
			      &SETUP_DEFAULT))
			goto out;
		if (round == 0 && wait_link(&tx, &rx))
			goto out;
		if (round % 2 == 0) {
			/* sender vanishes with a full ring */
			for (i = 0; i < QSIZE - 1; i++) {
				make_frame(f, 100, i);
				if (send_frame(&tx, &h, f, 100))
					break;
			}
			msleep(rand_r(&seed) % 3);
			guest_close(&tx);
			msleep(5);
			guest_close(&rx);
		} else {
			/* receiver vanishes while frames pour in */
			for (i = 0; i < 2 * QSIZE; i++) {
				make_frame(f, 100, i);
				if (send_frame(&tx, &h, f, 100))
					break;
				if (i == QSIZE / 2)
					guest_close(&rx);
			}
			guest_close(&tx);
		}
	}
	/* the cable works after all this */
	if (pair_open(&tx2, txp, &rx, rxp, &SETUP_DEFAULT, &SETUP_DEFAULT))
		goto out;
	rc = wait_link(&tx2, &rx) ? 1 : 0;
	out("40 disconnects in the middle of a burst (20 senders, 20 "
	    "receivers); cable %s afterwards", rc ? "dead" : "works");
	guest_close(&tx2);
	guest_close(&rx);
	return rc;
out:
	guest_close(&tx);
	guest_close(&rx);
	return rc;
}

/**
 * case_connect_cycles() - 1000 connections to TX_SOCK while a well-behaved
 *			   guest stays on RX_SOCK: half complete the
 *			   handshake (the link comes up in xcable), half stop
 *			   after a random number of messages. The guest on
 *			   RX_SOCK reconnects whenever xcable drops it (link
 *			   propagation takes its carrier when the other end
 *			   goes), as QEMU does with reconnect=1.
 * @pause_ms:	every 100th cycle, stay away this long after a completed
 *		handshake (0: never), so that link propagation, which acts on
 *		an end gone for 300 ms, sees the end go and come back
 *
 * Return: 0 if every connection got its GET_FEATURES answer, 1 otherwise
 */
static int case_connect_cycles(const char *txp, const char *rxp,
			       unsigned int n, unsigned int pause_ms)
{
	unsigned int i, ok = 0, full = 0, again = 0;
	struct guest g, rx;
	int rc = 1;

	/* with link propagation RX_SOCK may be gone already: the good pair
	 * before this case left both ends, and xcable took the second's
	 * carrier when the first went; it comes back with TX_SOCK's link */
	guest_init(&rx);
	if (guest_open_for(&rx, rxp, 0) || guest_setup(&rx, &SETUP_DEFAULT, 0))
		guest_close(&rx);
	for (i = 0; i < n; i++) {
		unsigned int stop = i % 2 ? 1 + rand_r(&seed) % 20 : 0;

		/* its socket comes back only once this end is up again:
		 * one try per round */
		if (rx.sock < 0 || closed(&rx, 0)) {
			guest_close(&rx);
			if (guest_open_for(&rx, rxp, 0) == 0 &&
			    guest_setup(&rx, &SETUP_DEFAULT, 0) == 0)
				again++;
		}
		if (guest_open(&g, txp) == 0 &&
		    guest_setup(&g, &SETUP_DEFAULT, stop) == 0) {
			ok++;
			full += stop == 0;
		}
		/* a completed handshake: let xcable see the link up before
		 * going (else it is only another half-done one) */
		if (stop == 0)
			msleep(2);
		guest_close(&g);
		if (pause_ms && i % 100 == 0)
			msleep(pause_ms);
	}
	out("%u connect/disconnect cycles: %u handshakes answered (%u "
	    "complete); the guest on the other end reconnected %u times",
	    n, ok, full, again);
	rc = ok == n ? 0 : 1;
	guest_close(&rx);
	return rc;
}

/**
 * case_hangup_before_reply() - 300 connections to TX_SOCK that ask
 *				questions and hang up without waiting for
 *				the answers: even rounds right after
 *				connecting (GET_FEATURES, GET_PROTOCOL_
 *				FEATURES), odd rounds after a full handshake
 *				(GET_VRING_BASE, which also stops the rings).
 *				xcable's answers then meet a closed socket.
 *
 * Return: 0 if the cable works afterwards, 1 otherwise
 */
static int case_hangup_before_reply(const char *txp, const char *rxp)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct guest g, tx, rx;
	unsigned int i, k, asked = 0;
	int rc = 1;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", txp);
	for (i = 0; i < 300; i++) {
		if (i % 2 == 0) {
			guest_init(&g);
			g.sock = vu_connect(&sa);
			if (g.sock < 0) {
				msleep(10);	/* xcable restoring its socket */
				continue;
			}
			asked += vu_u64(&g, VU_GET_FEATURES, 0, false, false,
					NULL) == 0;
			asked += vu_u64(&g, VU_GET_PROTOCOL_FEATURES, 0, false,
					false, NULL) == 0;
		} else {
			if (guest_open(&g, txp) ||
			    guest_setup(&g, &SETUP_DEFAULT, 0)) {
				guest_close(&g);
				continue;
			}
			for (k = 0; k < 2; k++)
				asked += vu_state(&g, VU_GET_VRING_BASE, k, 0) == 0;
		}
		guest_close(&g);
	}
	/* the cable works after all this */
	if (pair_open(&tx, txp, &rx, rxp, &SETUP_DEFAULT, &SETUP_DEFAULT) == 0)
		rc = wait_link(&tx, &rx) ? 1 : 0;
	out("300 connections hung up before their answers (%u questions "
	    "asked); cable %s afterwards", asked, rc ? "dead" : "works");
	guest_close(&tx);
	guest_close(&rx);
	return rc;
}

static const struct tx_case {
	const char *name;
	uint16_t (*build)(struct guest *g);
} tx_cases[] = {
	{ "desc-past-region", b_past_region },
	{ "desc-unmapped", b_unmapped },
	{ "desc-unmapped-zero-len", b_unmapped_zero },
	{ "desc-zero-len", b_zero_len },
	{ "desc-loop", b_loop },
	{ "desc-next-past-ring", b_next_past_ring },
	{ "chain-longer-than-ring", b_chain_longer_than_ring },
	{ "indirect-odd-size", b_indirect_odd },
	{ "indirect-nested", b_indirect_nested },
	{ "indirect-past-region", b_indirect_past_region },
	{ "indirect-empty", b_indirect_empty },
	{ "header-short", b_header_short },
	{ "header-only", b_header_only },
	{ "huge-chain", b_huge_chain },
	{ "write-flag-in-tx", b_write_in_tx },
};

static const char *const rx_cases[] = {
	"rx-unmapped", "rx-read-only", "rx-loop", "rx-tiny", "rx-zero-len",
	"rx-past-region",
};

static const struct proto_case {
	const char *name;
	bool setup;	/* after a full handshake */
	int (*fn)(struct guest *g, int arg);
	int first, last;
	const char *what[10];
} proto_cases[] = {
	{ "vring-index-out-of-range", false, p_vring_num, 0, 3,
	  { "SET_VRING_NUM index 2 (no such queue pair)", "SET_VRING_NUM index 255",
	    "SET_VRING_NUM index 256", "SET_VRING_NUM index 0xffffffff" } },
	{ "vring-num-bad", false, p_vring_num, 4, 8,
	  { "SET_VRING_NUM 0", "SET_VRING_NUM 3", "SET_VRING_NUM 32769",
	    "SET_VRING_NUM 65536", "SET_VRING_NUM 0xffffffff" } },
	{ "vring-addr-bad", true, p_vring_addr, 0, 2,
	  { "SET_VRING_ADDR index 300", "SET_VRING_ADDR outside memory",
	    "SET_VRING_ADDR used ring past the region's end" } },
	{ "vring-file-bad", true, p_vring_file, 0, 4,
	  { "SET_VRING_KICK index 255", "SET_VRING_CALL index 255, no fd",
	    "SET_VRING_ENABLE index 500", "SET_VRING_BASE index 0x7fffffff",
	    "GET_VRING_BASE index 300" } },
	{ "mem-table-bad", false, p_mem, 0, 9,
	  { "9 regions", "0xffffffff regions", "guest address + size overflows",
	    "mmap offset + size overflows", "size 0",
	    "userspace address + size overflows", "no fd",
	    "two overlapping regions", "count larger than the payload",
	    "size 1 TiB on a 4 MiB memfd" } },
	{ "fds-bad", false, p_fds, 0, 3,
	  { "SET_VRING_KICK without fd or no-fd flag", "3 fds on GET_FEATURES",
	    "16 fds on SET_VRING_KICK", "header promising a payload, then EOF" } },
	{ "log-base-overflow", true, p_log, 0, 1,
	  { "SET_LOG_BASE size + offset overflows (size huge)",
	    "SET_LOG_BASE size + offset overflows (offset huge)" } },
	{ "junk-requests", false, p_junk, 0, 2,
	  { "request 0", "request 0x7fffffff", "payload size 0xffff" } },
};

static void list(void)
{
	size_t i;

	puts("good\ngood-iommu\niotlb-bad\niotlb-storm\nheader-split\nlying-offload\nrepeat\ndisconnect-mid-burst\n"
	     "connect-cycles[:PAUSE_MS]\nhangup-before-reply\nmem-beyond-file\n"
	     "mem-truncated");
	for (i = 0; i < sizeof(tx_cases) / sizeof(tx_cases[0]); i++)
		puts(tx_cases[i].name);
	for (i = 0; i < sizeof(rx_cases) / sizeof(rx_cases[0]); i++)
		puts(rx_cases[i]);
	for (i = 0; i < sizeof(proto_cases) / sizeof(proto_cases[0]); i++)
		puts(proto_cases[i].name);
}

int main(int argc, char **argv)
{
	const char *txp, *rxp, *c;
	size_t i;
	int k, rc = 0;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		list();
		return 0;
	}
	if (argc != 4 && !(argc == 6 && !strcmp(argv[4], "--seed"))) {
		fprintf(stderr, "usage: vhostile TX_SOCK RX_SOCK CASE [--seed N]\n"
				"       vhostile --list\n");
		return 2;
	}
	txp = argv[1];
	rxp = argv[2];
	c = argv[3];
	if (argc == 6)
		seed = (unsigned int)strtoul(argv[5], NULL, 0);
	if (!strcmp(c, "good"))
		return case_good(txp, rxp, &SETUP_DEFAULT);
	if (!strcmp(c, "good-iommu"))
		return case_good(txp, rxp, &SETUP_IOMMU);
	if (!strncmp(c, "iotlb-bad", 9) && (!c[9] || c[9] == ':'))
		return case_iotlb_bad(txp, rxp, c[9] ? atoi(c + 10) : -1);
	if (!strcmp(c, "iotlb-storm"))
		return case_iotlb_storm(txp, rxp);
	if (!strcmp(c, "header-split"))
		return case_header_split(txp, rxp);
	if (!strcmp(c, "lying-offload"))
		return case_lying_offload(txp, rxp);
	if (!strcmp(c, "mem-beyond-file"))
		return case_mem_beyond_file(txp, rxp, false);
	if (!strcmp(c, "mem-truncated"))
		return case_mem_beyond_file(txp, rxp, true);
	if (!strcmp(c, "repeat"))
		return case_repeat(txp, rxp);
	if (!strcmp(c, "disconnect-mid-burst"))
		return case_disconnect_mid_burst(txp, rxp);
	if (!strcmp(c, "connect-cycles"))
		return case_connect_cycles(txp, rxp, 1000, 0);
	if (!strncmp(c, "connect-cycles:", 15))
		return case_connect_cycles(txp, rxp, 1000, atoi(c + 15));
	if (!strcmp(c, "hangup-before-reply"))
		return case_hangup_before_reply(txp, rxp);
	for (i = 0; i < sizeof(tx_cases) / sizeof(tx_cases[0]); i++)
		if (!strcmp(c, tx_cases[i].name))
			return bad_tx(txp, rxp, tx_cases[i].build);
	for (i = 0; i < sizeof(rx_cases) / sizeof(rx_cases[0]); i++)
		if (!strcmp(c, rx_cases[i]))
			return bad_rx(txp, rxp, (int)i);
	/* protocol cases: NAME runs all its variants, NAME:K only the K-th */
	for (i = 0; i < sizeof(proto_cases) / sizeof(proto_cases[0]); i++) {
		const struct proto_case *p = &proto_cases[i];
		size_t n = strlen(p->name);
		int only = -1;

		if (strncmp(c, p->name, n) || (c[n] && c[n] != ':'))
			continue;
		if (c[n] == ':')
			only = atoi(c + n + 1);
		for (k = p->first; k <= p->last; k++)
			if (only < 0 || only == k - p->first)
				rc |= proto_one(txp, p->what[k - p->first],
						p->setup, p->fn, k);
		return rc;
	}
	fprintf(stderr, "vhostile: unknown case '%s' (see --list)\n", c);
	return 2;
}
