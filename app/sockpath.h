/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sockpath.h - checks on vhost-user socket paths before they are served
 */
#ifndef XC_SOCKPATH_H
#define XC_SOCKPATH_H

#include <stdbool.h>
#include <stddef.h>

int xc_sock_prepare(const char *path, bool client, char *err, size_t errlen);
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

#endif /* XC_SOCKPATH_H */
