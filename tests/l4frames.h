/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * l4frames.h - TCP/UDP test frames over IPv4/IPv6, built and checked with
 *		code of their own (no DPDK checksum code), for the offload
 *		unit tests and the xcpeer frontend
 */
#ifndef XC_L4FRAMES_H
#define XC_L4FRAMES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define L4F_MAX_FRAME	70000

/* ---- independent helpers: no DPDK checksum code ---- */

static inline uint32_t sum16(const uint8_t *p, size_t n, uint32_t s)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		s += (uint32_t)(p[n - 1] << 8);
	return s;
}

static inline uint16_t fold16(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

static inline uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

/* pseudo-header sum (host order) of an IP packet starting at ip */
static inline uint32_t pseudo(const uint8_t *ip, bool v4, uint8_t proto,
		       uint32_t l4len)
{
	uint32_t s = v4 ? sum16(ip + 12, 8, 0) : sum16(ip + 8, 32, 0);

	return s + proto + (l4len >> 16) + (l4len & 0xffff);
}

/* a frame as a flat buffer, and where its headers are */
struct frame {
	uint8_t b[L4F_MAX_FRAME];
	uint32_t len, l2, l3, l4;
	bool v4, tcp;
};

/* checksum of the L4 part over its bytes, pseudo-header included:
 * 0xffff (as host value) when valid */
static inline bool l4_valid(const struct frame *f)
{
	const uint8_t *ip = f->b + f->l2;
	uint32_t l4len = f->len - f->l2 - f->l3;

	return fold16(sum16(ip + f->l3, l4len,
			    pseudo(ip, f->v4, f->tcp ? 6 : 17, l4len))) ==
	       0xffff;
}

/* the field holds the pseudo-header sum, as virtio NEEDS_CSUM wants */
static inline bool l4_partial_ok(const struct frame *f)
{
	const uint8_t *ip = f->b + f->l2;
	uint32_t l4len = f->len - f->l2 - f->l3;
	const uint8_t *fld = ip + f->l3 + (f->tcp ? 16 : 6);

	return get16(fld) ==
	       fold16(pseudo(ip, f->v4, f->tcp ? 6 : 17, l4len));
}

static inline bool ip4_valid(const struct frame *f)
{
	return fold16(sum16(f->b + f->l2, f->l3, 0)) == 0xffff;
}

/* ---- building frames ---- */

struct spec {
	bool v4, tcp;
	int tags;		/* VLAN tags: 0, 1 or 2 */
	uint32_t payload;	/* L4 payload bytes */
	uint16_t mss;		/* 0: not a TSO frame */
	uint8_t tcp_flags;
	int layout;		/* for the unit tests: how the mbuf is laid out */
};

#define L4F_SEQ0	0x11223344u
#define L4F_ID0	0x4242

/* the original frame, flat, with a full checksum */
static inline void build_flat(const struct spec *s, struct frame *f)
{
	uint8_t *p = f->b, *ip, *l4;
	uint32_t i, l4len;
	int t;

	memset(f, 0, sizeof(*f));
	f->v4 = s->v4;
	f->tcp = s->tcp;
	memcpy(p, "\x52\x54\x00\xab\xcd\xef\x52\x54\x00\x12\x34\x56", 12);
	p += 12;
	for (t = 0; t < s->tags; t++) {
		put16(p, t == 0 && s->tags == 2 ? 0x88a8 : 0x8100);
		put16(p + 2, (uint16_t)(100 + t));
		p += 4;
	}
	put16(p, s->v4 ? 0x0800 : 0x86dd);
	p += 2;
	f->l2 = (uint32_t)(p - f->b);
	ip = p;
	f->l3 = s->v4 ? 20 : 40;
	f->l4 = s->tcp ? 32 : 8;	/* TCP with 12 bytes of options */
	l4len = f->l4 + s->payload;
	if (s->v4) {
		ip[0] = 0x45;
		put16(ip + 2, (uint16_t)(20 + l4len));
		put16(ip + 4, L4F_ID0);
		put16(ip + 6, 0x4000);	/* DF */
		ip[8] = 64;
		ip[9] = s->tcp ? 6 : 17;
		memcpy(ip + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
		put16(ip + 10, (uint16_t)~fold16(sum16(ip, 20, 0)));
	} else {
		ip[0] = 0x60;
		put16(ip + 4, (uint16_t)l4len);
		ip[6] = s->tcp ? 6 : 17;
		ip[7] = 64;
		for (i = 0; i < 32; i++)
			ip[8 + i] = (uint8_t)(i < 16 ? 0x20 + i : 0x40 + i);
	}
	l4 = ip + f->l3;
	put16(l4, 40000);
	put16(l4 + 2, 5201);
	if (s->tcp) {
		put32(l4 + 4, L4F_SEQ0);
		put32(l4 + 8, 0x55667788);
		l4[12] = (uint8_t)((f->l4 / 4) << 4);
		l4[13] = s->tcp_flags;
		put16(l4 + 14, 65535);
		memcpy(l4 + 20, "\x01\x01\x08\x0a\x00\x00\x00\x01\x00\x00\x00\x02", 12);
	} else {
		put16(l4 + 4, (uint16_t)l4len);
	}
	for (i = 0; i < s->payload; i++)	/* position-dependent bytes */
		l4[f->l4 + i] = (uint8_t)(i * 7 + (i >> 8) + 1);
	f->len = f->l2 + f->l3 + l4len;
	put16(l4 + (s->tcp ? 16 : 6), 0);
	put16(l4 + (s->tcp ? 16 : 6), (uint16_t)~fold16(sum16(l4, l4len,
		pseudo(ip, s->v4, s->tcp ? 6 : 17, l4len))));
}


/**
 * check_tcp_segment() - check one segment of a TCP frame cut for a receiver
 *			 without TSO
 * @name:	test name, for messages
 * @s:		how the original was built
 * @orig:	the original frame
 * @g:		the segment, flat; its l2, l3, l4, v4 are set from @orig here
 * @i:		its index
 * @n:		number of segments
 * @partial:	the checksum is left to the receiver (pseudo-header sum)
 *
 * Return: true if the segment is right
 */
static inline bool check_tcp_segment(const char *name, const struct spec *s,
				     const struct frame *orig, struct frame *g,
				     int i, int n, bool partial)
{
	uint32_t hl = orig->l2 + orig->l3 + orig->l4, off = (uint32_t)i * s->mss;
	uint32_t len = s->payload - off < s->mss ? s->payload - off : s->mss;
	const uint8_t *ip, *th;
	uint8_t fl;

	g->l2 = orig->l2;
	g->l3 = orig->l3;
	g->l4 = orig->l4;
	g->v4 = orig->v4;
	g->tcp = true;
	ip = g->b + g->l2;
	th = ip + g->l3;
	fl = s->tcp_flags;
	if (i + 1 < n)
		fl &= (uint8_t)~0x09;	/* FIN, PSH: last only */
	if (i > 0)
		fl &= (uint8_t)~0x80;	/* CWR: first only */
	if (g->len != hl + len || memcmp(g->b, orig->b, g->l2) ||
	    memcmp(g->b + hl, orig->b + hl + off, len) ||
	    get32(th + 4) != L4F_SEQ0 + off || th[13] != fl ||
	    memcmp(th + 20, orig->b + g->l2 + g->l3 + 20, orig->l4 - 20)) {
		printf("  %s: segment %d: length %u, bytes, seq or flags wrong\n",
		       name, i, g->len);
		return false;
	}
	if (g->v4 && (get16(ip + 2) != g->len - g->l2 ||
		      get16(ip + 4) != (uint16_t)(L4F_ID0 + i) ||
		      get16(ip + 6) != 0x4000 || !ip4_valid(g))) {
		printf("  %s: segment %d: IPv4 header wrong\n", name, i);
		return false;
	}
	if (!g->v4 && get16(ip + 4) != g->len - g->l2 - 40) {
		printf("  %s: segment %d: IPv6 length wrong\n", name, i);
		return false;
	}
	if (partial ? !l4_partial_ok(g) : !l4_valid(g)) {
		printf("  %s: segment %d: checksum wrong\n", name, i);
		return false;
	}
	return true;
}

#endif /* XC_L4FRAMES_H */
