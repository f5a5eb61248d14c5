# SPDX-License-Identifier: BSD-3-Clause
# tests/t_change.sh - runtime changes that cannot hurt the lab: every
# operation on a cable of every kind of end (app/model/endkind.h: the kinds
# xcable --help lists, from its kind table), each applied whole or
# refused with the lab as it was, while another cable forwards a stream
# that must lose nothing; and what a change that fails half-way leaves.
# (sourced by tests/run; each t_* function is one test)

# mx_ns - the network namespace the matrix's xcables run in (veth pairs
# for the port and trunk kinds, loopback for the tunnels)
mx_ns() { echo "xm-${T##*/}"; }

# mx_kinds - the kinds of cable end xcable's --help lists
mx_kinds() {
	"$XC" --help | sed -n '/^Kinds of cable end/,/^$/p' | awk 'NR > 1 && NF { print $1 }'
}

# mx_veth A B - a veth pair A - B in the matrix's namespace, up, without
# IPv6 (no stray neighbour discovery frames on the cables)
mx_veth() {
	local n i; n=$(mx_ns)
	ip -n "$n" link add "$1" type veth peer name "$2" || return 1
	for i in "$1" "$2"; do
		ip netns exec "$n" sysctl -qw "net.ipv6.conf.$i.disable_ipv6=1"
		ip -n "$n" link set "$i" mtu 1600 up || return 1
	done
}

# A row of the matrix is a kind (or a variant of one: a socket end in
# client mode) and the cable under test, mxI, whose right end is of that
# kind; mxI's frames come back to the test's frontend on $T/mxI-r.sock,
# through a partner cable (mpI) or a peer xcable where the kind needs one.
# mx_ROW_ports I, mx_ROW_partner I: what the config holds from the start
# ([port] sections are read at start only); mx_ROW_def I: the keys of
# mxI, one KEY=VALUE a line; mx_ROW_front: xcfront options for it;
# mx_ROW_pull: can it be unplugged (down/up); mx_ROW_beside: can its end
# be made beside the one it replaces, holding the same socket, tag or
# tunnel (else that one goes first, and is made again if the change
# fails); mx_ROW_shared: is its end on a port or socket that stays up
# while any end is on it (a [port], a trunk's port, the tunnel socket, an
# interface's packet socket), through every change that makes an end on
# it again.
mx_socket_ports() { :; }
mx_socket_partner() { :; }
mx_socket_def() { printf 'left=%s\nright=%s\n' "$T/mx$1-l.sock" "$T/mx$1-r.sock"; }
mx_socket_front() { :; }
mx_socket_pull() { echo yes; }
mx_socket_beside() { echo yes; }
mx_socket_shared() { echo no; }

mx_socket_client_ports() { :; }
mx_socket_client_partner() { :; }
mx_socket_client_def() { printf 'left=%s\nleft-client=yes\nright=%s\n' "$T/mx$1-l.sock" "$T/mx$1-r.sock"; }
mx_socket_client_front() { echo "--listen left"; }
mx_socket_client_pull() { echo yes; }
mx_socket_client_beside() { echo no; }
mx_socket_client_shared() { echo no; }

mx_port_ports() {
	printf '[port pa%s]\ndevargs = net_af_xdp%s,iface=mxa%s\n' "$1" "$((2 * $1))" "$1"
	printf '[port pb%s]\ndevargs = net_af_xdp%s,iface=mxb%s\n' "$1" "$((2 * $1 + 1))" "$1"
}
mx_port_partner() { printf '[cable mp%s]\nleft = %s\nright-port = pb%s\n' "$1" "$T/mx$1-r.sock" "$1"; }
mx_port_def() { printf 'left=%s\nright-port=pa%s\n' "$T/mx$1-l.sock" "$1"; }
mx_port_front() { :; }
mx_port_pull() { echo no; }
mx_port_beside() { echo no; }
mx_port_shared() { echo yes; }
mx_port_setup() { mx_veth "mxa$1" "mxb$1"; }

mx_trunk_ports() {
	printf '[port ta%s]\ndevargs = net_af_packet%s,iface=mta%s\nmtu = 1508\n' "$1" "$((2 * $1))" "$1"
	printf '[port tb%s]\ndevargs = net_af_packet%s,iface=mtb%s\nmtu = 1508\n' "$1" "$((2 * $1 + 1))" "$1"
}
mx_trunk_partner() { printf '[cable mp%s]\nleft = %s\nright-port = tb%s\nright-tag = 10\n' "$1" "$T/mx$1-r.sock" "$1"; }
mx_trunk_def() { printf 'left=%s\nright-port=ta%s\nright-tag=10\n' "$T/mx$1-l.sock" "$1"; }
mx_trunk_front() { :; }
mx_trunk_pull() { echo no; }
mx_trunk_beside() { echo yes; }
mx_trunk_shared() { echo yes; }
mx_trunk_setup() { mx_veth "mta$1" "mtb$1"; }

# a veth pair in the matrix's namespace, the cable's end on one side (in
# that namespace by its path: the end enters it and comes back), the
# partner's on the other
mx_netdev_ports() { :; }
mx_netdev_partner() { printf '[cable mp%s]\nleft-netdev = mnb%s\nright = %s\n' "$1" "$1" "$T/mx$1-r.sock"; }
mx_netdev_def() { printf 'left=%s\nright-netdev=mna%s\nright-netns=/run/netns/%s\n' "$T/mx$1-l.sock" "$1" "$(mx_ns)"; }
mx_netdev_front() { :; }
mx_netdev_pull() { echo no; }
mx_netdev_beside() { echo no; }
mx_netdev_shared() { echo yes; }
mx_netdev_setup() { mx_veth "mna$1" "mnb$1"; }

# the same under an 802.1ad tag at both ends of the veth pair: the end's
# socket takes only its tag's frames
mx_netdev_tagged_ports() { :; }
mx_netdev_tagged_partner() { printf '[cable mp%s]\nleft-netdev = mgb%s\nleft-tag = 10\nright = %s\n' "$1" "$1" "$T/mx$1-r.sock"; }
mx_netdev_tagged_def() { printf 'left=%s\nright-netdev=mga%s\nright-netns=/run/netns/%s\nright-tag=10\n' "$T/mx$1-l.sock" "$1" "$(mx_ns)"; }
mx_netdev_tagged_front() { :; }
mx_netdev_tagged_pull() { echo no; }
mx_netdev_tagged_beside() { echo no; }
mx_netdev_tagged_shared() { echo yes; }
mx_netdev_tagged_setup() { mx_veth "mga$1" "mgb$1"; }

# the tunnel comes back through a peer xcable on loopback (UDP 14790)
mx_vxlan_ports() { :; }
mx_vxlan_partner() { :; }
mx_vxlan_def() { printf 'left=%s\nright-vxlan=127.0.0.1:14790\nright-vni=%s\n' "$T/mx$1-l.sock" "$((4200 + $1))"; }
mx_vxlan_front() { :; }
mx_vxlan_pull() { echo no; }
mx_vxlan_beside() { echo yes; }
mx_vxlan_shared() { echo yes; }
mx_vxlan_setup() {
	printf '[global]\nstats-interval = 0\nvxlan-port = 14790\nlink-propagation = no\n[cable p%s]\nleft = %s\nright-vxlan = 127.0.0.1:14789\nright-vni = %s\n' \
		"$1" "$T/mx$1-r.sock" "$((4200 + $1))" >peer.ini
	ip netns exec "$(mx_ns)" "$XC" --config peer.ini --control "$T/peer.ctl" >peer.log 2>&1 &
	XC_PIDS+=("$!")
	wait_log peer.log "running;" 1 20 || { tail -n 5 peer.log; fail "the peer xcable did not start"; }
}

# a loopback plug: nothing behind it, frames come back on mxI-l.sock
mx_loop_ports() { :; }
mx_loop_partner() { :; }
mx_loop_def() { printf 'left=%s\nright-loop=yes\n' "$T/mx$1-l.sock"; }
mx_loop_front() { echo "--plug right"; }
mx_loop_pull() { echo no; }
mx_loop_beside() { echo yes; }
mx_loop_shared() { echo no; }

# mx_rows - the rows: every kind xcable lists, a socket's client mode and
# a netdev end's tag too
mx_rows() {
	local k
	for k in $(mx_kinds); do
		echo "$k"
		[ "$k" = socket ] && echo socket_client
		[ "$k" = netdev ] && echo netdev_tagged
	done
}

# mx_section I ROW [EXTRA] - mxI's [cable] section in a config file
mx_section() {
	printf '[cable mx%s]\n' "$1"
	"mx_$2_def" "$1" | sed 's/=/ = /'
	[ -n "${3:-}" ] && printf '%s\n' "$3"
	true
}

# mx_config FILE [I ROW EXTRA]... - the matrix's config: its ports and
# partners, the sentinel cable, and the given cables under test
mx_config() {
	local f=$1 i=0 r; shift
	printf '[global]\nstats-interval = 0\nvxlan-port = 14789\nlink-propagation = no\n' >"$f"
	for r in $MX_ROWS; do "mx_${r}_ports" "$i" >>"$f"; i=$((i + 1)); done
	printf '[cable sentinel]\nleft = %s\nright = %s\n' "$T/sen-l.sock" "$T/sen-r.sock" >>"$f"
	i=0
	for r in $MX_ROWS; do "mx_${r}_partner" "$i" >>"$f"; i=$((i + 1)); done
	while [ $# -ge 3 ]; do mx_section "$1" "$2" "$3" >>"$f"; shift 3; done
}

# mx_lab FILE - the matrix's namespace, each row's set-up, and in FILE a
# config with every row's cable mxI from the start (MX_ROWS set)
mx_lab() {
	local i=0 r args=()
	MX_ROWS=$(mx_rows)
	ip netns add "$(mx_ns)" && ip -n "$(mx_ns)" link set lo up || return 1
	for r in $MX_ROWS; do
		if declare -F "mx_${r}_setup" >/dev/null; then "mx_${r}_setup" "$i" || return 1; fi
		args+=("$i" "$r" "")
		i=$((i + 1))
	done
	mx_config "$1" "${args[@]}"
}

# mx_front I ROW - frames both ways through mxI, byte for byte (xcfront)
mx_front() {
	timeout 30 "$BUILD/tests/xcfront" --pairs "$T/mx%d-l.sock,$T/mx%d-r.sock" \
		--first "$1" --count 1 --frames 24 $("mx_$2_front") >"front.out" 2>&1 ||
		{ cat front.out | sed 's/^/    /'; fail "mx$1 ($2) does not carry frames"; return 1; }
}

# mx_ctl ARGS... - xcablectl to the matrix's xcable; its answer in ctl.out
mx_ctl() { "$XCTL" -s "$T/x.ctl" "$@" >ctl.out 2>&1; }

# mx_cables - the names of the cables the matrix's xcable lists, sorted
mx_cables() { cable_names -s "$T/x.ctl"; }

# mx_stops - how many times the matrix xcable stopped a port or closed
# the tunnel socket because no end was on it any more
mx_stops() { grep -c "port stopped: no cable uses it now\|vxlan socket closed" xc.log; }

# mx_sockets - the packet sockets (netdev ends, af_packet ports) and the
# tunnel socket (UDP 14789) open in the matrix's namespace, by inode
mx_sockets() {
	{
		ip netns exec "$(mx_ns)" awk 'NR > 1 { print "packet:" $9 }' /proc/net/packet
		ip netns exec "$(mx_ns)" awk 'NR > 1 && $2 ~ /:39C5$/ { print "udp:" $10 }' /proc/net/udp
	} | sort | tr '\n' ' '
}

# mx_fds - the matrix xcable's open fds; mx_rss - its resident kB
mx_fds() { ls "/proc/$XC_PID/fd" | wc -l; }
mx_rss() { awk '/^VmRSS/ { print $2 }' "/proc/$XC_PID/status"; }

# mx_balanced - every direction of every cable but the sentinel, and of
# every removed one, accounts for each frame ("unaccounted" 0)
mx_balanced() {
	"$XCTL" -s "$T/x.ctl" list --json 2>/dev/null | /usr/bin/python3 -c '
import json, sys
doc, bad = json.load(sys.stdin), []
dirs = [(n, d, v) for n, c in doc["cables"].items() if n != "sentinel"
        for d, v in c["directions"].items()]
dirs += [(g["name"] + " (removed)", d, v) for g in doc.get("removed", [])
         for d, v in g["directions"].items()]
for n, d, v in dirs:
    if v["unaccounted"] != 0:
        bad.append("%s %s: %d unaccounted: %s" % (n, d, v["unaccounted"], v["counters"]))
print("\n".join(bad))
sys.exit(1 if bad else 0)'
}

# mx_check WANT - the invariants after a step: xcable alive, exactly the
# cables WANT (sorted names), every counter balanced
mx_check() {
	local now
	kill -0 "$XC_PID" 2>/dev/null || { fail "xcable died (step: $MX_STEP)"; return 1; }
	now=$(mx_cables)
	[ "$now" = "$1" ] || { fail "after $MX_STEP: cables '$now', expected '$1'"; return 1; }
	mx_balanced >bal.out || { cat bal.out; fail "after $MX_STEP: counters do not balance"; return 1; }
}

# mx_settled_fds N|FUNCTION - wait until the matrix xcable has at most N
# open fds again: nothing an operation opened is left behind (fewer is
# fine: the level N was read half a second after the step that set it,
# and an fd of an end removed then, a vhost client's connection, may
# close later); or exactly as many as FUNCTION prints, asked again each
# time (scripts/torture: a count that follows what the process runs)
mx_settled_fds() {
	local i n want
	for ((i = 0; i < 40; i++)); do
		n=$(mx_fds)
		if declare -F "$1" >/dev/null; then
			want=$($1)
			[ "$n" = "$want" ] && return 0
		else
			want=$1
			[ "$n" -le "$want" ] && return 0
		fi
		sleep 0.1
	done
	fail "after $MX_STEP: $n fds open, $want expected"
}

# mx_reload EXTRA FAULT WANT STEP - rewrite the config with mxI (of row
# ROW) and EXTRA lines in its section, FAULT in the fault file, and
# reload: WANT ok or refused (with the fault's reason); the invariants
# and the fds of the lab with mxI after it
mx_reload() {
	local extra=$1 fault=$2 want=$3
	MX_STEP=$4
	echo "$fault" >"$T/fault"
	mx_config lab.ini "$MX_I" "$MX_ROW" "$extra"
	if mx_ctl reload; then
		: >"$T/fault"
		[ "$want" = ok ] || { fail "$MX_STEP was taken"; return 1; }
	else
		: >"$T/fault"
		[ "$want" = refused ] || { cat ctl.out; fail "$MX_STEP failed"; return 1; }
		grep -q "injected fault" ctl.out || { cat ctl.out; fail "$MX_STEP: refused without the reason"; return 1; }
	fi
	mx_check "$MX_WITH" && mx_front "$MX_I" "$MX_ROW" && mx_settled_fds "$MX_FDS_WITH"
}

# mx_row I ROW BASE - every operation on cable mxI of kind ROW; BASE: the
# cables there are without it. After each, the invariants (mx_check), a
# stream of frames through mxI where it is there, and the fds back to
# their level: that of the lab with mxI, or without it
mx_row() {
	local i=$1 row=$2 base=$3 fds0 words=() mode want stops socks
	MX_I=$i MX_ROW=$row
	MX_WITH=$(echo "$base mx$i" | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
	mapfile -t words < <("mx_${row}_def" "$i")
	fds0=$(mx_fds)
	MX_STEP="add mx$i ($row)"
	mx_ctl add "mx$i" "${words[@]}" || { cat ctl.out; fail "$MX_STEP failed"; return 1; }
	mx_check "$MX_WITH" && mx_front "$i" "$row" || return 1
	sleep 0.5
	MX_FDS_WITH=$(mx_fds)
	MX_STEP="impair mx$i"
	mx_ctl impair "mx$i" delay=1ms && mx_ctl show "mx$i" && grep -q "impair delay=1.000ms" ctl.out ||
		{ cat ctl.out; fail "$MX_STEP did not take"; return 1; }
	mx_settled_fds "$MX_FDS_WITH" || return 1
	mx_ctl clear "mx$i" && mx_check "$MX_WITH" && mx_settled_fds "$MX_FDS_WITH" || return 1
	MX_STEP="down/up mx$i"
	if [ "$("mx_${row}_pull")" = yes ]; then
		mx_ctl down "mx$i" && mx_ctl up "mx$i" || { cat ctl.out; fail "$MX_STEP failed"; return 1; }
	else
		mx_ctl down "mx$i" && { fail "$MX_STEP was taken on a cable with a $row end"; return 1; }
		grep -q "only cables whose ends can both be unplugged" ctl.out ||
			{ cat ctl.out; fail "$MX_STEP: refused without the reason"; return 1; }
	fi
	mx_check "$MX_WITH" && mx_front "$i" "$row" && mx_settled_fds "$MX_FDS_WITH" || return 1
	# its left end changes (its socket's mode), its end of the kind stays
	stops=$(mx_stops) socks=$(mx_sockets)
	mx_reload "left-socket-mode = 0600" "" ok "reload changing mx$i's left end" || return 1
	grep -q "xcablectl reload: done.*1 replaced with their unchanged ends kept as they ran" xc.log ||
		{ fail "$MX_STEP: its right end was not kept"; return 1; }
	mode=$(stat -c %a "$T/mx$i-l.sock" 2>/dev/null)
	[ "$row" = socket_client ] || [ "$mode" = 600 ] || { fail "$MX_STEP: the socket has mode $mode"; return 1; }
	mx_reload "left-socket-mode = 0600
impair-to-right = delay=2ms" "" ok "reload changing mx$i's impairment alone" || return 1
	grep -q "xcablectl reload: done.*0 cable(s) removed or replaced, 0 added or replaced, 1 changed in place" xc.log ||
		{ fail "$MX_STEP was not in place"; return 1; }
	# its end of the kind changes, the left end stays: first failing
	# half-way (the new end fails to start: the old one is made again)
	mx_reload "left-socket-mode = 0600
right-offloads = no" "mx$i:end1 started" refused "reload changing mx$i's $row end, failing half-way" || return 1
	# a served socket's port (the right end of the socket rows) stays
	# aside while its new form is made, and its old form takes it again:
	# its guest noticed nothing either
	want="its left end kept as it ran"
	case $row in socket|socket_client) want="both its ends kept as they ran" ;; esac
	grep -q "mx$i: made again as it was ($want)" ctl.out ||
		{ cat ctl.out; fail "$MX_STEP: the answer does not say it was made again ($want)"; return 1; }
	mx_reload "left-socket-mode = 0600
right-offloads = no" "" ok "reload changing mx$i's $row end" || return 1
	# both ends change: made whole anew, first failing at the switch;
	# where both its ends can be made beside the old ones (a served
	# socket, a trunk member under the same tag, a tunnel with the same
	# VNI, a plug), the old cable never went; else it is made again
	mx_reload "" "mx$i:show" refused "reload replacing mx$i whole, failing at the switch" || return 1
	if [ "$("mx_${row}_beside")" = yes ]; then
		grep -q "made again\|LOST\|(final: replaced)" ctl.out &&
			{ cat ctl.out; fail "$MX_STEP: the old cable went, though its new form could be made beside it"; return 1; }
	else
		grep -q "^mx$i: made again as it was" ctl.out ||
			{ cat ctl.out; fail "$MX_STEP: the answer does not say it was made again"; return 1; }
	fi
	mode=$(stat -c %a "$T/mx$i-l.sock" 2>/dev/null)
	[ "$row" = socket_client ] || [ "$mode" = 600 ] ||
		{ fail "$MX_STEP: mx$i is not as it was (its socket has mode $mode)"; return 1; }
	mx_reload "" "" ok "reload replacing mx$i whole" || return 1
	# what its end is on stayed up through every change above (its end
	# made again, failing or not, or made beside: a NIC's link, the
	# tunnel socket's port never free), and goes with its last end
	[ "$(mx_stops)" = "$stops" ] ||
		{ grep "port stopped\|vxlan socket closed" xc.log | tail -n 3; fail "mx$i's $row end: its port or socket was stopped during a change that made an end on it again"; return 1; }
	[ "$(mx_sockets)" = "$socks" ] ||
		{ fail "mx$i's $row end: sockets '$socks' before its changes, '$(mx_sockets)' after: one was closed and opened again"; return 1; }
	MX_STEP="del mx$i"
	mx_ctl del "mx$i" || { cat ctl.out; fail "$MX_STEP failed"; return 1; }
	if [ "$("mx_${row}_shared")" = yes ] && [ "$(mx_stops)" = "$stops" ] &&
	   [ "$(mx_sockets)" = "$socks" ]; then
		fail "$MX_STEP: its $row end's port or socket was not let go of with its last end"; return 1
	fi
	grep -q "mx$i left->right: .*(final: removed)" xc.log || { fail "$MX_STEP: its last counters were not logged"; return 1; }
	grep -q "^mx$i right->left: rx-pkts [0-9]* .*(final: removed)" ctl.out ||
		{ cat ctl.out; fail "$MX_STEP: its last counters are not in the answer"; return 1; }
	[ -e "$T/mx$i-l.sock" ] && [ "$row" != socket_client ] && { fail "$MX_STEP: its socket is still there"; return 1; }
	mx_check "$base" || return 1
	# a [port] once used stays configured, stopped, for the next cable:
	# from here on the fds of the lab without mxI stay where they are
	[ "$(mx_fds)" -ge "$fds0" ] || { fail "after $MX_STEP: $(mx_fds) fds, fewer than the $fds0 before"; return 1; }
	sleep 0.5
	fds0=$(mx_fds)
	MX_STEP="add mx$i, failing half-way (its right end fails once made)"
	echo "mx$i:end1 made" >"$T/fault"
	mx_ctl add "mx$i" "${words[@]}" && { fail "$MX_STEP was taken"; return 1; }
	grep -q "injected fault" ctl.out || { cat ctl.out; fail "$MX_STEP: refused without the reason"; return 1; }
	: >"$T/fault"
	mx_check "$base" && mx_settled_fds "$fds0" || return 1
	MX_STEP="reload adding mx$i"
	mx_config lab.ini "$i" "$row" ""
	mx_ctl reload || { cat ctl.out; fail "$MX_STEP failed"; return 1; }
	mx_check "$MX_WITH" && mx_front "$i" "$row" && mx_settled_fds "$MX_FDS_WITH" || return 1
	MX_STEP="reload removing mx$i"
	mx_config lab.ini
	mx_ctl reload || { cat ctl.out; fail "$MX_STEP failed"; return 1; }
	mx_check "$base" && mx_settled_fds "$fds0" || return 1
	say "$row (mx$i): add, impair, down/up$([ "$("mx_${row}_pull")" = yes ] || echo ' (refused)'), reload changing its left end (its $row end kept), impairment in place, its $row end changed (failing half-way, then not), replaced whole (failing at the switch, then not), del, add failing half-way, reload adding and removing: all as asked; fds back to $MX_FDS_WITH with it, $fds0 without, after each"
}

# every runtime operation on a cable of every end kind (and a socket's
# client mode), with a sentinel cable streaming both ways all along: no
# crash, each change exactly as asked or refused with the lab as it was
# (three of them failing on purpose, XCABLE_FAULT: half-way, at the
# switch), a changed cable keeping its unchanged end, the fds back to
# their level after every operation, memory back to its level, every
# counter balanced, and the sentinel lost nothing and kept its carrier
t_change_matrix() {
	local k i=0 r rc=0 sp=() rss0 rss1 base sa sb ra rb
	MX_ROWS=$(mx_rows)
	for k in $(mx_kinds); do
		declare -F "mx_${k}_def" >/dev/null ||
			{ fail "end kind '$k' (xcable --help) has no row in the matrix: give it mx_${k}_* recipes here"; return 1; }
	done
	say "kinds of end (xcable --help): $(mx_kinds | tr '\n' ' ')"
	ip netns add "$(mx_ns)" && ip -n "$(mx_ns)" link set lo up || return 1
	for r in $MX_ROWS; do
		if declare -F "mx_${r}_setup" >/dev/null; then
			"mx_${r}_setup" "$i" || return 1
		fi
		i=$((i + 1))
	done
	mx_config lab.ini
	: >"$T/fault"
	rm -f "$(stats_json xc.log)"
	ip netns exec "$(mx_ns)" env XCABLE_FAULT="@$T/fault" "$XC" --config lab.ini \
		--control "$T/x.ctl" --stats-json "$(stats_json xc.log)" >xc.log 2>&1 &
	XC_PID=$!
	XC_PIDS+=("$XC_PID")
	wait_log xc.log "running;" 1 30 || { tail -n 5 xc.log; fail "xcable did not start"; return 1; }
	base=$(mx_cables)
	rm -f "$T/go"
	# xcpeer itself in the background: SIGTERM ends its stream gracefully
	"$XCPEER" $(peer_eal "$T/sen-l.sock") -- stream --id 1 --pps 2000 --seconds 3600 \
		--wait-file "$T/go" >sen-l.out 2>&1 & sp+=($!)
	"$XCPEER" $(peer_eal "$T/sen-r.sock") -- stream --id 2 --pps 2000 --seconds 3600 \
		--wait-file "$T/go" >sen-r.out 2>&1 & sp+=($!)
	wait_log xc.log "sen-l.sock): link up" 1 30 && wait_log xc.log "sen-r.sock): link up" 1 30 ||
		{ fail "the sentinel's frontends did not come up"; return 1; }
	touch "$T/go"
	i=0
	for r in $MX_ROWS; do
		mx_row "$i" "$r" "$base" || { rc=1; break; }
		[ "$i" = 0 ] && rss0=$(mx_rss)
		i=$((i + 1))
	done
	rss1=$(mx_rss)
	kill -TERM "${sp[@]}" 2>/dev/null
	# their reports are written before they close their ports; one that
	# hangs closing is xcable's fault only while xcable has not let its
	# guest go (it answers the frontend's last messages before that)
	for k in 0 1; do
		r=left; [ $k = 1 ] && r=right
		wait_exit "${sp[$k]}" 30 "the sentinel's $r frontend" && continue
		[ $? = 124 ] || continue
		if grep -q "sen-${r:0:1}.sock): link down" xc.log; then
			say "(the sentinel's $r frontend hung closing its port after xcable had let it go: DPDK's virtio_user, not xcable; killed)"
		else
			fail "the sentinel's $r frontend hung, and xcable never saw its guest go"; rc=1
		fi
	done
	[ $rc = 0 ] || return 1
	say "resident memory after the first row ${rss0} kB, after the last ${rss1} kB"
	if [[ $BUILD == *san* ]]; then
		say "(memory not held to its level under ASan: its quarantine keeps what is freed)"
	elif [ "$rss1" -gt $((rss0 + 4096)) ]; then
		fail "memory grew by $((rss1 - rss0)) kB over the rows"; return 1
	fi
	sa=$(sed -nE 's/^sent ([0-9]+)/\1/p' sen-l.out); sb=$(sed -nE 's/^sent ([0-9]+)/\1/p' sen-r.out)
	ra=$(received_from sen-r.out 1); rb=$(received_from sen-l.out 2)
	say "sentinel: left sent $sa, right received $ra; right sent $sb, left received $rb; link-downs $(sed -nE 's/^link-downs //p' sen-l.out)/$(sed -nE 's/^link-downs //p' sen-r.out)"
	[ "${sa:-0}" -gt 1000 ] && [ "$sa" = "$ra" ] && [ "$sb" = "$rb" ] || { fail "the sentinel lost frames"; return 1; }
	grep -q "^link-downs 0" sen-l.out && grep -q "^link-downs 0" sen-r.out ||
		{ fail "the sentinel's carrier dropped"; return 1; }
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
	check_dir_clean xc.log "sentinel left->right" "$sa" && check_dir_clean xc.log "sentinel right->left" "$sb"
}
TESTS+=(t_change_matrix)	# both builds: memory is held to its level on build/ alone

# a guest that connects to a socket bound at runtime is answered at once.
# The vhost library's thread polls a socket bound while it waits only
# once that wait ends, up to a second later (before app/kinds/vhost_wake.c:
# 765-920 ms after an add, on every kind of the matrix). Five cables
# added one after the other, then one of them unplugged and plugged in
# three times (its sockets made again), each attached by xcfront at once:
# the handshake of both sockets ("attached ... in N ms") under 300 ms by
# the median, and the cable carries frames both ways each time
t_change_add_answers_at_once() {
	local i ms=() med
	printf '[global]\nstats-interval = 0\n[cable c0]\nleft = %s\nright = %s\n' "$T/0-l.sock" "$T/0-r.sock" >lab.ini
	xc_start xc.log --config lab.ini --control "$T/x.ctl"
	wait_log xc.log "running;" 1 30 || { tail -n 5 xc.log; fail "xcable did not start"; return 1; }
	at_once() {	# CABLE-NUMBER STEP
		timeout 30 "$BUILD/tests/xcfront" --pairs "$T/%d-l.sock,$T/%d-r.sock" --first "$1" \
			--count 1 --frames 8 >front.out 2>&1 || { cat front.out; fail "$2: c$1 does not carry frames"; return 1; }
		ms+=("$(sed -nE 's/^xcfront: attached 1 cable\(s\) \(2 sockets\) in ([0-9]+) ms$/\1/p' front.out)")
		[ -n "${ms[-1]}" ] || { cat front.out; fail "$2: xcfront did not say how long it took to attach"; return 1; }
	}
	for i in 1 2 3 4 5; do
		"$XCTL" -s "$T/x.ctl" add "c$i" left="$T/$i-l.sock" right="$T/$i-r.sock" >ctl.out 2>&1 ||
			{ cat ctl.out; fail "add c$i failed"; return 1; }
		at_once "$i" "add c$i" || return 1
	done
	for i in 1 2 3; do
		"$XCTL" -s "$T/x.ctl" down c2 >ctl.out 2>&1 && "$XCTL" -s "$T/x.ctl" up c2 >>ctl.out 2>&1 ||
			{ cat ctl.out; fail "down/up c2 failed"; return 1; }
		at_once 2 "down/up c2 ($i)" || return 1
	done
	med=$(median "${ms[@]}")
	say "handshakes right after 5 adds, then 3 plugs: ${ms[*]} ms (median $med)"
	[ "$med" -lt 300 ] || { fail "a socket bound at runtime was answered after $med ms (median)"; return 1; }
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_change_add_answers_at_once)

# random runtime changes for a few seconds under traffic, failures on
# purpose in one step in four, the invariants checked after every step
# (scripts/torture; scripts/soak --torture runs it for longer)
t_change_torture() {
	"$TOP/scripts/torture" --seconds 12 --build "$BUILD" --seed "${XC_TORTURE_SEED:-$RANDOM}" "$@" >torture.out 2>&1
	local rc=$?
	grep '^torture: ' torture.out | sed 's/^/  /'
	[ $rc = 0 ] || { tail -n 20 torture.out | sed 's/^/    /'; fail "a check failed during the torture (the seed above repeats it)"; }
}
TESTS+=(t_change_torture)

# the same in a lab of more than one process holds, its workers killed
# among the operations
t_change_torture_supervised() { t_change_torture --supervised; }
TESTS+=(t_change_torture_supervised)
SAN_ONCE+=(t_change_torture_supervised)	# CI time: t_change_supervised kills workers among changes on build/

# the issue's cases one by one, on a lab of a tunnel cable and a socket
# cable: deleting, changing (its VNI, by SIGHUP) and removing (its section,
# by reload) a VXLAN cable, and adding one by xcablectl and by reload, with
# frames across each new tunnel to a peer xcable; a reload that changes
# one cable and adds a tunnel that cannot be made (its UDP port is taken)
# changes nothing, and neither does one with a socket path DPDK cannot
# carry ('='); xcable lives through it all and its other cable forwards
t_change_vxlan() {
	local n rc
	ip netns add "$(mx_ns)" && ip -n "$(mx_ns)" link set lo up || return 1
	printf '[global]\nstats-interval = 0\nvxlan-port = 14790\nlink-propagation = no\n[cable p]\nleft = %s\nright-vxlan = 127.0.0.1:14789\nright-vni = 100\n[cable p2]\nleft = %s\nright-vxlan = 127.0.0.1:14789\nright-vni = 200\n' \
		"$T/v-r.sock" "$T/w-r.sock" >peer.ini
	ip netns exec "$(mx_ns)" "$XC" --config peer.ini --control "$T/peer.ctl" >peer.log 2>&1 &
	XC_PIDS+=("$!")
	vx_ini() {	# CABLE-V-VNI [EXTRA SECTION]
		printf '[global]\nstats-interval = 0\nvxlan-port = 14789\nlink-propagation = no\n[cable s]\nleft = %s\nright = %s\n' "$T/s-l.sock" "$T/s-r.sock"
		[ "$1" ] && printf '[cable v]\nleft = %s\nright-vxlan = 127.0.0.1:14790\nright-vni = %s\n' "$T/v-l.sock" "$1"
		[ -n "${2:-}" ] && printf '%s\n' "$2"
		true
	}
	vx_ini 100 >lab.ini
	rm -f "$(stats_json xc.log)"
	ip netns exec "$(mx_ns)" "$XC" --config lab.ini --control "$T/x.ctl" \
		--stats-json "$(stats_json xc.log)" >xc.log 2>&1 &
	XC_PID=$!
	XC_PIDS+=("$XC_PID")
	wait_log xc.log "running;" 1 30 && wait_log peer.log "running;" 1 30 ||
		{ tail -n 5 xc.log peer.log; fail "xcable did not start"; return 1; }
	vfront() {	# the cable v (socket v-l) through the tunnel to the peer
		timeout 30 "$BUILD/tests/xcfront" --pairs "$T/%d-l.sock,$T/%d-r.sock" --count 1 --first "$1" --frames 16 >front.out 2>&1 ||
			{ cat front.out; fail "$2: no frames across"; return 1; }
	}
	# xcfront names sockets by number: v is 1, w is 2, s is 3
	ln -sf "$T/v-l.sock" "$T/1-l.sock"; ln -sf "$T/v-r.sock" "$T/1-r.sock"
	ln -sf "$T/w-l.sock" "$T/2-l.sock"; ln -sf "$T/w-r.sock" "$T/2-r.sock"
	ln -sf "$T/s-l.sock" "$T/3-l.sock"; ln -sf "$T/s-r.sock" "$T/3-r.sock"
	vfront 1 "v at start" || return 1
	say "v carries frames through its tunnel to the peer (vni 100)"
	# 1. del: the crash of before
	mx_ctl() { "$XCTL" -s "$T/x.ctl" "$@" >ctl.out 2>&1; }
	mx_ctl del v || { cat ctl.out; fail "del v failed"; return 1; }
	kill -0 "$XC_PID" || { fail "xcable died deleting a tunnel cable"; return 1; }
	say "del v: $(grep -m1 'v left->right' ctl.out | cut -c1-60)... (final: removed); xcable alive"
	vfront 3 "s after del v" || return 1
	# 2. add by xcablectl, then its VNI changed by SIGHUP, then its
	# section removed by reload
	mx_ctl add v left="$T/v-l.sock" right-vxlan=127.0.0.1:14790 right-vni=100 ||
		{ cat ctl.out; fail "add of a tunnel cable refused"; return 1; }
	vfront 1 "v added by xcablectl" || return 1
	vx_ini 200 >lab.ini
	n=$(grep -c "SIGHUP: reload" xc.log)
	kill -HUP "$XC_PID"
	wait_log xc.log "SIGHUP: reload" $((n + 1)) 20 || { fail "SIGHUP not acted on"; return 1; }
	grep "SIGHUP: reload" xc.log | tail -n 1 | grep -q "done.*1 cable(s) removed or replaced, 1 added" ||
		{ grep "SIGHUP" xc.log | tail -n 1; fail "the VNI change was not applied"; return 1; }
	kill -0 "$XC_PID" || { fail "xcable died changing a tunnel's VNI"; return 1; }
	ln -sf "$T/v-l.sock" "$T/2-l.sock"	# v (vni 200) now reaches the peer's p2
	vfront 2 "v with vni 200" || return 1
	say "SIGHUP with v's VNI changed: v replaced, its frames reach the peer's vni 200 cable"
	vx_ini "" >lab.ini
	mx_ctl reload || { cat ctl.out; fail "reload removing v failed"; return 1; }
	kill -0 "$XC_PID" || { fail "xcable died removing a tunnel's section"; return 1; }
	vx_ini 100 >lab.ini
	mx_ctl reload || { cat ctl.out; fail "reload adding a tunnel cable failed"; return 1; }
	vfront 1 "v added by reload" || return 1
	say "reload removing v's section, then adding it back: done, v carries frames"
	# 3. a reload with an error changes nothing: a socket path DPDK
	# cannot carry is refused up front
	vx_ini 100 | sed "s|$T/s-r.sock|$T/s=r.sock|" >lab.ini
	mx_ctl reload && { fail "a socket path with '=' was taken"; return 1; }
	grep -q "contains '='" ctl.out || { cat ctl.out; fail "the reason is not said"; return 1; }
	vfront 3 "s after the refused reload" || return 1
	say "reload with s's socket path containing '=': refused ($(tail -n 1 ctl.out | cut -c1-90)...); s as it was"
	# ... and so does one that fails half-way: with no tunnel left the
	# tunnel socket is closed, and another process takes its UDP port
	mx_ctl del v || { cat ctl.out; fail "del v failed"; return 1; }
	ip netns exec "$(mx_ns)" python3 -c 'import socket, time
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
s.bind(("::", 14789)); time.sleep(60)' & local squat=$!
	XC_PIDS+=("$squat")
	sleep 0.5
	# s becomes a tunnel cable (same left socket, kept; its right one's
	# port stays aside until the tunnel runs, and is taken again)
	printf '[global]\nstats-interval = 0\nvxlan-port = 14789\nlink-propagation = no\n[cable s]\nleft = %s\nright-vxlan = 127.0.0.1:14790\nright-vni = 100\n' "$T/s-l.sock" >lab.ini
	mx_ctl reload && { fail "a tunnel on a taken UDP port was made"; return 1; }
	say "reload turning s into a tunnel cable, its UDP port taken: refused ($(tail -n 1 ctl.out | cut -c1-80)...)"
	grep -q "^s: made again as it was (both its ends kept as they ran)" ctl.out || { cat ctl.out; fail "s was not made again with both its ends as they ran"; return 1; }
	vfront 3 "s made again after the failed reload" || return 1
	# s changed (its socket's mode) and a new tunnel cable y added
	vx_ini "" "[cable y]
left = $T/y-l.sock
right-vxlan = 127.0.0.1:14790
right-vni = 100" | sed "s|^right = $T/s-r.sock|&\nright-socket-mode = 0600|" >lab.ini
	mx_ctl reload && { fail "a tunnel on a taken UDP port was made"; return 1; }
	[ "$(stat -c %a "$T/s-r.sock")" = 660 ] || { fail "s was changed by a reload that failed"; return 1; }
	[ "$("$XCTL" -s "$T/x.ctl" list | grep -c '^[a-z]*:')" = 1 ] || { fail "the failed reload left a cable"; return 1; }
	vfront 3 "s after the second failed reload" || return 1
	say "reload changing s and adding tunnel cable y, its UDP port taken: refused, s unchanged, no y"
	kill "$squat"; wait "$squat" 2>/dev/null
	vx_ini 100 >lab.ini
	mx_ctl reload || { cat ctl.out; fail "the lab cannot be restored"; return 1; }
	vfront 1 "v at the end" && vfront 3 "s at the end" || return 1
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
	check_accounted xc.log 4
}
TESTS+=(t_change_vxlan)

# a cable deleted while its delay line holds frames: those are dropped
# and counted (shutdown), and its last counters are in del's answer, in
# the log and, after it went, in --stats-json's "removed": what it
# received is what the far frontend got plus what it counted dropped
t_change_counters_outlive() {
	local lp rp rx tx dr sh got
	printf '[global]\nstats-interval = 0\nlink-propagation = no\n[cable d]\nleft = %s\nright = %s\nimpair-to-right = delay=300ms\n[cable e]\nleft = %s\nright = %s\n' \
		"$T/d-l.sock" "$T/d-r.sock" "$T/e-l.sock" "$T/e-r.sock" >lab.ini
	xc_start xc.log --config lab.ini --control "$T/x.ctl"
	wait_log xc.log "running;" 1 30 || { fail "xcable did not start"; return 1; }
	rm -f "$T/go"
	"$XCPEER" $(peer_eal "$T/d-r.sock") -- stream --id 2 --pps 0 --seconds 4 --wait-file "$T/go" >d-r.out 2>&1 & rp=$!
	"$XCPEER" $(peer_eal "$T/d-l.sock") -- stream --id 1 --pps 2000 --seconds 3 --wait-file "$T/go" >d-l.out 2>&1 & lp=$!
	wait_log xc.log "d-l.sock): link up" 1 30 && wait_log xc.log "d-r.sock): link up" 1 30 ||
		{ fail "frontends did not come up"; return 1; }
	touch "$T/go"
	sleep 1.5
	"$XCTL" -s "$T/x.ctl" del d >del.out 2>&1 || { cat del.out; fail "del d failed"; return 1; }
	wait $lp $rp
	sed 's/^/  answer: /' del.out | cut -c1-160
	read -r rx tx dr sh < <(sed -nE 's/^d left->right: rx-pkts ([0-9]+) .*tx-pkts ([0-9]+) .*dropped ([0-9]+) .*shutdown ([0-9]+) .*\(final: removed\)/\1 \2 \3 \4/p' del.out)
	got=$(received_from d-r.out 1)
	say "d left->right at del: rx $rx, tx $tx, dropped $dr (shutdown $sh); the right frontend received ${got:-0}"
	[ -n "$rx" ] || { fail "del's answer has no last counters"; return 1; }
	[ "$sh" -gt 0 ] || { fail "no frame was held in the delay line at del (shutdown 0)"; return 1; }
	[ "$rx" = $((tx + dr)) ] && [ "${got:-0}" = "$tx" ] ||
		{ fail "the removed cable's frames do not add up"; return 1; }
	grep -q "xcable: d left->right: rx-pkts $rx .*(final: removed)" xc.log || { fail "the last counters are not in the log"; return 1; }
	xc_stop
	/usr/bin/python3 - "$(stats_json xc.log)" "$rx" "$sh" <<'PY' || { fail "--stats-json lacks the removed cable's counters"; return 1; }
import json, sys
doc = json.load(open(sys.argv[1]))
g = [r for r in doc["removed"] if r["name"] == "d"]
k = g[0]["directions"]["left->right"]["counters"]
assert k["rx-pkts"] == int(sys.argv[2]) and k["shutdown"] == int(sys.argv[3]), k
assert doc["removed-total"] == 1 and "d" not in doc["cables"]
print("  --stats-json: removed d, left->right rx-pkts %d, shutdown %d; removed-total %d" % (k["rx-pkts"], k["shutdown"], doc["removed-total"]))
PY
}
TESTS+=(t_change_counters_outlive)

# a changed cable keeps the ends whose definition did not change: a is
# changed in its right socket's mode while a guest streams on its left:
# the left socket (its inode) and the guest's carrier stay, the answer
# gives a's counters up to the change, and the left guest's frames reach
# a guest on the new right end. Then a change that fails at the switch
# (XCABLE_FAULT: a:show) and whose cables cannot be made again either
# (a:again, b:again) loses a, and the answer says so, after its last
# counters; list --json keeps those. b, replaced whole in the same
# change, was made beside the old b (its sockets at hidden names) and
# the old b never went: it is as it was. A reload brings a back
t_change_kept_ends() {
	local lp rp ino rc got
	kc_ini() {	# A-RIGHT-MODE B-MODE
		printf '[global]\nstats-interval = 0\nlink-propagation = no\n[cable a]\nleft = %s\nright = %s\nright-socket-mode = %s\n[cable b]\nleft = %s\nright = %s\nleft-socket-mode = %s\nright-socket-mode = %s\n[cable c]\nleft = %s\nright = %s\n' \
			"$T/a-l.sock" "$T/a-r.sock" "$1" "$T/b-l.sock" "$T/b-r.sock" "$2" "$2" "$T/c-l.sock" "$T/c-r.sock"
	}
	kc_ini 0660 0660 >lab.ini
	: >"$T/fault"
	XCABLE_FAULT="@$T/fault" xc_start xc.log --config lab.ini --control "$T/x.ctl"
	wait_log xc.log "running;" 1 30 || { tail -n 5 xc.log; fail "xcable did not start"; return 1; }
	rm -f "$T/go"
	STREAM_WAIT=$T/go stream_peer left.out "$T/a-l.sock" 1 12 & lp=$!
	wait_log xc.log "a-l.sock): link up" 1 30 || { fail "the left guest did not come up"; return 1; }
	touch "$T/go"
	sleep 1
	ino=$(stat -c %i "$T/.a-l.sock.in-use" 2>/dev/null || stat -c %i "$T/a-l.sock")
	kc_ini 0600 0660 >lab.ini
	"$XCTL" -s "$T/x.ctl" reload >reload.out 2>&1 || { cat reload.out; fail "the reload changing a's right end failed"; return 1; }
	sed 's/^/  answer: /' reload.out | cut -c1-150
	grep -q "1 replaced with their unchanged ends kept as they ran" reload.out ||
		{ fail "a was not changed keeping its left end"; return 1; }
	grep -qE "^a left->right: rx-pkts [1-9][0-9]* .*\(final: replaced\)" reload.out ||
		{ fail "the answer lacks a's counters up to the change"; return 1; }
	[ "$(stat -c %a "$T/a-r.sock")" = 600 ] || { fail "a's right socket is not the new one"; return 1; }
	[ "$(stat -c %i "$T/.a-l.sock.in-use" 2>/dev/null || stat -c %i "$T/a-l.sock")" = "$ino" ] ||
		{ fail "a's left socket was made anew"; return 1; }
	say "a's left socket is the one it was (inode $ino), its right one has mode 600"
	stream_peer right.out "$T/a-r.sock" 2 4 & rp=$!
	wait $rp
	got=$(received_from right.out 1)
	wait $lp
	say "after the change the new right guest received ${got:-0} frames of the left one; left: $(grep '^link-downs' left.out)"
	[ "${got:-0}" -gt 1000 ] || { fail "the kept left end does not forward to the new right end"; return 1; }
	grep -q "^link-downs 0" left.out || { fail "the left guest's carrier dropped"; return 1; }
	# the switch fails, and neither a nor b can be made again
	echo "a:show,a:again,b:again" >"$T/fault"
	kc_ini 0640 0600 >lab.ini
	"$XCTL" -s "$T/x.ctl" reload >fail.out 2>&1 && { fail "the reload failing on purpose was taken"; return 1; }
	: >"$T/fault"
	sed 's/^/  answer: /' fail.out | cut -c1-150
	grep -q "^a right->left: .*(final: replaced)" fail.out ||
		{ fail "the answer lacks the last counters of a"; return 1; }
	grep -q "^a: LOST: could not be made again (cable a: again: injected fault" fail.out ||
		{ fail "the answer does not say a was lost"; return 1; }
	grep -q "^b\b" fail.out && { fail "b, made beside the old b, was touched"; return 1; }
	[ "$(stat -c %a "$T/b-l.sock")" = 660 ] && [ ! -e "$T/.b-l.sock.next" ] ||
		{ fail "b's socket is not the one it was, or its replacement's was left"; return 1; }
	grep -q "^xcablectl: error: cable a: show: injected fault" fail.out || { fail "the reason is not said"; return 1; }
	kill -0 "$XC_PID" || { fail "xcable died"; return 1; }
	"$XCTL" -s "$T/x.ctl" list --json >list.json || { fail "list --json failed"; return 1; }
	/usr/bin/python3 - list.json <<'PY' || { fail "list --json is not as the lab is"; return 1; }
import json, sys
d = json.load(open(sys.argv[1]))
names = sorted(d["cables"])
gone = [g["name"] for g in d["removed"]]
assert names == ["b", "c"], names
assert gone.count("a") == 2 and "b" not in gone, gone
print("  list --json: cables %s; removed %s" % (names, gone))
PY
	[ ! -e "$T/a-l.sock" ] && [ ! -e "$T/.a-l.sock.in-use" ] ||
		{ fail "a lost cable's socket was left"; return 1; }
	"$XCTL" -s "$T/x.ctl" reload >back.out 2>&1 || { cat back.out; fail "the lab cannot be restored"; return 1; }
	"$XCTL" -s "$T/x.ctl" list | grep -c '^[abc]: ' | grep -qx 3 || { fail "a and b did not come back"; return 1; }
	say "a reload brings a and b back: $(tail -n 2 back.out | head -n 1 | cut -c1-100)"
	run_frames xc.log "$T/a-l.sock" "$T/a-r.sock" $(($(grep -c "link up" xc.log) + 2)) 1 || return 1
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
	check_accounted xc.log 6
}
TESTS+=(t_change_kept_ends)
SAN_ONCE+=(t_change_kept_ends)	# kept ends; t_change_matrix checks them too

# sock_ino PATH - the inode of a served socket, at its hidden in-use name
# while a frontend is attached
sock_ino() {
	local d=${1%/*} b=${1##*/}
	stat -c %i "$d/.$b.in-use" 2>/dev/null || stat -c %i "$1"
}

# faulty_pair NAME SECS - xcable on lab.ini with XCABLE_FAULT read from
# $T/fault, and two frontends streaming SECS seconds on cable NAME's
# sockets ($T/NAME-l.sock, $T/NAME-r.sock; left.out, right.out, pids in
# FP_L and FP_R), both up and streaming; the sockets' inodes in FP_IL
# and FP_IR
faulty_pair() {
	: >"$T/fault"
	XCABLE_FAULT="@$T/fault" xc_start xc.log --config lab.ini --control "$T/x.ctl"
	wait_log xc.log "running;" 1 30 || { tail -n 5 xc.log; fail "xcable did not start"; return 1; }
	rm -f "$T/go"
	STREAM_WAIT=$T/go stream_peer left.out "$T/$1-l.sock" 1 "$2" & FP_L=$!
	STREAM_WAIT=$T/go stream_peer right.out "$T/$1-r.sock" 2 "$2" & FP_R=$!
	wait_log xc.log "$1-l.sock): link up" 1 30 && wait_log xc.log "$1-r.sock): link up" 1 30 ||
		{ fail "the guests did not come up"; return 1; }
	touch "$T/go"
	sleep 1
	FP_IL=$(sock_ino "$T/$1-l.sock") FP_IR=$(sock_ino "$T/$1-r.sock")
}

# failing_reload FAULT - reload lab.ini with FAULT in the fault file
# (XCABLE_FAULT): it must fail; its answer in fail.out
failing_reload() {
	echo "$1" >"$T/fault"
	"$XCTL" -s "$T/x.ctl" reload >fail.out 2>&1 && { fail "the reload failing on purpose was taken"; return 1; }
	: >"$T/fault"
}

# a cable replaced whole on the same sockets is made before the old one
# goes: its sockets bound beside the old ones (.NAME.next) while guests
# stream on the old. A reload that fails at the switch (XCABLE_FAULT:
# s:show) leaves the old cable exactly as it was: its guests keep their
# carrier and lose nothing, its sockets are the same files, nothing is
# left at the hidden names. The same reload without the fault replaces
# it: the new sockets take the paths (new files, the new mode), and new
# guests there stream through both ways. Somebody's file at a hidden name
# makes a reload fail, the file and the cable left as they were (still
# forwarding); two more replacements alternate between the hidden names;
# a cable added at the hidden name the cable's socket is known by is
# refused, and the cable still forwards
t_change_beside() {
	local lp rp il ir got sent
	bs_ini() {	# MODE
		printf '[global]\nstats-interval = 0\nlink-propagation = no\n[cable s]\nleft = %s\nright = %s\nleft-socket-mode = %s\nright-socket-mode = %s\n[cable t]\nleft = %s\nright = %s\n' \
			"$T/s-l.sock" "$T/s-r.sock" "$1" "$1" "$T/t-l.sock" "$T/t-r.sock"
	}
	bs_ini 0660 >lab.ini
	faulty_pair s 10 || return 1
	lp=$FP_L rp=$FP_R il=$FP_IL ir=$FP_IR
	bs_ini 0600 >lab.ini
	failing_reload "s:show" || return 1
	sed 's/^/  answer: /' fail.out | cut -c1-150
	grep -q "^xcablectl: error: cable s: show: injected fault" fail.out || { fail "the reason is not said"; return 1; }
	grep -qE "^s: (made again|LOST)|final: replaced" fail.out && { fail "the old s was taken away"; return 1; }
	[ "$(sock_ino "$T/s-l.sock")" = "$il" ] && [ "$(sock_ino "$T/s-r.sock")" = "$ir" ] ||
		{ fail "s's sockets are not the files they were"; return 1; }
	ls -a "$T" | grep -q '\.next$' && { fail "a socket made for the change was left: $(ls -a "$T" | grep next)"; return 1; }
	wait $lp $rp
	sent=$(sed -nE 's/^sent ([0-9]+)/\1/p' left.out)
	got=$(received_from right.out 1)
	say "the failed change: s's sockets are the same files (inodes $il, $ir); the left guest sent $sent, the right received ${got:-0}; $(grep '^link-downs' left.out)/$(grep '^link-downs' right.out)"
	[ "${sent:-0}" -gt 10000 ] && [ "$got" = "$sent" ] || { fail "the old s lost frames"; return 1; }
	grep -q "^link-downs 0" left.out && grep -q "^link-downs 0" right.out ||
		{ fail "a guest of the old s saw its carrier drop"; return 1; }
	"$XCTL" -s "$T/x.ctl" reload >ok.out 2>&1 || { cat ok.out; fail "the reload failed"; return 1; }
	sed 's/^/  answer: /' ok.out | tail -n 1 | cut -c1-150
	grep -q "^s right->left: .*(final: replaced)" ok.out || { fail "s was not replaced"; return 1; }
	grep -c "s: .*: serves $T/s-[lr].sock in place of the cable it replaced" xc.log | grep -qx 2 ||
		{ fail "the new ends did not take the old ones' paths"; return 1; }
	[ "$(stat -c %a "$T/s-l.sock")" = 600 ] && [ "$(stat -c %a "$T/s-r.sock")" = 600 ] &&
	[ "$(stat -c %i "$T/s-l.sock")" != "$il" ] || { fail "s's sockets are not the new ones"; return 1; }
	ls -a "$T" | grep -q '\.next$' && { fail "a hidden name was left: $(ls -a "$T" | grep next)"; return 1; }
	say "the change: both new sockets took their paths (mode 600, new files), nothing left at .next"
	run_frames xc.log "$T/s-l.sock" "$T/s-r.sock" $(($(grep -c "link up" xc.log) + 2)) 1 || return 1
	# the vhost library knows s's new sockets by their .next names, so
	# the next change binds at .next2; somebody's file there: refused,
	# left alone, s as it was and still served (a port made at a name
	# the library knows another by would close that one as it fails)
	il=$(stat -c %i "$T/s-l.sock")
	echo theirs >"$T/.s-l.sock.next2"
	bs_ini 0640 >lab.ini
	"$XCTL" -s "$T/x.ctl" reload >theirs.out 2>&1 && { fail "a reload over somebody's file was taken"; return 1; }
	say "somebody's file at .s-l.sock.next2: $(grep -m1 error theirs.out | cut -c1-150)"
	grep -q "s-l.sock.next2" theirs.out || { fail "the refusal does not name the file"; return 1; }
	[ "$(cat "$T/.s-l.sock.next2")" = theirs ] && [ "$(stat -c %i "$T/s-l.sock")" = "$il" ] &&
	[ "$(stat -c %a "$T/s-l.sock")" = 600 ] || { fail "the file, or s, was touched"; return 1; }
	rm -f "$T/.s-l.sock.next2"
	run_frames xc.log "$T/s-l.sock" "$T/s-r.sock" $(($(grep -c "link up" xc.log) + 2)) 1 ||
		{ fail "s no longer forwards after the refused change"; return 1; }
	# and again: made at .next2 this time, then .next, each taking the path
	for il in 0640 0600; do
		bs_ini $il >lab.ini
		"$XCTL" -s "$T/x.ctl" reload >again.out 2>&1 || { cat again.out; fail "replacing s again failed"; return 1; }
		[ "$(stat -c %a "$T/s-l.sock")" = "${il#0}" ] || { fail "s's socket is not the new one ($il)"; return 1; }
	done
	# a careless add at the hidden name s's socket is known by: refused
	"$XCTL" -s "$T/x.ctl" add x left="$T/.s-l.sock.next" right="$T/x-r.sock" >x.out 2>&1 &&
		{ fail "a cable at s's hidden name was added"; return 1; }
	say "add at .s-l.sock.next: $(grep -m1 error x.out | cut -c1-140)"
	grep -q "known by that name" x.out || { cat x.out; fail "the refusal does not say why"; return 1; }
	run_frames xc.log "$T/s-l.sock" "$T/s-r.sock" $(($(grep -c "link up" xc.log) + 2)) 1 ||
		{ fail "s does not forward after two more changes"; return 1; }
	ls -a "$T" | grep -q '\.next2\?$' && { fail "a hidden name was left: $(ls -a "$T" | grep next)"; return 1; }
	say "replaced twice more (at .next2, then .next): frames pass, nothing left at the hidden names"
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
	[ ! -e "$T/s-l.sock" ] && [ ! -e "$T/.s-l.sock.in-use" ] || { fail "s's socket was left at exit"; return 1; }
}
TESTS+=(t_change_beside)
SAN_ONCE+=(t_change_beside)	# CI time: t_vm_reload_replace replaces a cable beside itself on build/, with guests

# a trunk's tag and a tunnel's VNI and remote a running cable has are
# refused to another cable, by add and by reload, naming the cable that
# has them, and the lab is unchanged; cables renamed by a reload (same
# sockets, same tag, same tunnel) are made beside the old ones: failing
# at the switch, the old ones never went and still carry frames; without
# the fault, the new ones take the sockets, the tag and the tunnel once
# the old ones are gone, and carry frames
t_change_taken_keys() {
	local i=0 it iv r base want
	mx_lab lab.ini || return 1
	for r in $MX_ROWS; do
		[ "$r" = trunk ] && it=$i
		[ "$r" = vxlan ] && iv=$i
		i=$((i + 1))
	done
	[ -n "$it" ] && [ -n "$iv" ] || { fail "the matrix has no trunk or vxlan row"; return 1; }
	: >"$T/fault"
	ip netns exec "$(mx_ns)" env XCABLE_FAULT="@$T/fault" "$XC" --config lab.ini --control "$T/x.ctl" >xc.log 2>&1 &
	XC_PID=$!
	XC_PIDS+=("$XC_PID")
	wait_log xc.log "running;" 1 30 || { tail -n 5 xc.log; fail "xcable did not start"; return 1; }
	base=$(mx_cables)
	mx_ctl add dup left="$T/dup-l.sock" right-port="ta$it" right-tag=10 &&
		{ fail "a second cable on ta$it's tag 10 was added"; return 1; }
	grep -q "mx$it" ctl.out || { cat ctl.out; fail "the refusal does not name mx$it"; return 1; }
	say "add with mx$it's tag: $(tail -n 1 ctl.out | cut -c1-120)"
	mx_ctl add dup left="$T/dup-l.sock" right-vxlan=127.0.0.1:14790 right-vni=$((4200 + iv)) &&
		{ fail "a second cable on mx$iv's tunnel was added"; return 1; }
	grep -q "vni $((4200 + iv))" ctl.out || { cat ctl.out; fail "the refusal does not name the tunnel"; return 1; }
	say "add with mx$iv's tunnel: $(tail -n 1 ctl.out | cut -c1-120)"
	cp lab.ini lab0.ini
	printf '[cable dup]\nleft = %s\nright-port = ta%s\nright-tag = 10\n' "$T/dup-l.sock" "$it" >>lab.ini
	mx_ctl reload && { fail "a reload adding a second cable on tag 10 was taken"; return 1; }
	say "reload adding one: $(tail -n 1 ctl.out | cut -c1-120)"
	[ "$(mx_cables)" = "$base" ] && [ ! -e "$T/dup-l.sock" ] || { fail "the refused changes changed the lab"; return 1; }
	mx_front "$it" trunk && mx_front "$iv" vxlan || return 1
	# renamed: rnI in place of mxI
	sed "s/^\[cable mx$it\]/[cable rn$it]/; s/^\[cable mx$iv\]/[cable rn$iv]/" lab0.ini >lab.ini
	want=$(echo "$base" | tr ' ' '\n' | sed "s/^mx$it\$/rn$it/; s/^mx$iv\$/rn$iv/" | sort | tr '\n' ' ' | sed 's/ $//')
	echo "rn$it:show" >"$T/fault"
	mx_ctl reload && { fail "the rename failing on purpose was taken"; return 1; }
	: >"$T/fault"
	grep -q "injected fault" ctl.out || { cat ctl.out; fail "refused without the reason"; return 1; }
	grep -qE "made again|LOST|\(final: replaced\)" ctl.out && { cat ctl.out; fail "the old cables went, though their new forms were made beside them"; return 1; }
	[ "$(mx_cables)" = "$base" ] || { fail "the failed rename changed the lab: $(mx_cables)"; return 1; }
	mx_front "$it" trunk && mx_front "$iv" vxlan || return 1
	say "the rename failing at the switch: mx$it and mx$iv never went, and carry frames"
	mx_ctl reload || { cat ctl.out; fail "the rename failed"; return 1; }
	[ "$(mx_cables)" = "$want" ] || { fail "after the rename: $(mx_cables)"; return 1; }
	grep -q "rn$it: left: serves $T/mx$it-l.sock in place of the cable it replaced" xc.log &&
	grep -q "rn$iv: left: serves $T/mx$iv-l.sock in place of the cable it replaced" xc.log ||
		{ grep "in place of" xc.log; fail "rn$it and rn$iv were not made beside the cables they replaced"; return 1; }
	mx_front "$it" trunk && mx_front "$iv" vxlan || return 1
	say "renamed: rn$it and rn$iv made beside mx$it and mx$iv, then on their sockets, tag 10 and tunnel vni $((4200 + iv)): frames pass"
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_change_taken_keys)

# pk_unnoticed PIDS FROM TO ID WHAT - after a change to cable p that failed
# half-way (its answer in fail.out), once the streams of both its guests
# (PIDS, in left.out and right.out) ended: the answer says p's guests
# noticed nothing, and they did not: what FROM's guest sent (stream ID)
# TO's received, and neither saw its carrier drop
pk_unnoticed() {
	local sent got
	sed 's/^/  answer: /' fail.out | grep -v "final: replaced" | cut -c1-150
	grep -q "^p: made again as it was (both its ends kept as they ran)" fail.out ||
		{ fail "the answer does not say p's guests noticed nothing"; return 1; }
	wait $1
	sent=$(sed -nE 's/^sent ([0-9]+)/\1/p' "$2"); got=$(received_from "$3" "$4")
	say "$5: the guest of $2 sent $sent, that of $3 received ${got:-0}; $(grep '^link-downs' left.out)/$(grep '^link-downs' right.out)"
	[ "${sent:-0}" -gt 10000 ] && [ "$got" = "$sent" ] || { fail "frames were lost across the failed change"; return 1; }
	grep -q "^link-downs 0" left.out && grep -q "^link-downs 0" right.out ||
		{ fail "a guest saw its carrier drop"; return 1; }
}

# a cable changed in one socket end (its mode), the other kept: the
# changed end's port stays aside, running, while its new form is made
# beside it. A change failing half-way (XCABLE_FAULT: p:end1 started)
# gives it back to the old form: both guests stream on without a carrier
# drop or a lost frame, both sockets the same files. Without the fault
# the right socket is new (mode 600), the left one the same file, and
# the left guest streams through the change
t_change_parked() {
	local lp rp il ir got
	pk_ini() {	# RIGHT-MODE
		printf '[global]\nstats-interval = 0\nlink-propagation = no\n[cable p]\nleft = %s\nright = %s\nright-socket-mode = %s\n' \
			"$T/p-l.sock" "$T/p-r.sock" "$1"
	}
	pk_ini 0660 >lab.ini
	faulty_pair p 8 || return 1
	lp=$FP_L rp=$FP_R il=$FP_IL ir=$FP_IR
	pk_ini 0600 >lab.ini
	failing_reload "p:end1 started" || return 1
	[ "$(sock_ino "$T/p-l.sock")" = "$il" ] && [ "$(sock_ino "$T/p-r.sock")" = "$ir" ] ||
		{ fail "p's sockets are not the files they were"; return 1; }
	pk_unnoticed "$lp $rp" right.out left.out 2 "the failed change" || return 1
	rm -f "$T/go"
	STREAM_WAIT=$T/go stream_peer left2.out "$T/p-l.sock" 1 6 & lp=$!
	STREAM_WAIT=$T/go stream_peer right2.out "$T/p-r.sock" 2 2 & rp=$!
	wait_log xc.log "p-l.sock): link up" 2 30 && wait_log xc.log "p-r.sock): link up" 2 30 ||
		{ fail "the guests did not come up again"; return 1; }
	touch "$T/go"
	sleep 1
	"$XCTL" -s "$T/x.ctl" reload >ok.out 2>&1 || { cat ok.out; fail "the reload failed"; return 1; }
	grep -q "1 replaced with their unchanged ends kept as they ran" ok.out || { cat ok.out; fail "p was not changed in one end"; return 1; }
	wait $rp
	[ "$(stat -c %a "$T/p-r.sock")" = 600 ] && [ "$(stat -c %i "$T/p-r.sock")" != "$ir" ] ||
		{ fail "p's right socket is not the new one"; return 1; }
	[ "$(sock_ino "$T/p-l.sock")" = "$il" ] || { fail "p's left socket was made anew"; return 1; }
	STREAM_WAIT= stream_peer right3.out "$T/p-r.sock" 3 2
	wait $lp
	got=$(received_from right3.out 1)
	say "the change: right socket new (mode 600), left the same file; the left guest's frames reached the new right one: ${got:-0}; left: $(grep '^link-downs' left2.out)"
	[ "${got:-0}" -gt 1000 ] || { fail "the kept left end does not forward to the new right end"; return 1; }
	grep -q "^link-downs 0" left2.out || { fail "the left guest's carrier dropped"; return 1; }
	ls -a "$T" | grep -q '\.next2\?$' && { fail "a hidden name was left: $(ls -a "$T" | grep next)"; return 1; }
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_change_parked)
SAN_ONCE+=(t_change_parked)	# the matrix parks a served socket in each socket row too

# the same for an end that connects to QEMU's socket (client mode), moved
# to another QEMU socket: the old connection stays up, aside, while the
# new one is made, and is taken again when the change fails half-way
# (XCABLE_FAULT: p:end0 started), its guest streaming on without a drop;
# the same change without the fault moves the end, and frames pass
# through the new connection
t_change_parked_client() {
	local lp rp sent got
	pc_ini() {	# QEMU'S-SOCKET
		printf '[global]\nstats-interval = 0\nlink-propagation = no\n[cable p]\nleft = %s\nleft-client = yes\nright = %s\n' \
			"$1" "$T/p-r.sock"
	}
	pc_ini "$T/q1.sock" >lab.ini
	: >"$T/fault"
	XCABLE_FAULT="@$T/fault" xc_start xc.log --config lab.ini --control "$T/x.ctl"
	wait_log xc.log "running;" 1 30 || { tail -n 5 xc.log; fail "xcable did not start"; return 1; }
	rm -f "$T/go"
	STREAM_WAIT=$T/go stream_peer left.out "$T/q1.sock" 1 8 server & lp=$!
	STREAM_WAIT=$T/go stream_peer right.out "$T/p-r.sock" 2 8 & rp=$!
	wait_log xc.log "q1.sock): link up" 1 30 && wait_log xc.log "p-r.sock): link up" 1 30 ||
		{ fail "the guests did not come up"; return 1; }
	touch "$T/go"
	sleep 1
	pc_ini "$T/q2.sock" >lab.ini
	failing_reload "p:end0 started" || return 1
	pk_unnoticed "$lp $rp" left.out right.out 1 "the failed move to q2.sock" || return 1
	"$XCTL" -s "$T/x.ctl" reload >ok.out 2>&1 || { cat ok.out; fail "the reload failed"; return 1; }
	grep -q "1 replaced with their unchanged ends kept as they ran" ok.out || { cat ok.out; fail "p was not changed in one end"; return 1; }
	rm -f "$T/go"
	STREAM_WAIT=$T/go stream_peer left2.out "$T/q2.sock" 3 2 server & lp=$!
	STREAM_WAIT=$T/go stream_peer right2.out "$T/p-r.sock" 4 2 & rp=$!
	wait_log xc.log "q2.sock): link up" 1 30 && wait_log xc.log "p-r.sock): link up" 2 30 ||
		{ fail "the guests did not come up after the move"; return 1; }
	touch "$T/go"
	wait $lp $rp
	sent=$(sed -nE 's/^sent ([0-9]+)/\1/p' left2.out); got=$(received_from right2.out 3)
	say "the move: the guest on q2.sock sent $sent, the right one received ${got:-0}"
	[ "${sent:-0}" -gt 1000 ] && [ "$got" = "$sent" ] || { fail "frames do not pass through the new connection"; return 1; }
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_change_parked_client)
SAN_ONCE+=(t_change_parked_client)	# a change's logic alone; the matrix runs its socket rows on both

# st_stall SECS - stop xcable's forwarding lcore (its thread alone) for
# SECS seconds in the background (tests/stall.py), once it is stopped
st_stall() {
	local i
	/usr/bin/python3 "$TOP/tests/stall.py" "$XC_PID" rte-worker-1 "$1" >stall.out 2>&1 &
	ST_PID=$!
	for ((i = 0; i < 50; i++)); do
		grep -q "^stopped" stall.out && return 0
		sleep 0.1
	done
	cat stall.out; fail "the lcore's thread could not be stopped"; return 1
}

# an lcore whose thread the host does not run for 3 s (stopped on purpose)
# while changes are made. Each change waits for it: a published list of
# directions is what the lcore takes whenever it runs again, so giving up
# after a second, as xcable did, left a cable listed that no lcore
# forwarded, or two of one name. A reload replacing x whole that fails at
# the switch (XCABLE_FAULT: y:show) leaves the lab as it was: one x, its
# socket the same file, forwarding, and y; a del during a stall is done
t_change_lcore_stalls() {
	local il
	st_ini() {	# MODE
		printf '[global]\nstats-interval = 0\nlink-propagation = no\n[cable x]\nleft = %s\nright = %s\nleft-socket-mode = %s\n[cable y]\nleft = %s\nright = %s\nleft-socket-mode = %s\n' \
			"$T/x-l.sock" "$T/x-r.sock" "$1" "$T/y-l.sock" "$T/y-r.sock" "$1"
	}
	st_ini 0660 >lab.ini
	: >"$T/fault"
	XCABLE_FAULT="@$T/fault" xc_start xc.log --config lab.ini --control "$T/x.ctl"
	wait_log xc.log "running;" 1 30 || { tail -n 5 xc.log; fail "xcable did not start"; return 1; }
	il=$(sock_ino "$T/x-l.sock")
	st_ini 0600 >lab.ini
	st_stall 3 || return 1
	failing_reload "y:show" || return 1
	wait $ST_PID
	sed 's/^/  answer: /' fail.out | cut -c1-150
	grep -q "y: show: injected fault" fail.out || { fail "the reason is not said"; return 1; }
	grep -q "has not taken over its new directions" xc.log ||
		{ fail "the change did not meet the stopped lcore (nothing waited for it)"; return 1; }
	say "$(grep -m1 'took over its new directions after' xc.log | sed 's/^xcable: //')"
	grep -q "did not let go\|did not take over" xc.log &&
		{ grep "did not" xc.log | head -n 3; fail "a change gave up on the lcore"; return 1; }
	[ "$(cable_names -s "$T/x.ctl")" = "x y" ] ||
		{ "$XCTL" -s "$T/x.ctl" list | grep -v '^ '; fail "the lab is not x and y, as it was"; return 1; }
	[ "$(sock_ino "$T/x-l.sock")" = "$il" ] && [ "$(stat -c %a "$T/x-l.sock")" = 660 ] ||
		{ fail "x is not the cable it was"; return 1; }
	run_frames xc.log "$T/x-l.sock" "$T/x-r.sock" 2 1 || return 1
	say "the reload failing during a 3 s stall: x as it was (the same socket file, mode 660), y there, frames through x"
	st_stall 3 || return 1
	"$XCTL" -s "$T/x.ctl" del y >del.out 2>&1 || { cat del.out; fail "del y during the stall failed"; return 1; }
	wait $ST_PID
	grep -q "^y left->right: .*(final: removed)" del.out || { cat del.out; fail "del's answer has not y's last counters"; return 1; }
	[ "$(cable_names -s "$T/x.ctl")" = "x" ] ||
		{ fail "y is still listed"; return 1; }
	grep -q "did not let go\|did not take over" xc.log && { fail "del gave up on the lcore"; return 1; }
	run_frames xc.log "$T/x-l.sock" "$T/x-r.sock" 4 1 || return 1
	say "del y during a 3 s stall: done, y gone, x forwards"
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_change_lcore_stalls)
SAN_ONCE+=(t_change_lcore_stalls)	# a change waiting for an lcore: correctness alone

# what a careless or hostile client or user gives that ends up in
# messages, and paths the guard could not protect: a cable name with an
# escape sequence is refused without reaching the terminal or the log
# raw; a served socket path of 100 bytes (fits a socket, not its hidden
# in-use name) is refused with exit 2 in the simple and the DPDK mode
t_change_untrusted_names() {
	local esc=$'\033' long rc
	printf '[global]\nstats-interval = 0\n[cable a]\nleft = %s\nright = %s\n' "$T/a-l.sock" "$T/a-r.sock" >lab.ini
	xc_start xc.log --config lab.ini --control "$T/x.ctl"
	wait_log xc.log "running;" 1 30 || { fail "xcable did not start"; return 1; }
	"$XCTL" -s "$T/x.ctl" add "x${esc}[31mred" left="$T/x-l.sock" right="$T/x-r.sock" >add.out 2>&1 &&
		{ fail "a name with an escape was added"; return 1; }
	"$XCTL" -s "$T/x.ctl" del "${esc}]0;pwned${esc}\\" >del.out 2>&1 && { fail "del of an escape taken"; return 1; }
	"$XCTL" -s "$T/x.ctl" show "b${esc}c" >show.out 2>&1
	say "add: $(cat add.out); del: $(cat del.out); show: $(cat show.out)"
	grep -q "$esc" add.out del.out show.out xc.log && { fail "an escape reached the answer or the log"; return 1; }
	kill -0 "$XC_PID" || { fail "xcable died"; return 1; }
	xc_stop
	long=$T/$(printf 'p%.0s' $(seq 1 $((99 - ${#T}))))
	[ ${#long} = 100 ] || { fail "test setup: path of ${#long} bytes"; return 1; }
	timeout 20 "$XC" --left "$long" --right "$T/r.sock" >long.out 2>&1; rc=$?
	say "simple mode, 100-byte left socket: exit $rc, $(head -n 1 long.out)"
	[ $rc = 2 ] && grep -q "at most 99" long.out || { fail "a served path too long to hide was not refused"; return 1; }
	timeout 20 "$XC" --left "$long" --client --right "$T/r.sock" --control "$T/y.ctl" >client.out 2>&1 & local cp=$!
	XC_PIDS+=("$cp")
	wait_log client.out "running;" 1 20 || { cat client.out; fail "a 100-byte client path was refused"; return 1; }
	kill "$cp"; wait "$cp"
	say "the same path for a client end (never hidden): runs"
	timeout 20 "$XC" -l 0-1 --no-pci --no-huge -m 512 --no-shconf --vdev "net_vhost0,iface=$long" \
		--vdev "net_vhost1,iface=$T/r2.sock" >dpdk.out 2>&1; rc=$?
	say "DPDK mode, a vdev with a 100-byte iface: exit $rc, $(grep -m1 'at most 99' dpdk.out)"
	[ $rc = 2 ] && grep -q "at most 99" dpdk.out || { tail -n 3 dpdk.out; fail "the DPDK mode took a path too long to hide"; return 1; }
}
TESTS+=(t_change_untrusted_names)

# mx_worker_of NAME - the running worker of the supervised lab that runs
# cable NAME (its config in the run directory has the cable's section)
mx_worker_of() {
	local k c
	while read -r k c; do
		grep -q "^\[cable $1\]" "$(dirname "$c")/worker-$k.ini" 2>/dev/null && { echo "$k"; return 0; }
	done < <("$XCTL" -s "$T/x.ctl" workers | sed -nE 's/^worker ([0-9]+): pid [0-9]+, running, .* control (.*)$/\1 \2/p')
	return 1
}

# pid_fds PID - how many fds a process has open, but for the BPF maps and
# type info of an XDP program (net_af_xdp): a worker killed leaves its
# program on the interface, and the next one uses it without opening its
# maps again
pid_fds() { find "/proc/$1/fd" -mindepth 1 -printf '%l\n' 2>/dev/null | grep -vcE '^anon_inode:(bpf-map|btf)$'; }

# settled_pid_fds PID N WHAT - wait until process PID has N fds open
settled_pid_fds() {
	local i
	for ((i = 0; i < 40; i++)); do
		[ "$(pid_fds "$1")" = "$2" ] && return 0
		sleep 0.1
	done
	fail "after $MX_STEP: $3 has $(pid_fds "$1") fds open, $2 before"
}

# the matrix's cables in a lab of more than one process holds: 16 more
# socket-to-socket cables make xcable a supervisor. For each kind, through
# the supervisor: del, add, then its worker killed (SIGKILL): the
# supervisor starts it again, and the cable carries frames again; after
# each, every counter the supervisor lists balances (removed cables too)
# and the supervisor's fds are back to their level, and the worker
# started again has as many fds as before it was killed; at the end
# every cable of the lab is listed
t_change_supervised() {
	local i=0 r w pid n names sfds wfds
	mx_lab lab.ini || return 1
	for ((n = 0; n < 16; n++)); do
		printf '[cable f%s]\nleft = %s\nright = %s\n' "$n" "$T/f$n-l.sock" "$T/f$n-r.sock" >>lab.ini
	done
	ip netns exec "$(mx_ns)" "$XC" --config lab.ini --control "$T/x.ctl" >xc.log 2>&1 &
	XC_PID=$!
	XC_PIDS+=("$XC_PID")
	wait_log xc.log "supervisor running" 1 30 || { tail -n 20 xc.log; fail "no supervisor"; return 1; }
	sleep 1
	n=$("$XCTL" -s "$T/x.ctl" workers | grep -c '^worker ')
	wait_log xc.log "running;" "$n" 60 || { tail -n 20 xc.log; fail "the workers did not start"; return 1; }
	say "$(grep -m1 "supervising" xc.log | sed 's/^xcable: //')"
	sleep 0.5
	sfds=$(pid_fds "$XC_PID")
	i=0
	for r in $MX_ROWS; do
		MX_STEP="mx$i ($r) at start, supervised"
		mx_front "$i" "$r" || return 1
		MX_STEP="del and add mx$i ($r), supervised"
		mapfile -t words < <("mx_${r}_def" "$i")
		mx_ctl del "mx$i" || { cat ctl.out; fail "$MX_STEP: del failed"; return 1; }
		grep -q "^mx$i left->right: .*(final: removed)" ctl.out ||
			{ cat ctl.out; fail "$MX_STEP: del's answer lacks the last counters"; return 1; }
		"$XCTL" -s "$T/x.ctl" list --json | python3 -c 'import json, sys
d = json.load(sys.stdin); sys.exit(0 if any(g["name"] == sys.argv[1] for g in d["removed"]) and d["removed-total"] >= 1 else 1)' "mx$i" ||
			{ fail "$MX_STEP: the supervisor's list --json lacks the removed cable"; return 1; }
		mx_ctl add "mx$i" "${words[@]}" || { cat ctl.out; fail "$MX_STEP: add failed"; return 1; }
		mx_front "$i" "$r" && mx_balanced >bal.out || { cat bal.out; fail "$MX_STEP: counters do not balance"; return 1; }
		settled_pid_fds "$XC_PID" "$sfds" "the supervisor" || return 1
		MX_STEP="mx$i ($r) after its worker was killed"
		w=$(mx_worker_of "mx$i") || { fail "no worker runs mx$i"; return 1; }
		pid=$("$XCTL" -s "$T/x.ctl" workers | sed -nE "s/^worker $w: pid ([0-9]+),.*/\1/p")
		sleep 0.5
		wfds=$(pid_fds "$pid")
		n=$(grep -c "running;" xc.log)
		kill -KILL "$pid"
		wait_log xc.log "worker $w .*was killed by signal 9" 1 10 &&
		wait_log xc.log "running;" $((n + 1)) 60 || { tail -n 10 xc.log; fail "worker $w did not come back"; return 1; }
		sleep 0.5
		mx_front "$i" "$r" && mx_balanced >bal.out || { cat bal.out; fail "$MX_STEP: counters do not balance"; return 1; }
		pid=$("$XCTL" -s "$T/x.ctl" workers | sed -nE "s/^worker $w: pid ([0-9]+),.*/\1/p")
		settled_pid_fds "$pid" "$wfds" "worker $w started again" &&
		settled_pid_fds "$XC_PID" "$sfds" "the supervisor" || return 1
		say "$r (mx$i, worker $w): del, add, worker killed and started again: carries frames each time, counters balanced; worker $w has $wfds fds as before, the supervisor $sfds"
		i=$((i + 1))
	done
	names=$("$XCTL" -s "$T/x.ctl" list | grep -oE '^[a-z0-9]+:' | wc -l)
	[ "$names" = $((16 + 1 + i + $(grep -c '^\[cable mp' lab.ini))) ] ||
		{ fail "the lab lists $names cables"; return 1; }
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "the supervisor exited with $XC_RC"; return 1; }
}
TESTS+=(t_change_supervised)
ONCE+=(t_change_supervised)	# CI time: t_change_torture_supervised and t_supervise_change run supervised changes under the sanitizers

# a supervised reload is whole or nothing across the workers: it changes
# c3 (worker 0: its right socket's mode) and c17 (worker 1), and c17's
# new form fails on purpose at the switch: worker 1 refuses its part, and
# worker 0, which did its part, goes back to the lab as it was; the answer
# says so, after c3's counters up to then; every cable is there, c3's
# socket has its mode of before, and both carry frames
t_change_supervised_reload_whole() {
	local n
	scale_ini lab.ini 20
	: >"$T/fault"
	XCABLE_FAULT="@$T/fault" xc_start xc.log --config lab.ini --control "$T/x.ctl"
	wait_log xc.log "supervisor running" 1 30 && wait_log xc.log "running;" 2 60 ||
		{ tail -n 20 xc.log; fail "the supervisor and its 2 workers did not start"; return 1; }
	[ "$(mx_worker_of c3)" = 0 ] && [ "$(mx_worker_of c17)" = 1 ] || { fail "c3 and c17 are not in workers 0 and 1"; return 1; }
	sed -i "s|^right = $T/c3-r.sock$|&\nright-socket-mode = 0600|; s|^right = $T/c17-r.sock$|&\nright-socket-mode = 0600|" lab.ini
	echo "c17:show" >"$T/fault"
	"$XCTL" -s "$T/x.ctl" reload >reload.out 2>&1 && { cat reload.out; fail "the reload failing on purpose was taken"; return 1; }
	: >"$T/fault"
	sed 's/^/  answer: /' reload.out | cut -c1-160
	grep -q "^c3 left->right: .*(final: replaced)" reload.out || { fail "the answer lacks c3's counters"; return 1; }
	grep -q "worker 1: cable c17: show: injected fault (XCABLE_FAULT) (its part of the reload); the other workers went back to the lab as it was" reload.out ||
		{ fail "the answer does not say the reload was undone"; return 1; }
	grep -q "reload: worker 0 read its config as it was again" xc.log || { fail "worker 0 did not go back"; return 1; }
	[ "$(stat -c %a "$T/c3-r.sock")" = 660 ] && [ "$(stat -c %a "$T/c17-r.sock")" = 660 ] ||
		{ fail "the sockets' modes are $(stat -c %a "$T/c3-r.sock") and $(stat -c %a "$T/c17-r.sock"), not as they were"; return 1; }
	n=$("$XCTL" -s "$T/x.ctl" list | grep -c '^c[0-9]*: left ')
	[ "$n" = 20 ] || { fail "$n cables running after the failed reload"; return 1; }
	grep -q "right-socket-mode" "$(dirname "$("$XCTL" -s "$T/x.ctl" workers | sed -nE 's/^worker 0: .* control (.*)$/\1/p')")/worker-0.ini" &&
		{ fail "worker 0's config file keeps the reload's change"; return 1; }
	say "reload refused, worker 0 back as it was: c3 and c17 have mode 660, 20 cables running"
	MX_STEP="c3 and c17 after the failed reload"
	run_frames xc.log "$T/c3-l.sock" "$T/c3-r.sock" $(($(grep -c "link up" xc.log) + 2)) 1 &&
	run_frames xc.log "$T/c17-l.sock" "$T/c17-r.sock" $(($(grep -c "link up" xc.log) + 2)) 1 || return 1
	"$XCTL" -s "$T/x.ctl" reload >reload2.out 2>&1 || { cat reload2.out; fail "the reload without the failure failed"; return 1; }
	[ "$(stat -c %a "$T/c3-r.sock")" = 600 ] && [ "$(stat -c %a "$T/c17-r.sock")" = 600 ] ||
		{ fail "the reload without the failure did not change both"; return 1; }
	say "the same reload without the failure: both changed"
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_change_supervised_reload_whole)

# a tunnel cable moves between workers: a reload takes worker 1's cables
# away, its tunnel cable among them (worker 1 is stopped), and the next
# reload, sent at once, brings the tunnel cable back, placed in worker 0:
# that change waits until worker 1, which held the tunnel's UDP port, is
# gone, and binds it then. Before, worker 0 often found the port taken
tup_ini() {	# FILE N: cables c0..c(N-1), then the tunnel cable t
	scale_ini "$1" "$2"
	sed -i 's/^stats-interval = 0$/&\nvxlan-port = 14797/' "$1"
	printf '[cable t]\nleft = %s\nright-vxlan = 127.0.0.1:14798\nright-vni = 7\n' "$T/t-l.sock" >>"$1"
}
t_change_supervised_tunnel_moves() {
	local w gone
	tup_ini lab.ini 20
	xc_start xc.log --config lab.ini --control "$T/x.ctl"
	wait_log xc.log "supervisor running" 1 30 && wait_log xc.log "running;" 2 60 ||
		{ tail -n 20 xc.log; fail "the supervisor and its 2 workers did not start"; return 1; }
	w=$(mx_worker_of t) || { fail "no worker runs t"; return 1; }
	gone=$(sed -nE 's/^\[cable (.*)\]$/\1/p' "$(dirname "$("$XCTL" -s "$T/x.ctl" workers | sed -nE "s/^worker $w: .* control (.*)\$/\\1/p")")/worker-$w.ini" | tr '\n' ' ')
	# every cable of t's worker goes (it stops), then t comes back
	without() { awk -v gone=" $gone" -v keep="$1" '/^\[cable /{ n = $2; sub(/\]$/, "", n); skip = index(gone, " " n " ") && n != keep } !skip' lab0.ini; }
	cp lab.ini lab0.ini
	without "" >lab.ini
	"$XCTL" -s "$T/x.ctl" reload >r1.out 2>&1 || { cat r1.out; fail "the reload emptying worker $w failed"; return 1; }
	without t >lab.ini
	"$XCTL" -s "$T/x.ctl" reload >r2.out 2>&1 || { cat r2.out; fail "the reload bringing t back failed"; return 1; }
	[ "$(mx_worker_of t)" != "$w" ] || { fail "t came back in worker $w"; return 1; }
	# the second reload began once worker w was gone
	awk -v w="$w" '/reload: worker [0-9]+ has no cable left/ { stop = NR }
		$0 ~ "worker " w " \\(pid [0-9]+\\) exited" && stop { gone = NR }
		/xcablectl reload: done: lab.ini/ && stop && NR > stop { n++; if (n == 2) second = NR }
		END { exit !(gone && second && gone < second) }' xc.log ||
		{ grep -nE "has no cable left|exited|reload: done: lab.ini" xc.log; fail "the reload bringing t back did not wait until worker $w was gone"; return 1; }
	say "t and the other cables of worker $w taken away (it stopped), t brought back at once, in worker $(mx_worker_of t): $(tail -n 1 r2.out | cut -c1-100)"
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "the supervisor exited with $XC_RC"; return 1; }
}
TESTS+=(t_change_supervised_tunnel_moves)
