/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * json.h - a small JSON writer into a growing buffer
 *
 * Values are written in order; a key is given for members of an object
 * and NULL for array elements and the document itself. Out of memory, the
 * writer stops writing and remembers it (xc_json_finish() says so).
 */
#ifndef XC_JSON_H
#define XC_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sbuf.h"

/**
 * struct xc_json - a JSON document being written
 * @text:	the text (text.b NULL until something is written; text.failed:
 *		out of memory, the text is incomplete)
 * @comma:	the next value needs a comma before it
 */
struct xc_json {
	struct xc_sbuf text;
	bool comma;
};

void xc_json_init(struct xc_json *j);
void xc_json_free(struct xc_json *j);
void xc_json_open(struct xc_json *j, const char *key, char brace);
void xc_json_close(struct xc_json *j, char brace);
void xc_json_str(struct xc_json *j, const char *key, const char *v);
void xc_json_u64(struct xc_json *j, const char *key, uint64_t v);
void xc_json_i64(struct xc_json *j, const char *key, int64_t v);
int xc_json_finish(struct xc_json *j);

/**
 * struct xc_json_member - one member of a JSON object, as read
 * @key:	its key, quotes included
 * @klen:	its length
 * @val:	its value
 * @vlen:	its length
 */
struct xc_json_member {
	const char *key;
	size_t klen;
	const char *val;
	size_t vlen;
};

const char *xc_json_skip_ws(const char *p);
const char *xc_json_skip_value(const char *p);
bool xc_json_next_member(const char **p, struct xc_json_member *m);
bool xc_json_key_is(const struct xc_json_member *m, const char *name);

#endif /* XC_JSON_H */
