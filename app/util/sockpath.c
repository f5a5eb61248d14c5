/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sockpath.c - make sure a vhost-user socket path can be served
 *
 * The vhost library refuses to bind over an existing file, and a leftover
 * socket from a crashed run would block a restart. But xcable removes or
 * renames only what it made and can prove is still its own: a socket is
 * known by device and inode right after it is bound (struct xc_sock_id),
 * recorded in the process's run directory (sockrec.c), and before it is
 * removed or renamed the path must still hold that very file. So, before
 * a socket path is served: a socket another process serves (it answers a
 * connect) is refused; a socket nobody listens on is removed only if an
 * xcable process that ended recorded binding it; anything else, a socket
 * of somebody else's as much as a file that is not a socket, is left
 * alone, and the message names the path, says what is there and what to
 * do. A removal moves the file to a private name first, checks it there,
 * and only then unlinks it: a file put at the path between the check and
 * the removal is put back, not destroyed. A rename onto a path that may
 * hold somebody else's file never replaces it (xc_sock_rename_new()).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "bounds.h"
#include "sockid.h"
#include "sockpath.h"
#include "sockprobe.h"
#include "sockrec.h"

/**
 * look() - what is at @path, if anything
 * @path:	the path
 * @st:		filled if something is there
 * @err:	one-line message if it cannot be told
 * @errlen:	size of @err
 *
 * Return: 1 if something is there, 0 if nothing, -errno if it cannot be
 *	   told
 */
static int look(const char *path, struct stat *st, char *err, size_t errlen)
{
	int rc;

	if (lstat(path, st) == 0)
		return 1;
	if (errno == ENOENT)
		return 0;
	rc = -errno;
	snprintf(err, errlen, "cannot check '%s': %s", path, strerror(errno));
	return rc;
}

/**
 * reclaim() - remove a socket nobody listens on if an xcable process that
 *	       ended recorded binding it; leave anything else alone
 * @path:	socket path
 * @st:		what is there (lstat())
 * @err:	one-line message if it stays, naming @path, saying what is
 *		there and what to do
 * @errlen:	size of @err
 *
 * Return: 0 if it was removed, -EADDRINUSE if a process serves it,
 *	   -EEXIST if it is not xcable's (or not a socket), other -errno
 */
static int reclaim(const char *path, const struct stat *st, char *err,
		   size_t errlen)
{
	struct xc_sock_id id = {
		.dev = st->st_dev, .ino = st->st_ino, .mtime = st->st_mtim,
	};
	char who[PATH_MAX];
	int rc;

	if (!S_ISSOCK(st->st_mode)) {
		snprintf(err, errlen, "cannot create socket '%s': %s, not a socket, is in the way (left alone)",
			 path, xc_sock_what(st));
		return -EEXIST;
	}
	rc = xc_sock_probe(path);
	if (rc == 1) {
		snprintf(err, errlen, "socket '%s' is in use by another process",
			 path);
		return -EADDRINUSE;
	}
	if (rc < 0) {
		snprintf(err, errlen, "cannot check socket '%s': %s", path,
			 strerror(-rc));
		return rc;
	}
	if (!xc_sockrec_left(path, st, who, sizeof(who))) {
		snprintf(err, errlen, "cannot create socket '%s': a socket nobody listens on is there, and no xcable that ended recorded binding it: left alone (if it is a leftover nobody needs, remove it: rm '%s')",
			 path, path);
		return -EEXIST;
	}
	/* a leftover of xcable's (its record is in @who) */
	return xc_sock_unlink_own(path, &id, err, errlen);
}

/**
 * xc_sock_prepare() - check a socket path, removing what an xcable that
 *		       ended left there
 * @path:	vhost-user socket path
 * @client:	xcable connects (QEMU listens): nothing is created
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 if the path can be used, -EADDRINUSE if another process serves
 *	   it, -EEXIST if a file that is not xcable's is in the way, other
 *	   -errno if the socket cannot be created there
 */
int xc_sock_prepare(const char *path, bool client, char *err, size_t errlen)
{
	char dir[PATH_MAX], hidden[XC_SOCK_PATH_MAX], why[XC_SOCK_PATH_MAX * 3];
	struct stat st;
	int rc;

	if (strlen(path) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
		snprintf(err, errlen, "socket path '%s' is too long", path);
		return -ENAMETOOLONG;
	}
	if (client)
		return 0;

	/* the hidden name a crashed xcable left (guard.c): if its own */
	if (xc_sock_hidden(path, hidden, sizeof(hidden)) == 0 &&
	    lstat(hidden, &st) == 0)
		reclaim(hidden, &st, why, sizeof(why));
	rc = look(path, &st, err, errlen);
	if (rc > 0)
		return reclaim(path, &st, err, errlen);
	if (rc < 0)
		return rc;

	snprintf(dir, sizeof(dir), "%s", path);
	if (access(dirname(dir), W_OK | X_OK) < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot create socket '%s': %s", path,
			 strerror(errno));
		return rc;
	}
	return 0;
}

/**
 * xc_sock_group() - look up the group sockets are given
 * @name:	group name or number
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: the gid, or -ENOENT if there is no such group
 */
int xc_sock_group(const char *name, char *err, size_t errlen)
{
	struct group *g = getgrnam(name);
	char *end;
	long v;

	if (g != NULL)
		return (int)g->gr_gid;
	v = strtol(name, &end, 10);
	if (*name && *end == '\0' && v >= 0 && v < 65536)
		return (int)v;
	snprintf(err, errlen, "no group '%s'", name);
	return -ENOENT;
}

/**
 * xc_sock_owner() - look up the user sockets are given
 * @name:	user name or number
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: the uid, or -ENOENT if there is no such user
 */
int xc_sock_owner(const char *name, char *err, size_t errlen)
{
	struct passwd *pw = getpwnam(name);
	char *end;
	long v;

	if (pw != NULL)
		return (int)pw->pw_uid;
	v = strtol(name, &end, 10);
	if (*name && *end == '\0' && v >= 0 && v < 65536)
		return (int)v;
	snprintf(err, errlen, "no user '%s'", name);
	return -ENOENT;
}

/**
 * xc_sock_ids() - look up the owner and group sockets are given
 * @owner:	user name or number, NULL or empty to leave it
 * @group:	group name or number, NULL or empty to leave it
 * @uid:	set to the uid, -1 to leave it
 * @gid:	set to the gid, -1 to leave it
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -ENOENT if there is no such group or user
 */
int xc_sock_ids(const char *owner, const char *group, int *uid, int *gid,
		char *err, size_t errlen)
{
	*uid = *gid = -1;
	if (group && group[0] &&
	    (*gid = xc_sock_group(group, err, errlen)) < 0)
		return -ENOENT;
	if (owner && owner[0] &&
	    (*uid = xc_sock_owner(owner, err, errlen)) < 0)
		return -ENOENT;
	return 0;
}

/**
 * xc_sock_secure() - give a socket xcable created its mode, owner and group
 * @path:	socket path
 * @mode:	permission bits
 * @uid:	owner, or -1 to leave it
 * @gid:	group id, or -1 to leave it
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 on success, -errno on failure
 */
int xc_sock_secure(const char *path, unsigned int mode, int uid, int gid,
		   char *err, size_t errlen)
{
	int rc;

	if (((uid >= 0 || gid >= 0) &&
	     chown(path, (uid_t)uid, (gid_t)gid) < 0) ||
	    chmod(path, (mode_t)mode) < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot set owner or mode of '%s': %s",
			 path, strerror(errno));
		return rc;
	}
	return 0;
}

/**
 * xc_sock_listen_own() - create a control socket: check the path
 *			  (removing a stale leftover), bind it readable by
 *			  its owner only until it has its mode, owner and
 *			  group, listen, and record which file it is
 * @path:	socket path
 * @flags:	extra socket() type flags (SOCK_NONBLOCK), besides CLOEXEC
 * @backlog:	listen() backlog
 * @mode:	permission bits
 * @uid:	owner, or -1 to leave it
 * @gid:	group id, or -1 to leave it
 * @id:		filled with the socket's device and inode (for
 *		xc_sock_unlink_own() when it goes), or NULL
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: the listening fd, or -errno (nothing of ours is left behind)
 */
int xc_sock_listen_own(const char *path, int flags, int backlog,
		       unsigned int mode, int uid, int gid,
		       struct xc_sock_id *id, char *err, size_t errlen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct xc_sock_id own = { 0 };
	char why[256];
	mode_t old;
	int fd, rc;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "control socket path '%s' is too long",
			 path);
		return -ENAMETOOLONG;
	}
	rc = xc_sock_prepare(path, false, err, errlen);
	if (rc)
		return rc;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | flags, 0);
	if (fd < 0)
		goto fail;
	old = umask(0177);
	rc = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (rc < 0)
		goto fail;
	xc_sock_id_take(path, &own);
	if (listen(fd, backlog) < 0)
		goto fail;
	rc = xc_sock_secure(path, mode, uid, gid, err, errlen);
	if (rc) {
		close(fd);
		xc_sock_unlink_own(path, &own, why, sizeof(why));
		return rc;
	}
	if (id)
		*id = own;
	return fd;
fail:
	rc = -errno;
	snprintf(err, errlen, "control socket '%s': %s", path,
		 strerror(errno));
	if (fd >= 0)
		close(fd);
	xc_sock_unlink_own(path, &own, why, sizeof(why));
	return rc;
}

/**
 * xc_sock_listen() - xc_sock_listen_own() without the record
 * @path:	socket path
 * @flags:	extra socket() type flags (SOCK_NONBLOCK), besides CLOEXEC
 * @backlog:	listen() backlog
 * @mode:	permission bits
 * @uid:	owner, or -1 to leave it
 * @gid:	group id, or -1 to leave it
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: the listening fd, or -errno
 */
int xc_sock_listen(const char *path, int flags, int backlog,
		   unsigned int mode, int uid, int gid, char *err,
		   size_t errlen)
{
	return xc_sock_listen_own(path, flags, backlog, mode, uid, gid, NULL,
				  err, errlen);
}





/**
 * xc_sock_id_take() - record which socket is at a path, right after xcable
 *		       bound it there
 * @path:	socket path
 * @id:		filled; zeroed (nothing recorded) on error
 *
 * Return: 0, -ENOTSOCK if what is there is not a socket, other -errno
 */
int xc_sock_id_take(const char *path, struct xc_sock_id *id)
{
	struct stat st;

	memset(id, 0, sizeof(*id));
	if (lstat(path, &st) < 0)
		return -errno;
	if (!S_ISSOCK(st.st_mode))
		return -ENOTSOCK;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	id->mtime = st.st_mtim;
	xc_sockrec_bound(path, id);	/* a crash's leftover can be told */
	return 0;
}

/**
 * xc_sock_own() - does a path still hold the socket xcable made there?
 * @path:	socket path
 * @id:		what xcable recorded when it bound the socket
 * @err:	one-line message if not, naming @path and what is there (NULL
 *		if @errlen is 0)
 * @errlen:	size of @err
 *
 * Return: 1 if it does, 0 if nothing is there, -EEXIST if another file
 *	   is, other -errno if that cannot be told
 */
int xc_sock_own(const char *path, const struct xc_sock_id *id, char *err,
		size_t errlen)
{
	struct stat st;
	int rc;

	rc = look(path, &st, err, errlen);
	if (rc <= 0)
		return rc;
	if (xc_sock_id_is(&st, id))
		return 1;
	snprintf(err, errlen, "'%s' is %s, not the socket xcable made: left alone",
		 path, xc_sock_what(&st));
	return -EEXIST;
}

/**
 * xc_sock_unlink_own() - remove a socket xcable made, if the path still
 *			  holds that very socket; anything else is left. It
 *			  is moved to a private name first and checked there
 *			  again: a file put at the path between the check and
 *			  the move is put back, not removed
 * @path:	socket path
 * @id:		what xcable recorded when it bound the socket
 * @err:	one-line message on error, naming @path and what is there
 *		(NULL if @errlen is 0)
 * @errlen:	size of @err
 *
 * Return: 0 if it was removed or nothing is there, -EEXIST if another
 *	   file is there (left alone), other -errno
 */
int xc_sock_unlink_own(const char *path, const struct xc_sock_id *id,
		       char *err, size_t errlen)
{
	char aside[PATH_MAX], suffix[32];
	struct stat st;
	int rc = xc_sock_own(path, id, err, errlen);

	if (rc <= 0)
		return rc;
	snprintf(suffix, sizeof(suffix), ".rm-%d", (int)getpid());
	if (xc_sock_sibling(path, suffix, aside, sizeof(aside)))
		return -ENAMETOOLONG;
	rc = xc_sock_rename_new(path, aside);
	if (rc == -ENOENT)
		return 0;	/* gone meanwhile */
	if (rc) {
		snprintf(err, errlen, "cannot remove socket '%s': %s", path,
			 strerror(-rc));
		return rc;
	}
	if (lstat(aside, &st) == 0 && xc_sock_id_is(&st, id)) {
		if (unlink(aside) < 0 && errno != ENOENT) {
			rc = -errno;
			snprintf(err, errlen, "cannot remove socket '%s' (moved to '%s'): %s",
				 path, aside, strerror(errno));
			return rc;
		}
		xc_sockrec_gone(id);
		return 0;
	}
	/* somebody else's came at the path just now: it goes back */
	rc = xc_sock_rename_new(aside, path);
	if (rc)
		snprintf(err, errlen, "'%s' changed while it was removed: what came there is at '%s' now (%s): move it back",
			 path, aside, strerror(-rc));
	else
		snprintf(err, errlen, "'%s' changed while it was removed: left alone",
			 path);
	return -EEXIST;
}

/**
 * xc_sock_rename_new() - rename a file to a path that must be free: a
 *			  file found there is never replaced
 * @from:	current path
 * @to:		new path, in the same file system
 *
 * Return: 0, -EEXIST if @to exists, other -errno
 */
int xc_sock_rename_new(const char *from, const char *to)
{
	if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	/* a file system without RENAME_NOREPLACE: link() never replaces
	 * either (the files moved are never directories) */
	if (link(from, to) < 0)
		return -errno;
	if (unlink(from) < 0) {
		int rc = -errno;

		unlink(to);
		return rc;
	}
	return 0;
}

/**
 * xc_sock_path_chars() - can DPDK's device arguments carry a socket path?
 *			  (they are "key=value,key=value": no ',' nor '=',
 *			  and no control characters, which would reach the
 *			  log and terminals)
 * @path:	the path
 * @why:	what is wrong, on error
 * @whylen:	size of @why
 *
 * Return: 0 or -EINVAL
 */
int xc_sock_path_chars(const char *path, char *why, size_t whylen)
{
	const char *p;

	for (p = path; *p; p++) {
		if (*p == ',' || *p == '=') {
			snprintf(why, whylen, "socket path contains '%c', which DPDK device arguments cannot carry",
				 *p);
			return -EINVAL;
		}
		if ((unsigned char)*p < ' ' || *p == 0x7f) {
			snprintf(why, whylen, "socket path contains a control character");
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * xc_sock_path_fits() - is a socket path short enough for what xcable
 *			 does with it: a socket it serves is hidden under
 *			 .NAME.in-use while a VM is attached (guard.c), a
 *			 name 8 bytes longer that must fit a unix socket
 *			 address too
 * @path:	the path
 * @client:	xcable connects to it (it is never hidden)
 * @why:	what is wrong, on error
 * @whylen:	size of @why
 *
 * Return: 0 or -ENAMETOOLONG
 */
int xc_sock_path_fits(const char *path, bool client, char *why, size_t whylen)
{
	char hidden[XC_SOCK_PATH_MAX];
	size_t n = strlen(path);

	if (n >= XC_SOCK_PATH_MAX ||
	    (!client && xc_sock_hidden(path, hidden, sizeof(hidden)))) {
		snprintf(why, whylen, "socket path is %zu bytes: a socket xcable serves may have at most %d (it is hidden under .NAME.in-use, 8 more, while a VM is attached, and a unix socket's path holds %d)",
			 n, XC_SOCK_PATH_MAX - 9, XC_SOCK_PATH_MAX - 1);
		return -ENAMETOOLONG;
	}
	return 0;
}

/**
 * struct reclaim_ctx - what xc_sock_reclaim() tells of each socket
 * @say:	told of each socket removed or left alone
 * @arg:	its first argument
 */
struct reclaim_ctx {
	xc_sock_say_fn say;
	void *arg;
};

/**
 * reclaim_one() - remove one socket an ended process recorded, wherever
 *		   it can be (xc_sock_places()), if it is still there
 * @arg:	struct reclaim_ctx
 * @path:	where it was bound
 * @id:		which file it was
 */
static void reclaim_one(void *arg, const char *path,
			const struct xc_sock_id *id)
{
	char why[2 * XC_SOCK_PATH_MAX + 128];
	char where[XC_SOCK_PLACES][XC_SOCK_PATH_MAX];
	struct reclaim_ctx *c = arg;
	unsigned int k, n = xc_sock_places(path, where);
	struct stat st;
	int rc;

	for (k = 0; k < n; k++) {
		if (lstat(where[k], &st) < 0)
			continue;
		if (!xc_sock_id_is(&st, id)) {
			if (k == 0) {
				snprintf(why, sizeof(why),
					 "'%.*s' holds %s now, not the socket it bound there: left alone",
					 XC_SOCK_PATH_MAX - 1, where[k],
					 xc_sock_what(&st));
				c->say(c->arg, false, why);
			}
			continue;
		}
		rc = xc_sock_unlink_own(where[k], id, why, sizeof(why));
		if (rc == 0)
			snprintf(why, sizeof(why), "removed its socket '%.*s'",
				 XC_SOCK_PATH_MAX - 1, where[k]);
		c->say(c->arg, rc == 0, why);
	}
}

/**
 * xc_sock_reclaim() - remove the sockets a process that ended left, as
 *		       its record lists them (the supervisor, for a worker
 *		       that died); what is at their paths now and is not one
 *		       of them is left alone, and said
 * @dir:	the process's run directory
 * @say:	told of each socket removed or left alone
 * @arg:	its first argument
 */
void xc_sock_reclaim(const char *dir, xc_sock_say_fn say, void *arg)
{
	struct reclaim_ctx c = { .say = say, .arg = arg };

	xc_sockrec_each(dir, reclaim_one, &c);
}
