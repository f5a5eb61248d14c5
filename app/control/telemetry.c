/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * telemetry.c - cables and their counters through rte_telemetry
 *
 *   /xcable/cables           names of the cables
 *   /xcable/cable,NAME       one cable: each end's port, socket, link and
 *                            negotiated virtio features (and for an end
 *                            on a trunk, END/trunk/COUNTER); per
 *                            direction FROM_to_TO/COUNTER, every counter
 *                            of stats.c's tables, '-' written '_'
 *                            (telemetry allows no '-' in keys)
 *
 * Answers are built in the telemetry thread from relaxed reads of the
 * counters, so the data path never waits for a query. rte_telemetry's
 * callbacks take no argument, hence the one static pointer below.
 */
#include <inttypes.h>
#include <string.h>

#include <rte_telemetry.h>

#include "counters.h"
#include "dir.h"
#include "log.h"
#include "telemetry.h"

/**
 * struct xc_tel - what the telemetry callbacks may look at
 * @cables:	the cables, which live as long as the process
 * @n_cables:	number of cable slots (a removed cable's has no name)
 * @lock:	held for reading while the cables are looked at (cables
 *		come and go at runtime, reconf.c), or NULL
 */
struct xc_tel {
	struct xc_cable *cables;
	unsigned int n_cables;
	pthread_rwlock_t *lock;
};

static struct xc_tel xc_tel;

/**
 * tel_cables() - /xcable/cables: list the cable names
 * @cmd:	command (unused)
 * @params:	parameters (unused)
 * @d:		answer
 *
 * Return: 0
 */
static int tel_cables(const char *cmd, const char *params,
		      struct rte_tel_data *d)
{
	unsigned int i;

	(void)cmd;
	(void)params;
	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	if (xc_tel.lock)
		pthread_rwlock_rdlock(xc_tel.lock);
	for (i = 0; i < xc_tel.n_cables; i++)
		if (xc_cable_shown(&xc_tel.cables[i]))
			rte_tel_data_add_array_string(d, xc_tel.cables[i].name);
	if (xc_tel.lock)
		pthread_rwlock_unlock(xc_tel.lock);
	return 0;
}

/**
 * key() - a telemetry key "PREFIX/NAME" (see xc_tel_key())
 * @buf:	output, RTE_TEL_MAX_STRING_LEN bytes
 * @prefix:	first part
 * @name:	second part
 *
 * Return: @buf
 */
static const char *key(char *buf, const char *prefix, const char *name)
{
	return xc_tel_key(buf, RTE_TEL_MAX_STRING_LEN, prefix, name);
}

/**
 * struct xc_tel_kv - where add_kv() puts a port's facts
 * @d:		answer dict
 * @prefix:	"end0" or "end1"
 */
struct xc_tel_kv {
	struct rte_tel_data *d;
	const char *prefix;
};

/**
 * add_kv() - one fact of a port, as xc_port_describe() gives them
 * @arg:	struct xc_tel_kv
 * @name:	its name
 * @str:	text value, or NULL
 * @num:	number value, if @str is NULL
 */
static void add_kv(void *arg, const char *name, const char *str, uint64_t num)
{
	struct xc_tel_kv *kv = arg;
	char k[RTE_TEL_MAX_STRING_LEN];

	if (str)
		rte_tel_data_add_dict_string(kv->d, key(k, kv->prefix, name),
					     str);
	else
		rte_tel_data_add_dict_u64(kv->d, key(k, kv->prefix, name), num);
}

/**
 * add_end() - describe one end of a cable
 * @d:		answer dict
 * @prefix:	"end0" or "end1"
 * @e:		the end
 */
static void add_end(struct rte_tel_data *d, const char *prefix,
		    const struct xc_end *e)
{
	struct xc_tel_kv kv = { .d = d, .prefix = prefix };
	char k[RTE_TEL_MAX_STRING_LEN], offl[32];
	uint64_t caps;
	uint32_t f;

	rte_tel_data_add_dict_string(d, key(k, prefix, "name"), e->label);
	xc_end_describe(e, add_kv, &kv);
	caps = xc_end_caps(e);
	f = xc_caps_flags(caps);
	snprintf(offl, sizeof(offl), "%s%s%s%s", f & XC_CAP_CSUM ? "csum " : "",
		 f & XC_CAP_TSO4 ? "tso4 " : "", f & XC_CAP_TSO6 ? "tso6 " : "",
		 f & XC_CAP_UFO ? "ufo " : "");
	rte_tel_data_add_dict_string(d, key(k, prefix, "takes_offloads"), offl);
	rte_tel_data_add_dict_u64(d, key(k, prefix, "max_frame"),
				  xc_caps_max_frame(caps));
	rte_tel_data_add_dict_u64(d, key(k, prefix, "queues"),
				  xc_end_queues(e));
	if (e->hub) {
		/* an end on a hub: the hub's counters */
		uint64_t st[XC_HUB_STATS_MAX];

		e->hub->ops->snapshot(e->hub, st);
		xc_stats_tel(e->hub->ops->counters, st, d,
			     key(k, prefix, e->hub->ops->tel));
	}
}

/**
 * add_dir() - every counter of one direction, summed over its queues, as
 *	       "FROM_to_TO/NAME"
 * @d:		answer dict
 * @c:		cable
 * @j:		0 for end0 -> end1, 1 for the reverse
 */
static void add_dir(struct rte_tel_data *d, const struct xc_cable *c,
		    unsigned int j)
{
	char prefix[RTE_TEL_MAX_STRING_LEN];
	const struct xc_dir *dir = &c->dir[j];
	struct xc_dir_stats s;

	if (snprintf(prefix, sizeof(prefix), "%s_to_%s", dir->rx->label,
		     dir->tx->label) >= (int)sizeof(prefix))
		prefix[sizeof(prefix) - 1] = '\0';
	xc_cable_stats(c, j, &s);
	xc_stats_tel(&xc_dir_counters, &s, d, prefix);
}

/**
 * tel_cable() - /xcable/cable,NAME: one cable in detail
 * @cmd:	command (unused)
 * @params:	cable name
 * @d:		answer
 *
 * Return: 0, or -EINVAL for a missing or unknown name
 */
static int tel_cable(const char *cmd, const char *params,
		     struct rte_tel_data *d)
{
	const struct xc_cable *c = NULL;
	unsigned int i;

	(void)cmd;
	if (params == NULL || params[0] == '\0')
		return -EINVAL;
	if (xc_tel.lock)
		pthread_rwlock_rdlock(xc_tel.lock);
	for (i = 0; i < xc_tel.n_cables && c == NULL; i++)
		if (xc_cable_shown(&xc_tel.cables[i]) &&
		    strcmp(xc_tel.cables[i].name, params) == 0)
			c = &xc_tel.cables[i];
	if (c) {
		rte_tel_data_start_dict(d);
		rte_tel_data_add_dict_string(d, "name", c->name);
		add_end(d, "end0", &c->end[0]);
		add_end(d, "end1", &c->end[1]);
		add_dir(d, c, 0);
		add_dir(d, c, 1);
	}
	if (xc_tel.lock)
		pthread_rwlock_unlock(xc_tel.lock);
	return c ? 0 : -EINVAL;
}

/**
 * xc_telemetry_lock() - look at the cables only while holding a lock for
 *			 reading (cables come and go at runtime)
 * @lock:	the lock
 */
void xc_telemetry_lock(pthread_rwlock_t *lock)
{
	xc_tel.lock = lock;
}

/**
 * xc_telemetry_init() - register the /xcable commands
 * @cables:	the cables, alive until exit
 * @n_cables:	number of cables
 *
 * Return: 0 on success, negative errno from rte_telemetry otherwise
 */
int xc_telemetry_init(struct xc_cable *cables, unsigned int n_cables)
{
	int rc;

	xc_tel.cables = cables;
	xc_tel.n_cables = n_cables;
	rc = rte_telemetry_register_cmd("/xcable/cables", tel_cables,
					"Lists the cables. No parameters");
	if (rc == 0)
		rc = rte_telemetry_register_cmd("/xcable/cable", tel_cable,
			"A cable's ends, link states, virtio features and counters. Parameter: cable name");
	if (rc)
		XC_LOG(main, WARNING, "telemetry commands not registered: %d",
		       rc);
	return rc;
}
