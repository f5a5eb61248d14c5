/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * options.c - parsing of xcable's own options
 *
 * The parser is plain C with no DPDK dependency, so that it can be unit
 * tested and fuzzed on its own. It never keeps pointers to anything but
 * the argv strings it was given, and every error is reported as one line in
 * a caller-provided buffer.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "options.h"

/**
 * xc_args_split() - find the first "--" separating EAL and xcable options
 * @argc:	argument count, program name included
 * @argv:	argument vector
 * @s:		filled with the split
 */
void xc_args_split(int argc, char **argv, struct xc_argsplit *s)
{
	int i;

	s->eal_argc = argc;
	s->app_argc = 0;
	s->app_argv = argv + argc;
	s->has_sep = false;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			s->eal_argc = i;
			s->app_argc = argc - i - 1;
			s->app_argv = argv + i + 1;
			s->has_sep = true;
			return;
		}
	}
}

/**
 * xc_parse_uint() - parse a whole decimal number within [min, max]
 * @s:		text
 * @min:	smallest accepted value
 * @max:	largest accepted value
 * @out:	parsed value
 *
 * Return: 0 on success, -EINVAL if @s is not a number, -ERANGE if out of range
 */
int xc_parse_uint(const char *s, unsigned long min, unsigned long max,
		  unsigned long *out)
{
	unsigned long v;
	char *end;

	if (s[0] < '0' || s[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end != '\0')
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/**
 * xc_parse_mode() - parse octal permission bits such as 0660
 * @s:		text
 * @out:	parsed bits
 *
 * Return: 0 on success, -EINVAL if not octal or above 0777
 */
int xc_parse_mode(const char *s, unsigned int *out)
{
	unsigned long v;
	char *end;

	if (s[0] < '0' || s[0] > '7')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 8);
	if (*end || v > 0777 || errno)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

/**
 * xc_parse_bool() - parse yes/no, true/false, on/off, 1/0
 * @s:		text
 * @out:	parsed value
 *
 * Return: 0 on success, -EINVAL otherwise
 */
int xc_parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	unsigned int i;

	for (i = 0; i < 4; i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

/**
 * parse_cable() - parse "A:B" into a cable spec
 * @s:		text
 * @c:		filled on success
 *
 * Return: 0 on success, -EINVAL on malformed text or equal ports
 */
static int parse_cable(const char *s, struct xc_cable_spec *c)
{
	const char *colon = strchr(s, ':');
	unsigned long a, b;
	char left[16];
	size_t n;

	if (colon == NULL)
		return -EINVAL;
	n = (size_t)(colon - s);
	if (n == 0 || n >= sizeof(left))
		return -EINVAL;
	memcpy(left, s, n);
	left[n] = '\0';
	if (xc_parse_uint(left, 0, UINT16_MAX - 1, &a) ||
	    xc_parse_uint(colon + 1, 0, UINT16_MAX - 1, &b) || a == b)
		return -EINVAL;
	c->port[0] = (uint16_t)a;
	c->port[1] = (uint16_t)b;
	return 0;
}

/**
 * check_path() - check a socket path given on the command line
 * @name:	option name, for the message
 * @path:	the path
 * @err:	message buffer
 * @errlen:	size of @err
 *
 * Return: 0 if usable as a unix socket path, -EINVAL otherwise
 */
static int check_path(const char *name, const char *path, char *err,
		      size_t errlen)
{
	if (path[0] == '\0') {
		snprintf(err, errlen, "%s: empty socket path", name);
		return -EINVAL;
	}
	if (strlen(path) >= XC_SOCK_PATH_MAX) {
		snprintf(err, errlen,
			 "%s: socket path is %zu bytes, the limit is %d",
			 name, strlen(path), XC_SOCK_PATH_MAX - 1);
		return -EINVAL;
	}
	if (strchr(path, ',') != NULL) {
		snprintf(err, errlen,
			 "%s: socket path '%s' contains a comma, which DPDK device arguments cannot carry",
			 name, path);
		return -EINVAL;
	}
	return 0;
}

/**
 * xc_opts_parse() - parse xcable options
 * @o:		filled with defaults, then with what the arguments say
 * @argc:	number of arguments in @argv (no program name)
 * @argv:	the arguments
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Options take their value as "--opt value" or "--opt=value".
 *
 * Return: 0 on success, -EINVAL on a usage error (message in @err)
 */
int xc_opts_parse(struct xc_opts *o, int argc, char **argv,
		  char *err, size_t errlen)
{
	unsigned long v;
	int i;

	memset(o, 0, sizeof(*o));
	o->idle_us = XC_IDLE_US_DEFAULT;
	o->sock_mode = XC_SOCK_MODE_DEFAULT;
	o->offloads = true;
	o->queues = 1;
	xc_impair_parse("none", &o->impair[0], NULL, 0);
	o->impair[1] = o->impair[0];
	for (i = 0; i < argc; i++) {
		const char *arg = argv[i], *val = NULL, *eq;
		char name[32];
		size_t n;

		if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
			o->help = true;
			continue;
		}
		if (strcmp(arg, "-V") == 0 || strcmp(arg, "--version") == 0) {
			o->version = true;
			continue;
		}
		if (strncmp(arg, "--", 2) != 0) {
			snprintf(err, errlen, "unexpected argument '%.64s'",
				 arg);
			return -EINVAL;
		}
		eq = strchr(arg, '=');
		n = eq ? (size_t)(eq - arg) : strlen(arg);
		if (n >= sizeof(name)) {
			snprintf(err, errlen, "unknown option '%.64s'", arg);
			return -EINVAL;
		}
		memcpy(name, arg, n);
		name[n] = '\0';

		if (strcmp(name, "--client") == 0 ||
		    strcmp(name, "--poll") == 0 ||
		    strcmp(name, "--no-offloads") == 0 ||
		    strcmp(name, "--no-link-propagation") == 0) {
			if (eq) {
				snprintf(err, errlen,
					 "option %s takes no value", name);
				return -EINVAL;
			}
			if (name[2] == 'c') {
				o->client = true;
			} else if (name[2] == 'p') {
				o->poll = true;
				o->given |= XC_GIVEN_POLL;
			} else if (name[5] == 'l') {
				o->no_propagate = true;
				o->given |= XC_GIVEN_PROPAGATE;
			} else {
				o->offloads = false;
				o->given |= XC_GIVEN_OFFLOADS;
			}
			continue;
		}
		if (strcmp(name, "--left") && strcmp(name, "--right") &&
		    strcmp(name, "--idle-us") && strcmp(name, "--socket-mode") &&
		    strcmp(name, "--socket-group") && strcmp(name, "--config") &&
		    strcmp(name, "--socket-owner") &&
		    strcmp(name, "--cable") && strcmp(name, "--log-level") &&
		    strcmp(name, "--stats-interval") &&
		    strcmp(name, "--stats-json") &&
		    strcmp(name, "--queues") && strcmp(name, "--impair") &&
		    strcmp(name, "--impair-to-right") &&
		    strcmp(name, "--impair-to-left") &&
		    strcmp(name, "--control")) {
			snprintf(err, errlen,
				 "unknown option '%.64s' (EAL options go before '--'; see --help)",
				 arg);
			return -EINVAL;
		}
		if (eq) {
			val = eq + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			snprintf(err, errlen, "option %s needs a value", name);
			return -EINVAL;
		}

		if (strcmp(name, "--left") == 0 ||
		    strcmp(name, "--right") == 0) {
			const char **dst = name[2] == 'l' ? &o->left : &o->right;

			if (*dst) {
				snprintf(err, errlen, "option %s given twice",
					 name);
				return -EINVAL;
			}
			if (check_path(name, val, err, errlen))
				return -EINVAL;
			*dst = val;
		} else if (strcmp(name, "--cable") == 0) {
			if (o->n_cables == XC_MAX_CABLES) {
				snprintf(err, errlen,
					 "too many --cable options (at most %d)",
					 XC_MAX_CABLES);
				return -EINVAL;
			}
			if (parse_cable(val, &o->cables[o->n_cables])) {
				snprintf(err, errlen,
					 "--cable '%.64s': expected PORT:PORT with two different port numbers",
					 val);
				return -EINVAL;
			}
			o->n_cables++;
		} else if (strcmp(name, "--log-level") == 0) {
			if (o->n_log_levels == XC_MAX_LOG_LEVELS) {
				snprintf(err, errlen,
					 "too many --log-level options (at most %d)",
					 XC_MAX_LOG_LEVELS);
				return -EINVAL;
			}
			o->log_levels[o->n_log_levels++] = val;
		} else if (strcmp(name, "--config") == 0) {
			if (o->config) {
				snprintf(err, errlen, "option --config given twice");
				return -EINVAL;
			}
			o->config = val;
		} else if (strcmp(name, "--socket-mode") == 0) {
			if (xc_parse_mode(val, &o->sock_mode)) {
				snprintf(err, errlen,
					 "--socket-mode '%.64s': expected octal permission bits such as 0660",
					 val);
				return -EINVAL;
			}
			o->given |= XC_GIVEN_MODE;
		} else if (strcmp(name, "--socket-group") == 0) {
			if (val[0] == '\0') {
				snprintf(err, errlen,
					 "--socket-group: empty group name");
				return -EINVAL;
			}
			o->sock_group = val;
			o->given |= XC_GIVEN_GROUP;
		} else if (strcmp(name, "--socket-owner") == 0) {
			if (val[0] == '\0') {
				snprintf(err, errlen,
					 "--socket-owner: empty user name");
				return -EINVAL;
			}
			o->sock_owner = val;
			o->given |= XC_GIVEN_OWNER;
		} else if (strcmp(name, "--idle-us") == 0) {
			if (xc_parse_uint(val, 1, 1000000, &v)) {
				snprintf(err, errlen,
					 "--idle-us '%.64s': expected microseconds from 1 to 1000000",
					 val);
				return -EINVAL;
			}
			o->idle_us = (unsigned int)v;
			o->given |= XC_GIVEN_IDLE;
		} else if (strcmp(name, "--control") == 0) {
			if (check_path(name, val, err, errlen))
				return -EINVAL;
			o->control = val;
		} else if (strncmp(name, "--impair", 8) == 0) {
			struct xc_impair_cfg c;

			if (xc_impair_parse(val, &c, err, errlen))
				return -EINVAL;
			if (name[8] == '\0' || name[12] == 'r')
				o->impair[0] = c;
			if (name[8] == '\0' || name[12] == 'l')
				o->impair[1] = c;
		} else if (strcmp(name, "--stats-json") == 0) {
			if (val[0] == '\0') {
				snprintf(err, errlen, "--stats-json: empty path");
				return -EINVAL;
			}
			o->stats_json = val;
		} else if (strcmp(name, "--queues") == 0) {
			if (xc_parse_uint(val, 1, XC_MAX_QUEUES, &v)) {
				snprintf(err, errlen,
					 "--queues '%.64s': expected a number of queue pairs from 1 to %d",
					 val, XC_MAX_QUEUES);
				return -EINVAL;
			}
			o->queues = (unsigned int)v;
			o->given |= XC_GIVEN_QUEUES;
		} else {
			int rc = xc_parse_uint(val, 0, 86400, &v);

			if (rc) {
				snprintf(err, errlen,
					 "--stats-interval '%.64s': expected seconds from 0 to 86400",
					 val);
				return -EINVAL;
			}
			o->stats_interval = (unsigned int)v;
			o->given |= XC_GIVEN_STATS;
		}
	}

	if (o->help || o->version)
		return 0;
	if (!o->left != !o->right) {
		snprintf(err, errlen,
			 "--left and --right must be given together");
		return -EINVAL;
	}
	if (o->left && strcmp(o->left, o->right) == 0) {
		snprintf(err, errlen,
			 "--left and --right name the same socket '%.64s'",
			 o->left);
		return -EINVAL;
	}
	if (o->left && o->n_cables) {
		snprintf(err, errlen,
			 "--cable cannot be combined with --left/--right");
		return -EINVAL;
	}
	if (o->config && (o->left || o->n_cables)) {
		snprintf(err, errlen,
			 "--config declares the cables: it cannot be combined with --left/--right or --cable");
		return -EINVAL;
	}
	return 0;
}

/**
 * xc_opts_simple_defs() - the one cable of the simple mode, as a definition
 * @o:		parsed options, with left and right set
 * @def:	filled
 */
void xc_opts_simple_defs(const struct xc_opts *o, struct xc_cable_def *def)
{
	int j;

	memset(def, 0, sizeof(*def));
	snprintf(def->name, sizeof(def->name), "cable0");
	def->lcore = -1;
	def->impair[0] = o->impair[0];
	def->impair[1] = o->impair[1];
	for (j = 0; j < 2; j++) {
		struct xc_end_def *e = &def->end[j];

		snprintf(e->path, sizeof(e->path), "%s", j ? o->right : o->left);
		e->port = -1;
		e->client = o->client;
		e->sock_mode = o->sock_mode;
		e->offloads = o->offloads;
		e->queues = o->queues;
		if (o->sock_group)
			snprintf(e->sock_group, sizeof(e->sock_group), "%s",
				 o->sock_group);
		if (o->sock_owner)
			snprintf(e->sock_owner, sizeof(e->sock_owner), "%s",
				 o->sock_owner);
	}
}

/**
 * xc_opts_simple() - tell whether the options ask for the simple mode
 * @o:		parsed options
 *
 * Return: true if --left/--right were given
 */
bool xc_opts_simple(const struct xc_opts *o)
{
	return o->left != NULL;
}

/**
 * xc_opts_usage() - print the usage text on stdout
 * @prog:	program name
 */
void xc_opts_usage(const char *prog)
{
	printf("Usage:\n"
	       "  %s --left SOCK --right SOCK [--client] [--stats-interval SEC]\n"
	       "  %s [EAL options] -- [--cable A:B]... [--stats-interval SEC]\n"
	       "  %s --config FILE\n"
	       "\n"
	       "A vhost-user cross cable: joins the virtio-net NICs of two VMs.\n"
	       "\n"
	       "Simple mode (no DPDK knowledge needed):\n"
	       "  --left SOCK           vhost-user socket of the first VM\n"
	       "  --right SOCK          vhost-user socket of the second VM\n"
	       "  --client              connect to sockets QEMU listens on\n"
	       "                        (QEMU: -chardev socket,server=on); default:\n"
	       "                        xcable listens, QEMU connects (reconnect=1)\n"
	       "\n"
	       "Config mode: --config FILE declares named cables (INI; see config/)\n"
	       "\n"
	       "DPDK mode: any ethdev may sit at either end, e.g.\n"
	       "  %s -l 0-1 --no-pci --vdev net_vhost0,iface=/tmp/left.sock \\\n"
	       "     --vdev net_vhost1,iface=/tmp/right.sock --\n"
	       "  --cable A:B           join ports A and B (repeatable); default:\n"
	       "                        ports pair up as (0,1), (2,3), ...\n"
	       "\n"
	       "Both modes:\n"
	       "  --stats-interval SEC  print counters every SEC seconds (0: only at exit)\n"
	       "  --stats-json PATH     at every print, also write the counters to PATH as\n"
	       "                        JSON (as xcablectl list --json gives them)\n"
	       "  --poll                busy-poll always; default: poll under load, sleep\n"
	       "                        until a guest kicks after --idle-us without work\n"
	       "  --idle-us US          idle time before sleeping (default %d)\n"
	       "  --no-offloads         offer guests no checksum or segmentation offloads\n"
	       "                        (default: offer them; frames are adapted to what\n"
	       "                        each receiving guest negotiated)\n"
	       "  --queues N            queue pairs per end, as the guests' mq=on,queues=N\n"
	       "                        (simple and config modes; default 1)\n"
	       "  --impair SPEC         impair both directions (every cable), e.g.\n"
	       "                        delay=10ms,jitter=1ms,loss=1%%,ge=1%%/30%%,rate=100mbit,\n"
	       "                        dup=0.1%%,corrupt=0.1%%,limit=1000 (or none)\n"
	       "  --impair-to-right SPEC, --impair-to-left SPEC   one direction only\n"
	       "  --no-link-propagation a VM keeps its carrier when the far end goes away\n"
	       "                        (default: the carrier follows the far end)\n"
	       "  --control PATH        control socket for xcablectl (default: xcable.ctl\n"
	       "                        in the EAL runtime directory)\n"
	       "  --socket-mode MODE    permissions of the sockets xcable creates (default 0660)\n"
	       "  --socket-group GROUP  group of the sockets xcable creates\n"
	       "  --socket-owner USER   owner of the sockets xcable creates\n"
	       "  --log-level LEVEL     e.g. debug, or xcable.port:debug (repeatable)\n"
	       "  -h, --help            this text\n"
	       "  -V, --version         print the version\n"
	       "\n"
	       "Exit status: 0 on a clean stop (SIGINT/SIGTERM), 1 on a runtime\n"
	       "failure, 2 on a usage or setup error.\n",
	       prog, prog, prog, prog, XC_IDLE_US_DEFAULT);
}
