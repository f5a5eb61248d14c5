/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * json.c - a small JSON writer into a growing text buffer (sbuf.c)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/**
 * xc_json_init() - start an empty document
 * @j:		writer
 */
void xc_json_init(struct xc_json *j)
{
	memset(j, 0, sizeof(*j));
}

/**
 * xc_json_free() - free the text
 * @j:		writer, empty again afterwards
 */
void xc_json_free(struct xc_json *j)
{
	xc_sbuf_free(&j->text);
	xc_json_init(j);
}

/**
 * put() - append bytes to the text
 * @j:		writer
 * @s:		bytes
 * @n:		how many
 */
static void put(struct xc_json *j, const char *s, size_t n)
{
	xc_sbuf_put(&j->text, s, n);
}

/**
 * put_str() - append a JSON string, quoted and escaped
 * @j:		writer
 * @s:		the string (NULL is written as "")
 */
static void put_str(struct xc_json *j, const char *s)
{
	char esc[8];

	put(j, "\"", 1);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			put(j, esc, 2);
		} else if (c < 0x20) {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			put(j, esc, 6);
		} else {
			put(j, (const char *)&c, 1);
		}
	}
	put(j, "\"", 1);
}

/**
 * member() - start a value: the comma before it, and its key if any
 * @j:		writer
 * @key:	key in the enclosing object, or NULL
 */
static void member(struct xc_json *j, const char *key)
{
	if (j->comma)
		put(j, ",", 1);
	if (key) {
		put_str(j, key);
		put(j, ":", 1);
	}
	j->comma = true;
}

/**
 * xc_json_open() - start an object or an array
 * @j:		writer
 * @key:	its key in the enclosing object, or NULL
 * @brace:	'{' or '['
 */
void xc_json_open(struct xc_json *j, const char *key, char brace)
{
	member(j, key);
	put(j, &brace, 1);
	j->comma = false;
}

/**
 * xc_json_close() - end an object or an array
 * @j:		writer
 * @brace:	'}' or ']'
 */
void xc_json_close(struct xc_json *j, char brace)
{
	put(j, &brace, 1);
	j->comma = true;
}

/**
 * xc_json_str() - a string value
 * @j:		writer
 * @key:	its key, or NULL
 * @v:		the string
 */
void xc_json_str(struct xc_json *j, const char *key, const char *v)
{
	member(j, key);
	put_str(j, v);
}

/**
 * xc_json_u64() - a number
 * @j:		writer
 * @key:	its key, or NULL
 * @v:		the number
 */
void xc_json_u64(struct xc_json *j, const char *key, uint64_t v)
{
	char num[24];
	int n = snprintf(num, sizeof(num), "%" PRIu64, v);

	member(j, key);
	put(j, num, (size_t)n);
}

/**
 * xc_json_finish() - end the document with a newline
 * @j:		writer
 *
 * Return: 0, or -ENOMEM if the text is incomplete
 */
int xc_json_finish(struct xc_json *j)
{
	put(j, "\n", 1);
	return j->text.failed ? -ENOMEM : 0;
}
