/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sockpath.h - checks on vhost-user socket paths before they are served
 */
#ifndef XC_SOCKPATH_H
#define XC_SOCKPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <time.h>

/**
 * struct xc_sock_id - which file at a path xcable made: the device, inode
 *		       and modification time of a socket it bound, taken
 *		       with lstat() right after bind(); a rename or a chmod
 *		       keeps them, a new file at the path has others (a file
 *		       system may give a new file the inode of one just
 *		       removed: not its creation time too)
 * @dev:	device
 * @ino:	inode, 0 if nothing was recorded
 * @mtime:	modification time: when it was bound (nothing writes a
 *		socket file)
 */
struct xc_sock_id {
	dev_t dev;
	ino_t ino;
	struct timespec mtime;
};

int xc_sock_prepare(const char *path, bool client, char *err, size_t errlen);
int xc_sock_sibling(const char *path, const char *suffix, char *out,
		    size_t len);
int xc_sock_hidden(const char *path, char *out, size_t len);
int xc_sock_group(const char *name, char *err, size_t errlen);
int xc_sock_owner(const char *name, char *err, size_t errlen);
int xc_sock_ids(const char *owner, const char *group, int *uid, int *gid,
		char *err, size_t errlen);
int xc_sock_secure(const char *path, unsigned int mode, int uid, int gid,
		   char *err, size_t errlen);
int xc_sock_listen(const char *path, int flags, int backlog,
		   unsigned int mode, int uid, int gid, char *err,
		   size_t errlen);
int xc_sock_path_chars(const char *path, char *why, size_t whylen);
int xc_sock_path_fits(const char *path, bool client, char *why, size_t whylen);
int xc_sock_id_take(const char *path, struct xc_sock_id *id);
bool xc_sock_id_is(const struct stat *st, const struct xc_sock_id *id);
const char *xc_sock_what(const struct stat *st);
int xc_sock_own(const char *path, const struct xc_sock_id *id, char *err,
		size_t errlen);
int xc_sock_unlink_own(const char *path, const struct xc_sock_id *id,
		       char *err, size_t errlen);
int xc_sock_rename_new(const char *from, const char *to);
int xc_sock_listen_own(const char *path, int flags, int backlog,
		       unsigned int mode, int uid, int gid,
		       struct xc_sock_id *id, char *err, size_t errlen);

#endif /* XC_SOCKPATH_H */
