/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pdump.c - let dpdk-dumpcap capture the frames crossing a cable
 *
 * dpdk-dumpcap is a DPDK secondary process: it attaches to xcable's shared
 * memory (the EAL's --file-prefix names it) and asks, through rte_pdump,
 * for copies of what a port receives and transmits. The copies are made on
 * the forwarding lcore into dumpcap's own ring; when that ring is full the
 * copy is dropped (dumpcap reports it), never the frame on the cable. No
 * capture, no cost: rte_pdump adds its Rx/Tx callbacks only while a
 * capture runs. Without shared memory (--in-memory, --no-shconf, which the
 * simple mode uses when no hugetlbfs is mounted) there is nothing to attach
 * to, and xcable says so at start; xcablectl capture (capture.c) works
 * in every case.
 */
#include <libgen.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_pdump.h>

#include "pdump.h"
#include "log.h"

/**
 * port_name() - the port to capture an end of a cable on: its own, or,
 *		 for an end without one (a tunnel), the other end's, which
 *		 sees the same frames
 * @c:		cable
 * @j:		which end
 *
 * Return: a port name, or "none" (two tunnel ends: no capture)
 */
static const char *port_name(const struct xc_cable *c, int j)
{
	if (c->end[j].port)
		return c->end[j].port->name;
	return c->end[1 - j].port ? c->end[1 - j].port->name : "none";
}

/**
 * xc_pdump_init() - enable rte_pdump and tell how to capture
 * @cables:	the cables, whose port names are shown
 * @n_cables:	number of cables
 *
 * Return: true if captures are possible (call xc_pdump_fini() at exit)
 */
bool xc_pdump_init(const struct xc_cable *cables, unsigned int n_cables)
{
	char dir[PATH_MAX], sock[PATH_MAX + 16];
	unsigned int i;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return false;
	/* a secondary process needs the multi-process socket (absent with
	 * --in-memory and --no-shconf) and hugepages in a hugetlbfs (the
	 * memory of --no-huge cannot be mapped by another process) */
	snprintf(sock, sizeof(sock), "%s/mp_socket", rte_eal_get_runtime_dir());
	if (access(sock, F_OK) != 0 || !rte_eal_has_hugepages() ||
	    rte_pdump_init() != 0) {
		XC_LOG(capture, INFO,
		       "dpdk-dumpcap cannot attach: the EAL runs without shared hugepage memory; capture with xcablectl capture CABLE -w FILE");
		return false;
	}
	snprintf(dir, sizeof(dir), "%s", rte_eal_get_runtime_dir());
	for (i = 0; i < n_cables; i++) {
		const char *p0 = port_name(&cables[i], 0);
		const char *p1 = port_name(&cables[i], 1);
		bool one = strcmp(p0, p1) == 0;	/* the other end: a tunnel */

		XC_LOG(capture, INFO,
		       "capture %s with: dpdk-dumpcap --file-prefix=%s -i %s%s%s%s -w FILE.pcapng",
		       cables[i].name, basename(dir), p0, one ? "" : " (or -i ",
		       one ? "" : p1, one ? "" : ")");
	}
	return true;
}

/**
 * xc_pdump_fini() - stop serving capture requests
 * @on:		what xc_pdump_init() returned
 */
void xc_pdump_fini(bool on)
{
	if (on)
		rte_pdump_uninit();
}
