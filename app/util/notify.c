/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * notify.c - telling a service manager that xcable is ready, reloading or
 *	      stopping: systemd's notification protocol (sd_notify(3)), one
 *	      datagram of "KEY=VALUE" lines to the unix socket named by
 *	      $NOTIFY_SOCKET (a path, or '@' for the abstract namespace),
 *	      written here so that xcable needs no libsystemd
 *
 * Without $NOTIFY_SOCKET (not started by a service manager that asked for
 * it) nothing is sent. A service manager that does not answer costs
 * nothing: the datagram is sent non-blocking and a failure only logged.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "log.h"
#include "notify.h"

/**
 * xc_notify() - send a state to the service manager, if there is one
 * @state:	"READY=1", "RELOADING=1", "STOPPING=1", "STATUS=...", one or
 *		more lines
 *
 * Return: 1 if sent, 0 if there is no service manager to tell, -errno
 */
int xc_notify(const char *state)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	socklen_t len;
	int fd, rc = 1;

	if (path == NULL || (path[0] != '/' && path[0] != '@') ||
	    strlen(path) >= sizeof(sa.sun_path))
		return 0;
	memcpy(sa.sun_path, path, strlen(path));
	if (path[0] == '@')
		sa.sun_path[0] = '\0';	/* the abstract namespace */
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
			  strlen(path));
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || sendto(fd, state, strlen(state), MSG_NOSIGNAL,
			     (struct sockaddr *)&sa, len) < 0) {
		rc = -errno;
		XC_LOG(main, WARNING, "cannot tell the service manager %.*s (NOTIFY_SOCKET %s): %s",
		       (int)strcspn(state, "\n"), state, path,
		       strerror(-rc));
	}
	if (fd >= 0)
		close(fd);
	return rc;
}
