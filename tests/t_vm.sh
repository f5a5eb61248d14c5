# SPDX-License-Identifier: BSD-3-Clause
# tests/t_vm.sh - real QEMU guests (Linux virtio-net) through xcable
# (sourced by tests/run; each t_* function is one test). The guests boot
# under TCG from scripts/mkguest's kernel and initramfs; their only NIC is
# a vhost-user virtio-net on xcable's socket (-nodefaults: nothing else).

A_MAC=52:54:00:00:00:0a
B_MAC=52:54:00:00:00:0b

# vm_prepare - build the guest if needed
vm_prepare() {
	command -v qemu-system-x86_64 >/dev/null || { fail "qemu-system-x86_64 is not installed"; return 1; }
	[ -x "$TOP/build/tests/l2frames" ] || { fail "build/tests/l2frames missing"; return 1; }
	BUILD=$TOP/build "$TOP/scripts/mkguest" "$TOP/build" >/dev/null || { fail "mkguest failed"; return 1; }
	GUEST_BUILD=$TOP/build
}

# wait_console NAME PATTERN SECONDS - wait for a line on a guest console
wait_console() {
	local i
	for ((i = 0; i < $3 * 2; i++)); do
		grep -q -- "$2" "$1.console" 2>/dev/null && return 0
		sleep 0.5
	done
	return 1
}

# boot VMNAME SOCK MAC ARGS [CHARDEV] [DEV] - vm_start with the guest built
boot() { BUILD=$GUEST_BUILD vm_start "$@"; }

# section_ok VM NAME - a guest section ended with rc=0; show its key lines
section_ok() {
	local rc
	rc=$(vm_rc "$1" "$2")
	[ "$rc" = 0 ] || { fail "$1: $2 ended with rc='$rc'"; vm_result "$1" "$2" | tail -n 8 | sed 's/^/    /'; return 1; }
}

# last_ping VM ok|fail - number of the last successful or failed ping
last_ping() { sed -nE "s/^XC-PING ([0-9]+) $2.*/\1/p" "$1.console" | tail -n 1; }

# start_ping_pair - xcable, VM B idle and VM A pinging B through the cable
start_ping_pair() {
	vm_prepare || return 1
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	boot b "$T/r.sock" $B_MAC "xc.role=idle xc.ip=10.0.0.2/24"
	boot a "$T/l.sock" $A_MAC "xc.role=pinger xc.ip=10.0.0.1/24 xc.peer=10.0.0.2"
	wait_console a "XC-PING .* ok" 120 || { fail "A never reached B"; return 1; }
	say "A pings B through xcable"
}

# wait_ping_after N SECONDS - wait for one of A's pings after ping N to
# succeed; its number in $PING_OK
wait_ping_after() {
	local i
	for ((i = 0; i < $2 * 2; i++)); do
		PING_OK=$(last_ping a ok)
		[ -n "$PING_OK" ] && [ "$PING_OK" -gt "$1" ] && return 0
		sleep 0.5
	done
	return 1
}

# report_traffic - guest A reached B, pinged it and ran iperf3 both ways:
# each section must have passed; rates and retransmits are printed
report_traffic() {
	local d r
	section_ok a reach && section_ok a ping || return 1
	say "ping A->B: $(vm_result a ping | grep -E 'packets transmitted')"
	section_ok a iperf-a2b && section_ok a iperf-b2a || return 1
	for d in A2B B2A; do
		r=$(vm_result a "iperf-${d,,}")
		say "iperf3 ${d/2/->}: $(grep -E 'receiver' <<<"$r" | awk '{print $7, $8}'), retransmits $(grep sender <<<"$r" | awk '{print $9}')"
	done
}

# bytes of the verified stream a client guest sends its server after
# iperf3 (xc.vstream): across a wire, its segments reach the server joined
# into TSO frames, and every byte is checked
VSTREAM=30000000

# vstream_ok - guest B got guest A's verified stream, every byte as sent
vstream_ok() {
	wait_console b "XC-END vstream" 120 || { fail "guest B did not report the verified stream"; return 1; }
	section_ok b vstream || return 1
	say "verified stream A->B: $(vm_result b vstream | grep -o 'XC-VERIFY.*' | tr -d '\r')"
}

# coalesced_ok LOG DIR - direction DIR of xcable's LOG joined a wire's TCP
# segments into TSO frames for its guest, and accounts for every frame
coalesced_ok() {
	local co ci
	co=$(counter "$1" "$2" coalesced); ci=$(counter "$1" "$2" segments-coalesced)
	say "$2: $ci TCP segments joined into $co TSO frames for the guest ($(counter "$1" "$2" rx-pkts) received, $(counter "$1" "$2" tx-pkts) sent)"
	[ "${co:-0}" -gt 0 ] && [ "$ci" -gt "$co" ] || { fail "no segments were joined for the guest"; return 1; }
	check_accounted "$1" 2 || { fail "frames not accounted for"; return 1; }
}

t_vm_basic_traffic() {
	vm_prepare || return 1
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	boot b "$T/r.sock" $B_MAC "xc.role=server xc.ip=10.0.0.2/24"
	boot a "$T/l.sock" $A_MAC "xc.role=client xc.ip=10.0.0.1/24 xc.peer=10.0.0.2 xc.secs=4"
	wait_console a XC-DONE 240 || { tail -n 20 a.console; fail "guest A did not finish"; return 1; }
	wait_console b "XC-END l2recv" 30 || { fail "guest B did not report the L2 frames"; return 1; }
	report_traffic || return 1
	section_ok b l2recv && section_ok a l2recv || return 1
	say "L2 from A to B: $(vm_result b l2recv | grep 'byte for byte' | tr -d '\r')"
	say "L2 from B to A: $(vm_result a l2recv | grep 'byte for byte' | tr -d '\r')"
	kill "${VM_PID[b]}"
	xc_stop
	local d rx tx pd
	for d in "left->right" "right->left"; do
		rx=$(counter xc.log "cable0 $d" rx-pkts); tx=$(counter xc.log "cable0 $d" tx-pkts)
		pd=$(counter xc.log "cable0 $d" peer-down)
		say "xcable $d: rx $rx, tx $tx, peer-down $pd (frames sent while the other VM was not up)"
		[ "$rx" = $((tx + pd + $(counter xc.log "cable0 $d" shutdown))) ] || { fail "counters do not add up"; return 1; }
	done
}
TESTS+=(t_vm_basic_traffic)
SLOW_ONCE+=(t_vm_basic_traffic)	# the frontend tests run its paths on both builds

t_vm_one_restarts() {
	local before
	start_ping_pair || return 1
	kill -KILL "${VM_PID[b]}"; wait "${VM_PID[b]}" 2>/dev/null
	wait_console a "XC-PING .* fail" 30 || { fail "pings kept working with B dead?"; return 1; }
	before=$(last_ping a fail)
	say "B killed: A's ping $before failed"
	mv b.console b1.console
	boot b "$T/r.sock" $B_MAC "xc.role=idle xc.ip=10.0.0.2/24"
	wait_ping_after "$before" 120 || { fail "traffic did not resume after B rebooted"; return 1; }
	say "B booted again: A's ping $PING_OK succeeded"
	kill -0 "$XC_PID" && [ "$(grep -c 'running;' xc.log)" = 1 ] || { fail "xcable restarted or died"; return 1; }
	say "xcable ran throughout (one start, pid $XC_PID)"
}
TESTS+=(t_vm_one_restarts)
SLOW_ONCE+=(t_vm_one_restarts)	# the frontend tests run its paths on both builds

t_vm_xcable_restarts() {
	local before
	start_ping_pair || return 1
	kill -KILL "$XC_PID"; wait "$XC_PID" 2>/dev/null
	wait_console a "XC-PING .* fail" 30 || { fail "pings kept working without xcable?"; return 1; }
	before=$(last_ping a fail)
	say "xcable killed (SIGKILL): A's ping $before failed"
	xc_start xc2.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc2.log "running;" 1 20 || { cat xc2.log; fail "xcable did not start again over its stale sockets"; return 1; }
	wait_log xc2.log "link up" 2 60 || { fail "the VMs did not reconnect by themselves"; return 1; }
	say "xcable restarted; both VMs (reconnect=1) reconnected by themselves"
	wait_ping_after "$before" 60 || { fail "traffic did not resume"; return 1; }
	say "A's ping $PING_OK succeeded again"
}
TESTS+=(t_vm_xcable_restarts)
SLOW_ONCE+=(t_vm_xcable_restarts)	# the frontend tests run its paths on both builds

# a reload that replaces the cable whole on its sockets (their mode
# changes): the new sockets are bound beside the old ones, take their
# paths once the old cable is gone, and both VMs (reconnect=1) reconnect
# to them by themselves; A's pings go through again
t_vm_reload_replace() {
	local before ups
	vm_prepare || return 1
	printf '[global]\nstats-interval = 0\nsocket-mode = %s\n[cable c]\nleft = %s\nright = %s\n' 0660 "$T/l.sock" "$T/r.sock" >lab.ini
	xc_start xc.log --config lab.ini --control "$T/x.ctl"
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	boot b "$T/r.sock" $B_MAC "xc.role=idle xc.ip=10.0.0.2/24"
	boot a "$T/l.sock" $A_MAC "xc.role=pinger xc.ip=10.0.0.1/24 xc.peer=10.0.0.2"
	wait_console a "XC-PING .* ok" 120 || { fail "A never reached B"; return 1; }
	ups=$(grep -c "link up" xc.log)
	sed -i 's/^socket-mode = 0660/socket-mode = 0600/' lab.ini
	"$XCTL" -s "$T/x.ctl" reload >reload.out 2>&1 || { cat reload.out; fail "the reload failed"; return 1; }
	before=$(last_ping a ok)
	say "reload: $(tail -n 1 reload.out | cut -c1-120)"
	grep -c "c: .*: serves $T/[lr].sock in place of the cable it replaced" xc.log | grep -qx 2 ||
		{ fail "the new sockets did not take the old ones' paths"; return 1; }
	wait_log xc.log "link up" $((ups + 2)) 60 || { fail "the VMs did not reconnect to the new sockets"; return 1; }
	say "both VMs (reconnect=1) reconnected to the new sockets by themselves"
	wait_ping_after "$before" 60 || { fail "traffic did not resume"; return 1; }
	say "A's ping $PING_OK succeeded again (the last before the reload: $before)"
	[ "$(stat -c %a "$T/.l.sock.in-use" 2>/dev/null || stat -c %a "$T/l.sock")" = 600 ] ||
		{ fail "the left socket is not the new one"; return 1; }
	ls -a "$T" | grep -q '\.next$' && { fail "a hidden name was left"; return 1; }
	return 0
}
TESTS+=(t_vm_reload_replace)
SLOW_ONCE+=(t_vm_reload_replace)	# t_change_beside runs it with frontends under the sanitizers

t_vm_client_mode() {
	vm_prepare || return 1
	# QEMU listens on the sockets; xcable connects to them
	boot b "$T/r.sock" $B_MAC "xc.role=idle xc.ip=10.0.0.2/24" "server=on,wait=off"
	boot a "$T/l.sock" $A_MAC "xc.role=pinger xc.ip=10.0.0.1/24 xc.peer=10.0.0.2" "server=on,wait=off"
	sleep 1
	xc_start xc.log --client --left "$T/l.sock" --right "$T/r.sock"
	wait_ends_up xc.log 60 left right || { cat xc.log; fail "xcable --client did not connect"; return 1; }
	wait_console a "XC-PING .* ok" 120 || { fail "A never reached B"; return 1; }
	say "QEMU listening, xcable --client connected: A pings B"
}
TESTS+=(t_vm_client_mode)
SLOW_ONCE+=(t_vm_client_mode)	# the frontend tests run its paths on both builds

t_vm_jumbo() {
	vm_prepare || return 1
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	boot b "$T/r.sock" $B_MAC "xc.role=server xc.ip=10.0.0.2/24 xc.mtu=9000"
	boot a "$T/l.sock" $A_MAC "xc.role=client xc.ip=10.0.0.1/24 xc.peer=10.0.0.2 xc.mtu=9000 xc.secs=2"
	wait_console a "XC-END jumbo" 240 || { tail a.console; fail "guest A did not run the jumbo ping"; return 1; }
	section_ok a jumbo || return 1
	say "MTU 9000: $(vm_result a jumbo | grep 'packets transmitted' | tr -d '\r') with 8972-byte pings"
	vm_result a jumbo | grep -q "8980 bytes from" || { fail "no full-size echo reply seen"; return 1; }
	# Ip: ... ReasmReqds(14) ... FragCreates(19): both 0 on A means the
	# requests left and the replies came back as single 9000-byte frames
	local ip reasm frag
	ip=$(vm_result a jumbo | grep '^Ip: [0-9]' | tail -n 1)
	reasm=$(awk '{print $15}' <<<"$ip"); frag=$(awk '{print $20}' <<<"$ip")
	say "guest A: ReasmReqds $reasm, FragCreates $frag (0 and 0: nothing fragmented)"
	[ "$reasm" = 0 ] && [ "$frag" = 0 ] || { fail "jumbo pings were fragmented"; return 1; }
}
TESTS+=(t_vm_jumbo)
SLOW_ONCE+=(t_vm_jumbo)	# the frontend tests run its paths on both builds

# offloads a QEMU virtio-net device can be told not to negotiate (a guest's
# own ethtool changes never reach a vhost-user backend)
NO_OFFLOADS=csum=off,guest_csum=off,guest_tso4=off,guest_tso6=off,host_tso4=off,host_tso6=off,guest_ecn=off,host_ecn=off,guest_ufo=off,host_ufo=off

# csum_zero LINE - every counter in "tcp=N udp=N udp6=N rx_errors=N" is 0
csum_zero() { [ -n "$1" ] && ! grep -qE '=([1-9][0-9]*)?( |$)' <<<"$1 "; }

t_vm_offload_mismatch() {
	local s rate csa csb
	vm_prepare || return 1
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	# B: a guest whose NIC has every offload off (a BSD firewall, say);
	# A: a Linux guest with all of them; MTU 9000 on both
	boot b "$T/r.sock" $B_MAC "xc.role=server xc.ip=10.0.0.2/24 xc.ip6=fd00::2/64 xc.mtu=9000" reconnect=1 "$NO_OFFLOADS"
	boot a "$T/l.sock" $A_MAC "xc.role=offload xc.ip=10.0.0.1/24 xc.peer=10.0.0.2 xc.ip6=fd00::1/64 xc.peer6=fd00::2 xc.mtu=9000 xc.secs=3"
	wait_console a "XC-DONE" 400 || { tail -n 20 a.console; fail "guest A did not finish"; return 1; }
	say "xcable: A $(grep -o 'left ([^)]*): link up.*' xc.log | tail -n 1 | sed 's/.*; //')"
	say "xcable: B $(grep -o 'right ([^)]*): link up.*' xc.log | tail -n 1 | sed 's/.*; //')"
	grep -q "right.*it takes no offloads" xc.log || { fail "B's NIC negotiated offloads"; return 1; }
	grep -q "left.*it takes csum tso4 tso6" xc.log || { fail "A's NIC did not negotiate offloads"; return 1; }
	section_ok a jumbo || return 1
	for s in tcp4-a2b tcp4-b2a tcp6-a2b tcp6-b2a udp-a2b; do
		section_ok a $s || return 1
		rate=$(vm_result a $s | grep -E 'receiver' | tail -n 1 | grep -oE '[0-9.]+ Mbits/sec')
		say "iperf3 $s: ${rate:-?}"
	done
	csa=$(sed -n 's/^XC-CSUM //p' a.console | tr -d '\r' | tail -n 1)
	sleep 3
	csb=$(sed -n 's/^XC-SNMP //p' b.console | tr -d '\r' | tail -n 1)
	say "checksum errors counted by A (full offloads): $csa"
	say "checksum errors counted by B (no offloads):   $csb"
	csum_zero "$csa" && csum_zero "$csb" || { fail "a guest counted checksum errors"; return 1; }
	xc_stop
	dir_balance xc.log "cable0 left->right" || { fail "counters do not add up"; return 1; }
	dir_balance xc.log "cable0 right->left" || { fail "counters do not add up"; return 1; }
	[ "$(counter xc.log 'cable0 left->right' segmented)" -gt 0 ] || { fail "nothing was segmented for B"; return 1; }
	for s in too-big bad-offload unsupported-offload no-mbuf; do
		[ "$(counter xc.log 'cable0 left->right' $s)$(counter xc.log 'cable0 right->left' $s)" = 00 ] ||
			{ fail "frames dropped as $s"; return 1; }
	done
}
TESTS+=(t_vm_offload_mismatch)
SLOW_ONCE+=(t_vm_offload_mismatch)	# the frontend tests run its paths on both builds

# mq_run NQ - two 2-vCPU guests with NQ queue pairs, through xcable
# --queues NQ, iperf3 with 4 streams each way; MQ_RETR[NQ] gets the
# retransmissions of both ways together, MQ_RATE[NQ] the two rates; each
# guest must have received on at least two of its queues (see below)
declare -A MQ_RETR MQ_RATE
mq_run() {
	local nq=$1 s r retr=0 rates= q ethq used
	xc_start xc$nq.log --left "$T/l$nq.sock" --right "$T/r$nq.sock" --queues "$nq"
	wait_log xc$nq.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	VM_SMP=2 VM_NETDEV=queues=$nq boot b$nq "$T/r$nq.sock" $B_MAC "xc.role=server xc.ip=10.0.0.2/24 xc.queues=$nq" reconnect=1 mq=on
	VM_SMP=2 VM_NETDEV=queues=$nq boot a$nq "$T/l$nq.sock" $A_MAC "xc.role=offload xc.ip=10.0.0.1/24 xc.peer=10.0.0.2 xc.queues=$nq xc.streams=4 xc.secs=4" reconnect=1 mq=on
	wait_console a$nq "XC-DONE" 400 || { tail -n 20 a$nq.console; fail "guest A ($nq queues) did not finish"; return 1; }
	for s in tcp4-a2b tcp4-b2a; do
		section_ok a$nq $s || return 1
		# "[SUM] 0.00-4.00 sec 123 MBytes 258 Mbits/sec 17 sender"
		r=$(vm_result a$nq $s | grep -E '^\[SUM\].*sender' | tail -n 1)
		retr=$((retr + $(sed -E 's/.*Mbits\/sec +([0-9]+) +sender.*/\1/' <<<"$r")))
		rates+=" $(grep -oE '[0-9.]+ Mbits/sec' <<<"$r" | cut -d' ' -f1)"
	done
	sleep 2	# B's next line of queue counters
	xc_stop
	kill "${VM_PID[a$nq]}" "${VM_PID[b$nq]}" 2>/dev/null
	MQ_RETR[$nq]=$retr
	MQ_RATE[$nq]=$rates
	say "$nq queue pair(s): A->B and B->A$rates Mbit/s, $retr segments retransmitted"
	for s in a$nq b$nq; do
		ethq=$(tr -d '\r' <$s.console | sed -n 's/^XC-ETHQ //p' | tail -n 1)
		say "$nq queue pair(s), guest ${s%$nq}: $ethq"
		used=0
		for ((q = 0; q < nq; q++)); do
			r=$(grep -oE "\brx$q=[0-9]+" <<<"$ethq" | cut -d= -f2)
			[ "${r:-0}" -gt 0 ] && used=$((used + 1))
		done
		[ "$used" -ge "$((nq < 2 ? nq : 2))" ] ||
			{ fail "guest ${s%$nq} received on $used of its $nq queues"; return 1; }
	done
	dir_balance xc$nq.log "cable0 left->right" && dir_balance xc$nq.log "cable0 right->left" ||
		{ fail "counters do not add up"; return 1; }
}

# Multiqueue keeps every flow in order (virtio's receive steering and the
# order across directions, see app/datapath/steer.h): with 2 and with 4 queue pairs
# TCP retransmits no more than with one, give or take 20 segments of noise
# (measured on this kind of machine: 1, 2 and 2 segments; before steering,
# 2 queue pairs retransmitted 10623 segments and 4 pairs 3691; with
# steering but without the order across directions, 653 and 34). Each
# guest receives on at least two queues. Not on every queue: a flow is
# delivered on the queue the guest started it on and stays there while it
# is busy (steer.h's hold rule), and which queue a guest starts a flow on
# is its own choice (XPS: iperf3 opens its streams from one CPU, whose
# queues are 0 and 2, or 1 and 3); one of 4 queues can then get none
# (seen in CI: guest A sent 2016 frames on its queue 3 and received none
# there, 18 on queue 1: its flows had started on queues 0 and 2).
t_vm_multiqueue() {
	local nq bound
	vm_prepare || return 1
	for nq in 1 2 4; do
		mq_run $nq || return 1
	done
	bound=$((MQ_RETR[1] + 20))
	for nq in 2 4; do
		[ "${MQ_RETR[$nq]}" -le "$bound" ] ||
			{ fail "$nq queue pairs retransmitted ${MQ_RETR[$nq]} segments, one pair ${MQ_RETR[1]} (bound $bound)"; return 1; }
	done
}
TESTS+=(t_vm_multiqueue)
SLOW_ONCE+=(t_vm_multiqueue)	# six VMs; steering runs on both builds in t_unit_steer

# Six iperf3 runs A->B, interleaved: odd runs on a plain cable, even runs
# with 10 ms each way, 2 s each. The guest pauses 2 s between runs, and the delay is
# switched in that pause. The queue holds the 4 MB window (limit=4096: 4096
# frames, 6 MB), as a long fat link needs: no frame may be dropped by it,
# and the median with delay must be at least 0.70 of the median without
# (with a 4 MB window and 20 ms RTT TCP could do 1.6 Gbit/s, far more than
# a TCG guest moves, so the delay itself should cost only the ramp-up)
t_vm_delay_keeps_throughput() {
	local r spec full before after
	vm_prepare || return 1
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc.log "control: xcablectl" 1 20 || { fail "xcable did not start"; return 1; }
	boot b "$T/r.sock" $B_MAC "xc.role=server xc.ip=10.0.0.2/24"
	boot a "$T/l.sock" $A_MAC "xc.role=iperfloop xc.ip=10.0.0.1/24 xc.peer=10.0.0.2 xc.runs=6 xc.secs=2 xc.gap=2 xc.window=4M"
	for r in 1 2 3 4 5; do
		wait_console a "XC-END iperf-$r " 240 || { tail -n 5 a.console; fail "guest A did not finish iperf run $r"; return 1; }
		spec=delay=10ms,limit=4096
		[ $((r % 2)) = 0 ] && spec=none
		"$BUILD/app/xcablectl" -p "xcable-$XC_PID" impair cable0 $spec >/dev/null || { fail "xcablectl refused $spec"; return 1; }
		grep -q "XC-BEGIN iperf-$((r + 1))\b" a.console &&
			{ fail "run $((r + 1)) began before the impairment was switched"; return 1; }
	done
	wait_console a "XC-DONE" 240 || { fail "guest A did not finish"; return 1; }
	for r in 1 2 3 4 5 6; do
		section_ok a iperf-$r || return 1
		RATE[$r]=$(vm_result a iperf-$r | grep receiver | grep -oE '[0-9.]+ Mbits/sec' | cut -d' ' -f1)
	done
	xc_stop
	say "iperf3 A->B without delay (runs 1 3 5): ${RATE[1]} ${RATE[3]} ${RATE[5]} Mbit/s"
	say "iperf3 A->B with 10 ms each way (runs 2 4 6): ${RATE[2]} ${RATE[4]} ${RATE[6]} Mbit/s"
	before=$(median "${RATE[1]}" "${RATE[3]}" "${RATE[5]}")
	after=$(median "${RATE[2]}" "${RATE[4]}" "${RATE[6]}")
	full=$(counter xc.log "cable0 left->right" impair-queue-full)
	say "xcable: impair-queue-full ${full:-?} (0 expected)"
	[ "$full" = 0 ] || { fail "the delay queue dropped frames"; return 1; }
	awk -v a="$after" -v b="$before" 'BEGIN { printf "  medians with delay / without: %s / %s = %.2f (at least 0.70)\n", a, b, a / b; exit !(a >= 0.7 * b) }' ||
		{ fail "TCP throughput collapsed under delay"; return 1; }
}
declare -a RATE
TESTS+=(t_vm_delay_keeps_throughput)
ONCE+=(t_vm_delay_keeps_throughput)	# a throughput ratio: sanitizers distort it

# carrier_after VM N VALUE SECONDS - wait for a ping line after ping N that
# shows carrier=VALUE; its number in $PING_AT
carrier_after() {
	local i n
	for ((i = 0; i < $4 * 2; i++)); do
		n=$(sed -nE "s/^XC-PING ([0-9]+) .* carrier=$3.*/\1/p" "$1.console" | tr -d '\r' |
			awk -v after="$2" '$1 > after { print; exit }')
		[ -n "$n" ] && { PING_AT=$n; return 0; }
		sleep 0.5
	done
	return 1
}

t_vm_carrier() {
	local n
	start_ping_pair || return 1
	n=$(last_ping a ok)
	# pulling the cable: A's carrier goes 1 -> 0 -> 1
	"$BUILD/app/xcablectl" -p "xcable-$XC_PID" down cable0 >ctl.out 2>&1 || { cat ctl.out; fail "xcablectl down failed"; return 1; }
	carrier_after a "$n" 0 30 || { tail -n 5 a.console; fail "A's carrier did not go down"; return 1; }
	say "xcablectl down cable0: A's carrier 0 at ping $PING_AT"
	n=$PING_AT
	"$BUILD/app/xcablectl" -p "xcable-$XC_PID" up cable0 >ctl.out 2>&1 || { cat ctl.out; fail "xcablectl up failed"; return 1; }
	carrier_after a "$n" 1 60 || { tail -n 5 a.console; fail "A's carrier did not come back"; return 1; }
	wait_ping_after "$PING_AT" 60 || { fail "A does not reach B after the cable is back"; return 1; }
	say "xcablectl up cable0: A's carrier 1 again, ping $PING_OK reaches B"
	# link propagation: B goes away, A's carrier follows; B comes back
	kill -KILL "${VM_PID[b]}"; wait "${VM_PID[b]}" 2>/dev/null
	n=$PING_OK
	carrier_after a "$n" 0 30 || { tail -n 5 a.console; fail "A's carrier did not follow B going away"; return 1; }
	say "VM B killed: A's carrier 0 at ping $PING_AT"
	n=$PING_AT
	boot b "$T/r.sock" $B_MAC "xc.role=idle xc.ip=10.0.0.2/24"
	carrier_after a "$n" 1 120 || { tail -n 5 a.console; fail "A's carrier did not come back with B"; return 1; }
	wait_ping_after "$PING_AT" 120 || { fail "A does not reach B again"; return 1; }
	say "VM B booted again: A's carrier 1, ping $PING_OK reaches B"
	grep -E "went away|is back|pulled out|plugged in" xc.log | sed 's/^xcable: /  xcable: /'
}
TESTS+=(t_vm_carrier)
SLOW_ONCE+=(t_vm_carrier)	# the frontend tests run its paths on both builds

t_vm_rate_limit() {
	local r rate
	vm_prepare || return 1
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --impair-to-right rate=100mbit
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	boot b "$T/r.sock" $B_MAC "xc.role=server xc.ip=10.0.0.2/24"
	boot a "$T/l.sock" $A_MAC "xc.role=iperfloop xc.ip=10.0.0.1/24 xc.peer=10.0.0.2 xc.runs=2 xc.secs=4"
	wait_console a "XC-DONE" 240 || { tail -n 5 a.console; fail "guest A did not finish"; return 1; }
	xc_stop
	for r in 1 2; do
		section_ok a iperf-$r || return 1
		rate=$(vm_result a iperf-$r | grep receiver | grep -oE '[0-9.]+ Mbits/sec' | cut -d' ' -f1)
		say "iperf3 A->B through rate=100mbit, run $r: $rate Mbit/s (90 to 100 expected)"
		awk -v r="$rate" 'BEGIN { exit !(r >= 90 && r <= 100) }' || { fail "rate limit not between 90 and 100 Mbit/s"; return 1; }
	done
	say "xcable: $(grep 'cable0 left->right' xc.log | grep -oE 'impair-queue-full [0-9]+')"
}
TESTS+=(t_vm_rate_limit)
SLOW_ONCE+=(t_vm_rate_limit)	# the rate code runs under ASan in t_impair_rate

# A guest behind a virtual IOMMU (intel-iommu with a device IOTLB, the NIC
# with iommu_platform=on,ats=on on a PCIe root port: ATS needs a PCIe
# port) on the left, a plain guest on the right. VIOMMU_ARGS and
# VIOMMU_DEV are what vm_start needs for the left one.
VIOMMU_ARGS="-device intel-iommu,intremap=off,device-iotlb=on -device pcie-root-port,id=rp0,bus=pcie.0,chassis=1"
VIOMMU_DEV="bus=rp0,iommu_platform=on,ats=on"

# viommu_boot VM SOCK MAC ARGS - boot a guest behind the vIOMMU, flushing
# its IOTLB strictly (iommu.strict=1); t_vm_variant_viommu has a guest
# that flushes lazily, Linux's default
viommu_boot() {
	VM_MACHINE=q35 VM_ARGS=$VIOMMU_ARGS boot "$1" "$2" "$3" "intel_iommu=on iommu.strict=1 $4" reconnect=1 "$VIOMMU_DEV"
}

# end_features SOCKNAME [KEY] - what xcablectl show reports for the end on
# socket SOCKNAME (l.sock or r.sock) under KEY, by default its virtio
# features, in decimal
end_features() {
	"$BUILD/app/xcablectl" -p "xcable-$XC_PID" show cable0 --json >show.json 2>&1 || { cat show.json >&2; return 1; }
	/usr/bin/python3 -c 'import json, sys
for e in json.load(open("show.json"))["cables"]["cable0"]["ends"]:
    if e.get("socket", "").endswith("/" + sys.argv[1]):
        print(e[sys.argv[2]])' "$1" "${2:-virtio-features}"
}

t_vm_viommu() {
	local fa fb idle
	vm_prepare || return 1
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --iommu
	wait_log xc.log "control: xcablectl" 1 20 || { fail "xcable did not start"; return 1; }
	viommu_boot b "$T/r.sock" $B_MAC "xc.role=server xc.ip=10.0.0.2/24"
	boot a "$T/l.sock" $A_MAC "xc.role=client xc.ip=10.0.0.1/24 xc.peer=10.0.0.2 xc.secs=3"
	# the features while A is up (it powers off when done)
	wait_console a "XC-END reach" 300 || { tail -n 20 a.console a.qemu.log b.qemu.log; fail "guest A did not reach B"; return 1; }
	fa=$(end_features l.sock) && fb=$(end_features r.sock) || { fail "xcablectl show failed"; return 1; }
	wait_console a XC-DONE 300 || { tail -n 20 a.console a.qemu.log; fail "guest A did not finish"; return 1; }
	wait_console b "XC-END l2send" 30 || { fail "guest B did not send the L2 frames back"; return 1; }
	say "negotiated virtio features: A 0x$(printf %x "$fa"), B (vIOMMU) 0x$(printf %x "$fb")"
	(( fb >> 33 & 1 )) || { fail "B did not negotiate VIRTIO_F_IOMMU_PLATFORM (bit 33)"; return 1; }
	(( fa >> 33 & 1 )) && { fail "A negotiated VIRTIO_F_IOMMU_PLATFORM without a vIOMMU"; return 1; }
	report_traffic || return 1
	section_ok b l2recv && section_ok a l2recv || return 1
	say "L2 from A to B (vIOMMU): $(vm_result b l2recv | grep 'byte for byte' | tr -d '\r')"
	say "L2 from B (vIOMMU) to A: $(vm_result a l2recv | grep 'byte for byte' | tr -d '\r')"
	# B, which moved all that through its IOTLB, now idles: its lcore
	# polls only while IOTLB messages come, and sleeps again
	sleep 1
	idle=$(cpu_pct "$XC_PID" 3)
	say "B idle after the traffic (A gone): xcable used ${idle}% of a core over 3 s"
	[ "$idle" -le 3 ] || { fail "xcable kept polling for an idle vIOMMU guest"; return 1; }
	xc_stop
	dir_balance xc.log "cable0 left->right" && dir_balance xc.log "cable0 right->left" ||
		{ fail "counters do not add up"; return 1; }
}
TESTS+=(t_vm_viommu)
SLOW_ONCE+=(t_vm_viommu)	# two VMs; --iommu's own code runs on both builds in t_hostile_*iommu*

# without IOMMU support on its end (no --iommu), QEMU refuses a vIOMMU
# guest's NIC
t_vm_viommu_refused() {
	local i
	vm_prepare || return 1
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc.log "control: xcablectl" 1 20 || { fail "xcable did not start"; return 1; }
	viommu_boot a "$T/l.sock" $A_MAC "xc.role=idle xc.ip=10.0.0.1/24"
	for ((i = 0; i < 60; i++)); do
		kill -0 "${VM_PID[a]}" 2>/dev/null || break
		sleep 0.5
	done
	kill -0 "${VM_PID[a]}" 2>/dev/null && { fail "QEMU still runs after 30 s"; return 1; }
	grep -q "iommu_platform=true is not supported by the device" a.qemu.log ||
		{ cat a.qemu.log; fail "QEMU stopped for another reason"; return 1; }
	say "QEMU: $(grep -o 'iommu_platform=true is not supported.*' a.qemu.log | head -n 1)"
	grep -q "left.*link up" xc.log && { fail "the left end came up"; return 1; }
	kill -0 "$XC_PID" || { fail "xcable died"; return 1; }
	say "xcable: still running, the left end never came up (QEMU gives up after reading the features)"
}
TESTS+=(t_vm_viommu_refused)

# ---- the device-variant matrix: one test per virtio-net variant ----------

# variant_boot VM SOCK MAC ARGS DEV VIOMMU - boot a guest of the matrix with
# virtio-net-pci options DEV, behind the vIOMMU if VIOMMU is "yes" (the
# guest flushes its IOTLB strictly) or "lazy" (lazily, Linux's default:
# intel_iommu=on alone)
variant_boot() {
	local flush="iommu.strict=1"
	[ "$6" = lazy ] && flush=""
	if [ "$6" = yes ] || [ "$6" = lazy ]; then
		VM_MACHINE=q35 VM_ARGS=$VIOMMU_ARGS boot "$1" "$2" "$3" "intel_iommu=on $flush $4" reconnect=1 "$VIOMMU_DEV${5:+,$5}"
	else
		boot "$1" "$2" "$3" "$4" reconnect=1 "$5"
	fi
}

# feature_bits FEATURES "BIT=0|1 ..." - check a guest's negotiated virtio
# features: each BIT must be as said; prints the misses
feature_bits() {
	local f=$1 b bad=""
	[ "${f:-0}" != 0 ] || { echo "no features read"; return; }
	for b in $2; do
		(( (f >> ${b%=*} & 1) == ${b#*=} )) || bad+=" bit ${b%=*} is $(( f >> ${b%=*} & 1 ))"
	done
	echo "${bad# }"
}

# vm_variant XCOPTS DEV_A DEV_B KARGS - one row of the matrix: xcable with
# XCOPTS (split on spaces; "" for a config of cable0 with the [cable] lines
# of $VARIANT_CABLE), guest A (client) with device options DEV_A, guest B
# (server) with DEV_B, both with the extra kernel arguments KARGS;
# VIOMMU_A/VIOMMU_B=yes (or lazy) put that guest behind a vIOMMU, VM_SMP and
# VM_NETDEV apply to both; VARIANT_CHECK names a function that checks
# more before xcable stops. The variant must have taken effect: the
# features each guest negotiated (xcablectl show) have the bits of
# BITS_A/BITS_B ("BIT=0|1 ..."). A pings B, runs iperf3 both ways (a jumbo
# ping too with xc.mtu=9000), and the L2 catalogue (STP, LACP, LLDP,
# 802.1Q, QinQ, an unknown ethertype) crosses byte for byte A->B, then
# B->A; the counters add up.
vm_variant() {
	local xcopts=$1 deva=$2 devb=$3 kargs=$4 s fa fb bad
	vm_prepare || return 1
	if [ -n "${VARIANT_CABLE:-}" ]; then
		printf '[cable cable0]\nleft = %s\nright = %s\n%s\n' "$T/l.sock" "$T/r.sock" "$VARIANT_CABLE" >variant.ini
		xc_start xc.log --config variant.ini
	else
		# shellcheck disable=SC2086
		xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" $xcopts
	fi
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	variant_boot b "$T/r.sock" $B_MAC "xc.role=server xc.ip=10.0.0.2/24 $kargs" "$devb" "${VIOMMU_B:-}"
	variant_boot a "$T/l.sock" $A_MAC "xc.role=client xc.ip=10.0.0.1/24 xc.peer=10.0.0.2 xc.secs=2 $kargs" "$deva" "${VIOMMU_A:-}"
	# the features while A is up (it powers off when done)
	wait_console a "XC-END reach" 300 || { tail -n 20 a.console a.qemu.log; fail "guest A did not come up"; return 1; }
	fa=$(end_features l.sock) && fb=$(end_features r.sock) || { fail "xcablectl show failed"; return 1; }
	say "negotiated virtio features: A 0x$(printf %x "$fa") (want ${BITS_A:-any}), B 0x$(printf %x "$fb") (want ${BITS_B:-any})"
	bad=$(feature_bits "$fa" "${BITS_A:-}")
	[ -z "$bad" ] || { fail "guest A's variant did not take effect:$bad"; return 1; }
	bad=$(feature_bits "$fb" "${BITS_B:-}")
	[ -z "$bad" ] || { fail "guest B's variant did not take effect:$bad"; return 1; }
	wait_console a XC-DONE 300 || { tail -n 20 a.console a.qemu.log; fail "guest A did not finish"; return 1; }
	report_traffic || return 1
	if [[ " $kargs " == *" xc.mtu=9000 "* ]]; then
		section_ok a jumbo || return 1
		say "jumbo: $(vm_result a jumbo | grep 'packets transmitted' | tr -d '\r') with 8972-byte pings"
	fi
	for s in b a; do
		section_ok $s l2recv || return 1
		say "L2 catalogue to ${s^^}: $(vm_result $s l2recv | grep 'byte for byte' | tr -d '\r')"
	done
	# the row's own check, while B is still there
	[ -z "${VARIANT_CHECK:-}" ] || "$VARIANT_CHECK" || return 1
	xc_stop
	dir_balance xc.log "cable0 left->right" && dir_balance xc.log "cable0 right->left" ||
		{ fail "counters do not add up"; return 1; }
}

# the rows (doc/guests.md, "Guests tested"): both guests with the variant, and one
# mixed pair; the default device is t_vm_basic_traffic, on both builds.
# Virtio feature bits: 0 CSUM, 1 GUEST_CSUM, 7 GUEST_TSO4, 11 HOST_TSO4,
# 15 MRG_RXBUF, 22 MQ, 28 INDIRECT_DESC, 29 EVENT_IDX, 33 IOMMU_PLATFORM,
# 34 RING_PACKED
NO_OFFLOAD_BITS="0=0 1=0 7=0 11=0"
t_vm_variant_packed() { BITS_A="34=1" BITS_B="34=1" vm_variant "" packed=on packed=on ""; }
t_vm_variant_mrg_rxbuf_off() { BITS_A="15=0" BITS_B="15=0" vm_variant "" mrg_rxbuf=off mrg_rxbuf=off ""; }
t_vm_variant_no_indirect_event_idx() {
	BITS_A="28=0 29=0" BITS_B="28=0 29=0" \
		vm_variant "" indirect_desc=off,event_idx=off indirect_desc=off,event_idx=off ""
}
# A asks for the packed ring too: an end with IOMMU support withholds it
# (DPDK 22.11 takes nothing from a packed ring through the IOTLB), and A
# must work on the split ring. B flushes its IOTLB lazily (Linux's
# default): it drops all its translations at once, its rings' too, which
# xcable applies in full and has translated again at once; without that B
# received nothing
t_vm_variant_viommu() {
	BITS_A="33=1 34=0" BITS_B="33=1" VIOMMU_A=yes VIOMMU_B=lazy \
		VARIANT_CHECK=lazy_check vm_variant --iommu packed=on "" ""
}
# lazy_check - B's whole-space invalidations were applied, its rings
# translated again (xcablectl show), nothing dropped doing so
lazy_check() {
	local n d
	grep -q "right (.*): the guest invalidates its IOTLB up to the end of the address space (a lazy IOMMU flush): applied in full" xc.log ||
		{ fail "xcable saw no invalidation of B's whole IOTLB"; return 1; }
	n=$(end_features r.sock iotlb-retranslated) && d=$(end_features r.sock iotlb-retranslate-dropped) ||
		{ fail "xcablectl show failed"; return 1; }
	say "B (lazy flushing): whole-space invalidations applied; its rings translated again $n times, $d frames dropped doing so"
	[ "${n:-0}" -gt 0 ] && [ "$d" = 0 ] || { fail "B's rings were not translated again, or frames were dropped"; return 1; }
}

# B flushes its IOTLB lazily, and the request xcable makes as B's rings
# lose their translations is skipped on purpose (XCABLE_FAULT: as when an
# lcore holds the ring's lock for a moment, and the vhost library's
# dequeue returns at once without asking QEMU): only the alarm that asks
# again brings B's rings back. Without it, B's Tx ring stayed
# untranslated and B->A stalled for good (seen once in a few thousand
# invalidations); with the fault, at the first flush
t_vm_viommu_retranslate_lost() {
	export XCABLE_FAULT=right:retranslate
	BITS_A="33=1 34=0" BITS_B="33=1" VIOMMU_A=yes VIOMMU_B=lazy \
		VARIANT_CHECK=retry_check vm_variant --iommu packed=on "" ""
}
# retry_check - as lazy_check, and only the alarm asked for B's rings
retry_check() {
	local r
	lazy_check || return 1
	grep -q "right: retranslate: injected fault" xc.log ||
		{ fail "the fault was not injected"; return 1; }
	r=$(end_features r.sock iotlb-retranslate-retries) || { fail "xcablectl show failed"; return 1; }
	say "B's rings asked for again by the alarm: $r times (the first request skipped each time)"
	[ "${r:-0}" -gt 0 ] || { fail "the alarm never asked for B's rings"; return 1; }
}
TESTS+=(t_vm_viommu_retranslate_lost)
SAN_ONCE+=(t_vm_viommu_retranslate_lost)	# the alarm thread, under the sanitizers
t_vm_variant_mq() {
	BITS_A="22=1" BITS_B="22=1" VM_SMP=2 VM_NETDEV=queues=2 \
		vm_variant "--queues 2" mq=on mq=on xc.queues=2
}
t_vm_variant_mtu9000() { BITS_A="15=1" BITS_B="15=1" vm_variant "" "" "" xc.mtu=9000; }
t_vm_variant_no_offloads() {
	BITS_A=$NO_OFFLOAD_BITS BITS_B=$NO_OFFLOAD_BITS vm_variant "" "$NO_OFFLOADS" "$NO_OFFLOADS" ""
}
# A: packed ring without mergeable buffers, full offloads; B: split ring
# without indirect descriptors or event index, without offloads, behind a
# vIOMMU (IOMMU support on B's end only: xcable withholds the packed ring
# where it offers IOMMU support, so A's end must not)
t_vm_variant_mixed() {
	VARIANT_CABLE="right-iommu = yes" BITS_A="34=1 15=0 33=0 0=1" \
		BITS_B="34=0 28=0 29=0 33=1 $NO_OFFLOAD_BITS" VIOMMU_B=yes \
		vm_variant "" packed=on,mrg_rxbuf=off "$NO_OFFLOADS,indirect_desc=off,event_idx=off" ""
}
# every row runs on build/ but the multiqueue one, which runs under the
# sanitizers: steering and several queues on real vhost ports run nowhere
# else there (t_vm_multiqueue runs them on build/)
for t in packed mrg_rxbuf_off no_indirect_event_idx viommu mq mtu9000 no_offloads mixed; do
	TESTS+=("t_vm_variant_$t")
	if [ $t = mq ]; then
		SAN_ONCE+=("t_vm_variant_$t")
	else
		SLOW_ONCE+=("t_vm_variant_$t")	# their paths run on both builds elsewhere
	fi
	# a guest of the mixed row has each of these variants (both
	# directions through it): in full runs only
	case $t in packed|mrg_rxbuf_off|no_indirect_event_idx|no_offloads) FULL_ONLY+=("t_vm_variant_$t") ;; esac
done
unset t
