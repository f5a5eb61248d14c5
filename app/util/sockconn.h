/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sockconn.h - the connections this process has through a unix socket
 */
#ifndef XC_SOCKCONN_H
#define XC_SOCKCONN_H

#include <stdbool.h>

int xc_sock_conns(const char *path, bool accepted);

#endif /* XC_SOCKCONN_H */
