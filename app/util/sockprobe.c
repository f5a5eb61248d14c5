/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sockprobe.c - is a process listening on a unix socket path?
 *
 * A socket file outlives the process that bound it (one killed leaves its
 * file), so finding the file proves nothing: a connect does. The connect
 * never waits: a listener whose backlog is full is still a live one. The
 * connection is closed at once without a byte; xcable's control server
 * and the vhost library take that quietly.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "sockprobe.h"

/**
 * xc_sock_probe() - tell whether a process accepts connections on a socket
 * @path:	socket path
 *
 * Return: 1 if live, 0 if stale (connection refused),
 *	   -errno if it cannot be told
 */
int xc_sock_probe(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, rc;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	rc = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	if (rc == 0 || errno == EAGAIN || errno == EINPROGRESS)
		rc = 1;
	else if (errno == ECONNREFUSED)
		rc = 0;
	else
		rc = -errno;
	close(fd);
	return rc;
}
