/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * deadsecondary.c - a DPDK secondary process that dies holding the
 * primary's shared memory lock, as a dpdk-dumpcap that crashes in its
 * start-up can (seen in CI: it could not map the primary's memory)
 *
 *   deadsecondary --file-prefix=PREFIX [EAL options]
 *
 * It attaches to the primary of PREFIX, takes the memory lock for
 * reading, says "holding", and kills itself: nobody ever gives the lock
 * back, and the primary's next memory operation that writes waits for
 * ever. tests/t_ops.sh t_stop_watchdog checks that xcable still exits.
 */
#include <signal.h>
#include <stdio.h>

#include <rte_eal.h>
#include <rte_eal_memconfig.h>

int main(int argc, char **argv)
{
	char *args[64];
	int i, n = 0;

	args[n++] = argv[0];
	args[n++] = "--proc-type=secondary";
	for (i = 1; i < argc && n < 63; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	if (rte_eal_init(n, args) < 0) {
		fprintf(stderr, "deadsecondary: cannot attach\n");
		return 1;
	}
	rte_mcfg_mem_read_lock();
	printf("holding\n");
	fflush(stdout);
	raise(SIGKILL);
	return 0;
}
