/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vu.h - a vhost-user frontend without DPDK, for tests: the protocol's
 *	  messages, guest memory in a small memfd, a split ring per vring
 *
 * Shared by tests/vhostile (hostile guests) and tests/xcfront (hundreds
 * of well-behaved guests). A guest has one queue pair: vring 0 is its
 * receive queue, vring 1 its transmit queue; its memory is laid out as
 * below (offsets into the memfd), and callers that build chains of their
 * own write into it through the accessors.
 */
#ifndef XC_TESTS_VU_H
#define XC_TESTS_VU_H

#include <stdbool.h>
#include <stdint.h>

/* vhost-user requests (docs/interop/vhost-user.rst in QEMU) */
enum {
	VU_GET_FEATURES = 1, VU_SET_FEATURES = 2, VU_SET_OWNER = 3,
	VU_SET_MEM_TABLE = 5, VU_SET_LOG_BASE = 6, VU_SET_VRING_NUM = 8,
	VU_SET_VRING_ADDR = 9, VU_SET_VRING_BASE = 10, VU_GET_VRING_BASE = 11,
	VU_SET_VRING_KICK = 12, VU_SET_VRING_CALL = 13,
	VU_GET_PROTOCOL_FEATURES = 15, VU_SET_PROTOCOL_FEATURES = 16,
	VU_SET_VRING_ENABLE = 18, VU_IOTLB_MSG = 22,
};
/* IOTLB message types and permissions (struct vhost_iotlb_msg) */
enum { IOTLB_MISS = 1, IOTLB_UPDATE = 2, IOTLB_INVALIDATE = 3 };
#define IOTLB_RW		3
#define VU_VERSION		0x1
#define VU_REPLY		0x4
#define VU_NOFD			(1u << 8)	/* vring file: no fd */
#define VU_MAX_REGIONS		8
#define VU_PROTO_LOG_SHMFD	1

/* virtio feature bits */
#define F_CSUM			0
#define F_HOST_TSO4		11
#define F_HOST_TSO6		12
#define F_INDIRECT		28
#define F_PROTOCOL		30
#define F_VERSION_1		32
#define F_IOMMU_PLATFORM	33

/* split virtqueue */
#define D_NEXT			1
#define D_WRITE			2
#define D_INDIRECT		4
#define AVAIL_NO_INTERRUPT	1

struct vdesc { uint64_t addr; uint32_t len; uint16_t flags; uint16_t next; };
struct vused_elem { uint32_t id; uint32_t len; };

/* virtio-net header with VIRTIO_F_VERSION_1: 12 bytes */
struct vnet_hdr {
	uint8_t flags;		/* 1: NEEDS_CSUM */
	uint8_t gso_type;	/* 1 TCPV4, 3 UDP, 4 TCPV6, 0x80 ECN */
	uint16_t hdr_len;
	uint16_t gso_size;
	uint16_t csum_start;
	uint16_t csum_offset;
	uint16_t num_buffers;
} __attribute__((packed));
#define HDR_LEN			sizeof(struct vnet_hdr)

struct vu_region { uint64_t gpa, size, uva, offset; };

struct vu_msg {
	uint32_t req;
	uint32_t flags;
	uint32_t size;
	union {
		uint64_t u64;
		struct { uint32_t index, num; } state;
		struct {
			uint32_t index, flags;
			uint64_t desc, used, avail, log;
		} addr;
		struct {
			uint32_t n, pad;
			struct vu_region r[VU_MAX_REGIONS];
		} mem;
		struct { uint64_t size, offset; } log;
		struct {
			uint64_t iova, size, uaddr;
			uint8_t perm, type, pad[6];
		} iotlb;
		uint8_t raw[512];
	};
} __attribute__((packed));
#define MSG_HDR			12

/* guest memory layout: offsets into the memfd */
#define MEM_SIZE		(4u << 20)
#define GPA_BASE		0x40000000ull	/* nothing lives below it */
#define QSIZE			256u
#define RING_OFF(q)		((q) * 0x4000u)	/* desc, then avail, used */
#define AVAIL_OFF		0x1000u
#define USED_OFF		0x2000u
#define INDIR_OFF		0x10000u	/* indirect tables: 64 KB */
#define BUF_OFF			0x20000u	/* buffers, BUF_SIZE each */
#define BUF_SIZE		2048u

/**
 * struct guest - one frontend: its connection, memory and two vrings
 * @sock:	unix socket to xcable, -1 when closed
 * @memfd:	guest memory
 * @mem:	guest memory as mapped here (its "userspace address")
 * @kick:	eventfds we write to tell xcable a vring has work
 * @call:	eventfds xcable writes (we poll the rings instead)
 * @features:	virtio features negotiated
 * @avail_idx:	next avail index we publish, per vring
 * @used_seen:	used entries consumed, per vring
 */
struct guest {
	int sock;
	int memfd;
	uint8_t *mem;
	int kick[2];
	int call[2];
	uint64_t features;
	uint16_t avail_idx[2];
	uint16_t used_seen[2];
};

/* what a case may change in the handshake */
struct setup {
	uint64_t want;		/* features asked for */
	uint64_t proto;		/* protocol features asked for */
	bool rx_posted;		/* post RX buffers */
	uint64_t table_size;	/* memory table's region size, 0: MEM_SIZE */
	bool iommu;		/* behind a vIOMMU: ring and buffer addresses
				 * are I/O virtual addresses (the guest
				 * physical ones), all mapped by one IOTLB
				 * update */
};

extern const struct setup SETUP_DEFAULT;

/* guest memory accessors */
static inline struct vdesc *desc(struct guest *g, unsigned int q)
{
	return (struct vdesc *)(g->mem + RING_OFF(q));
}

static inline uint16_t *avail(struct guest *g, unsigned int q)
{
	return (uint16_t *)(g->mem + RING_OFF(q) + AVAIL_OFF);
}

/* the used ring's flags: bit 0 (VRING_USED_F_NO_NOTIFY) while the device
 * polls and needs no kick */
static inline volatile uint16_t *used_flags(struct guest *g, unsigned int q)
{
	return (volatile uint16_t *)(g->mem + RING_OFF(q) + USED_OFF);
}

static inline volatile uint16_t *used_idx(struct guest *g, unsigned int q)
{
	return (volatile uint16_t *)(g->mem + RING_OFF(q) + USED_OFF + 2);
}

static inline struct vused_elem *used_ring(struct guest *g, unsigned int q)
{
	return (struct vused_elem *)(g->mem + RING_OFF(q) + USED_OFF + 4);
}

static inline uint64_t gpa(uint64_t off) { return GPA_BASE + off; }
static inline uint64_t buf_off(unsigned int q, unsigned int i)
{
	return BUF_OFF + ((uint64_t)q * QSIZE + i) * BUF_SIZE;
}

struct sockaddr_un;

/* time */
void msleep(unsigned int ms);
uint64_t now_ms(void);

/* messages (vu_send() fills in the version) */
int vu_send(struct guest *g, struct vu_msg *m, const int *fds, int nfds);
int vu_recv(struct guest *g, struct vu_msg *m);
int vu_u64(struct guest *g, uint32_t req, uint64_t v, bool has, bool get,
	   uint64_t *reply);
int vu_state(struct guest *g, uint32_t req, uint32_t index, uint32_t num);
int vu_file(struct guest *g, uint32_t req, uint64_t v, int fd);
int vu_addr(struct guest *g, uint32_t index, uint64_t d, uint64_t a,
	    uint64_t u);
int vu_mem(struct guest *g, uint64_t g_pa, uint64_t size, uint64_t uva,
	   uint64_t offset);
int vu_iotlb(struct guest *g, uint8_t type, uint64_t iova, uint64_t size,
	     uint64_t uaddr, uint8_t perm);

/* a guest: open (connect, GET_FEATURES), set up (the rest of the
 * handshake), close */
void guest_init(struct guest *g);
int vu_connect(const struct sockaddr_un *sa);
int guest_open_for(struct guest *g, const char *path, unsigned int ms);
int guest_open(struct guest *g, const char *path);
int guest_listen(struct guest *g, const char *path, unsigned int ms);
void guest_close(struct guest *g);
int guest_setup(struct guest *g, const struct setup *s,
		unsigned int stop_after);

/* frames, one descriptor each */
void kick(struct guest *g, unsigned int q);
void publish(struct guest *g, unsigned int q, uint16_t head);
uint16_t in_flight(struct guest *g, unsigned int q);
int send_frame(struct guest *g, const struct vnet_hdr *h, const uint8_t *f,
	       uint32_t len);
int recv_frame(struct guest *g, uint8_t *f, uint32_t cap);

#endif /* XC_TESTS_VU_H */
