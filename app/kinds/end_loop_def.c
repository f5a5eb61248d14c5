/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * end_loop_def.c - how a loopback plug is declared: left-loop = yes
 */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "kinddef.h"
#include "options.h"

/**
 * struct xc_loop_def - a loopback plug, as declared
 * @on:		the end is one (left-loop = yes)
 */
struct xc_loop_def {
	bool on;
};

static_assert(sizeof(struct xc_loop_def) <= XC_KIND_DEF_MAX,
	      "a plug's definition fits its kind's part");

static const char g_loop[] = "Loopback plugs (config files, xcablectl add):";

/* the kind's key */
static const struct xc_opt_desc loop_opts[] = {
	{ .name = "loop", .where = XC_OPT_END, .type = XC_OPT_ON,
	  .declares = true, .arg = "yes", .group = g_loop,
	  .end_off = (int)offsetof(struct xc_loop_def, on),
	  .help = "config key left-loop/right-loop: the end is a loopback plug, which sends every frame back where it came from" },
};

/* loop_is() - does a definition declare a loopback plug? */
static bool loop_is(const struct xc_end_def *e)
{
	return ((const struct xc_loop_def *)
		xc_kind_def_carea(e, XC_KIND_ID_loop))->on;
}

/**
 * loop_check() - a plug has one queue pair
 * @e:		the end
 * @o:		options (unused)
 * @side:	"left" or "right"
 * @key:	filled with the key to blame
 * @keylen:	size of @key
 * @why:	what is wrong
 * @whylen:	size of @why
 *
 * Return: 0 or -EINVAL
 */
static int loop_check(const struct xc_end_def *e, const struct xc_opts *o,
		      const char *side, char *key, size_t keylen, char *why,
		      size_t whylen)
{
	(void)o;
	snprintf(key, keylen, "%s-queues", side);
	if (e->queues > 1) {
		snprintf(why, whylen, "a loopback plug has one queue pair");
		return -EINVAL;
	}
	return 0;
}

/* loop_what() - "a loopback plug" (two are never the same) */
static void loop_what(const struct xc_end_def *e, char *buf, size_t len)
{
	(void)e;
	snprintf(buf, len, "a loopback plug");
}

const struct xc_kind_def xc_kind_def_loop = {
	.name = "loop",
	.declared = "left-loop = yes (a loopback plug: the end sends every frame back)",
	.id = XC_KIND_ID_loop,
	.opts = loop_opts,
	.n_opts = sizeof(loop_opts) / sizeof(loop_opts[0]),
	.is = loop_is,
	.check = loop_check,
	.what = loop_what,
};
