/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * port_vhost.c - the vhost port kind: a guest's virtio-net NIC behind a
 *		  vhost-user socket, served (server) or connected to (client)
 *
 * Theory of operation: the vhost PMD turns the vhost-user protocol into an
 * ethdev with link events (a guest came or went) and queue events (a
 * vring was enabled or disabled). A server socket is bound in
 * rte_eth_dev_configure(), under the umask port.c sets, then given the
 * mode, owner and group the user asked for; while a frontend is attached
 * the guard (guard.c) keeps a second one off it.
 *
 * The socket is recorded (device, inode) right after it was bound. When
 * the port closes, the vhost library unlinks the socket path, whatever is
 * there (rte_vhost_driver_unregister() in DPDK 22.11's lib/vhost/socket.c:
 * close() and unlink() for a server socket, from rte_eth_dev_close()).
 * So a file at that path that is not the recorded socket (somebody
 * removed ours and put theirs there) is moved aside under a hidden name
 * in the same directory just before the port closes, and put back right
 * after: it survives, and the log names it.
 *
 * A guest that moves to another QEMU (a live migration) gets a standby
 * port of this kind for its next frontend (struct xc_port_move, below;
 * control/migrate.c runs the move): on one host and one path, the
 * standby is bound at .NAME.migrate (.NAME.migrate2 when the guest's own
 * socket is known by the first name: it took over from a standby there,
 * and a failed port of the same name would close it) and lent the
 * public path while the
 * migration's slot is open (guard.c), and once it took over it serves
 * the public path, though the library knows it by its first name (@bound:
 * the socket is renamed back there before the port closes, so that the
 * library removes it). While logging is on (VHOST_F_LOG_ALL: QEMU tracks
 * the guest memory that changes, to copy it again), every write to guest
 * memory goes in the log: the vhost library logs what it copies and the
 * used rings it updates, not the notification flags it sets for us
 * (rte_vhost_enable_guest_notification()): we log those ourselves.
 *
 * Frames for the guest go straight to the vhost library (vhost_tx()), not
 * through the PMD's send, which frees each one alone; xc_port_tx() takes
 * the PMD's way while the ethdev has send callbacks (dpdk-dumpcap's).
 *
 * The vhost library frees a guest's vrings as soon as the PMD's destroy
 * callback returns, and that callback is our link-down event. So every
 * call into the vhost library about a guest (negotiated features, kick
 * fds, notifications) is made between vhost_enter() and vhost_exit(), and
 * the link-down path (quiesce()) waits until no thread is between them;
 * threads entering later see the link down and stay out.
 *
 * A guest behind a vIOMMU that flushes lazily (Linux's default) drops
 * all its translations at once, and QEMU 7.2 passes that on as
 * invalidations of whole ranges, one of which runs to the end of the
 * 64-bit space (iova 0xfef00000, size 2^64 - 0xfef00000: above the
 * interrupt window). DPDK 22.11's vhost library computes that range's end
 * as iova + size, which wraps to 0, and then removes nothing
 * (vhost_user_iotlb_cache_remove() stops at the first entry above the
 * "end"): it keeps translations to pages the guest has given back, and
 * frames written there never reach the guest (found by logging the
 * messages of such a guest). A message pre-handler, registered for each
 * guest as its link comes up, shortens such a range by one byte so that
 * its end does not wrap (iotlb_pre()). (An invalidation of size 0 is
 * left as it is: the library ignores it, and QEMU sends none.)
 * Such an invalidation also covers the guest's rings: the library drops
 * their translations and, at the end of the same message, reports the
 * rings not ready, which the vhost PMD passes on as queues disabled; it
 * translates them again only when a burst asks for them. But the vhost
 * PMD passes no burst on to a queue it saw disabled, so nothing would ask,
 * and the guest would receive and send nothing again. So a disable that
 * comes while an invalidation is handled (iotlb_post() marks it, the next
 * message's iotlb_pre() clears the mark) leaves the queue in use, and the
 * ring is asked for at once with a burst of no frames, straight to the
 * vhost library (retranslate()): it sends the IOTLB misses, QEMU's
 * answers make the ring ready again, the PMD enables the queue, and
 * frames held for it meanwhile go on. That burst may do nothing: a
 * dequeue only tries the ring's lock (rte_vhost_dequeue_burst() returns
 * 0 at once when another thread holds it, as an lcore does for a moment
 * each time it turns the guest's kicks on or off), and then no miss is
 * sent and nothing would ever ask again: the guest's Tx ring stayed
 * untranslated and that direction stalled for good (seen about once in a
 * few thousand invalidations, with two lazily flushing guests). So every
 * ring kept in use is asked again from an EAL alarm, every millisecond
 * at first and then every 100 ms, until the PMD reports its queue
 * enabled (retranslate_again(); @awaiting).
 *
 * Such a guest's ring also stalls on an IOTLB miss: the vhost library
 * asks QEMU for the translation and takes nothing more from the ring
 * until the answer (an IOTLB update) has come, and the answer comes
 * without a kick. A message post-handler wakes the lcores when an update
 * has been applied (iotlb_post()), so that an adaptive lcore sleeps on
 * such a guest as on any other, neither polling nor waking every
 * millisecond, and takes the ring up again as soon as it can move. A
 * guest that moves frames misses all the time (a strict one at every
 * frame it maps), so each IOTLB message also asks the lcores to poll for
 * XC_IOTLB_BUSY_US more (struct xc_port's @busy_until) rather than sleep
 * and be woken per miss, and only the first message after a quiet spell
 * wakes them (every lcore: a wake-up per message would cost the lcores
 * of other, idle guests dearly). An idle guest sends no IOTLB messages
 * and costs nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/vhost_types.h>

#include <rte_alarm.h>
#include <rte_cycles.h>
#include <rte_eth_vhost.h>
#include <rte_ethdev.h>
#include <rte_kvargs.h>
#include <rte_pause.h>
#include <rte_vhost.h>

#include "fault.h"
#include "guard.h"
#include "log.h"
#include "logrl.h"
#include "port.h"
#include "sockconn.h"
#include "sockpath.h"
#include "sockrec.h"
#include "vhost_wake.h"

/* virtio-net offload features, withheld from guests by --no-offloads:
 * CSUM, GUEST_CSUM, GUEST_TSO4/6, GUEST_ECN, GUEST_UFO, HOST_TSO4/6,
 * HOST_ECN, HOST_UFO */
#define XC_VIRTIO_OFFLOADS	(0x3ULL | (0xffULL << 7))
/* the guest sits behind a vIOMMU: its addresses go through the IOTLB */
#define XC_VIRTIO_F_IOMMU_PLATFORM	33
/* the packed ring layout (virtio 1.1) */
#define XC_VIRTIO_F_RING_PACKED	34
/* the vhost-user request that carries an IOTLB message */
#define XC_VHOST_USER_IOTLB_MSG	22
/* the most a dequeue of the vhost library gives (its MAX_PKT_BURST), and a
 * RARP frame it may put in front after a migration */
#define XC_VHOST_DEQ_MAX	(32 + 1)
/* after an IOTLB message of a guest, its lcores poll this long rather
 * than sleep: more misses are due while it moves frames (fwd.c). With
 * 1 ms, TCP between two strict TCG guests still left gaps long enough
 * for about 12000 sleeps a run, and stayed at 0.6x of --poll; with 10 ms
 * a few hundred, at --poll's throughput */
#define XC_IOTLB_BUSY_US	10000
/* the most an enqueue of the vhost library takes (its MAX_PKT_BURST) */
#define XC_VHOST_ENQ_MAX	32

/**
 * struct xc_vu_iotlb - a vhost-user IOTLB message as a message pre-handler
 *			receives it: the header, then the payload
 * @request:	vhost-user request
 * @flags:	version and reply flags
 * @size:	payload size
 * @iotlb:	the payload
 */
struct xc_vu_iotlb {
	uint32_t request;
	uint32_t flags;
	uint32_t size;
	struct vhost_iotlb_msg iotlb;
} __attribute__((packed));

/**
 * struct xc_iotlb_follow - what the IOTLB message handlers know of a vhost
 *			    device id (they are given nothing but the id)
 * @p:		the port whose guest has the id, while its link is up and
 *		it sits behind a vIOMMU (event thread writes; atomic)
 * @whole:	invalidations to the end of the space made whole, since
 *		its link came up (the vhost library's message thread)
 */
struct xc_iotlb_follow {
	struct xc_port *p;
	uint64_t whole;
};

/* xc_vhost's @invalidating, through the table (message thread) */
static void set_invalidating(int vid, bool on);
static void retranslate_again(void *arg);

static struct xc_iotlb_follow xc_iotlb_by_vid[RTE_MAX_VHOST_DEVICE];

/* VHOST_F_LOG_ALL: QEMU logs the guest memory that changes (a migration) */
#define XC_VHOST_F_LOG_ALL	26
/* VIRTIO_RING_F_EVENT_IDX: the used ring ends with the avail event */
#define XC_VIRTIO_F_EVENT_IDX	29

/**
 * struct xc_vhost - a vhost port's own state
 * @iface:	socket path: where frontends reach it, and what it binds
 *		when it is plugged again (main thread)
 * @bound:	the path the vhost library knows the socket by, where it
 *		was bound: @iface, but for a standby that took over a
 *		guest's path (main thread)
 * @away:	a standby's socket lent to another port's path: that path,
 *		"" if not lent (main thread)
 * @client:	client mode: QEMU listens, xcable connects
 * @iommu:	IOMMU support offered (iommu-support=1): a guest may sit
 *		behind a vIOMMU
 * @guard:	keeps a second frontend off a server socket in use
 * @busy:	threads between vhost_enter() and vhost_exit() (atomic)
 * @vid:	the vhost device id its IOTLB handlers follow, -1 if none
 *		(event thread)
 * @tx_vid:	the vhost device id vhost_tx() sends to: the guest's as
 *		its link came up, -1 if the PMD knew none (event thread
 *		writes before the link is seen up; lcores read it between
 *		vhost_enter() and vhost_exit())
 * @follows:	the IOTLB handlers follow the guest: its lcores are woken
 *		when an IOTLB miss is answered (event thread writes; atomic)
 * @invalidating: an IOTLB invalidation of the guest is being handled: a
 *		queue it disables stays in use (the message thread writes;
 *		atomic)
 * @retranslated: rings asked for again after an invalidation took their
 *		translations (message thread writes; atomic)
 * @lost:	frames a dequeue made only to translate a ring gave anyway
 *		(a RARP after a migration), dropped (message thread writes;
 *		atomic)
 * @awaiting:	vrings (bit = vring index, below 64) kept in use after an
 *		invalidation and not yet reported enabled again (message
 *		thread sets and clears, the link-down path clears; atomic)
 * @retry_armed: the alarm that asks for @awaiting again is set (message
 *		and alarm threads; atomic)
 * @retry_round: alarm rounds since a ring began to wait with none waiting
 *		before (message thread resets, alarm thread counts; atomic)
 * @retried:	rings asked for again by that alarm (alarm thread writes;
 *		atomic)
 * @skip_first:	XCABLE_FAULT names "LABEL:retranslate": the request made
 *		as a queue is kept in use is not made, as if the ring's
 *		lock were taken, and only the alarm asks (a test of the
 *		alarm; main thread, before the port starts)
 * @sock:	the server socket the port bound (main thread)
 * @aside:	while the port closes, where a file that is not @sock was
 *		moved from @iface; "" if none (main thread)
 */
struct xc_vhost {
	char iface[XC_SOCK_PATH_MAX];
	char bound[XC_SOCK_PATH_MAX];
	char away[XC_SOCK_PATH_MAX];
	bool client;
	bool iommu;
	struct xc_guard guard;
	uint32_t busy;
	int vid;
	int tx_vid;
	bool follows;
	bool invalidating;
	uint64_t retranslated;
	uint64_t lost;
	uint64_t awaiting;
	bool retry_armed;
	unsigned int retry_round;
	uint64_t retried;
	bool skip_first;
	struct xc_sock_id sock;
	char aside[XC_SOCK_PATH_MAX + 32];
};

/* vh() - a vhost port's own state */
static inline struct xc_vhost *vh(const struct xc_port *p)
{
	return p->priv;
}

/**
 * vhost_enter() - start a call into the vhost library about the port's
 *		   guest, if it still has one
 * @p:		vhost port
 *
 * Return: true if the guest may be used; then call vhost_exit()
 */
static bool vhost_enter(struct xc_port *p)
{
	__atomic_add_fetch(&vh(p)->busy, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&p->link_up, __ATOMIC_SEQ_CST))
		return true;
	__atomic_sub_fetch(&vh(p)->busy, 1, __ATOMIC_RELEASE);
	return false;
}

/* vhost_exit() - end what vhost_enter() allowed */
static void vhost_exit(struct xc_port *p)
{
	__atomic_sub_fetch(&vh(p)->busy, 1, __ATOMIC_RELEASE);
}

/* vhost_match() - is the ethdev a vhost PMD port? */
static bool vhost_match(const struct rte_eth_dev_info *info)
{
	return strcmp(info->driver_name, "net_vhost") == 0;
}

/**
 * vhost_init() - take the socket path, mode and queues from the device
 *		  arguments
 * @p:		port
 * @info:	its device info
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, -ENOMEM, or -EINVAL if the arguments carry no usable iface
 */
static int vhost_init(struct xc_port *p, const struct rte_eth_dev_info *info,
		      char *err, size_t errlen)
{
	const struct rte_devargs *da = rte_dev_devargs(info->device);
	struct rte_kvargs *kv = NULL;
	struct xc_vhost *v;
	const char *s;

	v = calloc(1, sizeof(*v));
	if (v == NULL) {
		snprintf(err, errlen, "%s: out of memory", p->name);
		return -ENOMEM;
	}
	p->priv = v;
	pthread_mutex_init(&v->guard.lock, NULL);
	v->guard.decoy = -1;
	v->vid = -1;
	v->tx_vid = -1;
	if (da != NULL && da->args != NULL)
		kv = rte_kvargs_parse(da->args, NULL);
	s = kv ? rte_kvargs_get(kv, "iface") : NULL;
	if (s == NULL || strlen(s) >= sizeof(v->iface)) {
		rte_kvargs_free(kv);
		snprintf(err, errlen, "port %u (%s): no usable iface= socket path",
			 p->id, p->name);
		return -EINVAL;
	}
	strcpy(v->iface, s);
	strcpy(v->bound, s);
	s = rte_kvargs_get(kv, "client");
	v->client = s != NULL && strcmp(s, "0") != 0;
	s = rte_kvargs_get(kv, "iommu-support");
	v->iommu = s != NULL && strcmp(s, "0") != 0;
	s = rte_kvargs_get(kv, "queues");
	if (s != NULL)
		p->conf.n_queues = (uint16_t)RTE_MIN(strtoul(s, NULL, 10),
						     (unsigned long)XC_MAX_QUEUES);
	if (p->conf.n_queues == 0)
		p->conf.n_queues = 1;
	rte_kvargs_free(kv);
	return 0;
}

/**
 * vhost_prepare() - before configure: the socket path must be usable (a
 *		     stale socket is removed); the guard of a server socket
 *		     is set up
 * @p:		port
 * @again:	plugged in again (else the path is checked only if it was
 *		not before the EAL started)
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or what xc_sock_prepare() returns
 */
static int vhost_prepare(struct xc_port *p, bool again, char *err,
			 size_t errlen)
{
	struct xc_vhost *v = vh(p);
	char why[XC_ERR_LEN];
	int rc;

	if ((again || !p->conf.sock_checked) &&
	    (rc = xc_sock_prepare(v->iface, v->client, why, sizeof(why)))) {
		snprintf(err, errlen, "%s%s", again ? "cannot plug: " : "", why);
		return rc;
	}
	strcpy(v->bound, v->iface);	/* what configure binds */
	if (v->iommu)
		v->skip_first = xc_fault("retranslate", p->label, why,
					 sizeof(why));
	if (v->client)
		return 0;
	/* without its hidden name the guard would be off: refused (the
	 * simple and config modes refuse such a path before the EAL) */
	if (xc_guard_init(&v->guard, v->iface, p->conf.sock_mode,
			  p->conf.sock_uid, p->conf.sock_gid, p->wake_set,
			  p->label)) {
		xc_sock_path_fits(v->iface, false, why, sizeof(why));
		snprintf(err, errlen, "%s: %s", p->label, why);
		return -ENAMETOOLONG;
	}
	/* a standby is guarded once its frontend came (vhost_move_shut()) */
	v->guard.enabled = !p->conf.standby;
	return 0;
}

/**
 * vhost_secure() - after configure: give a server socket its mode, owner
 *		    and group; withhold offloads if asked, and the packed
 *		    ring where IOMMU support is offered; then have the
 *		    library take the socket's first guest at once
 * @p:		port, configured
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 or -errno
 */
static int vhost_secure(struct xc_port *p, char *err, size_t errlen)
{
	struct xc_vhost *v = vh(p);
	int rc;

	if (!v->client) {
		/* bound in configure, just now: what is there is ours */
		if (xc_sock_id_take(v->iface, &v->sock))
			XC_LOG(port, WARNING,
			       "%s: %s is not a socket right after it was bound: it will be left alone",
			       p->label, v->iface);
		xc_guard_own(&v->guard, &v->sock);
	}
	if (!v->client && (rc = xc_sock_secure(v->iface, p->conf.sock_mode,
					       p->conf.sock_uid,
					       p->conf.sock_gid, err, errlen)))
		return rc;
	if (!p->conf.offloads &&
	    (rc = rte_vhost_driver_disable_features(v->iface,
						    XC_VIRTIO_OFFLOADS))) {
		snprintf(err, errlen, "%s: cannot withhold offloads from %s",
			 p->label, v->iface);
		return rc < 0 ? rc : -EIO;
	}
	/* DPDK 22.11's vhost library takes nothing from a packed ring whose
	 * addresses go through the IOTLB (found by trying with QEMU 7.2:
	 * the guest's frames never arrive, it receives ours): such a guest
	 * gets the split ring, which works */
	if (v->iommu &&
	    (rc = rte_vhost_driver_disable_features(v->iface,
				1ULL << XC_VIRTIO_F_RING_PACKED))) {
		snprintf(err, errlen, "%s: cannot withhold the packed ring "
			 "from %s", p->label, v->iface);
		return rc < 0 ? rc : -EIO;
	}
	/* the library polls the new socket only once its event thread is
	 * woken (vhost_wake.c): a guest connecting now is answered now */
	if (!v->client && (rc = xc_vhost_wake()) && rc != -ESRCH)
		XC_LOG(port, DEBUG, "%s: cannot wake the vhost thread: %s",
		       p->label, strerror(-rc));
	return 0;
}

/**
 * vhost_caps() - what the guest's receiver takes, from the features it
 *		  negotiated and the MTU it was given
 * @p:		port, its link coming up (event thread)
 *
 * Return: packed capabilities, 0 if unknown
 */
static uint64_t vhost_caps(struct xc_port *p)
{
	uint64_t features = 0;
	uint16_t mtu = 0;
	int vid = rte_eth_vhost_get_vid_from_port_id(p->id);

	/* for vhost_tx(), before the link is seen up: never a gone guest's
	 * (a vid the library may have given another port since) */
	__atomic_store_n(&vh(p)->tx_vid, vid, __ATOMIC_RELEASE);
	if (vid < 0 || rte_vhost_get_negotiated_features(vid, &features))
		return 0;
	if (rte_vhost_get_mtu(vid, &mtu))
		mtu = 0;
	return xc_caps_from_virtio(features, mtu);
}

/**
 * vhost_tx() - send frames to the guest through the vhost library and free
 *		those it took in one go (forwarding lcore)
 * @p:		port
 * @q:		queue pair
 * @pkts:	frames
 * @n:		how many
 *
 * The vhost PMD's send frees every frame the guest took alone, one call
 * into the pool's driver each; freed here as a burst, they are one. The
 * library takes at most 32 frames a call (MAX_PKT_BURST), so it is called
 * again while it took all it was offered, as the PMD does. The vhost
 * library's own checks still apply (a ring disabled, or being stopped,
 * takes nothing); the PMD's basic counters (rte_eth_stats_get()) do not
 * count these frames, xcable's own do. Not used while dpdk-dumpcap
 * captures the port (xc_port_tx()).
 *
 * Return: frames the guest took (a prefix of @pkts, freed); 0 while it
 *	   is gone
 */
static uint16_t vhost_tx(struct xc_port *p, uint16_t q, struct rte_mbuf **pkts,
			 uint16_t n)
{
	uint16_t sent = 0, took, chunk;
	int vid;

	if (unlikely(!vhost_enter(p)))
		return 0;
	vid = __atomic_load_n(&vh(p)->tx_vid, __ATOMIC_ACQUIRE);
	if (unlikely(vid < 0)) {
		/* the PMD knew no guest as the link came up: its way */
		vhost_exit(p);
		return rte_eth_tx_burst(p->id, q, pkts, n);
	}
	do {
		chunk = RTE_MIN((uint16_t)(n - sent), XC_VHOST_ENQ_MAX);
		/* queue pair q's receive ring is vring 2q (the PMD's) */
		took = rte_vhost_enqueue_burst(vid, (uint16_t)(q * 2),
					       pkts + sent, chunk);
		sent = (uint16_t)(sent + took);
	} while (took == chunk && sent < n);
	vhost_exit(p);
	rte_pktmbuf_free_bulk(pkts, sent);
	return sent;
}

/**
 * iotlb_pre() - vhost-user message pre-handler: an IOTLB invalidation
 *		 whose end wraps past 2^64
 *		 is made one that ends at 2^64 - 1, which the vhost library
 *		 applies (see the theory of operation)
 * @vid:	vhost device id
 * @msg:	the message (header and payload), may be changed
 *
 * Return: RTE_VHOST_MSG_RESULT_NOT_HANDLED: the library handles it
 */
static enum rte_vhost_msg_result iotlb_pre(int vid, void *msg)
{
	struct xc_vu_iotlb *m = msg;
	struct xc_port *p;
	uint64_t iova, size;

	set_invalidating(vid, false);	/* the last message is done */
	if (m->request != XC_VHOST_USER_IOTLB_MSG ||
	    m->size < offsetof(struct vhost_iotlb_msg, type) + 1 ||
	    m->iotlb.type != VHOST_IOTLB_INVALIDATE ||
	    vid < 0 || vid >= RTE_MAX_VHOST_DEVICE)
		return RTE_VHOST_MSG_RESULT_NOT_HANDLED;
	iova = m->iotlb.iova;
	size = m->iotlb.size;
	if (size == 0 || iova + size > iova)
		return RTE_VHOST_MSG_RESULT_NOT_HANDLED;
	m->iotlb.size = UINT64_MAX - iova;
	p = __atomic_load_n(&xc_iotlb_by_vid[vid].p, __ATOMIC_ACQUIRE);
	if (++xc_iotlb_by_vid[vid].whole == 1 && p != NULL)
		XC_LOG_FROM(vh(p)->iface, port, INFO,
			    "%s (%s): the guest invalidates its IOTLB up to the end of the address space (a lazy IOMMU flush): applied in full; lazy flushing is less tested than iommu.strict=1",
			    p->label, vh(p)->iface);
	return RTE_VHOST_MSG_RESULT_NOT_HANDLED;
}

/**
 * set_invalidating() - mark or unmark the port of a vhost device id as
 *			having an IOTLB invalidation handled
 * @vid:	vhost device id
 * @on:		mark
 */
static void set_invalidating(int vid, bool on)
{
	struct xc_port *p;

	if (vid < 0 || vid >= RTE_MAX_VHOST_DEVICE)
		return;
	p = __atomic_load_n(&xc_iotlb_by_vid[vid].p, __ATOMIC_ACQUIRE);
	if (p)
		__atomic_store_n(&vh(p)->invalidating, on, __ATOMIC_RELEASE);
}

/**
 * iotlb_post() - vhost-user message post-handler: an IOTLB update was
 *		  applied, which a ring of the guest may have waited for, or
 *		  an invalidation, which may have taken the rings' own
 *		  translations: the lcores poll for XC_IOTLB_BUSY_US more,
 *		  and are woken if they were not polling already (to take
 *		  the ring up again, or to translate it again); queues an
 *		  invalidation disables stay in use (see the theory of
 *		  operation)
 * @vid:	vhost device id
 * @msg:	the message (header and payload)
 *
 * Return: RTE_VHOST_MSG_RESULT_NOT_HANDLED: nothing more to do
 */
static enum rte_vhost_msg_result iotlb_post(int vid, void *msg)
{
	const struct xc_vu_iotlb *m = msg;
	void (*notify)(void *);
	struct xc_port *p;
	uint64_t until;

	if (m->request != XC_VHOST_USER_IOTLB_MSG ||
	    m->size < offsetof(struct vhost_iotlb_msg, type) + 1 ||
	    (m->iotlb.type != VHOST_IOTLB_UPDATE &&
	     m->iotlb.type != VHOST_IOTLB_INVALIDATE) ||
	    vid < 0 || vid >= RTE_MAX_VHOST_DEVICE)
		return RTE_VHOST_MSG_RESULT_NOT_HANDLED;
	p = __atomic_load_n(&xc_iotlb_by_vid[vid].p, __ATOMIC_ACQUIRE);
	if (p == NULL)
		return RTE_VHOST_MSG_RESULT_NOT_HANDLED;
	if (m->iotlb.type == VHOST_IOTLB_INVALIDATE)
		__atomic_store_n(&vh(p)->invalidating, true, __ATOMIC_RELEASE);
	until = __atomic_exchange_n(&p->busy_until, rte_rdtsc() +
				    rte_get_tsc_hz() / 1000000 *
				    XC_IOTLB_BUSY_US, __ATOMIC_SEQ_CST);
	/* within the window its lcores poll: no wake-up (of every lcore)
	 * per message. The clock is read after the exchange, and an lcore
	 * reads its clock before the window (fwd.c), so one that saw the
	 * window over before sleeping is woken here */
	if (until > rte_rdtsc_precise())
		return RTE_VHOST_MSG_RESULT_NOT_HANDLED;
	notify = __atomic_load_n(&p->notify, __ATOMIC_ACQUIRE);
	if (notify)
		notify(p->notify_arg);
	return RTE_VHOST_MSG_RESULT_NOT_HANDLED;
}

/**
 * iotlb_follow() - a guest behind a vIOMMU whose link comes up gets the
 *		    IOTLB message handlers; one whose link goes down loses
 *		    them
 * @p:		vhost port (event thread)
 * @up:		its link came up
 */
static void iotlb_follow(struct xc_port *p, bool up)
{
	static const struct rte_vhost_user_extern_ops ops = {
		.pre_msg_handle = iotlb_pre,
		.post_msg_handle = iotlb_post,
	};
	struct xc_vhost *v = vh(p);
	uint64_t features = 0;
	int vid;

	__atomic_store_n(&v->follows, false, __ATOMIC_RELAXED);
	__atomic_store_n(&v->invalidating, false, __ATOMIC_RELAXED);
	/* a ring of a guest that came or went waits for nothing more; the
	 * alarm stops at its next round */
	__atomic_store_n(&v->awaiting, 0, __ATOMIC_RELEASE);
	if (v->vid >= 0)
		__atomic_store_n(&xc_iotlb_by_vid[v->vid].p, NULL,
				 __ATOMIC_RELEASE);
	v->vid = -1;
	vid = rte_eth_vhost_get_vid_from_port_id(p->id);
	if (!up || !v->iommu || vid < 0 || vid >= RTE_MAX_VHOST_DEVICE ||
	    rte_vhost_get_negotiated_features(vid, &features) ||
	    !(features & 1ULL << XC_VIRTIO_F_IOMMU_PLATFORM))
		return;
	xc_iotlb_by_vid[vid].whole = 0;
	if (rte_vhost_extern_callback_register(vid, &ops, NULL)) {
		XC_LOG_FROM(v->iface, port, WARNING,
			    "%s: cannot follow the guest's IOTLB messages: a guest that flushes its IOMMU lazily may receive nothing, and the lcore wakes every millisecond for it",
			    p->label);
		return;
	}
	v->vid = vid;
	__atomic_store_n(&xc_iotlb_by_vid[vid].p, p, __ATOMIC_RELEASE);
	__atomic_store_n(&v->follows, true, __ATOMIC_RELEASE);
}

/**
 * vhost_link_changed() - log a guest's coming and going; the guard hides
 *			  a served socket while a guest is attached
 * @p:		port
 * @up:		new link state
 * @caps:	what the guest takes, if up
 */
static void vhost_link_changed(struct xc_port *p, bool up, uint64_t caps)
{
	struct xc_vhost *v = vh(p);
	char takes[64];

	iotlb_follow(p, up);
	if (up) {
		xc_caps_describe(caps, takes, sizeof(takes));
		XC_LOG_FROM(v->iface, port, INFO,
		       "%s (%s): link up, VM connected; it takes %s, frames up to %u bytes",
		       p->label, v->iface, takes, xc_caps_max_frame(caps));
	} else {
		XC_LOG_FROM(v->iface, port, INFO, "%s (%s): link down, VM gone", p->label,
		       v->iface);
		if (__atomic_load_n(&v->retranslated, __ATOMIC_RELAXED))
			XC_LOG_FROM(v->iface, port, INFO,
				    "%s (%s): rings translated again after IOTLB invalidations: %" PRIu64 ", frames dropped doing so: %" PRIu64 " (since start)",
				    p->label, v->iface,
				    __atomic_load_n(&v->retranslated, __ATOMIC_RELAXED),
				    __atomic_load_n(&v->lost, __ATOMIC_RELAXED));
	}
	if (v->client)
		return;
	if (up)
		xc_guard_attach(&v->guard, p->label);
	else
		xc_guard_detach(&v->guard, p->label);
}

/**
 * vhost_quiesce() - the link is down: wait until no thread is inside a
 *		     vhost library call about the gone guest
 * @p:		port
 */
static void vhost_quiesce(struct xc_port *p)
{
	while (__atomic_load_n(&vh(p)->busy, __ATOMIC_ACQUIRE))
		rte_pause();
}

/* vhost_poll() - turn away second frontends, if the guard has no set
 * (main thread) */
static void vhost_poll(struct xc_port *p)
{
	if (!vh(p)->client)
		xc_guard_poll(&vh(p)->guard, p->label);
}

/**
 * bring_home() - before the port closes: its socket goes back where the
 *		  vhost library knows it, which removes it there (a
 *		  standby's, lent to another port's path or serving a
 *		  guest's path it took over)
 * @p:		vhost server port
 */
static void bring_home(struct xc_port *p)
{
	struct xc_vhost *v = vh(p);
	const char *at = v->away[0] ? v->away : v->iface;
	char why[2 * XC_SOCK_PATH_MAX + 96];
	int rc;

	if (strcmp(at, v->bound) &&
	    xc_sock_own(at, &v->sock, why, sizeof(why)) == 1 &&
	    (rc = xc_sock_rename_new(at, v->bound)))
		XC_LOG(port, WARNING, "%s: cannot take the socket at %s back to %s (%s): it stays there",
		       p->label, at, v->bound, strerror(-rc));
	v->away[0] = '\0';
}

/**
 * vhost_close() - before the port closes: the guard lets the served socket
 *		   go; a file at the socket path that is not the port's
 *		   socket is moved out of the vhost library's way (it
 *		   unlinks the path as the port closes)
 * @p:		port
 */
static void vhost_close(struct xc_port *p)
{
	struct xc_vhost *v = vh(p);
	char why[2 * XC_SOCK_PATH_MAX + 96], suffix[32];
	int rc;

	v->aside[0] = '\0';
	if (v->client)
		return;
	xc_guard_close(&v->guard, p->label);
	bring_home(p);
	if (xc_sock_own(v->bound, &v->sock, why, sizeof(why)) != -EEXIST)
		return;
	snprintf(suffix, sizeof(suffix), ".aside-%d", (int)getpid());
	rc = xc_sock_sibling(v->bound, suffix, v->aside, sizeof(v->aside));
	if (rc == 0)
		rc = xc_sock_rename_new(v->bound, v->aside);
	if (rc) {
		XC_LOG(port, WARNING,
		       "%s: %s, but cannot be kept out of the vhost library's way (%s), which removes it as the port closes",
		       p->label, why, strerror(-rc));
		v->aside[0] = '\0';
		return;
	}
	XC_LOG(port, WARNING, "%s: %s", p->label, why);
}

/**
 * vhost_closed() - after the port closed: its socket is gone; put back
 *		    what vhost_close() moved aside
 * @p:		port
 */
static void vhost_closed(struct xc_port *p)
{
	struct xc_vhost *v = vh(p);
	int rc;

	/* the vhost library removed the port's socket (or, if the path held
	 * another file, it was gone already) */
	if (!v->client)
		xc_sockrec_gone(&v->sock);
	if (!v->aside[0])
		return;
	rc = xc_sock_rename_new(v->aside, v->bound);
	if (rc)
		XC_LOG(port, ERR, "%s: cannot put %s back from %s (%s): it stays there",
		       p->label, v->bound, v->aside, strerror(-rc));
	v->aside[0] = '\0';
}

/* vhost_fini() - free the port's own state */
static void vhost_fini(struct xc_port *p)
{
	if (p->priv == NULL)	/* its creation failed */
		return;
	/* waits for a round that runs in the alarm thread */
	rte_eal_alarm_cancel(retranslate_again, p);
	pthread_mutex_destroy(&vh(p)->guard.lock);
	free(p->priv);
}

/**
 * retranslate() - have the vhost library translate again a vring whose
 *		   translations an IOTLB invalidation took: a burst of no
 *		   frames does it, sending the IOTLB misses (see the theory
 *		   of operation)
 * @p:		vhost port, its guest behind a vIOMMU (the vhost library's
 *		message thread, between messages: no ring lock is held)
 * @vring:	the vring: even, the guest's Rx ring; odd, its Tx ring
 */
static void retranslate(struct xc_port *p, uint16_t vring)
{
	struct rte_mbuf *m[XC_VHOST_DEQ_MAX];
	struct xc_vhost *v = vh(p);
	struct rte_mempool *pool;
	uint16_t n = 0;
	int vid;

	if (!vhost_enter(p))
		return;
	vid = rte_eth_vhost_get_vid_from_port_id(p->id);
	pool = __atomic_load_n(&p->rx_pool, __ATOMIC_ACQUIRE);
	if (vid >= 0 && vring % 2 == 0)
		rte_vhost_enqueue_burst(vid, vring, NULL, 0);
	else if (vid >= 0 && pool != NULL)
		/* takes no frame, but for a pending RARP, which it puts in
		 * front and then asks for up to its burst more */
		n = rte_vhost_dequeue_burst(vid, vring, pool, m, 0);
	vhost_exit(p);
	__atomic_fetch_add(&v->retranslated, 1, __ATOMIC_RELAXED);
	if (n == 0)
		return;
	rte_pktmbuf_free_bulk(m, RTE_MIN(n, XC_VHOST_DEQ_MAX));
	__atomic_fetch_add(&v->lost, n, __ATOMIC_RELAXED);
	XC_LOG_FROM(v->iface, port, WARNING,
		    "%s: %u frames of the guest dropped: they came with a RARP while its ring was translated again",
		    p->label, n);
}

/* the alarm's delay while a ring waits: every millisecond for the first
 * rounds (an IOTLB miss is answered in well under that on a quiet host),
 * then every 100 ms (a guest that keeps a ring disabled costs nothing) */
#define XC_RETRANSLATE_FAST_US		1000
#define XC_RETRANSLATE_FAST_ROUNDS	50
#define XC_RETRANSLATE_SLOW_US		100000

/**
 * arm_retry() - set the alarm that asks for the rings of @awaiting again,
 *		 unless it is set
 * @p:		vhost port
 * @us:		delay
 */
static void arm_retry(struct xc_port *p, uint64_t us)
{
	struct xc_vhost *v = vh(p);
	int rc;

	if (__atomic_exchange_n(&v->retry_armed, true, __ATOMIC_SEQ_CST))
		return;
	rc = rte_eal_alarm_set(us, retranslate_again, p);
	if (rc == 0)
		return;
	__atomic_store_n(&v->retry_armed, false, __ATOMIC_RELEASE);
	XC_LOG_FROM(v->iface, port, WARNING,
		    "%s: cannot set the alarm that asks for a ring again (%s): a ring whose first request was lost stays untranslated until the next invalidation",
		    p->label, rte_strerror(-rc));
}

/**
 * retranslate_again() - EAL alarm: ask again for every ring kept in use
 *			 that the PMD has not reported enabled since (see the
 *			 theory of operation); set again while one waits
 * @arg:	the vhost port (alarm thread)
 */
static void retranslate_again(void *arg)
{
	struct xc_port *p = arg;
	struct xc_vhost *v = vh(p);
	uint64_t bits = __atomic_load_n(&v->awaiting, __ATOMIC_ACQUIRE);
	unsigned int round;
	uint16_t vring;

	for (vring = 0; bits != 0; vring++, bits >>= 1) {
		if (!(bits & 1))
			continue;
		retranslate(p, vring);
		__atomic_fetch_add(&v->retried, 1, __ATOMIC_RELAXED);
	}
	round = __atomic_add_fetch(&v->retry_round, 1, __ATOMIC_RELAXED);
	/* a ring kept in use meanwhile saw the alarm set, and did not set
	 * it: look again once the mark is off (a full barrier between the
	 * two, so that one of us sees the other) */
	(void)__atomic_exchange_n(&v->retry_armed, false, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&v->awaiting, __ATOMIC_SEQ_CST) == 0)
		return;
	arm_retry(p, round < XC_RETRANSLATE_FAST_ROUNDS ?
		  XC_RETRANSLATE_FAST_US : XC_RETRANSLATE_SLOW_US);
}

/**
 * vhost_queue_events() - apply the vhost PMD's pending vring state changes
 * @p:		port (event thread)
 */
static void vhost_queue_events(struct xc_port *p)
{
	struct rte_eth_vhost_queue_event ev;

	while (rte_eth_vhost_get_queue_event(p->id, &ev) == 0) {
		uint64_t *mask = ev.rx ? &p->rxq_on : &p->txq_on;
		uint64_t bit = 1ULL << (ev.queue_id & 63);
		uint16_t vring = (uint16_t)(2 * ev.queue_id + (ev.rx ? 1 : 0));
		struct xc_vhost *v = vh(p);

		if (!ev.enable &&
		    __atomic_load_n(&v->invalidating, __ATOMIC_ACQUIRE)) {
			XC_LOG(port, DEBUG, "%s: %s queue %u kept in use: its rings' translations were invalidated",
			       p->label, ev.rx ? "rx" : "tx", ev.queue_id);
			if (!v->skip_first)
				retranslate(p, vring);
			if (vring >= 64)
				continue;
			if (__atomic_fetch_or(&v->awaiting, 1ULL << vring,
					      __ATOMIC_SEQ_CST) == 0)
				__atomic_store_n(&v->retry_round, 0,
						 __ATOMIC_RELAXED);
			arm_retry(p, XC_RETRANSLATE_FAST_US);
			continue;
		}
		if (ev.enable && vring < 64)
			__atomic_fetch_and(&v->awaiting, ~(1ULL << vring),
					   __ATOMIC_ACQ_REL);
		if (ev.enable)
			__atomic_fetch_or(mask, bit, __ATOMIC_RELEASE);
		else
			__atomic_fetch_and(mask, ~bit, __ATOMIC_RELEASE);
		XC_LOG(port, DEBUG, "%s: %s queue %u %s", p->label,
		       ev.rx ? "rx" : "tx", ev.queue_id,
		       ev.enable ? "enabled" : "disabled");
	}
}

/**
 * vhost_features() - the virtio features the guest negotiated
 * @p:		port
 *
 * Return: the features, 0 if no guest is attached
 */
static uint64_t vhost_features(struct xc_port *p)
{
	uint64_t features = 0;
	int vid;

	if (!vhost_enter(p))
		return 0;
	vid = rte_eth_vhost_get_vid_from_port_id(p->id);
	if (vid < 0 || rte_vhost_get_negotiated_features(vid, &features))
		features = 0;
	vhost_exit(p);
	return features;
}

/**
 * vhost_describe() - socket, mode, negotiated features, refused frontends
 * @p:		port
 * @fn:		called once per fact
 * @arg:	its argument
 */
static void vhost_describe(struct xc_port *p, xc_kv_fn fn, void *arg)
{
	fn(arg, "socket", vh(p)->iface, 0);
	fn(arg, "mode", vh(p)->client ? "client" : "server", 0);
	fn(arg, "virtio_features", NULL, vhost_features(p));
	fn(arg, "refused_frontends", NULL,
	   __atomic_load_n(&vh(p)->guard.refused, __ATOMIC_RELAXED));
	if (!vh(p)->iommu)
		return;
	fn(arg, "iotlb_retranslated", NULL,
	   __atomic_load_n(&vh(p)->retranslated, __ATOMIC_RELAXED));
	fn(arg, "iotlb_retranslate_dropped", NULL,
	   __atomic_load_n(&vh(p)->lost, __ATOMIC_RELAXED));
	fn(arg, "iotlb_retranslate_retries", NULL,
	   __atomic_load_n(&vh(p)->retried, __ATOMIC_RELAXED));
}

/**
 * log_notify() - while QEMU logs the guest memory that changes (a
 *		  migration), log what turning kicks on or off wrote: the
 *		  used ring's flags (a packed ring's event suppression) and,
 *		  with event indexes, the avail event behind the used ring.
 *		  The vhost library logs the rest it writes, not these.
 * @vid:	vhost device
 * @vring:	the vring whose notifications were set
 * @features:	what the guest negotiated (VHOST_F_LOG_ALL while logging)
 */
static void log_notify(int vid, uint16_t vring, uint64_t features)
{
	struct rte_vhost_vring vr;

	if (!(features & 1ULL << XC_VHOST_F_LOG_ALL))
		return;
	rte_vhost_log_used_vring(vid, vring, 0, 4);
	if ((features & 1ULL << XC_VIRTIO_F_EVENT_IDX) &&
	    !(features & 1ULL << XC_VIRTIO_F_RING_PACKED) &&
	    rte_vhost_get_vhost_vring(vid, vring, &vr) == 0)
		rte_vhost_log_used_vring(vid, vring,
					 4 + 8 * (uint64_t)vr.size, 2);
}

/**
 * vhost_kick_fd() - turn a guest's kicks on a queue's vring on or off, and
 *		     give the kick eventfd to sleep on (forwarding lcore)
 * @p:		port
 * @q:		queue pair
 * @room:	the guest's Rx vring (2q: buffers to send to), else its Tx
 *		vring (2q + 1: frames it sent)
 * @on:		turn kicks on (true) or off
 * @fd:		the current kick fd, -1 if none (only set when @on)
 * @gen:	the current vhost device id, -1 if none (only set when @on)
 *
 * A guest behind a vIOMMU (VIRTIO_F_IOMMU_PLATFORM) may leave a ring
 * stalled on an IOTLB miss, and the update that resolves it comes
 * without a kick: iotlb_post() wakes the lcores then. Should the port's
 * IOTLB handlers not follow the guest, it asks for brief sleeps instead,
 * as it does while a ring's own translation is gone (kicks cannot be
 * turned on then; the next burst translates it again).
 *
 * Return: 0 if done, 1 if done and the sleep must be brief, -ENODEV if the
 *	   guest is gone
 */
static int vhost_kick_fd(struct xc_port *p, uint16_t q, bool room, bool on,
			 int *fd, int *gen)
{
	uint16_t vring = (uint16_t)(2 * q + (room ? 0 : 1));
	struct rte_vhost_vring vr;
	uint64_t features = 0;
	int vid, rc = -ENODEV;
	bool iommu;

	if (!vhost_enter(p))
		return -ENODEV;
	vid = rte_eth_vhost_get_vid_from_port_id(p->id);
	if (on) {
		*gen = vid;
		*fd = -1;
		if (vid >= 0 && rte_vhost_get_vhost_vring(vid, vring, &vr) == 0)
			*fd = vr.kickfd;
	}
	if (vid >= 0 && rte_vhost_get_negotiated_features(vid, &features))
		features = 0;
	iommu = features & 1ULL << XC_VIRTIO_F_IOMMU_PLATFORM;
	if (vid >= 0 &&
	    rte_vhost_enable_guest_notification(vid, vring, on) == 0) {
		log_notify(vid, vring, features);
		rc = on && iommu &&
		     !__atomic_load_n(&vh(p)->follows, __ATOMIC_ACQUIRE);
	} else if (vid >= 0 && iommu) {
		rc = 1;	/* its ring awaits translation: no kick can come */
	}
	vhost_exit(p);
	return rc;
}

/**
 * vhost_socket() - port op: the socket the port serves or connects to
 * @p:		port
 *
 * Return: the path
 */
static const char *vhost_socket(const struct xc_port *p)
{
	return vh(p)->iface;
}

/**
 * at_standby_name() - is a standby bound at one of the standby names of a
 *		       guest's socket (one host, one path)?
 * @path:	the guest's socket
 * @bound:	where the standby was bound
 *
 * Return: true if so
 */
static bool at_standby_name(const char *path, const char *bound)
{
	char home[XC_SOCK_PATH_MAX];
	int alt;

	for (alt = 0; alt < 2; alt++)
		if (xc_sock_standby(path, alt, home, sizeof(home)) == 0 &&
		    strcmp(home, bound) == 0)
			return true;
	return false;
}

/**
 * vhost_move_open() - move op: the migration's slot opens. @p's guard
 *		       stays up while its guest's device is stopped; a
 *		       standby bound at @p's standby name (one host, one
 *		       path) is lent @p's path
 * @p:		the guest's port
 * @twin:	the standby, NULL if the guest moves to another host
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -errno (nothing changed)
 */
static int vhost_move_open(struct xc_port *p, struct xc_port *twin,
			   char *err, size_t errlen)
{
	struct xc_vhost *v = vh(p), *t = twin ? vh(twin) : NULL;
	int rc;

	if (!v->client)
		xc_guard_pin(&v->guard, true, true, p->label);
	if (t == NULL || t->client || !at_standby_name(v->iface, t->bound))
		return 0;	/* reached where it was made */
	rc = xc_guard_lend(&v->guard, t->bound, &t->sock, p->label);
	if (rc == 0) {
		snprintf(t->away, sizeof(t->away), "%s", v->iface);
		return 0;
	}
	xc_guard_pin(&v->guard, false, xc_port_is_up(p), p->label);
	snprintf(err, errlen, "%s: %s cannot be lent to the guest's next frontend: %s",
		 p->label, v->iface, rc == -EBUSY ?
		 "it is not guarded (is the guest attached?)" : strerror(-rc));
	return rc;
}

/* vhost_move_frontends() - move op: frontends connected to the standby */
static int vhost_move_frontends(struct xc_port *twin)
{
	struct xc_vhost *t = vh(twin);

	return xc_sock_conns(t->bound, !t->client);
}

/**
 * vhost_move_shut() - move op: the standby's frontend came: a lent path
 *		       turns away any other again (its decoy), a standby on
 *		       a path of its own is guarded from now on
 * @p:		the guest's port
 * @twin:	the standby
 */
static void vhost_move_shut(struct xc_port *p, struct xc_port *twin)
{
	struct xc_vhost *t = vh(twin);

	if (t->client)
		return;
	if (t->away[0]) {
		xc_guard_unlend(&vh(p)->guard, p->label);
		t->away[0] = '\0';
		return;
	}
	xc_guard_arm(&t->guard, twin->label);
}

/**
 * vhost_move_close() - move op: the slot closes: a path still lent comes
 *			back, and @p's guard follows its guest again
 * @p:		the guest's port
 * @twin:	the standby, or NULL
 */
static void vhost_move_close(struct xc_port *p, struct xc_port *twin)
{
	struct xc_vhost *v = vh(p);

	if (twin && vh(twin)->away[0]) {
		xc_guard_unlend(&v->guard, p->label);
		vh(twin)->away[0] = '\0';
	}
	if (!v->client)
		xc_guard_pin(&v->guard, false, xc_port_is_up(p), p->label);
}

/**
 * set_iface() - the device arguments a port is plugged again with, with
 *		 another socket path
 * @p:		vhost port
 * @path:	the path
 */
static void set_iface(struct xc_port *p, const char *path)
{
	char *at = strstr(p->devargs, ",iface="), rest[XC_DEVARGS_LEN];

	if (at == NULL)
		return;
	at += strlen(",iface=");
	snprintf(rest, sizeof(rest), "%s", at + strcspn(at, ","));
	snprintf(at, sizeof(p->devargs) - (size_t)(at - p->devargs), "%s%s",
		 path, rest);
}

/**
 * vhost_move_adopt() - move op: the standby took over from the guest's
 *			port, now freed; on the guest's path (one host, one
 *			path) its socket goes there from its standby name,
 *			and is guarded there as the guest's port's was
 * @twin:	the standby
 * @path:	the guest's socket
 */
static void vhost_move_adopt(struct xc_port *twin, const char *path)
{
	struct xc_vhost *t = vh(twin);
	int rc;

	twin->conf.standby = false;
	if (t->client || strcmp(t->iface, path) == 0)
		return;	/* a path of its own: guarded since its frontend came */
	rc = xc_sock_rename_new(t->bound, path);
	if (rc) {
		XC_LOG(port, ERR, "%s: cannot move the guest's socket from %s to %s (%s): it is served at %s",
		       twin->label, t->bound, path, strerror(-rc), t->bound);
		return;
	}
	snprintf(t->iface, sizeof(t->iface), "%s", path);
	set_iface(twin, path);
	xc_sockrec_bound(path, &t->sock);
	if (xc_guard_move(&t->guard, path) == 0) {
		xc_guard_own(&t->guard, &t->sock);
		if (xc_port_is_up(twin))
			xc_guard_attach(&t->guard, twin->label);
	}
}

/**
 * vhost_move_bound() - move op: the name the vhost library knows the
 *			port's socket by (where it was bound; a standby
 *			that took over a guest's path keeps it)
 * @p:		vhost port
 *
 * Return: the path, "" for a port not configured yet
 */
static const char *vhost_move_bound(const struct xc_port *p)
{
	return vh(p)->bound;
}

static const struct xc_port_move vhost_move = {
	.open = vhost_move_open,
	.frontends = vhost_move_frontends,
	.shut = vhost_move_shut,
	.close = vhost_move_close,
	.adopt = vhost_move_adopt,
	.bound = vhost_move_bound,
};

const struct xc_port_ops xc_port_vhost_ops = {
	.kind = "vhost",
	.match = vhost_match,
	.init = vhost_init,
	.prepare = vhost_prepare,
	.secure = vhost_secure,
	.caps = vhost_caps,
	.tx = vhost_tx,
	.link_changed = vhost_link_changed,
	.quiesce = vhost_quiesce,
	.poll = vhost_poll,
	.close = vhost_close,
	.closed = vhost_closed,
	.fini = vhost_fini,
	.describe = vhost_describe,
	.kick_fd = vhost_kick_fd,
	.features = vhost_features,
	.queue_events = vhost_queue_events,
	.socket = vhost_socket,
	.declared = "by its socket (left = PATH)",
	.peer = "guest",
	.event_link = true,
	.pluggable = true,
	.mt_txq = true,		/* the vhost library locks each ring */
	.rx_chains = true,	/* a guest's large frame: a chain, or lost */
	.move = &vhost_move,
};

