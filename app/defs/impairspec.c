/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * impairspec.c - read and write impairment specifications such as
 *		  "delay=10ms,jitter=1ms,loss=5%" or "blackhole" (command
 *		  line, config file, xcablectl); the text is untrusted
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "impairspec.h"
#include "parse.h"

#define PPM	1000000u

/**
 * parse_num() - read a decimal number with an optional fraction
 * @s:		text
 * @end:	set to the first character after the number
 * @scale:	the value is multiplied by this before rounding
 * @out:	the result
 *
 * Return: 0, or -EINVAL if there is no number or it overflows
 */
static int parse_num(const char *s, const char **end, double scale,
		     uint64_t *out)
{
	char *e;
	double v = strtod(s, &e);

	if (e == s || !(v >= 0) || v * scale > 1e18)
		return -EINVAL;
	*end = e;
	*out = (uint64_t)(v * scale + 0.5);
	return 0;
}

/**
 * parse_time() - "10ms", "500us", "1s" into microseconds, at most 60 s
 * @v:		text
 * @us:		result
 *
 * Return: 0 or -EINVAL
 */
static int parse_time(const char *v, uint32_t *us)
{
	uint64_t x;

	if (xc_parse_time_us(v, 60u * PPM, &x))
		return -EINVAL;
	*us = (uint32_t)x;
	return 0;
}

/**
 * parse_pct() - "5%" or "0.1%" into parts per million
 * @v:		text
 * @ppm:	result
 *
 * Return: 0 or -EINVAL
 */
static int parse_pct(const char *v, uint32_t *ppm)
{
	const char *e;
	uint64_t x;

	if (parse_num(v, &e, PPM / 100, &x) || x > PPM || strcmp(e, "%"))
		return -EINVAL;
	*ppm = (uint32_t)x;
	return 0;
}

/**
 * parse_rate() - "100mbit", "1gbit", "64kbit", "1000000bit" into bits/s
 * @v:		text
 * @bps:	result
 *
 * Return: 0 or -EINVAL
 */
static int parse_rate(const char *v, uint64_t *bps)
{
	static const struct { const char *unit; double scale; } u[] = {
		{ "bit", 1 }, { "kbit", 1e3 }, { "mbit", 1e6 }, { "gbit", 1e9 },
	};
	const char *e;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		size_t n = strlen(v), k = strlen(u[i].unit);

		if (n > k && strcmp(v + n - k, u[i].unit) == 0 &&
		    strspn(v, "0123456789.") == n - k &&
		    parse_num(v, &e, u[i].scale, bps) == 0 && *bps >= 8000 &&
		    *bps <= 400000000000ULL)
			return 0;
	}
	return -EINVAL;
}

/**
 * parse_ge() - "P%/R%[/BAD%]": Gilbert-Elliott's chances
 * @v:		text, changed in place
 * @c:		its ge_* fields are set
 *
 * Return: 0 or -EINVAL
 */
static int parse_ge(char *v, struct xc_impair_cfg *c)
{
	char *r = strchr(v, '/'), *b = r ? strchr(r + 1, '/') : NULL;

	if (r)
		*r++ = '\0';
	if (b)
		*b++ = '\0';
	c->ge_bad_ppm = PPM;
	return r == NULL || parse_pct(v, &c->ge_p_ppm) ||
	       parse_pct(r, &c->ge_r_ppm) || c->ge_p_ppm == 0 ||
	       (b && parse_pct(b, &c->ge_bad_ppm)) ? -EINVAL : 0;
}

/* what the value of a key of an impairment specification is */
enum spec_kind {
	K_TIME,		/* "10ms": a uint32_t of microseconds, at most 60 s */
	K_PCT,		/* "5%": a uint32_t of parts per million */
	K_RATE,		/* "100mbit": the uint64_t rate_bps */
	K_COUNT,	/* a whole number from lo to hi, a uint32_t */
	K_GE,		/* "P%/R%[/BAD%]": the ge_* fields */
	K_FLAG,		/* no value: a uint32_t set to 1 */
};

/**
 * struct spec_key - one key of an impairment specification
 * @name:	the key
 * @kind:	its value's
 * @off:	its field in struct xc_impair_cfg
 * @lo:		K_COUNT: smallest value
 * @hi:		K_COUNT: largest value
 * @expect:	what its value should look like, for messages
 */
struct spec_key {
	const char *name;
	enum spec_kind kind;
	size_t off;
	unsigned long lo, hi;
	const char *expect;
};

#define CFG(f)	offsetof(struct xc_impair_cfg, f)
#define TIME_EXPECT	"a time such as 10ms, 500us or 1s (at most 60s)"
#define PCT_EXPECT	"a percentage such as 5% or 0.1%"

/* every key of an impairment specification, once */
static const struct spec_key spec_keys[] = {
	{ "delay", K_TIME, CFG(delay_us), 0, 0, TIME_EXPECT },
	{ "jitter", K_TIME, CFG(jitter_us), 0, 0, TIME_EXPECT },
	{ "loss", K_PCT, CFG(loss_ppm), 0, 0, PCT_EXPECT },
	{ "ge", K_GE, 0, 0, 0, "P%/R%[/BAD%] with P > 0, e.g. 1%/30%" },
	{ "rate", K_RATE, CFG(rate_bps), 0, 0,
	  "a rate such as 100mbit, 1gbit or 64kbit" },
	{ "dup", K_PCT, CFG(dup_ppm), 0, 0, PCT_EXPECT },
	{ "corrupt", K_PCT, CFG(corrupt_ppm), 0, 0, PCT_EXPECT },
	{ "reorder", K_PCT, CFG(reorder_ppm), 0, 0, PCT_EXPECT },
	{ "gap", K_COUNT, CFG(gap), 1, XC_IMPAIR_GAP_MAX,
	  "frames from 1 to 1000000" },
	{ "mtu", K_COUNT, CFG(mtu), XC_IMPAIR_MTU_MIN, XC_IMPAIR_MTU_MAX,
	  "bytes of L2 payload from 68 to 65535, as an interface MTU (1500 for 1514-byte frames)" },
	{ "blackhole", K_FLAG, CFG(blackhole), 0, 0,
	  "no value: blackhole alone" },
	{ "limit", K_COUNT, CFG(limit), 1, XC_IMPAIR_LIMIT_MAX,
	  "frames from 1 to 4096" },
};

/**
 * set_key() - read one key's value into a configuration
 * @k:		the key
 * @v:		its value (NULL if none was given), may be changed in place
 * @c:		configuration being read
 *
 * Return: 0 or -EINVAL
 */
static int set_key(const struct spec_key *k, char *v, struct xc_impair_cfg *c)
{
	uint32_t *u = (uint32_t *)((char *)c + k->off);
	unsigned long n;

	if ((v == NULL) != (k->kind == K_FLAG))
		return -EINVAL;
	switch (k->kind) {
	case K_TIME:
		return parse_time(v, u);
	case K_PCT:
		return parse_pct(v, u);
	case K_RATE:
		return parse_rate(v, &c->rate_bps);
	case K_COUNT:
		if (xc_parse_uint(v, k->lo, k->hi, &n))
			return -EINVAL;
		*u = (uint32_t)n;
		return 0;
	case K_GE:
		return parse_ge(v, c);
	case K_FLAG:
		*u = 1;
		return 0;
	}
	return -EINVAL;
}

/**
 * unknown_key() - say that a key is none of the table's, naming them
 * @kv:		the key
 * @err:	filled
 * @errlen:	size of @err
 *
 * Return: -EINVAL
 */
static int unknown_key(const char *kv, char *err, size_t errlen)
{
	size_t o;
	unsigned int i;

	o = (size_t)snprintf(err, errlen, "impairment: unknown key '%.20s' (",
			     kv);
	for (i = 0; i < RTE_DIM(spec_keys) && o < errlen; i++)
		o += (size_t)snprintf(err + o, errlen - o, "%s%s",
				      spec_keys[i].name,
				      i + 1 < RTE_DIM(spec_keys) ? ", " : ")");
	return -EINVAL;
}

/**
 * check_spec() - what the keys of a specification say together
 * @c:		configuration read
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -EINVAL with @err naming the conflict
 */
static int check_spec(struct xc_impair_cfg *c, char *err, size_t errlen)
{
	if (c->jitter_us > c->delay_us) {
		snprintf(err, errlen, "impairment: jitter larger than delay");
		return -EINVAL;
	}
	if (c->reorder_ppm && c->delay_us == 0) {
		snprintf(err, errlen,
			 "impairment: reorder needs a delay (as netem's: reordered frames are sent at once, ahead of the delayed ones)");
		return -EINVAL;
	}
	if (c->gap && c->reorder_ppm == 0) {
		snprintf(err, errlen, "impairment: gap without reorder");
		return -EINVAL;
	}
	if (c->reorder_ppm && c->gap == 0)
		c->gap = 1;	/* netem's: every frame may be reordered */
	return 0;
}

/**
 * xc_impair_parse() - read an impairment specification
 * @spec:	"none", or comma-separated key=value (the keys of
 *		spec_keys): delay=10ms, jitter=1ms, loss=5%, ge=P%/R%[/BAD%],
 *		rate=100mbit, dup=1%, corrupt=0.1%, reorder=25% (needs
 *		delay), gap=5, mtu=1500, limit=1000, and blackhole without a
 *		value
 * @c:		filled (everything not named is off)
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -EINVAL with @err naming the bad part
 */
int xc_impair_parse(const char *spec, struct xc_impair_cfg *c, char *err,
		    size_t errlen)
{
	char buf[512], *save = NULL, *kv, *v;
	unsigned int i;

	memset(c, 0, sizeof(*c));
	c->limit = XC_IMPAIR_LIMIT_DEFAULT;
	if (strcmp(spec, "none") == 0)
		return 0;
	if (strlen(spec) >= sizeof(buf) || spec[0] == '\0') {
		snprintf(err, errlen, "impairment '%.40s': expected key=value,... or none",
			 spec);
		return -EINVAL;
	}
	strcpy(buf, spec);
	for (kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		v = strchr(kv, '=');
		if (v)
			*v++ = '\0';
		for (i = 0; i < RTE_DIM(spec_keys) &&
			    strcmp(kv, spec_keys[i].name); i++)
			;
		if (i == RTE_DIM(spec_keys)) {
			if (v == NULL) {
				snprintf(err, errlen, "impairment '%.40s': expected key=value",
					 kv);
				return -EINVAL;
			}
			return unknown_key(kv, err, errlen);
		}
		if (set_key(&spec_keys[i], v, c)) {
			snprintf(err, errlen,
				 "impairment %s='%.30s': expected %s", kv,
				 v ? v : "", spec_keys[i].expect);
			return -EINVAL;
		}
	}
	return check_spec(c, err, errlen);
}

/**
 * xc_impair_format() - describe a configuration, as xc_impair_parse()
 *			reads it
 * @c:		configuration
 * @buf:	filled
 * @len:	size of @buf
 */
void xc_impair_format(const struct xc_impair_cfg *c, char *buf, size_t len)
{
	size_t o = 0;

#define ADD(...) (o += (size_t)snprintf(buf + o, o < len ? len - o : 0, __VA_ARGS__))
	buf[0] = '\0';
	if (c->delay_us)
		ADD(",delay=%.3fms", c->delay_us / 1e3);
	if (c->jitter_us)
		ADD(",jitter=%.3fms", c->jitter_us / 1e3);
	if (c->loss_ppm)
		ADD(",loss=%g%%", c->loss_ppm / 1e4);
	if (c->ge_p_ppm)
		ADD(",ge=%g%%/%g%%/%g%%", c->ge_p_ppm / 1e4, c->ge_r_ppm / 1e4,
		    c->ge_bad_ppm / 1e4);
	if (c->rate_bps)
		ADD(",rate=%" PRIu64 "bit", c->rate_bps);
	if (c->dup_ppm)
		ADD(",dup=%g%%", c->dup_ppm / 1e4);
	if (c->corrupt_ppm)
		ADD(",corrupt=%g%%", c->corrupt_ppm / 1e4);
	if (c->reorder_ppm)
		ADD(",reorder=%g%%", c->reorder_ppm / 1e4);
	if (c->reorder_ppm && c->gap > 1)
		ADD(",gap=%u", c->gap);
	if (c->mtu)
		ADD(",mtu=%u", c->mtu);
	if (c->blackhole)
		ADD(",blackhole");
	if (o && c->limit != XC_IMPAIR_LIMIT_DEFAULT)
		ADD(",limit=%u", c->limit);
#undef ADD
	if (o == 0)
		snprintf(buf, len, "none");
	else if (o < len)
		memmove(buf, buf + 1, strlen(buf));
}

