/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * simple.h - EAL arguments built by xcable (--left/--right, --config)
 */
#ifndef XC_SIMPLE_H
#define XC_SIMPLE_H

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
 */
struct xc_eal_argv {
	int argc;
	char *argv[XC_SIMPLE_MAX_ARGS + 1];
	char buf[32768];
	size_t used;
};

/**
 * struct xc_host - facts about the host that the simple mode depends on
 * @first_cpu:		first CPU this process may run on
 * @last_cpu:		last CPU this process may run on
 * @huge_free_mb:	free memory in default-size hugepages, in MiB
 * @huge_mounted:	a hugetlbfs is mounted (hugepages can be shared)
 * @pid:		process id, for a unique runtime directory
 */
struct xc_host {
	int first_cpu;
	int last_cpu;
	unsigned long huge_free_mb;
	bool huge_mounted;
	int pid;
};

void xc_host_probe(struct xc_host *h);
int xc_simple_eal_args(struct xc_eal_argv *ea, const char *prog,
		       int user_argc, char **user_argv,
		       const struct xc_opts *o, const struct xc_cable_def *defs,
		       unsigned int n_defs, const struct xc_host *h);

#endif /* XC_SIMPLE_H */
