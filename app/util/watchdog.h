/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * watchdog.h - a shutdown that cannot hang (watchdog.c)
 */
#ifndef XC_WATCHDOG_H
#define XC_WATCHDOG_H

#define XC_STOP_WATCHDOG_S	20	/* longest shutdown, then exit anyway */

void xc_watchdog_arm(unsigned int seconds);

#endif /* XC_WATCHDOG_H */
