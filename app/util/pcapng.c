/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pcapng.c - the pcapng capture format: writing the blocks of a capture,
 *	      reading them back (see pcapng.h)
 *
 * DPDK 22.11's rte_pcapng names each interface after an ethdev and takes
 * its interface ids from the ethdev port ids; a capture of cable ends has
 * interfaces that are no ethdev (a tunnel, a trunk member, a kernel
 * interface) or share one (the members of a trunk), each to be named after
 * its cable and end. So xcable writes the few blocks it needs itself:
 * a section header, an interface description per end, an enhanced packet
 * block per frame (with its direction) and interface statistics at the
 * end (what was seen, accepted, dropped and written).
 */
#include <stdio.h>
#include <string.h>

#include "pcapng.h"

/* pad4() - a length rounded up to 4 bytes */
static inline size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/**
 * put32() - append a 32-bit value
 * @out:	the buffer
 * @v:		the value
 */
static void put32(struct xc_sbuf *out, uint32_t v)
{
	xc_sbuf_put(out, (const char *)&v, sizeof(v));
}

/**
 * opt() - append an option, padded to 4 bytes
 * @out:	the buffer
 * @code:	its code
 * @v:		its value
 * @len:	its length
 */
static void opt(struct xc_sbuf *out, uint16_t code, const void *v,
		size_t len)
{
	static const char zero[4];
	uint16_t h[2] = { code, (uint16_t)len };

	xc_sbuf_put(out, (const char *)h, sizeof(h));
	xc_sbuf_put(out, v, len);
	xc_sbuf_put(out, zero, pad4(len) - len);
}

/**
 * opt_str() - append a string option (nothing for NULL or "")
 * @out:	the buffer
 * @code:	its code
 * @s:		the string, cut at 65000 bytes
 */
static void opt_str(struct xc_sbuf *out, uint16_t code, const char *s)
{
	size_t n = s ? strnlen(s, 65000) : 0;

	if (n)
		opt(out, code, s, n);
}

/**
 * opt_ts() - append a timestamp option: high, then low 32 bits of ns
 * @out:	the buffer
 * @code:	its code
 * @ns:		the time
 */
static void opt_ts(struct xc_sbuf *out, uint16_t code, uint64_t ns)
{
	uint32_t v[2] = { (uint32_t)(ns >> 32), (uint32_t)ns };

	opt(out, code, v, sizeof(v));
}

/**
 * begin() - start a block: its type and a length to be set by end()
 * @out:	the buffer
 * @type:	the block type
 *
 * Return: where the block starts in @out
 */
static size_t begin(struct xc_sbuf *out, uint32_t type)
{
	size_t at = out->len;

	put32(out, type);
	put32(out, 0);
	return at;
}

/**
 * end() - end a block: the end of its options, its length at both ends
 * @out:	the buffer
 * @at:		where the block starts (begin())
 */
static void end(struct xc_sbuf *out, size_t at)
{
	uint32_t len;

	put32(out, 0);	/* opt_endofopt */
	len = (uint32_t)(out->len - at + 4);
	put32(out, len);
	if (!out->failed)
		memcpy(out->b + at + 4, &len, sizeof(len));
}

/**
 * xc_pcapng_shb() - append a section header block
 * @out:	the buffer
 * @app:	the program that writes it (shb_userappl)
 */
void xc_pcapng_shb(struct xc_sbuf *out, const char *app)
{
	uint16_t ver[2] = { 1, 0 };
	uint64_t seclen = UINT64_MAX;	/* not known */
	size_t at = begin(out, XC_PCAPNG_SHB);

	put32(out, 0x1A2B3C4D);	/* byte-order magic */
	xc_sbuf_put(out, (const char *)ver, sizeof(ver));
	xc_sbuf_put(out, (const char *)&seclen, sizeof(seclen));
	opt_str(out, 4, app);	/* shb_userappl */
	end(out, at);
}

/**
 * xc_pcapng_idb() - append an interface description block: an Ethernet
 *		     interface with timestamps in nanoseconds
 * @out:	the buffer
 * @name:	if_name
 * @descr:	if_description, or NULL
 * @snaplen:	the most bytes of a frame written
 */
void xc_pcapng_idb(struct xc_sbuf *out, const char *name, const char *descr,
		   uint32_t snaplen)
{
	uint16_t lt[2] = { XC_PCAPNG_LINKTYPE_ETH, 0 };
	uint8_t tsresol = 9;	/* 10^-9 s */
	size_t at = begin(out, XC_PCAPNG_IDB);

	xc_sbuf_put(out, (const char *)lt, sizeof(lt));
	put32(out, snaplen);
	opt_str(out, 2, name);		/* if_name */
	opt_str(out, 3, descr);		/* if_description */
	opt(out, 9, &tsresol, 1);	/* if_tsresol */
	end(out, at);
}

/**
 * xc_pcapng_epb_size() - the bytes of an enhanced packet block
 * @caplen:	bytes of the frame it holds
 *
 * Return: its length
 */
size_t xc_pcapng_epb_size(uint32_t caplen)
{
	return XC_PCAPNG_EPB_HEAD + pad4(caplen) + 8 + 4 + 4;
}

/**
 * xc_pcapng_epb() - write an enhanced packet block but its frame, which
 *		     the caller copies to @blk + XC_PCAPNG_EPB_HEAD
 * @blk:	xc_pcapng_epb_size(@caplen) bytes
 * @ifid:	the interface
 * @ts_ns:	when the frame was seen
 * @caplen:	bytes of it written
 * @origlen:	its length
 * @flags:	epb_flags: XC_PCAPNG_IN or XC_PCAPNG_OUT
 */
void xc_pcapng_epb(uint8_t *blk, uint32_t ifid, uint64_t ts_ns,
		   uint32_t caplen, uint32_t origlen, uint32_t flags)
{
	uint32_t len = (uint32_t)xc_pcapng_epb_size(caplen);
	uint32_t h[7] = { XC_PCAPNG_EPB, len, ifid, (uint32_t)(ts_ns >> 32),
			  (uint32_t)ts_ns, caplen, origlen };
	uint32_t t[4] = { 2 | 4u << 16, flags, 0, len };	/* epb_flags */
	size_t pad = pad4(caplen) - caplen;

	memcpy(blk, h, sizeof(h));
	memset(blk + XC_PCAPNG_EPB_HEAD + caplen, 0, pad);
	memcpy(blk + XC_PCAPNG_EPB_HEAD + caplen + pad, t, sizeof(t));
}

/**
 * xc_pcapng_isb() - append an interface statistics block
 * @out:	the buffer
 * @ifid:	the interface
 * @s:		what it says
 */
void xc_pcapng_isb(struct xc_sbuf *out, uint32_t ifid,
		   const struct xc_pcapng_stats *s)
{
	size_t at = begin(out, XC_PCAPNG_ISB);

	put32(out, ifid);
	put32(out, (uint32_t)(s->end_ns >> 32));
	put32(out, (uint32_t)s->end_ns);
	opt_ts(out, 2, s->start_ns);			/* isb_starttime */
	opt_ts(out, 3, s->end_ns);			/* isb_endtime */
	opt(out, 4, &s->ifrecv, sizeof(uint64_t));	/* isb_ifrecv */
	opt(out, 5, &s->ifdrop, sizeof(uint64_t));	/* isb_ifdrop */
	opt(out, 6, &s->accepted, sizeof(uint64_t));	/* isb_filteraccept */
	opt(out, 8, &s->delivered, sizeof(uint64_t));	/* isb_usrdeliv */
	opt_str(out, 1, s->comment);			/* opt_comment */
	end(out, at);
}

/**
 * xc_pcapng_block() - is a whole block at @p? (a stream of xcable's, in
 *		       the host's byte order)
 * @p:		bytes
 * @len:	how many
 * @type:	set to its type
 *
 * Return: its length if it is whole, 0 if more bytes are needed, or
 *	   (size_t)-1 if the bytes are no block (a length below 12, not a
 *	   multiple of 4, or differing at its end)
 */
size_t xc_pcapng_block(const uint8_t *p, size_t len, uint32_t *type)
{
	uint32_t h[2], t;

	if (len < sizeof(h))
		return 0;
	memcpy(h, p, sizeof(h));
	if (h[1] < 12 || h[1] % 4)
		return (size_t)-1;
	if (len < h[1])
		return 0;
	memcpy(&t, p + h[1] - 4, sizeof(t));
	if (t != h[1])
		return (size_t)-1;
	*type = h[0];
	return h[1];
}

/**
 * xc_pcapng_ifid() - the interface of an EPB or ISB
 * @blk:	the block, whole
 *
 * Return: its interface id
 */
uint32_t xc_pcapng_ifid(const uint8_t *blk)
{
	uint32_t v;

	memcpy(&v, blk + 8, sizeof(v));
	return v;
}

/**
 * xc_pcapng_set_ifid() - set the interface of an EPB or ISB
 * @blk:	the block, whole
 * @ifid:	its new interface id
 */
void xc_pcapng_set_ifid(uint8_t *blk, uint32_t ifid)
{
	memcpy(blk + 8, &ifid, sizeof(ifid));
}

/**
 * xc_pcapng_isb_read() - what an interface statistics block says
 * @blk:	the block, whole
 * @len:	its length
 * @s:		filled (what it does not say is 0)
 * @comment:	filled with its comment, "" if none
 * @clen:	size of @comment
 *
 * Return: 0, or -1 if its options run past it
 */
int xc_pcapng_isb_read(const uint8_t *blk, size_t len,
		       struct xc_pcapng_stats *s, char *comment, size_t clen)
{
	size_t off = 20;
	uint16_t h[2];
	uint64_t v;

	memset(s, 0, sizeof(*s));
	comment[0] = '\0';
	while (off + 4 <= len - 4) {
		memcpy(h, blk + off, sizeof(h));
		if (h[0] == 0)
			return 0;
		if (off + 4 + h[1] > len - 4)
			return -1;
		v = 0;
		if (h[1] == 8)
			memcpy(&v, blk + off + 4, 8);
		if (h[0] == 4)
			s->ifrecv = v;
		else if (h[0] == 5)
			s->ifdrop = v;
		else if (h[0] == 6)
			s->accepted = v;
		else if (h[0] == 8)
			s->delivered = v;
		else if (h[0] == 1 && clen)
			snprintf(comment, clen, "%.*s", (int)h[1],
				 (const char *)blk + off + 4);
		off += 4 + pad4(h[1]);
	}
	return 0;
}
