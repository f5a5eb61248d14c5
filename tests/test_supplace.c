/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_supplace.c - unit tests of the supervisor's placement of cables on
 *		     worker processes (app/supervisor/supplace.c)
 *
 * Socket cables fill a worker to RTE_MAX_ETHPORTS ports, then the next;
 * cables on one [port NAME] (a trunk) stay together, and so do all tunnel
 * cables; a group bigger than one process is refused, and so is a cable
 * whose port a running worker would have to open; a refusal changes
 * nothing. No EAL: placement is plain arithmetic on the definitions.
 *
 * Prints "ok NAME" or "FAIL NAME: why" per check; exits 1 on any failure.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_build_config.h>

#include "end_vxlan_def.h"
#include "supervise.h"
#include "testlib.h"

static int fails;

/**
 * cable() - a cable definition
 * @c:		filled
 * @i:		its number (its name is cI)
 * @left:	'S' a socket end, 'P' an end on port 0, 'Q' on port 1
 * @right:	the same, or 'V' a tunnel end
 */
static void cable(struct xc_sup_cable *c, unsigned int i, char left,
		  char right)
{
	char ends[2] = { left, right };
	unsigned int j;

	memset(c, 0, sizeof(*c));
	snprintf(c->def.name, sizeof(c->def.name), "c%u", i);
	c->worker = -1;
	for (j = 0; j < 2; j++) {
		struct xc_end_def *e = &c->def.end[j];

		e->port = ends[j] == 'P' ? 0 : ends[j] == 'Q' ? 1 : -1;
		e->tag = e->port >= 0 ? (uint16_t)(i + 1) : 0;
		if (ends[j] == 'S')
			snprintf(e->path, sizeof(e->path), "/tmp/c%u-%u.sock", i, j);
		if (ends[j] == 'V') {
			struct xc_vxlan_def *vd =
				xc_kind_def_area(e, XC_KIND_ID_vxlan);

			snprintf(vd->remote, sizeof(vd->remote), "192.0.2.%u",
				 i + 1);
		}
	}
}

/**
 * count_in() - how many cables a worker got
 * @c:		cables
 * @n:		how many
 * @k:		the worker
 *
 * Return: the count
 */
static unsigned int count_in(const struct xc_sup_cable *c, unsigned int n,
			     int k)
{
	unsigned int i, m = 0;

	for (i = 0; i < n; i++)
		m += c[i].worker == k;
	return m;
}

static struct xc_sup_cable c[XC_SUP_MAX_CABLES];
static struct xc_worker w[XC_SUP_MAX_WORKERS];

/* reset() - no cable, no worker */
static void reset(unsigned int *n_w)
{
	memset(c, 0, sizeof(c));
	memset(w, 0, sizeof(w));
	*n_w = 0;
}

static void test_sockets(void)
{
	unsigned int i, n_w;
	char why[XC_ERR_LEN];
	int rc;

	reset(&n_w);
	for (i = 0; i < 20; i++)
		cable(&c[i], i, 'S', 'S');
	rc = xc_sup_place(c, 20, w, &n_w, why, sizeof(why));
	CHECK("20 socket cables placed", rc == 0);
	CHECK("two workers, the fewest that hold 40 ports", n_w == 2);
	CHECK("an even share: 10 cables in each", count_in(c, 20, 0) == 10 &&
	      count_in(c, 20, 1) == 10);
	CHECK("in config order", c[9].worker == 0 && c[10].worker == 1);
	CHECK("new workers are left to start", w[0].state == XC_W_WAITING &&
	      w[0].pid == 0 && w[0].restart_ms == 0);
	/* a cable added later goes to the first worker with room */
	w[0].state = w[1].state = XC_W_RUNNING;
	cable(&c[20], 20, 'S', 'S');
	rc = xc_sup_place(c, 21, w, &n_w, why, sizeof(why));
	CHECK("an added cable goes to worker 0, the first with room",
	      rc == 0 && c[20].worker == 0 && n_w == 2);
	/* ... but not to a worker being stopped (it has no cable left, and
	 * would take the new one along) */
	w[0].state = XC_W_STOPPING;
	cable(&c[21], 21, 'S', 'S');
	rc = xc_sup_place(c, 22, w, &n_w, why, sizeof(why));
	CHECK("an added cable skips a worker being stopped",
	      rc == 0 && c[21].worker == 1);
}

/* a lab of 100 socket cables: 7 workers, none more than one cable apart,
 * so that each cable gets an even part of the shared forwarding CPU */
static void test_even(void)
{
	unsigned int i, n_w, k, lo = ~0u, hi = 0, sum = 0;
	char why[XC_ERR_LEN];
	int rc;

	reset(&n_w);
	for (i = 0; i < 100; i++)
		cable(&c[i], i, 'S', 'S');
	rc = xc_sup_place(c, 100, w, &n_w, why, sizeof(why));
	for (k = 0; k < n_w; k++) {
		unsigned int m = count_in(c, 100, (int)k);

		lo = m < lo ? m : lo;
		hi = m > hi ? m : hi;
		sum += m;
		printf("  worker %u: %u cables\n", k, m);
	}
	CHECK("100 socket cables in 7 workers", rc == 0 && n_w == 7 && sum == 100);
	CHECK("14 or 15 cables each", lo == 14 && hi == 15);
	for (i = 1; i < 100 && c[i].worker >= c[i - 1].worker; i++)
		;
	CHECK("in config order", i == 100);
	reset(&n_w);
	for (i = 0; i < 32; i++)
		cable(&c[i], i, 'S', 'S');
	rc = xc_sup_place(c, 32, w, &n_w, why, sizeof(why));
	CHECK("32 cables: two full workers", rc == 0 && n_w == 2 &&
	      count_in(c, 32, 0) == 16 && count_in(c, 32, 1) == 16);
}

static void test_trunk(void)
{
	unsigned int i, n_w;
	char why[XC_ERR_LEN];
	int rc;

	reset(&n_w);
	for (i = 0; i < 10; i++)
		cable(&c[i], i, 'S', 'S');
	/* 20 cables from a socket to a tag on port 0: 21 ports together */
	for (i = 10; i < 30; i++)
		cable(&c[i], i, 'S', 'P');
	rc = xc_sup_place(c, 30, w, &n_w, why, sizeof(why));
	CHECK("trunk members placed", rc == 0);
	CHECK("trunk members all in one worker", count_in(c, 30, c[10].worker) -
	      (c[10].worker == 0 ? 10 : 0) == 20);
	CHECK("the trunk did not fit beside 10 socket cables: worker 1",
	      c[10].worker == 1 && count_in(c, 30, 0) == 10);
	CHECK("worker 1 holds port 0", w[1].ports == 1 && w[0].ports == 0);
	/* a running worker cannot open a new port: port 1 gets a new one */
	w[0].state = w[1].state = XC_W_RUNNING;
	cable(&c[30], 30, 'S', 'Q');
	rc = xc_sup_place(c, 31, w, &n_w, why, sizeof(why));
	CHECK("a cable on a port no worker holds gets a new worker",
	      rc == 0 && c[30].worker == 2 && w[2].ports == 2);
	/* the trunk's worker has 21 ports: 12 more members do not fit */
	for (i = 31; i < 43; i++)
		cable(&c[i], i, 'S', 'P');
	rc = xc_sup_place(c, 43, w, &n_w, why, sizeof(why));
	printf("  refused: %s\n", why);
	CHECK("no room beside the trunk: refused", rc == -ENOSPC &&
	      strstr(why, "no room") != NULL);
	CHECK("a refusal changes nothing", c[31].worker == -1 && n_w == 3 &&
	      w[3].state == XC_W_FREE);
}

static void test_vxlan(void)
{
	unsigned int i, n_w;
	char why[XC_ERR_LEN];
	int rc;

	reset(&n_w);
	/* tunnel cables among socket cables: all in one worker */
	for (i = 0; i < 40; i++)
		cable(&c[i], i, 'S', i % 4 == 3 ? 'V' : 'S');
	rc = xc_sup_place(c, 40, w, &n_w, why, sizeof(why));
	CHECK("40 cables placed", rc == 0);
	for (i = 7; i < 40; i += 4)
		if (c[i].worker != c[3].worker)
			break;
	CHECK("every tunnel cable in one worker", rc == 0 && i >= 40);

	/* the tunnel cables all go (the reload's new lab has none), and one
	 * comes back: to the worker that ran them, which may still hold
	 * their socket, not to the first with room */
	reset(&n_w);
	for (i = 0; i < 20; i++)
		cable(&c[i], i, 'S', i == 19 ? 'V' : 'S');
	rc = xc_sup_place(c, 20, w, &n_w, why, sizeof(why));
	w[0].state = w[1].state = XC_W_RUNNING;
	CHECK("the tunnel cable, last, in worker 1", rc == 0 && n_w == 2 &&
	      c[19].worker == 1 && c[0].worker == 0);
	c[19].worker = -1;
	cable(&c[19], 30, 'S', 'V');
	rc = xc_sup_place(c, 20, w, &n_w, why, sizeof(why));
	CHECK("a new tunnel cable goes to worker 1, which ran the last ones",
	      rc == 0 && c[19].worker == 1);
	w[1].state = XC_W_STOPPING;
	c[19].worker = -1;
	rc = xc_sup_place(c, 20, w, &n_w, why, sizeof(why));
	CHECK("... unless that worker is being stopped: then the first with room",
	      rc == 0 && c[19].worker == 0);
}

static void test_too_big(void)
{
	unsigned int i, n_w;
	char why[XC_ERR_LEN];
	int rc;

	reset(&n_w);
	/* 40 socket ends on one trunk: 41 ports that must stay together */
	for (i = 0; i < 40; i++)
		cable(&c[i], i, 'S', 'P');
	rc = xc_sup_place(c, 40, w, &n_w, why, sizeof(why));
	printf("  refused: %s\n", why);
	CHECK("a group bigger than one process is refused", rc == -ENOSPC &&
	      strstr(why, "41 DPDK ports") != NULL);
	CHECK("nothing placed", c[0].worker == -1 && n_w == 0 &&
	      w[0].state == XC_W_FREE);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_sockets();
	test_even();
	test_trunk();
	test_vxlan();
	test_too_big();
	printf("%s\n", fails ? "FAILED" : "all passed");
	return fails ? 1 : 0;
}
