/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * kinddef.c - the table of how each kind of end is declared (kinddef.h),
 *	       made from endkinds.def, and the kinds' parts of end
 *	       definitions and options
 */
#include <assert.h>
#include <stddef.h>

#include "kinddef.h"
#include "options.h"

const struct xc_kind_def *const xc_kind_defs[XC_N_END_KINDS] = {
#define XC_END_KIND(name) &xc_kind_def_##name,
#include "endkinds.def"
#undef XC_END_KIND
};

/**
 * xc_kind_def_of() - the kind an end definition declares
 * @e:		the definition
 *
 * Return: the kind, or NULL if it declares none (config.c refuses such a
 *	   definition before anything is made of it)
 */
const struct xc_kind_def *xc_kind_def_of(const struct xc_end_def *e)
{
	unsigned int k;

	for (k = 0; k < XC_N_END_KINDS; k++)
		if (xc_kind_defs[k]->is(e))
			return xc_kind_defs[k];
	return NULL;
}

/**
 * xc_kind_def_area() - a kind's own part of an end definition, where the
 *			values of its XC_OPT_END rows go
 * @e:		the definition
 * @k:		the kind
 *
 * Return: XC_KIND_DEF_MAX bytes, laid out by a struct of the kind's
 */
void *xc_kind_def_area(struct xc_end_def *e, enum xc_kind_id k)
{
	return e->kind[k];
}

/* xc_kind_def_carea() - xc_kind_def_area() of a definition read only */
const void *xc_kind_def_carea(const struct xc_end_def *e, enum xc_kind_id k)
{
	return e->kind[k];
}

/**
 * xc_kind_opts_area() - a kind's own part of the options, where the
 *			 values of its command line and [global] rows go
 * @o:		the options
 * @k:		the kind
 *
 * Return: XC_KIND_OPTS_MAX bytes, laid out by a struct of the kind's
 */
void *xc_kind_opts_area(struct xc_opts *o, enum xc_kind_id k)
{
	return o->kind[k];
}

/* xc_kind_opts_carea() - xc_kind_opts_area() of options read only */
const void *xc_kind_opts_carea(const struct xc_opts *o, enum xc_kind_id k)
{
	return o->kind[k];
}
