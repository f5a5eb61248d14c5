/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * extcap.h - Wireshark's extcap interface: every cable end of every
 *	      xcable this user reaches, as capture interfaces (extcap.c)
 */
#ifndef XC_EXTCAP_H
#define XC_EXTCAP_H

#include <stdbool.h>

bool xc_extcap_asked(int argc, char **argv);
int xc_extcap_main(int argc, char **argv);

#endif /* XC_EXTCAP_H */
