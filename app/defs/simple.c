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
 * hugetlbfs mount this user can create files in (root's /dev/hugepages is
 * not one for an ordinary user) the memory is shared (--huge-dir names the
 * mount), so that dpdk-dumpcap (a secondary process) can attach and
 * capture; without one, hugepages are used privately (--in-memory) and
 * dpdk-dumpcap cannot attach (xcablectl capture works in every case).
 * DPDK locks the first hugetlbfs of each page
 * size even then: where this user cannot open one, no hugepages are used.
 * EAL options the user gave before "--" come first and take precedence.
 */
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_build_config.h>

#include "simple.h"

#define XC_SIMPLE_MEM_MB	256

/**
 * mount_page_kb() - the page size of a hugetlbfs mount
 * @m:		the mount, as /proc/mounts lists it ("pagesize=2M")
 * @def_kb:	default hugepage size in kB, for a mount that names none
 *
 * Return: the page size in kB
 */
static unsigned long mount_page_kb(struct mntent *m, unsigned long def_kb)
{
	const char *o = hasmntopt(m, "pagesize");
	unsigned long n;
	char *end;

	if (o == NULL || o[8] != '=')
		return def_kb;
	n = strtoul(o + 9, &end, 10);
	switch (*end) {
	case 'G': case 'g':
		return n << 20;
	case 'M': case 'm':
		return n << 10;
	default:
		return n;
	}
}

/**
 * can_create_in() - tell whether this process can create files in a
 *		     directory, as DPDK's hugepage files are
 * @dir:	the directory
 *
 * Creates an empty file there and removes it.
 *
 * Return: true if it could
 */
static bool can_create_in(const char *dir)
{
	char path[PATH_MAX];
	int fd, n;

	n = snprintf(path, sizeof(path), "%s/.xcable-probe-XXXXXX", dir);
	if (n < 0 || (size_t)n >= sizeof(path))
		return false;
	fd = mkstemp(path);
	if (fd < 0)
		return false;
	close(fd);
	unlink(path);
	return true;
}

/**
 * can_open() - tell whether this process can open a directory
 * @dir:	the directory
 *
 * Return: true if it could
 */
static bool can_open(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/**
 * probe_hugetlbfs() - look at every hugetlbfs mount for one this process
 *		       can share hugepages in
 * @h:		huge_dir, huge_denied and huge_closed are filled
 * @def_kb:	default hugepage size in kB (the free hugepages are of it)
 */
static void probe_hugetlbfs(struct xc_host *h, unsigned long def_kb)
{
	FILE *f = setmntent("/proc/mounts", "r");
	struct mntent *m;

	h->huge_dir[0] = h->huge_denied[0] = h->huge_closed[0] = '\0';
	if (f == NULL)
		return;
	while ((m = getmntent(f)) != NULL) {
		if (strcmp(m->mnt_type, "hugetlbfs") != 0)
			continue;
		if (!h->huge_closed[0] && !can_open(m->mnt_dir))
			snprintf(h->huge_closed, sizeof(h->huge_closed), "%s",
				 m->mnt_dir);
		if (h->huge_dir[0] || mount_page_kb(m, def_kb) != def_kb)
			continue;
		if (can_create_in(m->mnt_dir))
			snprintf(h->huge_dir, sizeof(h->huge_dir), "%s",
				 m->mnt_dir);
		else if (!h->huge_denied[0])
			snprintf(h->huge_denied, sizeof(h->huge_denied), "%s",
				 m->mnt_dir);
	}
	endmntent(f);
}

/**
 * xc_host_probe() - read CPU affinity, free hugepages and the hugetlbfs
 *		     mounts this user can use
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
	h->huge_dir[0] = h->huge_denied[0] = h->huge_closed[0] = '\0';
	h->uid = (unsigned int)geteuid();
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
	probe_hugetlbfs(h, page_kb);
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
 * add_mem() - append the memory options: hugepages shared in a hugetlbfs
 *	       this user can create files in, else private ones, else none
 * @ea:		argv being built; its note says why dpdk-dumpcap cannot
 *		attach
 *		where a hugetlbfs is mounted that this user cannot use
 * @h:		host facts
 * @dir_given:	the user gave --huge-dir
 *
 * Return: 0 on success, -E2BIG if out of room
 */
static int add_mem(struct xc_eal_argv *ea, const struct xc_host *h,
		   bool dir_given)
{
	bool enough = h->huge_free_mb >= XC_SIMPLE_MEM_MB;
	size_t n = 0;
	int rc = 0;

	if (enough && h->huge_dir[0]) {
		rc |= add(ea, "--single-file-segments");
		if (!dir_given)
			rc |= add(ea, "--huge-dir=%s", h->huge_dir);
		return rc;
	}
	if (enough && !h->huge_closed[0]) {
		rc |= add(ea, "--in-memory");
		rc |= add(ea, "--single-file-segments");
		if (h->huge_denied[0])
			n = (size_t)snprintf(ea->note, sizeof(ea->note),
					     "hugetlbfs %s is not writable for uid %u: hugepages are used privately (--in-memory)",
					     h->huge_denied, h->uid);
	} else {
		rc |= add(ea, "--no-huge");
		rc |= add(ea, "-m%d", XC_SIMPLE_MEM_MB);
		rc |= add(ea, "--no-shconf");
		if (enough)
			n = (size_t)snprintf(ea->note, sizeof(ea->note),
					     "hugetlbfs %s cannot be opened by uid %u, and DPDK would lock it: running without hugepages (--no-huge)",
					     h->huge_closed, h->uid);
	}
	if (n > 0 && n < sizeof(ea->note))
		snprintf(ea->note + n, sizeof(ea->note) - n,
			 ", so dpdk-dumpcap cannot attach (xcablectl capture can); for dpdk-dumpcap, run xcable as root or mount a hugetlbfs it can write (mount -t hugetlbfs -o uid=%u nodev DIR)",
			 h->uid);
	return rc;
}

/**
 * xc_simple_over_ports() - check that the ports the simple or config mode
 *			    asks the EAL for (one per socket end, one per
 *			    [port]) fit its RTE_MAX_ETHPORTS
 * @o:		parsed xcable options
 * @defs:	the cables
 * @n_defs:	number of cables
 * @need:	set to the number of ports asked for
 *
 * Return: -1 if they fit, else the index of the first cable that does not
 */
int xc_simple_over_ports(const struct xc_opts *o,
			 const struct xc_cable_def *defs, unsigned int n_defs,
			 unsigned int *need)
{
	unsigned int i, j;
	int first = -1;

	*need = o->n_port_defs;
	for (i = 0; i < n_defs; i++) {
		for (j = 0; j < 2; j++)
			*need += xc_kind_def_of(&defs[i].end[j]) ?
				 xc_kind_def_of(&defs[i].end[j])->ports : 0;
		if (first < 0 && *need > RTE_MAX_ETHPORTS)
			first = (int)i;
	}
	return first;
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
	static const char *const hdir[] = { "--huge-dir", NULL };
	static const char *const logl[] = { "--log-level", NULL };
	bool lcore_named[128] = { false }, any_named = false, any_pci;
	char list[512], vdev[XC_SOCK_PATH_MAX + 96];
	size_t used;
	unsigned int i;
	int rc = 0, j;

	ea->argc = 0;
	ea->used = 0;
	ea->note[0] = '\0';
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
	if (!user_has(user_argc, user_argv, mem))
		rc |= add_mem(ea, h, user_has(user_argc, user_argv, hdir));
	/* what the kinds add once (a library's log level) */
	for (j = 0; j < XC_N_END_KINDS; j++)
		if (xc_kind_defs[j]->eal_once &&
		    (strncmp(xc_kind_defs[j]->eal_once, "--log-level", 11) ||
		     !user_has(user_argc, user_argv, logl)))
			rc |= add(ea, "%s", xc_kind_defs[j]->eal_once);
	for (i = 0; i < o->n_log_levels; i++)
		rc |= add(ea, "--log-level=%s", o->log_levels[i]);
	/* the ends served by a virtual device of their own (sockets) */
	for (i = 0; i < n_defs; i++)
		for (j = 0; j < 2; j++) {
			const struct xc_kind_def *kd =
				xc_kind_def_of(&defs[i].end[j]);

			if (kd == NULL || kd->vdev == NULL)
				continue;
			kd->vdev(&defs[i].end[j], 2 * i + (unsigned int)j,
				 vdev, sizeof(vdev));
			rc |= add(ea, "--vdev=%s", vdev);
		}
	for (i = 0; i < o->n_port_defs; i++)
		rc |= add(ea, "%s%s",
			  strncmp(o->port_defs[i].devargs, "net_", 4) ?
			  "-a" : "--vdev=", o->port_defs[i].devargs);
	return rc ? -E2BIG : 0;
}
