# SPDX-License-Identifier: BSD-3-Clause
# tests/t_scale.sh - many cables in one process: the port limit, cables
# added and removed at runtime
# (sourced by tests/run; each t_* function is one test)

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

t_port_limit() {
	local n
	# 17 socket-to-socket cables need 34 ports: more than DPDK's 32
	scale_ini over.ini 17
	expect_usage "17 cables" "cable c16: the cables need 34 DPDK ports.*at most 32 (RTE_MAX_ETHPORTS).*run one xcable for each" \
		--config over.ini || return 1
	ls "$T"/*.sock >/dev/null 2>&1 && { fail "sockets were created before the limit was checked"; return 1; }
	say "no socket was created"
	# 16 fit: every socket listens
	scale_ini fit.ini 16
	xc_start xc.log --config fit.ini
	wait_log xc.log "running;" 1 30 || { cat xc.log; fail "16 cables did not start"; return 1; }
	n=$(ls "$T"/c*-?.sock | wc -l)
	xc_stop
	say "16 cables: $n sockets, exit $XC_RC"
	[ "$n" = 32 ] && [ "$XC_RC" = 0 ] || { fail "expected 32 sockets and exit 0"; return 1; }
}
TESTS+=(t_port_limit)
