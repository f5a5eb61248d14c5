/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * coalesce.h - TCP segments from a wire handed to a guest as TSO frames
 *		(receive coalescing, what a NIC's GRO does; coalesce.c)
 */
#ifndef XC_COALESCE_H
#define XC_COALESCE_H

#include "dir.h"

/* the most segments one coalesced frame is made of */
#define XC_COALESCE_SEGS	64

void xc_coalesce_stage(struct xc_dir *d, struct xc_burst *b);

#endif /* XC_COALESCE_H */
