# shellcheck shell=bash
# SPDX-License-Identifier: BSD-3-Clause
# scripts/scale-lib.sh - what the scale test (tests/t_scale.sh) and the
# scale benchmark (scripts/bench-scale) both measure with (sourced)

# scale_ini FILE N [PREFIX] - a config of N socket-to-socket cables
# PREFIX0..PREFIX(N-1), sockets $T/PREFIXi-l.sock and -r.sock
scale_ini() {
	local f=$1 n=$2 p=${3:-c} i
	printf '[global]\nstats-interval = 0\n' >"$f"
	for ((i = 0; i < n; i++)); do
		printf '[cable %s%d]\nleft = %s/%s%d-l.sock\nright = %s/%s%d-r.sock\n' \
			"$p" "$i" "$T" "$p" "$i" "$T" "$p" "$i" >>"$f"
	done
}

# ms - the time now, in milliseconds
ms() { date +%s%3N; }

# socks_up DIR PREFIX - how many sockets DIR/PREFIX*-l.sock, -r.sock exist
socks_up() { find "$1" -maxdepth 1 -name "$2*-[lr].sock" | wc -l; }

# tree_pids PID - PID and every process below it
tree_pids() {
	local c
	echo "$1"
	for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do tree_pids "$c"; done
}

# tree_kb PID - memory of PID's tree, kB: the proportional set size (Pss:
# a page shared by k processes counts 1/k in each, so the DPDK libraries
# every worker maps, and the guests' memory the frontends share, count
# once; summed resident sizes would count them once per process) plus
# the hugepages each took itself (Private_Hugetlb: guest memory it maps
# is the guests'); then the same with resident sizes (Rss), for reference
tree_kb() {
	local p pss=0 rss=0 a b h
	for p in $(tree_pids "$1"); do
		read -r a b < <(awk '/^Pss:/ {p = $2} /^Rss:/ {r = $2} END {print p + 0, r + 0}' /proc/"$p"/smaps_rollup 2>/dev/null)
		h=$(awk '/^Private_Hugetlb/ {s += $2} END {print s + 0}' /proc/"$p"/smaps 2>/dev/null)
		pss=$((pss + ${a:-0} + ${h:-0})) rss=$((rss + ${b:-0} + ${h:-0}))
	done
	echo "$pss $rss"
}

# tree_ticks PID - CPU time (user + system) of PID's tree so far, in ticks
tree_ticks() {
	local p
	for p in $(tree_pids "$1"); do
		sed 's/.*) //' /proc/"$p"/stat 2>/dev/null
	done | awk '{s += $12 + $13} END {print s + 0}'
}

# tree_ns PID - CPU time of PID's tree so far, in nanoseconds, from each
# thread's schedstat (exact, where clock ticks would be whole 10 ms
# samples)
tree_ns() {
	local p
	for p in $(tree_pids "$1"); do
		cat /proc/"$p"/task/*/schedstat 2>/dev/null
	done | awk '{s += $1} END {printf "%.0f\n", s}'
}

# tree_threads PID - one line per thread of PID's tree, sorted by thread
# id: the id, its name, its context switches so far and its CPU time so
# far in nanoseconds
tree_threads() {
	local p t c
	for p in $(tree_pids "$1"); do
		for t in /proc/"$p"/task/*; do
			c=$({ tr ' ' _ <"$t"/comm; } 2>/dev/null) || continue
			printf '%s %s %s %s\n' "${t##*/}" "$c" \
				"$(awk '/^(non)?voluntary_ctxt/ {s += $2} END {print s + 0}' "$t"/status 2>/dev/null)" \
				"$(cut -d' ' -f1 "$t"/schedstat 2>/dev/null)"
		done
	done | sort -k1,1
}

# steal_ticks - ticks the hypervisor took from this machine's CPUs so far
steal_ticks() { awk '/^cpu / {print $9}' /proc/stat; }

# idle_breakdown PID SECONDS - where PID's tree spends its idle CPU: per
# thread name, the threads, their wakes a second and their CPU in 1/1000
# of a core, over SECONDS; then the machine's steal time over the same
# SECONDS (a host that takes the CPUs away makes every wake dearer)
idle_breakdown() {
	local a b s0 s1
	a=$(tree_threads "$1"); s0=$(steal_ticks)
	sleep "$2"
	b=$(tree_threads "$1"); s1=$(steal_ticks)
	join <(echo "$a") <(echo "$b") 2>/dev/null |
		awk -v s="$2" '{n[$2]++; w[$2] += $6 - $3; c[$2] += $7 - $4}
		     END {for (k in n) printf "%s: %d thread(s), %.1f wakes/s, %.1f permille; ", k, n[k], w[k] / s, c[k] / s / 1e6}'
	echo "machine steal $(( (s1 - s0) * 1000 / ($(getconf CLK_TCK) * $2) )) permille"
}

# idle_permille PID SECONDS - CPU of PID's tree over SECONDS, in 1/1000
# of a core
idle_permille() {
	local c0 c1
	c0=$(tree_ns "$1")
	sleep "$2"
	c1=$(tree_ns "$1")
	echo $(( (c1 - c0) / ($2 * 1000000) ))
}

# scale_start LOG N PREFIX CMD... - start CMD (output to LOG), which
# serves N cables on sockets $T/PREFIX*-l.sock and -r.sock, and wait until
# every socket exists: its pid in SCALE_PID, the wait in SCALE_LISTEN_MS.
# Returns 1 (said on stderr) if CMD exits first or 60 s pass.
scale_start() {
	local log=$1 n=$2 p=$3 t0
	shift 3
	t0=$(ms)
	"$@" >"$log" 2>&1 &
	SCALE_PID=$!
	until [ "$(socks_up "$T" "$p")" -ge $((2 * n)) ]; do
		if ! kill -0 "$SCALE_PID" 2>/dev/null; then
			echo "it exited before its sockets listened: $(tail -1 "$log")" >&2
			return 1
		fi
		[ $(($(ms) - t0)) -lt 60000 ] || { echo "not every socket listens after 60 s" >&2; return 1; }
		sleep 0.05
	done
	SCALE_LISTEN_MS=$(($(ms) - t0))
}

# scale_stop PID - SIGTERM PID (a child of this shell) and wait for it,
# SIGKILL after 30 s: the time it took in STOP_MS, its status in STOP_CODE
scale_stop() {
	local t0
	t0=$(ms)
	kill -TERM "$1"
	while kill -0 "$1" 2>/dev/null && [ $(($(ms) - t0)) -lt 30000 ]; do sleep 0.02; done
	STOP_MS=$(($(ms) - t0))
	kill -0 "$1" 2>/dev/null && kill -KILL "$1"
	STOP_CODE=0
	wait "$1" || STOP_CODE=$?
}

# attached_ms FILE - how long xcfront (its output in FILE) took to attach
attached_ms() { sed -nE 's/^xcfront: attached .* in ([0-9]+) ms$/\1/p' "$1"; }
