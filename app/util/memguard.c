/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * memguard.c - keep guests' memory mistakes in DPDK 22.11's vhost library
 *		from harming xcable (and so every other cable)
 *
 * Two faults of the vhost library (found by tests/vhostile.c; DPDK 22.11,
 * as in Debian 12) let one guest harm the whole process:
 *
 * - It maps a guest's memory region with the size the guest claims,
 *   without checking it against the file behind it. A guest that claims
 *   more memory than its memfd holds (or shrinks the file afterwards)
 *   makes the next access past the file's end raise SIGBUS, which kills
 *   xcable. We catch SIGBUS; if the faulting page lies past the end of the
 *   file of a shared mapping, the rest of that mapping is replaced by
 *   anonymous zero pages and the access is retried: the guest reads
 *   zeros, nobody else notices. Any other SIGBUS takes its usual course.
 *
 * - When it refuses a memory table (size 0, an offset that overflows, a
 *   failed mmap), it keeps the region's fd open for ever: one fd and the
 *   guest's whole memory per bad message, until xcable runs out of fds.
 *   Housekeeping looks for fds to tmpfs or hugetlbfs files that nothing
 *   maps any more, that are not the EAL's own, and closes those it finds
 *   in two scans in a row.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_log.h>

#include "log.h"
#include "logrl.h"
#include "memguard.h"

RTE_LOG_REGISTER(xc_logtype_memguard, xcable.memguard, INFO);

#define XC_MG_FULL_S		60	/* a full scan at least this often */
#define XC_MG_BUSY_S		4	/* full scans after the fd count moved */
#define TMPFS_MAGIC_		0x01021994
#define HUGETLBFS_MAGIC_	0x958458f6

/* what the SIGBUS handler shares with the rest: it gets no argument */
static struct sigaction xc_mg_old;
static uint64_t xc_mg_faults;		/* atomic */

/**
 * struct mapline - one line of /proc/self/maps
 */
struct mapline {
	uintptr_t start, end;
	uint64_t offset;
	unsigned int maj, min;
	uint64_t ino;
	char perms[5];
	const char *path;	/* into the caller's buffer, "" if none */
};

static uint64_t parse_num(const char **p, unsigned int base)
{
	uint64_t v = 0;
	int d;

	for (;; (*p)++) {
		char c = **p;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else
			break;
		v = v * base + (uint64_t)d;
	}
	return v;
}

/**
 * parse_mapline() - split one line of /proc/self/maps (NUL-terminated,
 *		     no newline); async-signal-safe
 *
 * Return: 0, or -EINVAL if the line does not look like one
 */
static int parse_mapline(const char *p, struct mapline *m)
{
	m->start = (uintptr_t)parse_num(&p, 16);
	if (*p++ != '-')
		return -EINVAL;
	m->end = (uintptr_t)parse_num(&p, 16);
	if (*p++ != ' ' || strlen(p) < 5)
		return -EINVAL;
	memcpy(m->perms, p, 4);
	m->perms[4] = '\0';
	p += 5;
	m->offset = parse_num(&p, 16);
	if (*p++ != ' ')
		return -EINVAL;
	m->maj = (unsigned int)parse_num(&p, 16);
	if (*p++ != ':')
		return -EINVAL;
	m->min = (unsigned int)parse_num(&p, 16);
	if (*p++ != ' ')
		return -EINVAL;
	m->ino = parse_num(&p, 10);
	while (*p == ' ')
		p++;
	m->path = p;
	return 0;
}

/**
 * find_mapping() - the line of /proc/self/maps that holds an address;
 *		    async-signal-safe (open/read/close, no allocation)
 * @addr:	address
 * @m:		filled
 * @line:	buffer for the line (m->path points into it)
 * @len:	its size
 *
 * Return: 0, or -ENOENT
 */
static int find_mapping(uintptr_t addr, struct mapline *m, char *line,
			size_t len)
{
	char buf[4096];
	size_t used = 0;
	ssize_t n;
	int fd, rc = -ENOENT;

	fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0 && rc) {
		ssize_t i;

		for (i = 0; i < n && rc; i++) {
			if (buf[i] != '\n') {
				if (used + 1 < len)
					line[used++] = buf[i];
				continue;
			}
			line[used] = '\0';
			used = 0;
			if (parse_mapline(line, m) == 0 && m->start <= addr &&
			    addr < m->end)
				rc = 0;
		}
	}
	close(fd);
	return rc;
}

/**
 * file_of_mapping() - fstat the fd of ours that refers to a mapping's file
 *		       (the vhost library keeps each region's fd open);
 *		       async-signal-safe (getdents64, no allocation)
 * @m:		the mapping
 * @st:		filled
 *
 * Return: 0, or -ENOENT
 */
static int file_of_mapping(const struct mapline *m, struct stat *st)
{
	char buf[2048];
	long n;
	int dir, rc = -ENOENT;

	dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return -errno;
	while (rc && (n = getdents64(dir, buf, sizeof(buf))) > 0) {
		long off = 0;

		while (off < n && rc) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			const char *p = d->d_name;
			int fd = (int)parse_num(&p, 10);

			off += d->d_reclen;
			if (*p != '\0' || p == d->d_name || fd == dir)
				continue;
			if (fstat(fd, st) == 0 && S_ISREG(st->st_mode) &&
			    st->st_ino == m->ino && major(st->st_dev) == m->maj &&
			    minor(st->st_dev) == m->min)
				rc = 0;
		}
	}
	close(dir);
	return rc;
}

/**
 * on_sigbus() - SIGBUS handler: an access past the end of a shared file
 *		 mapping gets zero pages; anything else is handed back to
 *		 the previous action (by returning with it restored, so that
 *		 the access faults again)
 */
static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	uintptr_t addr = (uintptr_t)si->si_addr, from;
	int saved = errno;
	struct mapline m;
	struct stat st;
	char line[PATH_MAX + 128];
	uint64_t page;

	(void)sig;
	(void)uc;
	if (si->si_code != BUS_ADRERR ||
	    find_mapping(addr, &m, line, sizeof(line)) ||
	    m.perms[3] != 's' || file_of_mapping(&m, &st))
		goto not_ours;
	page = st.st_blksize > 0 ? (uint64_t)st.st_blksize : 4096;
	from = addr & ~(uintptr_t)(page - 1);
	if (from < m.start || m.offset + (from - m.start) < (uint64_t)st.st_size)
		goto not_ours;	/* inside the file: a real I/O error */
	if (mmap((void *)from, m.end - from, PROT_READ | PROT_WRITE,
		 MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		 -1, 0) == MAP_FAILED)
		goto not_ours;
	__atomic_add_fetch(&xc_mg_faults, 1, __ATOMIC_RELAXED);
	errno = saved;
	return;
not_ours:
	sigaction(SIGBUS, &xc_mg_old, NULL);
	errno = saved;
}

/**
 * xc_memguard_faults() - accesses past the end of a guest's memory file
 *			  caught so far
 *
 * Return: the count
 */
uint64_t xc_memguard_faults(void)
{
	return __atomic_load_n(&xc_mg_faults, __ATOMIC_RELAXED);
}

/**
 * xc_memguard_init() - install the SIGBUS handler
 * @mg:		guard state, zeroed by the caller
 * @rundir:	the EAL's runtime directory (kept by pointer)
 * @prefix:	the EAL's file prefix (kept by pointer)
 *
 * Return: 0, or -errno
 */
int xc_memguard_init(struct xc_memguard *mg, const char *rundir,
		     const char *prefix)
{
	struct sigaction sa;

	mg->rundir = rundir;
	mg->prefix = prefix;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &xc_mg_old) < 0)
		return -errno;
	return 0;
}

/**
 * struct mapped - the files something is mapped from
 */
struct mapped {
	size_t n, cap;
	struct { unsigned int maj, min; uint64_t ino; } *f;
};

/* read_mapped() - every file /proc/self/maps names; -errno on failure */
static int read_mapped(struct mapped *mp)
{
	char line[PATH_MAX + 128];
	struct mapline m;
	FILE *f;

	f = fopen("/proc/self/maps", "re");
	if (f == NULL)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (parse_mapline(line, &m) || m.ino == 0)
			continue;
		if (mp->n == mp->cap) {
			size_t cap = mp->cap ? 2 * mp->cap : 64;
			void *p = realloc(mp->f, cap * sizeof(*mp->f));

			if (p == NULL) {
				fclose(f);
				return -ENOMEM;
			}
			mp->f = p;
			mp->cap = cap;
		}
		mp->f[mp->n].maj = m.maj;
		mp->f[mp->n].min = m.min;
		mp->f[mp->n++].ino = m.ino;
	}
	fclose(f);
	return 0;
}

static bool is_mapped(const struct mapped *mp, const struct stat *st)
{
	size_t i;

	for (i = 0; i < mp->n; i++)
		if (mp->f[i].ino == st->st_ino &&
		    mp->f[i].maj == major(st->st_dev) &&
		    mp->f[i].min == minor(st->st_dev))
			return true;
	return false;
}

/**
 * guest_memory_fd() - could this fd be guest memory? A tmpfs or hugetlbfs
 *		       file (memfd included), not the EAL's own
 * @mg:		guard (the EAL's names)
 * @fd:		fd
 * @st:		filled with the fd's stat
 * @name:	filled with what the fd points to
 * @len:	room in @name
 *
 * Return: true if so
 */
static bool guest_memory_fd(const struct xc_memguard *mg, int fd,
			    struct stat *st, char *name, size_t len)
{
	char link[64], eal[NAME_MAX + 8];
	struct statfs sf;
	ssize_t n;

	if (fd <= 2 || fstat(fd, st) || !S_ISREG(st->st_mode) ||
	    fstatfs(fd, &sf) ||
	    ((unsigned long)sf.f_type != TMPFS_MAGIC_ &&
	     (unsigned long)sf.f_type != HUGETLBFS_MAGIC_))
		return false;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, name, len - 1);
	if (n <= 0)
		return false;
	name[n] = '\0';
	snprintf(eal, sizeof(eal), "/%smap_", mg->prefix);
	if (!strncmp(name, "/memfd:seg_", 11) || strstr(name, eal) ||
	    (mg->rundir[0] && !strncmp(name, mg->rundir, strlen(mg->rundir))))
		return false;
	return true;
}

/**
 * listed() - is an fd, with its file, in a list?
 * @l:		list
 * @n:		its length
 * @fd:		fd
 * @st:		its stat
 *
 * Return: true if so
 */
static bool listed(const struct xc_memguard_suspect *l, unsigned int n,
		   int fd, const struct stat *st)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (l[i].fd == fd && l[i].dev == st->st_dev &&
		    l[i].ino == st->st_ino)
			return true;
	return false;
}

/**
 * open_fds() - how many fds the process has open, from stat() of
 *		/proc/self/fd (Linux 6.2 and later)
 *
 * Return: the count, 0 if the kernel does not say
 */
static long open_fds(void)
{
	struct stat st;

	if (stat("/proc/self/fd", &st))
		return 0;
	return (long)st.st_size;
}

/**
 * find_guest_fds() - every guest memory fd open now
 * @mg:		guard
 * @out:	filled, XC_MG_MAX_KNOWN entries
 *
 * Return: how many, -E2BIG if there are more than @out holds, or -errno
 */
static int find_guest_fds(const struct xc_memguard *mg,
			  struct xc_memguard_suspect *out)
{
	char name[PATH_MAX];
	struct dirent *d;
	struct stat st;
	int n = 0, fd;
	DIR *dir;

	dir = opendir("/proc/self/fd");
	if (dir == NULL)
		return -errno;
	while ((d = readdir(dir)) != NULL) {
		fd = atoi(d->d_name);
		if (d->d_name[0] == '.' || fd == dirfd(dir) ||
		    !guest_memory_fd(mg, fd, &st, name, sizeof(name)))
			continue;
		if (n == XC_MG_MAX_KNOWN) {
			n = -E2BIG;
			break;
		}
		out[n].fd = fd;
		out[n].dev = st.st_dev;
		out[n++].ino = st.st_ino;
	}
	closedir(dir);
	return n;
}

/**
 * xc_memguard_scan() - close guest memory fds left behind, and report
 *			faults caught since the last call; for housekeeping
 *			(every 1 to 2 s: an fd is closed when two scans in a
 *			row find it unmapped; while no fd is suspect and as
 *			many have been open for XC_MG_BUSY_S, a scan looks
 *			at every fd only every XC_MG_FULL_S seconds: a
 *			frontend that connects, has its memory table refused
 *			and goes, all between two scans, may leave the count
 *			as it was, and its fd open that long)
 * @mg:		guard state
 */
void xc_memguard_scan(struct xc_memguard *mg)
{
	struct xc_memguard_suspect *fds = mg->fds, next[XC_MG_MAX_SUSPECTS];
	struct mapped mp = { 0 };
	unsigned int n = 0, k = 0, i;
	char link[64], name[PATH_MAX];
	struct stat st;
	uint64_t faults, now;
	long n_open;
	int n_fds;
	ssize_t len;

	faults = xc_memguard_faults();
	if (faults != mg->faults_seen) {
		XC_LOG(memguard, WARNING,
		       "a guest's memory table claims more than its memory file holds "
		       "(or the file shrank): %" PRIu64 " access(es) past its end, "
		       "given zero pages instead (that guest's frames are lost; "
		       "DPDK 22.11's vhost library does not check)",
		       faults - mg->faults_seen);
		mg->faults_seen = faults;
	}
	/* as many fds open as at the last full scan, no suspect: nothing
	 * leaked since, most likely; a full scan every XC_MG_FULL_S makes
	 * sure (looking at every fd is most of an idle worker's CPU) */
	n_open = open_fds();
	now = rte_get_tsc_cycles();
	/* fds come and go: frontends are connecting, and a memory table
	 * may be refused; every scan looks at every fd for a while */
	if (n_open != mg->n_open)
		mg->busy_until = now + rte_get_tsc_hz() * XC_MG_BUSY_S;
	if (n_open > 0 && n_open == mg->n_open && mg->n_suspects == 0 &&
	    now < mg->next_full && now >= mg->busy_until)
		return;
	n_fds = find_guest_fds(mg, fds);
	if (n_fds < 0 && n_fds != -E2BIG)
		return;	/* not scanned: the next call tries again */
	mg->n_open = n_open;
	mg->next_full = now + rte_get_tsc_hz() * XC_MG_FULL_S;
	/* the same fds as last time, all mapped then: nothing leaked since
	 * (a leaked fd is a new one; a reused number has a new file) */
	if (n_fds >= 0 && mg->n_suspects == 0 &&
	    (unsigned int)n_fds == mg->n_known) {
		for (i = 0; i < (unsigned int)n_fds; i++)
			if (fds[i].fd != mg->known[i].fd ||
			    fds[i].dev != mg->known[i].dev ||
			    fds[i].ino != mg->known[i].ino)
				break;
		if (i == (unsigned int)n_fds)
			return;
	}
	if (n_fds < 0)
		n_fds = XC_MG_MAX_KNOWN;	/* the first ones; the rest later */
	if (read_mapped(&mp))
		goto out;
	for (i = 0; i < (unsigned int)n_fds; i++) {
		st.st_dev = fds[i].dev;
		st.st_ino = fds[i].ino;
		if (is_mapped(&mp, &st)) {
			mg->known[k++] = fds[i];
			continue;
		}
		if (!listed(mg->suspect, mg->n_suspects, fds[i].fd, &st)) {
			if (n < XC_MG_MAX_SUSPECTS)
				next[n++] = fds[i];
			continue;
		}
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fds[i].fd);
		len = readlink(link, name, sizeof(name) - 1);
		name[len > 0 ? len : 0] = '\0';
		close(fds[i].fd);
		mg->fds_closed++;
		XC_LOG_FROM("memguard", memguard, WARNING,
		       "closed fd %d (%s): guest memory from a memory table the "
		       "vhost library refused and never closed (DPDK 22.11); "
		       "%" PRIu64 " closed so far", fds[i].fd, name,
		       mg->fds_closed);
	}
out:
	mg->n_known = k;
	memcpy(mg->suspect, next, n * sizeof(next[0]));
	mg->n_suspects = n;
	free(mp.f);
}
