/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pullspec.c - read and write what is said of a cable's carrier: a flap
 *		schedule ("down=2s,up=10s,count=5[,end=left]" in a config
 *		file or on the command line, "--down 2s --up 10s --count 5"
 *		from xcablectl) and which ends are down ("left", "right",
 *		"both", "none"); the text is untrusted
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "pullspec.h"

#define FLAP_USAGE	"down=TIME,up=TIME,count=N|forever[,end=left|right], e.g. down=2s,up=10s,count=5"
#define SEEN_DOWN	1u
#define SEEN_UP		2u
#define SEEN_COUNT	4u

/**
 * xc_side_parse() - which ends a word names
 * @s:		"left", "right", "both", or "none" (or "no")
 * @mask:	bit 0 the left end, bit 1 the right
 *
 * Return: 0, or -EINVAL if @s names none of them
 */
int xc_side_parse(const char *s, uint32_t *mask)
{
	static const char *const names[] = { "none", "left", "right", "both" };
	uint32_t i;

	for (i = 0; i < 4; i++)
		if (strcmp(s, names[i]) == 0) {
			*mask = i;
			return 0;
		}
	if (strcmp(s, "no") == 0) {
		*mask = 0;
		return 0;
	}
	return -EINVAL;
}

/**
 * xc_side_name() - the word for a set of ends, as xc_side_parse() reads it
 * @mask:	bit 0 the left end, bit 1 the right
 *
 * Return: a static string
 */
const char *xc_side_name(uint32_t mask)
{
	static const char *const names[] = { "none", "left", "right", "both" };

	return names[mask & 3];
}

/**
 * flap_set() - one key of a flap schedule
 * @f:		schedule being read
 * @key:	down, up, count or end
 * @val:	its value
 * @seen:	SEEN_* bits of the keys read so far
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -EINVAL with @err naming the bad part
 */
static int flap_set(struct xc_flap_cfg *f, const char *key, const char *val,
		    unsigned int *seen, char *err, size_t errlen)
{
	unsigned long n;
	uint32_t m;
	uint64_t us;

	if (strcmp(key, "down") == 0 || strcmp(key, "up") == 0) {
		if (xc_parse_time_us(val, XC_FLAP_MAX_MS * 1000ULL, &us) ||
		    us < XC_FLAP_MIN_MS * 1000ULL) {
			snprintf(err, errlen,
				 "flap %s '%.30s': expected a time from 10ms to 86400s, such as 2s or 500ms",
				 key, val);
			return -EINVAL;
		}
		*(key[0] == 'd' ? &f->down_ms : &f->up_ms) =
			(uint32_t)((us + 500) / 1000);
		*seen |= key[0] == 'd' ? SEEN_DOWN : SEEN_UP;
	} else if (strcmp(key, "count") == 0) {
		if (strcmp(val, "forever") == 0) {
			n = 0;
		} else if (xc_parse_uint(val, 1, XC_FLAP_COUNT_MAX, &n)) {
			snprintf(err, errlen,
				 "flap count '%.30s': expected down/up cycles from 1 to %u, or forever",
				 val, XC_FLAP_COUNT_MAX);
			return -EINVAL;
		}
		f->count = (uint32_t)n;
		*seen |= SEEN_COUNT;
	} else if (strcmp(key, "end") == 0) {
		if (xc_side_parse(val, &m) || m == 0) {
			snprintf(err, errlen,
				 "flap end '%.30s': expected left, right or both",
				 val);
			return -EINVAL;
		}
		f->end = m == 3 ? -1 : (int32_t)m - 1;
	} else {
		snprintf(err, errlen,
			 "flap: unknown key '%.20s' (down, up, count, end)",
			 key);
		return -EINVAL;
	}
	return 0;
}

/**
 * flap_done() - check that a schedule read is whole
 * @seen:	SEEN_* bits of the keys read
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -EINVAL if down, up or count is missing
 */
static int flap_done(unsigned int seen, char *err, size_t errlen)
{
	if (seen == (SEEN_DOWN | SEEN_UP | SEEN_COUNT))
		return 0;
	snprintf(err, errlen, "flap: %s missing (%s)",
		 !(seen & SEEN_DOWN) ? "down" : !(seen & SEEN_UP) ? "up" :
		 "count", FLAP_USAGE);
	return -EINVAL;
}

/**
 * xc_flap_parse() - read a flap schedule, as a config file or the command
 *		     line gives it
 * @spec:	"none", or down=TIME,up=TIME,count=N|forever[,end=SIDE]
 * @f:		filled (end -1: both, when not given)
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -EINVAL with @err naming the bad part
 */
int xc_flap_parse(const char *spec, struct xc_flap_cfg *f, char *err,
		  size_t errlen)
{
	char buf[128], *save = NULL, *kv, *v;
	unsigned int seen = 0;

	memset(f, 0, sizeof(*f));
	f->end = -1;
	if (strcmp(spec, "none") == 0 || strcmp(spec, "no") == 0)
		return 0;
	if (spec[0] == '\0' || strlen(spec) >= sizeof(buf)) {
		snprintf(err, errlen, "flap '%.40s': expected %s or none", spec,
			 FLAP_USAGE);
		return -EINVAL;
	}
	strcpy(buf, spec);
	for (kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		v = strchr(kv, '=');
		if (v == NULL) {
			snprintf(err, errlen, "flap '%.40s': expected key=value (%s)",
				 kv, FLAP_USAGE);
			return -EINVAL;
		}
		*v++ = '\0';
		if (flap_set(f, kv, v, &seen, err, errlen))
			return -EINVAL;
	}
	return flap_done(seen, err, errlen);
}

/**
 * xc_flap_parse_words() - read a flap schedule as xcablectl gives it
 * @argc:	number of words
 * @argv:	"--down" "2s" "--up" "10s" "--count" "5"
 * @f:		filled (end -1: both)
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -EINVAL with @err naming the bad part
 */
int xc_flap_parse_words(int argc, char *const *argv, struct xc_flap_cfg *f,
			char *err, size_t errlen)
{
	unsigned int seen = 0;
	int i;

	memset(f, 0, sizeof(*f));
	f->end = -1;
	for (i = 0; i < argc; i += 2) {
		if (strncmp(argv[i], "--", 2) != 0 || i + 1 == argc ||
		    strcmp(argv[i], "--end") == 0) {
			snprintf(err, errlen,
				 "flap: '%.30s': expected --down TIME --up TIME --count N|forever",
				 argv[i]);
			return -EINVAL;
		}
		if (flap_set(f, argv[i] + 2, argv[i + 1], &seen, err, errlen))
			return -EINVAL;
	}
	return flap_done(seen, err, errlen);
}

/**
 * fmt_ms() - a time for people and for xc_flap_parse(): whole seconds as
 *	      "2s", else "1500ms"
 * @ms:		milliseconds
 * @buf:	filled
 * @len:	its size
 *
 * Return: @buf
 */
static const char *fmt_ms(uint32_t ms, char *buf, size_t len)
{
	if (ms % 1000 == 0)
		snprintf(buf, len, "%" PRIu32 "s", ms / 1000);
	else
		snprintf(buf, len, "%" PRIu32 "ms", ms);
	return buf;
}

/**
 * xc_flap_format() - describe a flap schedule, as xc_flap_parse() reads it
 * @f:		schedule
 * @buf:	filled
 * @len:	size of @buf
 */
void xc_flap_format(const struct xc_flap_cfg *f, char *buf, size_t len)
{
	char d[24], u[24], n[24];

	if (f->down_ms == 0) {
		snprintf(buf, len, "none");
		return;
	}
	if (f->count)
		snprintf(n, sizeof(n), "%" PRIu32, f->count);
	else
		snprintf(n, sizeof(n), "forever");
	snprintf(buf, len, "down=%s,up=%s,count=%s%s%s",
		 fmt_ms(f->down_ms, d, sizeof(d)), fmt_ms(f->up_ms, u, sizeof(u)),
		 n, f->end < 0 ? "" : ",end=", f->end < 0 ? "" :
		 xc_side_name(1u << f->end));
}
