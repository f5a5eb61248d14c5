# SPDX-License-Identifier: BSD-3-Clause
# tests/t_netdev.sh - netdev ends (app/kinds/end_netdev.c): a cable end on any
# Linux interface, in another network namespace. One xcable, in the
# test's namespace, has two cables: frontend A's socket <-> interface
# "va" in namespace a, and interface "vb" in namespace b <-> frontend B's
# socket; va and vb are joined by a veth (or a vxlan device on each, or a
# bridge), so the frame catalogue goes vhost -> va ~ vb -> vhost.
# (sourced by tests/run; each t_* function is one test)

# nd_ns HOST - the name of namespace HOST (a or b) of this test
nd_ns() { echo "xn${1}-${T##*/}"; }

# nd_prep - namespaces a and b, no IPv6 (no stray neighbour discovery),
# no IGMP reports for link-local groups (a Linux bridge joins 224.0.0.106,
# the multicast router discovery group, and reports it twice within a
# second of coming up: a stray frame in the catalogue)
nd_prep() {
	local h
	for h in a b; do
		ip netns add "$(nd_ns $h)" && ip -n "$(nd_ns $h)" link set lo up || return 1
		ip netns exec "$(nd_ns $h)" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
		ip netns exec "$(nd_ns $h)" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
		ip netns exec "$(nd_ns $h)" sysctl -qw net.ipv4.igmp_link_local_mcast_reports=0
	done
}

# nd_veth MTU - a veth va (namespace a) - vb (namespace b), up
nd_veth() {
	local s=${T##*.}
	ip link add "na$s" type veth peer name "nb$s" || return 1
	ip link set "na$s" netns "$(nd_ns a)" name va &&
		ip link set "nb$s" netns "$(nd_ns b)" name vb || return 1
	ip -n "$(nd_ns a)" link set va mtu "$1" up && ip -n "$(nd_ns b)" link set vb mtu "$1" up
}

# nd_ini A_NETNS B_NETNS - the config: cable c1 from $T/a.sock to va in
# A_NETNS, c2 from vb in B_NETNS to $T/b.sock; both netdev ends under
# outer tag $ND_TAG if it is set, of type $ND_TAG_TYPE (default 802.1ad)
nd_ini() {
	cat <<EOI
[global]
stats-interval = 0
link-propagation = no
[cable c1]
left = $T/a.sock
right-netdev = va
right-netns = $1
${ND_TAG:+right-tag = $ND_TAG}
${ND_TAG_TYPE:+right-tag-type = $ND_TAG_TYPE}
[cable c2]
left-netdev = vb
left-netns = $2
${ND_TAG:+left-tag = $ND_TAG}
${ND_TAG_TYPE:+left-tag-type = $ND_TAG_TYPE}
right = $T/b.sock
EOI
}

# nd_start A_NETNS B_NETNS [XCABLE] - xcable with nd_ini's config (log
# x.log; XCABLE: a command to run it, default $XC), until both netdev ends
# are up
nd_start() {
	nd_ini "$1" "$2" >x.ini
	rm -f "$(stats_json x.log)"
	${3:-$XC} --config x.ini --stats-json "$(stats_json x.log)" >x.log 2>&1 &
	XC_PID=$!
	XC_PIDS+=("$XC_PID")
	wait_log x.log "running;" 1 20 || { tail -n 5 x.log; fail "xcable did not start"; return 1; }
	nd_wait_up 1 10
}

# nd_wait_up N SECONDS - wait until each netdev end logged "is up" N times
nd_wait_up() {
	wait_log x.log "c1: right: interface va.* is up" "$1" "$2" &&
		wait_log x.log "c2: left: interface vb.* is up" "$1" "$2" ||
		{ tail -n 5 x.log; fail "the netdev ends did not come up"; }
}

# nd_peer LOG MODE [XCPEER OPTIONS] - xcpeer in MODE between the two
# frontends' sockets, output in LOG, started once xcable has seen both
# frontends come up (else the first frame may meet a vhost end not up
# yet: counted peer-down, not lost); rc of xcpeer
nd_peer() {
	local log=$1 pp n; shift
	n=$(grep -c "link up, VM connected" x.log)
	rm -f "$T/go"
	timeout 60 "$XCPEER" $(peer_eal "$T/a.sock" "$T/b.sock") -- "$@" \
		--wait-file "$T/go" >"$log" 2>&1 &
	pp=$!
	wait_log x.log "link up, VM connected" $((n + 2)) 30 || { kill $pp; fail "xcable never saw both frontends"; return 1; }
	touch "$T/go"
	wait $pp
}

# nd_frames WHAT [XCPEER OPTIONS] - the catalogue both ways, byte for byte
nd_frames() {
	local what=$1 rc; shift
	nd_peer peer.log frames --rounds 1 "$@"
	rc=$?
	grep -E '^FAIL' peer.log | head -n 5 | sed 's/^/  peer: /'
	say "$what: $(grep catalogue peer.log); $(grep -E "^(ok|FAIL) (QinQ|LACP)" peer.log | tr "\n" " ")"
	[ $rc = 0 ] || fail "frames altered or lost $what"
}

# nd_stop - SIGTERM; exit 0, and every frame accounted for
nd_stop() {
	xc_stop
	[ "$XC_RC" = 0 ] || { tail -n 5 x.log; fail "xcable exited with $XC_RC"; return 1; }
	check_accounted x.log 4
}

# the catalogue (60 to 9018 bytes, STP, LACP, LLDP, 802.1Q, QinQ with
# 0x88a8 outside, unknown ethertypes) through a veth whose ends are in two
# other namespaces, one named by its path, one by a process in it; the
# veth's MTU is 9000, so the catalogue's largest frames (9014 bytes, and
# 9018 with an 802.1Q tag) are as large as the interface takes
t_netdev_veth() {
	local pid
	ensure_hugepages 256 || { fail "cannot reserve hugepages"; return 1; }
	nd_prep && nd_veth 9000 || { fail "cannot create namespaces and veth"; return 1; }
	ip netns exec "$(nd_ns b)" sleep 120 & pid=$!
	XC_PIDS+=("$pid")
	nd_start "/run/netns/$(nd_ns a)" "$pid" || return 1
	grep -q "c2: left (vb in $pid) <-> right" x.log || { grep "<->" x.log; fail "the end is not called by its interface and namespace"; return 1; }
	nd_frames "through a veth between two namespaces" || return 1
	nd_stop
}
TESTS+=(t_netdev_veth)

# nd_offload_round N WHAT - the offload frontend from A to B (TSO frames
# and partial checksums; B takes no offloads), with xcable already
# running: its cases checked in peer-N.log; rc of the frontend
nd_offload_round() {
	local rc
	nd_peer peer-$1.log offload --tx tso --rx none
	rc=$?
	say "$2: $(grep -c '^ok' peer-$1.log) ok, $(grep -c '^FAIL' peer-$1.log) failed"
	grep -E '^FAIL|^  ' peer-$1.log | head -n 5 | sed 's/^/  peer: /'
	grep -E '^ok (TCP/IPv6 TSO 60000|TCP/IPv4 TSO 30000)' peer-$1.log | sed 's/^/  peer: /'
	return $rc
}

# offloads through the packet sockets (PACKET_VNET_HDR): frontend A sends
# TSO frames and partial checksums (TCP and UDP, IPv4 and IPv6, VLAN and
# QinQ inside) to frontend B, which takes no offloads. First the TSO
# frames cross va ~ vb whole, as GSO packets, and c2 cuts them for B;
# then va has no TSO and no checksum offload, so the kernel cuts them and
# completes every checksum itself from what c1 told it (the virtio-net
# header, the pseudo-header sum c1 wrote): either way B gets exactly the
# segments a guest's TSO would make, every checksum right
t_netdev_offload() {
	local rc1 rc2 a b s1 s2 w=""
	nd_prep && nd_veth 9000 || { fail "cannot create namespaces and veth"; return 1; }
	nd_start "/run/netns/$(nd_ns a)" "/run/netns/$(nd_ns b)" || return 1
	[ -n "${ND_TAG:-}" ] && w=" under tag $ND_TAG"
	nd_offload_round 1 "GSO packets across va ~ vb$w"; rc1=$?
	# the counters so far (counter reads now.json)
	"$XCTL" -p "xcable-$XC_PID" list --json >now.json 2>&1 || { cat now.json; fail "xcablectl list failed"; return 1; }
	a=$(counter now "c1 left->right" segmented) s1=$(counter now "c2 left->right" segmented)
	if [ -n "${ND_TAG:-}" ]; then
		# the ends say their tag (xcablectl list --json)
		/usr/bin/python3 -c 'import json, sys
d = json.load(open("now.json"))["cables"]
t = [(e["interface"], e.get("tag"), e.get("tag-type")) for c in ("c1", "c2") for e in d[c]["ends"] if e["kind"] == "netdev"]
print("  netdev ends: " + ", ".join("%s tag %s type 0x%x" % x for x in t))
sys.exit(0 if all(x[1] == int(sys.argv[1]) and x[2] == 0x88a8 for x in t) and len(t) == 2 else 1)' "$ND_TAG" ||
			{ fail "the netdev ends do not show tag $ND_TAG"; return 1; }
	fi
	ip netns exec "$(nd_ns a)" ethtool -K va tso off gso off tx off >/dev/null ||
		{ fail "cannot turn va's offloads off"; return 1; }
	nd_offload_round 2 "va without offloads: the kernel cuts and sums"; rc2=$?
	nd_stop || return 1
	b=$(counter x.log "c1 left->right" segmented) s2=$(counter x.log "c2 left->right" segmented)
	say "c1 left->right (to va): segmented $b; c2 left->right (to B): segmented $s1 in the first round, $((s2 - s1)) in the second"
	[ $rc1 = 0 ] && [ $rc2 = 0 ] || { fail "frames from a TSO frontend did not arrive as the right segments"; return 1; }
	[ "$a" = 0 ] && [ "$b" = 0 ] && [ "$s1" -gt 0 ] && [ "$s2" = "$s1" ] ||
		fail "TSO frames were not cut where they should be (xcable: only for B, in the first round)"
}
TESTS+=(t_netdev_offload)

# the same with both netdev ends under an 802.1ad tag: a TSO frame crosses
# va ~ vb whole with the end's tag between its MAC addresses and the rest
# (and, for the frontend's QinQ frames, two tags), and the kernel cuts
# tagged ones right when va cannot
t_netdev_offload_tagged() { ND_TAG=30 t_netdev_offload; }
TESTS+=(t_netdev_offload_tagged)

# the same through a Linux vxlan device in each namespace (VNI 42 over a
# veth carrying IPv4): what af_xdp cannot attach to
t_netdev_vxlan() {
	local h ip peer
	ensure_hugepages 256 || { fail "cannot reserve hugepages"; return 1; }
	nd_prep || { fail "cannot create namespaces"; return 1; }
	ip link add "ua${T##*.}" type veth peer name "ub${T##*.}" &&
		ip link set "ua${T##*.}" netns "$(nd_ns a)" name u &&
		ip link set "ub${T##*.}" netns "$(nd_ns b)" name u || { fail "cannot create the underlay"; return 1; }
	for h in a b; do
		ip=10.99.0.1 peer=10.99.0.2
		[ $h = b ] && ip=10.99.0.2 peer=10.99.0.1
		ip -n "$(nd_ns $h)" link set u mtu 9200 up &&
			ip -n "$(nd_ns $h)" addr add "$ip/24" dev u &&
			ip -n "$(nd_ns $h)" link add "v$h" type vxlan id 42 remote "$peer" local "$ip" dstport 4789 dev u &&
			ip -n "$(nd_ns $h)" link set "v$h" mtu 9100 up || { fail "cannot create vxlan device v$h"; return 1; }
	done
	nd_start "/run/netns/$(nd_ns a)" "/run/netns/$(nd_ns b)" || return 1
	nd_frames "through Linux vxlan devices (VNI 42) in two namespaces" || return 1
	nd_stop
}
TESTS+=(t_netdev_vxlan)

# the same with va a port of a Linux bridge: the end sees what comes to
# the port before the bridge does (its link-local groups too) and sends
# out of it
t_netdev_bridge() {
	local n
	ensure_hugepages 256 || { fail "cannot reserve hugepages"; return 1; }
	nd_prep && nd_veth 9100 || { fail "cannot create namespaces and veth"; return 1; }
	n=$(nd_ns a)
	ip -n "$n" link add br0 type bridge stp_state 0 &&
		ip -n "$n" link set va master br0 && ip -n "$n" link set br0 up ||
		{ fail "cannot create the bridge"; return 1; }
	nd_start "/run/netns/$n" "/run/netns/$(nd_ns b)" || return 1
	nd_frames "through a port of a Linux bridge" || return 1
	nd_stop
}
TESTS+=(t_netdev_bridge)

# an interface's down and up is the end's carrier; one deleted takes the
# end down (logged), and one of the same name created again brings it
# back: frames cross after each
t_netdev_down_up() {
	local a b
	ensure_hugepages 256 || { fail "cannot reserve hugepages"; return 1; }
	nd_prep && nd_veth 1500 || { fail "cannot create namespaces and veth"; return 1; }
	a=/run/netns/$(nd_ns a) b=/run/netns/$(nd_ns b)
	nd_start "$a" "$b" || return 1
	ip -n "$(nd_ns a)" link set va down
	wait_log x.log "c1: right: interface va in $a is down" 1 10 ||
		{ tail -n 5 x.log; fail "an interface set down did not take its end down"; return 1; }
	"$BUILD/app/xcablectl" -s "$(grep -o '/[^ ]*xcable.ctl' x.log | head -n 1)" show c1 >show.out 2>&1
	grep -q "right: netdev va in $a link down" show.out || { cat show.out; fail "xcablectl show does not say the end is down"; return 1; }
	ip -n "$(nd_ns a)" link set va up
	nd_wait_up 2 10 || return 1
	nd_frames "after va down and up" --drop-over 1514 --drop-over-back 1514 || return 1
	ip -n "$(nd_ns a)" link del va
	wait_log x.log "c1: right: interface va in $a is gone" 1 10 &&
		wait_log x.log "c2: left: interface vb in $b is gone" 1 10 ||
		{ tail -n 5 x.log; fail "a deleted interface did not take its end down with a message"; return 1; }
	nd_veth 1500 || { fail "cannot create the veth again"; return 1; }
	wait_log x.log "c1: right: interface va in $a is back" 1 10 && nd_wait_up 3 10 ||
		{ tail -n 5 x.log; fail "the ends did not come back with their interfaces"; return 1; }
	say "$(grep -c 'interface v[ab] .* is \(down\|up\|gone\|back\)' x.log) state changes logged: down, up, gone, back"
	nd_frames "after va deleted and created again" --drop-over 1514 --drop-over-back 1514 || return 1
	nd_stop
}
TESTS+=(t_netdev_down_up)

# frames the kernel drops before xcable reads them are counted: xcable
# stopped (SIGSTOP) while 20000 frames of 1500 bytes arrive on va fills
# the end's socket buffer (4 MB); once it runs again, the end's socket
# counters (xcablectl show --json, "interfaces") say how many the kernel
# queued and dropped, and every frame sent is either received by the
# cable or a kernel drop
t_netdev_kernel_drops() {
	local a b ctl
	ensure_hugepages 256 || { fail "cannot reserve hugepages"; return 1; }
	nd_prep && nd_veth 1500 || { fail "cannot create namespaces and veth"; return 1; }
	a=/run/netns/$(nd_ns a) b=/run/netns/$(nd_ns b)
	nd_start "$a" "$b" || return 1
	ctl=$(grep -o '/[^ ]*xcable.ctl' x.log | head -n 1)
	kill -STOP "$XC_PID"
	ip netns exec "$(nd_ns b)" /usr/bin/python3 - <<'PY' || { kill -CONT "$XC_PID"; fail "cannot send on vb"; return 1; }
import socket
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("vb", 0))
f = b"\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02\x88\xb5" + bytes(1486)
for i in range(20000):
    s.send(f)
PY
	kill -CONT "$XC_PID"
	sleep 3		# the main thread reads the kernel's counters every 2 s
	"$BUILD/app/xcablectl" -s "$ctl" show c1 --json >show.json 2>&1
	"$BUILD/app/xcablectl" -s "$ctl" show c1 >show.out 2>&1
	/usr/bin/python3 - show.json <<'PY' || { cat show.json; fail "the kernel's drops are not counted, or frames are missing"; return 1; }
import json, sys
doc = json.load(open(sys.argv[1]))
hub = list(doc["interfaces"].values())
assert len(hub) == 1 and hub[0]["interface"] == "va", hub
k = hub[0]["counters"]
rx = doc["cables"]["c1"]["directions"]["right->left"]["counters"]["rx-pkts"]
print("  sent 20000 frames to a stopped xcable: the kernel queued %d and dropped %d; the cable received %d"
      % (k["kernel-packets"], k["kernel-drops"], rx))
assert k["kernel-drops"] > 0 and rx + k["kernel-drops"] == 20000, (k, rx)
PY
	grep -q "^  interface va in $a: kernel-packets [0-9]* kernel-drops [1-9]" show.out ||
		{ cat show.out; fail "xcablectl show lacks the interface's counters"; return 1; }
	nd_stop
}
TESTS+=(t_netdev_kernel_drops)

# an unknown interface or namespace stops xcable at start (exit 2) with a
# message naming it; at runtime an add asking for one is refused with an
# error and the lab stays as it was
t_netdev_bad_names() {
	local rc ok=0 ctl
	nd_prep && nd_veth 1500 || { fail "cannot create namespaces and veth"; return 1; }
	nd_bad() {	# NETNS_A EXPECTED - exit 2 and the last line EXPECTED
		nd_ini "$1" "/run/netns/$(nd_ns b)" >bad.ini
		timeout 20 "$XC" --config bad.ini >bad.log 2>&1
		rc=$?
		say "right-netns = $1: exit $rc, $(tail -n 1 bad.log)"
		[ $rc = 2 ] && tail -n 1 bad.log | grep -qxF -- "$2" || ok=1
	}
	nd_bad "/run/netns/$(nd_ns b)" "xcable: cable c1: right: no interface va in /run/netns/$(nd_ns b)"
	nd_bad "/run/netns/nosuch-${T##*/}" "xcable: cable c1: right: no network namespace /run/netns/nosuch-${T##*/} (No such file or directory)"
	nd_bad 999999999 "xcable: cable c1: right: no network namespace 999999999 (No such file or directory)"
	nd_start "/run/netns/$(nd_ns a)" "/run/netns/$(nd_ns b)" || return 1
	ctl=$(grep -o '/[^ ]*xcable.ctl' x.log | head -n 1)
	"$BUILD/app/xcablectl" -s "$ctl" list >before.out 2>&1
	"$BUILD/app/xcablectl" -s "$ctl" add c3 left="$T/c.sock" right-netdev=eth9 >add1.out 2>&1
	"$BUILD/app/xcablectl" -s "$ctl" add c3 left="$T/c.sock" right-netdev=va right-netns=/run/netns/nosuch >add2.out 2>&1
	"$BUILD/app/xcablectl" -s "$ctl" list >after.out 2>&1
	say "add with eth9: $(cat add1.out); with /run/netns/nosuch: $(cat add2.out)"
	grep -qx "xcablectl: error: cable c3: right: no interface eth9 in xcable's network namespace" add1.out &&
		grep -qx "xcablectl: error: cable c3: right: no network namespace /run/netns/nosuch (No such file or directory)" add2.out || ok=1
	[ "$(grep -c '^c[0-9]' after.out)" = 2 ] && ! grep -q c3 after.out && [ ! -e "$T/c.sock" ] ||
		{ cat after.out; fail "a refused add changed the lab"; return 1; }
	nd_stop || return 1
	[ $ok = 0 ] || fail "a bad interface or namespace is not refused clearly"
}
TESTS+=(t_netdev_bad_names)

# as an ordinary user with only CAP_NET_RAW (ambient), xcable makes netdev
# ends on interfaces of its own namespace and the catalogue crosses; it
# cannot enter another namespace (CAP_SYS_ADMIN) nor open that of another
# user's process (CAP_SYS_PTRACE), and without CAP_NET_RAW it cannot open
# the socket: each refused at start, exit 2, saying which
t_netdev_user_caps() {
	local n s=$T/nobody rc run pid pp
	ensure_hugepages 256 || { fail "cannot reserve hugepages"; return 1; }
	nd_prep || { fail "cannot create namespaces"; return 1; }
	n=$(nd_ns a)
	ip -n "$n" link add va type veth peer name vb &&
		ip -n "$n" link set va up && ip -n "$n" link set vb up || { fail "cannot create the veth"; return 1; }
	chmod 0711 "$T"
	mkdir -m 0755 "$s" "$s/run" && chown nobody "$s" "$s/run" || return 1
	run="ip netns exec $n env XDG_RUNTIME_DIR=$s/run setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups"
	# no namespace keys: the interfaces of the namespace xcable runs in
	nd_ini "" "" | sed "s|$T/|$s/|; /netns =/d" >x.ini
	timeout 20 $run --inh-caps=-all "$XC" --config x.ini >nocap.log 2>&1
	rc=$?
	say "as nobody without capabilities: exit $rc, $(tail -n 1 nocap.log)"
	[ $rc = 2 ] && tail -n 1 nocap.log | grep -q "interface va: a packet socket needs CAP_NET_RAW" ||
		{ fail "missing CAP_NET_RAW is not refused clearly"; return 1; }
	nd_ini "/run/netns/$(nd_ns b)" "" | sed "s|$T/|$s/|; /left-netns =/d" >ns.ini
	timeout 20 $run --inh-caps=+net_raw --ambient-caps=+net_raw "$XC" --config ns.ini >ns.log 2>&1
	rc=$?
	say "as nobody with CAP_NET_RAW, another namespace: exit $rc, $(tail -n 1 ns.log)"
	[ $rc = 2 ] && tail -n 1 ns.log | grep -q "cannot enter network namespace /run/netns/$(nd_ns b): it needs CAP_SYS_ADMIN" ||
		{ fail "entering a namespace without CAP_SYS_ADMIN is not refused clearly"; return 1; }
	# a namespace named by a process of another user (root's): its
	# /proc/PID/ns/net is not this user's to open
	ip netns exec "$(nd_ns b)" sleep 60 & pid=$!
	XC_PIDS+=("$pid")
	nd_ini "$pid" "" | sed "s|$T/|$s/|; /left-netns =/d" >pid.ini
	timeout 20 $run --inh-caps=+net_raw --ambient-caps=+net_raw "$XC" --config pid.ini >pid.log 2>&1
	rc=$?
	say "as nobody, the namespace of root's process $pid: exit $rc, $(tail -n 1 pid.log)"
	[ $rc = 2 ] && tail -n 1 pid.log | grep -q "cannot open the network namespace of process $pid (Permission denied): another user's process needs CAP_SYS_PTRACE" ||
		{ fail "another user's process's namespace is not refused clearly"; return 1; }
	$run --inh-caps=+net_raw --ambient-caps=+net_raw "$XC" --config x.ini \
		--stats-json "$s/run/x.json" >x.log 2>&1 &
	XC_PID=$!
	XC_PIDS+=("$XC_PID")
	wait_log x.log "running;" 1 20 || { tail -n 5 x.log; fail "xcable did not start as nobody with CAP_NET_RAW"; return 1; }
	nd_wait_up 1 10 || return 1
	# the frames go once xcable has seen both frontends (as nd_frames)
	rm -f "$T/go"
	timeout 60 ip netns exec "$n" "$XCPEER" $(peer_eal "$s/a.sock" "$s/b.sock") -- frames --rounds 1 \
		--wait-file "$T/go" --drop-over 1514 --drop-over-back 1514 >peer.log 2>&1 &
	pp=$!
	wait_log x.log "link up, VM connected" 2 30 || { kill $pp; fail "xcable never saw both frontends as nobody"; return 1; }
	touch "$T/go"
	wait $pp
	rc=$?
	grep -E '^FAIL' peer.log | head -n 5 | sed 's/^/  peer: /'
	say "as nobody with CAP_NET_RAW: $(grep catalogue peer.log)"
	[ $rc = 0 ] || { fail "frames altered or lost through netdev ends as nobody"; return 1; }
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable as nobody exited with $XC_RC"; return 1; }
	cp "$s/run/x.json" "$(stats_json x.log)" && check_accounted x.log 4
}
TESTS+=(t_netdev_user_caps)

# a TCG guest cabled to a namespace: guest A's NIC <-> va (namespace a)
# ~ vb (namespace b, 10.0.0.2, iperf3 server); A reaches it, pings it
# and runs iperf3 both ways through the netdev end; what vb sends reaches
# the guest as TSO frames again (coalesce.c). With ND_VM6=1 all of it
# over IPv6 (fd00::1 to fd00::2), whose segments are joined too.
t_netdev_vm() {
	local ip peer=10.0.0.2 six=""
	vm_prepare || return 1
	nd_prep && nd_veth 1500 || { fail "cannot make the namespaces and the veth"; return 1; }
	ip -n "$(nd_ns b)" addr add 10.0.0.2/24 dev vb || { fail "cannot address vb"; return 1; }
	if [ "${ND_VM6:-0}" = 1 ]; then
		peer=fd00::2 six="xc.ip6=fd00::1/64"
		ip netns exec "$(nd_ns b)" sysctl -qw net.ipv6.conf.vb.disable_ipv6=0 net.ipv6.conf.vb.accept_dad=0
		ip -n "$(nd_ns b)" -6 addr add fd00::2/64 dev vb nodad || { fail "cannot give vb an IPv6 address"; return 1; }
	fi
	# vb's TSO and GSO off: it sends 1448-byte segments, as a NIC
	# without GRO hands them over, which reach the guest joined again
	# (TSO frames would cross whole: t_netdev_offload); its checksum
	# offload stays on: partial checksums, left to the guest
	ip netns exec "$(nd_ns b)" ethtool -K vb tso off gso off >/dev/null ||
		{ fail "cannot turn TSO off on vb"; return 1; }
	ip netns exec "$(nd_ns b)" iperf3 -s >iperf-s.log 2>&1 &
	XC_PIDS+=("$!")
	printf '[global]\nstats-interval = 0\n[cable c1]\nleft = %s\nright-netdev = va\nright-netns = /run/netns/%s\n' \
		"$T/a.sock" "$(nd_ns a)" >x.ini
	rm -f "$(stats_json x.log)"
	$XC --config x.ini --stats-json "$(stats_json x.log)" >x.log 2>&1 &
	XC_PID=$!
	XC_PIDS+=("$XC_PID")
	wait_log x.log "running;" 1 20 || { tail -n 5 x.log; fail "xcable did not start"; return 1; }
	boot a "$T/a.sock" $A_MAC "xc.role=client xc.ip=10.0.0.1/24 $six xc.peer=$peer xc.secs=3"
	wait_console a "XC-END iperf-b2a" 300 || { tail -n 20 a.console; fail "guest A did not finish its iperf3 runs"; return 1; }
	say "guest A (vhost-user) <-> va in namespace a ~ vb in namespace b ($peer, iperf3 -s):"
	report_traffic || return 1
	kill "${VM_PID[a]}" 2>/dev/null
	kill -TERM "$XC_PID"; wait "$XC_PID"
	ip=$(counter x.log "c1 left->right" tx-pkts)
	say "xcable sent $ip frames from the guest to va; $(counter x.log "c1 right->left" tx-pkts) from va to the guest"
	[ "${ip:-0}" -gt 1000 ] || { fail "the guest's traffic did not cross the netdev end"; return 1; }
	# vb's 1448-byte segments (iperf3 -R; 1428 over IPv6) reach the
	# guest joined
	coalesced_ok x.log "c1 right->left" || return 1
	if [ "${ND_VM6:-0}" = 1 ]; then
		grep -q "connected to fd00::2 port 5201" a.console ||
			{ fail "iperf3 did not run over IPv6"; return 1; }
		say "iperf3 ran over IPv6 ($(grep -c "connected to fd00::2" a.console) connections to fd00::2)"
	fi
}
TESTS+=(t_netdev_vm)
SLOW_ONCE+=(t_netdev_vm)	# a VM; the netdev end's code runs on every build in the tests above
t_netdev_vm6() { ND_VM6=1 t_netdev_vm; }
TESTS+=(t_netdev_vm6)
SLOW_ONCE+=(t_netdev_vm6)	# the same over IPv6: its segments joined (coalesce.c)

# nd_tagged_ini HOST TAGTYPE - host HOST's config in t_trunk.sh's two
# hosts: cables c1 (socket HOST1.sock, tag 10) and c2 (HOST2.sock, tag 20)
# on interface vHOST, as netdev ends with tags (no DPDK port)
nd_tagged_ini() {
	cat <<EOI
[global]
stats-interval = 0
link-propagation = no
[cable c1]
left = $T/${1}1.sock
right-netdev = v$1
right-tag = 10
right-tag-type = $2
[cable c2]
left = $T/${1}2.sock
right-netdev = v$1
right-tag = 20
right-tag-type = $2
EOI
}

# netdev ends with tags speak a trunk's language: host a has an af_packet
# trunk on va (802.1ad, then 802.1Q), host b netdev ends under the same
# tags on vb. The catalogue (jumbo frames, STP, LACP, LLDP, the guests'
# own 802.1Q and QinQ tags) crosses each cable both ways byte for byte,
# and nothing of one cable reaches the other's frontends: each end's
# socket takes only its tag's frames
t_netdev_tagged_trunk() {
	local tt
	hosts_link 9100 || { fail "cannot create namespaces and veth"; return 1; }
	for tt in 802.1ad 802.1q; do
		host_start a "$tt" 9008 || return 1
		nd_tagged_ini b "$tt" >b.ini
		host_run b || return 1
		grep -q "c1: left (.*b1.sock) <-> right (vb)" xb.log ||
			{ grep "<->" xb.log; fail "host b's c1 is not on vb"; return 1; }
		say "$tt: host a's trunk on va, host b's netdev ends with tags on vb"
		frames_apart 1 && frames_apart 2 || return 1
		host_stop a && host_stop b || return 1
		check_accounted xa.log && check_accounted xb.log ||
			{ fail "$tt: frames not accounted for"; return 1; }
		[ "$(trunk_counter xa.log wire unknown-tag)" = 0 ] ||
			{ fail "$tt: host a's trunk got frames under tags it does not have"; return 1; }
	done
}
TESTS+=(t_netdev_tagged_trunk)
SAN_ONCE+=(t_netdev_tagged_trunk)	# CI time: correctness alone, under the sanitizers

# nd_pair A B WHAT - the catalogue between sockets $T/A.sock and $T/B.sock
# (two hosts' frontends), both ways, byte for byte
nd_pair() {
	local rc
	"$XCPEER" $(peer_eal "$T/$1.sock" "$T/$2.sock") -- frames --rounds 1 >"pair-$1-$2.log" 2>&1
	rc=$?
	grep -E '^FAIL' "pair-$1-$2.log" | head -n 5 | sed 's/^/  peer: /'
	say "$3: $(grep catalogue "pair-$1-$2.log")"
	[ $rc = 0 ] || fail "frames altered or lost: $3"
}

# netdev ends with tags changed at runtime, against host a's af_packet
# trunk (c1 tag 10, c2 tag 20): host b starts with c1 alone; c2 is added
# (its own socket and filter on vb); an end under c2's tag again, and one
# without a tag on vb, are refused, the lab as it was; c1 is deleted and
# c2 goes on; a reload moves c2 to tag 10, where host a's c1 reaches it
# (its socket is a new one, filtered for tag 10, not the one it had)
t_netdev_tagged_runtime() {
	local names
	hosts_link 9100 || { fail "cannot create namespaces and veth"; return 1; }
	host_start a 802.1ad 9008 || return 1
	nd_tagged_ini b 802.1ad | sed '/^\[cable c2\]/,$d' >b.ini
	host_run b || return 1
	"$XCTL" -p "xcable-$XPID_b" add c2 "left=$T/b2.sock" right-netdev=vb right-tag=20 >add.out 2>&1 ||
		{ cat add.out; fail "xcablectl add c2 failed"; return 1; }
	nd_pair a2 b2 "c2, added at runtime under tag 20" || return 1
	"$XCTL" -p "xcable-$XPID_b" add c3 "left=$T/b3.sock" right-netdev=vb right-tag=20 >c3.out 2>&1
	say "another end under tag 20: $(cat c3.out)"
	grep -q "tag 20 of interface vb is already an end of cable c2" c3.out ||
		{ fail "a second end under one tag of vb was not refused"; return 1; }
	"$XCTL" -p "xcable-$XPID_b" add c4 "left=$T/b4.sock" right-netdev=vb >c4.out 2>&1
	say "an end without a tag on vb: $(cat c4.out)"
	grep -q "tag 10 of interface vb is already an end of cable c1" c4.out ||
		{ fail "an end without a tag beside ends with tags was not refused"; return 1; }
	names=$(cable_names -p "xcable-$XPID_b")
	[ "$names" = "c1 c2" ] && [ ! -e "$T/b3.sock" ] && [ ! -e "$T/b4.sock" ] ||
		{ fail "after the refusals: cables '$names', sockets $(ls "$T"/b*.sock)"; return 1; }
	"$XCTL" -p "xcable-$XPID_b" del c1 >del.out 2>&1 || { cat del.out; fail "xcablectl del c1 failed"; return 1; }
	nd_pair a2 b2 "c2 after c1 was deleted" || return 1
	nd_tagged_ini b 802.1ad | sed -e '/^\[cable c1\]/,/^\[cable c2\]/{/^\[cable c2\]/!d}' \
		-e 's/right-tag = 20/right-tag = 10/' >b.ini
	"$XCTL" -p "xcable-$XPID_b" reload >rl.out 2>&1 || { cat rl.out; fail "xcablectl reload failed"; return 1; }
	say "reload, c2 to tag 10: $(tail -n 1 rl.out)"
	nd_pair a1 b2 "host a's c1 to host b's c2, now under tag 10" || return 1
	host_stop a && host_stop b || return 1
	check_accounted xa.log && check_accounted xb.log 2 || fail "frames not accounted for"
}
TESTS+=(t_netdev_tagged_runtime)
SAN_ONCE+=(t_netdev_tagged_runtime)	# the same

# an interface given both to netdev ends and to a DPDK port (af_packet)
# of the same namespace is refused whichever comes first, at start (exit
# 2) and by xcablectl add and reload (the lab as it was); an interface of
# the same name in another namespace is another interface, and is taken
t_netdev_port_clash() {
	local names rc PC_DEV=net_af_packet0
	hosts_link 1500 || { fail "cannot create namespaces and veth"; return 1; }
	ip -n "$(ns a)" link add vb type veth peer name vbx && ip -n "$(ns a)" link set vb up &&
		ip -n "$(ns a)" link set vbx up || { fail "cannot create vb in namespace a"; return 1; }
	pc_ini() {	# CABLE... - b.ini: port pb on vb, and these of c1 (on pb), c2 (netdev vb)
		printf '[global]\nstats-interval = 0\nlink-propagation = no\n[port pb]\ndevargs = %s,iface=vb\n' "$PC_DEV"
		for c in "$@"; do
			case $c in
			c1) printf '[cable c1]\nleft = %s\nright-port = pb\nright-tag = 10\n' "$T/b1.sock" ;;
			c2) printf '[cable c2]\nleft = %s\nright-netdev = vb\nright-tag = 20\n' "$T/b2.sock" ;;
			esac
		done
	}
	# af_packet by either name DPDK registers it under
	for PC_DEV in net_af_packet0 eth_af_packet0; do
		pc_ini c1 c2 >b.ini
		ip netns exec "$(ns b)" timeout 20 "$XC" --config b.ini >start.out 2>&1
		rc=$?
		say "both in one file, the port $PC_DEV: exit $rc, $(grep -o 'right-netdev: .*' start.out)"
		[ $rc = 2 ] && grep -q "\[cable c2\] right-netdev: tag 20 of interface vb is port pb's too, an end of cable c1" start.out ||
			{ cat start.out; fail "an interface both $PC_DEV's and a netdev end's was not refused at start"; return 1; }
	done
	PC_DEV=net_af_packet0
	pc_ini c1 >b.ini
	host_run b || return 1
	"$XCTL" -p "xcable-$XPID_b" add c2 "left=$T/b2.sock" right-netdev=vb right-tag=20 >add.out 2>&1 &&
		{ fail "xcablectl add of a netdev end on port pb's interface was taken"; return 1; }
	say "xcablectl add c2 on vb: $(cat add.out)"
	grep -q "interface vb is port pb's too" add.out || { fail "the refusal does not say why"; return 1; }
	pc_ini c1 c2 >b.ini
	"$XCTL" -p "xcable-$XPID_b" reload >rl.out 2>&1 && { fail "a reload adding c2 on vb was taken"; return 1; }
	say "reload adding c2 on vb: $(tail -n 1 rl.out)"
	"$XCTL" -p "xcable-$XPID_b" add c3 "left=$T/b3.sock" right-netdev=vb "right-netns=/run/netns/$(ns a)" >c3.out 2>&1 ||
		{ cat c3.out; fail "a netdev end on vb of another namespace was refused"; return 1; }
	names=$(cable_names -p "xcable-$XPID_b")
	say "cables now: $names (c3: vb of namespace a, taken)"
	[ "$names" = "c1 c3" ] && [ ! -e "$T/b2.sock" ] || { fail "after the refusals: cables '$names'"; return 1; }
	host_stop b || return 1
	# the other way round: the netdev end first, then a cable on the port
	pc_ini c2 >b.ini
	host_run b || return 1
	"$XCTL" -p "xcable-$XPID_b" add c1 "left=$T/b1.sock" right-port=pb right-tag=10 >add.out 2>&1 &&
		{ fail "xcablectl add of a cable on port pb, whose interface a netdev end has, was taken"; return 1; }
	say "xcablectl add c1 on port pb: $(cat add.out)"
	grep -q "port pb is on tag 20 of interface vb, already an end of cable c2" add.out || { fail "the refusal does not say why"; return 1; }
	host_stop b
}
TESTS+=(t_netdev_port_clash)

# the same rule under a supervisor (17 socket cables beside c1 on port pb):
# a config with both is refused at start (exit 2), and xcablectl add and a
# reload that would put a netdev end on vb are refused through the
# supervisor, naming both sides; its lab stays as it was
t_netdev_port_clash_supervised() {
	local rc names n
	hosts_link 1500 || { fail "cannot create namespaces and veth"; return 1; }
	pcs_ini() {	# [c2] - s.ini: port pb on vb, c1 on it, 17 socket cables, c2 (netdev vb) if asked
		printf '[global]\nstats-interval = 0\nlink-propagation = no\n[port pb]\ndevargs = net_af_packet0,iface=vb\n'
		printf '[cable c1]\nleft = %s\nright-port = pb\nright-tag = 10\n' "$T/b1.sock"
		for ((n = 0; n < 17; n++)); do
			printf '[cable s%s]\nleft = %s\nright = %s\n' "$n" "$T/s$n-l.sock" "$T/s$n-r.sock"
		done
		[ "${1:-}" = c2 ] && printf '[cable c2]\nleft = %s\nright-netdev = vb\nright-tag = 20\n' "$T/b2.sock"
		return 0
	}
	pcs_ini c2 >s.ini
	ip netns exec "$(ns b)" timeout 20 "$XC" --config s.ini --control "$T/x.ctl" >start.out 2>&1
	rc=$?
	say "a supervised lab with both: exit $rc, $(grep -o 'right-netdev: .*' start.out)"
	[ $rc = 2 ] && grep -q "\[cable c2\] right-netdev: tag 20 of interface vb is port pb's too, an end of cable c1" start.out &&
		! grep -q "supervising" start.out ||
		{ cat start.out; fail "a supervised lab with an interface both a port's and a netdev end's was not refused at start"; return 1; }
	pcs_ini >s.ini
	ip netns exec "$(ns b)" "$XC" --config s.ini --control "$T/x.ctl" >xc.log 2>&1 &
	XC_PID=$!
	XC_PIDS+=("$XC_PID")
	wait_log xc.log "supervisor running" 1 30 || { tail -n 20 xc.log; fail "no supervisor"; return 1; }
	n=$("$XCTL" -s "$T/x.ctl" workers | grep -c '^worker ')
	wait_log xc.log "running;" "$n" 60 || { tail -n 20 xc.log; fail "the workers did not start"; return 1; }
	"$XCTL" -s "$T/x.ctl" add c2 "left=$T/b2.sock" right-netdev=vb right-tag=20 >add.out 2>&1 &&
		{ fail "the supervisor took xcablectl add of a netdev end on port pb's interface"; return 1; }
	say "supervised ($n workers), xcablectl add c2 on vb: $(cat add.out)"
	grep -q "interface vb is port pb's too, an end of cable c1" add.out || { fail "the refusal does not say why"; return 1; }
	pcs_ini c2 >s.ini
	"$XCTL" -s "$T/x.ctl" reload >rl.out 2>&1 && { fail "the supervisor took a reload adding c2 on vb"; return 1; }
	say "supervised reload adding c2 on vb: $(tail -n 1 rl.out)"
	grep -q "interface vb is port pb's too" rl.out || { cat rl.out; fail "the reload's refusal does not say why"; return 1; }
	names=$(cable_names -s "$T/x.ctl")
	[ "$(wc -w <<<"$names")" = 18 ] && [[ " $names " == *" c1 "* && " $names " != *" c2 "* ]] && [ ! -e "$T/b2.sock" ] ||
		{ fail "after the refusals the supervisor has cables '$names'"; return 1; }
	say "the supervisor's cables after both refusals: 18, c1 among them, no c2, no socket $T/b2.sock"
	kill -TERM "$XC_PID"; wait "$XC_PID"; rc=$?
	[ $rc = 0 ] || { tail -n 5 xc.log; fail "the supervisor exited with $rc"; return 1; }
}
TESTS+=(t_netdev_port_clash_supervised)

# a tag takes 4 of the interface's bytes: over a veth of MTU 1500, tagged
# ends take frames up to 1510 bytes under 802.1ad and 1514 under 802.1Q
# (the kernel's allowance for a tag is for 802.1Q only); the catalogue
# crosses both ways, each frame above that counted as too-big by the end
# it would have left through, none lost otherwise
t_netdev_tagged_mtu() {
	local tt max want got gotb
	nd_prep && nd_veth 1500 || { fail "cannot create namespaces and veth"; return 1; }
	for tt in 802.1ad 802.1q; do
		max=1510
		[ $tt = 802.1q ] && max=1514
		ND_TAG=40 ND_TAG_TYPE=$tt nd_start "/run/netns/$(nd_ns a)" "/run/netns/$(nd_ns b)" || return 1
		nd_peer peer.log frames --rounds 1 --drop-over $max --drop-over-back $max ||
			{ grep -E '^FAIL' peer.log | head -n 5 | sed 's/^/  peer: /'; fail "$tt: frames missing, altered, or too big and arriving"; return 1; }
		nd_stop || return 1
		want=$(sed -n 's/^too-big \([0-9]*\) .*/\1/p' peer.log)
		got=$(counter x.log "c1 left->right" too-big) gotb=$(counter x.log "c2 right->left" too-big)
		say "$tt: $(grep catalogue peer.log); too-big towards va $got, towards vb $gotb; the frontends sent $want frames above $max bytes"
		[ "$got" -gt 0 ] && [ "$gotb" -gt 0 ] && [ $((got + gotb)) = "$want" ] ||
			{ fail "$tt: too-big does not count exactly the frames above $max bytes"; return 1; }
	done
}
TESTS+=(t_netdev_tagged_mtu)
SAN_ONCE+=(t_netdev_tagged_mtu)	# correctness alone
