/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * unitlib.h - what the unit tests of xcable's modules (test_impair,
 *	       test_trunk, test_fwd) share: an EAL that any user can start
 *	       in a second, numbered test frames, and a leak check
 *
 * The EAL runs without hugepages, PCI or shared files. As root it keeps
 * DPDK's default runtime directory (/var/run/dpdk, where it creates no
 * files with --no-shconf); as any other user it gets a private one under
 * /tmp, removed again at the end, so that a directory another user left
 * in /tmp/dpdk cannot stop it.
 */
#ifndef XC_UNITLIB_H
#define XC_UNITLIB_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "testlib.h"

/* a private runtime directory for a non-root run, "" if none */
static char unit_rundir[PATH_MAX];

/**
 * unit_eal_init_lcores() - start the EAL as the unit tests need it, with
 *			    the lcores given
 * @prog:	program name, argv[0]
 * @lcores:	the EAL's --lcores ("0"; "0@0,1@0": two lcores on CPU 0)
 *
 * Return: 0, or -1 after printing why
 */
static inline int unit_eal_init_lcores(const char *prog, const char *lcores)
{
	char l[64];
	char *eal[] = { (char *)prog, "--no-huge", "-m", "128", "--no-pci",
			"--no-shconf", "--no-telemetry", "--log-level=lib.eal:error",
			"--log-level=pmd.net.ring:error", l, NULL };

	snprintf(l, sizeof(l), "--lcores=%s", lcores);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() != 0) {
		snprintf(unit_rundir, sizeof(unit_rundir),
			 "/tmp/xc-unit.XXXXXX");
		if (mkdtemp(unit_rundir) == NULL) {
			perror("unit: mkdtemp");
			return -1;
		}
		setenv("XDG_RUNTIME_DIR", unit_rundir, 1);
	}
	if (rte_eal_init((int)(sizeof(eal) / sizeof(eal[0])) - 1, eal) < 0) {
		fprintf(stderr, "%s: EAL init failed\n", prog);
		return -1;
	}
	return 0;
}

/**
 * unit_eal_init() - start the EAL as the unit tests need it: one lcore
 * @prog:	program name, argv[0]
 *
 * Return: 0, or -1 after printing why
 */
static inline int unit_eal_init(const char *prog)
{
	return unit_eal_init_lcores(prog, "0");
}

/**
 * unit_eal_fini() - stop the EAL and remove the private runtime directory
 */
static inline void unit_eal_fini(void)
{
	char p[PATH_MAX + 16];

	rte_eal_cleanup();
	if (unit_rundir[0] == '\0')
		return;
	snprintf(p, sizeof(p), "%s/dpdk/rte", unit_rundir);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/dpdk", unit_rundir);
	rmdir(p);
	rmdir(unit_rundir);
}

/**
 * unit_ring_port() - an ethdev of DPDK's ring driver (net_ring) on two
 *		      rings of the test's own: what it receives is what the
 *		      test put in @rx, what it sends lands in @tx
 * @name:	ethdev name
 * @rx:		its receive ring
 * @tx:		its transmit ring (its capacity is how much the "peer"
 *		takes before it stops taking)
 * @pool:	mbufs, for the queue set-up
 *
 * Return: the started port's id, or -1 after printing why
 */
static inline int unit_ring_port(const char *name, struct rte_ring *rx,
				 struct rte_ring *tx, struct rte_mempool *pool)
{
	struct rte_eth_conf conf;
	int id = rte_eth_from_rings(name, &rx, 1, &tx, 1, SOCKET_ID_ANY);

	memset(&conf, 0, sizeof(conf));
	if (id < 0 ||
	    rte_eth_dev_configure((uint16_t)id, 1, 1, &conf) ||
	    rte_eth_rx_queue_setup((uint16_t)id, 0, 64, SOCKET_ID_ANY, NULL,
				   pool) ||
	    rte_eth_tx_queue_setup((uint16_t)id, 0, 64, SOCKET_ID_ANY, NULL) ||
	    rte_eth_dev_start((uint16_t)id)) {
		fprintf(stderr, "unit: cannot set up ring port %s\n", name);
		return -1;
	}
	return id;
}

/**
 * unit_ring_free() - empty a ring of mbufs, freeing them
 * @r:		ring
 *
 * Return: how many there were
 */
static inline unsigned int unit_ring_free(struct rte_ring *r)
{
	struct rte_mbuf *m = NULL;
	unsigned int n = 0;

	while (rte_ring_dequeue(r, (void **)&m) == 0) {
		rte_pktmbuf_free(m);
		n++;
	}
	return n;
}

/**
 * unit_frame() - a numbered Ethernet frame: MAC addresses, type 0x0800,
 *		  the number in the next 4 bytes, then bytes that depend on
 *		  number and position
 * @pool:	mbufs
 * @seq:	its number
 * @len:	its length, at least 18, at most one mbuf's room
 *
 * Return: the frame, or NULL if the pool is empty
 */
static inline struct rte_mbuf *unit_frame(struct rte_mempool *pool,
					  uint32_t seq, uint16_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *p;
	uint16_t i;

	if (m == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(m, len);
	if (p == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memcpy(p, "\x52\x54\x00\xab\xcd\xef\x52\x54\x00\x12\x34\x56\x08\x00",
	       14);
	for (i = 18; i < len; i++)
		p[i] = (uint8_t)(seq * 13 + i);
	memcpy(p + 14, &seq, 4);
	return m;
}

/**
 * unit_seq() - the number of a frame made by unit_frame()
 * @m:		the frame, possibly with an outer tag pushed at @off
 * @off:	bytes inserted before the number (4 for a pushed tag)
 *
 * Return: its number
 */
static inline uint32_t unit_seq(const struct rte_mbuf *m, uint32_t off)
{
	uint32_t seq;

	memcpy(&seq, rte_pktmbuf_mtod_offset(m, const uint8_t *, 14 + off), 4);
	return seq;
}

/**
 * unit_frame_ok() - tell whether a frame still has the bytes unit_frame()
 *		     gave it
 * @m:		the frame, one mbuf or a chain
 * @seq:	its expected number
 * @len:	its expected length
 *
 * Return: true if length and every byte match
 */
static inline bool unit_frame_ok(const struct rte_mbuf *m, uint32_t seq,
				 uint16_t len)
{
	uint8_t buf[RTE_MBUF_DEFAULT_DATAROOM * 4];
	const uint8_t *p;
	uint16_t i;

	if (m->pkt_len != len || len > sizeof(buf))
		return false;
	p = rte_pktmbuf_read(m, 0, len, buf);
	if (memcmp(p, "\x52\x54\x00\xab\xcd\xef\x52\x54\x00\x12\x34\x56\x08\x00",
		   14) || memcmp(p + 14, &seq, 4))
		return false;
	for (i = 18; i < len; i++)
		if (p[i] != (uint8_t)(seq * 13 + i))
			return false;
	return true;
}

#endif /* XC_UNITLIB_H */
