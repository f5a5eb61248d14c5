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

#include "sockid.h"

/**
 * typedef xc_sock_say_fn - told of a socket a process that ended left
 * @arg:	the caller's
 * @removed:	it was removed (else it was left alone)
 * @msg:	one line: what was done, naming the path
 */
typedef void (*xc_sock_say_fn)(void *arg, bool removed, const char *msg);

int xc_sock_prepare(const char *path, bool client, char *err, size_t errlen);
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
int xc_sock_own(const char *path, const struct xc_sock_id *id, char *err,
		size_t errlen);
int xc_sock_unlink_own(const char *path, const struct xc_sock_id *id,
		       char *err, size_t errlen);
int xc_sock_rename_new(const char *from, const char *to);
int xc_sock_listen_own(const char *path, int flags, int backlog,
		       unsigned int mode, int uid, int gid,
		       struct xc_sock_id *id, char *err, size_t errlen);

void xc_sock_reclaim(const char *dir, xc_sock_say_fn say, void *arg);

#endif /* XC_SOCKPATH_H */
