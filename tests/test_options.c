/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_options.c - unit tests of the command-line parser and the socket
 *		    path checks
 *
 * Prints "ok NAME" or "FAIL NAME: why" per check; exits 1 on any failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "end_netdev_def.h"
#include "end_vxlan_def.h"
#include "options.h"
#include "sockpath.h"
#include "sockrec.h"
#include "vxlan_wire.h"
#include "testlib.h"

static int fails;


/* parse a space-separated command line; returns the parser's result */
static int parse(struct xc_opts *o, const char *line, char *err)
{
	static char buf[1024];
	char *argv[64];
	int argc = 0;
	char *tok;

	snprintf(buf, sizeof(buf), "%s", line);
	for (tok = strtok(buf, " "); tok && argc < 64; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	err[0] = '\0';
	return xc_opts_parse(o, argc, argv, err, XC_ERR_LEN);
}

static void test_parse(void)
{
	char err[XC_ERR_LEN], long_path[200];
	struct xc_opts o;

	CHECK("simple mode parses",
	      parse(&o, "--left /tmp/a.sock --right=/tmp/b.sock --client --stats-interval 5", err) == 0 &&
	      !strcmp(o.left, "/tmp/a.sock") && !strcmp(o.right, "/tmp/b.sock") &&
	      o.client && o.stats_interval == 5 && xc_opts_simple(&o));
	CHECK("IOMMU support not offered by default, --iommu offers it",
	      parse(&o, "--left /a --right /b", err) == 0 && !o.iommu &&
	      parse(&o, "--left /a --right /b --iommu", err) == 0 && o.iommu);
	CHECK("cables repeat",
	      parse(&o, "--cable 0:1 --cable=3:2", err) == 0 && o.n_cables == 2 &&
	      o.cables[1].port[0] == 3 && o.cables[1].port[1] == 2 &&
	      !xc_opts_simple(&o));
	CHECK("help", parse(&o, "--help", err) == 0 && o.help);
	CHECK("version", parse(&o, "-V", err) == 0 && o.version);
	CHECK("unknown option named",
	      parse(&o, "--frobnicate", err) == -EINVAL &&
	      strstr(err, "--frobnicate"));
	CHECK("missing value",
	      parse(&o, "--left", err) == -EINVAL && strstr(err, "needs a value"));
	CHECK("left without right",
	      parse(&o, "--left /tmp/a", err) == -EINVAL &&
	      strstr(err, "the right end is missing: give one of --right, --right-vxlan"));
	CHECK("same socket twice",
	      parse(&o, "--left /tmp/a --right /tmp/a", err) == -EINVAL &&
	      strstr(err, "same socket"));
	CHECK("cable same port", parse(&o, "--cable 1:1", err) == -EINVAL);
	CHECK("cable no colon", parse(&o, "--cable 12", err) == -EINVAL);
	CHECK("cable negative", parse(&o, "--cable -1:2", err) == -EINVAL);
	CHECK("cable huge", parse(&o, "--cable 1:99999999999999999999", err) == -EINVAL);
	CHECK("cable trailing junk", parse(&o, "--cable 1:2x", err) == -EINVAL);
	CHECK("cable with simple mode",
	      parse(&o, "--left /a --right /b --cable 0:1", err) == -EINVAL);
	CHECK("stats interval not a number",
	      parse(&o, "--stats-interval abc", err) == -EINVAL &&
	      strstr(err, "--stats-interval"));
	CHECK("stats interval too big",
	      parse(&o, "--stats-interval 100000", err) == -EINVAL);
	CHECK("stats json path",
	      parse(&o, "--left /a --right /b --stats-json /tmp/c.json", err) == 0 &&
	      o.stats_json && !strcmp(o.stats_json, "/tmp/c.json"));
	CHECK("stats json empty",
	      parse(&o, "--stats-json=", err) == -EINVAL && strstr(err, "--stats-json"));
	CHECK("client takes no value", parse(&o, "--client=1", err) == -EINVAL);
	CHECK("socket mode default 0660",
	      parse(&o, "--left /a --right /b", err) == 0 && o.sock_mode == 0660);
	CHECK("socket mode octal",
	      parse(&o, "--left /a --right /b --socket-mode 0600", err) == 0 && o.sock_mode == 0600);
	CHECK("socket mode not octal", parse(&o, "--socket-mode 0680", err) == -EINVAL);
	CHECK("socket mode too big", parse(&o, "--socket-mode 17777", err) == -EINVAL);
	CHECK("idle-us zero refused", parse(&o, "--idle-us 0", err) == -EINVAL);
	CHECK("poll flag", parse(&o, "--left /a --right /b --poll", err) == 0 && o.poll);
	CHECK("positional argument", parse(&o, "left.sock", err) == -EINVAL);
	CHECK("comma in path",
	      parse(&o, "--left /tmp/a,b --right /tmp/c", err) == -EINVAL &&
	      strstr(err, "contains ','"));
	CHECK("'=' in path (DPDK's device arguments cannot carry it)",
	      parse(&o, "--left /tmp/a=b --right /tmp/c", err) == -EINVAL &&
	      strstr(err, "contains '='"));
	CHECK("control character in path",
	      parse(&o, "--left /tmp/a\033b --right /tmp/c", err) == -EINVAL &&
	      strstr(err, "control character"));
	memset(long_path, 'x', sizeof(long_path) - 1);
	long_path[0] = '/';
	long_path[sizeof(long_path) - 1] = '\0';
	{
		char line[512];

		snprintf(line, sizeof(line), "--left %s --right /tmp/b", long_path);
		CHECK("path too long",
		      parse(&o, line, err) == -EINVAL && strstr(err, "limit"));
	}
	{
		char *argv[XC_MAX_CABLES * 2 + 4];
		char vals[XC_MAX_CABLES + 1][16];
		int i, n = 0;

		for (i = 0; i <= XC_MAX_CABLES; i++) {
			snprintf(vals[i], sizeof(vals[i]), "%d:%d", 2 * i, 2 * i + 1);
			argv[n++] = "--cable";
			argv[n++] = vals[i];
		}
		CHECK("too many cables",
		      xc_opts_parse(&o, n, argv, err, sizeof(err)) == -EINVAL);
	}
}

/* split a space-separated command line (program name first) */
static int split(const char *line, struct xc_argsplit *s, char *err)
{
	static char buf[1024];
	static char *argv[64];
	int argc = 0;
	char *tok;

	snprintf(buf, sizeof(buf), "%s", line);
	for (tok = strtok(buf, " "); tok && argc < 63; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	err[0] = '\0';
	return xc_args_split(argc, argv, s, err, XC_ERR_LEN);
}

static void test_split(void)
{
	char err[XC_ERR_LEN];
	struct xc_argsplit s;

	CHECK("split at --",
	      split("xcable -l 0-1 -- --cable 0:1", &s, err) == 0 && s.has_sep &&
	      s.eal_argc == 3 && s.app_argc == 2 && !strcmp(s.app_argv[0], "--cable"));
	CHECK("no separator, xcable options only",
	      split("xcable --left a --right b", &s, err) == 0 && !s.has_sep &&
	      !s.eal_only && s.eal_argc == 1 && s.app_argc == 4);
	CHECK("no separator, EAL options only (as dpdk-testpmd)",
	      split("xcable -l 0-1 --vdev net_vhost0,iface=l.sock --vdev=net_vhost1,iface=r.sock --no-pci -v", &s, err) == 0 &&
	      s.eal_only && s.eal_argc == 8 && s.app_argc == 0);
	CHECK("no separator, short EAL option with its value attached",
	      split("xcable -l0-1 --log-level debug --huge-unlink", &s, err) == 0 && s.eal_only);
	CHECK("EAL option values are not options",
	      split("xcable --file-prefix left --vdev net_null0", &s, err) == 0 && s.eal_only);
	CHECK("unknown word: xcable's parser judges it",
	      split("xcable --bogus", &s, err) == 0 && !s.eal_only && s.app_argc == 1);
	CHECK("xcable option in front of EAL options refused, with the fix",
	      split("xcable --stats-interval 1 -l 0-1 --vdev net_vhost0,iface=/tmp/a-long-name.sock", &s, err) == -EINVAL &&
	      strstr(err, "'-l' is an EAL option, after xcable's '--stats-interval'") &&
	      strstr(err, "xcable -l 0-1 --vdev net_vhost0,iface... -- --stats-interval 1"));
	CHECK("xcable option after EAL options refused, with the fix",
	      split("xcable -l 0-1 --no-pci --queues 2", &s, err) == -EINVAL &&
	      strstr(err, "'--queues' is xcable's option, after EAL options") &&
	      strstr(err, "xcable -l 0-1 --no-pci -- --queues 2"));
	CHECK("xcable option before -- refused",
	      split("xcable -l 0 --poll -- --cable 0:1", &s, err) == -EINVAL &&
	      strstr(err, "'--poll' is xcable's option: it goes after '--'"));
	CHECK("stray word among EAL options",
	      split("xcable -l 0-1 left.sock", &s, err) == -EINVAL &&
	      strstr(err, "unexpected argument 'left.sock'"));
	CHECK("--help among EAL options is xcable's",
	      split("xcable -l 0-1 --help", &s, err) == 0 && s.app_argc == 1 &&
	      !strcmp(s.app_argv[0], "--help"));
}

/**
 * has_word() - is @w in @text, followed by a space, a newline or the end?
 * @text:	where
 * @w:		what
 *
 * Return: true if so
 */
static bool has_word(const char *text, const char *w)
{
	const char *p;

	for (p = strstr(text, w); p; p = strstr(p + 1, w))
		if (p[strlen(w)] == ' ' || p[strlen(w)] == '\n' ||
		    p[strlen(w)] == '\0')
			return true;
	return false;
}

/* every option of the table, the kinds' too, is in --help and in the man
 * page */
static void test_table_documented(const char *man)
{
	char *help = NULL, *page = NULL, name[80], esc[160];
	size_t len = 0, i, k;
	unsigned int j, missing = 0;
	struct xc_opt_row r;
	FILE *f = open_memstream(&help, &len);

	xc_opts_help(f, "xcable");
	fclose(f);
	if (man) {
		f = fopen(man, "r");
		page = calloc(1, 1 << 20);
		if (f == NULL || page == NULL || fread(page, 1, (1 << 20) - 1, f) == 0) {
			printf("FAIL man page %s: cannot read it\n", man);
			fails++;
		}
		if (f)
			fclose(f);
	}
	for (j = 0; xc_opt_row(j, &r); j++) {
		const struct xc_opt_desc *d = r.d;
		const char *key = d->key ? d->key : d->name;

		snprintf(name, sizeof(name), "--%s", d->name);
		/* a key of the config file alone (an end's kind: left-netdev)
		 * is no command line option: its key is in --help's per-end
		 * or [port NAME] list, and the man page's CONFIG FILE below;
		 * an end's key that is the side alone (left = PATH) is said
		 * in words */
		if (!(d->where & XC_OPT_CLI)) {
			snprintf(name, sizeof(name), " %s", key);
			if (key[0] && !has_word(help, name)) {
				printf("FAIL --help lacks the key %s\n", key);
				missing++;
			}
		} else if (!strstr(help, name)) {
			printf("FAIL --help lacks %s\n", name);
			missing++;
		}
		if (page == NULL)
			continue;
		snprintf(name, sizeof(name), "--%s", d->name);
		/* the man page escapes every '-': \-\-stats\-interval */
		for (i = k = 0; name[i] && k + 2 < sizeof(esc); i++) {
			if (name[i] == '-')
				esc[k++] = '\\';
			esc[k++] = name[i];
		}
		esc[k] = '\0';
		if ((d->where & XC_OPT_CLI) && !strstr(page, esc)) {
			printf("FAIL %s lacks %s\n", man, name);
			missing++;
		}
		snprintf(name, sizeof(name), "%s%s%s =",
			 d->where & XC_OPT_END ? "left" : "",
			 d->where & XC_OPT_END && key[0] ? "-" : "", key);
		for (i = k = 0; name[i] && k + 2 < sizeof(esc); i++) {
			if (name[i] == '-')
				esc[k++] = '\\';
			esc[k++] = name[i];
		}
		esc[k] = '\0';
		if ((d->where & (XC_OPT_GLOBAL | XC_OPT_CABLE | XC_OPT_END |
				 XC_OPT_PORT)) && !strstr(page, esc)) {
			printf("FAIL %s: CONFIG FILE lacks the key %s\n", man, name);
			missing++;
		}
	}
	fails += missing != 0;
	printf("%s every option of the table (%u) in --help%s\n",
	       missing ? "FAIL" : "ok", j,
	       page ? " and the man page" : "");
	free(help);
	free(page);
}

static int load(const char *text, struct xc_opts *o, struct xc_cable_def *defs,
		unsigned int *n, char *err);

/* the config file reads option keys through the table, and the command
 * line overrides [global] */
static void test_config_table(void)
{
	static struct xc_cable_def d[XC_MAX_CABLES];
	char err[XC_ERR_LEN], path[] = "/tmp/xcable-cfg-XXXXXX";
	static const char text[] =
		"[global]\nstats-json = /tmp/counters.json\nsocket-group = kvm\nsocket-group = wheel\n"
		"idle-us = 50\nqueues = 2\nlink-propagation = no\noffloads = no\niommu = yes\n"
		"[cable x]\nleft = /a\nright = /b\nimpair-to-left = loss=1%\nleft-client = yes\n"
		"right-socket-owner = qemu\nright-offloads = yes\nright-iommu = no\n";
	struct xc_opts o;
	unsigned int n;
	int fd = mkstemp(path);
	char *argv[] = { "--idle-us", "70", "--impair", "delay=1ms", "--config", path };

	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		return;
	close(fd);
	CHECK("--stats-json on the command line",
	      parse(&o, "--left /a --right /b --stats-json=/tmp/c.json", err) == 0 &&
	      o.stats_json && !strcmp(o.stats_json, "/tmp/c.json"));
	CHECK("--stats-json needs a path",
	      parse(&o, "--stats-json=", err) == -EINVAL && strstr(err, "--stats-json"));
	err[0] = '\0';
	CHECK("config with option keys",
	      xc_opts_parse(&o, 6, argv, err, sizeof(err)) == 0 &&
	      xc_config_load(path, &o, d, XC_MAX_CABLES, &n, err, sizeof(err)) == 0 && n == 1 &&
	      o.stats_json && !strcmp(o.stats_json, "/tmp/counters.json") &&
	      !strcmp(o.sock_group, "wheel") && o.idle_us == 70 && o.queues == 2 &&
	      o.no_propagate && !o.offloads &&
	      d[0].end[0].queues == 2 && d[0].end[1].queues == 2 &&
	      !strcmp(d[0].end[0].sock_group, "wheel") &&
	      !strcmp(d[0].end[1].sock_owner, "qemu") && !d[0].end[0].sock_owner[0] &&
	      d[0].end[0].client && !d[0].end[1].client &&
	      !d[0].end[0].offloads && d[0].end[1].offloads &&
	      o.iommu && d[0].end[0].iommu && !d[0].end[1].iommu &&
	      d[0].impair[0].delay_us == 1000 && d[0].impair[1].loss_ppm == 10000 &&
	      d[0].impair[1].delay_us == 0);
	if (err[0])
		printf("  %s\n", err);
	unlink(path);
	CHECK("config: [global] key that is no [global] option",
	      load("[global]\nclient = yes\n[cable x]\nleft = /a\nright = /b\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "[global] client: unknown key"));
	CHECK("config: bad group name",
	      load("[global]\nsocket-group = g234567890123456789012345678901234567890123456789012345678901234\n[cable x]\nleft = /a\nright = /b\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "[global] socket-group: expected a group name"));
}

static void test_sockpath(void)
{
	char dir[] = "/tmp/xcable-test-XXXXXX", path[256], err[XC_ERR_LEN];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, rc;

	if (mkdtemp(dir) == NULL) {
		printf("FAIL sockpath: mkdtemp: %s\n", strerror(errno));
		fails++;
		return;
	}
	snprintf(path, sizeof(path), "%s/s.sock", dir);
	CHECK("sockpath: fresh path accepted",
	      xc_sock_prepare(path, false, err, sizeof(err)) == 0);

	/* a live listener: refused, and left alone */
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	rc = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	listen(fd, 1);
	CHECK("sockpath: live socket refused",
	      rc == 0 && xc_sock_prepare(path, false, err, sizeof(err)) == -EADDRINUSE &&
	      strstr(err, "in use") && access(path, F_OK) == 0);
	/* the listener dies: a socket nobody listens on, but not xcable's
	 * (test_sock_record(): one a process that ended recorded goes) */
	close(fd);
	CHECK("sockpath: stale socket of somebody else's kept",
	      xc_sock_prepare(path, false, err, sizeof(err)) == -EEXIST &&
	      access(path, F_OK) == 0);
	unlink(path);
	/* a regular file is never removed */
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	close(fd);
	CHECK("sockpath: regular file refused",
	      xc_sock_prepare(path, false, err, sizeof(err)) == -EEXIST &&
	      access(path, F_OK) == 0);
	unlink(path);
	CHECK("sockpath: missing directory refused",
	      xc_sock_prepare("/nonexistent-dir/x.sock", false, err, sizeof(err)) == -ENOENT &&
	      strstr(err, "/nonexistent-dir/x.sock"));
	CHECK("sockpath: client mode creates nothing",
	      xc_sock_prepare("/nonexistent-dir/x.sock", true, err, sizeof(err)) == 0);
	rmdir(dir);
}

/**
 * listen_at() - bind and listen on a unix socket path
 * @path:	where
 *
 * Return: the fd, or -1
 */
static int listen_at(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 1) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/**
 * put_file() - write a regular file with known content
 * @path:	where
 * @text:	its content
 */
static void put_file(const char *path, const char *text)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);

	if (fd >= 0) {
		if (write(fd, text, strlen(text)) < 0)
			perror("put_file");
		close(fd);
	}
}

/**
 * has_text() - does a path hold a regular file with this content?
 * @path:	where
 * @text:	the content
 *
 * Return: true if so
 */
static bool has_text(const char *path, const char *text)
{
	char buf[64] = "";
	struct stat st;
	ssize_t n = -1;
	int fd;

	if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	return n >= 0 && (size_t)n == strlen(text) && memcmp(buf, text, n) == 0;
}

/* what xcable removes and renames: only the sockets it made, only stale
 * ones it did not, never over another file */
static void test_sock_own(void)
{
	char dir[] = "/tmp/xcable-own-XXXXXX", path[256], other[256];
	char err[XC_ERR_LEN];
	struct xc_sock_id id, id2;
	int fd, fd2;

	if (mkdtemp(dir) == NULL) {
		printf("FAIL sock-own: mkdtemp: %s\n", strerror(errno));
		fails++;
		return;
	}
	snprintf(path, sizeof(path), "%s/s.sock", dir);
	snprintf(other, sizeof(other), "%s/o", dir);
	fd = xc_sock_listen_own(path, 0, 1, 0600, -1, -1, &id, err, sizeof(err));
	CHECK("sock-own: a socket it bound is its own",
	      fd >= 0 && id.ino != 0 && xc_sock_own(path, &id, err, sizeof(err)) == 1);
	CHECK("sock-own: its own socket is removed",
	      xc_sock_unlink_own(path, &id, err, sizeof(err)) == 0 &&
	      access(path, F_OK) != 0);
	CHECK("sock-own: nothing there is fine",
	      xc_sock_own(path, &id, err, sizeof(err)) == 0 &&
	      xc_sock_unlink_own(path, &id, err, sizeof(err)) == 0);
	/* somebody put a file where the socket was */
	put_file(path, "theirs\n");
	CHECK("sock-own: a regular file in its place is named and kept",
	      xc_sock_unlink_own(path, &id, err, sizeof(err)) == -EEXIST &&
	      strstr(err, path) && strstr(err, "a regular file") &&
	      has_text(path, "theirs\n"));
	unlink(path);
	/* ... or a socket of its own, alive */
	fd2 = listen_at(path);
	CHECK("sock-own: another process's socket in its place is kept",
	      fd2 >= 0 && xc_sock_unlink_own(path, &id, err, sizeof(err)) == -EEXIST &&
	      strstr(err, "socket xcable did not make") && access(path, F_OK) == 0);
	CHECK("sock-own: a live socket is refused, and kept",
	      xc_sock_prepare(path, false, err, sizeof(err)) == -EADDRINUSE &&
	      access(path, F_OK) == 0);
	close(fd2);
	CHECK("sock-own: a socket nobody listens on that no xcable recorded is kept, and named",
	      xc_sock_prepare(path, false, err, sizeof(err)) == -EEXIST &&
	      strstr(err, path) && strstr(err, "no xcable that ended recorded") &&
	      access(path, F_OK) == 0);
	unlink(path);
	put_file(path, "theirs\n");
	CHECK("sock-own: a regular file is in the way, and kept",
	      xc_sock_prepare(path, false, err, sizeof(err)) == -EEXIST &&
	      strstr(err, "a regular file") && has_text(path, "theirs\n"));
	CHECK("sock-own: nothing there is fine",
	      xc_sock_prepare(other, false, err, sizeof(err)) == 0);
	/* renames never replace */
	close(fd);
	fd = listen_at(other);
	xc_sock_id_take(other, &id2);
	CHECK("sock-own: a rename onto a file does not replace it",
	      fd >= 0 && xc_sock_rename_new(other, path) == -EEXIST &&
	      has_text(path, "theirs\n") && xc_sock_own(other, &id2, err, sizeof(err)) == 1);
	unlink(path);
	CHECK("sock-own: a rename onto nothing moves the socket, inode and all",
	      xc_sock_rename_new(other, path) == 0 && access(other, F_OK) != 0 &&
	      xc_sock_own(path, &id2, err, sizeof(err)) == 1);
	close(fd);
	unlink(path);
	rmdir(dir);
}

/**
 * bind_and_end() - a child process that records its sockets in @run, binds
 *		    one at @path and closes it (nobody listens), then, with
 *		    @stay, waits for SIGKILL, else ends at once without
 *		    removing anything (a crash)
 * @run:	its run directory
 * @path:	its socket
 * @stay:	stay alive
 *
 * Return: the child's pid, or -1
 */
static pid_t bind_and_end(const char *run, const char *path, bool stay)
{
	char err[XC_ERR_LEN];
	struct xc_sock_id id;
	int fd, p[2];
	pid_t pid;
	char c = 0;

	if (pipe(p) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		fd = xc_sockrec_open(run) == 0 ?
		     xc_sock_listen_own(path, 0, 1, 0600, -1, -1, &id, err,
					sizeof(err)) : -1;
		if (fd >= 0)
			close(fd);
		c = fd >= 0 ? 'y' : 'n';
		if (write(p[1], &c, 1) != 1 || !stay)
			_exit(0);
		pause();
		_exit(0);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], &c, 1) != 1 || c != 'y')
		pid = -1;
	close(p[0]);
	return pid;
}

/* a socket a process that ended recorded binding is removed by the next
 * one's checks; one of a process that lives, or of nobody, is kept */
static void test_sock_record(void)
{
	char base[256], run[300], dir[] = "/tmp/xcable-rec-XXXXXX", path[256];
	char err[XC_ERR_LEN], file[400];
	struct stat st;
	pid_t pid;
	int fd;

	xc_sockrec_base(base, sizeof(base));
	snprintf(run, sizeof(run), "%s/xctest-rec-%d", base, (int)getpid());
	if (mkdtemp(dir) == NULL || (mkdir(base, 0700) && errno != EEXIST) ||
	    mkdir(run, 0700)) {
		printf("FAIL sock-record: cannot make %s: %s\n", run,
		       strerror(errno));
		fails++;
		return;
	}
	snprintf(path, sizeof(path), "%s/s.sock", dir);
	pid = bind_and_end(run, path, true);
	CHECK("sock-record: a process that lives keeps its socket, though nobody listens on it",
	      pid > 0 && xc_sock_prepare(path, false, err, sizeof(err)) == -EEXIST &&
	      lstat(path, &st) == 0 && S_ISSOCK(st.st_mode));
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	CHECK("sock-record: once it ended, the next start removes its leftover",
	      xc_sock_prepare(path, false, err, sizeof(err)) == 0 &&
	      lstat(path, &st) < 0);
	pid = bind_and_end(run, path, false);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	unlink(path);
	fd = listen_at(path);
	close(fd);
	CHECK("sock-record: a socket of somebody else's at that path is kept, though the record names the path",
	      fd >= 0 && xc_sock_prepare(path, false, err, sizeof(err)) == -EEXIST &&
	      lstat(path, &st) == 0 && S_ISSOCK(st.st_mode));
	unlink(path);
	snprintf(file, sizeof(file), "%s/%s", run, XC_SOCKREC_FILE);
	unlink(file);
	rmdir(run);
	rmdir(dir);
}

/* write TEXT to a temp file and load it; the message in err */
static int load(const char *text, struct xc_opts *o, struct xc_cable_def *defs,
		unsigned int *n, char *err)
{
	char path[] = "/tmp/xcable-cfg-XXXXXX";
	int fd = mkstemp(path), rc;

	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		return -99;
	close(fd);
	memset(o, 0, sizeof(*o));
	o->sock_mode = 0660;
	o->idle_us = 100;
	err[0] = '\0';
	rc = xc_config_load(path, o, defs, XC_MAX_CABLES, n, err, XC_ERR_LEN);
	unlink(path);
	return rc;
}

/* the loader holds to the number of cables its caller has room for */
static void test_config_max(void)
{
	static struct xc_cable_def d[XC_MAX_CABLES];
	char err[XC_ERR_LEN], text[XC_MAX_CABLES * 48 + 64];
	struct xc_opts o;
	unsigned int n, i;
	size_t used = 0;

	for (i = 0; i <= XC_MAX_CABLES; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 "[cable c%u]\nleft = /l%u\nright = /r%u\n",
					 i, i, i);
	CHECK("config: one cable more than the caller has room for is refused",
	      load(text, &o, d, &n, err) == -EINVAL &&
	      strstr(err, "[cable c64]: too many cables (at most 64)") != NULL);
}

/* [port NAME] sections, port ends and trunk tags */
static void test_config_ports(void)
{
	static struct xc_cable_def d[XC_MAX_CABLES];
	static const char trunk[] =
		"[port up]\ndevargs = net_af_packet0,iface=eth1\ntag-type = 802.1q\nmtu = 1508\n"
		"[cable a]\nleft = /a\nright-port = up\nright-tag = 10\n"
		"[cable b]\nleft-port = up\nleft-tag = 20\nright = /b\n";
	char err[XC_ERR_LEN], text[512];
	struct xc_opts o;
	unsigned int n;

	CHECK("config: trunk with two tagged cables",
	      load(trunk, &o, d, &n, err) == 0 && n == 2 && o.n_port_defs == 1 &&
	      !strcmp(o.port_defs[0].devargs, "net_af_packet0,iface=eth1") &&
	      o.port_defs[0].tpid == XC_TPID_8021Q && o.port_defs[0].mtu == 1508 &&
	      d[0].end[0].port == -1 && d[0].end[1].port == 0 && d[0].end[1].tag == 10 &&
	      d[1].end[0].port == 0 && d[1].end[0].tag == 20 && d[1].end[1].port == -1);
	CHECK("config: 802.1ad is the default tag type",
	      load("[port p]\ndevargs = 0000:03:00.0\n[cable a]\nleft = /a\nright-port = p\n",
		   &o, d, &n, err) == 0 && o.port_defs[0].tpid == XC_TPID_8021AD &&
	      d[0].end[1].tag == 0);
	CHECK("config: tag used twice on a port",
	      load("[port up]\ndevargs = net_af_packet0,iface=eth1\n"
		   "[cable a]\nleft = /a\nright-port = up\nright-tag = 10\n"
		   "[cable b]\nleft = /b\nright-port = up\nright-tag = 10\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "[cable b] right-port: port up already carries tag 10 for cable a"));
	CHECK("config: untagged port shared",
	      load("[port up]\ndevargs = net_af_packet0,iface=eth1\n"
		   "[cable a]\nleft = /a\nright-port = up\n"
		   "[cable b]\nleft = /b\nright-port = up\nright-tag = 10\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "port up is already an end of cable a"));
	CHECK("config: unknown port",
	      load("[cable a]\nleft = /a\nright-port = nope\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "[cable a] right-port: no [port NAME] section"));
	CHECK("config: tag without port",
	      load("[cable a]\nleft = /a\nright = /b\nright-tag = 5\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "right-tag: a tag needs a port"));
	CHECK("config: socket and port on one end",
	      load("[port p]\ndevargs = net_af_xdp0,iface=x\n[cable a]\nleft = /a\nright = /b\nright-port = p\n",
		   &o, d, &n, err) == -EINVAL &&
	      strstr(err, "right: more than one kind: every end is one of right = PATH, right-port = NAME"));
	CHECK("config: a netdev end, in a namespace",
	      load("[cable a]\nleft = /a\nright-netdev = veth0\nright-netns = /run/netns/r1\n",
		   &o, d, &n, err) == 0 && n == 1 && strcmp(xc_netdev_def(&d[0].end[1])->ifname, "veth0") == 0 &&
	      strcmp(xc_netdev_def(&d[0].end[1])->netns, "/run/netns/r1") == 0 && !d[0].end[1].path[0]);
	CHECK("config: netdev ends with tags share an interface",
	      load("[cable a]\nleft = /a\nright-netdev = v0\nright-tag = 10\n"
		   "[cable b]\nleft = /b\nright-netdev = v0\nright-tag = 20\nright-tag-type = 802.1q\n"
		   "[cable c]\nleft = /c\nright-netdev = v0\nright-netns = /run/netns/x\n",
		   &o, d, &n, err) == 0 && n == 3 && d[0].end[1].tag == 10 &&
	      xc_netdev_def(&d[0].end[1])->tpid != XC_TPID_8021Q &&
	      d[1].end[1].tag == 20 && xc_netdev_def(&d[1].end[1])->tpid == XC_TPID_8021Q);
	CHECK("config: a tag of an interface taken twice",
	      load("[cable a]\nleft = /a\nright-netdev = v0\nright-tag = 10\n"
		   "[cable b]\nleft = /b\nright-netdev = v0\nright-tag = 10\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "[cable b] right-netdev: tag 10 of interface v0 is already an end of cable a"));
	CHECK("config: an interface's end without a tag beside one with",
	      load("[cable a]\nleft = /a\nright-netdev = v0\nright-tag = 10\n"
		   "[cable b]\nleft = /b\nright-netdev = v0\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "[cable b] right-netdev: tag 10 of interface v0 is already an end of cable a"));
	CHECK("config: an end with a tag beside an interface's end without",
	      load("[cable a]\nleft = /a\nright-netdev = v0\n"
		   "[cable b]\nleft = /b\nright-netdev = v0\nright-tag = 10\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "[cable b] right-netdev: interface v0 is already an end of cable a"));
	CHECK("config: 802.1ad given without a tag",
	      load("[cable a]\nleft = /a\nright-netdev = v0\nright-tag-type = 802.1ad\n",
		   &o, d, &n, err) == -EINVAL && strstr(err, "right-tag-type: a tag type needs a tag (right-tag = N)"));
	CHECK("config: a tag type without a tag",
	      load("[cable a]\nleft = /a\nright-netdev = v0\nright-tag-type = 802.1q\n",
		   &o, d, &n, err) == -EINVAL &&
	      strstr(err, "[cable a] right-tag-type: a tag type needs a tag (right-tag = N)"));
	CHECK("config: a netdev tag type on a socket end",
	      load("[cable a]\nleft = /a\nright = /b\nright-tag-type = 802.1q\n",
		   &o, d, &n, err) == -EINVAL &&
	      strstr(err, "right-tag-type: a key of netdev ends, but the right end is a socket end"));
	CHECK("config: a bad tag type",
	      load("[cable a]\nleft = /a\nright-netdev = v0\nright-tag = 1\nright-tag-type = 802.1x\n",
		   &o, d, &n, err) == -EINVAL && strstr(err, "right-tag-type"));
	CHECK("config: a netdev end and a socket on one end",
	      load("[cable a]\nleft = /a\nright = /b\nright-netdev = veth0\n",
		   &o, d, &n, err) == -EINVAL && strstr(err, "right: more than one kind"));
	CHECK("config: a key of another kind of end",
	      load("[cable a]\nleft = /a\nright = /b\nright-vni = 5\n",
		   &o, d, &n, err) == -EINVAL &&
	      strstr(err, "[cable a] right-vni: a key of vxlan ends, but the right end is a socket end"));
	CHECK("config: a namespace without an interface",
	      load("[cable a]\nleft = /a\nright-vxlan = 192.0.2.1\nright-vni = 1\nright-netns = /run/netns/x\n",
		   &o, d, &n, err) == -EINVAL &&
	      strstr(err, "right-netns: a key of netdev ends, but the right end is a vxlan end"));
	CHECK("config: an interface name too long",
	      load("[cable a]\nleft = /a\nright-netdev = abcdefghijklmnop\n",
		   &o, d, &n, err) == -EINVAL &&
	      strstr(err, "right-netdev: expected a Linux interface name (1 to 15 bytes)"));
	CHECK("config: tag out of range",
	      load("[port p]\ndevargs = net_af_xdp0,iface=x\n[cable a]\nleft = /a\nright-port = p\nright-tag = 4095\n",
		   &o, d, &n, err) == -EINVAL && strstr(err, "VLAN id from 1 to 4094"));
	CHECK("config: bad tag type",
	      load("[port p]\ndevargs = net_af_xdp0,iface=x\ntag-type = 802.1x\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "[port p] tag-type: expected 802.1ad or 802.1q"));
	CHECK("config: port without devargs",
	      load("[port p]\nmtu = 1500\n[cable a]\nleft = /a\nright-port = p\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "[port p] devargs: missing"));
	CHECK("config: devargs with a space",
	      load("[port p]\ndevargs = net_af_packet0,iface=a b\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "spaces"));
	CHECK("config: vhost as a port",
	      load("[port p]\ndevargs = net_vhost9,iface=/x\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "declared by their socket"));
	CHECK("config: port end with queues",
	      load("[port p]\ndevargs = net_af_xdp0,iface=x\n[cable a]\nleft = /a\nleft-queues = 2\nright-queues = 2\nright-port = p\n",
		   &o, d, &n, err) == -EINVAL && strstr(err, "one queue pair"));
	CHECK("config: port name twice",
	      load("[port p]\ndevargs = net_af_xdp0,iface=x\n[port p ]\ndevargs = net_af_xdp1,iface=y\n", &o, d, &n, err) == -EINVAL);
	CHECK("config: bad mtu",
	      load("[port p]\ndevargs = net_af_xdp0,iface=x\nmtu = 20\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "[port p] mtu"));
	snprintf(text, sizeof(text), "[port p]\ndevargs = net_af_xdp0,iface=%0300d\n", 1);
	CHECK("config: devargs too long",
	      load(text, &o, d, &n, err) == -EINVAL && strstr(err, "line 2: line too long"));
}

static void test_config(void)
{
	static struct xc_cable_def d[XC_MAX_CABLES];
	char err[XC_ERR_LEN];
	struct xc_opts o;
	unsigned int n;

	CHECK("config: two cables and globals",
	      load("; lab\n[global]\nstats-interval = 7\npoll = yes\nsocket-mode = 0600\n"
		   "[cable r1-h1]\nleft = /run/a.sock\nright = /run/b.sock\nright-client = yes\nlcore = 1\n"
		   "[cable r1-h2]\nleft = /run/c.sock\nright = /run/d.sock\nleft-socket-mode = 0666\n",
		   &o, d, &n, err) == 0 && n == 2 && o.stats_interval == 7 && o.poll &&
	      !strcmp(d[0].name, "r1-h1") && !strcmp(d[0].end[1].path, "/run/b.sock") &&
	      d[0].end[1].client && !d[0].end[0].client && d[0].lcore == 1 &&
	      d[0].end[0].sock_mode == 0600 && d[1].end[0].sock_mode == 0666 && d[1].lcore == -1);
	CHECK("config: stats-json",
	      load("[global]\nstats-json = /run/c.json\n[cable x]\nleft = /a\nright = /b\n",
		   &o, d, &n, err) == 0 && o.stats_json && !strcmp(o.stats_json, "/run/c.json"));
	CHECK("config: unknown key named with section",
	      load("[cable x]\nleft = /a\nright = /b\nlefty = 1\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "[cable x] lefty: unknown key"));
	CHECK("config: unknown section",
	      load("[cabel x]\nleft = /a\n", &o, d, &n, err) == -EINVAL && strstr(err, "unknown section"));
	CHECK("config: missing right",
	      load("[cable x]\nleft = /a\n", &o, d, &n, err) == -EINVAL && strstr(err, "[cable x] right: missing"));
	CHECK("config: relative path",
	      load("[cable x]\nleft = a.sock\nright = /b\n", &o, d, &n, err) == -EINVAL && strstr(err, "absolute"));
	CHECK("config: socket used twice",
	      load("[cable x]\nleft = /a\nright = /b\n[cable y]\nleft = /c\nright = /a\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "[cable y] right: socket /a is already an end of cable x"));
	CHECK("config: same socket both ends",
	      load("[cable x]\nleft = /a\nright = /a\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "socket /a is already an end of cable x"));
	CHECK("config: duplicate section",
	      load("[cable x]\nleft = /a\nright = /b\n[cable x]\nleft = /c\nright = /d\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "twice"));
	CHECK("config: bad bool",
	      load("[cable x]\nleft = /a\nright = /b\nleft-client = maybe\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "left-client: expected yes or no"));
	CHECK("config: bad lcore",
	      load("[cable x]\nleft = /a\nright = /b\nlcore = 999\n", &o, d, &n, err) == -EINVAL && strstr(err, "lcore"));
	CHECK("config: bad cable name",
	      load("[cable a/b]\nleft = /a\nright = /b\n", &o, d, &n, err) == -EINVAL && strstr(err, "cable name"));
	CHECK("config: bad global value",
	      load("[global]\nidle-us = 0\n[cable x]\nleft = /a\nright = /b\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "[global] idle-us"));
	CHECK("config: no cables",
	      load("[global]\npoll = no\n", &o, d, &n, err) == -EINVAL && strstr(err, "no [cable NAME]"));
	CHECK("config: not INI",
	      load("this is not = an ini\n[[[\n", &o, d, &n, err) == -EINVAL && strstr(err, "line 1: a key outside any section"));
	CHECK("config: bad section header line",
	      load("[cable x]\nleft = /a\nright = /b\n[cable y\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "line 4: a section header"));
	CHECK("config: line without =",
	      load("[cable x]\nleft = /a\nright /b\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "line 3: expected key = value"));
	CHECK("config: missing file",
	      xc_config_load("/nonexistent/x.ini", &o, d, XC_MAX_CABLES, &n, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "/nonexistent/x.ini: No such file"));
	CHECK("config: comma in path",
	      load("[cable x]\nleft = /a,b\nright = /b\n", &o, d, &n, err) == -EINVAL && strstr(err, "contains ','"));
	CHECK("config: '=' in path",
	      load("[cable x]\nleft = /a=b\nright = /b\n", &o, d, &n, err) == -EINVAL && strstr(err, "contains '='"));
	{
		char text[512], p100[101];

		/* 100 bytes: fits a socket, but not its hidden name */
		memset(p100, 'p', sizeof(p100) - 1);
		p100[0] = '/';
		p100[100] = '\0';
		snprintf(text, sizeof(text), "[cable x]\nleft = %s\nright = /b\n", p100);
		CHECK("config: a served socket too long to hide",
		      load(text, &o, d, &n, err) == -EINVAL &&
		      strstr(err, "[cable x] left: socket path is 100 bytes: a socket xcable serves may have at most 99"));
		snprintf(text, sizeof(text), "[cable x]\nleft = %s\nleft-client = yes\nright = /b\n", p100);
		CHECK("config: a client socket of 100 bytes is fine",
		      load(text, &o, d, &n, err) == 0);
		p100[99] = '\0';
		snprintf(text, sizeof(text), "[cable x]\nleft = %s\nright = /b\n", p100);
		CHECK("config: a served socket of 99 bytes is fine",
		      load(text, &o, d, &n, err) == 0);
	}
	CHECK("config: two tunnels with one VNI and remote",
	      load("[cable x]\nleft = /a\nright-vxlan = 192.0.2.1\nright-vni = 5\n"
		   "[cable y]\nleft = /b\nright-vxlan = 192.0.2.1:4789\nright-vni = 5\n",
		   &o, d, &n, err) == -EINVAL &&
	      strstr(err, "[cable y] right-vxlan: tunnel 192.0.2.1:4789 vni 5 is already an end of cable x"));
	CHECK("config: two tunnels with one VNI, two remotes",
	      load("[cable x]\nleft = /a\nright-vxlan = 192.0.2.1\nright-vni = 5\n"
		   "[cable y]\nleft = /b\nright-vxlan = 192.0.2.2\nright-vni = 5\n",
		   &o, d, &n, err) == 0);
	CHECK("config: a control character in a section name is not echoed",
	      load("[cable a\033b]\nleft = /a\nright = /b\n", &o, d, &n, err) == -EINVAL &&
	      strchr(err, '\033') == NULL && strstr(err, "[cable a?b]"));
	test_config_max();
	test_config_ports();
}

static void test_lab_options(void)
{
	struct xc_impair_cfg c;
	char err[XC_ERR_LEN], buf[256];
	struct xc_opts o;

	CHECK("--impair sets both directions, --queues, --no-link-propagation",
	      parse(&o, "--left /a --right /b --impair delay=10ms,jitter=1ms,loss=0.5% --queues 2 --no-link-propagation", err) == 0 &&
	      o.impair[0].delay_us == 10000 && o.impair[1].jitter_us == 1000 &&
	      o.impair[1].loss_ppm == 5000 && o.queues == 2 && o.no_propagate);
	CHECK("--impair-to-left only the right->left direction",
	      parse(&o, "--left /a --right /b --impair-to-left rate=100mbit,dup=1%", err) == 0 &&
	      o.impair[1].rate_bps == 100000000 && o.impair[1].dup_ppm == 10000 &&
	      o.impair[0].rate_bps == 0);
	CHECK("bad impairment value named",
	      parse(&o, "--left /a --right /b --impair loss=150%", err) != 0 &&
	      strstr(err, "loss='150%'") != NULL);
	CHECK("unknown impairment key named",
	      parse(&o, "--left /a --right /b --impair latency=5ms", err) != 0 &&
	      strstr(err, "unknown key 'latency'") != NULL);
	CHECK("ge needs P%/R%", xc_impair_parse("ge=1%", &c, err, sizeof(err)) != 0);
	CHECK("rate below 8 kbit refused", xc_impair_parse("rate=1kbit", &c, err, sizeof(err)) != 0);
	CHECK("limit above 4096 refused", xc_impair_parse("delay=1ms,limit=5000", &c, err, sizeof(err)) != 0);
	CHECK("format and parse agree",
	      xc_impair_parse("delay=2.5ms,jitter=500us,ge=1%/30%/50%,corrupt=0.1%,limit=200", &c, err, sizeof(err)) == 0 &&
	      (xc_impair_format(&c, buf, sizeof(buf)), 1) &&
	      !strcmp(buf, "delay=2.500ms,jitter=0.500ms,ge=1%/30%/50%,corrupt=0.1%,limit=200"));
	CHECK("none formats as none",
	      xc_impair_parse("none", &c, err, sizeof(err)) == 0 &&
	      (xc_impair_format(&c, buf, sizeof(buf)), 1) && !strcmp(buf, "none"));
}

/* the example config files shipped in config/ load without error */
static void test_examples(int n, char **files)
{
	static struct xc_cable_def d[XC_MAX_CABLES];
	static struct xc_opts o;
	char err[XC_ERR_LEN], name[300];
	unsigned int nd;
	int i;

	for (i = 0; i < n; i++) {
		memset(&o, 0, sizeof(o));
		o.sock_mode = 0660;
		o.idle_us = 100;
		o.queues = 1;
		o.offloads = true;
		err[0] = '\0';
		snprintf(name, sizeof(name), "example %s", files[i]);
		CHECK(name, xc_config_load(files[i], &o, d, XC_MAX_CABLES, &nd, err, sizeof(err)) == 0 && nd > 0);
		if (err[0])
			printf("  %s\n", err);
	}
}

/* tunnel ends: options, config keys, bad values named; and the VXLAN
 * header and address parser itself */
static void test_vxlan(void)
{
	static struct xc_cable_def d[XC_MAX_CABLES];
	static struct xc_opts o;
	char err[XC_ERR_LEN];
	struct sockaddr_storage ss;
	uint8_t h[XC_VXLAN_HLEN + 14] = { 0 };
	unsigned int n;
	uint32_t vni = 0;

	CHECK("--right-vxlan with --vni makes the simple mode",
	      parse(&o, "--left /a --right-vxlan 192.0.2.2 --vni 100 --vxlan-port 14789", err) == 0 &&
	      xc_opts_simple(&o) && xc_vxlan_opts(&o)->vni == 100 &&
	      xc_vxlan_opts(&o)->port == 14789);
	xc_opts_simple_defs(&o, &d[0]);
	CHECK("the simple mode's tunnel end",
	      !strcmp(xc_vxlan_def(&d[0].end[1])->remote, "192.0.2.2") &&
	      xc_vxlan_def(&d[0].end[1])->vni == 100 &&
	      !d[0].end[1].path[0] && !strcmp(d[0].end[0].path, "/a"));
	CHECK("both ends tunnels, IPv6 with a port",
	      parse(&o, "--left-vxlan [2001:db8::1]:14789 --right-vxlan 198.51.100.7 --vni 0", err) == 0);
	CHECK("default port 4789", parse(&o, "--left /a --right /b", err) == 0 &&
	      xc_vxlan_opts(&o)->port == 4789 && !xc_vxlan_opts(&o)->df);
	CHECK("VNI above 2^24-1 refused, named",
	      parse(&o, "--left /a --right-vxlan 192.0.2.2 --vni 16777216", err) == -EINVAL &&
	      strstr(err, "--vni") && strstr(err, "16777215"));
	CHECK("a tunnel needs --vni",
	      parse(&o, "--left /a --right-vxlan 192.0.2.2", err) == -EINVAL && strstr(err, "--vni"));
	CHECK("bad address refused, named",
	      parse(&o, "--left /a --right-vxlan 192.0.2.300 --vni 1", err) == -EINVAL &&
	      strstr(err, "--right-vxlan") && strstr(err, "192.0.2.300"));
	CHECK("host names are no addresses",
	      parse(&o, "--left /a --right-vxlan example.com --vni 1", err) == -EINVAL);
	CHECK("port 0 refused",
	      parse(&o, "--left /a --right-vxlan 192.0.2.2:0 --vni 1", err) == -EINVAL &&
	      strstr(err, "UDP port") &&
	      parse(&o, "--left /a --right /b --vxlan-port 0", err) == -EINVAL &&
	      strstr(err, "--vxlan-port"));
	CHECK("--vxlan-local takes no port",
	      parse(&o, "--left /a --right /b --vxlan-local 192.0.2.1:5", err) == -EINVAL &&
	      parse(&o, "--left /a --right /b --vxlan-local ::1", err) == 0);
	CHECK("a socket and a tunnel on one end refused",
	      parse(&o, "--left /a --right /b --right-vxlan 192.0.2.2 --vni 1", err) == -EINVAL &&
	      strstr(err, "the right end is declared twice: give one of --right, --right-vxlan"));
	CHECK("config: tunnel ends",
	      load("[global]\nvxlan-port = 14789\nvxlan-df = yes\n[cable a]\nleft = /a\nright-vxlan = [2001:db8::2]:4790\nright-vni = 7\n",
		   &o, d, &n, err) == 0 && n == 1 && xc_vxlan_def(&d[0].end[1])->vni == 7 &&
	      !strcmp(xc_vxlan_def(&d[0].end[1])->remote, "[2001:db8::2]:4790") &&
	      xc_vxlan_opts(&o)->port == 14789 && xc_vxlan_opts(&o)->df);
	CHECK("config: a tunnel end needs its VNI",
	      load("[cable a]\nleft = /a\nright-vxlan = 192.0.2.2\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "right-vni"));
	CHECK("config: bad remote named",
	      load("[cable a]\nleft = /a\nright-vxlan = 192.0.2\nright-vni = 1\n", &o, d, &n, err) == -EINVAL &&
	      strstr(err, "right-vxlan"));
	CHECK("address parser: IPv4 with port, IPv6 bare and bracketed",
	      xc_addr_parse("192.0.2.2:9", true, 4789, &ss, err, sizeof(err)) == 0 &&
	      ss.ss_family == AF_INET &&
	      xc_addr_parse("2001:db8::2", true, 4789, &ss, err, sizeof(err)) == 0 &&
	      ss.ss_family == AF_INET6 &&
	      xc_addr_parse("[2001:db8::2]:65535", true, 4789, &ss, err, sizeof(err)) == 0 &&
	      xc_addr_parse("[2001:db8::2]x", true, 4789, &ss, err, sizeof(err)) == -EINVAL &&
	      xc_addr_parse("[]:1", true, 4789, &ss, err, sizeof(err)) == -EINVAL &&
	      xc_addr_parse("1.2.3.4:65536", true, 4789, &ss, err, sizeof(err)) == -EINVAL);
	h[0] = 0x08;
	h[4] = 0x12;
	h[5] = 0x34;
	h[6] = 0x56;
	h[7] = 0xff;	/* reserved: ignored */
	h[1] = 0xff;
	CHECK("decap: VNI read, reserved bits ignored",
	      xc_vxlan_decap(h, sizeof(h), &vni) == XC_VXLAN_OK && vni == 0x123456);
	CHECK("decap: short and flagless datagrams refused",
	      xc_vxlan_decap(h, sizeof(h) - 1, &vni) == XC_VXLAN_SHORT &&
	      (h[0] = 0xf7, xc_vxlan_decap(h, sizeof(h), &vni) == XC_VXLAN_NO_I));
	xc_vxlan_encap(h, 0xabcdef);
	CHECK("encap: I flag, VNI, reserved zero",
	      h[0] == 0x08 && !h[1] && !h[2] && !h[3] && h[4] == 0xab &&
	      h[5] == 0xcd && h[6] == 0xef && !h[7]);
}

/* a port's kernel interface (iface=), by each name of its driver */
static void test_kiface(void)
{
	char b[XC_KIFACE_MAX];

	CHECK("af_packet's iface=",
	      xc_devargs_kiface("net_af_packet0,iface=eth1,framecnt=512", b, sizeof(b)) == 0 &&
	      strcmp(b, "eth1") == 0);
	CHECK("af_packet by its alias eth_af_packet",
	      xc_devargs_kiface("eth_af_packet1,iface=ens3", b, sizeof(b)) == 0 &&
	      strcmp(b, "ens3") == 0);
	CHECK("af_xdp's iface=",
	      xc_devargs_kiface("net_af_xdp0,iface=va,queue_count=1", b, sizeof(b)) == 0 &&
	      strcmp(b, "va") == 0);
	CHECK("no iface=, an empty one: none",
	      xc_devargs_kiface("net_af_packet0,framecnt=512", b, sizeof(b)) == 0 && !b[0] &&
	      xc_devargs_kiface("net_af_packet0", b, sizeof(b)) == 0 && !b[0] &&
	      xc_devargs_kiface("net_af_packet0,iface=", b, sizeof(b)) == 0 && !b[0]);
	CHECK("an iface= longer than an interface name",
	      xc_devargs_kiface("net_af_packet0,iface=an-interface-name-too-long", b, sizeof(b)) ==
	      -ENAMETOOLONG && !b[0]);
	CHECK("not a kernel-backed driver",
	      xc_devargs_kiface("net_vhost0,iface=/tmp/a.sock", b, sizeof(b)) == -ENOENT && !b[0] &&
	      xc_devargs_kiface("0000:03:00.0", b, sizeof(b)) == -ENOENT &&
	      xc_devargs_kiface("net_af_pack,iface=x", b, sizeof(b)) == -ENOENT);
}

int main(int argc, char **argv)
{
	const char *man = NULL;

	if (argc > 2 && strcmp(argv[1], "--man") == 0) {
		man = argv[2];
		argc -= 2;
		argv += 2;
	}
	test_table_documented(man);
	test_config_table();
	test_lab_options();
	test_parse();
	test_split();
	test_sockpath();
	test_sock_own();
	test_sock_record();
	test_config();
	test_vxlan();
	test_kiface();
	test_examples(argc - 1, argv + 1);
	return fails ? 1 : 0;
}
