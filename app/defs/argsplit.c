/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * argsplit.c - tell the EAL's arguments from xcable's own
 *
 * DPDK applications take EAL options, then "--", then their own options,
 * and with nothing of their own to say, EAL options alone (as
 * dpdk-testpmd is run). xcable does the same:
 *
 *   xcable -l 0-1 --vdev ... -- --stats-interval 10    EAL, "--", xcable's
 *   xcable -l 0-1 --vdev ... --vdev ...                 EAL options only
 *   xcable --left a.sock --right b.sock                 xcable's only
 *
 * Without "--", each argument is looked up among the EAL's options of
 * DPDK 22.11 (eal_common_options.c) and xcable's (xc_opt_table); a
 * command line that mixes them is refused with the order to write
 * instead. --log-level, -h and --help are both, and decide nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "options.h"

/**
 * struct eal_opt - a long EAL option
 * @name:	without "--"
 * @arg:	0: none, 1: required (--name VALUE or --name=VALUE),
 *		2: optional (--name=VALUE only)
 */
struct eal_opt {
	const char *name;
	int arg;
};

static const struct eal_opt eal_long[] = {
	{ "allow", 1 }, { "base-virtaddr", 1 }, { "block", 1 },
	{ "create-uio-dev", 0 }, { "file-prefix", 1 },
	{ "force-max-simd-bitwidth", 1 }, { "help", 0 }, { "huge-dir", 1 },
	{ "huge-unlink", 2 }, { "huge-worker-stack", 2 }, { "in-memory", 0 },
	{ "iova-mode", 1 }, { "lcores", 1 }, { "legacy-mem", 0 },
	{ "log-level", 1 }, { "main-lcore", 1 }, { "match-allocations", 0 },
	{ "mbuf-pool-ops-name", 1 }, { "no-hpet", 0 }, { "no-huge", 0 },
	{ "no-pci", 0 }, { "no-shconf", 0 }, { "no-telemetry", 0 },
	{ "proc-type", 1 }, { "single-file-segments", 0 },
	{ "socket-limit", 1 }, { "socket-mem", 1 }, { "syslog", 1 },
	{ "telemetry", 0 }, { "trace", 1 }, { "trace-bufsz", 1 },
	{ "trace-dir", 1 }, { "trace-mode", 1 }, { "vdev", 1 },
	{ "vfio-intr", 1 }, { "vfio-vf-token", 1 }, { "vmware-tsc-map", 0 },
};

/* short EAL options, as getopt() spells them: a colon follows a letter
 * that takes a value */
static const char eal_short[] = "a:b:c:s:d:hl:S:m:n:r:v";

/**
 * enum arg_kind - whose an argument is
 * @ARG_XC:	an xcable option only
 * @ARG_EAL:	an EAL option only
 * @ARG_BOTH:	both (--log-level, -h, --help)
 * @ARG_OTHER:	neither: a stray word or an unknown option
 */
enum arg_kind { ARG_XC, ARG_EAL, ARG_BOTH, ARG_OTHER };

/**
 * eal_arity() - look an argument up among the EAL's options
 * @arg:	the argument
 *
 * Return: -1 if it is none, else how many of the following arguments it
 * takes as its value (0 or 1)
 */
static int eal_arity(const char *arg)
{
	const char *eq, *p;
	unsigned int i;
	size_t n;

	if (arg[0] != '-' || arg[1] == '\0')
		return -1;
	if (arg[1] != '-') {
		/* -l 0-1, -l0-1, -v */
		p = strchr(eal_short, arg[1]);
		if (p == NULL || arg[1] == ':')
			return -1;
		return p[1] == ':' && arg[2] == '\0' ? 1 : 0;
	}
	arg += 2;
	eq = strchr(arg, '=');
	n = eq ? (size_t)(eq - arg) : strlen(arg);
	for (i = 0; i < sizeof(eal_long) / sizeof(eal_long[0]); i++)
		if (strlen(eal_long[i].name) == n &&
		    strncmp(eal_long[i].name, arg, n) == 0)
			return eal_long[i].arg == 1 && !eq ? 1 : 0;
	return -1;
}

/**
 * xc_args_eal_option() - tell whether an argument is an EAL option
 * @arg:	the argument
 *
 * Return: true if DPDK's EAL knows it
 */
bool xc_args_eal_option(const char *arg)
{
	return eal_arity(arg) >= 0;
}

/**
 * classify() - tell whose an argument is
 * @arg:	the argument
 * @values:	set to how many of the following arguments are its value
 *
 * Return: its kind
 */
static enum arg_kind classify(const char *arg, int *values)
{
	const struct xc_opt_desc *d = xc_opt_find(arg);
	int eal = eal_arity(arg);

	*values = 0;
	if (d && xc_opt_takes_value(d) && !strchr(arg, '='))
		*values = 1;
	if (d)
		return eal >= 0 ? ARG_BOTH : ARG_XC;
	if (eal < 0)
		return ARG_OTHER;
	*values = eal;
	return ARG_EAL;
}

/**
 * find_kind() - the first argument of one kind
 * @from:	first argument to look at
 * @to:		one past the last
 * @argv:	arguments
 * @kind:	the kind
 *
 * Return: its index, or -1
 */
static int find_kind(int from, int to, char **argv, enum arg_kind kind)
{
	int i, values;

	for (i = from; i < to; i++) {
		if (classify(argv[i], &values) == kind)
			return i;
		i += values;
	}
	return -1;
}

/**
 * suggest() - write the command line in the order xcable reads it
 * @argc:	argument count
 * @argv:	arguments, no "--" among them
 * @buf:	filled: EAL options, "--", xcable's (long values shortened)
 * @len:	size of @buf
 */
static void suggest(int argc, char **argv, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "xcable");
	int pass, i, k, values;

	for (pass = 0; pass < 2; pass++) {
		if (pass == 1 && n < len)
			n += (size_t)snprintf(buf + n, len - n, " --");
		for (i = 1; i < argc; i += 1 + values) {
			bool xc = classify(argv[i], &values) == ARG_XC;

			if (xc != (pass == 1))
				continue;
			for (k = 0; k <= values && i + k < argc && n < len; k++)
				n += (size_t)snprintf(buf + n, len - n,
						      strlen(argv[i + k]) > 20 ?
						      " %.16s..." : " %s",
						      argv[i + k]);
		}
	}
}

/**
 * split_mixed() - refuse EAL and xcable options mixed without "--"
 * @argc:	argument count
 * @argv:	arguments
 * @x:		index of the first xcable option
 * @e:		index of the first EAL option
 * @err:	message buffer
 * @errlen:	size of @err
 *
 * Return: -EINVAL
 */
static int split_mixed(int argc, char **argv, int x, int e, char *err,
		       size_t errlen)
{
	char cmd[160];

	suggest(argc, argv, cmd, sizeof(cmd));
	if (x < e)
		snprintf(err, errlen,
			 "'%.40s' is an EAL option, after xcable's '%.40s': EAL options go first, then '--', then xcable's: %s",
			 argv[e], argv[x], cmd);
	else
		snprintf(err, errlen,
			 "'%.40s' is xcable's option, after EAL options: end the EAL options with '--': %s",
			 argv[x], cmd);
	return -EINVAL;
}

/**
 * xc_args_split() - cut argv into the EAL's arguments and xcable's
 * @argc:	argument count, program name included
 * @argv:	argument vector
 * @s:		filled with the split
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * With "--", what is before it is the EAL's and what follows xcable's;
 * an xcable option before it is an error. Without, the arguments are all
 * xcable's or all the EAL's (with -h or --help among them: xcable's help).
 *
 * Return: 0, or -EINVAL with a message naming the misplaced argument
 */
int xc_args_split(int argc, char **argv, struct xc_argsplit *s, char *err,
		  size_t errlen)
{
	int i, sep = -1, x, e;

	memset(s, 0, sizeof(*s));
	for (i = 1; i < argc && sep < 0; i++)
		if (strcmp(argv[i], "--") == 0)
			sep = i;
	if (sep >= 0) {
		s->eal_argc = sep;
		s->app_argc = argc - sep - 1;
		s->app_argv = argv + sep + 1;
		s->has_sep = true;
		x = find_kind(1, sep, argv, ARG_XC);
		if (x < 0)
			return 0;
		snprintf(err, errlen,
			 "'%.64s' is xcable's option: it goes after '--' (EAL options, then '--', then xcable's)",
			 argv[x]);
		return -EINVAL;
	}
	x = find_kind(1, argc, argv, ARG_XC);
	e = find_kind(1, argc, argv, ARG_EAL);
	s->eal_argc = 1;
	s->app_argc = argc - 1;
	s->app_argv = argv + 1;
	if (e < 0)
		return 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			s->app_argc = 1;
			s->app_argv = argv + i;
			return 0;
		}
	}
	if (x >= 0)
		return split_mixed(argc, argv, x, e, err, errlen);
	i = find_kind(1, argc, argv, ARG_OTHER);
	if (i >= 0 && argv[i][0] != '-') {
		snprintf(err, errlen,
			 "unexpected argument '%.64s' among EAL options (see --help)",
			 argv[i]);
		return -EINVAL;
	}
	s->eal_argc = argc;
	s->app_argc = 0;
	s->app_argv = argv + argc;
	s->eal_only = true;
	return 0;
}
