/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * addr.h - IPv4 and IPv6 socket addresses as people write them, in plain
 *	    C (no DPDK): the options and the tunnels read them
 */
#ifndef XC_ADDR_H
#define XC_ADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define XC_ADDR_TEXT_MAX	64	/* "[v6 address]:port" and its NUL */

int xc_addr_parse(const char *text, bool port_ok, uint16_t def_port,
		  struct sockaddr_storage *ss, char *why, size_t whylen);
void xc_addr_to_v6(struct sockaddr_storage *ss);
bool xc_addr_same_host(const struct sockaddr_storage *a,
		       const struct sockaddr_storage *b);
void xc_addr_format(const struct sockaddr_storage *ss, char *buf,
		    size_t len);

#endif /* XC_ADDR_H */
