/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * runfiles.c - remove the files the EAL leaves behind at exit
 *
 * DPDK 22.11's rte_eal_cleanup() keeps its runtime directory
 * (/var/run/dpdk/PREFIX) and, with shared memory, the hugepage files
 * (PREFIXmap_N in a hugetlbfs), which keep their hugepages reserved until
 * someone deletes them. A per-process prefix would leave one of each per
 * run. After cleanup xcable removes them: a hugepage file only if no other
 * process holds its lock (the EAL's own rule when it clears a prefix), and
 * the runtime directory with the files in it.
 */
#include <dirent.h>
#include <fcntl.h>
#include <libgen.h>
#include <mntent.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <rte_eal.h>

#include "runfiles.h"

/**
 * xc_runfiles_note() - remember the EAL's runtime directory and prefix,
 *			while the EAL is still up
 * @rf:		filled
 */
void xc_runfiles_note(struct xc_runfiles *rf)
{
	char tmp[PATH_MAX];

	snprintf(rf->dir, sizeof(rf->dir), "%s", rte_eal_get_runtime_dir());
	snprintf(tmp, sizeof(tmp), "%s", rf->dir);
	snprintf(rf->prefix, sizeof(rf->prefix), "%s", basename(tmp));
}

/**
 * remove_entries() - unlink the entries of a directory that pass a test
 * @dir:	directory
 * @prefix:	only names starting with this, or NULL for all
 * @locked:	only files on which an exclusive lock can be taken
 */
static void remove_entries(const char *dir, const char *prefix, bool locked)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(dir);

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		int fd;

		if (e->d_name[0] == '.' ||
		    (prefix && strncmp(e->d_name, prefix, strlen(prefix))))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     e->d_name) >= sizeof(path))
			continue;
		if (locked) {
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			if (flock(fd, LOCK_EX | LOCK_NB) == 0)
				unlink(path);
			close(fd);
		} else {
			unlink(path);
		}
	}
	closedir(d);
}

/**
 * xc_runfiles_remove() - delete our hugepage files and runtime directory
 * @rf:		what xc_runfiles_note() found; nothing is done if empty
 */
void xc_runfiles_remove(const struct xc_runfiles *rf)
{
	char pat[NAME_MAX + 8];
	struct mntent *m;
	FILE *f;

	if (rf->prefix[0] == '\0' || rf->dir[0] == '\0')
		return;
	snprintf(pat, sizeof(pat), "%smap_", rf->prefix);
	f = setmntent("/proc/mounts", "r");
	while (f && (m = getmntent(f)) != NULL)
		if (strcmp(m->mnt_type, "hugetlbfs") == 0)
			remove_entries(m->mnt_dir, pat, true);
	if (f)
		endmntent(f);
	remove_entries(rf->dir, NULL, false);
	rmdir(rf->dir);
}
