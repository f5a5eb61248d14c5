/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * simple.c - build the EAL command line for people who do not know DPDK
 *
 * "xcable --left L --right R" (or a config file's cables) becomes, in effect:
 *   xcable -l FIRST,LAST --no-pci --file-prefix xcable-PID
 *          (--single-file-segments | --in-memory --single-file-segments |
 *           --no-huge -m 256 --no-shconf)
 *          --vdev net_vhost0,iface=L --vdev net_vhost1,iface=R --
 * Hugepages are used when enough are free, and never required. With a
 * hugetlbfs mount the memory is shared, so that dpdk-dumpcap (a secondary
 * process) can attach and capture; without one, hugepages are used privately
 * (--in-memory) and capture is not available. EAL options the user gave
 * before "--" come first and take precedence.
 */
#include <errno.h>
#include <mntent.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "simple.h"

#define XC_SIMPLE_MEM_MB	256

/**
 * hugetlbfs_mounted() - tell whether a hugetlbfs is mounted anywhere
 *
 * Return: true if /proc/mounts lists one
 */
static bool hugetlbfs_mounted(void)
{
	struct mntent *m;
	bool found = false;
	FILE *f = setmntent("/proc/mounts", "r");

	if (f == NULL)
		return false;
	while (!found && (m = getmntent(f)) != NULL)
		found = strcmp(m->mnt_type, "hugetlbfs") == 0;
	endmntent(f);
	return found;
}

/**
 * xc_host_probe() - read CPU affinity, free hugepages and hugetlbfs
 * @h:		filled with what was found
 */
void xc_host_probe(struct xc_host *h)
{
	unsigned long free_pages = 0, page_kb = 0, v;
	char line[128];
	cpu_set_t set;
	FILE *f;
	int i;

	h->first_cpu = h->last_cpu = 0;
	h->huge_free_mb = 0;
	h->huge_mounted = hugetlbfs_mounted();
	h->pid = (int)getpid();
	if (sched_getaffinity(0, sizeof(set), &set) == 0) {
		h->first_cpu = -1;
		for (i = 0; i < CPU_SETSIZE; i++) {
			if (!CPU_ISSET(i, &set))
				continue;
			if (h->first_cpu < 0)
				h->first_cpu = i;
			h->last_cpu = i;
		}
		if (h->first_cpu < 0)
			h->first_cpu = h->last_cpu = 0;
	}
	f = fopen("/proc/meminfo", "r");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "HugePages_Free: %lu", &v) == 1)
			free_pages = v;
		else if (sscanf(line, "Hugepagesize: %lu kB", &v) == 1)
			page_kb = v;
	}
	fclose(f);
	h->huge_free_mb = free_pages * page_kb / 1024;
}

/**
 * add() - append a formatted argument
 * @ea:		argv being built
 * @fmt:	printf format
 *
 * Return: 0 on success, -E2BIG if out of room
 */
__attribute__((format(printf, 2, 3)))
static int add(struct xc_eal_argv *ea, const char *fmt, ...)
{
	size_t room = sizeof(ea->buf) - ea->used;
	va_list ap;
	int n;

	if (ea->argc >= XC_SIMPLE_MAX_ARGS)
		return -E2BIG;
	va_start(ap, fmt);
	n = vsnprintf(ea->buf + ea->used, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room)
		return -E2BIG;
	ea->argv[ea->argc++] = ea->buf + ea->used;
	ea->argv[ea->argc] = NULL;
	ea->used += (size_t)n + 1;
	return 0;
}

/**
 * user_has() - tell whether the user's EAL arguments contain an option
 * @argc:	number of user arguments
 * @argv:	user arguments
 * @names:	NULL-terminated option names, matched also as "name=..."
 *
 * Return: true if any of @names is present
 */
static bool user_has(int argc, char **argv, const char *const *names)
{
	int i, j;

	for (i = 0; i < argc; i++) {
		for (j = 0; names[j]; j++) {
			size_t n = strlen(names[j]);

			if (strncmp(argv[i], names[j], n) == 0 &&
			    (argv[i][n] == '\0' || argv[i][n] == '=' ||
			     (names[j][1] != '-' && argv[i][n] != '\0')))
				return true;
		}
	}
	return false;
}

/**
 * xc_simple_eal_args() - build the EAL argv for the simple mode
 * @ea:		filled with the arguments
 * @prog:	program name (argv[0])
 * @user_argc:	EAL arguments the user gave before "--"
 * @user_argv:	those arguments
 * @o:		parsed xcable options
 * @defs:	the cables: one vhost port per end, in order
 * @n_defs:	number of cables
 * @h:		host facts
 *
 * Return: 0 on success, -E2BIG if the arguments do not fit
 */
int xc_simple_eal_args(struct xc_eal_argv *ea, const char *prog,
		       int user_argc, char **user_argv,
		       const struct xc_opts *o, const struct xc_cable_def *defs,
		       unsigned int n_defs, const struct xc_host *h)
{
	static const char *const cores[] = { "-l", "-c", "--lcores", NULL };
	static const char *const mem[] = { "--no-huge", "--in-memory", "-m",
					   "--socket-mem", NULL };
	static const char *const pci[] = { "--no-pci", "-a", "-b",
					   "--allow", "--block", NULL };
	static const char *const prefix[] = { "--file-prefix", NULL };
	static const char *const logl[] = { "--log-level", NULL };
	bool lcore_named[128] = { false }, any_named = false, any_pci;
	char list[512];
	size_t used;
	unsigned int i;
	int rc = 0, j;

	ea->argc = 0;
	ea->used = 0;
	rc |= add(ea, "%s", prog);
	for (j = 0; j < user_argc && rc == 0; j++)
		rc |= add(ea, "%s", user_argv[j]);
	if (!user_has(user_argc, user_argv, cores)) {
		/* the main lcore, plus the lcores cables ask for, or else
		 * the last CPU as the one worker */
		for (i = 0; i < n_defs; i++) {
			if (defs[i].lcore >= 0 && defs[i].lcore < 128) {
				lcore_named[defs[i].lcore] = true;
				any_named = true;
			}
		}
		if (!any_named && h->first_cpu != h->last_cpu)
			lcore_named[h->last_cpu < 128 ? h->last_cpu : 127] = true;
		used = (size_t)snprintf(list, sizeof(list), "-l%d",
					h->first_cpu);
		for (j = 0; j < 128 && used < sizeof(list); j++)
			if (lcore_named[j] && j != h->first_cpu)
				used += (size_t)snprintf(list + used,
							 sizeof(list) - used,
							 ",%d", j);
		rc |= add(ea, "%s", list);
	}
	/* ports of the config file that are not virtual devices are PCI
	 * devices: allow them (and only them) */
	any_pci = false;
	for (i = 0; i < o->n_port_defs; i++)
		any_pci |= strncmp(o->port_defs[i].devargs, "net_", 4) != 0;
	if (!user_has(user_argc, user_argv, pci) && !any_pci)
		rc |= add(ea, "--no-pci");
	if (!user_has(user_argc, user_argv, prefix))
		rc |= add(ea, "--file-prefix=xcable-%d", h->pid);
	if (!user_has(user_argc, user_argv, mem)) {
		if (h->huge_free_mb >= XC_SIMPLE_MEM_MB && h->huge_mounted) {
			rc |= add(ea, "--single-file-segments");
		} else if (h->huge_free_mb >= XC_SIMPLE_MEM_MB) {
			rc |= add(ea, "--in-memory");
			rc |= add(ea, "--single-file-segments");
		} else {
			rc |= add(ea, "--no-huge");
			rc |= add(ea, "-m%d", XC_SIMPLE_MEM_MB);
			rc |= add(ea, "--no-shconf");
		}
	}
	/* the vhost library logs ten lines per guest message at info: a
	 * guest that connects in a loop would fill the operator's disk */
	if (!user_has(user_argc, user_argv, logl))
		rc |= add(ea, "--log-level=lib.vhost.config:warning");
	for (i = 0; i < o->n_log_levels; i++)
		rc |= add(ea, "--log-level=%s", o->log_levels[i]);
	for (i = 0; i < n_defs; i++)
		for (j = 0; j < 2; j++)
			if (defs[i].end[j].port < 0)
				rc |= add(ea, "--vdev=net_vhost%u,iface=%s%s%s,queues=%u",
					  2 * i + (unsigned int)j,
					  defs[i].end[j].path,
					  defs[i].end[j].client ? ",client=1" : "",
					  defs[i].end[j].offloads ? ",tso=1" : "",
					  defs[i].end[j].queues);
	for (i = 0; i < o->n_port_defs; i++)
		rc |= add(ea, "%s%s",
			  strncmp(o->port_defs[i].devargs, "net_", 4) ?
			  "-a" : "--vdev=", o->port_defs[i].devargs);
	return rc ? -E2BIG : 0;
}
