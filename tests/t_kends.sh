# SPDX-License-Identifier: BSD-3-Clause
# tests/t_kends.sh - kernel-backed ends (af_packet, af_xdp) as a user sees
# them: what crosses an untagged end, what an idle trunk costs, what a
# missing interface is called. Two xcable instances play two hosts in
# network namespaces joined by a veth pair (helpers of t_trunk.sh).
# (sourced by tests/run; each t_* function is one test)

# kends_ini HOST DEVARGS MTU [TAG] - xcable on HOST: cable c1 from socket
# HOST1.sock to the port "wire" (DEVARGS, MTU), untagged or under 802.1ad
# TAG
kends_ini() {
	cat <<EOI
[global]
stats-interval = 0
link-propagation = no
[port wire]
devargs = $2
mtu = $3
${4:+tag-type = 802.1ad}
[cable c1]
left = $T/${1}1.sock
right-port = wire
${4:+right-tag = $4}
EOI
}

# kends_start HOST DEVARGS MTU [TAG] - xcable of HOST in its namespace (log
# xHOST.log, pid in XPID_HOST)
kends_start() {
	kends_ini "$@" >"$1.ini"
	host_run "$1"
}

# the frame catalogue (sizes, broadcast, STP, LACP, LLDP, 802.1Q, QinQ
# with outer tag 0x88a8, unknown ethertypes) through an untagged af_xdp
# end on each host, byte for byte both ways: the kernel's VLAN untagging
# comes after XDP, so the frames reach the AF_XDP socket as on the wire
t_kends_untagged_xdp() {
	hosts_link 3442 || { fail "cannot create namespaces and veth"; return 1; }
	kends_start a "net_af_xdp0,iface=va" 3442 && kends_start b "net_af_xdp0,iface=vb" 3442 || return 1
	"$XCPEER" $(peer_eal "$T/a1.sock" "$T/b1.sock") -- frames --rounds 2 --drop-over 3456 --drop-over-back 3456 >peer.log 2>&1
	local rc=$?
	grep -E '^FAIL' peer.log | head -n 5 | sed 's/^/  peer: /'
	say "untagged af_xdp ends: $(grep catalogue peer.log); $(grep -E "^(ok|FAIL) QinQ" peer.log | tr "\n" " ")"
	host_stop a && host_stop b || return 1
	[ $rc = 0 ] || { fail "frames altered or lost through untagged af_xdp ends"; return 1; }
	check_accounted xa.log 2 && check_accounted xb.log 2
}
TESTS+=(t_kends_untagged_xdp)


# an untagged af_packet end would change QinQ frames (DPDK 22.11's driver
# gives the outer tag back as 0x8100): it is refused at start, saying why
# and what to use instead, while the same port as a trunk (the outer tag
# xcable's own) starts
t_kends_untagged_packet_refused() {
	local rc
	hosts_link 1500 || { fail "cannot create namespaces and veth"; return 1; }
	kends_ini a "net_af_packet0,iface=va" 1500 >u.ini
	ip netns exec "$(ns a)" timeout 20 "$XC" --config u.ini >u.log 2>&1
	rc=$?
	say "untagged af_packet end: exit $rc, $(grep -o 'right: an af_packet.*' u.log)"
	[ $rc = 2 ] && grep -q "right: an af_packet end needs a tag: .* puts it back as 0x8100, changing QinQ (0x88a8) frames; use a netdev end (left-netdev = va), af_xdp (net_af_xdp0,iface=va) or a tag" u.log ||
		{ fail "an untagged af_packet end is not refused clearly"; return 1; }
	kends_start a "net_af_packet0,iface=va" 1500 10 || return 1
	host_stop a
}
TESTS+=(t_kends_untagged_packet_refused)

# kends_refused DEVARGS WHY - xcable of host a, its trunk port on DEVARGS,
# must stop at start with exit 2 and "xcable: port wire: WHY" last
kends_refused() {
	local rc
	kends_ini a "$1" 1500 10 >r.ini
	ip netns exec "$(ns a)" timeout 20 "$XC" --config r.ini >r.log 2>&1
	rc=$?
	say "$1: exit $rc, $(tail -n 1 r.log)"
	[ $rc = 2 ] && tail -n 1 r.log | grep -qxF "xcable: port wire: $2"
}

# a port whose kernel interface is missing names the interface (exit 2,
# as for other mistakes in what the user wrote), for af_packet and af_xdp;
# an interface that exists but that the driver refuses is called so
t_kends_missing_iface() {
	local ok=0
	hosts_link 1500 || { fail "cannot create namespaces and veth"; return 1; }
	kends_refused "net_af_packet0,iface=eth9" "no interface eth9 in this network namespace (No such device)" || ok=1
	kends_refused "net_af_xdp0,iface=eth9" "no interface eth9 in this network namespace (No such device)" || ok=1
	# af_packet by the other name DPDK registers it under
	kends_refused "eth_af_packet0,iface=eth9" "no interface eth9 in this network namespace (No such device)" || ok=1
	kends_refused "eth_af_packet0,framecnt=512" "eth_af_packet0 needs iface=, the kernel interface" || ok=1
	# no iface=, an empty one, and one longer than an interface name can be
	kends_refused "net_af_packet0,framecnt=512" "net_af_packet0 needs iface=, the kernel interface" || ok=1
	kends_refused "net_af_packet0,iface=,framecnt=512" "net_af_packet0 needs iface=, the kernel interface" || ok=1
	kends_refused "net_af_packet0,iface=an-interface-name-too-long" \
		"net_af_packet0: iface= is longer than an interface name (at most 15 characters)" || ok=1
	# the interface is there, the driver refuses it (more queues than
	# the veth has)
	kends_refused "net_af_xdp0,iface=va,queue_count=4" \
		"the net_af_xdp driver refused interface va (its reason is logged above); a netdev end (left-netdev = va) takes any interface" || ok=1
	[ $ok = 0 ] || fail "a missing interface or a refusing driver is not named"
}
TESTS+=(t_kends_missing_iface)

# idle_trunk PMD [del] - two xcables joined by a trunk over PMD (af_packet
# or af_xdp, or netdev-tag: netdev ends with tags, no port; with del,
# cable c2 deleted from both at runtime first), idle but for one frame
# each way every second for 10 s (xcpeer's latency mode): each xcable must stay under 5% of a core, the median
# frame must cross within 10 ms and every frame within a second (an lcore
# that did not wake for the trunk's frames would notice them only at its
# longest sleep, 10 s; one preempted on this shared machine takes tens of
# ms now and then)
idle_trunk() {
	local ta tb hz a b p h dirs=4
	hosts_link 1500 || { fail "cannot create namespaces and veth"; return 1; }
	if [ "$1" = netdev-tag ]; then
		for h in a b; do
			nd_tagged_ini $h 802.1ad >$h.ini && host_run $h || return 1
		done
	else
		WIRE_PMD=$1 host_start a 802.1ad "" && WIRE_PMD=$1 host_start b 802.1ad "" || return 1
	fi
	if [ "${2:-}" = del ]; then
		for h in a b; do
			eval "p=\$XPID_$h"
			"$BUILD/app/xcablectl" -p "xcable-$p" del c2 >del.out 2>&1 ||
				{ cat del.out; fail "host $h: xcablectl del c2 failed"; return 1; }
		done
		say "c2 deleted on both hosts; c1 stays on the trunk"
		dirs=2
	fi
	"$XCPEER" $(peer_eal "$T/a1.sock" "$T/b1.sock") -- latency --count 5 --gap-us 1000000 \
		--wait-file "$T/go" >lat.log 2>&1 & p=$!
	wait_ends_up xa.log 20 left && wait_ends_up xb.log 20 left || { fail "the frontends did not connect"; return 1; }
	sleep 1
	ta=$(cpu_ticks "$XPID_a") tb=$(cpu_ticks "$XPID_b")
	touch "$T/go"
	wait $p
	hz=$(getconf CLK_TCK)
	a=$(( ($(cpu_ticks "$XPID_a") - ta) * 1000 / hz )) b=$(( ($(cpu_ticks "$XPID_b") - tb) * 1000 / hz ))
	host_stop a && host_stop b || return 1
	sed 's/^/  peer: /' lat.log | grep latency
	say "CPU over the 10 s: host a $a ms, host b $b ms (bound: 500 ms, 5% of a core)"
	[ "$a" -lt 500 ] && [ "$b" -lt 500 ] || { fail "an idle trunk costs more than 5% of a core"; return 1; }
	[ "$(grep -c ' received 5 ' lat.log)" = 2 ] || { fail "frames lost"; return 1; }
	awk '/^latency/ { if ($NF + 0 >= 1000000) bad = 1 } END { exit bad }' lat.log ||
		{ fail "a frame took a second or more to cross: the lcore did not wake for it"; return 1; }
	awk '/^latency/ { for (i = 1; i < NF; i++) if ($i == "median_us" && $(i + 1) + 0 >= 10000) bad = 1 } END { exit bad }' lat.log ||
		{ fail "the median frame took 10 ms or more to cross"; return 1; }
	# c1's two directions, and c2's unless it was deleted
	check_accounted xa.log "$dirs" && check_accounted xb.log "$dirs"
}
t_kends_idle_packet() { idle_trunk af_packet; }
t_kends_idle_xdp() { idle_trunk af_xdp; }
# the trunk's socket is every member's: a member deleted at runtime must
# not take it out of what the lcore waits on for the others
t_kends_idle_after_del() { idle_trunk af_packet del; }
t_kends_idle_netdev_tag() { idle_trunk netdev-tag; }
TESTS+=(t_kends_idle_packet t_kends_idle_xdp t_kends_idle_after_del t_kends_idle_netdev_tag)
ONCE+=(t_kends_idle_packet t_kends_idle_xdp t_kends_idle_after_del t_kends_idle_netdev_tag)	# CPU and latency of build/
