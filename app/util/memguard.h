/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * memguard.h - keep guests' memory mistakes in DPDK 22.11's vhost library
 *		from harming xcable (and so every other cable)
 */
#ifndef XC_MEMGUARD_H
#define XC_MEMGUARD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define XC_MG_MAX_SUSPECTS	64
#define XC_MG_MAX_KNOWN		512	/* guest memory fds found mapped */

/* an fd found unmapped, with the file it referred to */
struct xc_memguard_suspect {
	int fd;
	dev_t dev;
	ino_t ino;
};

/**
 * struct xc_memguard - state of the guard, owned by the main thread
 * @rundir:	the EAL's runtime directory: files there are the EAL's own
 * @prefix:	the EAL's file prefix, which starts its hugepage files
 * @n_suspects:	fds seen unmapped at the last scan
 * @suspect:	those fds, with the file they referred to
 * @fds_closed:	leaked guest memory fds closed so far
 * @faults_seen: guest memory faults already reported
 * @n_known:	guest memory fds the last scan found mapped
 * @known:	those fds; a scan that finds the same ones, and no suspect,
 *		need not read /proc/self/maps (a thousand lines, the most of
 *		an idle xcable's housekeeping)
 * @n_open:	fds open at the last full scan (what stat() of
 *		/proc/self/fd says, since Linux 6.2), 0 if unknown
 * @next_full:	TSC after which a scan looks at every fd even if as many
 *		are open as before (one closed and one leaked keep the
 *		count)
 * @busy_until:	TSC until which every scan looks at every fd: the count
 *		moved a while ago
 * @fds:	scratch: the guest memory fds a scan finds open
 */
struct xc_memguard {
	const char *rundir;
	const char *prefix;
	unsigned int n_suspects;
	struct xc_memguard_suspect suspect[XC_MG_MAX_SUSPECTS];
	uint64_t fds_closed;
	uint64_t faults_seen;
	unsigned int n_known;
	long n_open;
	uint64_t next_full;
	uint64_t busy_until;
	struct xc_memguard_suspect known[XC_MG_MAX_KNOWN];
	struct xc_memguard_suspect fds[XC_MG_MAX_KNOWN];
};

int xc_memguard_init(struct xc_memguard *mg, const char *rundir,
		     const char *prefix);
void xc_memguard_scan(struct xc_memguard *mg);
uint64_t xc_memguard_faults(void);

#endif /* XC_MEMGUARD_H */
