# SPDX-License-Identifier: BSD-3-Clause
# tests/t_trunk.sh - cables across hosts: a DPDK port (af_packet on a veth)
# as a cable end, many cables trunked over it under 802.1ad or 802.1Q
# tags. Two xcable instances play two hosts, each in its own network
# namespace, joined by a veth pair.
# (sourced by tests/run; each t_* function is one test)

# ns NAME - the network namespace of this test called NAME
ns() { echo "xc${1}-${T##*/}"; }

# hosts_link MTU - namespaces a and b joined by veth va (in a) - vb (in b),
# with MTU, IPv6 off (no stray neighbour discovery frames)
hosts_link() {
	local h
	ip netns add "$(ns a)" && ip netns add "$(ns b)" || return 1
	ip link add "va${T##*.}" type veth peer name "vb${T##*.}" || return 1
	ip link set "va${T##*.}" netns "$(ns a)" name va &&
	ip link set "vb${T##*.}" netns "$(ns b)" name vb || return 1
	for h in a b; do
		ip netns exec "$(ns $h)" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
		ip netns exec "$(ns $h)" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
		ip netns exec "$(ns $h)" sysctl -qw net.ipv6.conf.v$h.disable_ipv6=1
		ip -n "$(ns $h)" link set "v$h" mtu "$1" up || return 1
	done
}

# wire_devargs HOST - the trunk port on vHOST: af_packet, or af_xdp if
# WIRE_PMD=af_xdp
wire_devargs() {
	if [ "${WIRE_PMD:-}" = af_xdp ]; then
		echo "net_af_xdp0,iface=v$1"
	else
		echo "net_af_packet0,iface=v$1,framesz=16384,blocksz=16384,framecnt=1024"
	fi
}

# host_ini HOST TAGTYPE MTU - config of xcable on HOST (a or b): cables c1
# (socket HOST1.sock, tag 10) and c2 (HOST2.sock, tag 20) over the trunk
# "wire" on vHOST; MTU "" keeps the driver's (1500)
host_ini() {
	cat <<EOF
[global]
stats-interval = 0
link-propagation = no
[port wire]
devargs = $(wire_devargs "$1")
tag-type = $2
${3:+mtu = $3}
[cable c1]
left = $T/${1}1.sock
right-port = wire
right-tag = 10
[cable c2]
left = $T/${1}2.sock
right-port = wire
right-tag = 20
EOF
}

# host_start HOST TAGTYPE MTU - xcable of HOST in its namespace (log
# xHOST.log, counters in xHOST.json, pid in XPID_HOST)
host_start() {
	host_ini "$1" "$2" "$3" >"$1.ini"
	host_run "$1"
}

# host_run HOST - start xcable of HOST in its namespace from HOST.ini, as
# host_start says (t_kends.sh writes its own HOST.ini); EAL_HOST, if set,
# are its EAL arguments (lcores)
host_run() {
	local eal
	eval "eal=\${EAL_$1:-}"
	# emptied here, not by the background job's redirection: a log left
	# by a run before would satisfy the wait below until the job starts
	rm -f "$(stats_json "x$1.log")"
	: >"x$1.log"
	ip netns exec "$(ns "$1")" "$XC" ${eal:+$eal --} --config "$1.ini" \
		--stats-json "$(stats_json "x$1.log")" >"x$1.log" 2>&1 &
	XC_PIDS+=("$!")
	eval "XPID_$1=$!"
	wait_log "x$1.log" "running;" 1 20 || { tail -n 5 "x$1.log"; fail "xcable of host $1 did not start"; }
}

# host_stop HOST - SIGTERM, wait, exit status must be 0
host_stop() {
	local pid rc
	eval "pid=\$XPID_$1"
	kill -TERM "$pid"; wait "$pid"; rc=$?
	[ $rc = 0 ] || fail "xcable of host $1 exited with $rc"
}

# listen SOCK OUT SECONDS - a frontend on SOCK that only counts what comes
listen() {
	"$XCPEER" $(peer_eal "$1") -- stream --id 3 --pps 0 --seconds "$3" >"$2" 2>&1
}

# frames_apart N - the frame catalogue through cable cN from host a to host
# b and back (byte for byte), while frontends on the other cable's ends
# listen: nothing may reach them
frames_apart() {
	local n=$1 o=$((3 - $1)) l1 l2 rc
	listen "$T/a$o.sock" la.out 7 & l1=$!
	listen "$T/b$o.sock" lb.out 7 & l2=$!
	sleep 2
	"$XCPEER" $(peer_eal "$T/a$n.sock" "$T/b$n.sock") -- frames --rounds 2 >peer$n.log 2>&1
	rc=$?
	grep -E '^FAIL' peer$n.log | head -n 5 | sed 's/^/  peer: /'
	say "cable c$n, host a <-> host b over the trunk: $(grep -E 'catalogue' peer$n.log)"
	wait $l1 $l2
	[ $rc = 0 ] || { fail "frames through c$n missing or altered"; return 1; }
	say "cable c$o's ends meanwhile received: $(tr '\n' ' ' <la.out | grep -oE 'stray [0-9]+') (host a), $(tr '\n' ' ' <lb.out | grep -oE 'stray [0-9]+') (host b)"
	grep -q "^stray 0$" la.out && grep -q "^stray 0$" lb.out &&
		! grep -q "^received-from" la.out lb.out ||
		{ fail "frames of c$n leaked into c$o"; return 1; }
}

t_trunk_two_hosts() {
	hosts_link 9100 || { fail "cannot create namespaces and veth"; return 1; }
	host_start a 802.1ad 9008 && host_start b 802.1ad 9008 || return 1
	frames_apart 1 || return 1
	frames_apart 2 || return 1
	tel "xcable-$XPID_a" /xcable/cable,c1 >tel.json
	host_stop a && host_stop b || return 1
	# the trunk's counters: every one of app/kinds/trunk.c's table, under its
	# name, in telemetry ('_' for '-'), the exit line and --stats-json
	/usr/bin/python3 - "$(dirname "${BASH_SOURCE[0]}")/../app/kinds/trunk.c" tel.json \
		"$(stats_json xa.log)" xa.log <<'PY' || { fail "telemetry does not show the trunk end and its counters"; return 1; }
import json, re, sys
src = open(sys.argv[1]).read()
body = src[src.index("trunk_counters[] = {"):]
names = re.findall(r'_CTR\("([a-z-]+)"', body[:body.index("};")])
t = json.load(open(sys.argv[2]))["/xcable/cable"]
print("  telemetry, host a, c1: end1 on trunk %s, tag %d, tag type 0x%x, trunk rx-pkts %d, unknown-tag %d"
      % (t["end1/trunk"], t["end1/tag"], t["end1/tag_type"], t["end1/trunk/rx_pkts"], t["end1/trunk/unknown_tag"]))
assert t["end1/trunk"] == "wire" and t["end1/tag"] == 10 and t["end1/tag_type"] == 0x88a8
assert t["end1/trunk/rx_pkts"] > 0 and t["end1/link"] == "up"
final = json.load(open(sys.argv[3]))["trunks"]["wire"]["counters"]
line = [l for l in open(sys.argv[4]) if l.startswith("trunk wire (")][-1].split(": ", 1)[1].split()
assert len(names) == 6 and list(final) == names, (names, list(final))
assert [p for p in line[0::2]] == names, line
assert all("end1/trunk/" + n.replace("-", "_") in t for n in names)
print("  trunk wire: %d counters in telemetry, the exit line and --stats-json" % len(names))
PY
	check_accounted xa.log || { fail "host a: frames not accounted for"; return 1; }
	check_accounted xb.log || { fail "host b: frames not accounted for"; return 1; }
	grep '^trunk' xa.log xb.log | sed 's/^/  /'
	[ "$(trunk_counter xa.log wire unknown-tag)$(trunk_counter xa.log wire backlog)" = 00 ] &&
	[ "$(trunk_counter xb.log wire unknown-tag)$(trunk_counter xb.log wire backlog)" = 00 ] ||
		fail "frames with unknown tags or lost in the trunk"
}
TESTS+=(t_trunk_two_hosts)
ONCE+=(t_trunk_two_hosts)	# CI time: the trunk row of t_change_matrix and t_trunk_unknown_tag run under the sanitizers

# the two ends of a cable differ: a guest sends TSO frames and partial
# checksums, the trunk port takes no offloads, so host a segments and
# checksums them in software before the trunk, and host b's guest (asking
# for no offloads) gets every segment right (TCP and UDP, IPv4 and IPv6,
# VLAN and QinQ inside)
t_trunk_tso_segmented() {
	hosts_link 9100 || { fail "cannot create namespaces and veth"; return 1; }
	host_start a 802.1ad 9008 && host_start b 802.1ad 9008 || return 1
	"$XCPEER" $(peer_eal "$T/a1.sock" "$T/b1.sock") -- offload --tx tso --rx none >peer.log 2>&1
	local rc=$?
	say "peer: $(grep -c '^ok' peer.log) ok, $(grep -c '^FAIL' peer.log) failed"
	grep -E '^FAIL' peer.log | head -n 5 | sed 's/^/  peer: /'
	grep -E '^ok (TCP/IPv6 TSO 60000|TCP/IPv4 TSO 30000)' peer.log | sed 's/^/  peer: /'
	[ $rc = 0 ] || { fail "segments missing or wrong"; return 1; }
	host_stop a && host_stop b || return 1
	say "host a: segmented $(counter xa.log "c1 left->right" segmented) into $(counter xa.log "c1 left->right" segments-made), checksums filled $(counter xa.log "c1 left->right" checksums-filled)"
	[ "$(counter xa.log "c1 left->right" segmented)" -gt 0 ] || { fail "host a segmented nothing"; return 1; }
	check_accounted xa.log && check_accounted xb.log
}
TESTS+=(t_trunk_tso_segmented)

# the segments of a TSO frame that host a cut for the trunk come to host b
# one at a time through its af_packet socket, a microsecond or two apart;
# host b, forwarding on a CPU of its own (as on two hosts), gathers them
# while they keep coming, so that a receiver that takes TSO frames gets
# them joined again, many segments to a frame, not the one or two that
# had come at each look (2 before); every frame xcable drops is counted
t_trunk_gathers_segments() {
	local out sent made rx tx co ci
	local EAL_a="-l 0,1 --main-lcore 0" EAL_b="-l 0,1 --main-lcore 1"	# forwarding on lcore 1, on 0
	hosts_link 9100 || { fail "cannot create namespaces and veth"; return 1; }
	host_start a 802.1ad 9008 && host_start b 802.1ad 9008 || return 1
	# the frontends on host a's CPU: host b's has nothing else to do
	"$XCPEER" $(peer_eal "$T/a1.sock" "$T/b1.sock" | sed 's/^-l 0 /-l 1 /') -- goodput --tx tso --rx tso --warmup 0 --seconds 3 >peer.log 2>&1 ||
		{ tail -n 3 peer.log; fail "goodput run failed"; return 1; }
	host_stop a && host_stop b || return 1
	out=$(grep '^goodput ' peer.log)
	sent=$(sed -nE 's/.* sent ([0-9]+) .*/\1/p' <<<"$out")
	made=$(counter xa.log "c1 left->right" segments-made)
	rx=$(counter xb.log "c1 right->left" rx-pkts) tx=$(counter xb.log "c1 right->left" tx-pkts)
	co=$(counter xb.log "c1 right->left" coalesced) ci=$(counter xb.log "c1 right->left" segments-coalesced)
	say "$sent TSO frames of 64 KB cut into $made segments by host a; host b received $rx, joined $ci of them into $co frames, and handed the receiver $tx frames: $((tx ? rx / tx : 0)) segments a frame"
	[ "$sent" -gt 100 ] && [ "$tx" -gt 0 ] || { fail "too little crossed to tell"; return 1; }
	[ $((rx / tx)) -ge 8 ] || { fail "the receiver got a frame per $((rx / tx)) segments: host b does not gather a TSO frame's segments"; return 1; }
	check_accounted xa.log && check_accounted xb.log
}
TESTS+=(t_trunk_gathers_segments)
ONCE+=(t_trunk_gathers_segments)	# how build/ paces: every trunk test goes through the gathering receive

# host b stopped while TSO frames cross the trunk towards it: the segments
# its lcore holds for gathering, and those still in its port's ring, are
# taken and dropped as c1's shutdown, and every counter of both hosts
# balances. (The trunk's backlog is not held to 0: the receiving frontend
# shares a CPU with the sender and falls behind now and then, and the
# member's queue overflows then, counted as backlog, at any time.)
t_trunk_stop_drains() {
	local pp sd bl0 bl
	hosts_link 9100 || { fail "cannot create namespaces and veth"; return 1; }
	host_start a 802.1ad 9008 && host_start b 802.1ad 9008 || return 1
	timeout 30 "$XCPEER" $(peer_eal "$T/a1.sock" "$T/b1.sock") -- goodput --tx tso --rx tso \
		--warmup 0 --seconds 4 >peer.log 2>&1 & pp=$!
	wait_log xb.log "b1.sock): link up" 1 10 || { fail "the receiving frontend did not come up"; return 1; }
	sleep 2
	bl0=$("$XCTL" -p "xcable-$XPID_b" metrics | sed -nE 's/^xcable_trunk_backlog_total\{trunk="wire"\} ([0-9]+)$/\1/p')
	host_stop b || return 1
	wait $pp	# its receiving end went with host b: its result does not count
	host_stop a || return 1
	sd=$(counter xb.log "c1 right->left" shutdown)
	bl=$(trunk_counter xb.log wire backlog)
	say "host b stopped mid-stream: c1 right->left rx $(counter xb.log "c1 right->left" rx-pkts), tx $(counter xb.log "c1 right->left" tx-pkts), shutdown $sd; trunk backlog ${bl0:-?} just before the stop, $bl at the end"
	[ "${sd:-0}" -gt 0 ] || { fail "nothing counted as shutdown: the drain did not take what the stop found"; return 1; }
	check_accounted xa.log && check_accounted xb.log
}
TESTS+=(t_trunk_stop_drains)
SAN_ONCE+=(t_trunk_stop_drains)	# accounting alone: checked under the sanitizers

# the MTU of a trunk counts its tag: host a keeps MTU 1500, so guest frames
# above 1510 bytes (1500 + 14 - 4 for the 802.1ad tag) cannot cross from
# it and are counted as too-big; host b (MTU 9008) sends jumbo frames back
t_trunk_mtu_overflow() {
	local want got
	hosts_link 9100 || { fail "cannot create namespaces and veth"; return 1; }
	host_start a 802.1ad "" && host_start b 802.1ad 9008 || return 1
	"$XCPEER" $(peer_eal "$T/a1.sock" "$T/b1.sock") -- frames --rounds 2 --drop-over 1510 >peer.log 2>&1 ||
		{ grep -E '^FAIL' peer.log | head -n 5 | sed 's/^/  peer: /'; fail "frames missing, altered, or too big and arriving"; return 1; }
	say "peer: $(grep catalogue peer.log)"
	host_stop a && host_stop b || return 1
	want=$(sed -n 's/^too-big \([0-9]*\) .*/\1/p' peer.log)
	got=$(counter xa.log "c1 left->right" too-big)
	say "host a, c1 towards the trunk: too-big $got; the frontend sent $want frames above 1510 bytes"
	[ "$want" -gt 0 ] && [ "$got" = "$want" ] || { fail "too-big does not count the frames that do not fit"; return 1; }
	check_accounted xa.log
}
TESTS+=(t_trunk_mtu_overflow)

# frames with a tag no cable uses, and untagged frames, arriving on a trunk
# are dropped and counted: on host b, a raw socket sends 200 frames tagged
# 802.1ad 30 (no cable has it) and 100 untagged ones; a frame for the tag
# of cable c1 goes out last and must reach c1's frontend
t_trunk_unknown_tag() {
	local got lp
	hosts_link 1500 || { fail "cannot create namespaces and veth"; return 1; }
	host_start a 802.1ad "" || return 1
	listen "$T/a1.sock" c1.out 6 & lp=$!
	sleep 3
	ip netns exec "$(ns b)" /usr/bin/python3 - <<'PY' || { fail "cannot send raw frames"; return 1; }
import socket, struct, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("vb", 0))
mac = b"\x02\x00\x00\x00\x00\x0a\x02\x00\x00\x00\x00\x0b"
# paced: a burst larger than af_packet's ring would be dropped by the
# kernel, where DPDK 22.11's af_packet driver does not count it
for i in range(200):
    s.send(mac + struct.pack("!HH", 0x88a8, 30) + struct.pack("!H", 0x88b5) + bytes(60))
    if i % 20 == 19:
        time.sleep(0.005)
for i in range(100):
    s.send(mac + struct.pack("!H", 0x88b5) + bytes(60))
    if i % 20 == 19:
        time.sleep(0.005)
# one for cable c1 (tag 10)
s.send(mac + struct.pack("!HH", 0x88a8, 10) + struct.pack("!H", 0x88b5) + bytes(60))
PY
	wait $lp
	host_stop a || return 1
	got=$(trunk_counter xa.log wire unknown-tag)
	say "sent 200 frames tagged 30 and 100 untagged: unknown-tag $got; c1's frontend got $(grep -oE 'stray [0-9]+' c1.out) (the one frame tagged 10)"
	[ "$got" = 300 ] || { fail "unknown and missing tags are not counted exactly"; return 1; }
	grep -q "^stray 1$" c1.out || fail "the frame for tag 10 did not reach cable c1"
}
TESTS+=(t_trunk_unknown_tag)
SAN_ONCE+=(t_trunk_unknown_tag)	# unknown tags; t_trunk_two_hosts runs on build/

# a trunk port going down: frames towards it are dropped as peer-down
# (af_packet's driver reports the link up whatever the interface does:
# xcable looks at the interface), and the cable works again once it is up
t_trunk_port_down() {
	local sent pd
	hosts_link 1500 || { fail "cannot create namespaces and veth"; return 1; }
	host_start a 802.1ad "" && host_start b 802.1ad "" || return 1
	"$BUILD/tests/vhostile" "$T/a1.sock" "$T/b1.sock" good | sed 's/^/  before: /'
	ip -n "$(ns a)" link set va down
	wait_log xa.log "wire: link down" 1 5 || { fail "xcable did not see the port go down"; return 1; }
	"$XCPEER" $(peer_eal "$T/a1.sock") -- stream --id 1 --pps 2000 --seconds 2 >down.out 2>&1
	sent=$(sed -n 's/^sent //p' down.out)
	ip -n "$(ns a)" link set va up
	wait_log xa.log "wire: link up" 2 5 || { fail "xcable did not see the port come back"; return 1; }
	"$BUILD/tests/vhostile" "$T/a1.sock" "$T/b1.sock" good | sed 's/^/  after: /' | tee good.out
	grep -q "delivered 2000, damaged or out of order 0" good.out || { fail "the cable does not work after the port came back"; return 1; }
	host_stop a && host_stop b || return 1
	pd=$(counter xa.log "c1 left->right" peer-down)
	say "while the port was down: sent $sent, dropped as peer-down $pd"
	[ "$sent" -gt 0 ] && [ "$pd" = "$sent" ] || { fail "frames towards a down port not counted as peer-down"; return 1; }
	check_accounted xa.log
}
TESTS+=(t_trunk_port_down)

# the trunk over af_xdp: AF_XDP sockets on the veth, MTU 3442 (DPDK
# 22.11's af_xdp driver has one page per frame: frames up to 3456 bytes).
# Every frame kind up to 3452 bytes (3456 with the tag) crosses byte for
# byte both ways and the jumbo ones are counted as too-big on each side;
# guests' TSO frames, which software segmentation turns into chains of
# mbufs, reach a guest without offloads intact (the driver sends single
# mbufs only: xcable copies chains into one); a larger MTU is refused at
# start, naming the limit
t_trunk_af_xdp() {
	local want got rc
	hosts_link 3442 || { fail "cannot create namespaces and veth"; return 1; }
	WIRE_PMD=af_xdp host_start a 802.1ad 3442 && WIRE_PMD=af_xdp host_start b 802.1ad 3442 || return 1
	"$XCPEER" $(peer_eal "$T/a1.sock" "$T/b1.sock") -- frames --rounds 2 --drop-over 3452 --drop-over-back 3452 >peer.log 2>&1 ||
		{ grep -E '^FAIL' peer.log | head -n 5 | sed 's/^/  peer: /'; fail "frames missing, altered, or too big and arriving"; return 1; }
	say "peer, over af_xdp: $(grep catalogue peer.log)"
	"$XCPEER" $(peer_eal "$T/a1.sock" "$T/b1.sock") -- offload --tx tso --rx none >off.log 2>&1
	rc=$?
	grep -E '^FAIL' off.log | head -n 5 | sed 's/^/  peer: /'
	grep -E '^ok (TCP/IPv6 TSO 60000|TCP/IPv4 TSO 30000)' off.log | sed 's/^/  peer: /'
	[ $rc = 0 ] || { fail "segments missing or wrong over af_xdp"; return 1; }
	host_stop a && host_stop b || return 1
	grep '^trunk' xa.log xb.log | sed 's/^/  /'
	want=$(sed -n 's/^too-big \([0-9]*\) .*/\1/p' peer.log)
	got=$(($(counter xa.log "c1 left->right" too-big) + $(counter xb.log "c1 left->right" too-big)))
	say "too-big towards the trunk, hosts a and b: $got; the frontend sent $want frames above 3452 bytes"
	[ "$want" -gt 0 ] && [ "$got" = "$want" ] || { fail "too-big does not count the frames that do not fit"; return 1; }
	[ "$(counter xa.log "c1 left->right" segmented)" -gt 0 ] || { fail "host a segmented nothing"; return 1; }
	check_accounted xa.log && check_accounted xb.log || return 1
	WIRE_PMD=af_xdp host_ini a 802.1ad 9000 >big.ini
	ip netns exec "$(ns a)" "$XC" --config big.ini >big.log 2>&1
	rc=$?
	say "mtu 9000 on af_xdp: exit $rc, $(grep -o 'af_xdp carries.*' big.log)"
	[ $rc = 2 ] && grep -q "mtu 9000 is too large, at most 3442" big.log ||
		fail "an MTU af_xdp cannot carry is not refused clearly"
}
TESTS+=(t_trunk_af_xdp)

# wait_console_after NAME LINE PATTERN SECONDS - wait for PATTERN on a
# guest console after its line LINE
wait_console_after() {
	local i
	for ((i = 0; i < $4 * 2; i++)); do
		tail -n +"$(($2 + 1))" "$1.console" 2>/dev/null | tr -d '\r' | grep -q -- "$3" && return 0
		sleep 0.5
	done
	return 1
}

# tap_ini TAP TAGTYPE TAG - VM X's socket joined to the tap's trunk
tap_ini() {
	cat <<EOT
[global]
stats-interval = 0
[port wire]
devargs = net_af_packet0,iface=$1
tag-type = $2
[cable vm]
left = $T/x.sock
right-port = wire
right-tag = $3
EOT
}

# interop with Linux's own VLAN code: Linux (the guest kernel of VM L, as
# this host's kernel has no VLAN support) has an 802.1ad subinterface (tag
# 100) and an 802.1Q one (tag 200) on a NIC behind a host tap; xcable
# uses the tap through af_packet as a trunk whose cable goes to VM X.
# With an 802.1ad trunk and tag 100, VM L pings VM X through eth0.100;
# restarted with an 802.1Q trunk and tag 200, through eth0.200.
t_trunk_linux_interop() {
	local tap=xt${T##*.} mark n
	vm_prepare || return 1
	ip tuntap add dev "$tap" mode tap && ip link set "$tap" up ||
		{ fail "cannot create a tap interface"; return 1; }
	tap_ini "$tap" 802.1ad 100 >ad.ini
	tap_ini "$tap" 802.1q 200 >q.ini
	xc_start xc.log --config ad.ini
	wait_log xc.log "running;" 1 20 || { ip link del "$tap"; fail "xcable did not start"; return 1; }
	boot x "$T/x.sock" $A_MAC "xc.role=idle xc.ip=10.77.0.1/24 xc.ip2=10.78.0.1/24"
	VM_TAP=$tap boot l - $B_MAC "xc.role=vlanping xc.ip=10.9.9.9/24 xc.vlans=ad:100:10.77.0.2/24,q:200:10.78.0.2/24 xc.peers=10.77.0.1,10.78.0.1"
	if ! wait_console l "XC-VPING 10.77.0.1 ok" 180; then
		ip link del "$tap"
		fail "Linux's 802.1ad subinterface never reached VM X"; return 1
	fi
	sleep 3
	n=$(grep -c "XC-VPING 10.78.0.1 ok" l.console)
	say "802.1ad trunk, tag 100: $(grep -m1 'XC-VLAN eth0.100' l.console | tr -d '\r'); VM L pings VM X through it"
	say "meanwhile the 802.1Q subinterface (tag 200, no cable) got $n answers"
	mark=$(wc -l <l.console)
	xc_stop
	[ "$n" = 0 ] || { ip link del "$tap"; fail "frames under tag 200 crossed an 802.1ad trunk without a cable for it"; return 1; }
	say "xcable: $(grep '^trunk wire' xc.log)"
	[ "$(trunk_counter xc.log wire unknown-tag)" -gt 0 ] || { ip link del "$tap"; fail "the 802.1Q frames were not counted as unknown-tag"; return 1; }
	xc_start xc2.log --config q.ini
	wait_log xc2.log "running;" 1 20 || { ip link del "$tap"; fail "xcable did not start again"; return 1; }
	if ! wait_console_after l "$mark" "XC-VPING 10.78.0.1 ok" 90; then
		ip link del "$tap"
		fail "Linux's 802.1Q subinterface never reached VM X"; return 1
	fi
	say "802.1Q trunk, tag 200: $(grep -m1 'XC-VLAN eth0.200' l.console | tr -d '\r'); VM L pings VM X through it"
	xc_stop
	ip link del "$tap"
	check_accounted xc2.log 2
}
TESTS+=(t_trunk_linux_interop)
SLOW_ONCE+=(t_trunk_linux_interop)
