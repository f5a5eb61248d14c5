/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sockprobe.h - is a process listening on a unix socket path?
 */
#ifndef XC_SOCKPROBE_H
#define XC_SOCKPROBE_H

int xc_sock_probe(const char *path);

#endif /* XC_SOCKPROBE_H */
