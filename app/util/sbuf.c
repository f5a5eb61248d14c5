/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sbuf.c - a growing text buffer (answers and files the supervisor builds)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"

/**
 * xc_sbuf_put() - append bytes, growing the buffer
 * @sb:		buffer
 * @s:		bytes
 * @n:		how many
 */
void xc_sbuf_put(struct xc_sbuf *sb, const char *s, size_t n)
{
	size_t cap;
	char *b;

	if (sb->failed)
		return;
	if (sb->len + n + 1 > sb->cap) {
		cap = sb->cap ? sb->cap : 1024;
		while (cap < sb->len + n + 1)
			cap *= 2;
		b = realloc(sb->b, cap);
		if (b == NULL) {
			sb->failed = true;
			return;
		}
		sb->b = b;
		sb->cap = cap;
	}
	memcpy(sb->b + sb->len, s, n);
	sb->len += n;
	sb->b[sb->len] = '\0';
}

/**
 * xc_sbuf_printf() - append formatted text
 * @sb:		buffer
 * @fmt:	printf format
 */
void xc_sbuf_printf(struct xc_sbuf *sb, const char *fmt, ...)
{
	char small[512], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0) {
		sb->failed = true;
		return;
	}
	if ((size_t)n < sizeof(small)) {
		xc_sbuf_put(sb, small, (size_t)n);
		return;
	}
	big = malloc((size_t)n + 1);
	if (big == NULL) {
		sb->failed = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	xc_sbuf_put(sb, big, (size_t)n);
	free(big);
}

/**
 * xc_sbuf_str() - the text so far
 * @sb:		buffer
 *
 * Return: the text ("" if empty)
 */
const char *xc_sbuf_str(const struct xc_sbuf *sb)
{
	return sb->b ? sb->b : "";
}

/**
 * xc_sbuf_free() - free the text; the buffer is empty again
 * @sb:		buffer
 */
void xc_sbuf_free(struct xc_sbuf *sb)
{
	free(sb->b);
	memset(sb, 0, sizeof(*sb));
}
