/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_vxlan.c - libFuzzer target: the VXLAN decapsulation parser and the
 *		  tunnel address parser (app/kinds/vxlan_wire.c)
 *
 * The input is a received datagram, in a buffer of exactly its length so
 * that any read past it is caught; then, as text, a remote address. The
 * VNI must fit 24 bits; an address that parses must format to text that
 * parses again to the same address. Never a crash, a leak or undefined
 * behaviour.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "vxlan_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/**
 * check_addr() - parse @text as an address; what parses must survive
 *		  formatting and parsing again unchanged
 * @text:	NUL-terminated input
 * @port_ok:	a port may be given
 */
static void check_addr(const char *text, bool port_ok)
{
	struct sockaddr_storage a, b;
	char why[128], out[XC_ADDR_TEXT_MAX];

	if (xc_addr_parse(text, port_ok, 4789, &a, why, sizeof(why)) != 0) {
		if (memchr(why, '\0', sizeof(why)) == NULL)
			abort();
		return;
	}
	xc_addr_format(&a, out, sizeof(out));
	if (xc_addr_parse(out, true, 1, &b, why, sizeof(why)) != 0)
		abort();
	/* an IPv4-mapped address is written as IPv4: compare as IPv6 */
	xc_addr_to_v6(&a);
	xc_addr_to_v6(&b);
	if (a.ss_family != AF_INET6 || !xc_addr_same_host(&a, &b))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *dgram = malloc(size ? size : 1);
	char *text = malloc(size + 1);
	uint32_t vni = UINT32_MAX;

	if (dgram == NULL || text == NULL) {
		free(dgram);
		free(text);
		return 0;
	}
	memcpy(dgram, data, size);
	if (xc_vxlan_decap(dgram, size, &vni) == XC_VXLAN_OK &&
	    (vni > XC_VXLAN_VNI_MAX || size < XC_VXLAN_HLEN + XC_VXLAN_MIN_FRAME))
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	check_addr(text, true);
	check_addr(text, false);
	free(dgram);
	free(text);
	return 0;
}
