/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * simple.h - EAL arguments built by xcable (--left/--right, --config)
 */
#ifndef XC_SIMPLE_H
#define XC_SIMPLE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "options.h"

#define XC_SIMPLE_MAX_ARGS	192

/**
 * struct xc_eal_argv - an argv built for rte_eal_init()
 * @argc:	number of arguments
 * @argv:	pointers into @buf or to the caller's strings, NULL-terminated
 * @buf:	storage for the strings built here
 * @used:	bytes of @buf in use
 * @note:	why the memory chosen rules out capture, where a hugetlbfs is
 *		mounted that this user cannot use; empty otherwise
 */
struct xc_eal_argv {
	int argc;
	char *argv[XC_SIMPLE_MAX_ARGS + 1];
	char buf[32768];
	size_t used;
	char note[640];
};

/**
 * struct xc_host - facts about the host that the simple mode depends on
 * @first_cpu:		first CPU this process may run on
 * @last_cpu:		last CPU this process may run on
 * @huge_free_mb:	free memory in default-size hugepages, in MiB
 * @huge_dir:		first hugetlbfs of the default page size this user
 *			can create files in (hugepages can be shared), or ""
 * @huge_denied:	first hugetlbfs of the default page size this user
 *			cannot create files in, or ""
 * @huge_closed:	first hugetlbfs this user cannot open, or "" (DPDK
 *			locks such a mount even for private hugepages)
 * @uid:		effective user id, for the advice in a note
 * @pid:		process id, for a unique runtime directory
 */
struct xc_host {
	int first_cpu;
	int last_cpu;
	unsigned long huge_free_mb;
	char huge_dir[PATH_MAX];
	char huge_denied[PATH_MAX];
	char huge_closed[PATH_MAX];
	unsigned int uid;
	int pid;
};

void xc_host_probe(struct xc_host *h);
int xc_simple_over_ports(const struct xc_opts *o,
			 const struct xc_cable_def *defs, unsigned int n_defs,
			 unsigned int *need);
int xc_simple_eal_args(struct xc_eal_argv *ea, const char *prog,
		       int user_argc, char **user_argv,
		       const struct xc_opts *o, const struct xc_cable_def *defs,
		       unsigned int n_defs, const struct xc_host *h);

#endif /* XC_SIMPLE_H */
