/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_steer.c - libFuzzer target: the flow hash of multiqueue steering
 *
 * The input is a frame as a guest could send it. xc_steer_hash() must read
 * only the bytes it is given (a copy of exactly that many, so that the
 * address sanitiser sees any read beyond), and the queue chosen for the
 * frame must be one of the enabled queues, whatever the flow table says.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "steer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct xc_steer table;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *frame = malloc(size ? size : 1);
	uint64_t on;
	uint32_t h;
	uint16_t q;

	if (frame == NULL)
		return 0;
	memcpy(frame, data, size);
	h = xc_steer_hash(frame, (uint32_t)size);
	/* the queues enabled, and a learned queue, from the frame itself */
	on = size ? (data[0] & 0xffu) : 1;
	if (on == 0)
		on = 1;
	xc_steer_learn(&table, h, (uint16_t)(size > 1 ? data[1] & 7 : 0),
		       size > 2 ? data[2] : 0);
	q = xc_steer_pick(&table, h, on, size > 3 ? data[3] : 0);
	if (!(on >> q & 1))
		abort();	/* a queue the guest did not enable */
	free(frame);
	return 0;
}
