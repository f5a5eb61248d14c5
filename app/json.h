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

/**
 * struct xc_json - a JSON document being written
 * @buf:	the text, terminated (NULL until something is written)
 * @len:	its length
 * @cap:	bytes allocated
 * @comma:	the next value needs a comma before it
 * @failed:	out of memory: the text is incomplete
 */
struct xc_json {
	char *buf;
	size_t len;
	size_t cap;
	bool comma;
	bool failed;
};

void xc_json_init(struct xc_json *j);
void xc_json_free(struct xc_json *j);
void xc_json_open(struct xc_json *j, const char *key, char brace);
void xc_json_close(struct xc_json *j, char brace);
void xc_json_str(struct xc_json *j, const char *key, const char *v);
void xc_json_u64(struct xc_json *j, const char *key, uint64_t v);
void xc_json_bool(struct xc_json *j, const char *key, bool v);
int xc_json_finish(struct xc_json *j);

#endif /* XC_JSON_H */
