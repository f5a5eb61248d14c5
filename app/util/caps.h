/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * caps.h - what a receiving port can take: offloads and its largest frame,
 *	    packed in one word so that lcores read both atomically
 */
#ifndef XC_CAPS_H
#define XC_CAPS_H

#include <stddef.h>
#include <stdint.h>

/* what a receiving end can take, besides plain frames */
#define XC_CAP_CSUM	(1u << 0)	/* partial checksums (GUEST_CSUM) */
#define XC_CAP_TSO4	(1u << 1)	/* TCP/IPv4 segmentation (GUEST_TSO4) */
#define XC_CAP_TSO6	(1u << 2)	/* TCP/IPv6 segmentation (GUEST_TSO6) */
#define XC_CAP_UFO	(1u << 3)	/* UDP fragmentation (GUEST_UFO) */

/**
 * xc_caps_pack() - put capabilities and the largest frame in one word
 * @flags:	XC_CAP_* bits
 * @max_frame:	largest frame in bytes, Ethernet header included
 *
 * Return: the packed word
 */
static inline uint64_t xc_caps_pack(uint32_t flags, uint32_t max_frame)
{
	return (uint64_t)flags << 32 | max_frame;
}

/* xc_caps_flags() - the XC_CAP_* bits of a packed word */
static inline uint32_t xc_caps_flags(uint64_t caps)
{
	return (uint32_t)(caps >> 32);
}

/* xc_caps_max_frame() - the largest frame of a packed word, in bytes */
static inline uint32_t xc_caps_max_frame(uint64_t caps)
{
	return (uint32_t)caps;
}

uint64_t xc_caps_from_virtio(uint64_t features, int mtu);
void xc_caps_describe(uint64_t caps, char *buf, size_t len);

#endif /* XC_CAPS_H */
