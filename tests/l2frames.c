/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * l2frames.c - send and check raw layer 2 frames from inside a test VM
 *
 *   l2frames send IFACE          send the catalogue once
 *   l2frames recv IFACE SECONDS  listen until every catalogue frame arrived
 *                                byte for byte or SECONDS pass, then say
 *                                which did
 *   l2frames announce IFACE SECONDS MAC
 *                                count, for SECONDS, the announcements of
 *                                the guest with MAC: gratuitous ARPs (its
 *                                own address asked for) and RARPs from it,
 *                                what a guest that moved sends, or QEMU
 *                                (through its backend) for it; a line each,
 *                                "announce arp|rarp T" (T: seconds since the
 *                                start), then "announcements: arp N rarp N"
 *
 * Static, AF_PACKET only, so it runs in the tiny busybox guest. The kernel
 * takes VLAN tags off received frames into PACKET_AUXDATA; they are put
 * back before comparing, as libpcap does.
 */
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct frame {
	const char *name;
	uint16_t len;
	uint8_t hdr[24];
	uint8_t hdr_len;
};

#define SRC 0x52, 0x54, 0x00, 0x11, 0x22, 0x33
#define DST 0x52, 0x54, 0x00, 0x44, 0x55, 0x66

static const struct frame frames[] = {
	{ "STP BPDU (01:80:c2:00:00:00)", 60,
	  { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x00, SRC, 0x00, 0x26, 0x42, 0x42,
	    0x03 }, 17 },
	{ "LACP (01:80:c2:00:00:02)", 124,
	  { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x02, SRC, 0x88, 0x09, 0x01, 0x01 },
	  16 },
	{ "LLDP (01:80:c2:00:00:0e)", 90,
	  { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e, SRC, 0x88, 0xcc }, 14 },
	{ "802.1Q VLAN 100", 100,
	  { DST, SRC, 0x81, 0x00, 0x00, 0x64, 0x88, 0xb5 }, 18 },
	{ "QinQ 802.1ad 10 / 802.1Q 20", 100,
	  { DST, SRC, 0x88, 0xa8, 0x00, 0x0a, 0x81, 0x00, 0x00, 0x14, 0x88,
	    0xb5 }, 22 },
	{ "unknown ethertype 0x1234", 80, { DST, SRC, 0x12, 0x34 }, 14 },
};

#define N_FRAMES (sizeof(frames) / sizeof(frames[0]))

static void build(const struct frame *f, uint8_t *buf)
{
	unsigned int i;

	memcpy(buf, f->hdr, f->hdr_len);
	for (i = f->hdr_len; i < f->len; i++)
		buf[i] = (uint8_t)(i * 31 + f->len);
}

static int open_sock(const char *ifname, int *ifindex)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(ETH_P_ALL) };
	struct packet_mreq mr = { .mr_type = PACKET_MR_PROMISC };
	int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL)), one = 1;

	if (fd < 0) {
		perror("socket");
		exit(2);
	}
	*ifindex = (int)if_nametoindex(ifname);
	if (*ifindex == 0) {
		fprintf(stderr, "l2frames: no interface %s\n", ifname);
		exit(2);
	}
	sll.sll_ifindex = *ifindex;
	mr.mr_ifindex = *ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0 ||
	    setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr,
		       sizeof(mr)) < 0 ||
	    setsockopt(fd, SOL_PACKET, PACKET_AUXDATA, &one, sizeof(one)) < 0) {
		perror("l2frames: socket setup");
		exit(2);
	}
	return fd;
}

static int do_send(const char *ifname)
{
	uint8_t buf[256];
	unsigned int i;
	int ifindex, fd = open_sock(ifname, &ifindex);

	for (i = 0; i < N_FRAMES; i++) {
		build(&frames[i], buf);
		if (send(fd, buf, frames[i].len, 0) != frames[i].len) {
			perror("l2frames: send");
			return 1;
		}
		printf("sent %s, %u bytes\n", frames[i].name, frames[i].len);
	}
	return 0;
}

static int do_recv(const char *ifname, int seconds)
{
	unsigned int seen[N_FRAMES] = { 0 }, i, fails = 0;
	uint8_t buf[65536], want[256];
	time_t end = time(NULL) + seconds;
	int ifindex, fd = open_sock(ifname, &ifindex);

	while (time(NULL) < end) {
		unsigned int have = 0;
		struct pollfd p = { .fd = fd, .events = POLLIN };
		union {
			struct cmsghdr c;
			char b[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
		} ctl;
		struct iovec iov = { buf + 4, sizeof(buf) - 4 };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
				     .msg_control = &ctl,
				     .msg_controllen = sizeof(ctl) };
		struct cmsghdr *c;
		uint8_t *f = buf + 4;
		ssize_t n;

		for (i = 0; i < N_FRAMES; i++)
			have += seen[i] != 0;
		if (have == N_FRAMES)
			break;
		if (poll(&p, 1, 200) <= 0)
			continue;
		n = recvmsg(fd, &mh, 0);
		if (n < 14)
			continue;
		for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
			struct tpacket_auxdata *a = (void *)CMSG_DATA(c);
			uint16_t tpid, tci;

			if (c->cmsg_level != SOL_PACKET ||
			    c->cmsg_type != PACKET_AUXDATA ||
			    !(a->tp_status & TP_STATUS_VLAN_VALID))
				continue;
			/* put the stripped tag back after the addresses */
			tpid = htons((a->tp_status & TP_STATUS_VLAN_TPID_VALID) ?
				     a->tp_vlan_tpid : ETH_P_8021Q);
			tci = htons(a->tp_vlan_tci);
			f = buf;
			memmove(f, f + 4, 12);
			memcpy(f + 12, &tpid, 2);
			memcpy(f + 14, &tci, 2);
			n += 4;
		}
		for (i = 0; i < N_FRAMES; i++) {
			build(&frames[i], want);
			if (n == frames[i].len && !memcmp(f, want, (size_t)n))
				seen[i]++;
		}
	}
	for (i = 0; i < N_FRAMES; i++) {
		printf("%s %s\n", seen[i] ? "ok" : "FAIL", frames[i].name);
		if (!seen[i])
			fails++;
	}
	printf("l2frames: %u of %zu frames arrived byte for byte\n",
	       (unsigned int)N_FRAMES - fails, N_FRAMES);
	return fails ? 1 : 0;
}

/**
 * announcement() - is a frame an announcement of the guest with MAC @mac
 *		    (a gratuitous ARP from it, or a RARP)?
 * @f:		the frame
 * @n:		its length (or recv()'s -1)
 * @mac:	the guest's MAC
 *
 * Return: 1 for a gratuitous ARP, 2 for a RARP, 0 if neither
 */
static int announcement(const uint8_t *f, ssize_t n, const uint8_t *mac)
{
	if (n < 42 || memcmp(f + 6, mac, 6))
		return 0;
	if (f[12] == 0x80 && f[13] == 0x35)
		return 2;
	/* ARP for IPv4 over Ethernet, its sender's address = its target's */
	if (f[12] == 0x08 && f[13] == 0x06 && f[16] == 0x08 && f[17] == 0x00 &&
	    !memcmp(f + 28, f + 38, 4))
		return 1;
	return 0;
}

/**
 * do_announce() - count the announcements of a guest for a while
 * @ifname:	the interface to listen on
 * @seconds:	for how long
 * @macs:	the guest's MAC, as text
 *
 * Return: 0, or 2 for a MAC that is not one
 */
static int do_announce(const char *ifname, int seconds, const char *macs)
{
	struct timespec t0, t;
	time_t end = time(NULL) + seconds;
	unsigned int count[3] = { 0 };
	uint8_t buf[2048], mac[6];
	int ifindex, fd, k;

	if (sscanf(macs, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1],
		   &mac[2], &mac[3], &mac[4], &mac[5]) != 6) {
		fprintf(stderr, "l2frames: bad MAC %s\n", macs);
		return 2;
	}
	fd = open_sock(ifname, &ifindex);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (time(NULL) < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 200) <= 0)
			continue;
		n = recv(fd, buf, sizeof(buf), 0);
		k = announcement(buf, n, mac);
		if (k == 0)
			continue;
		count[k]++;
		clock_gettime(CLOCK_MONOTONIC, &t);
		printf("announce %s %.3f\n", k == 1 ? "arp" : "rarp",
		       (double)(t.tv_sec - t0.tv_sec) +
		       (t.tv_nsec - t0.tv_nsec) / 1e9);
		fflush(stdout);
	}
	printf("announcements: arp %u rarp %u\n", count[1], count[2]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "send"))
		return do_send(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "recv"))
		return do_recv(argv[2], atoi(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "announce"))
		return do_announce(argv[2], atoi(argv[3]), argv[4]);
	fprintf(stderr, "usage: l2frames send IFACE | recv IFACE SECONDS | announce IFACE SECONDS MAC\n");
	return 2;
}
