/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * config.h - the INI config file: named cables, their ends and lcores
 */
#ifndef XC_CONFIG_H
#define XC_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"

int xc_config_load(const char *file, struct xc_opts *o,
		   struct xc_cable_def *defs, unsigned int max,
		   unsigned int *n_defs, char *err, size_t errlen);
int xc_config_cable(int argc, char **argv, const struct xc_opts *o,
		    struct xc_cable_def *d, char *err, size_t errlen);
int xc_config_end(int argc, char **argv, const struct xc_opts *o,
		  const char *sec, unsigned int j, struct xc_end_def *e,
		  char *err, size_t errlen);
bool xc_end_def_clash(const struct xc_end_def *a, const struct xc_end_def *b,
		      const struct xc_opts *o);
int xc_config_check(const struct xc_opts *o, const struct xc_cable_def *defs,
		    unsigned int n_defs, char *err, size_t errlen);

#endif /* XC_CONFIG_H */
