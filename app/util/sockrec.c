/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sockrec.c - the sockets a process bound, recorded in its run directory,
 *	       so that what one that ended left can be proven xcable's
 *
 * Theory of operation: xcable removes only the sockets it can prove are
 * its own: a socket it bound, known by its device and inode (sockpath.h).
 * While a process runs it knows them; a process that was killed leaves
 * its sockets behind, and what it knew is gone with it. So each process
 * writes down every socket it binds, as it binds it, in a file of its run
 * directory, RUNDIR/xcable-sockets:
 *
 *   + DEV INO SEC NSEC PATH	a socket bound at PATH (SEC.NSEC: its
 *				modification time, when it was bound)
 *   - DEV INO			that socket is gone
 *
 * and holds an exclusive flock() on that file as long as it lives (the
 * kernel lets go of it when the process ends, however it ends). A run
 * directory is the EAL's (/var/run/dpdk/PREFIX for root, else under
 * $XDG_RUNTIME_DIR or /tmp), or the supervisor's, named the same way.
 *
 * When xcable finds a socket nobody listens on at a path it must serve,
 * it reads the records of the run directories beside its own: one whose
 * lock it can take belongs to a process that ended, and if it lists that
 * very socket (same device, inode and time, at that path or at its hidden
 * .NAME.in-use name; one bound at .NAME.next or .NAME.migrate also at
 * NAME, which it takes over or is lent: a rename keeps the socket's
 * identity, and a process killed before it recorded the new path leaves
 * it there), the socket is a leftover of xcable's and may be
 * removed (xc_sock_unlink_own(): moved to a private name, checked again,
 * unlinked). Any other socket is somebody else's. The supervisor does the
 * same with the record of a worker that died (xc_sock_reclaim()). A
 * clean exit leaves no record: its run directory is removed (runfiles.c).
 * A killed process's run directory stays, and the default prefix,
 * xcable-PID, comes back when its pid does: a process that takes over
 * such a record keeps what it listed as proof for its own later checks
 * (its control socket's, say).
 *
 * The file grows by a line per socket bound or gone (a guard's decoy comes
 * and goes with each guest); once it has many more lines than sockets it
 * is written anew and renamed into place, the lock taken on the new file
 * first. A reader checks that the file it locked is still the one at the
 * path, so it never mistakes a file being replaced for an ended process's.
 *
 * A process has one run directory, so the record is this file's static
 * state, under a mutex (the main, control and vhost threads bind sockets).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "bounds.h"
#include "sockid.h"
#include "sockrec.h"

#define XC_SOCKREC_MAX_BYTES	(8u << 20)	/* a record read, at most */

/**
 * struct rec - one socket bound
 * @id:		its device, inode and time (sockpath.h)
 * @path:	where it was bound
 */
struct rec {
	struct xc_sock_id id;
	char path[XC_SOCK_PATH_MAX];
};

/**
 * struct recs - a set of sockets bound
 * @r:		malloc'd
 * @n:		how many
 * @cap:	room in @r
 */
struct recs {
	struct rec *r;
	unsigned int n;
	unsigned int cap;
};

/* this process's record (see above: why it is static) */
static struct {
	pthread_mutex_t lock;
	int fd;			/* the file, locked; -1: not written */
	char file[PATH_MAX];
	struct recs live;	/* the sockets bound and not gone */
	struct recs before;	/* what the record at the same path said
				 * when this process took it over: a process
				 * of the same prefix that ended (pids wrap,
				 * and the default prefix is xcable-PID) */
	unsigned int lines;	/* in the file */
} xc_rec = { .lock = PTHREAD_MUTEX_INITIALIZER, .fd = -1 };

/**
 * recs_add() - add a socket to a set (once: a socket added again, renamed
 *		since, gets the new path)
 * @v:		the set
 * @id:		the socket
 * @path:	where it was bound
 *
 * Return: its entry, or NULL (out of memory)
 */
static struct rec *recs_add(struct recs *v, const struct xc_sock_id *id,
			    const char *path)
{
	struct rec *r;
	unsigned int i;

	for (i = 0; i < v->n; i++)
		if (v->r[i].id.dev == id->dev && v->r[i].id.ino == id->ino)
			break;
	if (i == v->n) {
		if (v->n == v->cap) {
			r = realloc(v->r, (v->cap ? 2 * v->cap : 16) *
					  sizeof(*r));
			if (r == NULL)
				return NULL;
			v->r = r;
			v->cap = v->cap ? 2 * v->cap : 16;
		}
		v->n++;
	}
	v->r[i].id = *id;
	snprintf(v->r[i].path, sizeof(v->r[i].path), "%s", path);
	return &v->r[i];
}

/**
 * recs_del() - take a socket out of a set
 * @v:		the set
 * @dev:	its device
 * @ino:	its inode
 *
 * Return: true if it was there
 */
static bool recs_del(struct recs *v, dev_t dev, ino_t ino)
{
	unsigned int i;

	for (i = 0; i < v->n; i++) {
		if (v->r[i].id.dev == dev && v->r[i].id.ino == ino) {
			v->r[i] = v->r[--v->n];
			return true;
		}
	}
	return false;
}

/* recs_free() - free a set */
static void recs_free(struct recs *v)
{
	free(v->r);
	memset(v, 0, sizeof(*v));
}

/**
 * recs_read() - the sockets a record lists as bound and not gone
 * @fd:		the record, read from its start
 * @v:		filled
 *
 * Return: 0, or -errno (-EFBIG: larger than a record can be)
 */
static int recs_read(int fd, struct recs *v)
{
	char *buf = malloc(XC_SOCKREC_MAX_BYTES + 1), *line, *nl;
	uintmax_t dev, ino, sec, nsec;
	struct xc_sock_id id;
	size_t got = 0;
	ssize_t n;
	int pos;

	if (buf == NULL)
		return -ENOMEM;
	do {
		n = pread(fd, buf + got, XC_SOCKREC_MAX_BYTES - got,
			  (off_t)got);
		if (n > 0)
			got += (size_t)n;
	} while (n > 0 && got < XC_SOCKREC_MAX_BYTES);
	if (n < 0 || got == XC_SOCKREC_MAX_BYTES) {
		free(buf);
		return n < 0 ? -errno : -EFBIG;
	}
	buf[got] = '\0';
	for (line = buf; (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
		*nl = '\0';
		pos = 0;
		if (sscanf(line, "+ %ju %ju %ju %ju %n", &dev, &ino, &sec,
			   &nsec, &pos) == 4 && pos > 0 && line[pos]) {
			id.dev = (dev_t)dev;
			id.ino = (ino_t)ino;
			id.mtime.tv_sec = (time_t)sec;
			id.mtime.tv_nsec = (long)nsec;
			recs_add(v, &id, line + pos);
		} else if (sscanf(line, "- %ju %ju", &dev, &ino) == 2)
			recs_del(v, (dev_t)dev, (ino_t)ino);
	}
	free(buf);	/* a line cut short (the writer died) is not one */
	return 0;
}

/**
 * put() - append one line to this process's record (lock held)
 * @line:	the line, with its newline
 */
static void put(const char *line)
{
	size_t n = strlen(line);

	if (xc_rec.fd >= 0 && write(xc_rec.fd, line, n) == (ssize_t)n)
		xc_rec.lines++;
}

/**
 * put_bound() - append "+ DEV INO PATH" (lock held)
 * @r:		the socket
 */
static void put_bound(const struct rec *r)
{
	char line[XC_SOCK_PATH_MAX + 96];

	snprintf(line, sizeof(line), "+ %ju %ju %ju %ju %s\n",
		 (uintmax_t)r->id.dev, (uintmax_t)r->id.ino,
		 (uintmax_t)r->id.mtime.tv_sec, (uintmax_t)r->id.mtime.tv_nsec,
		 r->path);
	put(line);
}

/**
 * same_file() - is an open file the one at a path now?
 * @fd:		the open file
 * @path:	the path
 *
 * Return: true if so
 */
static bool same_file(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/**
 * rewrite() - write the record anew, the sockets that are bound alone, and
 *	       rename it into place; the lock is taken on the new file
 *	       before the old one's is let go (lock held)
 */
static void rewrite(void)
{
	char tmp[PATH_MAX + 8];
	unsigned int i;
	int fd, old = xc_rec.fd;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.new", xc_rec.file) >=
	    sizeof(tmp))
		return;
	fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		close(fd);
		return;
	}
	xc_rec.fd = fd;
	xc_rec.lines = 0;
	for (i = 0; i < xc_rec.live.n; i++)
		put_bound(&xc_rec.live.r[i]);
	if (rename(tmp, xc_rec.file) < 0) {
		xc_rec.fd = old;	/* the old one stays, longer */
		unlink(tmp);
		close(fd);
		return;
	}
	close(old);
}

/**
 * xc_sockrec_base() - the directory the run directories are in: the
 *		       EAL's (eal_create_runtime_dir(): /var/run/dpdk for
 *		       root, else under $XDG_RUNTIME_DIR or /tmp)
 * @buf:	filled
 * @len:	size of @buf
 */
void xc_sockrec_base(char *buf, size_t len)
{
	const char *x = getenv("XDG_RUNTIME_DIR");

	if (getuid() == 0 || x == NULL)
		x = getuid() == 0 ? "/var/run" : "/tmp";
	snprintf(buf, len, "%s/dpdk", x);
}

/**
 * xc_sockrec_open() - record the sockets this process binds in a run
 *		       directory from now on (those bound before too), and
 *		       hold the record's lock until the process ends
 * @dir:	the run directory, which exists
 *
 * A record left there by a process that ended (the same prefix) is written
 * over; what it listed is kept for xc_sockrec_left().
 *
 * Return: 0, or -errno (sockets are then not recorded: those a crash
 *	   leaves are not removed by the next start)
 */
int xc_sockrec_open(const char *dir)
{
	unsigned int i, tries;
	int fd = -1, rc = 0;

	pthread_mutex_lock(&xc_rec.lock);
	if (xc_rec.fd >= 0)
		goto out;
	if ((size_t)snprintf(xc_rec.file, sizeof(xc_rec.file), "%s/%s", dir,
			     XC_SOCKREC_FILE) >= sizeof(xc_rec.file)) {
		rc = -ENAMETOOLONG;
		goto out;
	}
	/* a reader may have unlinked an ended process's file meanwhile:
	 * the lock must be on the file at the path */
	for (tries = 0; tries < 5; tries++) {
		fd = open(xc_rec.file, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC,
			  0600);
		if (fd < 0) {
			rc = -errno;
			goto out;
		}
		if (flock(fd, LOCK_EX) == 0 && same_file(fd, xc_rec.file))
			break;
		close(fd);
		fd = -1;
	}
	/* the sockets it lists stay provably xcable's for the checks
	 * still to come (the control socket's comes later) */
	if (fd >= 0)
		recs_read(fd, &xc_rec.before);
	if (fd < 0 || ftruncate(fd, 0) < 0) {
		rc = fd < 0 ? -EAGAIN : -errno;
		if (fd >= 0)
			close(fd);
		goto out;
	}
	xc_rec.fd = fd;
	xc_rec.lines = 0;
	for (i = 0; i < xc_rec.live.n; i++)
		put_bound(&xc_rec.live.r[i]);
out:
	pthread_mutex_unlock(&xc_rec.lock);
	return rc;
}

/**
 * xc_sockrec_close() - stop recording (at exit)
 * @remove:	remove the record too (a run directory removed otherwise
 *		takes it with it)
 */
void xc_sockrec_close(bool remove)
{
	pthread_mutex_lock(&xc_rec.lock);
	if (xc_rec.fd >= 0) {
		if (remove)
			unlink(xc_rec.file);
		close(xc_rec.fd);
	}
	xc_rec.fd = -1;
	recs_free(&xc_rec.before);
	recs_free(&xc_rec.live);
	pthread_mutex_unlock(&xc_rec.lock);
}

/**
 * xc_sockrec_bound() - this process bound a socket: record it
 * @path:	where
 * @id:		its device and inode, taken right after bind()
 */
void xc_sockrec_bound(const char *path, const struct xc_sock_id *id)
{
	struct rec *r;

	pthread_mutex_lock(&xc_rec.lock);
	r = recs_add(&xc_rec.live, id, path);
	if (r != NULL)
		put_bound(r);
	pthread_mutex_unlock(&xc_rec.lock);
}

/**
 * xc_sockrec_gone() - a socket this process bound is gone (removed, or
 *		       replaced by a rename): forget it
 * @id:		its device and inode
 */
void xc_sockrec_gone(const struct xc_sock_id *id)
{
	char line[64];

	if (id->ino == 0)
		return;
	pthread_mutex_lock(&xc_rec.lock);
	if (recs_del(&xc_rec.live, id->dev, id->ino)) {
		snprintf(line, sizeof(line), "- %ju %ju\n",
			 (uintmax_t)id->dev, (uintmax_t)id->ino);
		put(line);
		if (xc_rec.fd >= 0 && xc_rec.lines > 2 * xc_rec.live.n + 64)
			rewrite();
	}
	pthread_mutex_unlock(&xc_rec.lock);
}

/**
 * open_ended() - open the record of a process that ended (its lock can be
 *		  taken), locked so that it is not written over meanwhile
 * @file:	the record
 *
 * Return: the fd, or -errno (-EBUSY: its process runs)
 */
static int open_ended(const char *file)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_SH | LOCK_NB) < 0) {
		rc = errno == EWOULDBLOCK ? -EBUSY : -errno;
		close(fd);
		return rc;
	}
	if (!same_file(fd, file)) {	/* being written anew */
		close(fd);
		return -EBUSY;
	}
	return fd;
}

/**
 * at() - does a path hold a recorded socket, at one of its places
 *	  (xc_sock_places())?
 * @r:		the socket
 * @path:	the path
 * @st:		what is there (lstat())
 *
 * Return: true if so
 */
static bool at(const struct rec *r, const char *path, const struct stat *st)
{
	char where[XC_SOCK_PLACES][XC_SOCK_PATH_MAX];
	unsigned int i, n;

	if (!xc_sock_id_is(st, &r->id))
		return false;
	n = xc_sock_places(r->path, where);
	for (i = 0; i < n; i++)
		if (strcmp(path, where[i]) == 0)
			return true;
	return false;
}

/**
 * anything_left() - is a socket of a record still at one of its places
 *		     (xc_sock_places())?
 * @v:		the record's sockets
 *
 * Return: true if one is
 */
static bool anything_left(const struct recs *v)
{
	char where[XC_SOCK_PLACES][XC_SOCK_PATH_MAX];
	unsigned int i, j, n;
	struct stat st;

	for (i = 0; i < v->n; i++) {
		n = xc_sock_places(v->r[i].path, where);
		for (j = 0; j < n; j++)
			if (lstat(where[j], &st) == 0 &&
			    xc_sock_id_is(&st, &v->r[i].id))
				return true;
	}
	return false;
}

/**
 * xc_sockrec_left() - was a socket left by an xcable process that ended
 *		       (one that recorded binding it, in a run directory
 *		       beside this one's)?
 * @path:	where the socket is
 * @st:		what is there (lstat())
 * @who:	set to that process's run directory, if so
 * @wholen:	size of @who
 *
 * A record of an ended process none of whose sockets is left any more is
 * removed on the way.
 *
 * Return: 1 if so, 0 if no record says so
 */
int xc_sockrec_left(const char *path, const struct stat *st, char *who,
		    size_t wholen)
{
	char base[PATH_MAX], file[PATH_MAX + NAME_MAX + 32];
	struct recs v = { 0 };
	struct dirent *e;
	unsigned int i;
	int fd, found = 0;
	DIR *d;

	/* an ended process's record this one took over (its own is locked) */
	pthread_mutex_lock(&xc_rec.lock);
	for (i = 0; i < xc_rec.before.n && !found; i++)
		found = at(&xc_rec.before.r[i], path, st);
	if (found)
		snprintf(who, wholen, "%.*s",
			 (int)(strlen(xc_rec.file) - strlen(XC_SOCKREC_FILE) - 1),
			 xc_rec.file);
	pthread_mutex_unlock(&xc_rec.lock);
	if (found)
		return 1;
	xc_sockrec_base(base, sizeof(base));
	d = opendir(base);
	if (d == NULL)
		return 0;
	while (!found && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' ||
		    (size_t)snprintf(file, sizeof(file), "%s/%s/%s", base,
				     e->d_name, XC_SOCKREC_FILE) >= sizeof(file))
			continue;
		fd = open_ended(file);
		if (fd < 0)
			continue;
		if (recs_read(fd, &v) == 0) {
			for (i = 0; i < v.n && !found; i++)
				found = at(&v.r[i], path, st);
			if (found)
				snprintf(who, wholen, "%s/%s", base, e->d_name);
			else if (!anything_left(&v))
				unlink(file);	/* nothing of it is left */
		}
		recs_free(&v);
		close(fd);
	}
	closedir(d);
	return found;
}

/**
 * xc_sockrec_each() - call @fn with each socket an ended process's record
 *		       lists (the supervisor's, for a worker that died)
 * @dir:	the process's run directory
 * @fn:		called with @arg, the path the socket was bound at and
 *		which file it was
 * @arg:	its first argument
 *
 * Return: 0, or -errno if the record cannot be read (none: -ENOENT)
 */
int xc_sockrec_each(const char *dir,
		    void (*fn)(void *arg, const char *path,
			       const struct xc_sock_id *id),
		    void *arg)
{
	char file[PATH_MAX + 32];
	struct recs v = { 0 };
	unsigned int i;
	int fd, rc;

	if ((size_t)snprintf(file, sizeof(file), "%s/%s", dir,
			     XC_SOCKREC_FILE) >= sizeof(file))
		return -ENAMETOOLONG;
	fd = open_ended(file);
	if (fd < 0)
		return fd;
	rc = recs_read(fd, &v);
	for (i = 0; rc == 0 && i < v.n; i++)
		fn(arg, v.r[i].path, &v.r[i].id);
	recs_free(&v);
	close(fd);
	return rc;
}
