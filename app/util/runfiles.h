/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * runfiles.h - remove the files the EAL leaves behind at exit
 */
#ifndef XC_RUNFILES_H
#define XC_RUNFILES_H

#include <limits.h>

/**
 * struct xc_runfiles - what to remove once the EAL has been cleaned up
 * @dir:	the EAL's runtime directory, e.g. /var/run/dpdk/xcable-42
 * @prefix:	its file prefix, which also starts its hugepage file names
 */
struct xc_runfiles {
	char dir[PATH_MAX];
	char prefix[NAME_MAX + 1];
};

void xc_runfiles_note(struct xc_runfiles *rf);
void xc_runfiles_remove(const struct xc_runfiles *rf);

#endif /* XC_RUNFILES_H */
