/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * addr.c - IPv4 and IPv6 socket addresses as people write them ("ADDR",
 *	    "ADDR:PORT", "[ADDR]:PORT"); see addr.h. Everything here reads
 *	    untrusted text with explicit lengths and never more.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "parse.h"

/**
 * parse_port() - a UDP port from 1 to 65535
 * @s:		text
 * @port:	set on success
 *
 * Return: 0, or -EINVAL
 */
static int parse_port(const char *s, uint16_t *port)
{
	unsigned long v;

	if (xc_parse_uint(s, 1, 65535, &v))
		return -EINVAL;
	*port = (uint16_t)v;
	return 0;
}

/**
 * split_addr() - cut "ADDR", "ADDR:PORT", "[ADDR]" or "[ADDR]:PORT" into
 *		  its address and port texts
 * @text:	the text
 * @host:	the address, filled (at least XC_ADDR_TEXT_MAX bytes)
 * @port:	set to the port text, or NULL if none
 *
 * Return: 0, or -EINVAL if the text has no such shape
 */
static int split_addr(const char *text, char *host, const char **port)
{
	const char *colon = strchr(text, ':'), *close;
	size_t n;

	*port = NULL;
	if (text[0] == '[') {
		close = strchr(text, ']');
		if (close == NULL || (close[1] && close[1] != ':'))
			return -EINVAL;
		n = (size_t)(close - text - 1);
		if (close[1] == ':')
			*port = close + 2;
		text++;
	} else if (colon && strchr(colon + 1, ':') == NULL) {
		n = (size_t)(colon - text);	/* one colon: IPv4:PORT */
		*port = colon + 1;
	} else {
		n = strlen(text);		/* IPv4, or IPv6 alone */
	}
	if (n == 0 || n >= XC_ADDR_TEXT_MAX)
		return -EINVAL;
	memcpy(host, text, n);
	host[n] = '\0';
	return 0;
}

/**
 * xc_addr_parse() - parse a numeric IPv4 or IPv6 address with an optional
 *		     port: 192.0.2.2, 192.0.2.2:14789, 2001:db8::2,
 *		     [2001:db8::2]:14789
 * @text:	the text
 * @port_ok:	a port may be given
 * @def_port:	the port if none is given
 * @ss:		filled: a struct sockaddr_in or sockaddr_in6
 * @why:	what is wrong, on error
 * @whylen:	size of @why
 *
 * Return: 0, or -EINVAL with @why set
 */
int xc_addr_parse(const char *text, bool port_ok, uint16_t def_port,
		  struct sockaddr_storage *ss, char *why, size_t whylen)
{
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	char host[XC_ADDR_TEXT_MAX];
	uint16_t port = def_port;
	const char *ptext;

	memset(ss, 0, sizeof(*ss));
	if (split_addr(text, host, &ptext)) {
		snprintf(why, whylen, "expected an IPv4 or IPv6 address%s",
			 port_ok ? ", optionally with :PORT ([ADDR]:PORT for IPv6)" : "");
		return -EINVAL;
	}
	if (ptext && !port_ok) {
		snprintf(why, whylen, "expected an address without a port");
		return -EINVAL;
	}
	if (ptext && parse_port(ptext, &port)) {
		snprintf(why, whylen, "expected a UDP port from 1 to 65535 after the address");
		return -EINVAL;
	}
	if (inet_pton(AF_INET, host, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons(port);
		return 0;
	}
	if (inet_pton(AF_INET6, host, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(port);
		return 0;
	}
	snprintf(why, whylen, "'%.48s' is no numeric IPv4 or IPv6 address",
		 host);
	return -EINVAL;
}

/**
 * xc_addr_to_v6() - make an IPv4 address an IPv4-mapped IPv6 one
 *		     (::ffff:a.b.c.d), for a dual-stack IPv6 socket
 * @ss:		address; IPv6 ones are left as they are
 */
void xc_addr_to_v6(struct sockaddr_storage *ss)
{
	struct sockaddr_in s4;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

	if (ss->ss_family != AF_INET)
		return;
	memcpy(&s4, ss, sizeof(s4));
	memset(ss, 0, sizeof(*ss));
	s6->sin6_family = AF_INET6;
	s6->sin6_port = s4.sin_port;
	s6->sin6_addr.s6_addr[10] = 0xff;
	s6->sin6_addr.s6_addr[11] = 0xff;
	memcpy(&s6->sin6_addr.s6_addr[12], &s4.sin_addr, 4);
}

/**
 * xc_addr_same_host() - are two addresses of one family the same host?
 *			 (ports are not compared: a Linux vxlan device
 *			 sends from a port of its own choice per flow)
 * @a:		address
 * @b:		address
 *
 * Return: true if so
 */
bool xc_addr_same_host(const struct sockaddr_storage *a,
		       const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			      &((const struct sockaddr_in6 *)b)->sin6_addr,
			      16) == 0;
	return false;
}

/**
 * xc_addr_format() - an address as people write it: 192.0.2.2:4789,
 *		      [2001:db8::2]:4789 (IPv4-mapped ones as IPv4)
 * @ss:		address
 * @buf:	filled
 * @len:	size of @buf
 */
void xc_addr_format(const struct sockaddr_storage *ss, char *buf,
		    size_t len)
{
	const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)ss;
	const struct sockaddr_in *s4 = (const struct sockaddr_in *)ss;
	char host[INET6_ADDRSTRLEN] = "?";

	if (ss->ss_family == AF_INET) {
		inet_ntop(AF_INET, &s4->sin_addr, host, sizeof(host));
		snprintf(buf, len, "%s:%u", host, ntohs(s4->sin_port));
	} else if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
		inet_ntop(AF_INET, &s6->sin6_addr.s6_addr[12], host,
			  sizeof(host));
		snprintf(buf, len, "%s:%u", host, ntohs(s6->sin6_port));
	} else {
		inet_ntop(AF_INET6, &s6->sin6_addr, host, sizeof(host));
		snprintf(buf, len, "[%s]:%u", host, ntohs(s6->sin6_port));
	}
}
