/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pcapng.h - the pcapng capture format: the blocks xcable writes its
 *	      captures in, and reading them back block by block
 *
 * Blocks are written in the host's byte order (the section header says
 * which), timestamps in nanoseconds (each interface says so: if_tsresol
 * 9). See the pcapng specification (IETF draft-ietf-opsawg-pcapng).
 */
#ifndef XC_PCAPNG_H
#define XC_PCAPNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sbuf.h"

#define XC_PCAPNG_SHB		0x0A0D0D0Au	/* section header block */
#define XC_PCAPNG_IDB		1u		/* interface description */
#define XC_PCAPNG_ISB		5u		/* interface statistics */
#define XC_PCAPNG_EPB		6u		/* enhanced packet block */
#define XC_PCAPNG_EPB_HEAD	28u		/* an EPB's bytes before its data */
#define XC_PCAPNG_IN		1u		/* epb_flags: inbound */
#define XC_PCAPNG_OUT		2u		/* epb_flags: outbound */
#define XC_PCAPNG_LINKTYPE_ETH	1u		/* LINKTYPE_ETHERNET */
#define XC_PCAPNG_SNAP_MAX	262144u		/* what Wireshark reads */

/**
 * struct xc_pcapng_stats - what an interface statistics block says
 * @start_ns:	isb_starttime: when the capture of the interface began
 * @end_ns:	isb_endtime: when it ended (also the block's timestamp)
 * @ifrecv:	isb_ifrecv: frames the interface saw
 * @ifdrop:	isb_ifdrop: frames seen whose copies were dropped
 * @accepted:	isb_filteraccept: frames the filter accepted
 * @delivered:	isb_usrdeliv: frames written
 * @comment:	opt_comment, or NULL
 */
struct xc_pcapng_stats {
	uint64_t start_ns;
	uint64_t end_ns;
	uint64_t ifrecv;
	uint64_t ifdrop;
	uint64_t accepted;
	uint64_t delivered;
	const char *comment;
};

void xc_pcapng_shb(struct xc_sbuf *out, const char *app);
void xc_pcapng_idb(struct xc_sbuf *out, const char *name, const char *descr,
		   uint32_t snaplen);
size_t xc_pcapng_epb_size(uint32_t caplen);
void xc_pcapng_epb(uint8_t *blk, uint32_t ifid, uint64_t ts_ns,
		   uint32_t caplen, uint32_t origlen, uint32_t flags);
void xc_pcapng_isb(struct xc_sbuf *out, uint32_t ifid,
		   const struct xc_pcapng_stats *s);
size_t xc_pcapng_block(const uint8_t *p, size_t len, uint32_t *type);
uint32_t xc_pcapng_ifid(const uint8_t *blk);
void xc_pcapng_set_ifid(uint8_t *blk, uint32_t ifid);
int xc_pcapng_isb_read(const uint8_t *blk, size_t len,
		       struct xc_pcapng_stats *s, char *comment,
		       size_t clen);

#endif /* XC_PCAPNG_H */
