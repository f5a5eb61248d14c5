# SPDX-License-Identifier: BSD-3-Clause
# Logs that nobody outside can flood (app/util/logrl.c): a source may log
# XC_LOGRL_BURST lines per XC_LOGRL_WINDOW_S seconds, and one line says
# how many more it held back, so that lines logged plus lines held back
# are what happened.

RL_BURST=10	# app/util/logrl.h XC_LOGRL_BURST

# logged_and_held LOG TEXT - "LINES HELD": lines of LOG with TEXT, and the
# sum of what the "N more like this" lines of that message held back
logged_and_held() {
	local lines held
	lines=$(grep -v ' more like this in the last ' "$1" | grep -c -- "$2")
	held=$(grep -- "$2" "$1" | sed -nE 's/^xcable: ([0-9]+) more like this in the last .*/\1/p' |
		awk '{s += $1} END {print s + 0}')
	echo "$lines $held"
}

# the floods the issue measured, at once, on one xcable: 20,000 second
# frontends on a socket in use; 2,000 connections that send DPDK's vhost
# library a message it refuses; a client end pointed at xcable's own
# control socket, which never answers as a vhost-user backend would. The
# first frontend's stream is not disturbed, each flood logs at most a
# burst per window, and what was held back is said and adds up
t_logs_flood() {
	local lp rp n j ref a b lines held sent got t0=$SECONDS
	printf '[cable cable0]\nleft = %s\nright = %s\n[cable idle]\nleft = %s\nright = %s\n[cable loop]\nleft = %s\nleft-client = yes\nright = %s\n' \
		"$T/l.sock" "$T/r.sock" "$T/i.sock" "$T/j.sock" "$T/x.ctl" "$T/k.sock" >c.ini
	xc_start xc.log --config c.ini --control "$T/x.ctl" --no-link-propagation
	wait_log xc.log "running;" 1 30 || { fail "xcable did not start"; return 1; }
	stream_peer left.out "$T/l.sock" 1 20 & lp=$!
	stream_peer right.out "$T/r.sock" 2 20 & rp=$!
	wait_log xc.log "link up" 2 30 || { fail "frontends did not connect"; return 1; }
	sleep 1
	a=$(wc -l <xc.log)
	/usr/bin/python3 - "$T/l.sock" "$T/i.sock" >flood.out <<'PY' || { fail "the flood failed: $(cat flood.out)"; return 1; }
import socket, struct, sys, time
t = time.time()
n = 0
for i in range(20000):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(sys.argv[1])
        n += 1
    except OSError:
        pass
    s.close()
print("second-frontends %d in %.2f s" % (n, time.time() - t))
t = time.time()
m = 0
for i in range(2000):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sys.argv[2])
    # a vhost-user header: an unknown request, a size beyond any message
    s.send(struct.pack('<III', 0x7777, 1, 0x1000))
    s.close()
    m += 1
print("bad-messages %d in %.2f s" % (m, time.time() - t))
PY
	say "$(tr '\n' ';' <flood.out)"
	n=$(sed -nE 's/^second-frontends ([0-9]+) .*/\1/p' flood.out)
	say "during the floods xcable logged $(( $(wc -l <xc.log) - a )) lines"
	# what was held back is said once the window ended, flood over or not
	wait_log xc.log "more like this in the last" 3 $((10 + 5)) ||
		{ tail -n 5 xc.log; fail "nothing said what was held back"; return 1; }
	j=$(tel "xcable-$XC_PID" /xcable/cable,cable0)
	ref=$(sed -nE 's/.*"end0\/refused_frontends": ([0-9]+).*/\1/p' <<<"$j")
	read -r lines held <<<"$(logged_and_held xc.log "refused a second frontend on $T/l.sock")"
	say "second frontends: $n connected, $ref refused (telemetry); $lines logged, $held held back: $(grep -m1 'more like this.*refused a second' xc.log | cut -c1-110)..."
	[ "${ref:-0}" = "$n" ] || { fail "telemetry counts $ref refused frontends, not $n"; return 1; }
	[ $((lines + held)) = "$n" ] || { fail "logged $lines + held back $held is not the $n refused"; return 1; }
	[ "$lines" -le $((3 * RL_BURST)) ] || { fail "$lines lines for one socket's second frontends"; return 1; }
	for b in "vhost read message failed" "invalid msg size"; do
		read -r lines held <<<"$(logged_and_held xc.log "($T/i.sock) $b")"
		say "DPDK's '$b' on i.sock: $lines logged, $held held back"
		[ $((lines + held)) = 2000 ] || { fail "logged $lines + held back $held is not the 2000 connections"; return 1; }
		[ "$lines" -le $((3 * RL_BURST)) ] || { fail "$lines lines of '$b'"; return 1; }
	done
	wait $lp $rp
	sent=$(sed -nE 's/^sent ([0-9]+)/\1/p' left.out); got=$(received_from right.out 1)
	say "the first frontend: left sent $sent frames, right received ${got:-0}"
	[ "${got:-0}" -ge $((sent * 9 / 10)) ] && [ "${sent:-0}" -gt 0 ] || { fail "the first frontend was disturbed"; return 1; }
	# the control socket closes the client end's connection at each read
	# deadline; what DPDK says of its reconnects names the socket
	lines=$(grep -c "clients closed" xc.log)
	n=$(grep -cF "($T/x.ctl)" xc.log)
	say "the client end on the control socket: $lines lines of the control socket, $n of DPDK about it in the test's $((SECONDS - t0)) s"
	[ $((lines + n)) -le $(((SECONDS - t0) / 5 + 2)) ] || { fail "the client end on the control socket fills the log"; return 1; }
	xc_stop
}
TESTS+=(t_logs_flood)
ONCE+=(t_logs_flood)	# CI time: a rate over time; t_logs_requests runs the limiter under the sanitizers

# requests that any client of the control socket can send again and again
# are logged within the same limit, per user and request: 200 times
# `xcablectl del nosuch` log at most a burst per window, and the line
# that says what was held back makes the count exact; 100 impairments of
# an operator are logged the same way (limited, not silenced), and the
# control socket answers all along
t_logs_requests() {
	local i lines held a
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --control "$T/x.ctl"
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	a=$SECONDS
	for ((i = 0; i < 200; i++)); do
		"$BUILD/app/xcablectl" -s "$T/x.ctl" del nosuch >/dev/null 2>&1 &&
			{ fail "del nosuch was taken"; return 1; }
	done
	for ((i = 0; i < 100; i++)); do
		"$BUILD/app/xcablectl" -s "$T/x.ctl" impair cable0 "delay=$((i % 5 + 1))ms" >/dev/null 2>&1 ||
			{ fail "impair cable0 was refused"; return 1; }
	done
	"$BUILD/app/xcablectl" -s "$T/x.ctl" show cable0 >show.out 2>&1 || { cat show.out; fail "show failed"; return 1; }
	say "200 x del nosuch, 100 x impair in $((SECONDS - a)) s: xcable logged $(grep -c . xc.log) lines in all"
	wait_log xc.log "more like this in the last .*xcablectl del nosuch" 1 15 &&
	wait_log xc.log "more like this in the last .*cable0: impairment" 1 15 ||
		{ tail -n 5 xc.log; fail "nothing said what was held back"; return 1; }
	read -r lines held <<<"$(logged_and_held xc.log "xcablectl del nosuch: failed: no cable 'nosuch'")"
	say "del nosuch: $lines logged, $held held back: $(grep -m1 'more like this.*del nosuch' xc.log | cut -c1-110)"
	[ $((lines + held)) = 200 ] || { fail "logged $lines + held back $held is not the 200 requests"; return 1; }
	[ "$lines" -le $((3 * RL_BURST)) ] || { fail "$lines lines for one user's del nosuch"; return 1; }
	read -r lines held <<<"$(logged_and_held xc.log "cable0: impairment both ways set to")"
	say "impair: $lines logged, $held held back"
	[ $((lines + held)) = 100 ] || { fail "logged $lines + held back $held is not the 100 impairments"; return 1; }
	[ "$lines" -ge "$RL_BURST" ] && [ "$lines" -le $((3 * RL_BURST)) ] ||
		{ fail "$lines lines for 100 impairments: not limited, or silenced"; return 1; }
	xc_stop
}
TESTS+=(t_logs_requests)
SAN_ONCE+=(t_logs_requests)	# CI time: correctness alone; t_logs_flood runs the limiter on build/
