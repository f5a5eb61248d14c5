/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ctlcmd.c - the requests xcablectl makes: the command table and the
 *	      splitting of a request line
 *
 * A request is one line of words separated by blanks: the command, its
 * arguments, and "--json" anywhere for list, show and events; a command
 * may take the rest of the line after one of its words as one word (a
 * capture's filter, after "-f"). xcable's control
 * thread (control.c), the supervisor (supctl.c) and xcablectl (which
 * waits longer for requests that change the lab) read the same table, so
 * that the three cannot disagree on what a request is. Everything here
 * works on what an untrusted client sent: no byte of it is taken on
 * trust, and a bad line gets a one-line reason, never a crash.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ctlcmd.h"

static const struct xc_ctl_cmd xc_ctl_cmds[] = {
	{ "list",    XC_CTL_LIST,    1, 1, false, true,  false, false, NULL,
	  "[--json]" },
	{ "show",    XC_CTL_SHOW,    2, 2, true,  true,  false, false, NULL,
	  "CABLE [--json]" },
	{ "impair",  XC_CTL_IMPAIR,  3, 4, true,  false, true, false, NULL,
	  "CABLE [to-right|to-left] SPEC" },
	{ "clear",   XC_CTL_CLEAR,   2, 2, true,  false, true, false, NULL,
	  "CABLE" },
	{ "down",    XC_CTL_DOWN,    2, 3, true,  false, true, false, NULL,
	  "CABLE [END]" },
	{ "up",      XC_CTL_UP,      2, 3, true,  false, true, false, NULL,
	  "CABLE [END]" },
	{ "flap",    XC_CTL_FLAP,    3, 10, true, false, true, false, NULL,
	  "CABLE [END] --down TIME --up TIME --count N|forever, flap CABLE stop" },
	{ "add",     XC_CTL_ADD,     2, XC_CTL_WORDS, false, false, true, false,
	  NULL, "NAME left=SOCKET right=SOCKET [KEY=VALUE]..." },
	{ "del",     XC_CTL_DEL,     2, 2, false, false, true, false, NULL,
	  "NAME" },
	{ "migrate", XC_CTL_MIGRATE, 3, 11, true, false, true, false, NULL,
	  "CABLE END [--socket PATH] [--within SECONDS] [--to-remote ADDR[:PORT] --vni N], migrate CABLE cancel" },
	{ "reload",  XC_CTL_RELOAD,  1, 1, false, false, true, false, NULL, "" },
	{ "workers", XC_CTL_WORKERS, 1, 1, false, false, false, false, NULL, "" },
	{ "metrics", XC_CTL_METRICS, 1, 1, false, false, false, false, NULL, "" },
	{ "capture", XC_CTL_CAPTURE, 1, XC_CTL_WORDS, false, false, false, true,
	  "-f", "CABLE[:END]... [-w FILE|-] [-f FILTER] [-s SNAPLEN] [-c COUNT] [-a duration:SECONDS]" },
	{ "events",  XC_CTL_EVENTS,  1, 1, false, true,  false, true, NULL,
	  "[--json]" },
};

/**
 * xc_ctl_lookup() - the command a request's first word names
 * @name:	the word
 *
 * Return: the command, or NULL if there is none of that name
 */
const struct xc_ctl_cmd *xc_ctl_lookup(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(xc_ctl_cmds) / sizeof(xc_ctl_cmds[0]);
	     i++)
		if (strcmp(name, xc_ctl_cmds[i].name) == 0)
			return &xc_ctl_cmds[i];
	return NULL;
}

/**
 * usage() - say what the requests are
 * @word:	the request's first word
 * @why:	filled
 * @whylen:	size of @why
 *
 * Return: -EINVAL
 */
static int usage(const char *word, char *why, size_t whylen)
{
	size_t i, n;

	n = (size_t)snprintf(why, whylen, "bad request '%.40s': the requests are",
			     word);
	for (i = 0; i < sizeof(xc_ctl_cmds) / sizeof(xc_ctl_cmds[0]) &&
		    n < whylen; i++)
		n += (size_t)snprintf(why + n, whylen - n, "%s %s",
				      i ? "," : "", xc_ctl_cmds[i].name);
	if (n < whylen)
		snprintf(why + n, whylen - n, " (see xcablectl --help)");
	return -EINVAL;
}

/**
 * xc_ctl_cmd_at() - the commands in the order people read them
 * @i:		which
 *
 * Return: command @i, or NULL past the last
 */
const struct xc_ctl_cmd *xc_ctl_cmd_at(unsigned int i)
{
	return i < sizeof(xc_ctl_cmds) / sizeof(xc_ctl_cmds[0]) ?
	       &xc_ctl_cmds[i] : NULL;
}

/**
 * rest_of() - the rest of a line as one word: its blanks at both ends
 *	       taken off
 * @p:		the rest (strtok_r's position), or NULL
 *
 * Return: the word, NULL if there is none
 */
static char *rest_of(char *p)
{
	size_t n;

	if (p == NULL)
		return NULL;
	p += strspn(p, " \t\r\n");
	n = strlen(p);
	while (n && strchr(" \t\r\n", p[n - 1]))
		p[--n] = '\0';
	return n ? p : NULL;
}

/**
 * xc_ctl_parse() - split a request line into its words and find its
 *		    command, checking the number of words it takes
 * @line:	the request, NUL-terminated (its newline may be there);
 *		split in place: r->argv points into it
 * @r:		filled
 * @cmd:	set to the command, NULL on error
 * @why:	the reason a request is refused
 * @whylen:	size of @why
 *
 * Return: 0, or -EINVAL with the reason in @why (a control character,
 *	   too many words, no word, an unknown command, --json where it
 *	   does not apply, a missing cable, too few or too many words, a
 *	   line break inside the rest of the line taken as one word)
 */
int xc_ctl_parse(char *line, struct xc_ctl_req *r,
		 const struct xc_ctl_cmd **cmd, char *why, size_t whylen)
{
	const struct xc_ctl_cmd *c;
	char *save = NULL, *t;
	const unsigned char *p;

	memset(r, 0, sizeof(*r));
	*cmd = NULL;
	for (p = (const unsigned char *)line; *p; p++) {
		if ((*p < 0x20 && *p != '\t' && *p != '\r' && *p != '\n') ||
		    *p == 0x7f) {
			snprintf(why, whylen,
				 "request has a control character (byte 0x%02x)",
				 *p);
			return -EINVAL;
		}
	}
	for (t = strtok_r(line, " \t\r\n", &save); t;
	     t = strtok_r(NULL, " \t\r\n", &save)) {
		if (strcmp(t, "--json") == 0) {
			r->json = true;	/* list and show answer in JSON */
			continue;
		}
		if (r->argc == XC_CTL_WORDS) {
			snprintf(why, whylen, "too many words (at most %d)",
				 XC_CTL_WORDS);
			return -EINVAL;
		}
		r->argv[r->argc++] = t;
		c = xc_ctl_lookup(r->argv[0]);
		if (r->argc > 1 && c && c->rest && strcmp(t, c->rest) == 0) {
			t = rest_of(save);
			if (t && strpbrk(t, "\r\n")) {
				snprintf(why, whylen,
					 "%s: what follows %s is one line",
					 c->name, c->rest);
				return -EINVAL;
			}
			if (t && r->argc < XC_CTL_WORDS)
				r->argv[r->argc++] = t;
			break;
		}
	}
	if (r->argc == 0) {
		snprintf(why, whylen, "empty request");
		return -EINVAL;
	}
	c = xc_ctl_lookup(r->argv[0]);
	if (c == NULL)
		return usage(r->argv[0], why, whylen);
	if (r->json && !c->json) {
		snprintf(why, whylen,
			 "--json: only list, show and events answer in JSON");
		return -EINVAL;
	}
	if (c->cable && r->argc < 2) {
		snprintf(why, whylen, "%s: which cable?", c->name);
		return -EINVAL;
	}
	if (r->argc < c->min_args || r->argc > c->max_args)
		return usage(r->argv[0], why, whylen);
	*cmd = c;
	return 0;
}
