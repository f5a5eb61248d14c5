/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * guard.c - one frontend per vhost-user socket
 *
 * The vhost library accepts any number of connections on a server socket,
 * and the vhost PMD gives its port to whichever frontend finished setting
 * up last: a second VM started on the same socket by mistake would cut the
 * first one off. So, once a frontend is attached (link up), the served
 * socket is renamed to a hidden name in the same directory (.NAME.in-use)
 * and a decoy socket listens on the public path. The decoy accepts, logs
 * who knocked, and closes: the second frontend sees the connection end at
 * once, and the cable never notices. When the frontend goes (link down),
 * the served socket is renamed back over the decoy, atomically, so QEMU's
 * reconnect finds it again. The rename keeps the listening socket: a unix
 * socket is found by its inode, whatever its name.
 *
 * Only xcable's own files move: the served socket and the decoy are known
 * by the device and inode recorded when they were bound (struct
 * xc_sock_id), checked right before each rename. A file somebody else put
 * at the hidden name is never replaced (the socket then stays where it
 * is, unguarded, and the log says why), nor one put on the public path
 * while the decoy was there (the socket then stays hidden: frontends
 * cannot reconnect, and the log says so).
 *
 * Left: a frontend that connects in the milliseconds between the first
 * one's connect and its link coming up still reaches the served socket.
 *
 * A guest that moves to another QEMU (a live migration on one host) has
 * its device stopped for a while, and its next frontend must reach a
 * standby port rather than this one: while it moves the guard is pinned
 * (the socket stays hidden whatever the link says, xc_guard_pin()), and
 * for the time the migration's slot is open the public path holds the
 * standby port's socket instead of the decoy (xc_guard_lend(), renamed
 * over the decoy, and back again once one frontend came).
 */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_log.h>

#include "guard.h"
#include "log.h"
#include "logrl.h"
#include "sockpath.h"
#include "sockrec.h"

RTE_LOG_REGISTER(xc_logtype_guard, xcable.guard, INFO);

static void turn_away(struct xc_guard *g, const char *label);
static void give_back(struct xc_guard *g, const char *label);

/* turn_away_now() - xc_wake fn: turn away who connected to the decoy */
static void turn_away_now(void *arg)
{
	struct xc_guard *g = arg;

	turn_away(g, g->label);
}

/**
 * xc_guard_init() - prepare the guard of a vhost server socket
 * @g:		guard
 * @path:	socket path
 * @mode:	permission bits for the decoy
 * @uid:	owner for the decoy, -1 to leave it
 * @gid:	group for the decoy, -1 to leave it
 * @set:	epoll set for the decoy (see struct xc_guard), or -1
 * @label:	the port's label
 *
 * Return: 0 on success, -ENAMETOOLONG if the hidden name does not fit
 *	   (the guard then stays off)
 */
int xc_guard_init(struct xc_guard *g, const char *path, unsigned int mode,
		  int uid, int gid, int set, const char *label)
{
	pthread_mutex_destroy(&g->lock);	/* a port plugged in again */
	pthread_mutex_init(&g->lock, NULL);
	g->decoy = -1;
	g->mode = mode;
	g->uid = uid;
	g->gid = gid;
	g->set = set;
	g->wake = (struct xc_wake){ .fn = turn_away_now, .arg = g };
	snprintf(g->label, sizeof(g->label), "%s", label);
	g->enabled = false;
	g->pinned = false;
	g->lent = false;
	memset(&g->sock, 0, sizeof(g->sock));
	memset(&g->decoy_id, 0, sizeof(g->decoy_id));
	snprintf(g->path, sizeof(g->path), "%s", path);
	if (xc_sock_hidden(path, g->hidden, sizeof(g->hidden)))
		return -ENAMETOOLONG;
	g->enabled = true;
	return 0;
}

/**
 * xc_guard_own() - tell the guard which socket it guards: the one the
 *		    port bound, recorded right after it was bound
 * @g:		guard
 * @sock:	the served socket
 */
void xc_guard_own(struct xc_guard *g, const struct xc_sock_id *sock)
{
	pthread_mutex_lock(&g->lock);
	g->sock = *sock;
	pthread_mutex_unlock(&g->lock);
}

/**
 * listen_decoy() - listen on a path with the given mode and group
 * @g:		guard
 *
 * Return: the listening socket, or -errno
 */
static int listen_decoy(struct xc_guard *g)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char err[128];
	mode_t old;
	int fd, rc;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	strcpy(sa.sun_path, g->path);
	old = umask(0177);
	rc = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (rc == 0) {
		xc_sock_id_take(g->path, &g->decoy_id);
		rc = listen(fd, 8);
	}
	if (rc < 0) {
		rc = -errno;
		close(fd);
		xc_sock_unlink_own(g->path, &g->decoy_id, err, sizeof(err));
		return rc;
	}
	rc = xc_sock_secure(g->path, g->mode, g->uid, g->gid, err,
			    sizeof(err));
	if (rc) {
		close(fd);
		xc_sock_unlink_own(g->path, &g->decoy_id, err, sizeof(err));
		return rc;
	}
	return fd;
}

/**
 * hide() - move the served socket to its hidden name: only the socket the
 *	    port bound, and never over a file already there (lock held)
 * @g:		guard
 * @label:	port label, for messages
 *
 * Return: 0 if hidden, else -errno (logged)
 */
static int hide(struct xc_guard *g, const char *label)
{
	char why[2 * XC_SOCK_PATH_MAX + 96];
	struct stat st;
	int rc;

	rc = xc_sock_own(g->path, &g->sock, why, sizeof(why));
	if (rc == 0) {
		snprintf(why, sizeof(why), "it is gone");
		rc = -ENOENT;
	} else if (rc == 1) {
		rc = xc_sock_rename_new(g->path, g->hidden);
		if (rc == -EEXIST && lstat(g->hidden, &st) == 0)
			snprintf(why, sizeof(why),
				 "%s is %s, not xcable's, and is left alone",
				 g->hidden, xc_sock_what(&st));
		else if (rc)
			snprintf(why, sizeof(why), "%s", strerror(-rc));
	}
	if (rc)
		XC_LOG_FROM(g->path, guard, WARNING,
		       "%s: cannot hide %s while in use (%s): a second frontend could take the port over",
		       label, g->path, why);
	return rc;
}

/**
 * put_decoy() - listen on the public path, and wait on the decoy in the
 *		 main thread's set (lock held)
 * @g:		guard, its served socket hidden
 * @label:	port label, for messages
 *
 * Return: the decoy, or -errno (logged: the path is free then)
 */
static int put_decoy(struct xc_guard *g, const char *label)
{
	int fd;

	fd = listen_decoy(g);
	if (fd < 0) {
		XC_LOG_FROM(g->path, guard, WARNING,
		       "%s: cannot listen on %s while in use (%s): other frontends see no socket there",
		       label, g->path, strerror(-fd));
		/* the path is free: later attempts simply fail to connect */
		g->decoy = -2;
		return fd;
	}
	g->decoy = fd;
	if (__atomic_load_n(&g->set, __ATOMIC_RELAXED) >= 0) {
		struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &g->wake };

		/* closing the decoy takes it out of the set again */
		if (epoll_ctl(g->set, EPOLL_CTL_ADD, fd, &ev) < 0) {
			XC_LOG(guard, WARNING,
			       "%s: cannot wait on the decoy (%s): it is polled",
			       label, strerror(errno));
			__atomic_store_n(&g->set, -1, __ATOMIC_RELAXED);
		}
	}
	return fd;
}

/**
 * xc_guard_attach() - a frontend is attached: hide the served socket and
 *		       put the decoy in its place
 * @g:		guard
 * @label:	port label, for messages
 */
void xc_guard_attach(struct xc_guard *g, const char *label)
{
	int fd;

	pthread_mutex_lock(&g->lock);
	if (!g->enabled || g->decoy >= 0 || g->lent || hide(g, label))
		goto out;
	fd = put_decoy(g, label);
	if (fd < 0)
		goto out;
	XC_LOG(guard, DEBUG, "%s: %s in use, other frontends are refused",
	       label, g->path);
out:
	pthread_mutex_unlock(&g->lock);
}

/**
 * restore() - put the served socket back on its path (lock held)
 * @g:		guard
 * @label:	port label, for messages
 */
static void restore(struct xc_guard *g, const char *label)
{
	char why[2 * XC_SOCK_PATH_MAX + 96];
	struct stat st;
	int rc;

	if (g->decoy == -1)
		return;
	if (g->decoy >= 0)
		close(g->decoy);
	g->decoy = -1;
	rc = xc_sock_own(g->hidden, &g->sock, why, sizeof(why));
	if (rc == 1) {
		/* over the decoy (checked right before), replacing it in one
		 * step; onto nothing otherwise: never over another file */
		if (lstat(g->path, &st) == 0 &&
		    xc_sock_id_is(&st, &g->decoy_id)) {
			rc = rename(g->hidden, g->path) < 0 ? -errno : 0;
			if (rc == 0)	/* the decoy is no more */
				xc_sockrec_gone(&g->decoy_id);
		} else
			rc = xc_sock_rename_new(g->hidden, g->path);
		if (rc == -EEXIST && lstat(g->path, &st) == 0)
			snprintf(why, sizeof(why),
				 "%s is there now, not xcable's, and is left alone; the socket stays at %s",
				 xc_sock_what(&st), g->hidden);
		else if (rc)
			snprintf(why, sizeof(why), "%s", strerror(-rc));
	} else {
		if (rc == 0)
			snprintf(why, sizeof(why), "%s is gone", g->hidden);
		rc = -ENOENT;
		/* the decoy, closed, is of no use to anybody */
		xc_sock_unlink_own(g->path, &g->decoy_id, NULL, 0);
	}
	if (rc)
		XC_LOG_FROM(g->path, guard, ERR, "%s: cannot put %s back (%s): frontends cannot reconnect",
		       label, g->path, why);
	memset(&g->decoy_id, 0, sizeof(g->decoy_id));
}

/**
 * xc_guard_detach() - the frontend went: serve the public path again
 * @g:		guard
 * @label:	port label, for messages
 */
void xc_guard_detach(struct xc_guard *g, const char *label)
{
	pthread_mutex_lock(&g->lock);
	if (!g->pinned)
		restore(g, label);
	pthread_mutex_unlock(&g->lock);
}

/**
 * turn_away() - accept and close whoever connected to the decoy, and log
 *		 it (main thread)
 * @g:		guard
 * @label:	port label, for messages
 */
static void turn_away(struct xc_guard *g, const char *label)
{
	struct ucred cr;
	socklen_t len;
	int fd;

	if (pthread_mutex_trylock(&g->lock))
		return;
	while (g->decoy >= 0 &&
	       (fd = accept4(g->decoy, NULL, NULL, SOCK_CLOEXEC)) >= 0) {
		len = sizeof(cr);
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0)
			cr.pid = 0, cr.uid = (uid_t)-1;
		close(fd);
		__atomic_fetch_add(&g->refused, 1, __ATOMIC_RELAXED);
		XC_LOG_FROM(g->path, guard, WARNING,
		       "%s: refused a second frontend on %s (pid %d, uid %d): the socket is in use, the cable stays with the first",
		       label, g->path, (int)cr.pid, (int)cr.uid);
	}
	/* an accept that fails otherwise (no fd left: EMFILE) leaves the
	 * decoy readable: out of the set, so that the main thread does not
	 * wake for it again and again; it is polled from now on */
	if (g->decoy >= 0 && errno != EAGAIN && errno != EWOULDBLOCK &&
	    errno != EINTR && __atomic_load_n(&g->set, __ATOMIC_RELAXED) >= 0) {
		XC_LOG(guard, WARNING,
		       "%s: cannot turn away a second frontend on %s (%s): looking again every %d ms",
		       label, g->path, strerror(errno), XC_GUARD_POLL_MS);
		epoll_ctl(g->set, EPOLL_CTL_DEL, g->decoy, NULL);
		__atomic_store_n(&g->set, -1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&g->lock);
}

/**
 * xc_guard_poll() - for a guard without a set: turn away whoever
 *		     connected to the decoy; does nothing if the last look
 *		     was under XC_GUARD_POLL_MS ago (main thread)
 * @g:		guard
 * @label:	port label, for messages
 */
void xc_guard_poll(struct xc_guard *g, const char *label)
{
	uint64_t now = rte_get_tsc_cycles();

	if (__atomic_load_n(&g->set, __ATOMIC_RELAXED) >= 0 ||
	    now < g->next_poll)
		return;
	g->next_poll = now + rte_get_tsc_hz() / 1000 * XC_GUARD_POLL_MS;
	turn_away(g, label);
}

/**
 * xc_guard_close() - at exit: restore the path so the PMD can remove it
 *		      (a socket that cannot go back is removed from its
 *		      hidden name), and stay off from now on
 * @g:		guard
 * @label:	port label, for messages
 */
void xc_guard_close(struct xc_guard *g, const char *label)
{
	char why[2 * XC_SOCK_PATH_MAX + 96];

	pthread_mutex_lock(&g->lock);
	if (g->lent)
		give_back(g, label);
	restore(g, label);
	if (g->enabled)		/* nothing but our own socket goes */
		xc_sock_unlink_own(g->hidden, &g->sock, why, sizeof(why));
	g->enabled = false;
	pthread_mutex_unlock(&g->lock);
}

/**
 * xc_guard_pin() - keep the served socket hidden (and the decoy up) while
 *		    the guest's device is stopped, or follow the frontend
 *		    again
 * @g:		guard
 * @on:		pin (true) or unpin
 * @attached:	a frontend is attached now: unpinned, the socket stays
 *		hidden; else it goes back on its path
 * @label:	port label, for messages
 */
void xc_guard_pin(struct xc_guard *g, bool on, bool attached,
		  const char *label)
{
	pthread_mutex_lock(&g->lock);
	g->pinned = on;
	if (!on && !attached && !g->lent)
		restore(g, label);
	pthread_mutex_unlock(&g->lock);
}

/**
 * xc_guard_lend() - let another port's socket take the decoy's place on
 *		     the public path, for the guest's next frontend: renamed
 *		     over the decoy in one step, so that the path is never
 *		     empty
 * @g:		guard, its served socket hidden and the decoy up
 * @home:	where the other socket is now, and goes back to
 * @id:		its record
 * @label:	port label, for messages
 *
 * Return: 0, -EBUSY if the guard has no decoy up (no frontend attached,
 *	   or the guard is off), or -errno of the rename
 */
int xc_guard_lend(struct xc_guard *g, const char *home,
		  const struct xc_sock_id *id, const char *label)
{
	char why[2 * XC_SOCK_PATH_MAX + 96];
	struct stat st;
	int rc = -EBUSY;

	pthread_mutex_lock(&g->lock);
	if (!g->enabled || g->decoy < 0 || g->lent ||
	    lstat(g->path, &st) < 0 || !xc_sock_id_is(&st, &g->decoy_id))
		goto out;
	rc = xc_sock_own(home, id, why, sizeof(why));
	if (rc == 1)
		rc = rename(home, g->path) < 0 ? -errno : 0;
	else
		rc = rc ? rc : -ENOENT;
	if (rc)
		goto out;
	close(g->decoy);	/* who knocked meanwhile sees it close */
	g->decoy = -1;
	xc_sockrec_gone(&g->decoy_id);
	memset(&g->decoy_id, 0, sizeof(g->decoy_id));
	g->lent = true;
	/* what a crash leaves there is known as xcable's (sockrec.c) */
	xc_sockrec_bound(g->path, id);
	snprintf(g->lent_home, sizeof(g->lent_home), "%s", home);
	g->lent_id = *id;
	XC_LOG(guard, DEBUG, "%s: %s lent to the guest's next frontend",
	       label, g->path);
out:
	pthread_mutex_unlock(&g->lock);
	return rc;
}

/**
 * give_back() - the lent socket goes back home, and the decoy back on the
 *		 public path (lock held)
 * @g:		guard, lent
 * @label:	port label, for messages
 */
static void give_back(struct xc_guard *g, const char *label)
{
	struct stat st;
	int rc = 0;

	g->lent = false;
	/* only that socket, and only onto nothing */
	if (lstat(g->path, &st) == 0 && xc_sock_id_is(&st, &g->lent_id))
		rc = xc_sock_rename_new(g->path, g->lent_home);
	if (rc)
		XC_LOG(guard, ERR, "%s: cannot take the socket lent on %s back to %s (%s)",
		       label, g->path, g->lent_home, strerror(-rc));
	if (rc == 0 && lstat(g->path, &st) < 0)
		put_decoy(g, label);
}

/**
 * xc_guard_unlend() - the guest's next frontend came (or none will): the
 *		       lent socket goes back home, and the decoy turns
 *		       away any other again
 * @g:		guard
 * @label:	port label, for messages
 */
void xc_guard_unlend(struct xc_guard *g, const char *label)
{
	pthread_mutex_lock(&g->lock);
	if (g->lent)
		give_back(g, label);
	pthread_mutex_unlock(&g->lock);
}

/**
 * xc_guard_arm() - guard a standby's socket from now on: its frontend
 *		    came, and the socket is hidden at once, before that
 *		    frontend's link comes up
 * @g:		guard, off until now
 * @label:	port label, for messages
 */
void xc_guard_arm(struct xc_guard *g, const char *label)
{
	pthread_mutex_lock(&g->lock);
	g->enabled = true;	/* its hidden name fits: checked at start */
	pthread_mutex_unlock(&g->lock);
	xc_guard_attach(g, label);
}

/**
 * xc_guard_move() - guard another path from now on (a standby that took
 *		     over a guest's socket, renamed there), its socket on
 *		     that path; the guard is off until then
 * @g:		guard, off, with no decoy
 * @path:	the new path
 *
 * Return: 0, or -ENAMETOOLONG if its hidden name does not fit (the guard
 *	   stays off)
 */
int xc_guard_move(struct xc_guard *g, const char *path)
{
	int rc = 0;

	pthread_mutex_lock(&g->lock);
	snprintf(g->path, sizeof(g->path), "%s", path);
	if (xc_sock_hidden(path, g->hidden, sizeof(g->hidden))) {
		g->hidden[0] = '\0';
		rc = -ENAMETOOLONG;
	}
	g->enabled = rc == 0;
	pthread_mutex_unlock(&g->lock);
	return rc;
}
