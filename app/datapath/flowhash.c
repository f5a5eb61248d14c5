/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * flowhash.c - the flow hash of multiqueue steering (see steer.h): apart
 *		from the data path (steer.c), for the fuzzer
 */
#include <stdbool.h>
#include <string.h>

#include "steer.h"

#define ETH_HLEN	14
#define IP4_HLEN	20
#define IP6_HLEN	40

/* be16() - a big-endian 16-bit field at @p */
static inline uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* word() - 32 bits at @p, in whatever order: only XORed and hashed */
static inline uint32_t word(const uint8_t *p)
{
	uint32_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/* mix() - spread the bits of @x over the whole word (murmur3's finaliser) */
static inline uint32_t mix(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x85ebca6bU;
	x ^= x >> 13;
	x *= 0xc2b2ae35U;
	x ^= x >> 16;
	return x;
}

/* has_ports() - does an L4 protocol put two 16-bit ports first? */
static inline bool has_ports(uint8_t proto)
{
	return proto == 6 || proto == 17 || proto == 132;	/* TCP UDP SCTP */
}

/**
 * xc_steer_hash() - the symmetric flow hash of a frame (see steer.h)
 * @frame:	the frame from its Ethernet header, as far as it is
 *		contiguous
 * @len:	bytes readable at @frame
 *
 * Return: the hash, never 0, for an IPv4 or IPv6 packet; 0 for anything
 *	   else, or a header cut short
 */
uint32_t xc_steer_hash(const uint8_t *frame, uint32_t len)
{
	uint32_t off = ETH_HLEN, l4 = 0, addr, ports = 0, h;
	uint16_t type;
	uint8_t proto;
	int tags;

	if (len < ETH_HLEN)
		return 0;
	type = be16(frame + 12);
	for (tags = 0; tags < 2 && (type == 0x8100 || type == 0x88a8 ||
				    type == 0x9100); tags++) {
		if (len < off + 4)
			return 0;
		type = be16(frame + off + 2);
		off += 4;
	}
	if (type == 0x0800) {
		const uint8_t *ip = frame + off;
		uint32_t ihl;

		if (len < off + IP4_HLEN || ip[0] >> 4 != 4)
			return 0;
		ihl = (ip[0] & 0xfu) * 4;
		if (ihl < IP4_HLEN)
			return 0;
		proto = ip[9];
		addr = word(ip + 12) ^ word(ip + 16);
		if ((be16(ip + 6) & 0x3fff) == 0)	/* not a fragment */
			l4 = off + ihl;
	} else if (type == 0x86dd) {
		const uint8_t *ip = frame + off;
		int i;

		if (len < off + IP6_HLEN || ip[0] >> 4 != 6)
			return 0;
		proto = ip[6];
		for (addr = 0, i = 8; i < 40; i += 4)
			addr ^= word(ip + i);
		l4 = off + IP6_HLEN;	/* extension headers: no ports */
	} else {
		return 0;
	}
	if (l4 && has_ports(proto) && len >= l4 + 4)
		ports = (uint32_t)(be16(frame + l4) ^ be16(frame + l4 + 2));
	h = mix(mix(addr) ^ ports << 8 ^ proto);
	return h ? h : 1;
}
