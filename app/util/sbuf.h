/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sbuf.h - a growing text buffer (answers and files the supervisor builds)
 */
#ifndef XC_SBUF_H
#define XC_SBUF_H

#include <stdbool.h>
#include <stddef.h>

/**
 * struct xc_sbuf - text being built; all zero is an empty buffer
 * @b:		the text, NUL-terminated once anything was put (NULL before)
 * @len:	its length
 * @cap:	bytes allocated
 * @failed:	an allocation failed: the text is incomplete
 */
struct xc_sbuf {
	char *b;
	size_t len;
	size_t cap;
	bool failed;
};

void xc_sbuf_put(struct xc_sbuf *sb, const char *s, size_t n);
__attribute__((format(printf, 2, 3)))
void xc_sbuf_printf(struct xc_sbuf *sb, const char *fmt, ...);
const char *xc_sbuf_str(const struct xc_sbuf *sb);
void xc_sbuf_free(struct xc_sbuf *sb);

#endif /* XC_SBUF_H */
