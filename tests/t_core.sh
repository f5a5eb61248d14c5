# SPDX-License-Identifier: BSD-3-Clause
# tests/t_core.sh - the core cable: frames, backpressure, life cycle, errors
# (sourced by tests/run; each t_* function is one test)

# run_frames XCLOG SOCK_A SOCK_B UPS [ROUNDS [GAP_US]] - once xcable logged UPS
# "link up" lines after the peer connects, send the frame catalogue through
# sockets A and B both ways; frames per direction in $FRAMES_N; with
# PEER_RECORD=P the frames sent from A and B are in P-0.pcap and P-1.pcap
run_frames() {
	local log=$1 a=$2 b=$3 ups=$4 rounds=${5:-2} gap=${6:-0} pp prc
	rm -f "$T/go"
	"$XCPEER" $(peer_eal "$a" "$b") -- frames --rounds "$rounds" --gap-us "$gap" \
		${PEER_RECORD:+--record "$PEER_RECORD"} \
		--wait-file "$T/go" >"$T/peer.log" 2>&1 &
	pp=$!
	wait_log "$log" "link up" "$ups" 30 || { kill $pp; fail "xcable never saw both frontends"; return 1; }
	touch "$T/go"
	wait $pp; prc=$?
	grep -E '^FAIL' "$T/peer.log" | head -n 5 | sed 's/^/  peer: /'
	grep -E 'catalogue' "$T/peer.log" | sed 's/^/  peer: /'
	if [ $prc != 0 ]; then
		grep -qE '^FAIL' "$T/peer.log" &&
			{ fail "frontend saw missing or altered frames"; return 1; }
		tail -n 5 "$T/peer.log" | sed 's/^/  peer: /'
		fail "frontend failed with exit status $prc"
		return 1
	fi
	FRAMES_N=$(( $(sed -nE 's/.*catalogue: ([0-9]+) frames.*/\1/p' "$T/peer.log") / 2 ))
}

t_unit_options() {
	"$BUILD/tests/test_options" --man "$TOP/doc/xcable.1" "$TOP"/config/*.ini >opts.log; local rc=$?
	say "$(grep -c '^ok' opts.log) parser, socket-path and config checks passed, $(grep -c '^FAIL' opts.log) failed"
	grep FAIL opts.log
	return $rc
}
TESTS+=(t_unit_options)

t_frames_simple_mode() {
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	run_frames xc.log "$T/l.sock" "$T/r.sock" 2 || return 1
	xc_stop
	say "xcable exited with $XC_RC on SIGTERM"
	[ "$XC_RC" = 0 ] || { fail "exit status $XC_RC"; return 1; }
	check_dir_clean xc.log "cable0 left->right" "$FRAMES_N" || return 1
	check_dir_clean xc.log "cable0 right->left" "$FRAMES_N" || return 1
	[ ! -e "$T/l.sock" ] && [ ! -e "$T/r.sock" ] || { fail "socket files left behind"; return 1; }
	say "socket files removed at exit"
}
TESTS+=(t_frames_simple_mode)

t_frames_dpdk_mode() {
	xc_start xc.log -l 0-1 --no-pci --no-huge -m 256 --no-shconf \
		--file-prefix "xct$$" \
		--vdev "net_vhost0,iface=$T/a.sock" --vdev "net_vhost1,iface=$T/b.sock" -- \
		--stats-interval 1
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	say "started the DPDK way, without hugepages (--no-huge)"
	run_frames xc.log "$T/a.sock" "$T/b.sock" 2 || return 1
	wait_log xc.log "^xcable: counters" 2 5 || { fail "no periodic counters with --stats-interval 1"; return 1; }
	say "periodic counters printed with --stats-interval 1"
	xc_stop
	check_dir_clean xc.log "cable0 net_vhost0->net_vhost1" "$FRAMES_N" || return 1
	check_dir_clean xc.log "cable0 net_vhost1->net_vhost0" "$FRAMES_N"
}
TESTS+=(t_frames_dpdk_mode)

# as dpdk-testpmd is run: EAL options only, no "--"
t_frames_dpdk_mode_no_separator() {
	xc_start xc.log -l 0-1 --no-pci --no-huge -m 256 --no-shconf \
		--file-prefix "xct$$" \
		--vdev "net_vhost0,iface=$T/a.sock" --vdev "net_vhost1,iface=$T/b.sock"
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	say "started with EAL options only, without '--'"
	run_frames xc.log "$T/a.sock" "$T/b.sock" 2 || return 1
	# no '--', so no --stats-json: the counters come from xcablectl's
	# JSON once every frame has arrived
	"$BUILD/app/xcablectl" -p "xct$$" list --json >"$(stats_json xc.log)" ||
		{ fail "xcablectl list --json failed"; return 1; }
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "exit status $XC_RC"; return 1; }
	check_dir_clean xc.log "cable0 net_vhost0->net_vhost1" "$FRAMES_N" || return 1
	check_dir_clean xc.log "cable0 net_vhost1->net_vhost0" "$FRAMES_N"
}
TESTS+=(t_frames_dpdk_mode_no_separator)

t_cable_option_pairs() {
	# four ports; --cable 0:3 --cable 2:1; traffic through 0<->3 and 2<->1
	xc_start xc.log -l 0-1 --no-pci --no-huge -m 512 --no-shconf --file-prefix "xct$$" \
		--vdev "net_vhost0,iface=$T/p0.sock" --vdev "net_vhost1,iface=$T/p1.sock" \
		--vdev "net_vhost2,iface=$T/p2.sock" --vdev "net_vhost3,iface=$T/p3.sock" -- \
		--cable 0:3 --cable 2:1
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	run_frames xc.log "$T/p0.sock" "$T/p3.sock" 2 1 || return 1
	say "cable0 (ports 0:3) carried the catalogue"
	run_frames xc.log "$T/p2.sock" "$T/p1.sock" 4 1 || return 1
	say "cable1 (ports 2:1) carried the catalogue"
	xc_stop
	check_dir_clean xc.log "cable0 net_vhost0->net_vhost3" "$FRAMES_N" || return 1
	check_dir_clean xc.log "cable1 net_vhost2->net_vhost1" "$FRAMES_N" || return 1
	check_dir_clean xc.log "cable1 net_vhost1->net_vhost2" "$FRAMES_N"
}
TESTS+=(t_cable_option_pairs)

t_backpressure_no_loss() {
	local pp prc
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	"$XCPEER" $(peer_eal "$T/l.sock" "$T/r.sock") -- backpressure \
		--count 50000 --stall-ms 3000 --wait-file "$T/go" >peer.log 2>&1 &
	pp=$!
	wait_log xc.log "link up" 2 30 || { fail "links not up"; return 1; }
	touch "$T/go"
	wait $pp; prc=$?
	grep -E '^(ok|FAIL)' peer.log | sed 's/^/  peer: /'
	[ $prc = 0 ] || { fail "frames lost, reordered or damaged under backpressure"; return 1; }
	xc_stop
	check_dir_clean xc.log "cable0 left->right" 50000
}
TESTS+=(t_backpressure_no_loss)

# stream_peer OUT SOCK ID SECONDS [server] - one frontend sending 2000 pps;
# with STREAM_WAIT=FILE it starts only once FILE exists (after its link)
stream_peer() {
	local vdev=$2
	[ "${5:-}" = server ] && vdev="$2,server=1"
	"$XCPEER" $(peer_eal "$vdev") -- stream --id "$3" --pps 2000 --seconds "$4" \
		${STREAM_WAIT:+--wait-file "$STREAM_WAIT"} >"$1" 2>&1
}

# received_from OUT ID - frames a stream peer received from stream ID
received_from() { sed -nE "s/^received-from $2 ([0-9]+)/\1/p" "$1" | tail -n 1; }

t_frontend_restart() {
	local lp r1 r2 sent rx tx dr pd
	# the frontends do not reconnect: the left one must keep its link
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --no-link-propagation
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	stream_peer left.out "$T/l.sock" 1 16 & lp=$!
	wait_log xc.log "link up" 1 20 || { fail "left never came up"; return 1; }
	stream_peer right1.out "$T/r.sock" 2 4
	wait_log xc.log "right.*link down" 1 10 || { fail "xcable missed right going away"; return 1; }
	sleep 1
	kill -0 "$XC_PID" || { fail "xcable died when the right frontend left"; return 1; }
	say "right frontend left; xcable still running"
	stream_peer right2.out "$T/r.sock" 3 4
	wait $lp
	r1=$(received_from right1.out 1); r2=$(received_from right2.out 1)
	say "right, first run: received ${r1:-0} frames from left; second run: ${r2:-0}"
	say "left received $(received_from left.out 2) from the first right run, $(received_from left.out 3) from the second"
	[ "${r1:-0}" -gt 1000 ] && [ "${r2:-0}" -gt 1000 ] || { fail "left->right did not resume"; return 1; }
	[ "$(received_from left.out 3)" -gt 1000 ] || { fail "right->left did not resume"; return 1; }
	sleep 0.5
	xc_stop
	sent=$(sed -nE 's/^sent ([0-9]+)/\1/p' left.out)
	rx=$(counter xc.log "cable0 left->right" rx-pkts); tx=$(counter xc.log "cable0 left->right" tx-pkts)
	dr=$(counter xc.log "cable0 left->right" dropped); pd=$(counter xc.log "cable0 left->right" peer-down)
	say "left sent $sent; xcable: rx $rx = tx $tx + dropped $dr (peer-down $pd)"
	[ "$sent" = "$rx" ] || { fail "xcable did not receive every frame left sent"; return 1; }
	[ "$rx" = $((tx + dr)) ] && [ "$dr" = "$pd" ] && [ "$pd" -gt 0 ] ||
		{ fail "drops not accounted as peer-down"; return 1; }
}
TESTS+=(t_frontend_restart)
ONCE+=(t_frontend_restart)	# CI time: t_hostile_connect_cycles reconnects under the sanitizers

t_client_mode() {
	local lp rp
	# the frontends listen (like QEMU with server=on); xcable connects
	stream_peer left.out "$T/l.sock" 1 12 server & lp=$!
	stream_peer right.out "$T/r.sock" 2 12 server & rp=$!
	sleep 1
	xc_start xc.log --client --left "$T/l.sock" --right "$T/r.sock" --no-link-propagation
	# each end by name, not two "link up" lines (which one end logged
	# alone until update_link logged a client end once)
	wait_ends_up xc.log 20 left right || { cat xc.log; fail "xcable --client did not connect"; return 1; }
	wait $lp $rp
	say "left received $(received_from left.out 2) frames, right $(received_from right.out 1)"
	[ "$(received_from left.out 2)" -gt 1000 ] && [ "$(received_from right.out 1)" -gt 1000 ] ||
		{ fail "no traffic in client mode"; return 1; }
	# the listening side restarts: xcable reconnects by itself
	stream_peer left2.out "$T/l.sock" 3 8 server & lp=$!
	stream_peer right2.out "$T/r.sock" 4 8 server & rp=$!
	wait $lp $rp
	say "after both frontends restarted: left received $(received_from left2.out 4), right $(received_from right2.out 3)"
	[ "$(received_from left2.out 4)" -gt 1000 ] && [ "$(received_from right2.out 3)" -gt 1000 ] ||
		{ fail "xcable --client did not reconnect"; return 1; }
	kill -0 "$XC_PID" || { fail "xcable died"; return 1; }
	xc_stop
	[ "$XC_RC" = 0 ]
}
TESTS+=(t_client_mode)
ONCE+=(t_client_mode)	# CI time: the socket-client row of t_change_matrix runs under the sanitizers

t_no_hugepages_needed() {
	local saved
	saved=$(cat /proc/sys/vm/nr_hugepages)
	echo 0 >/proc/sys/vm/nr_hugepages
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc.log "running;" 1 20; local up=$?
	echo "$saved" >/proc/sys/vm/nr_hugepages
	[ $up = 0 ] || { cat xc.log; fail "xcable did not start without hugepages"; return 1; }
	grep -q -- "--no-huge" xc.log || { fail "simple mode did not pick --no-huge"; return 1; }
	say "with no hugepages reserved, simple mode started with --no-huge"
	ensure_hugepages 256 || { fail "cannot reserve hugepages for the frontends"; return 1; }
	run_frames xc.log "$T/l.sock" "$T/r.sock" 2 1 || return 1
	xc_stop
	check_dir_clean xc.log "cable0 left->right" "$FRAMES_N"
}
TESTS+=(t_no_hugepages_needed)

# expect_usage NAME PATTERN ARGS... - xcable must exit 2 saying PATTERN
expect_usage() {
	local name=$1 pat=$2 rc; shift 2
	timeout 30 "$XC" "$@" >out.txt 2>&1; rc=$?
	if [ $rc = 2 ] && grep -q -- "$pat" out.txt; then
		say "$name: exit 2, \"$(grep -m1 -- "$pat" out.txt)\""
		return 0
	fi
	fail "$name: exit $rc, output: $(tail -n 3 out.txt)"
}

t_usage_errors() {
	local ok=0
	expect_usage "queues out of range" "--queues '0': expected a number of queue pairs from 1 to 8" --left "$T/a" --right "$T/b" --queues 0 || ok=1
	expect_usage "no-offloads with a value" "option --no-offloads takes no value" --left "$T/a" --right "$T/b" --no-offloads=yes || ok=1
	expect_usage "unknown option" "unknown option '--bogus'" --bogus || ok=1
	expect_usage "no arguments" "nothing to connect" || ok=1
	expect_usage "left without right" "the right end is missing: give one of --right" --left "$T/a.sock" || ok=1
	expect_usage "missing value" "needs a value" --left || ok=1
	expect_usage "bad stats interval" "stats-interval" --left "$T/a" --right "$T/b" --stats-interval x || ok=1
	expect_usage "missing directory" "No such file or directory" --left /nonexistent/a.sock --right "$T/b.sock" || ok=1
	expect_usage "path too long" "limit" --left "/tmp/$(printf 'x%.0s' {1..120})" --right "$T/b" || ok=1
	expect_usage "odd number of ports" "3 ports cannot be paired" -l 0 --no-pci --no-huge -m 256 --no-shconf \
		--vdev "net_vhost0,iface=$T/0.sock" --vdev "net_vhost1,iface=$T/1.sock" \
		--vdev "net_vhost2,iface=$T/2.sock" -- || ok=1
	expect_usage "no ports" "no ports" -l 0 --no-pci --no-huge -m 256 --no-shconf -- || ok=1
	expect_usage "cable to a missing port" "there is no port 7" -l 0 --no-pci --no-huge -m 256 --no-shconf \
		--vdev "net_vhost0,iface=$T/0.sock" --vdev "net_vhost1,iface=$T/1.sock" -- --cable 0:7 || ok=1
	expect_usage "port on two cables" "two cables" -l 0 --no-pci --no-huge -m 256 --no-shconf \
		--vdev "net_vhost0,iface=$T/0.sock" --vdev "net_vhost1,iface=$T/1.sock" -- --cable 0:1 --cable 1:0 || ok=1
	expect_usage "bad EAL option" "cannot start DPDK.s EAL" --no-such-eal-option -- --cable 0:1 || ok=1
	expect_usage "too many EAL arguments" "too many EAL arguments" $(printf -- '-v %.0s' {1..200}) -- || ok=1
	expect_usage "too many EAL arguments, simple mode" "too many EAL arguments" $(printf -- '-v %.0s' {1..200}) -- --left "$T/a" --right "$T/b" || ok=1
	# DPDK mode without "--" (as dpdk-testpmd is run): EAL options alone
	# work; mixed with xcable's, the message names the argument and the order
	expect_usage "EAL options alone, odd number of ports" "3 ports cannot be paired" -l 0 --no-pci --no-huge -m 256 --no-shconf \
		--vdev "net_vhost0,iface=$T/0.sock" --vdev "net_vhost1,iface=$T/1.sock" \
		--vdev "net_vhost2,iface=$T/2.sock" || ok=1
	expect_usage "xcable option before EAL options" \
		"'-l' is an EAL option, after xcable's '--stats-interval': EAL options go first, then '--', then xcable's: xcable -l 0 --no-pci -- --stats-interval 1" \
		--stats-interval 1 -l 0 --no-pci || ok=1
	expect_usage "xcable option after EAL options" \
		"'--cable' is xcable's option, after EAL options: end the EAL options with '--': xcable -l 0 --no-pci -- --cable 0:1" \
		-l 0 --no-pci --cable 0:1 || ok=1
	expect_usage "xcable option before --" "'--poll' is xcable's option: it goes after '--'" -l 0 --poll -- --cable 0:1 || ok=1
	expect_usage "EAL option after --" "'--vdev' is an EAL option: EAL options go before '--'" -l 0 -- --vdev "net_vhost0,iface=$T/0.sock" || ok=1
	expect_usage "stray word among EAL options" "unexpected argument 'left.sock'" -l 0 --no-pci left.sock || ok=1
	touch "$T/file.sock"
	expect_usage "regular file in the way" "not a socket" --left "$T/file.sock" --right "$T/b.sock" || ok=1
	[ -e "$T/file.sock" ] || { fail "a regular file was removed"; ok=1; }
	return $ok
}
TESTS+=(t_usage_errors)

t_socket_in_use_and_stale() {
	local first_pid
	xc_start xc1.log --left "$T/l.sock" --right "$T/r.sock"
	first_pid=$XC_PID
	wait_log xc1.log "running;" 1 20 || { fail "first xcable did not start"; return 1; }
	expect_usage "socket served by another xcable" "in use by another process" \
		--left "$T/l.sock" --right "$T/other.sock" || return 1
	kill -0 $first_pid && [ -S "$T/l.sock" ] || { fail "the first xcable or its socket was disturbed"; return 1; }
	run_frames xc1.log "$T/l.sock" "$T/r.sock" 2 1 || return 1
	say "the first xcable still forwards"
	# a crash leaves stale socket files: a new xcable replaces them
	kill -KILL $first_pid; wait $first_pid 2>/dev/null
	[ -S "$T/l.sock" ] || { fail "expected a stale socket after SIGKILL"; return 1; }
	xc_start xc2.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc2.log "running;" 1 20 || { cat xc2.log; fail "stale socket was not replaced"; return 1; }
	say "stale sockets from a killed xcable were replaced"
	run_frames xc2.log "$T/l.sock" "$T/r.sock" 2 1
}
TESTS+=(t_socket_in_use_and_stale)
