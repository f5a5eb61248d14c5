/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * notify.h - telling a service manager that xcable is ready (systemd's
 *	      Type=notify), without linking libsystemd
 */
#ifndef XC_NOTIFY_H
#define XC_NOTIFY_H

int xc_notify(const char *state);

#endif /* XC_NOTIFY_H */
