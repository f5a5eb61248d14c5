/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * logrl.h - a log that nobody outside can flood
 *
 * Much of what xcable logs is caused by someone else: a guest that
 * connects and leaves, a second frontend on a socket in use, a client
 * that never finishes its request, a frontend whose messages DPDK's vhost
 * library complains about. Each of them can do it again, thousands of
 * times a second, and each line would reach the disk.
 *
 * So every line goes through one filter, put between rte_log and the
 * stream the EAL writes to (its console and syslog). A line belongs to a
 * source:
 *  - xcable's own messages that someone else can repeat are logged with
 *    XC_LOG_FROM(SOURCE, ...): the source is that message (its format)
 *    from that SOURCE (a socket path, a cable, a control socket);
 *  - a line of DPDK's libraries is its own source, by its text (which
 *    names the socket or port it is about);
 *  - xcable's other lines (what the operator did, start and stop) and
 *    every DEBUG line (asked for) pass unlimited.
 * Each source may log XC_LOGRL_BURST lines per XC_LOGRL_WINDOW_S seconds;
 * what it logs beyond is held back and counted, and once its window has
 * ended one line says how many were held back and the last of them:
 *
 *   xcable: 19990 more like this in the last 10 s: left: refused a ...
 *
 * Nothing is lost silently: the sum of lines logged and held back is
 * what happened. Counters (xcablectl list, telemetry) count every event
 * whatever the log says.
 *
 * The filter is thread-safe: every thread may log. The main thread's
 * housekeeping calls xc_logrl_tick() so that what a burst held back is
 * said even when the burst stopped.
 */
#ifndef XC_LOGRL_H
#define XC_LOGRL_H

#include "log.h"

#define XC_LOGRL_WINDOW_S	10	/* each source's window */
#define XC_LOGRL_BURST		10	/* lines a source may log per window */
#define XC_LOGRL_SOURCES	256	/* sources followed at once */

int xc_logrl_init(void);
void xc_logrl_tick(void);
void xc_logrl_fini(void);
void xc_logrl_from(const char *source, const char *what);

/*
 * XC_LOG_FROM() - XC_LOG() for a message that someone else can make
 * xcable repeat: limited per (message, @source)
 */
#define XC_LOG_FROM(source, type, level, fmt, ...)                           \
	do {                                                                 \
		xc_logrl_from((source), fmt);                                \
		XC_LOG(type, level, fmt, ##__VA_ARGS__);                     \
		xc_logrl_from(NULL, NULL);                                   \
	} while (0)

#endif /* XC_LOGRL_H */
