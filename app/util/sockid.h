/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sockid.h - which file at a socket path xcable made, and the names it
 *	      gives such a file (sockid.c): what the record of sockets
 *	      (sockrec.c) and the socket paths (sockpath.c) both know
 */
#ifndef XC_SOCKID_H
#define XC_SOCKID_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <time.h>

#include "bounds.h"

/* the paths a socket xcable bound can be at, at most (xc_sock_places()) */
#define XC_SOCK_PLACES	4

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

int xc_sock_sibling(const char *path, const char *suffix, char *out,
		    size_t len);
int xc_sock_hidden(const char *path, char *out, size_t len);
int xc_sock_standby(const char *path, bool alt, char *out, size_t len);
int xc_sock_next(const char *path, bool alt, char *out, size_t len);
int xc_sock_taking(const char *bound, char *out, size_t len);
unsigned int xc_sock_places(const char *bound,
			    char out[XC_SOCK_PLACES][XC_SOCK_PATH_MAX]);
bool xc_sock_id_is(const struct stat *st, const struct xc_sock_id *id);
const char *xc_sock_what(const struct stat *st);

#endif /* XC_SOCKID_H */
