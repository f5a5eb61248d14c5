/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * json.c - a small JSON writer into a growing text buffer (sbuf.c)
 */
#include <stdbool.h>
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
 * xc_json_i64() - a signed number
 * @j:		writer
 * @key:	its key, or NULL
 * @v:		the number
 */
void xc_json_i64(struct xc_json *j, const char *key, int64_t v)
{
	char num[24];
	int n = snprintf(num, sizeof(num), "%" PRId64, v);

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

/* reading: what a document written by another process holds */

/**
 * xc_json_skip_ws() - past JSON white space
 * @p:		text
 *
 * Return: the first other character
 */
const char *xc_json_skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

/**
 * xc_json_skip_value() - past one JSON value (a string, an object or array with
 *		  all it holds, or a literal)
 * @p:		its first character
 *
 * Return: the character after it, or NULL if the text ends first
 */
const char *xc_json_skip_value(const char *p)
{
	int depth = 0;
	bool str = false;

	for (; *p; p++) {
		if (str) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				str = false;
			if (!str && depth == 0)
				return p + 1;
			continue;
		}
		if (*p == '"') {
			str = true;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			if (depth == 0)
				return p;	/* a literal before it */
			if (--depth == 0)
				return p + 1;
		} else if (*p == ',' && depth == 0) {
			return p;
		}
	}
	return NULL;
}


/**
 * xc_json_next_member() - the next member of an object
 * @p:		in: at '{' or past the previous member; out: past this one
 * @m:		filled
 *
 * Return: true if there was one
 */
bool xc_json_next_member(const char **p, struct xc_json_member *m)
{
	const char *q = xc_json_skip_ws(*p), *e;

	if (*q == '{' || *q == ',')
		q = xc_json_skip_ws(q + 1);
	if (*q != '"')
		return false;
	e = xc_json_skip_value(q);
	if (e == NULL)
		return false;
	m->key = q;
	m->klen = (size_t)(e - q);
	q = xc_json_skip_ws(e);
	if (*q != ':')
		return false;
	q = xc_json_skip_ws(q + 1);
	e = xc_json_skip_value(q);
	if (e == NULL)
		return false;
	m->val = q;
	m->vlen = (size_t)(e - q);
	*p = e;
	return true;
}

/**
 * xc_json_key_is() - does a member's key say @name?
 * @m:		the member
 * @name:	a name without quotes or escapes
 *
 * Return: true if so
 */
bool xc_json_key_is(const struct xc_json_member *m, const char *name)
{
	size_t n = strlen(name);

	return m->klen == n + 2 && memcmp(m->key + 1, name, n) == 0;
}
