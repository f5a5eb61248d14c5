/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_ctl.c - libFuzzer target: a control socket's request line
 *
 * The input is one request line as a client sends it (xcable's engine
 * hands a handler the bytes before the newline, and refuses a line with
 * a NUL byte or of XC_CTL_LINE_MAX bytes or more). It is split by
 * xc_ctl_parse(); when it is an add, its words are read as a [cable
 * NAME] section by xc_config_cable(), as the main thread does. Any input
 * must give a request within its command's bounds or a one-line reason,
 * never a crash, a leak or undefined behaviour.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "ctlcmd.h"
#include "options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/**
 * check_words() - abort unless a parsed request is what its command takes
 * @line:	the buffer it was split in
 * @len:	its length
 * @r:		the request
 * @cmd:	its command
 */
static void check_words(const char *line, size_t len,
			const struct xc_ctl_req *r, const struct xc_ctl_cmd *cmd)
{
	int i;

	if (cmd == NULL || xc_ctl_lookup(r->argv[0]) != cmd ||
	    r->argc < cmd->min_args || r->argc > cmd->max_args ||
	    r->argc > XC_CTL_WORDS || (r->json && !cmd->json))
		abort();
	for (i = 0; i < r->argc; i++) {
		/* the last word may be the rest of the line after the
		 * command's rest option (a capture filter): one line, blanks
		 * inside, anything else literal */
		bool rest = cmd->rest && i == r->argc - 1 && i >= 2 &&
			    strcmp(r->argv[i - 1], cmd->rest) == 0;

		if (r->argv[i] < line || r->argv[i] >= line + len ||
		    r->argv[i][0] == '\0' ||
		    strpbrk(r->argv[i], rest ? "\r\n" : " \t\r\n") ||
		    (!rest && strcmp(r->argv[i], "--json") == 0))
			abort();
	}
}

/**
 * check_add() - read an add request's words as xcable's main thread does
 * @r:		the request, an add
 */
static void check_add(const struct xc_ctl_req *r)
{
	struct xc_cable_def d;
	struct xc_opts o;
	char err[512];

	memset(&o, 0, sizeof(o));
	o.sock_mode = XC_SOCK_MODE_DEFAULT;
	o.offloads = true;
	o.queues = 1;
	memset(err, 'x', sizeof(err));
	if (xc_config_cable(r->argc - 1, (char **)r->argv + 1, &o, &d, err,
			    sizeof(err)) == 0) {
		if (strcmp(d.name, r->argv[1]) != 0)
			abort();	/* the cable is the one named */
	} else if (memchr(err, '\0', sizeof(err)) == NULL ||
		   strncmp(err, "add: ", 5) != 0) {
		abort();	/* one line, saying it is about the add */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[XC_CTL_LINE_MAX], why[256];
	const struct xc_ctl_cmd *cmd = (const void *)1;
	struct xc_ctl_req r;
	int rc;

	/* what the engine hands over: no NUL, shorter than a line */
	if (size >= sizeof(line) || memchr(data, '\0', size))
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	memset(why, 'x', sizeof(why));
	rc = xc_ctl_parse(line, &r, &cmd, why, sizeof(why));
	if (rc != 0) {
		if (rc != -EINVAL || cmd != NULL || memchr(why, '\0', sizeof(why)) == NULL ||
		    why[0] == '\0')
			abort();	/* -EINVAL, no command, a reason */
		return 0;
	}
	check_words(line, size + 1, &r, cmd);
	if (cmd->op == XC_CTL_ADD)
		check_add(&r);
	return 0;
}
