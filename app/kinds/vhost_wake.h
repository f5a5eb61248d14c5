/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vhost_wake.h - have the vhost library take a new socket's first guest
 *		  at once (vhost_wake.c)
 */
#ifndef XC_VHOST_WAKE_H
#define XC_VHOST_WAKE_H

int xc_vhost_wake(void);

#endif /* XC_VHOST_WAKE_H */
