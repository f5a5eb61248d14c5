/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * capspec.c - what a capture request asks for
 *
 *   capture CABLE[:END]... [-s SNAPLEN] [-c COUNT] [-a duration:S] [-f FILTER]
 *
 * (CABLE END, as down and up take it, is CABLE:END: a word left or right
 * after a cable's word is that cable's end)
 *
 * as xcablectl sends it (its -w stays with xcablectl: where the stream
 * goes). The filter is the rest of the line after -f (ctlcmd.c). xcable
 * reads the request here, and so does a supervisor, which sends each of
 * its workers the same request for the cables the worker runs
 * (xc_capspec_line()). Everything here is what an untrusted client sent.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "capspec.h"
#include "parse.h"

/**
 * option() - read one option and its value
 * @c:		the request so far
 * @opt:	the option ("-s", "-c", "-a")
 * @v:		its value, or NULL if the request ends there
 * @why:	the reason it is refused
 * @whylen:	size of @why
 *
 * Return: 0, or -EINVAL with @why set
 */
static int option(struct xc_capspec *c, const char *opt, const char *v,
		  char *why, size_t whylen)
{
	unsigned long n;

	if (v == NULL) {
		snprintf(why, whylen, "capture: %s needs a value", opt);
		return -EINVAL;
	}
	if (strcmp(opt, "-s") == 0) {
		if (xc_parse_uint(v, 0, XC_CAP_SNAP_MAX, &n)) {
			snprintf(why, whylen, "capture: -s '%.20s': expected a snap length from 1 to %u bytes (0: whole frames)",
				 v, XC_CAP_SNAP_MAX);
			return -EINVAL;
		}
		c->snaplen = n ? (uint32_t)n : XC_CAP_SNAP_MAX;
	} else if (strcmp(opt, "-c") == 0) {
		if (xc_parse_uint(v, 1, UINT32_MAX, &n)) {
			snprintf(why, whylen, "capture: -c '%.20s': expected a number of frames, at least 1",
				 v);
			return -EINVAL;
		}
		c->count = n;
	} else if (strcmp(opt, "-a") == 0) {
		if (strncmp(v, "duration:", 9) ||
		    xc_parse_uint(v + 9, 1, XC_CAP_SECONDS_MAX, &n)) {
			snprintf(why, whylen, "capture: -a '%.30s': expected duration:SECONDS, from 1 to %u",
				 v, XC_CAP_SECONDS_MAX);
			return -EINVAL;
		}
		c->seconds = (unsigned int)n;
	} else if (strcmp(opt, "-w") == 0) {
		snprintf(why, whylen, "capture: -w is xcablectl's (where it writes the capture), not xcable's");
		return -EINVAL;
	} else {
		snprintf(why, whylen, "capture: unknown option '%.20s' (-s SNAPLEN, -c COUNT, -a duration:S, -f FILTER)",
			 opt);
		return -EINVAL;
	}
	return 0;
}

/**
 * xc_capspec_target() - split a CABLE[:END] word
 * @word:	the word
 * @cable:	filled with the cable's name
 * @clen:	size of @cable
 * @end:	set to the end's word after the colon, NULL if none
 *
 * Return: 0, or -EINVAL (no cable name, or one too long)
 */
int xc_capspec_target(const char *word, char *cable, size_t clen,
		      const char **end)
{
	const char *colon = strchr(word, ':');
	size_t n = colon ? (size_t)(colon - word) : strlen(word);

	*end = colon ? colon + 1 : NULL;
	if (n == 0 || n >= clen || (colon && colon[1] == '\0'))
		return -EINVAL;
	memcpy(cable, word, n);
	cable[n] = '\0';
	return 0;
}

/**
 * end_of_last() - make the last target CABLE:END if @w is an END word
 *		   following a CABLE word alone (capture c1 left)
 * @c:		the request so far
 * @w:		the word
 *
 * Return: true if @w was taken as the last target's end
 */
static bool end_of_last(struct xc_capspec *c, const char *w)
{
	unsigned int k = c->n_target - 1;

	if (c->n_target == 0 || strchr(c->target[k], ':') ||
	    (strcmp(w, "left") != 0 && strcmp(w, "right") != 0))
		return false;
	if ((size_t)snprintf(c->joined[k], sizeof(c->joined[k]), "%s:%s",
			     c->target[k], w) >= sizeof(c->joined[k]))
		return false;	/* refused as a name too long, later */
	c->target[k] = c->joined[k];
	return true;
}

/**
 * xc_capspec_parse() - read a capture request
 * @r:		the request, split (ctlcmd.c)
 * @c:		filled (its pointers point into @r's words)
 * @why:	the reason it is refused
 * @whylen:	size of @why
 *
 * Return: 0, or -EINVAL with @why set
 */
int xc_capspec_parse(const struct xc_ctl_req *r, struct xc_capspec *c,
		     char *why, size_t whylen)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->snaplen = XC_CAP_SNAP_MAX;
	for (i = 1; i < r->argc; i++) {
		const char *w = r->argv[i];

		if (strcmp(w, "-f") == 0) {
			if (i + 1 >= r->argc) {
				snprintf(why, whylen, "capture: -f needs a filter");
				return -EINVAL;
			}
			c->filter = r->argv[++i];	/* the rest of the line */
		} else if (w[0] == '-') {
			if (option(c, w, i + 1 < r->argc ? r->argv[i + 1] : NULL,
				   why, whylen))
				return -EINVAL;
			i++;
		} else if (end_of_last(c, w)) {
			continue;
		} else if (c->n_target == XC_CAP_TARGETS) {
			snprintf(why, whylen, "capture: at most %d cables or ends at once",
				 XC_CAP_TARGETS);
			return -EINVAL;
		} else {
			c->target[c->n_target++] = w;
		}
	}
	if (c->n_target == 0) {
		snprintf(why, whylen, "capture: which cable? (CABLE, or CABLE:left, CABLE:right)");
		return -EINVAL;
	}
	return 0;
}

/**
 * xc_capspec_line() - a capture request for some of the targets (a
 *		       supervisor's for one worker)
 * @c:		the request
 * @only:	for each target, whether it goes in
 * @buf:	filled, without newline
 * @len:	size of @buf
 *
 * Return: 0, or -E2BIG if it does not fit
 */
int xc_capspec_line(const struct xc_capspec *c, const bool *only, char *buf,
		    size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "capture");
	unsigned int i;

	for (i = 0; i < c->n_target && n < len; i++)
		if (only[i])
			n += (size_t)snprintf(buf + n, len - n, " %s",
					      c->target[i]);
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, " -s %u", c->snaplen);
	if (n < len && c->count)
		n += (size_t)snprintf(buf + n, len - n, " -c %llu",
				      (unsigned long long)c->count);
	if (n < len && c->seconds)
		n += (size_t)snprintf(buf + n, len - n, " -a duration:%u",
				      c->seconds);
	if (n < len && c->filter)
		n += (size_t)snprintf(buf + n, len - n, " -f %s", c->filter);
	return n < len ? 0 : -E2BIG;
}
