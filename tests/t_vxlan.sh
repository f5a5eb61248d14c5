# SPDX-License-Identifier: BSD-3-Clause
# tests/t_vxlan.sh - cables across routed networks: VXLAN tunnel ends
# (app/kinds/vxlan.c). Three network namespaces play host A, a router and host
# B, in different subnets (IPv4 and IPv6), so that the tunnels' packets
# are routed; xcable runs on A and on B as user nobody.
# (sourced by tests/run; each t_* function is one test)

# vns NAME - the network namespace of this test called NAME (a, r, b)
vns() { echo "xv${1}-${T##*/}"; }

# three_hosts MTU - hosts a (10.51.1.1, fd51:1::1) and b (10.51.2.1,
# fd51:2::1) on links of MTU to the router r, which routes between them
three_hosts() {
	local mtu=$1 s=${T##*.} h
	for h in a r b; do ip netns add "$(vns $h)" || return 1; done
	ip link add "xa$s" type veth peer name "xra$s" &&
	ip link add "xb$s" type veth peer name "xrb$s" || return 1
	ip link set "xa$s" netns "$(vns a)" name eth0 &&
	ip link set "xra$s" netns "$(vns r)" name ra &&
	ip link set "xb$s" netns "$(vns b)" name eth0 &&
	ip link set "xrb$s" netns "$(vns r)" name rb || return 1
	ip netns exec "$(vns r)" sysctl -qw net.ipv4.ip_forward=1 \
		net.ipv6.conf.all.forwarding=1 || return 1
	for h in a r b; do ip -n "$(vns $h)" link set lo up; done
	host_addr r ra "$mtu" 10.51.1.254/24 fd51:1::fe/64 &&
	host_addr r rb "$mtu" 10.51.2.254/24 fd51:2::fe/64 &&
	host_addr a eth0 "$mtu" 10.51.1.1/24 fd51:1::1/64 &&
	host_addr b eth0 "$mtu" 10.51.2.1/24 fd51:2::1/64 || return 1
	ip -n "$(vns a)" route add default via 10.51.1.254 &&
	ip -n "$(vns a)" -6 route add default via fd51:1::fe &&
	ip -n "$(vns b)" route add default via 10.51.2.254 &&
	ip -n "$(vns b)" -6 route add default via fd51:2::fe || return 1
	say "hosts a (10.51.1.1, fd51:1::1) and b (10.51.2.1, fd51:2::1), MTU $mtu; from a: $(ip -n "$(vns a)" route get 10.51.2.1 | head -n 1); $(ip -n "$(vns a)" -6 route get fd51:2::1 | head -n 1 | cut -d' ' -f1-5)"
	# sockets nobody creates, where root's frontends reach them
	chmod 0711 "$T" && mkdir -p "$T/s" && chown nobody "$T/s"
}

# host_addr HOST IFACE MTU ADDR4 ADDR6 - bring an interface up with MTU
# and addresses
host_addr() {
	ip -n "$(vns "$1")" link set "$2" mtu "$3" up &&
	ip -n "$(vns "$1")" addr add "$4" dev "$2" &&
	ip -n "$(vns "$1")" addr add "$5" dev "$2" nodad
}

# vx_start HOST LOG ARGS... - xcable as nobody (as root if VX_ROOT=1) in
# HOST's namespace, with a runtime directory of its own (pid in
# VXPID_HOST); waits until it runs
vx_start() {
	local h=$1 log=$2 pid as=(); shift 2
	[ "${VX_ROOT:-0}" = 1 ] ||
		as=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups)
	mkdir -p "$T/run-$h" && chown nobody "$T/run-$h" || return 1
	rm -f "$T/run-$h/x.json"
	ip netns exec "$(vns "$h")" env XDG_RUNTIME_DIR="$T/run-$h" \
		"${as[@]}" "$XC" "$@" --stats-json "$T/run-$h/x.json" >"$log" 2>&1 &
	pid=$!
	XC_PIDS+=("$pid")
	eval "VXPID_$h=$pid"
	wait_log "$log" "running;" 1 20 ||
		{ tail -n 5 "$log"; fail "xcable on host $h did not start"; return 1; }
}

# vx_stop HOST LOG - SIGTERM; the exit status must be 0; its counters go
# to $(stats_json LOG)
vx_stop() {
	local pid rc
	eval "pid=\$VXPID_$1"
	kill -TERM "$pid"; wait "$pid"; rc=$?
	cp "$T/run-$1/x.json" "$(stats_json "$2")" 2>/dev/null
	[ $rc = 0 ] || fail "xcable on host $1 exited with $rc"
}

# vx_counter LOG FIELD - a counter of the tunnel socket (app/kinds/vxlan.c's
# vxlan_counters) in $(stats_json LOG)
vx_counter() {
	/usr/bin/python3 - "$(stats_json "$1")" "$2" <<'PY'
import json, sys
try:
    socks = json.load(open(sys.argv[1]))["vxlan"]
    assert len(socks) == 1, socks
    print(list(socks.values())[0]["counters"][sys.argv[2]])
except (OSError, ValueError, KeyError) as e:
    sys.exit("vx_counter: %s: %s" % (sys.argv[2], e))
PY
}

# peer_frames OUT SOCK_OR_VDEV... -- LOG... - the frame catalogue both ways
# between two frontends, once each LOG said "link up"; FRAMES_N: frames
# each way. A frontend is a socket, or a --vdev argument (in $PEER_NS);
# with PEER_RECORD=P the frames sent are recorded (xcpeer --record P)
peer_frames() {
	local out=$1 eal=() i=0 a pp prc; shift
	while [ "$1" != -- ]; do
		case $1 in
		--vdev=*) eal+=("$1") ;;
		*) eal+=("--vdev=net_virtio_user$i,path=$1,queue_size=256") ;;
		esac
		i=$((i + 1)); shift
	done
	shift
	rm -f "$T/go"
	${PEER_NS:+ip netns exec "$PEER_NS"} "$XCPEER" -l 0 --no-pci --in-memory \
		--single-file-segments -m 128 --log-level=lib.eal:warning \
		--file-prefix="xcpeer$$_$RANDOM" "${eal[@]}" -- frames --rounds 2 \
		${PEER_RECORD:+--record "$PEER_RECORD"} --wait-file "$T/go" >"$out" 2>&1 &
	pp=$!
	for a in "$@"; do
		wait_log "$a" "link up" 1 30 || { kill $pp; fail "no frontend on $a"; return 1; }
	done
	sleep 0.5
	touch "$T/go"
	wait $pp; prc=$?
	grep -E '^FAIL' "$out" | head -n 5 | sed 's/^/  peer: /'
	grep -E 'catalogue' "$out" | sed 's/^/  peer: /'
	[ $prc = 0 ] || { tail -n 3 "$out" | sed 's/^/  peer: /'; fail "frames missing or altered"; return 1; }
	FRAMES_N=$(( $(sed -nE 's/.*catalogue: ([0-9]+) frames.*/\1/p' "$out") / 2 ))
	# a frame left waiting for the lcore's longest sleep (a lost
	# wake-up: seconds) is caught even when it arrives in time
	awk '/slowest arrived after/ { if ($(NF - 1) + 0 >= 500000) bad = 1 } END { exit bad }' "$out" ||
		{ fail "a frame waited half a second or more: a lost wake-up"; return 1; }
}

# vx_clean LOG - the tunnel socket dropped nothing, and received
vx_clean() {
	local n bad=0 c
	for c in rx-short rx-bad-flags rx-too-big unknown-vni unknown-remote \
		 backlog tx-too-big tx-error; do
		n=$(vx_counter "$1" $c) || return 1
		[ "$n" = 0 ] || { say "$1: $c $n"; bad=1; }
	done
	say "$1: vxlan rx-datagrams $(vx_counter "$1" rx-datagrams), tx-datagrams $(vx_counter "$1" tx-datagrams), no drop"
	[ $bad = 0 ] || fail "the tunnel socket dropped frames"
}

# routed_family FAM REMOTE_FROM_A REMOTE_FROM_B LOCAL_B - one cable per
# host, a socket end and a tunnel end on port 14789, over IPv4 or IPv6;
# host a's socket is dual-stack, host b's bound to LOCAL_B
routed_family() {
	local f=$1
	vx_start a xa$f.log --left "$T/s/a.sock" --right-vxlan "$2" --vni 100 \
		--vxlan-port 14789 || return 1
	vx_start b xb$f.log --left "$T/s/b.sock" --right-vxlan "$3" --vni 100 \
		--vxlan-port 14789 --vxlan-local "$4" || return 1
	say "IPv$f: host a: --right-vxlan $2, host b: --right-vxlan $3 --vxlan-local $4, --vni 100 --vxlan-port 14789, as $(ps -o user= -p "$VXPID_a")"
	peer_frames peer$f.log "$T/s/a.sock" "$T/s/b.sock" -- xa$f.log xb$f.log || return 1
	vx_stop a xa$f.log && vx_stop b xb$f.log || return 1
	check_dir_clean xa$f.log "cable0 left->right" "$FRAMES_N" &&
	check_dir_clean xa$f.log "cable0 right->left" "$FRAMES_N" &&
	check_dir_clean xb$f.log "cable0 left->right" "$FRAMES_N" &&
	check_dir_clean xb$f.log "cable0 right->left" "$FRAMES_N" || return 1
	vx_clean xa$f.log && vx_clean xb$f.log || return 1
	[ "$(vx_counter xa$f.log rx-datagrams)" = "$FRAMES_N" ] ||
		fail "host a received $(vx_counter xa$f.log rx-datagrams) datagrams for $FRAMES_N frames"
}

t_vxlan_routed() {
	three_hosts 9100 || return 1
	routed_family 4 10.51.2.1 10.51.1.1:14789 10.51.2.1 || return 1
	routed_family 6 "[fd51:2::1]" "[fd51:1::1]:14789" fd51:2::1
}
TESTS+=(t_vxlan_routed)

# linux_family FAM REMOTE_FROM_A LOCAL_B REMOTE_B - xcable on host a
# against a Linux vxlan device on host b (vni 100, port 14789): a frontend
# on a's socket and DPDK's pcap driver on b's vx0 (libpcap puts back VLAN
# tags the kernel took off, with their own TPID) swap the catalogue
linux_family() {
	local f=$1
	ip -n "$(vns b)" link add vx0 type vxlan id 100 local "$3" remote "$4" \
		dstport 14789 || { fail "cannot create the vxlan device"; return 1; }
	ip netns exec "$(vns b)" sysctl -qw net.ipv6.conf.vx0.disable_ipv6=1
	ip -n "$(vns b)" link set vx0 mtu 9000 up || return 1
	say "host b: $(ip -n "$(vns b)" -d link show vx0 | grep -o 'vxlan id.*dstport [0-9]*')"
	vx_start a xl$f.log --left "$T/s/a.sock" --right-vxlan "$2" --vni 100 \
		--vxlan-port 14789 || return 1
	PEER_NS=$(vns b) peer_frames peerl$f.log "$T/s/a.sock" \
		"--vdev=net_pcap0,rx_iface_in=vx0,tx_iface=vx0" -- xl$f.log || return 1
	vx_stop a xl$f.log || return 1
	ip -n "$(vns b)" link del vx0
	check_dir_clean xl$f.log "cable0 left->right" "$FRAMES_N" &&
	check_dir_clean xl$f.log "cable0 right->left" "$FRAMES_N" &&
	vx_clean xl$f.log
}

t_vxlan_linux() {
	three_hosts 9100 || return 1
	linux_family 4 10.51.2.1 10.51.2.1 10.51.1.1 || return 1
	linux_family 6 "[fd51:2::1]" fd51:2::1 fd51:1::1
}
TESTS+=(t_vxlan_linux)

# demux_ini HOST PEER - two cables on the one tunnel port: c1 (vni 100)
# and c2 (vni 200), both to PEER, from sockets HOST1 and HOST2
demux_ini() {
	cat <<EOF2
[global]
stats-interval = 0
vxlan-port = 14789
[cable c1]
left = $T/s/${1}1.sock
right-vxlan = $2
right-vni = 100
[cable c2]
left = $T/s/${1}2.sock
right-vxlan = $2
right-vni = 200
EOF2
}

# crafted NS DST COUNT KIND - send COUNT datagrams of KIND to DST:14789
# from namespace NS: vni300 (a VNI no tunnel has), vni100 (a good one,
# sent from where no tunnel goes), short (10 bytes), noflag (the I flag
# not set)
crafted() {
	ip netns exec "$(vns "$1")" /usr/bin/python3 - "$2" "$3" "$4" <<'PY'
import socket, struct, sys
dst, count, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3]
frame = bytes.fromhex("525400abcdef525400123456") + b"\x88\xb5" + bytes(46)
pkt = {"vni300": struct.pack("!II", 0x08000000, 300 << 8) + frame,
       "vni100": struct.pack("!II", 0x08000000, 100 << 8) + frame,
       "short": bytes(10),
       "noflag": struct.pack("!II", 0x00000000, 100 << 8) + frame}[kind]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(count):
    s.sendto(pkt, (dst, 14789))
PY
}

# listen_on SOCK OUT SECONDS - a frontend that only counts what comes
listen_on() {
	"$XCPEER" $(peer_eal "$1") -- stream --id 3 --pps 0 --seconds "$3" >"$2" 2>&1
}

# vx_observe HOST CABLE - xcablectl show (text and JSON) and telemetry of
# HOST's xcable describe CABLE's tunnel end (remote, VNI, local) and the
# socket's counters, the same in all three
vx_observe() {
	local pid dir
	eval "pid=\$VXPID_$1"
	dir=$T/run-$1/dpdk/xcable-$pid
	"$BUILD/app/xcablectl" -s "$dir/xcable.ctl" show "$2" >show.txt &&
	"$BUILD/app/xcablectl" -s "$dir/xcable.ctl" show "$2" --json >show.json ||
		{ cat show.txt; fail "xcablectl show $2 failed"; return 1; }
	sed 's/^/  xcablectl: /' show.txt | grep -E 'vxlan|right'
	/usr/bin/python3 - "$dir/dpdk_telemetry.v2" "$2" show.json show.txt <<'PY' || { fail "xcablectl and telemetry do not describe the tunnel"; return 1; }
import json, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.connect(sys.argv[1])
s.recv(16384)
s.send(("/xcable/cable," + sys.argv[2]).encode())
tel = json.loads(s.recv(65536).decode())["/xcable/cable"]
show = json.load(open(sys.argv[3]))
end = show["cables"][sys.argv[2]]["ends"][1]
vx = show["vxlan"]["[::]:14789"]["counters"]
text = open(sys.argv[4]).read()
print("  telemetry: end1 kind %s remote %s vni %d local %s, vxlan/unknown_vni %d"
      % (tel["end1/kind"], tel["end1/remote"], tel["end1/vni"], tel["end1/local"], tel["end1/vxlan/unknown_vni"]))
assert end["kind"] == "vxlan" and end["remote"] == "10.51.2.1:14789" and end["vni"] == 100, end
assert tel["end1/kind"] == "vxlan" and tel["end1/remote"] == "10.51.2.1:14789" and tel["end1/vni"] == 100
assert tel["end1/local"] == show["vxlan"]["[::]:14789"]["local"] == "[::]:14789"
for k, v in vx.items():
    assert tel["end1/vxlan/" + k.replace("-", "_")] == v, k
    assert " %s %d" % (k, v) in text, k
assert "vxlan 10.51.2.1:14789 vni 100" in text
assert vx["unknown-vni"] == 7 and vx["rx-short"] == 3
PY
}

t_vxlan_demux() {
	local l1 l2 n o c
	three_hosts 1500 || return 1
	demux_ini a 10.51.2.1 >a.ini && demux_ini b 10.51.1.1 >b.ini
	vx_start a xa.log --config a.ini && vx_start b xb.log --config b.ini || return 1
	for n in 1 2; do
		o=$((3 - n))
		listen_on "$T/s/a$o.sock" la$n.out 8 & l1=$!
		listen_on "$T/s/b$o.sock" lb$n.out 8 & l2=$!
		peer_frames peer$n.log "$T/s/a$n.sock" "$T/s/b$n.sock" -- xa.log xb.log || return 1
		wait $l1 $l2
		say "cable c$n (vni $((n * 100))) carried the catalogue; c$o's frontends meanwhile: $(grep -oE 'stray [0-9]+' la$n.out) (a), $(grep -oE 'stray [0-9]+' lb$n.out) (b)"
		grep -q "^stray 0$" la$n.out && grep -q "^stray 0$" lb$n.out &&
			! grep -q "^received-from" la$n.out lb$n.out ||
			{ fail "frames of c$n leaked into c$o"; return 1; }
	done
	# to host a: 7 with an unknown VNI, 5 good ones from the router (an
	# unknown remote), 3 short, 4 without the I flag
	crafted b 10.51.1.1 7 vni300 && crafted r 10.51.1.1 5 vni100 &&
	crafted b 10.51.1.1 3 short && crafted b 10.51.1.1 4 noflag ||
		{ fail "cannot send crafted datagrams"; return 1; }
	sleep 1
	vx_observe a c1 || return 1
	# the bad datagrams disturbed no cable
	peer_frames peer3.log "$T/s/a2.sock" "$T/s/b2.sock" -- xa.log xb.log || return 1
	say "after them, c2 still carries the catalogue"
	vx_stop a xa.log && vx_stop b xb.log || return 1
	grep '^vxlan' xa.log | sed 's/^/  host a: /'
	for c in "unknown-vni 7" "unknown-remote 5" "rx-short 3" "rx-bad-flags 4" \
		 "rx-too-big 0" "backlog 0" "tx-error 0"; do
		[ "$(vx_counter xa.log "${c% *}")" = "${c#* }" ] ||
			{ fail "host a: ${c% *} is $(vx_counter xa.log "${c% *}"), expected ${c#* }"; return 1; }
	done
	say "host a counted exactly: 7 unknown-vni, 5 unknown-remote, 3 rx-short, 4 rx-bad-flags"
	check_accounted xa.log && check_accounted xb.log ||
		fail "frames not accounted for"
}
TESTS+=(t_vxlan_demux)
SAN_ONCE+=(t_vxlan_demux)	# many tunnels; t_vxlan_routed runs one on both

# transit_ini - the router's one cable: a tunnel to host a (vni 100) and
# a tunnel to host b (vni 200), on one socket
transit_ini() {
	cat <<EOF2
[global]
stats-interval = 0
vxlan-port = 14789
[cable transit]
left-vxlan = 10.51.1.1
left-vni = 100
right-vxlan = 10.51.2.1
right-vni = 200
EOF2
}

# a transit cable: both ends tunnels. Host a's and host b's frontends
# reach each other through the router's xcable, whose one lcore and one
# socket serve both tunnels (each receive sorts frames for the other too)
t_vxlan_transit() {
	local us
	three_hosts 9100 || return 1
	transit_ini >r.ini
	vx_start r xr.log --config r.ini || return 1
	vx_start a xa.log --left "$T/s/a.sock" --right-vxlan 10.51.1.254 --vni 100 \
		--vxlan-port 14789 || return 1
	vx_start b xb.log --left "$T/s/b.sock" --right-vxlan 10.51.2.254 --vni 200 \
		--vxlan-port 14789 || return 1
	say "router: cable transit, left-vxlan 10.51.1.1 vni 100, right-vxlan 10.51.2.1 vni 200; hosts a and b tunnel to the router"
	peer_frames peert.log "$T/s/a.sock" "$T/s/b.sock" -- xa.log xb.log || return 1
	vx_stop a xa.log && vx_stop b xb.log && vx_stop r xr.log || return 1
	check_dir_clean xr.log "transit left->right" "$FRAMES_N" &&
	check_dir_clean xr.log "transit right->left" "$FRAMES_N" &&
	vx_clean xr.log || return 1
	[ "$(vx_counter xr.log rx-datagrams)" = $((2 * FRAMES_N)) ] &&
	[ "$(vx_counter xr.log tx-datagrams)" = $((2 * FRAMES_N)) ] ||
		{ fail "the router's socket did not carry each frame once each way"; return 1; }
	# a frame sorted for the other tunnel is taken at once, not after
	# the lcore's idle sleep (a lost wake-up would cost up to a second)
	us=$(sed -nE 's/.*slowest arrived after ([0-9]+) us.*/\1/p' peert.log)
	say "slowest frame through the transit cable: ${us:-?} us"
	[ -n "$us" ] && [ "$us" -lt 100000 ] || fail "a frame waited for the idle sleep"
}
TESTS+=(t_vxlan_transit)

t_vxlan_idle() {
	local l1 l2 a0 b0 a1 b1 hz lat
	three_hosts 1500 || return 1
	vx_start a xa.log --left "$T/s/a.sock" --right-vxlan 10.51.2.1 --vni 5 || return 1
	vx_start b xb.log --left "$T/s/b.sock" --right-vxlan 10.51.1.1 --vni 5 || return 1
	# idle: frontends attached, nothing sent
	listen_on "$T/s/a.sock" la.out 9 & l1=$!
	listen_on "$T/s/b.sock" lb.out 9 & l2=$!
	wait_log xa.log "link up" 1 30 && wait_log xb.log "link up" 1 30 ||
		{ fail "frontends did not attach"; return 1; }
	sleep 2
	a0=$(cpu_ticks "$VXPID_a"); b0=$(cpu_ticks "$VXPID_b")
	sleep 5
	a1=$(cpu_ticks "$VXPID_a"); b1=$(cpu_ticks "$VXPID_b")
	wait $l1 $l2
	hz=$(getconf CLK_TCK)
	say "idle for 5 s with frontends attached: xcable a used $(( (a1 - a0) * 100 / (5 * hz) ))% of a core, b $(( (b1 - b0) * 100 / (5 * hz) ))% (ticks $((a1 - a0)), $((b1 - b0)) at $hz/s)"
	[ $(( (a1 - a0) * 100 )) -le $(( 2 * 5 * hz )) ] &&
	[ $(( (b1 - b0) * 100 )) -le $(( 2 * 5 * hz )) ] ||
		{ fail "an idle tunnel costs more than 2% of a core"; return 1; }
	# a frame every 3 ms: each finds both xcables asleep, and must wake
	# them at once (a datagram on the socket, a guest's kick)
	rm -f "$T/go"
	"$XCPEER" $(peer_eal "$T/s/a.sock" "$T/s/b.sock") -- latency --count 200 \
		--gap-us 3000 --wait-file "$T/go" >lat.log 2>&1 & l1=$!
	wait_log xa.log "link up" 2 30 && wait_log xb.log "link up" 2 30 ||
		{ kill $l1; fail "frontends did not attach again"; return 1; }
	sleep 0.5
	touch "$T/go"
	wait $l1 || { cat lat.log; fail "latency run failed"; return 1; }
	grep '^latency' lat.log | sed 's/^/  peer: /'
	for lat in $(sed -nE 's/^latency .*median_us ([0-9]+).*/\1/p' lat.log); do
		[ "$lat" -lt 1000 ] || { fail "frames through sleeping tunnels took $lat us: not woken at once"; return 1; }
	done
	[ -n "$lat" ] || { fail "no latency measured"; return 1; }
	[ "$(grep -c '^latency .* sent 200 received 200 ' lat.log)" = 2 ] ||
		{ fail "frames were lost through sleeping tunnels"; return 1; }
	vx_stop a xa.log && vx_stop b xb.log
}
TESTS+=(t_vxlan_idle)
ONCE+=(t_vxlan_idle)	# CPU and latency of build/

t_vxlan_offload() {
	local pp rc
	three_hosts 1500 || return 1
	vx_start a xa.log --left "$T/s/a.sock" --right-vxlan 10.51.2.1 --vni 9 || return 1
	vx_start b xb.log --left "$T/s/b.sock" --right-vxlan 10.51.1.1 --vni 9 || return 1
	# a guest sending TSO frames and partial checksums (TCP and UDP, IPv4
	# and IPv6, VLAN and QinQ) on host a, one without offloads on host b:
	# the tunnel takes whole, checksummed frames, so they are segmented
	# and checksummed before it
	rm -f "$T/go"
	"$XCPEER" $(peer_eal "$T/s/a.sock" "$T/s/b.sock") -- offload --tx tso --rx none \
		--wait-file "$T/go" >peer.log 2>&1 &
	pp=$!
	wait_log xa.log "link up" 2 30 && wait_log xb.log "link up" 2 30 ||
		{ kill $pp; fail "frontends did not attach"; return 1; }
	sleep 0.5
	touch "$T/go"
	wait $pp; rc=$?
	say "across the tunnel: $(grep -c '^ok' peer.log) ok, $(grep -c '^FAIL' peer.log) failed"
	grep -E '^FAIL|^  ' peer.log | head -n 5 | sed 's/^/  peer: /'
	grep -E '^ok (TCP/IPv6 TSO 60000|TCP/IPv4 TSO 30000)' peer.log | sed 's/^/  peer: /'
	vx_stop a xa.log && vx_stop b xb.log || return 1
	dir_balance xa.log "cable0 left->right" || { fail "host a: frames not accounted for"; return 1; }
	[ "$(counter xa.log "cable0 left->right" segmented)" -gt 0 ] ||
		{ fail "nothing was segmented before the tunnel"; return 1; }
	vx_clean xa.log && vx_clean xb.log || return 1
	[ $rc = 0 ] || { fail "frames from a TSO guest did not arrive whole and checksummed"; return 1; }
	# a TSO frame's segments do not fit a 1500-byte underlay: the
	# kernel refuses them in one UDP_SEGMENT send, and they go one by
	# one, fragmented
	say "host a: tx-gso-refused $(vx_counter xa.log tx-gso-refused), tx-gso-datagrams $(vx_counter xa.log tx-gso-datagrams), tx-datagrams $(vx_counter xa.log tx-datagrams)"
	[ "$(vx_counter xa.log tx-gso-refused)" -gt 0 ] ||
		fail "no run of segments was refused whole over a 1500-byte underlay"
}
TESTS+=(t_vxlan_offload)

# gso_pair MTU DF - the offload frontend (TSO frames and partial
# checksums) from host a to host b over an underlay of MTU, host a with
# --vxlan-df if DF is "df"; rc of the frontend in GSO_RC
gso_pair() {
	local pp df=${2:-}
	rm -rf "$T/s" "$T"/run-*
	cleanup_all >/dev/null 2>&1
	three_hosts "$1" || return 1
	vx_start a xa$1$df.log --left "$T/s/a.sock" --right-vxlan 10.51.2.1 --vni 9 ${df:+--vxlan-df} || return 1
	vx_start b xb$1$df.log --left "$T/s/b.sock" --right-vxlan 10.51.1.1 --vni 9 || return 1
	rm -f "$T/go"
	"$XCPEER" $(peer_eal "$T/s/a.sock" "$T/s/b.sock") -- offload --tx tso --rx none \
		--wait-file "$T/go" >peer$1$df.log 2>&1 &
	pp=$!
	wait_log xa$1$df.log "link up" 1 30 && wait_log xb$1$df.log "link up" 1 30 ||
		{ kill $pp; fail "frontends did not attach"; return 1; }
	sleep 0.5
	touch "$T/go"
	wait $pp; GSO_RC=$?
	vx_stop a xa$1$df.log && vx_stop b xb$1$df.log
}

# where the path allows it, a TSO frame's segments leave in UDP_SEGMENT
# sends and arrive glued (UDP GRO); with DF on a path they do not fit,
# the refused runs go one by one, each frame refused and counted
t_vxlan_gso() {
	local d="cable0 left->right" big
	gso_pair 9100 || return 1
	say "MTU 9100: host a tx-gso-datagrams $(vx_counter xa9100.log tx-gso-datagrams) of tx-datagrams $(vx_counter xa9100.log tx-datagrams), tx-gso-refused $(vx_counter xa9100.log tx-gso-refused); host b rx-gro-datagrams $(vx_counter xb9100.log rx-gro-datagrams) of rx-datagrams $(vx_counter xb9100.log rx-datagrams)"
	[ $GSO_RC = 0 ] || { grep '^FAIL' peer9100.log | head -n 3; fail "frames did not arrive whole and checksummed"; return 1; }
	vx_clean xa9100.log && vx_clean xb9100.log || return 1
	[ "$(vx_counter xa9100.log tx-gso-datagrams)" -gt 0 ] &&
	[ "$(vx_counter xa9100.log tx-gso-refused)" = 0 ] &&
	[ "$(vx_counter xb9100.log rx-gro-datagrams)" -gt 0 ] ||
		{ fail "segments did not go in UDP_SEGMENT sends, or did not arrive glued"; return 1; }
	dir_balance xa9100.log "$d" || { fail "host a: frames not accounted for"; return 1; }
	gso_pair 1500 df || return 1
	big=$(vx_counter xa1500df.log tx-too-big)
	say "MTU 1500, --vxlan-df: host a tx-gso-refused $(vx_counter xa1500df.log tx-gso-refused), tx-too-big $big; $d: rx $(counter xa1500df.log "$d" rx-pkts) tx $(counter xa1500df.log "$d" tx-pkts) too-big $(counter xa1500df.log "$d" too-big)"
	[ "$(vx_counter xa1500df.log tx-gso-refused)" -gt 0 ] && [ "$big" -gt 0 ] &&
	[ "$(counter xa1500df.log "$d" too-big)" = "$big" ] ||
		{ fail "refused segments not counted one by one as too-big"; return 1; }
	dir_balance xa1500df.log "$d" || fail "host a: frames not accounted for"
}
TESTS+=(t_vxlan_gso)
SAN_ONCE+=(t_vxlan_gso)	# segmentation; t_vxlan_offload runs on both

t_vxlan_df() {
	local big pp rc d
	three_hosts 1500 || return 1
	vx_start a xa.log --left "$T/s/a.sock" --right-vxlan 10.51.2.1 --vni 9 --vxlan-df || return 1
	vx_start b xb.log --left "$T/s/b.sock" --right-vxlan 10.51.1.1 --vni 9 || return 1
	# over a 1500-byte IPv4 path a frame of up to 1464 bytes fits (50
	# bytes of VXLAN, UDP and IP): host a (--vxlan-df) refuses larger
	# ones, host b lets the kernel fragment them, as Linux does
	rm -f "$T/go"
	"$XCPEER" $(peer_eal "$T/s/a.sock" "$T/s/b.sock") -- frames --rounds 2 --drop-over 1464 \
		--wait-file "$T/go" >peer.log 2>&1 &
	pp=$!
	wait_log xa.log "link up" 1 30 && wait_log xb.log "link up" 1 30 ||
		{ kill $pp; fail "frontends did not attach"; return 1; }
	sleep 0.5
	touch "$T/go"
	wait $pp; rc=$?
	grep -E '^FAIL|catalogue|too-big' peer.log | sed 's/^/  peer: /'
	[ $rc = 0 ] || { fail "frames missing, altered, or too big and arrived"; return 1; }
	big=$(sed -nE 's/^too-big ([0-9]+) .*/\1/p' peer.log)
	vx_stop a xa.log && vx_stop b xb.log || return 1
	grep '^vxlan' xa.log | sed 's/^/  host a: /'
	[ -n "$big" ] && [ "$big" -gt 0 ] && [ "$(vx_counter xa.log tx-too-big)" = "$big" ] ||
		{ fail "host a: tx-too-big $(vx_counter xa.log tx-too-big), the frontend sent ${big:-no} frames above 1464 bytes"; return 1; }
	say "host a's socket refused and counted the $big frames above 1464 bytes (tx-too-big); host b's arrived fragmented"
	# and the cable that sent them counts them as its own drops, not sent
	d="cable0 left->right"
	say "host a, $d: rx $(counter xa.log "$d" rx-pkts) tx $(counter xa.log "$d" tx-pkts) too-big $(counter xa.log "$d" too-big) refused $(counter xa.log "$d" refused) dropped $(counter xa.log "$d" dropped)"
	[ "$(counter xa.log "$d" too-big)" = "$big" ] &&
	[ "$(counter xa.log "$d" dropped)" = "$big" ] &&
	[ "$(counter xa.log "$d" tx-pkts)" = $(( $(counter xa.log "$d" rx-pkts) - big )) ] ||
		{ fail "host a: $d does not count the $big refused frames as too-big"; return 1; }
	check_accounted xa.log 2 && check_accounted xb.log 2 || { fail "frames not accounted for"; return 1; }
	[ "$(vx_counter xb.log tx-too-big)" = 0 ] &&
	[ "$(counter xb.log "$d" dropped)" = 0 ] || fail "host b refused frames"
}
TESTS+=(t_vxlan_df)

t_vxlan_refused() {
	local sent d="cable0 left->right" n
	three_hosts 1500 || return 1
	# host a has no way to 10.77.0.0/16: the kernel refuses every
	# datagram of a tunnel there (EHOSTUNREACH)
	ip -n "$(vns a)" route add unreachable 10.77.0.0/16 || return 1
	vx_start a xa.log --left "$T/s/a.sock" --right-vxlan 10.77.0.1 --vni 7 || return 1
	"$XCPEER" $(peer_eal "$T/s/a.sock") -- stream --id 1 --pps 100 --seconds 2 >peer.log 2>&1 ||
		{ tail -n 3 peer.log; fail "the frontend failed"; return 1; }
	sent=$(sed -nE 's/^sent ([0-9]+)/\1/p' peer.log)
	vx_stop a xa.log || return 1
	grep '^vxlan' xa.log | sed 's/^/  host a: /'
	say "frontend sent ${sent:-no} frames; $d: rx $(counter xa.log "$d" rx-pkts) tx $(counter xa.log "$d" tx-pkts) refused $(counter xa.log "$d" refused) dropped $(counter xa.log "$d" dropped)"
	n=$(vx_counter xa.log tx-error)
	[ -n "$sent" ] && [ "$sent" -gt 0 ] && [ "$n" = "$sent" ] &&
	[ "$(counter xa.log "$d" rx-pkts)" = "$sent" ] &&
	[ "$(counter xa.log "$d" refused)" = "$sent" ] &&
	[ "$(counter xa.log "$d" dropped)" = "$sent" ] &&
	[ "$(counter xa.log "$d" tx-pkts)" = 0 ] ||
		{ fail "the $sent frames the kernel refused are not counted exactly (socket tx-error $n)"; return 1; }
	check_accounted xa.log 2
}
TESTS+=(t_vxlan_refused)

# same_frames PCAPNG SENT_IN SENT_OUT - the capture's frames received by the
# port (EPB flags: inbound) are those of the pcap file SENT_IN, in order,
# byte for byte, and its outbound ones those of SENT_OUT
same_frames() {
	/usr/bin/python3 - "$@" <<'PY'
import struct, sys

def pcapng(path):
    data, off, e, out = open(path, "rb").read(), 0, "<", {1: [], 2: [], 0: []}
    while off + 12 <= len(data):
        if struct.unpack_from("<I", data, off)[0] == 0x0A0D0D0A:
            e = "<" if struct.unpack_from("<I", data, off + 8)[0] == 0x1A2B3C4D else ">"
        btype, blen = struct.unpack_from(e + "II", data, off)
        if btype == 6:
            cap, orig = struct.unpack_from(e + "II", data, off + 20)
            frame = data[off + 28:off + 28 + cap]
            opt, d = off + 28 + (cap + 3) // 4 * 4, 0
            while opt + 4 <= off + blen - 4:
                code, olen = struct.unpack_from(e + "HH", data, opt)
                if code == 0:
                    break
                if code == 2 and olen == 4:
                    d = struct.unpack_from(e + "I", data, opt + 4)[0] & 3
                opt += 4 + (olen + 3) // 4 * 4
            out[d].append(frame if cap == orig else None)
        off += blen
    return out

def pcap(path):
    data, off, out = open(path, "rb").read(), 24, []
    while off + 16 <= len(data):
        incl = struct.unpack_from("<I", data, off + 8)[0]
        out.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
    return out

cap, ok = pcapng(sys.argv[1]), True
for d, name, path in ((1, "in", sys.argv[2]), (2, "out", sys.argv[3])):
    sent = pcap(path)
    same = sum(1 for a, b in zip(cap[d], sent) if a == b)
    print("  capture %s: %d frames, %d of the %d sent identical, in order (%d bytes)"
          % (name, len(cap[d]), same, len(sent), sum(map(len, sent))))
    ok &= len(cap[d]) == len(sent) and same == len(sent) and len(sent) > 0
if cap[0]:
    print("  %d frames without a direction" % len(cap[0]))
sys.exit(0 if ok and not cap[0] else 1)
PY
}

t_vxlan_capture() {
	local prefix dc rc=0
	ensure_hugepages 512 && with_hugetlbfs || { fail "cannot mount a hugetlbfs"; return 1; }
	three_hosts 9100 || { drop_hugetlbfs; return 1; }
	# host a's xcable as root, with shared hugepages: dpdk-dumpcap can
	# attach to it; its cable's right end is the tunnel to host b
	VX_ROOT=1 vx_start a xa.log --left "$T/s/a.sock" --right-vxlan 10.51.2.1 \
		--vni 100 --vxlan-port 14789 &&
	vx_start b xb.log --left "$T/s/b.sock" --right-vxlan 10.51.1.1 --vni 100 \
		--vxlan-port 14789 || { drop_hugetlbfs; return 1; }
	prefix=$(sed -nE 's/.*--file-prefix=([^ ]+) -i net_vhost0.*/\1/p' xa.log)
	[ -n "$prefix" ] || { cat xa.log; drop_hugetlbfs; fail "host a's xcable offers no capture"; return 1; }
	say "host a: $(grep -m1 'capture cable0 with' xa.log | sed 's/^xcable: //')"
	# 2 rounds of the catalogue each way: 84 frames cross the guest end
	ip netns exec "$(vns a)" timeout 60 dpdk-dumpcap --file-prefix="$prefix" \
		-i net_vhost0 -s 16384 -w "$T/cap.pcapng" -c 84 >dumpcap.log 2>&1 & dc=$!
	wait_log dumpcap.log "Packets captured" 1 20 || { cat dumpcap.log; fail "dpdk-dumpcap did not attach"; rc=1; }
	[ $rc = 0 ] && { PEER_RECORD=$T/sent peer_frames peer.log "$T/s/a.sock" "$T/s/b.sock" -- xa.log xb.log || rc=1; }
	wait $dc || { [ $rc = 1 ] || fail "dpdk-dumpcap did not capture 84 frames: $(tr '\r' '\n' <dumpcap.log | grep -a 'received/dropped')"; rc=1; }
	vx_stop a xa.log; vx_stop b xb.log
	drop_hugetlbfs
	[ $rc = 0 ] || return 1
	say "dumpcap: $(tr '\r' '\n' <dumpcap.log | grep -a 'received/dropped')"
	check_dir_clean xa.log "cable0 left->right" "$FRAMES_N" &&
	check_dir_clean xa.log "cable0 right->left" "$FRAMES_N" || return 1
	# what the frontend on host a sent is what the capture shows coming
	# in; what host b's frontend sent, going out to host a's
	same_frames "$T/cap.pcapng" "$T/sent-0.pcap" "$T/sent-1.pcap" ||
		{ fail "the capture on the guest end is not what the frontends sent"; return 1; }
	say "tcpdump reads $(tcpdump -r "$T/cap.pcapng" -nn -q 2>/dev/null | grep -c '^[0-9]') frames from the capture"
}
TESTS+=(t_vxlan_capture)
ONCE+=(t_vxlan_capture)	# as t_capture_dumpcap: dpdk-dumpcap and an ASan primary

# vm_pair_over FAM UNDERLAY_MTU GUEST_MTU - a TCG guest on host a and one
# on host b, joined by xcables across the routed tunnel over IPv4 (FAM 4)
# or IPv6 (FAM 6): ping and iperf3 both ways
vm_pair_over() {
	local f=$1 u=$2 g=$3 ra=10.51.2.1 rb=10.51.1.1 l k over frags
	[ "$f" = 6 ] && ra="[fd51:2::1]" rb="[fd51:1::1]"
	l=$f-$u
	cleanup_all >/dev/null 2>&1	# the previous pair's hosts and VMs
	rm -rf "$T/s" "$T"/run-* a.console b.console a.qemu.log b.qemu.log
	three_hosts "$u" || return 1
	vx_start a xa$l.log --left "$T/s/a.sock" --right-vxlan "$ra" --vni 42 --vxlan-port 14789 &&
	vx_start b xb$l.log --left "$T/s/b.sock" --right-vxlan "$rb" --vni 42 --vxlan-port 14789 || return 1
	boot b "$T/s/b.sock" $B_MAC "xc.role=server xc.ip=10.0.0.2/24 xc.mtu=$g xc.vstream=$VSTREAM"
	boot a "$T/s/a.sock" $A_MAC "xc.role=client xc.ip=10.0.0.1/24 xc.peer=10.0.0.2 xc.mtu=$g xc.secs=3 xc.vstream=$VSTREAM"
	wait_console a XC-DONE 300 || { tail -n 20 a.console; fail "guest A did not finish"; return 1; }
	say "IPv$f underlay: guests with MTU $g over a $u-byte underlay (host a: --right-vxlan $ra):"
	report_traffic || return 1
	vstream_ok || return 1
	kill "${VM_PID[a]}" "${VM_PID[b]}" 2>/dev/null
	vx_stop a xa$l.log && vx_stop b xb$l.log || return 1
	grep '^vxlan' xa$l.log | sed 's/^/  host a: /'
	vx_clean xa$l.log && vx_clean xb$l.log || return 1
	coalesced_ok xb$l.log "cable0 right->left" || return 1
	# a full frame and VXLAN's 50 (IPv4) or 70 (IPv6) bytes: fragmented
	# by host a's kernel exactly when that does not fit the underlay
	k=IpFragCreates over=50
	[ "$f" = 6 ] && k=Ip6FragCreates over=70
	frags=$(ip netns exec "$(vns a)" nstat -asz | awk -v k=$k '$1 == k { print $2 }')
	say "host a's kernel made ${frags:-no} IPv$f fragments ($k) for $((g + 14 + over))-byte packets over MTU $u"
	if [ $((g + 14 + over)) -gt "$u" ]; then
		[ "${frags:-0}" -gt 0 ] || { fail "full frames crossed a $u-byte underlay unfragmented"; return 1; }
	else
		[ "${frags:-1}" = 0 ] || { fail "frames were fragmented though they fit the underlay"; return 1; }
	fi
	[ "$(vx_counter xa$l.log tx-datagrams)" -gt 1000 ] &&
	[ "$(vx_counter xa$l.log rx-datagrams)" -gt 1000 ] ||
		fail "the guests' traffic did not cross the tunnel"
}

t_vxlan_vm() {
	vm_prepare || return 1
	vm_pair_over 4 1500 1500 && vm_pair_over 4 9100 9000
}
TESTS+=(t_vxlan_vm)
SLOW_ONCE+=(t_vxlan_vm)	# two VMs twice; the tunnel's code runs on every build in the other t_vxlan tests

# over IPv6 the fragmenting case only: 9000-byte guests over a 9100-byte
# underlay cross IPv4 in t_vxlan_vm and IPv6 in the frontend tests
t_vxlan_vm6() {
	vm_prepare || return 1
	vm_pair_over 6 1500 1500
}
TESTS+=(t_vxlan_vm6)
SLOW_ONCE+=(t_vxlan_vm6)	# as t_vxlan_vm, over an IPv6 underlay
