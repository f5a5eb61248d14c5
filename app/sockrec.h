/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sockrec.h - the sockets a process bound, recorded in its run directory,
 *	       so that what one that ended left can be proven xcable's
 */
#ifndef XC_SOCKREC_H
#define XC_SOCKREC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "sockpath.h"

#define XC_SOCKREC_FILE		"xcable-sockets"	/* in a run directory */

/**
 * typedef xc_sockrec_say_fn - told of a socket a process that ended left
 * @arg:	the caller's
 * @removed:	it was removed (else it was left alone)
 * @msg:	one line: what was done, naming the path
 */
typedef void (*xc_sockrec_say_fn)(void *arg, bool removed, const char *msg);

void xc_sockrec_base(char *buf, size_t len);
int xc_sockrec_open(const char *dir);
void xc_sockrec_close(bool remove);
void xc_sockrec_bound(const char *path, const struct xc_sock_id *id);
void xc_sockrec_gone(const struct xc_sock_id *id);
int xc_sockrec_left(const char *path, const struct stat *st, char *who,
		    size_t wholen);
void xc_sockrec_reclaim(const char *dir, xc_sockrec_say_fn say, void *arg);

#endif /* XC_SOCKREC_H */
