/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ctlstream.h - xcablectl's requests whose answer is a stream: capture
 *		 (pcapng, to a file or stdout) and events (a line each)
 */
#ifndef XC_CTLSTREAM_H
#define XC_CTLSTREAM_H

#include <stdbool.h>

#include "ctlclient.h"

int xc_cl_capture(struct ctl *x, int argc, char **argv, bool quiet);
int xc_cl_events(struct ctl *x, int argc, char **argv);

#endif /* XC_CTLSTREAM_H */
