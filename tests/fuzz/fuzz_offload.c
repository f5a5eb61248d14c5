/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_offload.c - libFuzzer target: the offload fix-up and segmentation
 *
 * The first bytes of the input choose what a hostile guest could: the
 * offload flags the vhost library would report, the MSS, the receiver's
 * capabilities and largest frame, and how the frame is cut into mbufs;
 * the rest is the frame. Whatever comes in, xc_off_fixup() must drop and
 * count it or produce frames no larger than the receiver takes, and every
 * mbuf must be back in its pool afterwards.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_mbuf.h>

#include "offload.h"
#include "testlib.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct rte_mempool *pool, *ipool;
static struct rte_mbuf *out[XC_SEG_MAX];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *eal[] = { (*argv)[0], "--no-huge", "-m", "256", "--no-pci",
			"--no-shconf", "--log-level=lib.*:error", "-l", "0",
			NULL };

	(void)argc;
	if (rte_eal_init(9, eal) < 0)
		abort();
	pool = rte_pktmbuf_pool_create("f_pool", 4095, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	ipool = rte_pktmbuf_pool_create("f_ipool", 4095, 0, 0, 0, 0);
	if (pool == NULL || ipool == NULL)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rte_mbuf *head;
	struct xc_dir_stats st;
	struct xc_off o;
	uint32_t seg, max;
	uint64_t caps;
	int n, i;

	if (size < 8 || size > 70000)
		return 0;
	seg = 64u + (uint32_t)data[5] * 8u;	/* 64 to 2104 bytes per mbuf */
	max = 60u + (uint32_t)(data[3] | data[4] << 8);
	caps = xc_caps_pack(data[2] & 0xf, max);
	head = mbuf_chain(pool, data + 8, (uint32_t)size - 8, 0, seg);
	if (head == NULL)
		return 0;
	head->ol_flags = 0;
	if (data[0] & 1)
		head->ol_flags |= RTE_MBUF_F_RX_LRO;
	if (data[0] & 2)
		head->ol_flags |= RTE_MBUF_F_RX_L4_CKSUM_NONE;
	else if (data[0] & 4)
		head->ol_flags |= RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	head->tso_segsz = (uint16_t)(data[1] | data[6] << 8);
	xc_off_init(&o, pool, ipool);
	memset(&st, 0, sizeof(st));
	n = xc_off_fixup(&o, head, caps, out, (data[7] & 1) ? 3 : XC_SEG_MAX,
			 &st);
	if (n == -ENOSPC) {
		rte_pktmbuf_free(head);
	} else if (n < 0 || n > XC_SEG_MAX) {
		abort();
	}
	for (i = 0; i < n; i++) {
		/* what goes out fits, unless it goes whole to a TSO receiver */
		if (out[i]->pkt_len > max &&
		    !(out[i]->ol_flags & (RTE_MBUF_F_TX_TCP_SEG |
					  RTE_MBUF_F_TX_UDP_SEG)))
			abort();
	}
	if (n > 0)
		rte_pktmbuf_free_bulk(out, (unsigned int)n);
	if (rte_mempool_in_use_count(pool) || rte_mempool_in_use_count(ipool))
		abort();	/* a leaked mbuf */
	return 0;
}
