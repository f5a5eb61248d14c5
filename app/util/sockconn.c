/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sockconn.c - the connections this process has through a unix socket:
 *		those accepted on a socket bound at a path, or made to a
 *		path
 *
 * A library may accept or make connections in this process without
 * telling (DPDK's vhost library does, on its own thread): they are found
 * among the process's fds. An accepted unix socket has the address its
 * listening socket was bound at, whatever the file is called now (a
 * rename keeps the socket, not its name), so the path is the one it was
 * bound at; a connection made to a path has that path as its peer's
 * address. One pass over /proc/self/fd, a few system calls per socket.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "sockconn.h"

/**
 * through() - is an fd a connected unix stream socket whose own address
 *	       (@accepted) or peer's is @path?
 * @fd:		the fd
 * @path:	the address
 * @accepted:	look at its own address (accepted on a socket bound at
 *		@path), else at its peer's (connected to @path)
 *
 * Return: true if so
 */
static bool through(int fd, const char *path, bool accepted)
{
	struct sockaddr_un sa;
	socklen_t len = sizeof(sa);
	int v = 0;
	socklen_t vlen = sizeof(v);
	struct stat st;

	if (fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode))
		return false;
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &v, &vlen) < 0 ||
	    v != AF_UNIX)
		return false;
	vlen = sizeof(v);
	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &v, &vlen) < 0 || v)
		return false;	/* a listening socket */
	memset(&sa, 0, sizeof(sa));
	if ((accepted ? getsockname(fd, (struct sockaddr *)&sa, &len) :
			getpeername(fd, (struct sockaddr *)&sa, &len)) < 0 ||
	    len <= offsetof(struct sockaddr_un, sun_path))
		return false;
	return strncmp(sa.sun_path, path, sizeof(sa.sun_path)) == 0;
}

/**
 * xc_sock_conns() - how many connections of this process go through a
 *		     unix socket path
 * @path:	the path: where a listening socket was bound (@accepted),
 *		or where connections were made to
 * @accepted:	count the connections accepted on a socket bound at @path,
 *		else those made to @path
 *
 * Return: how many, or -errno if the process's fds cannot be read
 */
int xc_sock_conns(const char *path, bool accepted)
{
	struct dirent *e;
	int n = 0, self;
	DIR *d;

	d = opendir("/proc/self/fd");
	if (d == NULL)
		return -errno;
	self = dirfd(d);
	while ((e = readdir(d)) != NULL) {
		char *end;
		long fd = strtol(e->d_name, &end, 10);

		if (*end || end == e->d_name || fd == self)
			continue;
		n += through((int)fd, path, accepted);
	}
	closedir(d);
	return n;
}
