# SPDX-License-Identifier: BSD-3-Clause
# tests/t_vxlan.sh - cables across routed networks: VXLAN tunnel ends
# (app/vxlan.c). Three network namespaces play host A, a router and host
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

# vx_start HOST LOG ARGS... - xcable as nobody in HOST's namespace, with a
# runtime directory of its own (pid in VXPID_HOST); waits until it runs
vx_start() {
	local h=$1 log=$2 pid; shift 2
	mkdir -p "$T/run-$h" && chown nobody "$T/run-$h" || return 1
	rm -f "$T/run-$h/x.json"
	ip netns exec "$(vns "$h")" env XDG_RUNTIME_DIR="$T/run-$h" \
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		"$XC" "$@" --stats-json "$T/run-$h/x.json" >"$log" 2>&1 &
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

# vx_counter LOG FIELD - a counter of the tunnel socket (app/stats.c's
# vxlan_counters) in $(stats_json LOG)
vx_counter() {
	/usr/bin/python3 - "$(stats_json "$1")" "$2" <<'PY'
import json, sys
try:
    print(json.load(open(sys.argv[1]))["vxlan"]["counters"][sys.argv[2]])
except (OSError, ValueError, KeyError) as e:
    sys.exit("vx_counter: %s: %s" % (sys.argv[2], e))
PY
}

# peer_frames OUT SOCK_OR_VDEV... -- LOG... - the frame catalogue both ways
# between two frontends, once each LOG said "link up"; FRAMES_N: frames
# each way. A frontend is a socket, or a --vdev argument (in $PEER_NS)
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
		--wait-file "$T/go" >"$out" 2>&1 &
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

# routed_family FAM LOCAL_A REMOTE_FROM_A REMOTE_FROM_B - one cable per
# host, a socket end and a tunnel end on port 14789, over IPv4 or IPv6
routed_family() {
	local f=$1
	vx_start a xa$f.log --left "$T/s/a.sock" --right-vxlan "$2" --vni 100 \
		--vxlan-port 14789 || return 1
	vx_start b xb$f.log --left "$T/s/b.sock" --right-vxlan "$3" --vni 100 \
		--vxlan-port 14789 || return 1
	say "IPv$f: host a: --right-vxlan $2, host b: --right-vxlan $3, --vni 100 --vxlan-port 14789, as $(ps -o user= -p "$VXPID_a")"
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
	routed_family 4 10.51.2.1 10.51.1.1:14789 || return 1
	routed_family 6 "[fd51:2::1]" "[fd51:1::1]:14789"
}
TESTS+=(t_vxlan_routed)
