/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_config.c - libFuzzer target: the config file reader
 *
 * The input is written to a file and loaded as an xcable config file
 * (rte_cfgfile plus xcable's own checks). Any input must load or give a
 * one-line error naming the file, never a crash, a leak or undefined
 * behaviour.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct xc_cable_def defs[XC_MAX_CABLES];
	unsigned int n = 0;
	struct xc_opts o;
	char err[512];
	FILE *f;

	if (path[0] == '\0')
		snprintf(path, sizeof(path), "/tmp/xc-fuzz-config.%d",
			 (int)getpid());
	f = fopen(path, "w");
	if (f == NULL)
		return 0;
	if (size && fwrite(data, size, 1, f) != 1) {
		fclose(f);
		return 0;
	}
	fclose(f);
	memset(&o, 0, sizeof(o));
	o.sock_mode = XC_SOCK_MODE_DEFAULT;
	o.offloads = true;
	o.queues = 1;
	o.config = path;
	err[0] = '\0';
	if (xc_config_load(path, &o, defs, XC_MAX_CABLES, &n, err, sizeof(err)) != 0 &&
	    (memchr(err, '\0', sizeof(err)) == NULL || strncmp(err, path, strlen(path))))
		abort();	/* errors name the file */
	if (n > XC_MAX_CABLES)
		abort();
	return 0;
}
