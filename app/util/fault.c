/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fault.c - failures on purpose, for the tests of what a runtime change
 *	     that fails half-way leaves behind
 *
 * A change that fails half-way must leave the lab as it was (reconf.c),
 * but real failures there are rare and hard to bring about on purpose: a
 * probe that fails, a pool that cannot be made. With XCABLE_FAULT=N in
 * xcable's environment (1 to 1000000), each step of making a cable at
 * runtime that can fail (each end made, its pools and directions, each
 * end started: topology.c; its switch into the lab, "show": reconf.c)
 * fails with -EIO, one in N of them, picked by a generator seeded with
 * XCABLE_FAULT_SEED (default 1), so that a run can be repeated;
 * XCABLE_FAULT=NAME:WHAT fails only the step WHAT ("end0 made", "pools",
 * "end1 started", "show"...) of cable NAME, every time, and a list of
 * them, NAME:WHAT,NAME:WHAT, each of those; and XCABLE_FAULT=@FILE reads
 * FILE at each step, a rule as above in its first line (a test changes
 * what fails while xcable runs; an empty or missing file fails nothing).
 * Each injected failure is logged. Without the variable nothing ever
 * fails here. Cables made at start-up are never failed, nor are cables
 * made again as they were after a change failed, but by the step
 * "again", which only a rule that names it fails (NAME:again: the cable
 * cannot be made again, and is lost). Nor is the step "retranslate" of
 * an end (NAME is the end's label) but when named: the vhost kind then
 * skips the request it makes as a guest's ring loses its IOTLB
 * translations, as if the ring's lock were taken (port_vhost.c).
 *
 * The settings are the environment's, read once by the main thread, the
 * only one that makes cables: that is why they are static here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"
#include "log.h"

RTE_LOG_REGISTER(xc_logtype_fault, xcable.fault, INFO);

/* the settings of XCABLE_FAULT, read once (main thread) */
static struct {
	bool read;
	unsigned long one_in;	/* 0: no random failures */
	char only[256];		/* "NAME:WHAT[,NAME:WHAT]...", or empty */
	char file[256];		/* read at each step, or empty */
	unsigned long long state;
} xc_fault_cfg;

/**
 * set_rule() - what fails: one in N steps, or the step NAME:WHAT
 * @v:		"N" or "NAME:WHAT" (empty: nothing)
 */
static void set_rule(const char *v)
{
	char *end;

	xc_fault_cfg.only[0] = '\0';
	xc_fault_cfg.one_in = strtoul(v, &end, 10);
	if (end == v || (*end != '\0' && *end != '\n') ||
	    xc_fault_cfg.one_in > 1000000) {
		xc_fault_cfg.one_in = 0;
		snprintf(xc_fault_cfg.only, sizeof(xc_fault_cfg.only), "%.*s",
			 (int)strcspn(v, "\n"), v);
	}
}

/**
 * read_file() - the rule of XCABLE_FAULT=@FILE, as the file says now
 */
static void read_file(void)
{
	char line[128] = "";
	FILE *f = fopen(xc_fault_cfg.file, "r");

	if (f && fgets(line, sizeof(line), f) == NULL)
		line[0] = '\0';
	if (f)
		fclose(f);
	set_rule(line);
}

/**
 * read_env() - read XCABLE_FAULT and XCABLE_FAULT_SEED once
 */
static void read_env(void)
{
	const char *v = getenv("XCABLE_FAULT"), *seed;

	xc_fault_cfg.read = true;
	if (v == NULL || v[0] == '\0')
		return;
	if (v[0] == '@')
		snprintf(xc_fault_cfg.file, sizeof(xc_fault_cfg.file), "%s",
			 v + 1);
	else
		set_rule(v);
	seed = getenv("XCABLE_FAULT_SEED");
	xc_fault_cfg.state = seed ? strtoull(seed, NULL, 10) : 1;
	if (xc_fault_cfg.state == 0)	/* xorshift's one fixed point */
		xc_fault_cfg.state = 1;
	XC_LOG(fault, WARNING, "XCABLE_FAULT=%s: runtime changes fail on purpose (a test)",
	       v);
}

/**
 * listed() - is a step NAME:WHAT one of a list's?
 * @here:	the step
 * @list:	NAME:WHAT,NAME:WHAT...
 *
 * Return: true if so
 */
static bool listed(const char *here, const char *list)
{
	size_t n = strlen(here);
	const char *p;

	for (p = list; *p; p += strcspn(p, ","), p += *p == ',') {
		if (strncmp(p, here, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return true;
	}
	return false;
}

/**
 * xc_fault() - should this step of making a cable at runtime fail on
 *		purpose? (main thread)
 * @what:	the step ("end0 made", "pools", "end1 started", "show",
 *		"again")
 * @name:	the cable
 * @err:	set to the message of the failure, if it fails
 * @errlen:	size of @err
 *
 * Return: true if the step must fail (with -EIO)
 */
bool xc_fault(const char *what, const char *name, char *err, size_t errlen)
{
	char here[96];
	bool fail;

	if (!xc_fault_cfg.read)
		read_env();
	if (xc_fault_cfg.file[0])
		read_file();
	if (xc_fault_cfg.one_in == 0 && xc_fault_cfg.only[0] == '\0')
		return false;
	if (xc_fault_cfg.one_in && (strcmp(what, "again") == 0 ||
				    strcmp(what, "retranslate") == 0))
		return false;	/* only when named */
	snprintf(here, sizeof(here), "%s:%s", name, what);
	if (xc_fault_cfg.one_in) {
		/* xorshift64*: repeatable for a seed */
		xc_fault_cfg.state ^= xc_fault_cfg.state >> 12;
		xc_fault_cfg.state ^= xc_fault_cfg.state << 25;
		xc_fault_cfg.state ^= xc_fault_cfg.state >> 27;
		fail = (xc_fault_cfg.state * 2685821657736338717ULL >> 33) %
		       xc_fault_cfg.one_in == 0;
	} else {
		fail = listed(here, xc_fault_cfg.only);
	}
	if (!fail)
		return false;
	snprintf(err, errlen, "cable %s: %s: injected fault (XCABLE_FAULT)",
		 name, what);
	XC_LOG(fault, WARNING, "%s", err);
	return true;
}
