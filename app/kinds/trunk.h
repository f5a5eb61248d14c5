/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trunk.h - many cables over one port, each under its own outer VLAN tag
 *
 * A trunk is a DPDK port (a NIC, af_packet, af_xdp...) that ends several
 * cables. Each cable's end on it is a member: a struct xc_end on the
 * trunk's port, whose end ops (xc_end_trunk_ops) receive only the frames
 * with its tag and take 4 bytes less than the port. Frames to a member get the member's outer tag pushed (802.1ad by
 * default, 802.1Q if configured) right behind the MAC addresses, so that a
 * guest's own tags travel inside, QinQ style; frames from the trunk are
 * sorted by that tag into per-member queues and lose it. Frames with a tag
 * no member has (or none) are counted and dropped.
 *
 * One lcore forwards every cable of a trunk: it alone receives from the
 * port, fills the member queues and sends to it.
 *
 * Members come and go while that lcore runs (cables added and removed at
 * runtime): the main thread fills a free member slot and then publishes
 * its tag in @member_of, and takes a member away in two steps, its tag
 * first (xc_trunk_stop(): nothing more is sorted to it), its slot once
 * the lcore has let go of the member's cable (xc_trunk_del()), so the
 * lcore never sorts a frame into a queue being emptied. A cable that
 * replaces another is made whole before that one goes: its member waits
 * beside the old one under the same tag, nothing sorted to it, and takes
 * the tag once the old one let go of it (xc_trunk_add_beside(),
 * xc_trunk_settle()).
 */
#ifndef XC_TRUNK_H
#define XC_TRUNK_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "cable.h"

#define XC_TRUNK_MAX_MEMBERS	64
/* slots: a member waiting beside each (xc_trunk_add_beside()) */
#define XC_TRUNK_SLOTS		(2 * XC_TRUNK_MAX_MEMBERS)
#define XC_TRUNK_QLEN		512	/* frames waiting per member */
#define XC_VLAN_IDS		4096

/**
 * struct xc_trunk_q - frames from the trunk for one member, in order
 * @m:		the frames, a ring
 * @head:	the first
 * @n:		how many
 * @since:	TSC at which the first of them was received
 * @last:	TSC at which the last of them was received
 */
struct xc_trunk_q {
	struct rte_mbuf *m[XC_TRUNK_QLEN];
	uint16_t head;
	uint16_t n;
	uint64_t since;
	uint64_t last;
};

/**
 * struct xc_trunk_member - what a member end is on its trunk (the end's
 *			    @priv; main thread, read by the trunk's lcore)
 * @trunk:	the trunk
 * @tag:	its outer VLAN id
 * @idx:	its index among the members
 * @pending:	it waits beside the member that has its tag: nothing is
 *		sorted to it until xc_trunk_settle()
 */
struct xc_trunk_member {
	struct xc_trunk *trunk;
	uint16_t tag;
	uint8_t idx;
	bool pending;
};

/**
 * struct xc_trunk_stats - counters of a trunk port, as read for showing
 * (names and meanings: trunk_counters in trunk.c)
 */
struct xc_trunk_stats {
	uint64_t rx_pkts;
	uint64_t unknown_tag;
	uint64_t backlog;
	uint64_t oerrors;
	uint64_t imissed;
	uint64_t ierrors;
};

/**
 * struct xc_trunk - a port shared by several cables
 * @hub:	what the views show of it (its counters), first
 * @port:	the port itself (configured and started once)
 * @tpid:	outer tag type, 0x88a8 or 0x8100
 * @member_of:	VLAN id -> member index + 1 (0: none); written by the main
 *		thread, read by the trunk's lcore (atomic)
 * @n_members:	members (main thread)
 * @n_pending:	of which waiting beside another with their tag (main
 *		thread)
 * @member:	their ends, by index; NULL for a free slot (main thread)
 * @mem:	what each member is on the trunk (its end's @priv)
 * @q:		frames received for each member, not yet taken (the
 *		trunk's lcore; the main thread empties a member's once its
 *		tag is gone and the lcore has let go of it)
 * @rx_pkts:	frames received from the port (atomic, one writer)
 * @unknown_tag: frames dropped because no member has their tag, or they
 *		had none (atomic, one writer)
 * @backlog:	frames dropped because their member's queue was full
 *		(atomic, one writer)
 */
struct xc_trunk {
	struct xc_hub hub;
	struct xc_port *port;
	uint16_t tpid;
	uint8_t member_of[XC_VLAN_IDS];
	unsigned int n_members;
	unsigned int n_pending;
	struct xc_end *member[XC_TRUNK_SLOTS];
	struct xc_trunk_member mem[XC_TRUNK_SLOTS];
	struct xc_trunk_q q[XC_TRUNK_SLOTS];
	uint64_t rx_pkts;
	uint64_t unknown_tag;
	uint64_t backlog;
};

extern const struct xc_end_ops xc_end_trunk_ops;

void xc_trunk_init(struct xc_trunk *t, struct xc_port *port, uint16_t tpid);
const struct xc_trunk_member *xc_trunk_member_of(const struct xc_end *e);
int xc_trunk_add(struct xc_trunk *t, struct xc_end *member, uint16_t tag);
int xc_trunk_add_beside(struct xc_trunk *t, struct xc_end *member,
			uint16_t tag);
int xc_trunk_settle(struct xc_trunk *t, const struct xc_end *member);
void xc_trunk_stop(struct xc_trunk *t, const struct xc_end *member);
void xc_trunk_del(struct xc_trunk *t, struct xc_end *member);
uint16_t xc_trunk_rx(struct xc_end *member, struct rte_mbuf **pkts,
		     uint16_t n);
int xc_trunk_push(struct rte_mbuf *m, uint16_t tpid, uint16_t tag);
void xc_trunk_flush(struct xc_trunk *t);
void xc_trunk_stats(const struct xc_trunk *t, struct xc_trunk_stats *s);

#endif /* XC_TRUNK_H */
