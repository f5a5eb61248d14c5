/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vhost_wake.c - have the vhost library take a new socket's first guest
 *		  at once
 *
 * Theory of operation: DPDK 22.11's vhost library serves every vhost-user
 * socket from one thread, "vhost-events" (lib/vhost/fd_man.c,
 * fdset_event_dispatch()), which waits in poll() for at most a second on
 * the fds it had when the wait began. A socket bound while it waits (a
 * cable added, changed or plugged in at runtime, a migration's standby)
 * is not among them: vhost_user_start_server() adds the listening fd with
 * fdset_add() alone, and only a new connection wakes the thread, through
 * the fdset's pipe. So a guest that connected at once was answered only
 * when that wait ran out: 765-920 ms after `xcablectl add`, measured on
 * every kind of cable of the runtime-change matrix.
 *
 * xc_vhost_wake() sends that thread a signal whose handler does nothing:
 * poll() returns EINTR, which the library's loop takes as "poll again"
 * (`if (val < 0) continue;`), now with the new fd. The handler is
 * installed with SA_RESTART, so a read or write the thread is in (a
 * vhost-user message, a callback's eventfd) goes on as if nothing had
 * happened. The thread is found by its name in /proc/self/task; where it
 * is not there (no socket started yet, or a DPDK that names it otherwise)
 * nothing is sent, and the library's own second applies, as before.
 *
 * Only the control thread calls this (after a port's socket is bound),
 * so the cached thread id needs no lock.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "vhost_wake.h"

#define XC_VHOST_THREAD	"vhost-events"
/* a real-time signal nothing else in xcable or DPDK uses */
#define XC_VHOST_WAKE_SIG	(SIGRTMIN + 7)

/* the vhost library's event thread, 0 if not found yet; and whether the
 * handler is in (both written by the control thread only) */
static pid_t xc_vhost_tid;
static bool xc_vhost_armed;

/* on_wake() - nothing: the signal is there to end a poll() (async-safe) */
static void on_wake(int sig)
{
	(void)sig;
}

/**
 * find_thread() - the thread of this process named @name
 * @name:	its name, as in /proc/self/task/TID/comm
 *
 * Return: its thread id, or 0 if there is none
 */
static pid_t find_thread(const char *name)
{
	char path[300], comm[32];
	struct dirent *d;
	pid_t tid = 0;
	DIR *dir;
	FILE *f;

	dir = opendir("/proc/self/task");
	if (!dir)
		return 0;
	while (!tid && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
			 d->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = '\0';
			if (!strcmp(comm, name))
				tid = (pid_t)atoi(d->d_name);
		}
		fclose(f);
	}
	closedir(dir);
	return tid;
}

/**
 * xc_vhost_wake() - end the vhost event thread's present wait, so that it
 *		     polls a socket bound since it began
 *
 * Return: 0 if the thread was signalled, -ESRCH if there is no such thread
 *	   (nothing to wake), other -errno if the signal could not be sent
 */
int xc_vhost_wake(void)
{
	struct sigaction sa;
	int again;

	if (!xc_vhost_armed) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_wake;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		if (sigaction(XC_VHOST_WAKE_SIG, &sa, NULL) < 0)
			return -errno;
		xc_vhost_armed = true;
	}
	/* the thread lives as long as the process; look again only if the
	 * one found is gone */
	for (again = 0; again < 2; again++) {
		if (!xc_vhost_tid)
			xc_vhost_tid = find_thread(XC_VHOST_THREAD);
		if (!xc_vhost_tid)
			return -ESRCH;
		if (syscall(SYS_tgkill, getpid(), xc_vhost_tid,
			    XC_VHOST_WAKE_SIG) == 0)
			return 0;
		if (errno != ESRCH)
			return -errno;
		xc_vhost_tid = 0;
	}
	return -ESRCH;
}
