/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * logrl.c - a log that nobody outside can flood (see logrl.h)
 *
 * rte_log writes each message with one vfprintf and one fflush to the
 * stream rte_openlog_stream() gave it. Ours is an unbuffered
 * fopencookie() stream, so that each message arrives here whole, in one
 * write; the message's source is looked up in a small table, and what a
 * source may still log goes on to the stream the EAL had (its console
 * and syslog), what it may not is counted. The process has one log, so
 * it has one filter: the stream's cookie is the one struct xc_logrl.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_log.h>

#include "logrl.h"

#define XC_LOGRL_KEY	160	/* a source's name or line, as compared */
#define XC_LOGRL_LAST	240	/* the last line held back, as said */

/**
 * struct xc_logrl_src - one source and its window (under the lock)
 * @used:	the slot is a source's
 * @hash:	of @what and @key
 * @what:	the message (its format) for XC_LOG_FROM, NULL for a line
 *		of a DPDK library (its text is @key)
 * @key:	the source's name, or the line
 * @start:	its window began (monotonic seconds)
 * @n:		lines it logged in the window
 * @held:	lines it held back in the window
 * @level:	rte_log level and @type of the last held back, to say it
 * @type:	with the same priority
 * @last:	the last held back, without its newline
 */
struct xc_logrl_src {
	bool used;
	uint32_t hash;
	const char *what;
	char key[XC_LOGRL_KEY];
	uint64_t start;
	uint32_t n;
	uint64_t held;
	uint32_t level;
	uint32_t type;
	char last[XC_LOGRL_LAST];
};

/**
 * struct xc_logrl - the filter
 * @lock:	over @src and @full
 * @out:	the stream the EAL had, where lines go on to
 * @in:		ours, rte_log's
 * @src:	the sources followed (open addressing)
 * @full:	lines of sources beyond XC_LOGRL_SOURCES, as one source
 */
struct xc_logrl {
	pthread_mutex_t lock;
	FILE *out;
	FILE *in;
	struct xc_logrl_src src[XC_LOGRL_SOURCES];
	struct xc_logrl_src full;
};

static struct xc_logrl xc_logrl = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* the source and message of the thread's next line (XC_LOG_FROM), and
 * whether the line is ours to pass (a line saying what was held back) */
static __thread const char *xc_logrl_source;
static __thread const char *xc_logrl_what;
static __thread bool xc_logrl_pass;

/* now_s() - monotonic seconds */
static uint64_t now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec;
}

/* hash() - FNV-1a of @n bytes of @s, on top of @h */
static uint32_t hash(uint32_t h, const char *s, size_t n)
{
	while (n--)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

/**
 * xc_logrl_from() - the next line this thread logs is message @what from
 *		     @source (XC_LOG_FROM); NULL, NULL after it
 * @source:	who makes xcable log it: a socket path, a cable's name
 * @what:	the message's format, which tells messages apart
 */
void xc_logrl_from(const char *source, const char *what)
{
	xc_logrl_source = source;
	xc_logrl_what = what;
}

/* emit() - a line on to the EAL's stream */
static void emit(struct xc_logrl *l, const char *buf, size_t size)
{
	fwrite(buf, 1, size, l->out);
	fflush(l->out);
}

/**
 * say_held() - one line for what @s held back in its window, which ended;
 *		its window starts again (lock held)
 * @s:		source
 * @now:	the time
 */
static void say_held(struct xc_logrl_src *s, uint64_t now)
{
	if (s->held) {
		/* through rte_log, for the priority syslog is given */
		xc_logrl_pass = true;
		rte_log(s->level, s->type,
			"xcable: %" PRIu64 " more like this in the last %" PRIu64 " s: %s\n",
			s->held, now - s->start, s->last);
		xc_logrl_pass = false;
	}
	s->start = now;
	s->n = 0;
	s->held = 0;
}

/**
 * find() - the slot of a source, a new one if it is not followed yet
 *	    (lock held)
 * @l:		filter
 * @what:	its message, or NULL
 * @key:	its name or line
 * @klen:	length of @key
 * @now:	the time
 *
 * A slot whose source logged nothing for two windows and held nothing
 * back is free again.
 *
 * Return: the slot; &l->full if every slot is taken by a live source
 */
static struct xc_logrl_src *find(struct xc_logrl *l, const char *what,
				 const char *key, size_t klen, uint64_t now)
{
	struct xc_logrl_src *s, *spare = NULL;
	uint32_t h;
	unsigned int i, k;

	klen = klen < XC_LOGRL_KEY - 1 ? klen : XC_LOGRL_KEY - 1;
	h = hash(hash(2166136261u, (const char *)&what, sizeof(what)), key,
		 klen);
	for (i = 0; i < XC_LOGRL_SOURCES; i++) {
		k = (h + i) % XC_LOGRL_SOURCES;
		s = &l->src[k];
		if (!s->used) {
			spare = spare ? spare : s;
			break;
		}
		if (s->hash == h && s->what == what &&
		    strncmp(s->key, key, klen) == 0 && s->key[klen] == '\0')
			return s;
		if (spare == NULL && s->held == 0 &&
		    now - s->start >= 2 * XC_LOGRL_WINDOW_S)
			spare = s;
	}
	if (spare == NULL)
		return &l->full;
	memset(spare, 0, sizeof(*spare));
	spare->used = true;
	spare->hash = h;
	spare->what = what;
	memcpy(spare->key, key, klen);
	spare->key[klen] = '\0';
	spare->start = now;
	return spare;
}

/**
 * limit() - may this line of a source go out? If not, it is counted and
 *	     kept as the last held back (lock held)
 * @s:		its source
 * @buf:	the line
 * @size:	its length
 * @now:	the time
 *
 * Return: true to emit it
 */
static bool limit(struct xc_logrl_src *s, const char *buf, size_t size,
		  uint64_t now)
{
	/* before say_held(), whose rte_log() sets the thread's current */
	uint32_t level = (uint32_t)rte_log_cur_msg_loglevel();
	uint32_t type = (uint32_t)rte_log_cur_msg_logtype();
	size_t n;

	if (now - s->start >= XC_LOGRL_WINDOW_S)
		say_held(s, now);
	if (s->n < XC_LOGRL_BURST) {
		s->n++;
		return true;
	}
	s->held++;
	s->level = level;
	s->type = type;
	if (size > 8 && memcmp(buf, "xcable: ", 8) == 0)
		buf += 8, size -= 8;
	while (size && (buf[size - 1] == '\n' || buf[size - 1] == '\r'))
		size--;
	n = size < XC_LOGRL_LAST - 1 ? size : XC_LOGRL_LAST - 1;
	memcpy(s->last, buf, n);
	s->last[n] = '\0';
	return false;
}

/**
 * rl_write() - the stream's write: one whole message from rte_log
 * @cookie:	the filter
 * @buf:	the message
 * @size:	its length
 *
 * Return: @size (a line held back is written, as far as rte_log knows)
 */
static ssize_t rl_write(void *cookie, const char *buf, size_t size)
{
	struct xc_logrl *l = cookie;
	const char *what = xc_logrl_what, *key = xc_logrl_source;
	struct xc_logrl_src *s;
	uint64_t now;
	bool go;

	if (xc_logrl_pass || rte_log_cur_msg_loglevel() > (int)RTE_LOG_INFO ||
	    (key == NULL && size >= 8 && memcmp(buf, "xcable: ", 8) == 0)) {
		emit(l, buf, size);	/* asked for, or the operator's */
		return (ssize_t)size;
	}
	if (key == NULL)
		what = NULL, key = buf;	/* a library's line: by its text */
	now = now_s();
	pthread_mutex_lock(&l->lock);
	s = find(l, what, key, what ? strlen(key) : size, now);
	go = limit(s, buf, size, now);
	if (go)
		emit(l, buf, size);
	pthread_mutex_unlock(&l->lock);
	return (ssize_t)size;
}

/**
 * xc_logrl_init() - put the filter between rte_log and the stream it
 *		     writes to now (after rte_eal_init(), which sets that
 *		     stream; before it, stderr)
 *
 * Return: 0, or -errno (the log is then unfiltered, and stays as it was)
 */
int xc_logrl_init(void)
{
	struct xc_logrl *l = &xc_logrl;
	cookie_io_functions_t io = { .write = rl_write };

	if (l->in)
		return 0;
	l->out = rte_log_get_stream();
	l->in = fopencookie(l, "w", io);
	if (l->in == NULL)
		return -errno;
	setvbuf(l->in, NULL, _IONBF, 0);	/* a message, a write */
	if (rte_openlog_stream(l->in)) {
		fclose(l->in);
		l->in = NULL;
		return -EINVAL;
	}
	return 0;
}

/**
 * say_all() - say what the sources held back (lock held)
 * @l:		filter
 * @now:	the time
 * @ended:	only those whose window ended; false: every one
 */
static void say_all(struct xc_logrl *l, uint64_t now, bool ended)
{
	unsigned int i;

	for (i = 0; i <= XC_LOGRL_SOURCES; i++) {
		struct xc_logrl_src *s = i < XC_LOGRL_SOURCES ? &l->src[i] :
				       &l->full;

		if (s->held && (!ended || now - s->start >= XC_LOGRL_WINDOW_S))
			say_held(s, now);
	}
}

/**
 * xc_logrl_tick() - say what sources held back in windows that ended
 *		     (main thread, housekeeping)
 */
void xc_logrl_tick(void)
{
	struct xc_logrl *l = &xc_logrl;

	if (l->in == NULL)
		return;
	pthread_mutex_lock(&l->lock);
	say_all(l, now_s(), true);
	pthread_mutex_unlock(&l->lock);
}

/**
 * xc_logrl_fini() - at exit: say everything held back, however short its
 *		     window was (the filter stays: threads may still log)
 */
void xc_logrl_fini(void)
{
	struct xc_logrl *l = &xc_logrl;

	if (l->in == NULL)
		return;
	pthread_mutex_lock(&l->lock);
	say_all(l, now_s(), false);
	pthread_mutex_unlock(&l->lock);
}
