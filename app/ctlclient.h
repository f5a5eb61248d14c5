/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ctlclient.h - a client of xcable's control socket: finding the running
 *		 xcables' sockets, connecting, a request and its answer,
 *		 within a time (xcablectl, its streams, its Wireshark
 *		 extcap interface)
 */
#ifndef XC_CTLCLIENT_H
#define XC_CTLCLIENT_H

#include <stdbool.h>
#include <stddef.h>

#include "ctlcmd.h"

#define XC_USAGE	2	/* exit status of every failure */
#define XC_PATH_LEN	(256 + 256 + 16)	/* a control socket's path */

/**
 * struct xc_found - the control sockets found by looking
 * @n:		how many
 * @path:	the first XC_FOUND_MAX paths
 * @all:	every path, ", " between them (cut short if very many)
 */
#define XC_FOUND_MAX	64
struct xc_found {
	int n;
	char path[XC_FOUND_MAX][XC_PATH_LEN];
	char all[1024];
};

/**
 * struct ctl - one exchange with xcable
 * @path:	its control socket
 * @req:	the request line, newline included
 * @req_len:	its length
 * @timeout:	longest wait for the whole exchange (a stream: until its
 *		first bytes), seconds
 * @end:	when it is over (CLOCK_MONOTONIC, seconds)
 * @ans:	the answer, NUL-terminated
 * @ans_len:	its length
 * @ans_cap:	bytes allocated for it
 * @quiet:	its failures are not said on stderr (Wireshark's listing)
 */
struct ctl {
	char path[XC_PATH_LEN];
	char req[XC_CTL_LINE_MAX * 2];
	size_t req_len;
	double timeout;
	double end;
	char *ans;
	size_t ans_len;
	size_t ans_cap;
	bool quiet;
};

void xc_cl_run_dir(char *buf, size_t len);
void xc_cl_find_all(struct xc_found *f);
int xc_cl_find_socket(char *out, size_t len);
double xc_cl_now(void);
int xc_cl_wait_fd(const struct ctl *x, int fd, short events);
int xc_cl_connect(const struct ctl *x);
int xc_cl_send(const struct ctl *x, int fd);
int xc_cl_request(struct ctl *x, int argc, char **argv);
int xc_cl_exchange(struct ctl *x);

#endif /* XC_CTLCLIENT_H */
