/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * parse.h - the values every parser of xcable reads (parse.c)
 */
#ifndef XC_PARSE_H
#define XC_PARSE_H

#include <stdbool.h>
#include <stdint.h>

int xc_parse_uint(const char *s, unsigned long min, unsigned long max,
		  unsigned long *out);
int xc_parse_mode(const char *s, unsigned int *out);
int xc_parse_bool(const char *s, bool *out);
int xc_parse_time_us(const char *s, uint64_t max_us, uint64_t *out);

#endif /* XC_PARSE_H */
