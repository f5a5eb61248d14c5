/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * log.h - one rte_log type per xcable module
 *
 * Each module logs through its own type ("xcable.port", "xcable.fwd", ...),
 * so that an operator can raise one of them with
 * --log-level=xcable.port:debug without drowning in the others.
 */
#ifndef XC_LOG_H
#define XC_LOG_H

#include <rte_log.h>

extern int xc_logtype_main;
extern int xc_logtype_port;
extern int xc_logtype_fwd;
extern int xc_logtype_stats;
extern int xc_logtype_capture;
extern int xc_logtype_guard;
extern int xc_logtype_control;
extern int xc_logtype_memguard;
extern int xc_logtype_super;
extern int xc_logtype_pool;
extern int xc_logtype_ctlsrv;
extern int xc_logtype_fault;

#define XC_LOG(type, level, fmt, ...)                                        \
	rte_log(RTE_LOG_##level, xc_logtype_##type, "xcable: " fmt "\n",     \
		##__VA_ARGS__)

#endif /* XC_LOG_H */
