/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sockid.c - which file at a socket path xcable made (device, inode and
 *	      modification time right after it was bound), and the names
 *	      beside a socket's path that xcable uses; see sockid.h
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "bounds.h"
#include "sockid.h"

/* the names a socket is bound at before it takes a path NAME, after
 * .NAME, by use and then the first name or its second: a standby's
 * (xc_sock_standby()), a socket that replaces another's (xc_sock_next()) */
enum { XC_SOCK_STANDBY, XC_SOCK_NEXT, XC_SOCK_USES };
static const char *const xc_sock_before[XC_SOCK_USES][2] = {
	[XC_SOCK_STANDBY] = { ".migrate", ".migrate2" },
	[XC_SOCK_NEXT] = { ".next", ".next2" },
};

/**
 * xc_sock_sibling() - a hidden name beside a path: .NAME.SUFFIX in the
 *		       same directory
 * @path:	socket path
 * @suffix:	what follows the name, with its dot (".in-use")
 * @out:	filled with the sibling's path
 * @len:	size of @out
 *
 * Return: 0 on success, -ENAMETOOLONG if it does not fit @out
 */
int xc_sock_sibling(const char *path, const char *suffix, char *out,
		    size_t len)
{
	const char *base = strrchr(path, '/');
	size_t dirlen = base ? (size_t)(base - path) + 1 : 0;
	int n;

	base = base ? base + 1 : path;
	n = snprintf(out, len, "%.*s.%s%s", (int)dirlen, path, base, suffix);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/**
 * sibling_addr() - a hidden name beside a path that a socket can be bound
 *		    at
 * @path:	socket path
 * @suffix:	what follows the name, with its dot
 * @out:	filled with the sibling's path
 * @len:	size of @out
 *
 * Return: 0 on success, -ENAMETOOLONG if it does not fit a socket address
 */
static int sibling_addr(const char *path, const char *suffix, char *out,
			size_t len)
{
	if (xc_sock_sibling(path, suffix, out, len) ||
	    strlen(out) >= sizeof(((struct sockaddr_un *)0)->sun_path))
		return -ENAMETOOLONG;
	return 0;
}

/**
 * xc_sock_hidden() - the name a served socket has while a frontend is
 *		      attached: .NAME.in-use in the same directory
 * @path:	socket path
 * @out:	filled with the hidden path
 * @len:	size of @out
 *
 * Return: 0 on success, -ENAMETOOLONG if it does not fit a socket address
 */
int xc_sock_hidden(const char *path, char *out, size_t len)
{
	return sibling_addr(path, ".in-use", out, len);
}

/**
 * xc_sock_standby() - the name a socket for a guest's next frontend is
 *		       bound at while the guest moves to another QEMU (a
 *		       live migration on one host): .NAME.migrate in the
 *		       same directory, or .NAME.migrate2 where the first is
 *		       the name the vhost library knows the guest's own
 *		       socket by (it took over from a standby at that name)
 * @path:	the guest's socket path
 * @alt:	the second name
 * @out:	filled with the standby's path
 * @len:	size of @out
 *
 * Return: 0 on success, -ENAMETOOLONG if it does not fit a socket address
 */
int xc_sock_standby(const char *path, bool alt, char *out, size_t len)
{
	return sibling_addr(path, xc_sock_before[XC_SOCK_STANDBY][alt], out,
			    len);
}

/**
 * xc_sock_next() - the name a socket that replaces another on its path is
 *		    bound at until that one is gone (a change of the cable
 *		    it serves): .NAME.next in the same directory, or
 *		    .NAME.next2 where the first is the name the vhost
 *		    library knows the socket it replaces by
 * @path:	the socket path
 * @alt:	the second name
 * @out:	filled with the name
 * @len:	size of @out
 *
 * Return: 0 on success, -ENAMETOOLONG if it does not fit a socket address
 */
int xc_sock_next(const char *path, bool alt, char *out, size_t len)
{
	return sibling_addr(path, xc_sock_before[XC_SOCK_NEXT][alt], out, len);
}

/**
 * xc_sock_taking() - the path a socket bound at a name beside it goes to
 *		      (xc_sock_standby(), xc_sock_next()): .NAME.migrate
 *		      and the others are renamed onto NAME when they take
 *		      over, or lent it for a while
 * @bound:	where a socket was bound
 * @out:	filled with NAME's path
 * @len:	size of @out
 *
 * Return: 0, or -ENOENT if @bound is no such name
 */
int xc_sock_taking(const char *bound, char *out, size_t len)
{
	const char *base = strrchr(bound, '/'), *suffix;
	size_t dirlen = base ? (size_t)(base - bound) + 1 : 0, n, k;
	unsigned int i;

	base = base ? base + 1 : bound;
	n = strlen(base);
	for (i = 0; base[0] == '.' && i < 2 * XC_SOCK_USES; i++) {
		suffix = xc_sock_before[i / 2][i % 2];
		k = strlen(suffix);
		if (n <= k + 1 || strcmp(base + n - k, suffix))
			continue;
		if (dirlen + n - k > len)
			return -ENOENT;
		snprintf(out, len, "%.*s%.*s", (int)dirlen, bound,
			 (int)(n - k - 1), base + 1);
		return 0;
	}
	return -ENOENT;
}

/**
 * xc_sock_places() - where a socket xcable bound can be found: where it
 *		      was bound, its hidden name (guard.c); and for one
 *		      bound at a name beside a path (xc_sock_taking()),
 *		      that path, which it is lent or renamed onto, and its
 *		      hidden name (a process killed before it recorded the
 *		      rename, or while it lent the path, leaves it there)
 * @bound:	where it was bound
 * @out:	filled with the paths
 *
 * Return: how many
 */
unsigned int xc_sock_places(const char *bound,
			    char out[XC_SOCK_PLACES][XC_SOCK_PATH_MAX])
{
	unsigned int n = 0;

	snprintf(out[n++], XC_SOCK_PATH_MAX, "%s", bound);
	if (xc_sock_hidden(bound, out[n], XC_SOCK_PATH_MAX) == 0)
		n++;
	if (xc_sock_taking(bound, out[n], XC_SOCK_PATH_MAX) == 0) {
		n++;
		if (xc_sock_hidden(out[n - 1], out[n], XC_SOCK_PATH_MAX) == 0)
			n++;
	}
	return n;
}

/**
 * xc_sock_id_is() - is a file the socket a record names?
 * @st:		the file, from lstat()
 * @id:		the record
 *
 * Return: true if so; false for any file when nothing was recorded
 */
bool xc_sock_id_is(const struct stat *st, const struct xc_sock_id *id)
{
	return id->ino != 0 && S_ISSOCK(st->st_mode) &&
	       st->st_dev == id->dev && st->st_ino == id->ino &&
	       st->st_mtim.tv_sec == id->mtime.tv_sec &&
	       st->st_mtim.tv_nsec == id->mtime.tv_nsec;
}

/**
 * xc_sock_what() - what kind of file something is, for messages
 * @st:		the file, from lstat()
 *
 * Return: "a regular file", "a directory", ... (static text)
 */
const char *xc_sock_what(const struct stat *st)
{
	switch (st->st_mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "a directory";
	case S_IFLNK:
		return "a symbolic link";
	case S_IFIFO:
		return "a FIFO";
	case S_IFCHR:
	case S_IFBLK:
		return "a device node";
	case S_IFSOCK:
		return "a socket xcable did not make";
	}
	return "a file of unknown type";
}
