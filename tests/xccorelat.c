/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xccorelat.c - how far apart two CPUs are: a cache line's round trip
 *
 *   xccorelat [--cpus A,B] [--seconds S] [--every-ms M] [--far-ns F]
 *
 * Every M ms (default 100) for S seconds (default 5), two threads pinned
 * to CPUs A and B (default 0 and 1) pass one cache line back and forth,
 * 20 batches of 50 round trips; the sample is the median batch's time per
 * round trip, so a batch in which the scheduler ran something else in
 * between does not count. At the end one line:
 *
 *   corelat cpus 0,1 samples N p10 X p50 Y p90 Z far-ns F far P
 *
 * X, Y and Z in ns; P is the percentage of samples above F ns (default
 * 200). Exits 0, or 2 with a message for a bad argument, 1 if a thread
 * could not be pinned.
 *
 * Why (doc/benchmarks.md): this machine is a virtual machine whose two
 * vCPUs the host runs sometimes on cores that share a cache (a round trip
 * of about 90 ns) and sometimes on cores that do not (about 350 ns), and
 * switches between the two every few seconds. A frame loop between a
 * frontend on one CPU and a forwarder on the other copies each frame's
 * bytes from one CPU's cache to the other's, so at 1518 bytes its rate
 * halves in the second case whichever forwarder runs. scripts/bench runs
 * this beside each loop measurement and records which case it met.
 *
 * A sample takes about 0.1 ms of both CPUs (0.35 ms far apart): 1 to 4
 * per thousand of them at the default period.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BATCHES 20
#define TRIPS 50
#define MAX_SAMPLES 100000

/* the line the two threads pass; its own cache line */
struct probe {
	_Alignas(64) atomic_uint_fast64_t line;	/* written by both, in turn */
	_Alignas(64) atomic_int stop;		/* written by the main thread */
	sem_t go;		/* posted by the main thread: a sample, or stop */
	int cpu_b;
	atomic_int pinned;			/* written by the echo thread, once */
};

/* pin_self - run the calling thread on CPU only; returns 0 or -errno */
static int
pin_self(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return -pthread_setaffinity_np(pthread_self(), sizeof(s), &s);
}

/* now_ns - the monotonic clock in ns */
static uint64_t
now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/*
 * echo - the second CPU's side: during a sample (from p->go until the
 * line is 0 again) answers each odd value with the next one; between
 * samples it blocks, and takes nothing from the forwarder's CPU.
 * Returns NULL.
 */
static void *
echo(void *arg)
{
	struct probe *p = arg;
	uint_fast64_t v;

	atomic_store(&p->pinned, pin_self(p->cpu_b) == 0 ? 1 : -1);
	for (;;) {
		while (sem_wait(&p->go) != 0)
			;	/* EINTR */
		if (atomic_load(&p->stop))
			return NULL;
		while ((v = atomic_load_explicit(&p->line, memory_order_acquire)) != 0)
			if (v & 1)
				atomic_store_explicit(&p->line, v + 1, memory_order_release);
	}
}

/* cmp_u64 - qsort's order of two uint64_t */
static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * sample - one sample: BATCHES batches of TRIPS round trips through
 * p->line; returns the median batch's ns per round trip
 */
static uint64_t
sample(struct probe *p)
{
	uint64_t b[BATCHES], t0;
	uint_fast64_t v = 2;
	int i, j;

	/* wake the echo thread: it answers 1 with 2 */
	atomic_store_explicit(&p->line, 1, memory_order_release);
	sem_post(&p->go);
	while (atomic_load_explicit(&p->line, memory_order_acquire) != 2)
		;
	for (i = 0; i < BATCHES; i++) {
		t0 = now_ns();
		for (j = 0; j < TRIPS; j++) {
			atomic_store_explicit(&p->line, v + 1, memory_order_release);
			while (atomic_load_explicit(&p->line, memory_order_acquire) != v + 2)
				;
			v += 2;
		}
		b[i] = (now_ns() - t0) / TRIPS;
	}
	atomic_store_explicit(&p->line, 0, memory_order_release);
	qsort(b, BATCHES, sizeof(b[0]), cmp_u64);
	return b[BATCHES / 2];
}

/* usage - the message for a bad argument; exits 2 */
static void
usage(const char *why)
{
	fprintf(stderr, "xccorelat: %s\n"
		"usage: xccorelat [--cpus A,B] [--seconds S] [--every-ms M] [--far-ns F]\n", why);
	exit(2);
}

/* number - argument ARG as an integer in [lo, hi], or usage() */
static long
number(const char *opt, const char *arg, long lo, long hi)
{
	char *end;
	long v;

	if (!arg)
		usage("an option lacks its value");
	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < lo || v > hi) {
		fprintf(stderr, "xccorelat: %s %s: not a number from %ld to %ld\n", opt, arg, lo, hi);
		exit(2);
	}
	return v;
}

int
main(int argc, char **argv)
{
	static uint64_t s[MAX_SAMPLES];
	long secs = 5, every = 100, far_ns = 200, cpu_a = 0, n = 0, far = 0, i;
	struct probe p = { .cpu_b = 1 };
	pthread_t t;
	uint64_t end;
	char *comma;

	for (i = 1; i < argc; i += 2) {	/* each option and its value */
		const char *o = argv[i], *v = argv[i + 1];

		if (!strcmp(o, "--cpus")) {
			if (!v || !(comma = strchr(v, ',')))
				usage("--cpus wants A,B");
			*comma = '\0';
			cpu_a = number(o, v, 0, CPU_SETSIZE - 1);
			p.cpu_b = (int)number(o, comma + 1, 0, CPU_SETSIZE - 1);
			if (cpu_a == p.cpu_b)
				usage("--cpus: two different CPUs");
		} else if (!strcmp(o, "--seconds")) {
			secs = number(o, v, 1, 86400);
		} else if (!strcmp(o, "--every-ms")) {
			every = number(o, v, 1, 60000);
		} else if (!strcmp(o, "--far-ns")) {
			far_ns = number(o, v, 1, 1000000);
		} else {
			usage("unknown argument");
		}
	}
	if (pin_self((int)cpu_a) < 0) {
		fprintf(stderr, "xccorelat: cannot run on CPU %ld\n", cpu_a);
		return 1;
	}
	if (sem_init(&p.go, 0, 0) != 0 || pthread_create(&t, NULL, echo, &p)) {
		fprintf(stderr, "xccorelat: no thread\n");
		return 1;
	}
	while (!atomic_load(&p.pinned))
		usleep(100);
	if (atomic_load(&p.pinned) < 0) {
		atomic_store(&p.stop, 1);
		sem_post(&p.go);
		pthread_join(t, NULL);
		fprintf(stderr, "xccorelat: cannot run on CPU %d\n", p.cpu_b);
		return 1;
	}
	end = now_ns() + (uint64_t)secs * 1000000000u;
	while (now_ns() < end && n < MAX_SAMPLES) {
		s[n] = sample(&p);
		far += s[n] > (uint64_t)far_ns;
		n++;
		usleep((useconds_t)every * 1000);
	}
	atomic_store(&p.stop, 1);
	sem_post(&p.go);
	pthread_join(t, NULL);
	qsort(s, (size_t)n, sizeof(s[0]), cmp_u64);
	printf("corelat cpus %ld,%d samples %ld p10 %lu p50 %lu p90 %lu far-ns %ld far %ld\n", cpu_a,
	       p.cpu_b, n, (unsigned long)s[n / 10], (unsigned long)s[n / 2],
	       (unsigned long)s[n * 9 / 10], far_ns, n ? far * 100 / n : 0);
	return 0;
}
