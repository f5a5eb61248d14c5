/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * parse.c - the values every parser of xcable reads: whole numbers in a
 *	     range, permission bits, yes and no, times (options, config,
 *	     tunnel addresses, impairments, flaps); plain C, below every
 *	     parser
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse.h"

/**
 * xc_parse_uint() - parse a whole decimal number within [min, max]
 * @s:		text
 * @min:	smallest accepted value
 * @max:	largest accepted value
 * @out:	parsed value
 *
 * Return: 0 on success, -EINVAL if @s is not a number, -ERANGE if out of range
 */
int xc_parse_uint(const char *s, unsigned long min, unsigned long max,
		  unsigned long *out)
{
	unsigned long v;
	char *end;

	if (s[0] < '0' || s[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end != '\0')
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/**
 * xc_parse_mode() - parse octal permission bits such as 0660
 * @s:		text
 * @out:	parsed bits
 *
 * Return: 0 on success, -EINVAL if not octal or above 0777
 */
int xc_parse_mode(const char *s, unsigned int *out)
{
	unsigned long v;
	char *end;

	if (s[0] < '0' || s[0] > '7')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 8);
	if (*end || v > 0777 || errno)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

/**
 * xc_parse_bool() - parse yes/no, true/false, on/off, 1/0
 * @s:		text
 * @out:	parsed value
 *
 * Return: 0 on success, -EINVAL otherwise
 */
int xc_parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	unsigned int i;

	for (i = 0; i < 4; i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

/**
 * xc_parse_time_us() - parse a time with its unit: "10ms", "500us", "1.5s"
 * @s:		text
 * @max_us:	largest accepted value, in microseconds
 * @out:	parsed value, in microseconds (rounded)
 *
 * Return: 0, or -EINVAL if @s is no time with a unit, or above @max_us
 */
int xc_parse_time_us(const char *s, uint64_t max_us, uint64_t *out)
{
	static const struct { const char *unit; double scale; } u[] = {
		{ "us", 1 }, { "ms", 1e3 }, { "s", 1e6 },
	};
	double v, us;
	char *end;
	unsigned int i;

	if ((s[0] < '0' || s[0] > '9') && s[0] != '.')
		return -EINVAL;
	v = strtod(s, &end);
	for (i = 0; end != s && i < sizeof(u) / sizeof(u[0]); i++) {
		if (strcmp(end, u[i].unit) != 0)
			continue;
		us = v * u[i].scale;
		if (!(us >= 0) || us > (double)max_us)
			return -EINVAL;
		*out = (uint64_t)(us + 0.5);
		return 0;
	}
	return -EINVAL;
}
