/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_vxlan.c - unit tests of the tunnel socket (app/kinds/vxlan.c): sorting
 *		  datagrams into tunnels, each tunnel's share of the pool,
 *		  and what happens when the pool runs dry
 *
 * A real UDP socket on 127.0.0.1 (any port, any user) carries tunnels to
 * remotes 127.0.0.2 and 127.0.0.3; the test sends VXLAN datagrams from
 * plain sockets bound to those addresses and takes frames with the end
 * ops, as the tunnels' directions do. Checks:
 * - a frame another tunnel's receive sorted for a tunnel is reported as
 *   queued while the socket itself is drained (an lcore must poll again,
 *   not sleep: the lost wake-up of two tunnels on one lcore);
 * - a tunnel whose frames nobody takes holds at most its share of the
 *   pool and the rest counts as backlog, while another tunnel gets every
 *   frame sent to it;
 * - with every mbuf in use, datagrams are still read off the socket and
 *   counted as no-mbuf (no readable socket left for the lcore to spin
 *   on), and once mbufs are back frames flow again;
 * - datagrams a sender's UDP GSO send glued together (UDP GRO over
 *   loopback) are each sorted on their own: to several tunnels of one
 *   remote, with hostile ones among them counted under their reason, a
 *   short last one included;
 * - a run of equal-sized frames sent through a tunnel goes out in one
 *   UDP_SEGMENT send (a shorter last one included), a run broken by
 *   other sizes in several, and every datagram arrives as its frame;
 * - every datagram is counted once, under one reason.
 *
 * Prints "ok NAME" or "FAIL NAME: why" per check; exits 1 on any failure.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <netinet/udp.h>

#include <rte_mbuf.h>

#include "cable.h"
#include "vxlan.h"
#include "unitlib.h"

#define FRAME_LEN	60

static int fails;

/**
 * sender() - a UDP socket bound to @addr, to send datagrams from
 * @addr:	local IPv4 address, e.g. "127.0.0.2"
 *
 * Return: the fd, or -1
 */
static int sender(const char *addr)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0 || inet_pton(AF_INET, addr, &a.sin_addr) != 1 ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a))) {
		perror("test_vxlan: sender");
		return -1;
	}
	return fd;
}

/**
 * send_frames() - send @n numbered frames under @vni to the tunnel socket
 * @fd:		sending socket
 * @to:		the tunnel socket's address
 * @vni:	VNI
 * @seq:	number of the first frame
 * @n:		how many
 *
 * Return: how many were sent
 */
static unsigned int send_frames(int fd, const struct sockaddr_in *to,
				uint32_t vni, uint32_t seq, unsigned int n)
{
	uint8_t d[XC_VXLAN_HLEN + FRAME_LEN];
	unsigned int i, sent = 0;

	for (i = 0; i < n; i++) {
		uint32_t s = seq + i;

		memset(d, 0, sizeof(d));
		xc_vxlan_encap(d, vni);
		memcpy(d + XC_VXLAN_HLEN, "\x52\x54\x00\xab\xcd\xef\x52\x54\x00\x12\x34\x56\x08\x00", 14);
		memcpy(d + XC_VXLAN_HLEN + 14, &s, 4);
		if (sendto(fd, d, sizeof(d), 0, (const struct sockaddr *)to,
			   sizeof(*to)) == (ssize_t)sizeof(d))
			sent++;
	}
	usleep(20000);	/* loopback delivers at once; be generous */
	return sent;
}

/**
 * send_glued() - send datagrams of @size bytes (the last may be shorter)
 *		  in one UDP_SEGMENT send, each with its own VXLAN header
 *		  and numbered frame (or the bytes @bad gives)
 * @fd:		sending socket
 * @to:		the tunnel socket's address
 * @vni:	each datagram's VNI, 0 for one whose I flag is not set
 * @seq:	each datagram's frame number
 * @n:		how many datagrams
 * @last:	the last one's length (at most FRAME_LEN + the header)
 *
 * Return: true if the kernel took the send
 */
static bool send_glued(int fd, const struct sockaddr_in *to,
		       const uint32_t *vni, const uint32_t *seq, unsigned int n,
		       unsigned int last)
{
	static uint8_t d[16][XC_VXLAN_HLEN + FRAME_LEN];
	char ctl[CMSG_SPACE(sizeof(uint16_t))] = { 0 };
	struct iovec iov[16];
	struct msghdr h = { .msg_name = (void *)to, .msg_namelen = sizeof(*to),
			    .msg_iov = iov, .msg_iovlen = n,
			    .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&h);
	uint16_t size = XC_VXLAN_HLEN + FRAME_LEN;
	unsigned int i;

	for (i = 0; i < n && i < 16; i++) {
		memset(d[i], 0, sizeof(d[i]));
		xc_vxlan_encap(d[i], vni[i]);
		if (vni[i] == 0)
			d[i][0] = 0;	/* no I flag */
		memcpy(d[i] + XC_VXLAN_HLEN, "\x52\x54\x00\xab\xcd\xef\x52\x54\x00\x12\x34\x56\x08\x00", 14);
		memcpy(d[i] + XC_VXLAN_HLEN + 14, &seq[i], 4);
		iov[i].iov_base = d[i];
		iov[i].iov_len = i + 1 == n ? last : sizeof(d[i]);
	}
	c->cmsg_level = SOL_UDP;
	c->cmsg_type = UDP_SEGMENT;
	c->cmsg_len = CMSG_LEN(sizeof(size));
	memcpy(CMSG_DATA(c), &size, sizeof(size));
	i = sendmsg(fd, &h, 0) > 0;
	usleep(20000);
	return i;
}

/**
 * readable() - does the tunnel socket have a datagram waiting?
 * @vx:		socket
 *
 * Return: true if so
 */
static bool readable(const struct xc_vxlan *vx)
{
	struct pollfd p = { .fd = vx->fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/**
 * take() - take every frame waiting for a tunnel, until the socket is
 *	    drained, checking their numbers
 * @e:		the tunnel end
 * @seq:	number the next frame should have, advanced
 * @keep:	if not NULL, frames are put here instead of freed
 * @kept:	number in @keep, advanced
 *
 * Return: frames taken, or -1 if one was out of order
 */
static int take(struct xc_end *e, uint32_t *seq, struct rte_mbuf **keep,
		unsigned int *kept)
{
	struct rte_mbuf *b[XC_BURST];
	int total = 0;
	uint16_t n, i;

	const struct xc_vxlan *vx = ((struct xc_vxlan_tun *)e->priv)->vx;

	/* a receive that finds only other tunnels' frames gives none: go on
	 * while the socket has more, as the next rounds of a direction do */
	unsigned int rounds = 0;

	while (((n = e->ops->rx(e, 0, b, XC_BURST)) > 0 || readable(vx)) &&
	       rounds++ < 1000) {	/* a socket never drained: a failure */
		for (i = 0; i < n; i++) {
			if (b[i]->pkt_len != FRAME_LEN ||
			    unit_seq(b[i], 0) != (*seq)++)
				total = -1000000;
			if (keep)
				keep[(*kept)++] = b[i];
			else
				rte_pktmbuf_free(b[i]);
		}
		total += n;
	}
	return total < 0 ? -1 : total;
}

/**
 * sum() - every datagram the socket has counted, under each reason
 * @vx:		socket
 * @s:		filled
 *
 * Return: the datagrams received
 */
static uint64_t sum(const struct xc_vxlan *vx, struct xc_vxlan_stats *s)
{
	xc_vxlan_stats(vx, s);
	return s->rx_datagrams;
}

int main(int argc, char **argv)
{
	static struct xc_end end[9];
	static struct rte_mbuf *keep[XC_VXLAN_POOL_MBUFS + 64];
	struct xc_vxlan_stats st;
	struct sockaddr_in to;
	socklen_t tolen = sizeof(to);
	struct xc_vxlan *vx = NULL;
	uint32_t seq0 = 0, seq1 = 0, seqb = 0;
	unsigned int i, kept = 0, queued0, sent;
	char err[256], remote[32];
	int s2, s3, got;

	(void)argc;
	if (unit_eal_init(argv[0]))
		return 2;
	if (xc_vxlan_open(&vx, "127.0.0.1", 0, false, err, sizeof(err))) {
		fprintf(stderr, "test_vxlan: %s\n", err);
		return 2;
	}
	if (getsockname(vx->fd, (struct sockaddr *)&to, &tolen))
		return 2;
	/* 8 tunnels: VNIs 100..107 from 127.0.0.2, and VNI 100 from .3 */
	for (i = 0; i < 8; i++) {
		snprintf(end[i].label, sizeof(end[i].label), "t%u", i);
		snprintf(remote, sizeof(remote), "127.0.0.%u:4789",
			 i == 7 ? 3 : 2);
		if (xc_vxlan_add(vx, &end[i], remote, 4789,
				 i == 7 ? 100 : 100 + i, err, sizeof(err))) {
			fprintf(stderr, "test_vxlan: %s\n", err);
			return 2;
		}
	}
	s2 = sender("127.0.0.2");
	s3 = sender("127.0.0.3");
	if (s2 < 0 || s3 < 0)
		return 2;
	CHECK("each of 8 tunnels may hold (4095 - 32) / 16 frames",
	      vx->qcap == (XC_VXLAN_POOL_MBUFS - XC_BURST) / 16);

	/* the lost wake-up: tunnel 1's receive sorts tunnel 0's frame */
	send_frames(s2, &to, 101, seq1, 1);
	send_frames(s2, &to, 100, 0, 1);
	CHECK("nothing queued before any receive",
	      !end[0].ops->queued(&end[0]) && readable(vx));
	got = take(&end[1], &seq1, NULL, NULL);
	CHECK("tunnel 1 takes its frame; tunnel 0's waits in its queue, the socket is drained",
	      got == 1 && end[0].ops->queued(&end[0]) && !readable(vx));
	got = take(&end[0], &seq0, NULL, NULL);
	CHECK("tunnel 0 takes it at its next poll, then nothing is queued",
	      got == 1 && !end[0].ops->queued(&end[0]));

	/* same VNI, two remotes: two tunnels */
	send_frames(s3, &to, 100, 0, 3);
	got = take(&end[7], &seqb, NULL, NULL);
	CHECK("VNI 100 from 127.0.0.3 goes to its own tunnel, not to .2's",
	      got == 3 && !end[0].ops->queued(&end[0]));

	/* tunnel 0's guest takes nothing: its queue stops at its share,
	 * tunnel 1 gets everything all along */
	sent = 0;
	for (i = 0; i < 10; i++) {
		sent += send_frames(s2, &to, 100, seq0 + 50 * i, 50);
		sent += send_frames(s2, &to, 101, seq1, 10);
		got = take(&end[1], &seq1, NULL, NULL);
		if (got != 10) {
			printf("  round %u: tunnel 1 took %d\n", i, got);
			break;
		}
	}
	queued0 = ((struct xc_vxlan_tun *)end[0].priv)->q.n;
	xc_vxlan_stats(vx, &st);
	CHECK("tunnel 1 got its 100 frames, in order, while tunnel 0 took none",
	      i == 10 && sent == 600);
	CHECK("tunnel 0 holds its share and no more; the rest is backlog",
	      queued0 == vx->qcap && st.backlog == 500u - vx->qcap);
	got = take(&end[0], &seq0, NULL, NULL);
	CHECK("the frames tunnel 0 kept are its first ones, in order",
	      got == (int)vx->qcap);
	seq0 += 500 - vx->qcap;

	/* the pool runs dry: the test holds every mbuf */
	while (kept < RTE_DIM(keep) &&
	       (keep[kept] = rte_pktmbuf_alloc(vx->pool)) != NULL)
		kept++;
	sent = send_frames(s2, &to, 101, seq1, 100);
	got = take(&end[1], &seq1, keep, &kept);
	xc_vxlan_stats(vx, &st);
	CHECK("with the pool dry, every datagram is read off the socket and counted as no-mbuf",
	      got == 0 && st.no_mbuf == sent && !readable(vx));
	for (i = 0; i < kept; i++)
		rte_pktmbuf_free(keep[i]);
	kept = 0;
	seq1 += sent;
	send_frames(s2, &to, 101, seq1, 20);
	got = take(&end[1], &seq1, NULL, NULL);
	CHECK("mbufs back: frames flow again", got == 20);

	/* one UDP GSO send from 127.0.0.2, glued whole on its way over
	 * loopback: tunnel 1's frame, tunnel 2's, an unknown VNI, one
	 * without the I flag, tunnel 1's next, and a short last one */
	{
		static const uint32_t vni[6] = { 101, 102, 300, 0, 101, 101 };
		uint32_t seqs[6] = { seq1, 0, 0, 0, seq1 + 1, 0 };
		struct xc_vxlan_stats b;
		uint32_t seq2 = 0;

		xc_vxlan_stats(vx, &b);
		CHECK("glued: the sender's UDP_SEGMENT send is taken",
		      vx->gro && send_glued(s2, &to, vni, seqs, 6, 5));
		got = take(&end[1], &seq1, NULL, NULL);
		xc_vxlan_stats(vx, &st);
		CHECK("glued: the 6 datagrams arrived as one message (UDP GRO)",
		      st.rx_gro_datagrams - b.rx_gro_datagrams == 6);
		CHECK("glued: tunnel 1 takes its 2 frames, in order, tunnel 2 its one",
		      got == 2 && take(&end[2], &seq2, NULL, NULL) == 1);
		CHECK("glued: the unknown VNI, the missing I flag and the short one are counted",
		      st.rx_datagrams - b.rx_datagrams == 6 &&
		      st.unknown_vni - b.unknown_vni == 1 &&
		      st.rx_bad_flags - b.rx_bad_flags == 1 &&
		      st.rx_short - b.rx_short == 1);
	}

	/* sending: a tunnel to a plain socket on 127.0.0.4 */
	{
		struct sockaddr_in ra = { .sin_family = AF_INET };
		socklen_t ralen = sizeof(ra);
		static const uint16_t lens[] = { 100, 100, 100, 100, 80,
						 60, 100, 100, 90, 60 };
		struct rte_mbuf *f[RTE_DIM(lens)];
		uint64_t drop[XC_DROP__MAX] = { 0 };
		uint8_t buf[256];
		struct xc_vxlan_stats b;
		unsigned int ok = 0;
		int rfd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
		ssize_t l;

		inet_pton(AF_INET, "127.0.0.4", &ra.sin_addr);
		if (rfd < 0 || bind(rfd, (struct sockaddr *)&ra, sizeof(ra)) ||
		    getsockname(rfd, (struct sockaddr *)&ra, &ralen))
			return 2;
		snprintf(remote, sizeof(remote), "127.0.0.4:%u",
			 ntohs(ra.sin_port));
		snprintf(end[8].label, sizeof(end[8].label), "t8");
		if (xc_vxlan_add(vx, &end[8], remote, 4789, 400, err,
				 sizeof(err))) {
			fprintf(stderr, "test_vxlan: %s\n", err);
			return 2;
		}
		for (i = 0; i < RTE_DIM(lens); i++)
			f[i] = unit_frame(vx->pool, 1000 + i, lens[i]);
		xc_vxlan_stats(vx, &b);
		got = end[8].ops->tx(&end[8], 0, f, RTE_DIM(lens), drop);
		xc_vxlan_stats(vx, &st);
		for (i = 0; i < RTE_DIM(lens); i++) {
			uint32_t s;

			l = recv(rfd, buf, sizeof(buf), 0);
			memcpy(&s, buf + XC_VXLAN_HLEN + 14, 4);
			ok += l == XC_VXLAN_HLEN + lens[i] && s == 1000 + i &&
			      buf[0] == XC_VXLAN_FLAG_I;
		}
		CHECK("sending: 10 frames taken, each arrives as its own datagram, in order",
		      got == (int)RTE_DIM(lens) && ok == RTE_DIM(lens) &&
		      recv(rfd, buf, sizeof(buf), 0) < 0 &&
		      st.tx_datagrams - b.tx_datagrams == RTE_DIM(lens));
		/* runs: 100 x4 and 80; 60 alone (a 100 follows); 100 x2,
		 * 90; 60 alone */
		CHECK("sending: the runs of one size (a shorter last one ending each) went in UDP_SEGMENT sends",
		      vx->gso && st.tx_gso_datagrams - b.tx_gso_datagrams == 8 &&
		      st.tx_gso_refused == b.tx_gso_refused);
		xc_vxlan_del(&end[8]);
		close(rfd);
	}

	xc_vxlan_stats(vx, &st);
	CHECK("every datagram counted once: taken, backlog or no-mbuf",
	      sum(vx, &st) == 2 + 3 + 600 + 100 + 20 + 6 &&
	      st.backlog + st.no_mbuf + st.unknown_vni + st.unknown_remote +
	      st.rx_short + st.rx_bad_flags + st.rx_too_big ==
	      (500u - vx->qcap) + 100u + 3);

	/* a tunnel made beside tunnel 7 (VNI 100 from .3), as for a cable
	 * that replaces another: it waits, nothing sorted to it, until
	 * tunnel 7 is gone and it settles */
	{
		static struct xc_end nu;
		uint32_t seqn = 0;

		snprintf(nu.label, sizeof(nu.label), "t7b");
		CHECK("beside: a second tunnel with tunnel 7's VNI and remote is refused, one beside it waits",
		      xc_vxlan_add(vx, &nu, "127.0.0.3:4789", 4789, 100, err,
				   sizeof(err)) == -EINVAL &&
		      xc_vxlan_add_beside(vx, &nu, "127.0.0.3:4789", 4789, 100,
					  err, sizeof(err)) == 0 &&
		      ((struct xc_vxlan_tun *)nu.priv)->pending);
		send_frames(s3, &to, 100, seqb, 2);
		got = take(&end[7], &seqb, NULL, NULL);
		CHECK("beside: while it waits, tunnel 7 gets VNI 100 from .3",
		      got == 2 && !nu.ops->queued(&nu));
		CHECK("beside: settle while tunnel 7 is there: -EBUSY",
		      xc_vxlan_settle(&nu) == -EBUSY);
		xc_vxlan_stop(&end[7]);
		xc_vxlan_del(&end[7]);
		CHECK("beside: tunnel 7 gone, settle: the new one is live",
		      xc_vxlan_settle(&nu) == 0 &&
		      !((struct xc_vxlan_tun *)nu.priv)->pending);
		send_frames(s3, &to, 100, 0, 3);
		CHECK("beside: it gets VNI 100 from .3",
		      take(&nu, &seqn, NULL, NULL) == 3);
		xc_vxlan_del(&nu);
	}

	close(s2);
	close(s3);
	xc_vxlan_flush(vx);
	CHECK("no mbuf leaked", rte_mempool_in_use_count(vx->pool) == 0);
	xc_vxlan_close(vx);
	unit_eal_fini();
	return fails ? 1 : 0;
}
