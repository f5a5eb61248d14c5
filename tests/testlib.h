/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * testlib.h - small helpers shared by the test programs: one check line,
 *	       and frames copied into mbuf chains
 */
#ifndef XC_TESTLIB_H
#define XC_TESTLIB_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_mbuf.h>

/* one check: "ok NAME" or "FAIL NAME: condition"; counts failures in the
 * caller's `fails` */
#define CHECK(name, cond)                                                    \
	do {                                                                 \
		if (cond) {                                                  \
			printf("ok %s\n", name);                             \
		} else {                                                     \
			printf("FAIL %s: %s\n", name, #cond);               \
			fails++;                                             \
		}                                                            \
	} while (0)

/**
 * mbuf_chain() - copy bytes into a new mbuf chain
 * @pool:	where the mbufs come from
 * @buf:	bytes
 * @len:	how many
 * @first:	bytes in the first mbuf (0: as many as fit)
 * @seg:	bytes in each further mbuf, at most what fits
 *
 * Return: the chain, or NULL if the pool ran out (nothing is left
 *	   allocated)
 */
static inline struct rte_mbuf *mbuf_chain(struct rte_mempool *pool,
					  const uint8_t *buf, uint32_t len,
					  uint32_t first, uint32_t seg)
{
	struct rte_mbuf *head = NULL, *last = NULL;
	uint32_t off = 0;

	while (off < len) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
		uint32_t n = head == NULL && first ? first : seg;

		if (m == NULL) {
			rte_pktmbuf_free(head);
			return NULL;
		}
		n = RTE_MIN(RTE_MIN(n, len - off),
			    (uint32_t)rte_pktmbuf_tailroom(m));
		memcpy(rte_pktmbuf_append(m, (uint16_t)n), buf + off, n);
		off += n;
		if (head == NULL) {
			head = m;
		} else {
			last->next = m;
			head->nb_segs++;
			head->pkt_len += n;
		}
		last = m;
	}
	return head;
}

#endif /* XC_TESTLIB_H */
