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

#include "sockid.h"

#define XC_SOCKREC_FILE		"xcable-sockets"	/* in a run directory */


void xc_sockrec_base(char *buf, size_t len);
int xc_sockrec_open(const char *dir);
void xc_sockrec_close(bool remove);
void xc_sockrec_bound(const char *path, const struct xc_sock_id *id);
void xc_sockrec_gone(const struct xc_sock_id *id);
int xc_sockrec_left(const char *path, const struct stat *st, char *who,
		    size_t wholen);
int xc_sockrec_each(const char *dir,
		    void (*fn)(void *arg, const char *path,
			       const struct xc_sock_id *id),
		    void *arg);

#endif /* XC_SOCKREC_H */
