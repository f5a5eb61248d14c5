# SPDX-License-Identifier: BSD-3-Clause
# tests/t_change.sh - runtime changes that cannot hurt the lab: every
# operation on a cable of every kind of end (app/endkind.h: the kinds
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
# mxI, one KEY=VALUE a line; mx_ROW_front: xcfront options for it.
mx_socket_ports() { :; }
mx_socket_partner() { :; }
mx_socket_def() { printf 'left=%s\nright=%s\n' "$T/mx$1-l.sock" "$T/mx$1-r.sock"; }
mx_socket_front() { :; }
mx_socket_pull() { echo yes; }

mx_socket_client_ports() { :; }
mx_socket_client_partner() { :; }
mx_socket_client_def() { printf 'left=%s\nleft-client=yes\nright=%s\n' "$T/mx$1-l.sock" "$T/mx$1-r.sock"; }
mx_socket_client_front() { echo "--listen left"; }
mx_socket_client_pull() { echo yes; }

mx_port_ports() {
	printf '[port pa%s]\ndevargs = net_af_xdp%s,iface=mxa%s\n' "$1" "$((2 * $1))" "$1"
	printf '[port pb%s]\ndevargs = net_af_xdp%s,iface=mxb%s\n' "$1" "$((2 * $1 + 1))" "$1"
}
mx_port_partner() { printf '[cable mp%s]\nleft = %s\nright-port = pb%s\n' "$1" "$T/mx$1-r.sock" "$1"; }
mx_port_def() { printf 'left=%s\nright-port=pa%s\n' "$T/mx$1-l.sock" "$1"; }
mx_port_front() { :; }
mx_port_pull() { echo no; }
mx_port_setup() { mx_veth "mxa$1" "mxb$1"; }

mx_trunk_ports() {
	printf '[port ta%s]\ndevargs = net_af_packet%s,iface=mta%s\nmtu = 1508\n' "$1" "$((2 * $1))" "$1"
	printf '[port tb%s]\ndevargs = net_af_packet%s,iface=mtb%s\nmtu = 1508\n' "$1" "$((2 * $1 + 1))" "$1"
}
mx_trunk_partner() { printf '[cable mp%s]\nleft = %s\nright-port = tb%s\nright-tag = 10\n' "$1" "$T/mx$1-r.sock" "$1"; }
mx_trunk_def() { printf 'left=%s\nright-port=ta%s\nright-tag=10\n' "$T/mx$1-l.sock" "$1"; }
mx_trunk_front() { :; }
mx_trunk_pull() { echo no; }
mx_trunk_setup() { mx_veth "mta$1" "mtb$1"; }

# the tunnel comes back through a peer xcable on loopback (UDP 14790)
mx_vxlan_ports() { :; }
mx_vxlan_partner() { :; }
mx_vxlan_def() { printf 'left=%s\nright-vxlan=127.0.0.1:14790\nright-vni=%s\n' "$T/mx$1-l.sock" "$((4200 + $1))"; }
mx_vxlan_front() { :; }
mx_vxlan_pull() { echo no; }
mx_vxlan_setup() {
	printf '[global]\nstats-interval = 0\nvxlan-port = 14790\nlink-propagation = no\n[cable p%s]\nleft = %s\nright-vxlan = 127.0.0.1:14789\nright-vni = %s\n' \
		"$1" "$T/mx$1-r.sock" "$((4200 + $1))" >peer.ini
	ip netns exec "$(mx_ns)" "$XC" --config peer.ini --control "$T/peer.ctl" >peer.log 2>&1 &
	XC_PIDS+=("$!")
	wait_log peer.log "running;" 1 20 || { tail -n 5 peer.log; fail "the peer xcable did not start"; }
}

# mx_rows - the rows: every kind xcable lists, a socket's client mode too
mx_rows() {
	local k
	for k in $(mx_kinds); do
		echo "$k"
		[ "$k" = socket ] && echo socket_client
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

# mx_front I ROW - frames both ways through mxI, byte for byte (xcfront)
mx_front() {
	timeout 30 "$BUILD/tests/xcfront" --pairs "$T/mx%d-l.sock,$T/mx%d-r.sock" \
		--first "$1" --count 1 --frames 24 $("mx_$2_front") >"front.out" 2>&1 ||
		{ cat front.out | sed 's/^/    /'; fail "mx$1 ($2) does not carry frames"; return 1; }
}

# mx_ctl ARGS... - xcablectl to the matrix's xcable; its answer in ctl.out
mx_ctl() { "$XCTL" -s "$T/x.ctl" "$@" >ctl.out 2>&1; }

# mx_cables - the names of the cables the matrix's xcable lists, sorted
mx_cables() {
	"$XCTL" -s "$T/x.ctl" list --json 2>/dev/null |
	/usr/bin/python3 -c 'import json, sys; print(" ".join(sorted(json.load(sys.stdin)["cables"])))'
}

# mx_fds - the matrix xcable's open fds; mx_rss - its resident kB
mx_fds() { ls "/proc/$XC_PID/fd" | wc -l; }
mx_rss() { awk '/^VmRSS/ { print $2 }' "/proc/$XC_PID/status"; }

# mx_balanced - every direction of every cable but the sentinel, and of
# every removed one, accounts for each frame (rx - segmented + segments +
# duplicated = tx + dropped)
mx_balanced() {
	"$XCTL" -s "$T/x.ctl" list --json 2>/dev/null | /usr/bin/python3 -c '
import json, sys
doc, bad = json.load(sys.stdin), []
dirs = [(n, d, v["counters"]) for n, c in doc["cables"].items() if n != "sentinel"
        for d, v in c["directions"].items()]
dirs += [(g["name"] + " (removed)", d, v["counters"]) for g in doc.get("removed", [])
         for d, v in g["directions"].items()]
for n, d, k in dirs:
    if k["rx-pkts"] - k["segmented"] + k["segments-made"] + k["duplicated"] != k["tx-pkts"] + k["dropped"]:
        bad.append("%s %s: %s" % (n, d, k))
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

# mx_settled_fds N - wait until the matrix xcable has N open fds again
mx_settled_fds() {
	local i
	for ((i = 0; i < 40; i++)); do
		[ "$(mx_fds)" = "$1" ] && return 0
		sleep 0.1
	done
	fail "after $MX_STEP: $(mx_fds) fds open, $1 before"
}

# mx_row I ROW BASE - every operation on cable mxI of kind ROW; BASE: the
# cables there are without it
mx_row() {
	local i=$1 row=$2 base=$3 with fds0 words=() rc=0
	with=$(echo "$base mx$i" | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
	mapfile -t words < <("mx_${row}_def" "$i")
	fds0=$(mx_fds)
	MX_STEP="add mx$i ($row)"
	mx_ctl add "mx$i" "${words[@]}" || { cat ctl.out; fail "$MX_STEP failed"; return 1; }
	mx_check "$with" && mx_front "$i" "$row" || return 1
	MX_STEP="impair mx$i"
	mx_ctl impair "mx$i" delay=1ms && mx_ctl show "mx$i" && grep -q "impair delay=1.000ms" ctl.out ||
		{ cat ctl.out; fail "$MX_STEP did not take"; return 1; }
	mx_ctl clear "mx$i" && mx_check "$with" || return 1
	MX_STEP="down/up mx$i"
	if [ "$("mx_${row}_pull")" = yes ]; then
		mx_ctl down "mx$i" && mx_ctl up "mx$i" || { cat ctl.out; fail "$MX_STEP failed"; return 1; }
		mx_check "$with" && mx_front "$i" "$row" || return 1
	else
		mx_ctl down "mx$i" && { fail "$MX_STEP was taken on a cable with a $row end"; return 1; }
		grep -q "only cables between two vhost ports can be pulled" ctl.out ||
			{ cat ctl.out; fail "$MX_STEP: refused without the reason"; return 1; }
		mx_check "$with" && mx_front "$i" "$row" || return 1
	fi
	MX_STEP="reload replacing mx$i (its socket's mode)"
	mx_config lab.ini "$i" "$row" "left-socket-mode = 0600"
	mx_ctl reload && grep -q "xcablectl reload: done.*1 cable(s) removed or replaced, 1 added or replaced" xc.log ||
		{ cat ctl.out; fail "$MX_STEP failed"; return 1; }
	[ "$row" = socket_client ] || [ "$(stat -c %a "$T/mx$i-l.sock")" = 600 ] ||
		{ fail "$MX_STEP: the socket has mode $(stat -c %a "$T/mx$i-l.sock")"; return 1; }
	mx_check "$with" && mx_front "$i" "$row" || return 1
	MX_STEP="reload changing mx$i's impairment alone"
	mx_config lab.ini "$i" "$row" "left-socket-mode = 0600
impair-to-right = delay=2ms"
	mx_ctl reload && grep -q "xcablectl reload: done.*0 cable(s) removed or replaced, 0 added or replaced, 1 changed in place" xc.log ||
		{ cat ctl.out; fail "$MX_STEP was not in place"; return 1; }
	mx_check "$with" || return 1
	MX_STEP="reload replacing mx$i, failing half-way (its new right end fails to start)"
	echo "mx$i:end1 started" >"$T/fault"
	mx_config lab.ini "$i" "$row" ""
	mx_ctl reload && { fail "$MX_STEP was taken"; return 1; }
	grep -q "injected fault" ctl.out || { cat ctl.out; fail "$MX_STEP: refused without the reason"; return 1; }
	: >"$T/fault"
	[ "$row" = socket_client ] || [ "$(stat -c %a "$T/mx$i-l.sock")" = 600 ] ||
		{ fail "$MX_STEP: mx$i is not as it was (its socket has mode $(stat -c %a "$T/mx$i-l.sock"))"; return 1; }
	mx_check "$with" && mx_front "$i" "$row" || return 1
	MX_STEP="del mx$i"
	mx_ctl del "mx$i" || { cat ctl.out; fail "$MX_STEP failed"; return 1; }
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
	mx_check "$with" && mx_front "$i" "$row" || return 1
	MX_STEP="reload removing mx$i"
	mx_config lab.ini
	mx_ctl reload || { cat ctl.out; fail "$MX_STEP failed"; return 1; }
	mx_check "$base" && mx_settled_fds "$fds0" || return 1
	say "$row (mx$i): add, impair, down/up$([ "$("mx_${row}_pull")" = yes ] || echo ' (refused)'), reload replacing, impairment in place, failures half-way, del, reload adding and removing: all as asked; $(mx_fds) fds as before"
}

# every runtime operation on a cable of every end kind (and a socket's
# client mode), with a sentinel cable streaming both ways all along: no
# crash, each change exactly as asked or refused with the lab as it was
# (two of them failing half-way on purpose, XCABLE_FAULT), the fds back
# to their number, memory back to its level, every counter balanced, and
# the sentinel lost nothing and kept its carrier
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
	wait "${sp[@]}"
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
TESTS+=(t_change_matrix)

# random runtime changes for a few seconds under traffic, failures on
# purpose in one step in four, the invariants checked after every step
# (scripts/torture; scripts/soak --torture runs it for longer)
t_change_torture() {
	"$TOP/scripts/torture" --seconds 15 --build "$BUILD" --seed "${XC_TORTURE_SEED:-$RANDOM}" >torture.out 2>&1
	local rc=$?
	grep '^torture: ' torture.out | sed 's/^/  /'
	[ $rc = 0 ] || { tail -n 20 torture.out | sed 's/^/    /'; fail "a check failed during the torture (the seed above repeats it)"; }
}
TESTS+=(t_change_torture)
