/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * kinddef.c - the table of how each kind of end is declared (kinddef.h),
 *	       made from endkinds.def
 */
#include <assert.h>
#include <stddef.h>

#include "kinddef.h"

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
