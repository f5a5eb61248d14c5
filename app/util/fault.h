/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fault.h - failures on purpose, for the tests of what a runtime change
 *	     that fails half-way leaves behind (XCABLE_FAULT)
 */
#ifndef XC_FAULT_H
#define XC_FAULT_H

#include <stdbool.h>
#include <stddef.h>

bool xc_fault(const char *what, const char *name, char *err, size_t errlen);

#endif /* XC_FAULT_H */
