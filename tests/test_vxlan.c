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
	static struct xc_end end[8];
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
	/* the receive slots still hold XC_BURST mbufs: 100 frames use them
	 * up, and what comes after is drained and dropped */
	sent = send_frames(s2, &to, 101, seq1, 100);
	got = take(&end[1], &seq1, keep, &kept);
	xc_vxlan_stats(vx, &st);
	CHECK("with the pool dry, the receive slots' mbufs still carry frames",
	      got == XC_BURST);
	CHECK("the rest is read off the socket and counted as no-mbuf",
	      st.no_mbuf == sent - XC_BURST && !readable(vx));
	for (i = 0; i < kept; i++)
		rte_pktmbuf_free(keep[i]);
	kept = 0;
	seq1 += sent - XC_BURST;
	send_frames(s2, &to, 101, seq1, 20);
	got = take(&end[1], &seq1, NULL, NULL);
	CHECK("mbufs back: frames flow again", got == 20);

	xc_vxlan_stats(vx, &st);
	CHECK("every datagram counted once: taken, backlog or no-mbuf",
	      sum(vx, &st) == 2 + 3 + 600 + 100 + 20 &&
	      st.backlog + st.no_mbuf + st.unknown_vni + st.unknown_remote +
	      st.rx_short + st.rx_bad_flags + st.rx_too_big ==
	      (500u - vx->qcap) + (100u - XC_BURST));

	close(s2);
	close(s3);
	xc_vxlan_flush(vx);
	for (i = 0; i < XC_BURST; i++) {	/* the receive slots' own */
		rte_pktmbuf_free(vx->rxm[i]);
		vx->rxm[i] = NULL;
	}
	CHECK("no mbuf leaked", rte_mempool_in_use_count(vx->pool) == 0);
	xc_vxlan_close(vx);
	unit_eal_fini();
	return fails ? 1 : 0;
}
