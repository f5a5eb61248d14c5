/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vxlan_wire.h - the VXLAN header (RFC 7348), in plain C: no DPDK, so that
 *		  the unit tests and the fuzzer take it alone
 *
 * A VXLAN datagram is the 8-byte header below, then the Ethernet frame:
 *
 *   0                   1                   2                   3
 *   |R|R|R|R|I|R|R|R|            Reserved                           |
 *   |                VXLAN Network Identifier (VNI) |   Reserved    |
 *
 * The I flag must be set; the reserved bits are ignored on receive, as
 * RFC 7348 says, and sent as zero.
 */
#ifndef XC_VXLAN_WIRE_H
#define XC_VXLAN_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define XC_VXLAN_HLEN		8	/* the VXLAN header */
#define XC_VXLAN_FLAG_I		0x08	/* first byte: the VNI is valid */
#define XC_VXLAN_VNI_MAX	0xffffffu	/* 24 bits */
#define XC_VXLAN_PORT_DEFAULT	4789	/* IANA */
#define XC_VXLAN_MIN_FRAME	14	/* an Ethernet header */

/**
 * enum xc_vxlan_check - what xc_vxlan_decap() found in a datagram: a VXLAN
 *			   frame, or why it is none
 * @XC_VXLAN_OK:	it is one
 * @XC_VXLAN_SHORT:	shorter than the header and an Ethernet header
 * @XC_VXLAN_NO_I:	the I flag (a valid VNI) is not set
 */
enum xc_vxlan_check {
	XC_VXLAN_OK,
	XC_VXLAN_SHORT,
	XC_VXLAN_NO_I,
};

enum xc_vxlan_check xc_vxlan_decap(const uint8_t *hdr, size_t len,
				 uint32_t *vni);
void xc_vxlan_encap(uint8_t hdr[XC_VXLAN_HLEN], uint32_t vni);

#endif /* XC_VXLAN_WIRE_H */
