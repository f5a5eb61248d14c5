/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vxlan_wire.c - the VXLAN header (RFC 7348); see vxlan_wire.h. Everything
 *		  here reads untrusted bytes with explicit lengths and never
 *		  more.
 */
#include <string.h>

#include "vxlan_wire.h"

/**
 * xc_vxlan_decap() - check a received datagram's VXLAN header
 * @hdr:	the datagram's first bytes
 * @len:	the datagram's length (the header, then the frame)
 * @vni:	set to its VNI when it is a VXLAN frame
 *
 * The frame follows the header: @len - XC_VXLAN_HLEN bytes at @hdr + 8.
 * Reserved bits are ignored (RFC 7348, section 5).
 *
 * Return: XC_VXLAN_OK, or why the datagram is none
 */
enum xc_vxlan_check xc_vxlan_decap(const uint8_t *hdr, size_t len,
				 uint32_t *vni)
{
	if (len < XC_VXLAN_HLEN + XC_VXLAN_MIN_FRAME)
		return XC_VXLAN_SHORT;
	if (!(hdr[0] & XC_VXLAN_FLAG_I))
		return XC_VXLAN_NO_I;
	*vni = (uint32_t)hdr[4] << 16 | (uint32_t)hdr[5] << 8 | hdr[6];
	return XC_VXLAN_OK;
}

/**
 * xc_vxlan_encap() - write the VXLAN header of a frame to send
 * @hdr:	8 bytes
 * @vni:	its VNI, at most XC_VXLAN_VNI_MAX
 */
void xc_vxlan_encap(uint8_t hdr[XC_VXLAN_HLEN], uint32_t vni)
{
	memset(hdr, 0, XC_VXLAN_HLEN);
	hdr[0] = XC_VXLAN_FLAG_I;
	hdr[4] = (uint8_t)(vni >> 16);
	hdr[5] = (uint8_t)(vni >> 8);
	hdr[6] = (uint8_t)vni;
}
