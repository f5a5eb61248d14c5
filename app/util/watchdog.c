/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * watchdog.c - a shutdown that cannot hang
 *
 * Freeing ports, pools and capture at exit takes DPDK's shared memory
 * lock. A secondary process (dpdk-dumpcap) that dies in its own start-up
 * can leave that lock held for ever (seen: a dumpcap that could not map
 * the primary's memory and crashed), and xcable would then never exit:
 * a service manager would have to kill it, a script waiting for it would
 * wait for ever. So the shutdown runs under an alarm: if it is not done
 * in time, xcable says why and exits with status 1. The final counters
 * are printed before what may hang.
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "watchdog.h"

/* on_alarm() - the shutdown took too long: say so, exit (async-safe) */
static void on_alarm(int sig)
{
	static const char msg[] =
		"xcable: the shutdown has not finished in time: DPDK's shared "
		"memory lock is held, by a process that died holding it (a "
		"capture, dpdk-dumpcap, that crashed?): exiting without "
		"finishing it (status 1)\n";
	ssize_t n;

	(void)sig;
	n = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)n;
	_exit(1);
}

/**
 * xc_watchdog_arm() - exit if the shutdown is not done within @seconds
 * @seconds:	how long it may take
 */
void xc_watchdog_arm(unsigned int seconds)
{
	signal(SIGALRM, on_alarm);
	alarm(seconds);
}
