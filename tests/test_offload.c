/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_offload.c - unit tests of the offload fix-up (app/datapath/offload.c)
 *
 * Builds frames as the vhost library hands them over from a guest with
 * offloads (TSO frames with RX_LRO and tso_segsz, partial checksums with
 * RX_L4_CKSUM_NONE), over IPv4 and IPv6, with 0, 1 or 2 VLAN tags, as one
 * mbuf, as a chain and in an external buffer, and runs them through
 * xc_off_fixup() for receivers with different capabilities. Every frame
 * that comes out is checked against the original with code of its own
 * (checksums included): payload order and bytes, sequence numbers, IP IDs,
 * lengths and flags. Frames with lying metadata must be dropped under
 * bad-offload, never crash.
 *
 * Prints "ok NAME" or "FAIL NAME: why" per check; exits 1 on any failure.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "l4frames.h"
#include "testlib.h"
#include "offload.h"

enum { ONE, CHAIN, EXTBUF };	/* mbuf layouts */
#define SEGS_MAX	(XC_SEG_MAX + 8)

static int fails;
static struct rte_mempool *pool, *ipool;

/* what a run dropped, for failure messages */
static void show(const char *what, int n, const struct xc_dir_stats *st)
{
	int i;

	printf("  %s: %d frames out; drops:", what, n);
	for (i = 0; i < XC_DROP__MAX; i++)
		printf(" %s %" PRIu64, xc_drop_name((enum xc_drop)i),
		       st->drop[i]);
	printf("\n");
}

/* read an mbuf chain into a flat frame */
static void flatten(const struct rte_mbuf *m, struct frame *f)
{
	const void *p = rte_pktmbuf_read(m, 0, m->pkt_len, f->b);

	if (p != f->b)
		memcpy(f->b, p, m->pkt_len);
	f->len = m->pkt_len;
}

static void free_ext(void *addr, void *opaque)
{
	(void)opaque;
	free(addr);
}

/* the frame as the vhost library would hand it over: partial checksum,
 * RX flags, in the requested layout */
static struct rte_mbuf *to_mbuf(const struct spec *s, const struct frame *f)
{
	struct frame g = *f;
	uint8_t *ip = g.b + g.l2;
	uint32_t l4len = g.len - g.l2 - g.l3;
	struct rte_mbuf *head = NULL;

	/* a guest with offloads leaves the pseudo-header sum in the field */
	put16(ip + g.l3 + (s->tcp ? 16 : 6),
	      fold16(pseudo(ip, s->v4, s->tcp ? 6 : 17, l4len)));
	if (s->layout == EXTBUF) {
		struct rte_mbuf_ext_shared_info *shinfo;
		uint16_t blen = (uint16_t)RTE_MIN(g.len + 256, 65535u);
		void *buf = malloc(blen);

		head = rte_pktmbuf_alloc(pool);
		shinfo = rte_pktmbuf_ext_shinfo_init_helper(buf, &blen,
							    free_ext, NULL);
		rte_pktmbuf_attach_extbuf(head, buf, 0, blen, shinfo);
		rte_pktmbuf_reset_headroom(head);
		memcpy(rte_pktmbuf_append(head, (uint16_t)g.len), g.b, g.len);
	} else {
		/* a chain keeps all headers in its first mbuf */
		head = s->layout == CHAIN ?
		       mbuf_chain(pool, g.b, g.len, g.l2 + g.l3 + g.l4 + 10, 1000) :
		       mbuf_chain(pool, g.b, g.len, 0, UINT32_MAX);
	}
	head->ol_flags |= RTE_MBUF_F_RX_L4_CKSUM_NONE;	/* keeps EXTERNAL */
	if (s->mss) {
		head->ol_flags |= RTE_MBUF_F_RX_LRO;
		head->tso_segsz = s->mss;
	}
	return head;
}

/* ---- checking what comes out ---- */

/* segments of a TCP frame, for a receiver without TSO */
static bool check_tcp_segments(const char *name, const struct spec *s,
			       const struct frame *orig, struct rte_mbuf **out,
			       int n, bool partial)
{
	static struct frame g;
	uint32_t want = (s->payload + s->mss - 1) / s->mss;
	int i;

	if ((uint32_t)n != want) {
		printf("  %s: %d segments, expected %u\n", name, n, want);
		return false;
	}
	for (i = 0; i < n; i++) {
		flatten(out[i], &g);
		if (!check_tcp_segment(name, s, orig, &g, i, n, partial))
			return false;
		if (partial ? !((out[i]->ol_flags & RTE_MBUF_F_TX_TCP_CKSUM) &&
				out[i]->l2_len == g.l2 &&
				out[i]->l3_len == g.l3) :
			      (out[i]->ol_flags & RTE_MBUF_F_TX_L4_MASK) != 0) {
			printf("  %s: segment %d: offload flags wrong\n", name, i);
			return false;
		}
	}
	return true;
}

/* run one frame through the fix-up; returns the number of outputs */
static int run(const struct spec *s, struct frame *orig, uint64_t caps,
	       struct rte_mbuf **out, struct xc_dir_stats *st)
{
	static struct xc_off o;
	struct rte_mbuf *m;

	xc_off_init(&o, pool, ipool);
	build_flat(s, orig);
	m = to_mbuf(s, orig);
	memset(st, 0, sizeof(*st));
	return xc_off_fixup(&o, m, caps, out, SEGS_MAX, st);
}

static void test_tso(void)
{
	static const int layouts[] = { ONE, CHAIN, EXTBUF };
	static struct rte_mbuf *out[SEGS_MAX];
	static struct frame orig;
	struct xc_dir_stats st;
	char name[160];
	int v4, tags, li, n, partial;

	for (v4 = 0; v4 < 2; v4++)
	for (tags = 0; tags < 3; tags++)
	for (li = 0; li < 3; li++)
	for (partial = 0; partial < 2; partial++) {
		struct spec s = { .v4 = v4, .tcp = true, .tags = tags,
				  .payload = 60000 + 123,
				  .mss = v4 ? 1448 : 1428,	/* MTU 1500 */
				  .tcp_flags = 0x80 | 0x18 | 0x01,
				  .layout = layouts[li] };
		uint64_t caps = xc_caps_pack(partial ? XC_CAP_CSUM : 0, 1522);

		snprintf(name, sizeof(name),
			 "TCP/IPv%d TSO, %d VLAN tags, %s, receiver %s: segments",
			 v4 ? 4 : 6, tags,
			 li == 0 ? "one mbuf" : li == 1 ? "mbuf chain" : "external buffer",
			 partial ? "with CSUM only" : "without offloads");
		n = run(&s, &orig, caps, out, &st);
		if (n <= 0)
			show(name, n, &st);
		CHECK(name, n > 0 && check_tcp_segments(name, &s, &orig, out, n,
							partial) &&
			    st.seg_frames == 1 && st.seg_out == (uint64_t)n);
		if (n > 0)
			rte_pktmbuf_free_bulk(out, (unsigned int)n);
	}

	for (v4 = 0; v4 < 2; v4++) {
		struct spec s = { .v4 = v4, .tcp = true, .tags = 1,
				  .payload = 30000, .mss = 1400,
				  .tcp_flags = 0x18 };
		uint64_t caps = xc_caps_pack(XC_CAP_CSUM | XC_CAP_TSO4 |
					     XC_CAP_TSO6, 65535);

		snprintf(name, sizeof(name),
			 "TCP/IPv%d TSO to a receiver with TSO: passed whole",
			 v4 ? 4 : 6);
		n = run(&s, &orig, caps, out, &st);
		CHECK(name, n == 1 && out[0]->pkt_len == orig.len &&
			    out[0]->tso_segsz == 1400 &&
			    (out[0]->ol_flags & RTE_MBUF_F_TX_TCP_SEG) &&
			    (out[0]->ol_flags & (v4 ? RTE_MBUF_F_TX_IPV4 :
						      RTE_MBUF_F_TX_IPV6)) &&
			    out[0]->l2_len == orig.l2 &&
			    out[0]->l4_len == orig.l4 && st.seg_frames == 0);
		if (n > 0)
			rte_pktmbuf_free_bulk(out, (unsigned int)n);
	}
	{
		struct spec s = { .v4 = true, .tcp = true, .payload = 30000,
				  .mss = 1400, .tcp_flags = 0x10 };

		n = run(&s, &orig, xc_caps_pack(XC_CAP_CSUM | XC_CAP_TSO6,
						 65535), out, &st);
		CHECK("TCP/IPv4 TSO to a receiver with TSO6 only: segmented",
		      n == 22 && st.seg_frames == 1);
		if (n > 0)
			rte_pktmbuf_free_bulk(out, (unsigned int)n);
	}
}

static void test_csum(void)
{
	static struct rte_mbuf *out[SEGS_MAX];
	static struct frame orig, g;
	struct xc_dir_stats st;
	char name[160];
	int v4, tcp, tags, partial, n;

	for (v4 = 0; v4 < 2; v4++)
	for (tcp = 0; tcp < 2; tcp++)
	for (tags = 0; tags < 3; tags += 2)
	for (partial = 0; partial < 2; partial++) {
		struct spec s = { .v4 = v4, .tcp = tcp, .tags = tags,
				  .payload = 1000 + 1, .layout = CHAIN };

		snprintf(name, sizeof(name),
			 "%s/IPv%d partial checksum, %d tags, receiver %s",
			 tcp ? "TCP" : "UDP", v4 ? 4 : 6, tags,
			 partial ? "with CSUM: left partial" :
				   "without: completed");
		n = run(&s, &orig, xc_caps_pack(partial ? XC_CAP_CSUM : 0,
						 1518), out, &st);
		if (n == 1) {
			flatten(out[0], &g);
			g.l2 = orig.l2;
			g.l3 = orig.l3;
			g.v4 = orig.v4;
			g.tcp = orig.tcp;
		}
		CHECK(name, n == 1 && g.len == orig.len &&
			    (partial ? l4_partial_ok(&g) &&
				       (out[0]->ol_flags & RTE_MBUF_F_TX_L4_MASK) ==
				       (tcp ? RTE_MBUF_F_TX_TCP_CKSUM :
					      RTE_MBUF_F_TX_UDP_CKSUM) :
				       !memcmp(g.b, orig.b, g.len) &&
				       st.csum_filled == 1));
		if (n > 0)
			rte_pktmbuf_free_bulk(out, (unsigned int)n);
	}
}

static void test_ufo(void)
{
	static struct rte_mbuf *out[SEGS_MAX];
	static struct frame orig, g;
	static uint8_t data[L4F_MAX_FRAME];
	struct spec s = { .v4 = true, .tcp = false, .tags = 1,
			  .payload = 20000, .mss = 1400, .layout = CHAIN };
	struct xc_dir_stats st;
	uint32_t got = 0, hl, want_off = 0;
	bool ok = true;
	int n, i;

	n = run(&s, &orig, xc_caps_pack(0, 1518), out, &st);
	if (n <= 1)
		show("UFO", n, &st);
	hl = orig.l2 + orig.l3;
	for (i = 0; i < n && ok; i++) {
		uint16_t fo;

		flatten(out[i], &g);
		g.l2 = orig.l2;
		g.l3 = orig.l3;
		g.v4 = true;
		fo = get16(g.b + g.l2 + 6);
		ok = g.len <= 1518 && ip4_valid(&g) &&
		     (fo & 0x1fff) * 8u == want_off &&
		     ((fo & 0x2000) != 0) == (i + 1 < n);
		memcpy(data + want_off, g.b + hl, g.len - hl);
		want_off += g.len - hl;
		got += g.len - hl;
	}
	/* the reassembled datagram is the original, checksum valid */
	if (ok) {
		memcpy(g.b, orig.b, hl);
		memcpy(g.b + hl, data, got);
		g.len = hl + got;
		g.tcp = false;
	}
	CHECK("UDP/IPv4 UFO to a receiver without it: IP fragments that reassemble to the datagram",
	      n > 1 && ok && got == orig.len - hl &&
	      !memcmp(g.b + hl, orig.b + hl, got) && l4_valid(&g));
	if (n > 0)
		rte_pktmbuf_free_bulk(out, (unsigned int)n);
	s.v4 = false;
	n = run(&s, &orig, xc_caps_pack(0, 1518), out, &st);
	CHECK("UDP/IPv6 UFO to a receiver without it: dropped as unsupported",
	      n == 0 && st.drop[XC_DROP_UNSUPPORTED] == 1);
}

/* a lie told by metadata or headers: must be dropped as bad-offload */
static void expect_bad(const char *name, const struct spec *s,
		       void (*lie)(struct rte_mbuf *m, const struct frame *f))
{
	static struct rte_mbuf *out[SEGS_MAX];
	static struct frame orig;
	static struct xc_off o;
	struct xc_dir_stats st;
	struct rte_mbuf *m;
	int n;

	xc_off_init(&o, pool, ipool);
	build_flat(s, &orig);
	m = to_mbuf(s, &orig);
	lie(m, &orig);
	memset(&st, 0, sizeof(st));
	n = xc_off_fixup(&o, m, xc_caps_pack(0, 1518), out, SEGS_MAX, &st);
	if (n != 0 || st.drop[XC_DROP_BAD_OFFLOAD] != 1)
		show(name, n, &st);
	CHECK(name, n == 0 && st.drop[XC_DROP_BAD_OFFLOAD] == 1);
	if (n > 0)
		rte_pktmbuf_free_bulk(out, (unsigned int)n);
}

static uint8_t *hdr(struct rte_mbuf *m, uint32_t off)
{
	return rte_pktmbuf_mtod_offset(m, uint8_t *, off);
}

static void lie_mss0(struct rte_mbuf *m, const struct frame *f)
{
	(void)f;
	m->tso_segsz = 0;
}

static void lie_iplen_long(struct rte_mbuf *m, const struct frame *f)
{
	put16(hdr(m, f->l2 + 2), (uint16_t)(get16(hdr(m, f->l2 + 2)) + 100));
}

static void lie_iplen_short(struct rte_mbuf *m, const struct frame *f)
{
	put16(hdr(m, f->l2 + 2), (uint16_t)(get16(hdr(m, f->l2 + 2)) - 100));
}

static void lie_ihl(struct rte_mbuf *m, const struct frame *f)
{
	*hdr(m, f->l2) = 0x43;	/* header of 12 bytes */
}

static void lie_doff_small(struct rte_mbuf *m, const struct frame *f)
{
	*hdr(m, f->l2 + f->l3 + 12) = 0x20;	/* TCP header of 8 bytes */
}

static void lie_doff_past(struct rte_mbuf *m, const struct frame *f)
{
	/* a 60-byte TCP header in a frame that ends after 40 */
	*hdr(m, f->l2 + f->l3 + 12) = 0xf0;
	put16(hdr(m, f->l2 + 2), (uint16_t)(f->l3 + 40));
	rte_pktmbuf_trim(m, (uint16_t)(m->pkt_len - f->l2 - f->l3 - 40));
}

static void lie_truncated(struct rte_mbuf *m, const struct frame *f)
{
	rte_pktmbuf_trim(m, (uint16_t)(m->pkt_len - f->l2 - 10));
}

static void lie_v6len(struct rte_mbuf *m, const struct frame *f)
{
	put16(hdr(m, f->l2 + 4), 65535);
}

static void lie_udplen(struct rte_mbuf *m, const struct frame *f)
{
	put16(hdr(m, f->l2 + f->l3 + 4), 9);
}

static void lie_not_ip(struct rte_mbuf *m, const struct frame *f)
{
	put16(hdr(m, f->l2 - 2), 0x88b5);
}

static void lie_fragment(struct rte_mbuf *m, const struct frame *f)
{
	put16(hdr(m, f->l2 + 6), 0x2000);	/* more fragments */
}

static void lie_tiny_mss(struct rte_mbuf *m, const struct frame *f)
{
	(void)f;
	m->tso_segsz = 16;	/* 60000 bytes in more than XC_SEG_MAX */
}

static void test_hostile(void)
{
	struct spec tso4 = { .v4 = true, .tcp = true, .payload = 60000,
			     .mss = 1448, .tcp_flags = 0x10, .layout = CHAIN };
	struct spec tso6 = tso4, udp4 = { .v4 = true, .payload = 500 };
	/* one mbuf, so that trimming the frame works */
	struct spec small = { .v4 = true, .tcp = true, .payload = 1900,
			      .mss = 1000, .tcp_flags = 0x10 };

	tso6.v4 = false;
	expect_bad("hostile: TSO with gso_size 0", &tso4, lie_mss0);
	expect_bad("hostile: IPv4 length past the frame", &tso4, lie_iplen_long);
	expect_bad("hostile: IPv4 length short of a TSO frame", &tso4, lie_iplen_short);
	expect_bad("hostile: IPv4 header length 12", &tso4, lie_ihl);
	expect_bad("hostile: TCP data offset 2", &tso4, lie_doff_small);
	expect_bad("hostile: TCP header past the frame", &small, lie_doff_past);
	expect_bad("hostile: frame shorter than its headers", &small, lie_truncated);
	expect_bad("hostile: IPv6 payload length past the frame", &tso6, lie_v6len);
	expect_bad("hostile: UDP length contradicts IP", &udp4, lie_udplen);
	expect_bad("hostile: offload flags on a non-IP frame", &tso4, lie_not_ip);
	expect_bad("hostile: partial checksum on an IP fragment", &udp4, lie_fragment);
	expect_bad("hostile: MSS so small it needs more than 1024 segments", &tso4, lie_tiny_mss);
}

static void test_sizes(void)
{
	static struct rte_mbuf *out[SEGS_MAX];
	static struct frame orig;
	static struct xc_off o;
	struct xc_dir_stats st;
	struct spec big = { .v4 = true, .tcp = true, .payload = 8948,
			    .layout = CHAIN };
	struct spec tso = { .v4 = true, .tcp = true, .payload = 60000,
			    .mss = 1448, .tcp_flags = 0x10 };
	struct rte_mbuf *m;
	int n;

	n = run(&big, &orig, xc_caps_pack(0, 1518), out, &st);
	CHECK("9014-byte frame to a receiver of 1518: dropped as too-big",
	      n == 0 && st.drop[XC_DROP_TOO_BIG] == 1);
	n = run(&big, &orig, xc_caps_pack(0, 9022), out, &st);
	if (n != 1)
		show("9014 to 9022", n, &st);
	CHECK("9014-byte frame to a receiver of 9022: passed", n == 1);
	if (n > 0)
		rte_pktmbuf_free_bulk(out, (unsigned int)n);
	tso.mss = 8000;
	n = run(&tso, &orig, xc_caps_pack(0, 1518), out, &st);
	CHECK("TSO frame whose segments exceed the receiver: dropped as too-big",
	      n == 0 && st.drop[XC_DROP_TOO_BIG] == 1);

	/* no room: the frame stays the caller's, untouched */
	tso.mss = 1448;
	xc_off_init(&o, pool, ipool);
	build_flat(&tso, &orig);
	m = to_mbuf(&tso, &orig);
	memset(&st, 0, sizeof(st));
	n = xc_off_fixup(&o, m, xc_caps_pack(0, 1518), out, 10, &st);
	CHECK("TSO frame needing 42 segments with room for 10: kept for later",
	      n == -ENOSPC && m->pkt_len == orig.len &&
	      (m->ol_flags & RTE_MBUF_F_RX_LRO));
	n = xc_off_fixup(&o, m, xc_caps_pack(0, 1518), out, SEGS_MAX, &st);
	CHECK("the same frame with room: 42 segments", n == 42);
	if (n > 0)
		rte_pktmbuf_free_bulk(out, (unsigned int)n);
}

static void test_caps(void)
{
	uint64_t c;

	c = xc_caps_from_virtio((1ULL << 1) | (1ULL << 7) | (1ULL << 8) |
				(1ULL << 15), 0);
	CHECK("GUEST_CSUM+TSO4+TSO6+MRG_RXBUF: csum, tso4, tso6, 64 KB frames",
	      xc_caps_flags(c) == (XC_CAP_CSUM | XC_CAP_TSO4 | XC_CAP_TSO6) &&
	      xc_caps_max_frame(c) == 65535);
	c = xc_caps_from_virtio((1ULL << 7) | (1ULL << 8), 0);
	CHECK("TSO without GUEST_CSUM is not TSO",
	      xc_caps_flags(c) == 0);
	c = xc_caps_from_virtio(0, 0);
	CHECK("no features: plain 1518-byte frames",
	      xc_caps_flags(c) == 0 && xc_caps_max_frame(c) == 1518);
	c = xc_caps_from_virtio(0, 9000);
	CHECK("MTU 9000 announced: 9022-byte frames",
	      xc_caps_max_frame(c) == 9022);
}

int main(int argc, char **argv)
{
	char *eal[] = { argv[0], "--no-huge", "-m", "512", "--no-pci",
			"--no-shconf", "--log-level=lib.eal:error", "-l", "0",
			NULL };

	(void)argc;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (rte_eal_init(9, eal) < 0) {
		fprintf(stderr, "test_offload: EAL init failed\n");
		return 2;
	}
	pool = rte_pktmbuf_pool_create("t_pool", 16383, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	ipool = rte_pktmbuf_pool_create("t_ipool", 16383, 0, 0, 0, 0);
	if (pool == NULL || ipool == NULL) {
		fprintf(stderr, "test_offload: no mbuf pool\n");
		return 2;
	}
	test_caps();
	test_tso();
	test_csum();
	test_ufo();
	test_hostile();
	test_sizes();
	printf("mbufs in use after all tests: %u\n",
	       rte_mempool_in_use_count(pool) + rte_mempool_in_use_count(ipool));
	CHECK("no mbuf leaked", rte_mempool_in_use_count(pool) == 0 &&
				rte_mempool_in_use_count(ipool) == 0);
	rte_eal_cleanup();
	return fails ? 1 : 0;
}
