/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vu.c - a vhost-user frontend without DPDK, for tests (see vu.h): the
 *	  handshake QEMU does, and one frame at a time in and out of the
 *	  split rings
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "vu.h"

/* a guest as QEMU's virtio-net would be with every offload off in the
 * frames it sends: version 1, indirect descriptors, protocol features */
const struct setup SETUP_DEFAULT = {
	.want = 1ull << F_VERSION_1 | 1ull << F_PROTOCOL | 1ull << F_INDIRECT |
		1ull << F_CSUM | 1ull << F_HOST_TSO4 | 1ull << F_HOST_TSO6,
	.proto = 0,
	.rx_posted = true,
};

/* msleep() - sleep @ms milliseconds */
void msleep(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* now_ms() - monotonic time in milliseconds */
uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/**
 * vu_send() - send one message, with fds
 * @g:		guest
 * @m:		message; m->size bytes of payload follow the header
 * @fds:	fds to pass (SCM_RIGHTS), may be NULL
 * @nfds:	how many
 *
 * Return: 0, or -errno (xcable closed the connection)
 */
int vu_send(struct guest *g, struct vu_msg *m, const int *fds, int nfds)
{
	char cbuf[CMSG_SPACE(sizeof(int) * 16)];
	struct iovec iov = { m, MSG_HDR + m->size };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;

	if (!(m->flags & 3))
		m->flags |= VU_VERSION;
	if (nfds > 0) {
		memset(cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)nfds);
	}
	if (sendmsg(g->sock, &mh, MSG_NOSIGNAL) < 0)
		return -errno;
	return 0;
}

/**
 * vu_recv() - read a reply, waiting at most 2 s
 * @g:		guest
 * @m:		filled
 *
 * Return: 0, or -errno (-ECONNRESET: closed, -ETIMEDOUT: no answer)
 */
int vu_recv(struct guest *g, struct vu_msg *m)
{
	struct pollfd p = { g->sock, POLLIN, 0 };
	ssize_t n;

	if (poll(&p, 1, 2000) <= 0)
		return -ETIMEDOUT;
	n = recv(g->sock, m, MSG_HDR, MSG_WAITALL);
	if (n != MSG_HDR)
		return -ECONNRESET;
	if (m->size > sizeof(m->raw))
		return -EPROTO;
	if (m->size && recv(g->sock, m->raw, m->size, MSG_WAITALL) !=
	    (ssize_t)m->size)
		return -ECONNRESET;
	return 0;
}

/* vu_u64() - request with a u64 payload (or none); reply read if @get */
int vu_u64(struct guest *g, uint32_t req, uint64_t v, bool has, bool get,
	   uint64_t *reply)
{
	struct vu_msg m = { .req = req, .size = has ? 8 : 0, .u64 = v };
	int rc = vu_send(g, &m, NULL, 0);

	if (rc || !get)
		return rc;
	rc = vu_recv(g, &m);
	if (rc)
		return rc;
	if (m.req != req || !(m.flags & VU_REPLY) || m.size != 8)
		return -EPROTO;
	*reply = m.u64;
	return 0;
}

int vu_state(struct guest *g, uint32_t req, uint32_t index, uint32_t num)
{
	struct vu_msg m = { .req = req, .size = 8 };

	m.state.index = index;
	m.state.num = num;
	return vu_send(g, &m, NULL, 0);
}

int vu_file(struct guest *g, uint32_t req, uint64_t v, int fd)
{
	struct vu_msg m = { .req = req, .size = 8, .u64 = v };

	return vu_send(g, &m, fd >= 0 ? &fd : NULL, fd >= 0 ? 1 : 0);
}

int vu_addr(struct guest *g, uint32_t index, uint64_t d, uint64_t a,
	    uint64_t u)
{
	struct vu_msg m = { .req = VU_SET_VRING_ADDR, .size = 40 };

	m.addr.index = index;
	m.addr.desc = d;
	m.addr.avail = a;
	m.addr.used = u;
	return vu_send(g, &m, NULL, 0);
}

/* vu_mem() - SET_MEM_TABLE with one region covering @size of our memfd */
int vu_mem(struct guest *g, uint64_t g_pa, uint64_t size, uint64_t uva,
	   uint64_t offset)
{
	struct vu_msg m = { .req = VU_SET_MEM_TABLE, .size = 8 + 32 };

	m.mem.n = 1;
	m.mem.r[0] = (struct vu_region){ g_pa, size, uva, offset };
	return vu_send(g, &m, &g->memfd, 1);
}

/* vu_iotlb() - an IOTLB message: @uaddr is in our address space */
int vu_iotlb(struct guest *g, uint8_t type, uint64_t iova,
	     uint64_t size, uint64_t uaddr, uint8_t perm)
{
	struct vu_msg m = { .req = VU_IOTLB_MSG, .size = 32 };

	m.iotlb.iova = iova;
	m.iotlb.size = size;
	m.iotlb.uaddr = uaddr;
	m.iotlb.perm = perm;
	m.iotlb.type = type;
	return vu_send(g, &m, NULL, 0);
}

/* ring_addr() - where vring @q's part at @off is, as the guest tells it:
 * our address, or behind a vIOMMU its I/O virtual address */
static uint64_t ring_addr(struct guest *g, const struct setup *s,
			  unsigned int q, unsigned int off)
{
	return s->iommu ? gpa(RING_OFF(q) + off) :
	       (uint64_t)(uintptr_t)(g->mem + RING_OFF(q) + off);
}

/* guest_init() - a guest with nothing open, safe to guest_close() */
void guest_init(struct guest *g)
{
	memset(g, 0, sizeof(*g));
	g->sock = g->memfd = -1;
	g->kick[0] = g->kick[1] = g->call[0] = g->call[1] = -1;
}

/**
 * vu_connect() - connect to a vhost-user socket
 * @sa:		its address
 *
 * Return: the connected fd, or -errno
 */
int vu_connect(const struct sockaddr_un *sa)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), rc;

	if (fd < 0)
		return -errno;
	if (connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0)
		return fd;
	rc = -errno;
	close(fd);
	return rc;
}

/**
 * guest_memory() - a guest without a connection yet: its memory and its
 *		    kick and call eventfds
 * @g:		filled
 *
 * Return: 0 or -errno
 */
static int guest_memory(struct guest *g)
{
	int q;

	guest_init(g);
	g->memfd = memfd_create("vu-guest", MFD_CLOEXEC);
	if (g->memfd < 0 || ftruncate(g->memfd, MEM_SIZE) < 0)
		return -errno;
	g->mem = mmap(NULL, MEM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		      g->memfd, 0);
	if (g->mem == MAP_FAILED)
		return -errno;
	for (q = 0; q < 2; q++) {
		g->kick[q] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		g->call[q] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	}
	return 0;
}

/**
 * guest_open_for() - connect to a socket and create the guest's memory,
 *		      retrying while the socket is not (or not yet) ours
 * @g:		filled
 * @path:	vhost-user socket
 *
 * xcable's guard answers a socket in use with a decoy that closes at once,
 * and a socket may be briefly away while xcable restores it: a closed
 * connection before the first reply is retried for up to 10 s.
 *
 * @ms:		how long to keep trying (0: once)
 *
 * Return: 0 with GET_FEATURES answered (in g->features), or -errno
 */
int guest_open_for(struct guest *g, const char *path,
		   unsigned int ms)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	uint64_t end = now_ms() + ms;
	int rc;

	rc = guest_memory(g);
	if (rc)
		return rc;
	rc = -ENOENT;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	do {
		g->sock = vu_connect(&sa);
		if (g->sock >= 0) {
			rc = vu_u64(g, VU_GET_FEATURES, 0, false, true,
				    &g->features);
			if (rc == 0)
				return 0;
			close(g->sock);
		} else {
			rc = g->sock;
		}
		g->sock = -1;
		if (ms)
			msleep(20);
	} while (now_ms() < end);
	return rc;
}

int guest_open(struct guest *g, const char *path)
{
	return guest_open_for(g, path, 10000);
}

/**
 * guest_listen() - listen on a socket, as QEMU does with server=on, until
 *		    xcable connects (an end with client mode), then create
 *		    the guest's memory as guest_open_for() does
 * @g:		filled
 * @path:	vhost-user socket to create (a leftover is removed)
 * @ms:		how long to wait for xcable
 *
 * Return: 0 with GET_FEATURES answered, or -errno
 */
int guest_listen(struct guest *g, const char *path, unsigned int ms)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct pollfd pfd;
	int lfd, rc;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	unlink(path);
	lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0)
		return -errno;
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(lfd, 1) < 0) {
		rc = -errno;
		close(lfd);
		return rc;
	}
	pfd = (struct pollfd){ .fd = lfd, .events = POLLIN };
	rc = poll(&pfd, 1, (int)ms);
	if (rc <= 0) {
		close(lfd);
		unlink(path);
		return rc ? -errno : -ETIMEDOUT;
	}
	rc = guest_memory(g);
	if (rc == 0)
		g->sock = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (rc == 0 && g->sock < 0)
		rc = -errno;
	close(lfd);
	unlink(path);
	return rc ? rc : vu_u64(g, VU_GET_FEATURES, 0, false, true,
				&g->features);
}

/* guest_close() - drop the connection and free everything */
void guest_close(struct guest *g)
{
	int q;

	if (g->sock >= 0)
		close(g->sock);
	g->sock = -1;
	if (g->mem && g->mem != MAP_FAILED)
		munmap(g->mem, MEM_SIZE);
	g->mem = NULL;
	if (g->memfd >= 0)
		close(g->memfd);
	g->memfd = -1;
	for (q = 0; q < 2; q++) {
		if (g->kick[q] >= 0)
			close(g->kick[q]);
		if (g->call[q] >= 0)
			close(g->call[q]);
		g->kick[q] = g->call[q] = -1;
	}
}

/**
 * guest_setup() - the handshake QEMU does, after guest_open()
 * @g:		guest
 * @s:		features and choices
 * @stop_after:	send only this many messages (a half-done handshake),
 *		0 for all
 *
 * Vring 0 is the guest's receive queue, vring 1 its transmit queue.
 *
 * Return: 0, or -errno
 */
int guest_setup(struct guest *g, const struct setup *s,
		unsigned int stop_after)
{
	unsigned int sent = 0, q, i;
	uint64_t pf = 0;
	int rc;

#define STEP(call)							\
	do {								\
		if (stop_after && sent++ >= stop_after)			\
			return 0;					\
		if ((rc = (call)) != 0)					\
			return rc;					\
	} while (0)
	g->features &= s->want | (s->iommu ? 1ull << F_IOMMU_PLATFORM : 0);
	if (s->iommu && !(g->features & 1ull << F_IOMMU_PLATFORM))
		return -ENOTSUP;
	STEP(vu_u64(g, VU_SET_OWNER, 0, false, false, NULL));
	if (g->features & 1ull << F_PROTOCOL) {
		STEP(vu_u64(g, VU_GET_PROTOCOL_FEATURES, 0, false, true, &pf));
		STEP(vu_u64(g, VU_SET_PROTOCOL_FEATURES, pf & s->proto, true,
			    false, NULL));
	}
	STEP(vu_u64(g, VU_SET_FEATURES, g->features, true, false, NULL));
	STEP(vu_mem(g, GPA_BASE, s->table_size ? s->table_size : MEM_SIZE,
		    (uint64_t)(uintptr_t)g->mem, 0));
	/* DPDK 22.11 keeps an IOTLB cache per vring and puts an update only
	 * into the vrings that exist: create both first */
	if (s->iommu) {
		for (q = 0; q < 2; q++)
			STEP(vu_state(g, VU_SET_VRING_NUM, q, QSIZE));
		STEP(vu_iotlb(g, IOTLB_UPDATE, GPA_BASE, MEM_SIZE,
			      (uint64_t)(uintptr_t)g->mem, IOTLB_RW));
	}
	for (q = 0; q < 2; q++) {
		avail(g, q)[0] = AVAIL_NO_INTERRUPT;
		if (q == 0 && s->rx_posted) {
			for (i = 0; i < QSIZE; i++) {
				desc(g, 0)[i] = (struct vdesc){
					gpa(buf_off(0, i)), BUF_SIZE, D_WRITE, 0 };
				avail(g, 0)[2 + i] = (uint16_t)i;
			}
			g->avail_idx[0] = QSIZE;
			__atomic_store_n(&avail(g, 0)[1], (uint16_t)QSIZE,
					 __ATOMIC_RELEASE);
		}
		STEP(vu_state(g, VU_SET_VRING_NUM, q, QSIZE));
		STEP(vu_state(g, VU_SET_VRING_BASE, q, 0));
		STEP(vu_addr(g, q, ring_addr(g, s, q, 0),
			     ring_addr(g, s, q, AVAIL_OFF),
			     ring_addr(g, s, q, USED_OFF)));
		STEP(vu_file(g, VU_SET_VRING_KICK, q, g->kick[q]));
		STEP(vu_file(g, VU_SET_VRING_CALL, q, g->call[q]));
	}
	if (g->features & 1ull << F_PROTOCOL)
		for (q = 0; q < 2; q++)
			STEP(vu_state(g, VU_SET_VRING_ENABLE, q, 1));
#undef STEP
	return 0;
}

/* kick() - tell xcable that vring @q has work */
void kick(struct guest *g, unsigned int q)
{
	uint64_t one = 1;

	if (write(g->kick[q], &one, sizeof(one)) < 0)
		return;
}

/**
 * publish() - make descriptor @head available on vring @q and kick
 * @g:		guest
 * @q:		vring
 * @head:	first descriptor of the chain
 */
void publish(struct guest *g, unsigned int q, uint16_t head)
{
	avail(g, q)[2 + g->avail_idx[q] % QSIZE] = head;
	g->avail_idx[q]++;
	__atomic_store_n(&avail(g, q)[1], g->avail_idx[q], __ATOMIC_RELEASE);
	kick(g, q);
}

/* in_flight() - chains published on @q and not yet used */
uint16_t in_flight(struct guest *g, unsigned int q)
{
	return (uint16_t)(g->avail_idx[q] -
			  __atomic_load_n(used_idx(g, q), __ATOMIC_ACQUIRE));
}

/**
 * send_frame() - transmit one frame, header and frame in one descriptor
 *		  (descriptor i of vring 1 and buffer i, i = avail index)
 * @g:		guest
 * @h:		virtio-net header
 * @f:		frame
 * @len:	its length
 *
 * Return: 0, or -EBUSY if the ring stayed full for 2 s
 */
int send_frame(struct guest *g, const struct vnet_hdr *h,
	       const uint8_t *f, uint32_t len)
{
	uint64_t end = now_ms() + 2000;
	uint16_t i;

	while (in_flight(g, 1) >= QSIZE) {
		if (now_ms() > end)
			return -EBUSY;
		kick(g, 1);
		msleep(1);
	}
	i = g->avail_idx[1] % QSIZE;
	memcpy(g->mem + buf_off(1, i), h, HDR_LEN);
	memcpy(g->mem + buf_off(1, i) + HDR_LEN, f, len);
	desc(g, 1)[i] = (struct vdesc){ gpa(buf_off(1, i)), HDR_LEN + len, 0, 0 };
	publish(g, 1, i);
	return 0;
}

/**
 * recv_frame() - take one received frame from vring 0 and give its buffer
 *		  back
 * @g:		guest
 * @f:		frame copied here (without the virtio-net header)
 * @cap:	room in @f
 *
 * Return: frame length, 0 if nothing came, -EPROTO for an entry that is
 *	   not one of our buffers
 */
int recv_frame(struct guest *g, uint8_t *f, uint32_t cap)
{
	struct vused_elem e;
	uint32_t len;

	if (__atomic_load_n(used_idx(g, 0), __ATOMIC_ACQUIRE) ==
	    g->used_seen[0])
		return 0;
	e = used_ring(g, 0)[g->used_seen[0]++ % QSIZE];
	if (e.id >= QSIZE || e.len < HDR_LEN || e.len > BUF_SIZE)
		return -EPROTO;
	len = e.len - (uint32_t)HDR_LEN;
	memcpy(f, g->mem + buf_off(0, e.id) + HDR_LEN, len < cap ? len : cap);
	desc(g, 0)[e.id] = (struct vdesc){ gpa(buf_off(0, e.id)), BUF_SIZE,
					   D_WRITE, 0 };
	publish(g, 0, (uint16_t)e.id);
	return (int)len;
}
