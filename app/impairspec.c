/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * impairspec.c - read and write impairment specifications such as
 *		  "delay=10ms,jitter=1ms,loss=5%" (command line, config file,
 *		  xcablectl); the text is untrusted
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impair.h"

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
 * parse_time() - "10ms", "500us", "1s" into microseconds
 * @v:		text
 * @us:		result
 *
 * Return: 0 or -EINVAL
 */
static int parse_time(const char *v, uint32_t *us)
{
	const char *e;
	uint64_t x;
	double scale = strncmp(v + strspn(v, "0123456789."), "us", 2) == 0 ? 1 :
		       strncmp(v + strspn(v, "0123456789."), "ms", 2) == 0 ? 1e3 :
		       1e6;

	if (parse_num(v, &e, scale, &x) || x > 60u * PPM ||
	    (strcmp(e, "us") && strcmp(e, "ms") && strcmp(e, "s")))
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
 * xc_impair_parse() - read an impairment specification
 * @spec:	"none", or comma-separated key=value: delay=10ms, jitter=1ms,
 *		loss=5%, ge=P%/R%[/BAD%], rate=100mbit, dup=1%, corrupt=0.1%,
 *		limit=1000
 * @c:		filled (everything not named is off)
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -EINVAL with @err naming the bad part
 */
int xc_impair_parse(const char *spec, struct xc_impair_cfg *c, char *err,
		    size_t errlen)
{
	char buf[512], *save = NULL, *kv;

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
		char *v = strchr(kv, '=');
		int bad;

		if (v == NULL) {
			snprintf(err, errlen, "impairment '%.40s': expected key=value", kv);
			return -EINVAL;
		}
		*v++ = '\0';
		if (strcmp(kv, "delay") == 0) {
			bad = parse_time(v, &c->delay_us);
		} else if (strcmp(kv, "jitter") == 0) {
			bad = parse_time(v, &c->jitter_us);
		} else if (strcmp(kv, "loss") == 0) {
			bad = parse_pct(v, &c->loss_ppm);
		} else if (strcmp(kv, "dup") == 0) {
			bad = parse_pct(v, &c->dup_ppm);
		} else if (strcmp(kv, "corrupt") == 0) {
			bad = parse_pct(v, &c->corrupt_ppm);
		} else if (strcmp(kv, "rate") == 0) {
			bad = parse_rate(v, &c->rate_bps);
		} else if (strcmp(kv, "limit") == 0) {
			char *e;
			unsigned long l = strtoul(v, &e, 10);

			bad = *v == '\0' || *e || l < 1 ||
			      l > XC_IMPAIR_LIMIT_MAX;
			c->limit = (uint32_t)l;
		} else if (strcmp(kv, "ge") == 0) {
			char *r = strchr(v, '/'), *b = r ? strchr(r + 1, '/') : NULL;

			if (r)
				*r++ = '\0';
			if (b)
				*b++ = '\0';
			c->ge_bad_ppm = PPM;
			bad = r == NULL || parse_pct(v, &c->ge_p_ppm) ||
			      parse_pct(r, &c->ge_r_ppm) || c->ge_p_ppm == 0 ||
			      (b && parse_pct(b, &c->ge_bad_ppm));
		} else {
			snprintf(err, errlen,
				 "impairment: unknown key '%.20s' (delay, jitter, loss, ge, rate, dup, corrupt, limit)",
				 kv);
			return -EINVAL;
		}
		if (bad) {
			snprintf(err, errlen,
				 "impairment %s='%.30s': expected %s", kv, v,
				 !strcmp(kv, "delay") || !strcmp(kv, "jitter") ?
				 "a time such as 10ms, 500us or 1s (at most 60s)" :
				 !strcmp(kv, "rate") ?
				 "a rate such as 100mbit, 1gbit or 64kbit" :
				 !strcmp(kv, "limit") ? "frames from 1 to 4096" :
				 !strcmp(kv, "ge") ?
				 "P%/R%[/BAD%] with P > 0, e.g. 1%/30%" :
				 "a percentage such as 5% or 0.1%");
			return -EINVAL;
		}
	}
	if (c->jitter_us > c->delay_us) {
		snprintf(err, errlen, "impairment: jitter larger than delay");
		return -EINVAL;
	}
	return 0;
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
	if (o && c->limit != XC_IMPAIR_LIMIT_DEFAULT)
		ADD(",limit=%u", c->limit);
#undef ADD
	if (o == 0)
		snprintf(buf, len, "none");
	else if (o < len)
		memmove(buf, buf + 1, strlen(buf));
}

