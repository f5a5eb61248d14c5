/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xcablectl - talk to a running xcable over its control socket
 *
 *   xcablectl [-s SOCKET | -p PREFIX] list [--json]
 *   xcablectl ... show CABLE [--json]   (--json: one JSON document, the
 *                 counters under the names of the text, see counters.c)
 *   xcablectl ... impair CABLE [to-right|to-left] SPEC   (SPEC: none, or
 *                 delay=10ms,jitter=1ms,loss=1%,ge=1%/30%,rate=100mbit,
 *                 dup=0.1%,corrupt=0.1%,limit=1000)
 *   xcablectl ... clear CABLE
 *   xcablectl ... down CABLE | up CABLE   pull the cable out, plug it in
 *   xcablectl ... add NAME left=SOCK right=SOCK [KEY=VALUE]...   a new
 *		   cable (the keys of a [cable NAME] section)
 *   xcablectl ... del NAME | reload   remove a cable; read the config
 *		   file again and apply the difference
 *   xcablectl ... workers   an xcable that supervises workers (more cables
 *		   than one process holds): each worker's pid, EAL prefix,
 *		   state, cables and restarts
 *
 * The socket is xcable.ctl in xcable's EAL runtime directory
 * (/var/run/dpdk/PREFIX, or $XDG_RUNTIME_DIR/dpdk/PREFIX for other users);
 * -p names the prefix (xcable logs it), -s gives the path (xcable
 * --control PATH). Without either, the one running xcable is found.
 * Exit status: 0 on success, 2 if xcable refuses the request or cannot be
 * reached, with the reason on stderr.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define XC_USAGE 2

/**
 * usage() - print how to call, exit 2
 */
static void usage(void)
{
	fprintf(stderr,
		"usage: xcablectl [-s SOCKET | -p PREFIX] list [--json] |\n"
		"       show CABLE [--json] |\n"
		"       impair CABLE [to-right|to-left] SPEC | clear CABLE |\n"
		"       down CABLE | up CABLE |\n"
		"       add NAME left=SOCKET right=SOCKET [KEY=VALUE]... | del NAME |\n"
		"       reload | workers\n"
		"SPEC: none, or delay=10ms,jitter=1ms,loss=1%%,ge=1%%/30%%[/100%%],\n"
		"      rate=100mbit,dup=0.1%%,corrupt=0.1%%,limit=1000\n");
	exit(XC_USAGE);
}

/**
 * run_dir() - the EAL runtime directory's parent for this user
 * @buf:	filled
 * @len:	size of @buf
 */
static void run_dir(char *buf, size_t len)
{
	const char *x = getenv("XDG_RUNTIME_DIR");

	if (getuid() == 0 || x == NULL)
		snprintf(buf, len, "/var/run/dpdk");
	else
		snprintf(buf, len, "%s/dpdk", x);
}

/**
 * find_socket() - the control socket of the one running xcable
 * @out:	filled with its path
 * @len:	size of @out
 *
 * Return: 0, or -ENOENT / -EEXIST (none or several) with a message printed
 */
static int find_socket(char *out, size_t len)
{
	char dir[256], path[sizeof(dir) + 256 + 16];
	struct dirent *e;
	int found = 0;
	DIR *d;

	run_dir(dir, sizeof(dir));
	d = opendir(dir);
	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/xcable.ctl", dir, e->d_name);
		if (access(path, F_OK) == 0) {
			if (found++ == 0)
				snprintf(out, len, "%s", path);
		}
	}
	if (d)
		closedir(d);
	if (found == 1)
		return 0;
	fprintf(stderr, "xcablectl: %s: give -p PREFIX or -s SOCKET\n",
		found ? "several xcables are running" :
			"no running xcable found");
	return found ? -EEXIST : -ENOENT;
}

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	static char ans[1 << 20];
	char dir[256], path[sizeof(dir) + 256 + 16] = "", req[2048];
	size_t used = 0;
	ssize_t n;
	int i = 1, fd, rc = 0;
	char *last;

	if (argc > 2 && strcmp(argv[1], "-s") == 0) {
		snprintf(path, sizeof(path), "%s", argv[2]);
		i = 3;
	} else if (argc > 2 && strcmp(argv[1], "-p") == 0) {
		run_dir(dir, sizeof(dir));
		snprintf(path, sizeof(path), "%s/%s/xcable.ctl", dir, argv[2]);
		i = 3;
	}
	if (i >= argc || argv[i][0] == '-')
		usage();
	if (path[0] == '\0' && find_socket(path, sizeof(path)))
		return XC_USAGE;
	for (; i < argc; i++) {
		int k = snprintf(req + used, sizeof(req) - used, "%s%s",
				 argv[i], i + 1 < argc ? " " : "\n");

		if (k < 0 || (size_t)k >= sizeof(req) - used) {
			fprintf(stderr, "xcablectl: request too long\n");
			return XC_USAGE;
		}
		used += (size_t)k;
	}
	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "xcablectl: socket path too long: %s\n", path);
		return XC_USAGE;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		fprintf(stderr, "xcablectl: cannot reach xcable at %s: %s\n",
			path, strerror(errno));
		return XC_USAGE;
	}
	if (send(fd, req, used, MSG_NOSIGNAL) != (ssize_t)used) {
		fprintf(stderr, "xcablectl: cannot send: %s\n", strerror(errno));
		return XC_USAGE;
	}
	used = 0;
	while (used < sizeof(ans) - 1 &&
	       (n = read(fd, ans + used, sizeof(ans) - 1 - used)) > 0)
		used += (size_t)n;
	ans[used] = '\0';
	/* the last line says how it went: "ok" or "error: WHY" */
	while (used && ans[used - 1] == '\n')
		ans[--used] = '\0';
	last = strrchr(ans, '\n');
	last = last ? last + 1 : ans;
	fwrite(ans, 1, (size_t)(last - ans), stdout);
	if (strcmp(last, "ok") != 0) {
		fprintf(stderr, "xcablectl: %s\n",
			last[0] ? last : "no answer from xcable");
		rc = XC_USAGE;
	}
	close(fd);
	fflush(stdout);
	return rc;
}
