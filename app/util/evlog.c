/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * evlog.c - what happened to the lab, for programs that follow it (see
 *	     evlog.h)
 *
 * Theory of operation: a process has one stream of events, as it has one
 * log (logrl.c): the events are kept in one ring, the last XC_EV_KEEP of
 * them, each numbered; a listener remembers the number of the next event
 * it reads, and reads under the ring's lock. Producers are rare (a guest
 * connects, a cable is pulled, a change is made) and never a forwarding
 * lcore: the lock is never in the way of a frame. Whoever serves the
 * listeners is woken after each event (xc_ev_set_wake()).
 *
 * Each event is kept twice: its JSON line, with a "text" member saying it
 * for people ("carrier c1:left down (pulled)"), and that text after the
 * time, the line xcablectl events prints. A supervisor passes its
 * workers' JSON lines on as they came, the worker's number added
 * (xc_ev_post_line()), and makes their text from the JSON alone.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "evlog.h"
#include "json.h"

/**
 * struct xc_ev_slot - one event kept
 * @jlen:	bytes of @json
 * @tlen:	bytes of @text
 * @json:	its JSON line, newline included
 * @text:	its line for people, newline included
 */
struct xc_ev_slot {
	uint16_t jlen;
	uint16_t tlen;
	char json[XC_EV_LINE];
	char text[XC_EV_LINE];
};

/**
 * struct xc_evlog - the process's events
 * @lock:	over everything below
 * @head:	number of the next event (events 0 to @head - 1 happened)
 * @wake:	called after each event, without the lock (NULL: nobody)
 * @wake_arg:	its argument
 * @ring:	the last XC_EV_KEEP events: event n in ring[n % XC_EV_KEEP]
 */
struct xc_evlog {
	pthread_mutex_t lock;
	uint64_t head;
	void (*wake)(void *arg);
	void *wake_arg;
	struct xc_ev_slot ring[XC_EV_KEEP];
};

static struct xc_evlog xc_evlog = { .lock = PTHREAD_MUTEX_INITIALIZER };

/**
 * json_string() - the value of a string member of a JSON line, unescaped
 *		   (\", \\, \/, \n, \t, \r, \b, \f, \uXXXX as UTF-8)
 * @json:	the line
 * @len:	its length
 * @key:	the member's name
 * @buf:	filled, NUL-terminated
 * @size:	size of @buf
 *
 * Return: bytes in @buf, or -1 if the line has no such member
 */
static int json_string(const char *json, size_t len, const char *key,
		       char *buf, size_t size)
{
	const char *end = json + len, *p;
	char pat[32];
	size_t n = 0;
	unsigned int u;

	snprintf(pat, sizeof(pat), "\"%s\":\"", key);
	p = memmem(json, len, pat, strlen(pat));
	if (p == NULL || size == 0)
		return -1;
	for (p += strlen(pat); p < end && *p != '"' && n + 4 < size; p++) {
		if (*p != '\\' || p + 1 >= end) {
			buf[n++] = *p;
			continue;
		}
		p++;
		if (*p == 'u' && p + 4 < end && sscanf(p + 1, "%4x", &u) == 1) {
			p += 4;
			if (u < 0x80) {
				buf[n++] = (char)u;
			} else if (u < 0x800) {
				buf[n++] = (char)(0xc0 | u >> 6);
				buf[n++] = (char)(0x80 | (u & 0x3f));
			} else {
				buf[n++] = (char)(0xe0 | u >> 12);
				buf[n++] = (char)(0x80 | ((u >> 6) & 0x3f));
				buf[n++] = (char)(0x80 | (u & 0x3f));
			}
			continue;
		}
		buf[n++] = *p == 'n' ? '\n' : *p == 't' ? '\t' :
			   *p == 'r' ? '\r' : *p == 'b' ? '\b' :
			   *p == 'f' ? '\f' : *p;
	}
	buf[n] = '\0';
	return (int)n;
}

/**
 * xc_ev_text_of() - an event's line for people: its time and its text,
 *		     from its JSON line
 * @json:	the JSON line
 * @len:	its length
 * @buf:	filled: "TIME TEXT\n", NUL-terminated
 * @size:	size of @buf
 *
 * Return: bytes in @buf (0 if the line is no event)
 */
size_t xc_ev_text_of(const char *json, size_t len, char *buf, size_t size)
{
	char when[64], text[XC_EV_LINE];
	int n;

	if (json_string(json, len, "time", when, sizeof(when)) < 0 ||
	    json_string(json, len, "text", text, sizeof(text)) < 0 || size == 0)
		return 0;
	/* a line per event: what the text holds of line breaks is blanks */
	for (n = 0; text[n]; n++)
		if (text[n] == '\n' || text[n] == '\r')
			text[n] = ' ';
	n = snprintf(buf, size, "%s %s\n", when, text);
	if (n < 0)
		return 0;
	if ((size_t)n >= size) {	/* cut short: still one line */
		buf[size - 2] = '\n';
		return size - 1;
	}
	return (size_t)n;
}

/**
 * store() - keep an event, wake whoever serves the listeners
 * @json:	its JSON line, without its newline
 * @len:	its length (less than XC_EV_LINE)
 */
static void store(const char *json, size_t len)
{
	struct xc_evlog *l = &xc_evlog;
	struct xc_ev_slot *s;

	pthread_mutex_lock(&l->lock);
	s = &l->ring[l->head % XC_EV_KEEP];
	memcpy(s->json, json, len);
	s->json[len] = '\n';
	s->jlen = (uint16_t)(len + 1);
	s->tlen = (uint16_t)xc_ev_text_of(s->json, s->jlen, s->text,
					  sizeof(s->text));
	if (s->tlen == 0) {	/* no time or text: the line as it came */
		memcpy(s->text, s->json, s->jlen);
		s->tlen = s->jlen;
	}
	l->head++;
	/* under the lock: once xc_ev_set_wake(NULL) returned, nobody wakes
	 * a reader that is gone */
	if (l->wake)
		l->wake(l->wake_arg);
	pthread_mutex_unlock(&l->lock);
}

/**
 * ev_time() - now, as events say it: UTC, microseconds
 * @buf:	filled: "2025-05-01T12:00:00.123456Z"
 * @len:	size of @buf
 */
static void ev_time(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%06ldZ", ts.tv_nsec / 1000);
}

/**
 * ev_text() - an event in words: "EVENT SUBJECT STATE (WHY): DETAIL"
 * @e:		the event
 * @detail:	its detail, as it fits
 * @buf:	filled
 * @len:	size of @buf
 */
static void ev_text(const struct xc_ev *e, const char *detail, char *buf,
		    size_t len)
{
	char subj[96] = "";

	if (e->cable)
		snprintf(subj, sizeof(subj), " %s%s%s", e->cable,
			 e->end ? ":" : "", e->end ? e->end : "");
	else if (e->worker >= 0)	/* "worker 1 exited", not "worker worker" */
		snprintf(subj, sizeof(subj), "%s %d",
			 strcmp(e->event, "worker") ? " worker" : "",
			 e->worker);
	snprintf(buf, len, "%s%s%s%s%s%s%s", e->event, subj,
		 e->state ? " " : "", e->state ? e->state : "",
		 e->why ? " (" : "", e->why ? e->why : "", e->why ? ")" : "");
	if (detail && detail[0]) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, ": %s", detail);
	}
}

/**
 * build() - an event's JSON line
 * @e:		the event; a detail too long for a line is cut short
 * @line:	filled, without newline, NUL-terminated
 * @size:	size of @line (XC_EV_LINE)
 *
 * Return: bytes in @line, 0 if it could not be made (out of memory)
 */
static size_t build(const struct xc_ev *e, char *line, size_t size)
{
	char when[64], text[XC_EV_LINE], detail[XC_EV_DETAIL];
	struct xc_json j;
	size_t n = 0;
	int pass;

	ev_time(when, sizeof(when));
	snprintf(detail, sizeof(detail), "%s", e->detail ? e->detail : "");
	for (pass = 0; pass < 2 && n == 0; pass++) {
		ev_text(e, detail, text, sizeof(text));
		xc_json_init(&j);
		xc_json_open(&j, NULL, '{');
		xc_json_str(&j, "time", when);
		xc_json_str(&j, "event", e->event);
		if (e->cable)
			xc_json_str(&j, "cable", e->cable);
		if (e->end)
			xc_json_str(&j, "end", e->end);
		if (e->state)
			xc_json_str(&j, "state", e->state);
		if (e->why)
			xc_json_str(&j, "why", e->why);
		if (detail[0])
			xc_json_str(&j, "detail", detail);
		if (e->worker >= 0)
			xc_json_u64(&j, "worker", (uint64_t)e->worker);
		xc_json_str(&j, "text", text);
		xc_json_close(&j, '}');
		/* the document's newline is the line's: taken off here */
		if (xc_json_finish(&j) == 0 && j.text.len < size) {
			n = j.text.len - 1;
			memcpy(line, j.text.b, n);
			line[n] = '\0';
		}
		xc_json_free(&j);
		detail[XC_EV_DETAIL / 4] = '\0';	/* once more, shorter */
	}
	return n;
}

/**
 * xc_ev_post() - an event happened: keep it for the listeners (any thread
 *		  but a forwarding lcore)
 * @e:		the event; a detail too long for a line is cut short
 */
void xc_ev_post(const struct xc_ev *e)
{
	char line[XC_EV_LINE];
	size_t n = build(e, line, sizeof(line) - 1);

	if (n)
		store(line, n);
}

/**
 * xc_ev_format() - an event as a listener reads it, kept nowhere (what
 *		    one listener alone is told: that it listens)
 * @e:		the event
 * @json:	its JSON line (else its line for people)
 * @buf:	filled, newline included
 * @len:	size of @buf, XC_EV_LINE at least
 *
 * Return: bytes in @buf, 0 if it could not be made
 */
size_t xc_ev_format(const struct xc_ev *e, bool json, char *buf, size_t len)
{
	char line[XC_EV_LINE];
	size_t n = build(e, line, sizeof(line) - 1);

	if (n == 0 || len < XC_EV_LINE)
		return 0;
	if (!json)
		return xc_ev_text_of(line, n, buf, len);
	memcpy(buf, line, n);
	buf[n] = '\n';
	return n + 1;
}

/**
 * xc_ev() - an event happened, its detail from a format (see xc_ev_post())
 * @event:	what happened
 * @cable:	the cable, or NULL
 * @end:	its end, or NULL
 * @state:	what it is now
 * @why:	what made it so, or NULL
 * @fmt:	its detail, printf-style, or NULL
 */
void xc_ev(const char *event, const char *cable, const char *end,
	   const char *state, const char *why, const char *fmt, ...)
{
	char detail[XC_EV_DETAIL] = "";
	struct xc_ev e = {
		.event = event, .cable = cable, .end = end, .state = state,
		.why = why, .detail = detail, .worker = -1,
	};
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(detail, sizeof(detail), fmt, ap);
		va_end(ap);
	}
	xc_ev_post(&e);
}

/**
 * xc_ev_post_line() - keep an event another process said (a worker's, for
 *		       its supervisor), as its JSON line came
 * @json:	the line, without its newline
 * @len:	its length: a line of XC_EV_LINE bytes or more is not kept
 */
void xc_ev_post_line(const char *json, size_t len)
{
	if (len > 0 && len < XC_EV_LINE && json[0] == '{')
		store(json, len);
}

/**
 * xc_ev_head() - the number of the next event: a listener that starts now
 *		  reads from there
 *
 * Return: the number
 */
uint64_t xc_ev_head(void)
{
	uint64_t h;

	pthread_mutex_lock(&xc_evlog.lock);
	h = xc_evlog.head;
	pthread_mutex_unlock(&xc_evlog.lock);
	return h;
}

/**
 * xc_ev_read() - a listener's next event
 * @pos:	the number of the event it reads next; advanced past it
 * @json:	its JSON line (else its line for people)
 * @buf:	filled with the line, newline included (not NUL-terminated)
 * @len:	size of @buf, XC_EV_LINE at least
 *
 * Return: bytes in @buf; 0 if no event came after the last one read;
 *	   -ERANGE if the listener fell behind: the event at @pos is no
 *	   longer kept (*pos is left where it was)
 */
int xc_ev_read(uint64_t *pos, bool json, char *buf, size_t len)
{
	struct xc_evlog *l = &xc_evlog;
	const struct xc_ev_slot *s;
	int n = 0;

	pthread_mutex_lock(&l->lock);
	if (*pos + XC_EV_KEEP < l->head) {
		n = -ERANGE;
	} else if (*pos < l->head) {
		s = &l->ring[*pos % XC_EV_KEEP];
		n = json ? s->jlen : s->tlen;
		if ((size_t)n > len)
			n = 0;	/* the caller's buffer is XC_EV_LINE */
		else
			memcpy(buf, json ? s->json : s->text, (size_t)n);
		(*pos)++;
	}
	pthread_mutex_unlock(&l->lock);
	return n;
}

/**
 * xc_ev_set_wake() - who is woken after each event (the thread serving the
 *		      listeners)
 * @fn:		called from the producer's thread, under the log's lock
 *		(it must not post an event); NULL for nobody
 * @arg:	its argument
 */
void xc_ev_set_wake(void (*fn)(void *arg), void *arg)
{
	pthread_mutex_lock(&xc_evlog.lock);
	xc_evlog.wake = fn;
	xc_evlog.wake_arg = arg;
	pthread_mutex_unlock(&xc_evlog.lock);
}
