/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_options.c - libFuzzer target: the command-line parser
 *
 * The input is split at NUL bytes into argv strings and parsed as xcable's
 * options (the part after "--"). Any input must give 0 or a one-line error,
 * never a crash, a leak or undefined behaviour.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

#define MAX_ARGS	64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS], err[256];
	struct xc_opts o;
	size_t i, start = 0;
	int argc = 0;

	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (i = 0; i <= size && argc < MAX_ARGS; i++) {
		if (buf[i] == '\0') {
			argv[argc++] = buf + start;
			start = i + 1;
		}
	}
	if (xc_opts_parse(&o, argc, argv, err, sizeof(err)) != 0 &&
	    memchr(err, '\0', sizeof(err)) == NULL)
		abort();	/* an error must be a terminated string */
	free(buf);
	return 0;
}
