# SPDX-License-Identifier: BSD-3-Clause
# tests/t_events.sh - xcablectl events: what happens to the lab, a line
# per event, to many listeners at once (app/util/evlog.c,
# app/control/events.c, app/control/dropwatch.c, app/supervisor/suprelay.c)
# (sourced by tests/run; each t_* function is one test)

XCTL=${XCTL:-$BUILD/app/xcablectl}
XCFRONT=${XCFRONT:-$BUILD/tests/xcfront}

# ev_listen OUT ARGS... - xcablectl ARGS events in the background into OUT
# (its stderr into OUT.err), once its first line (listening) came; its
# pid in $EV_PID
ev_listen() {
	local out=$1; shift
	"$XCTL" "$@" >"$out" 2>"$out.err" &
	EV_PID=$!
	XC_PIDS+=("$EV_PID")
	wait_log "$out" "listening" 1 10 || { cat "$out.err"; fail "the listener did not start"; return 1; }
}

# ev_expect JSON STEP... - every line of JSON is an event, their times never
# go back, and the STEPs (EVENT:SUBJECT:STATE:WHY, SUBJECT a cable[:end]
# or wN for worker N, WHY empty for any) are among them in this order
ev_expect() {
	/usr/bin/python3 - "$@" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
evs, last = [], ""
for n, l in enumerate(lines, 1):
    try:
        e = json.loads(l)
    except ValueError:
        sys.exit("  line %d is no JSON: %r" % (n, l[:100]))
    if e["time"] < last:
        sys.exit("  line %d: time goes back" % n)
    last = e["time"]
    subj = e.get("cable", "") + (":" + e["end"] if "end" in e else "")
    if e["event"] == "worker":
        subj = "w%d" % e["worker"]
    evs.append((e["event"], subj, e.get("state", ""), e.get("why", ""), e["text"]))
i = 0
for step in sys.argv[2:]:
    ev, subj, state, why = step.split(":") if step.count(":") == 3 else \
        (step.split(":")[0], ":".join(step.split(":")[1:3]), step.split(":")[3], step.split(":")[4])
    while i < len(evs) and not (evs[i][0] == ev and evs[i][1] == subj and
                                 evs[i][2] == state and (not why or evs[i][3] == why)):
        i += 1
    if i == len(evs):
        print("  events heard:")
        for e in evs:
            print("    " + e[4])
        sys.exit("  not heard in order: %s" % step)
    print("  %s" % evs[i][4])
    i += 1
PY
}

# a listener of a supervisor hears, in order, what a scripted sequence
# does: guests connecting, a cable pulled and plugged in (the guests gone
# and back), an impairment, cables added (add, reload), changed (reload)
# and removed (del), a guest gone and its far end's carrier taken with it
# (link propagation), and a worker killed and restarted; every line JSON,
# time in order
t_events_sequence() {
	local fp w1 pl pr
	sup_start 17 || return 1
	ev_listen ev.json -s "$T/x.ctl" events --json || return 1
	"$XCFRONT" --pairs "$T/c%d-l.sock,$T/c%d-r.sock" --count 1 --frames 8 --follow 20 >front.out 2>&1 & fp=$!
	XC_PIDS+=("$fp")
	wait_log front.out "following the carrier" 1 20 || { cat front.out; fail "xcfront did not attach"; return 1; }
	"$XCTL" -s "$T/x.ctl" down c0 >ctl.out 2>&1 && wait_log front.out "carrier cable 0 right down" 1 10 &&
	"$XCTL" -s "$T/x.ctl" up c0 >>ctl.out 2>&1 && wait_log front.out "carrier cable 0 right up" 1 10 &&
	"$XCTL" -s "$T/x.ctl" impair c0 to-right delay=1ms >>ctl.out 2>&1 &&
	"$XCTL" -s "$T/x.ctl" add c99 left="$T/c99-l.sock" right="$T/c99-r.sock" >>ctl.out 2>&1 &&
	"$XCTL" -s "$T/x.ctl" del c99 >>ctl.out 2>&1 &&
	printf '[cable c98]\nleft = %s/c98-l.sock\nright = %s/c98-r.sock\n' "$T" "$T" >>lab.ini &&
	"$XCTL" -s "$T/x.ctl" reload >>ctl.out 2>&1 &&
	sed -i "s#$T/c98-r.sock#$T/c98-r2.sock#" lab.ini &&
	"$XCTL" -s "$T/x.ctl" reload >>ctl.out 2>&1 || { cat ctl.out; fail "a request failed"; return 1; }
	# c1: a frontend on each side; the left one goes
	stream_peer pl.out "$T/c1-l.sock" 1 30 & pl=$!
	stream_peer pr.out "$T/c1-r.sock" 2 30 & pr=$!
	XC_PIDS+=("$pl" "$pr")
	wait_log ev.json '"cable":"c1","end":"right","state":"up"' 1 30 &&
		wait_log ev.json '"cable":"c1","end":"left","state":"up"' 1 30 ||
		{ cat pl.out pr.out; fail "c1's frontends did not come up"; return 1; }
	pkill -TERM -P "$pl"	# xcpeer, the stream_peer's child
	wait_log ev.json '"cable":"c1","end":"right","state":"down","why":"propagated"' 1 20 ||
		{ tail -n 5 ev.json; fail "c1's right carrier did not follow its left guest"; return 1; }
	w1=$(worker_pid 1)
	kill -KILL "$w1"
	wait_log xc.log "worker 1 .*restart" 1 10 && sleep 2
	kill "$EV_PID"
	say "events heard, in order:"
	ev_expect ev.json link:c0:left:up:guest link:c0:right:up:guest \
		carrier:c0:left:down:pulled carrier:c0:right:down:pulled \
		carrier:c0:left:up:plugged carrier:c0:right:up:plugged \
		link:c0:right:up:guest impair:c0:changed:impair cable:c99:added:add \
		cable:c99:removed:del cable:c98:added:reload cable:c98:changed:reload \
		link:c1:left:down:guest carrier:c1:right:down:propagated \
		worker:w1:exited: worker:w1:restarted: ||
		{ fail "the listener did not hear the sequence"; return 1; }
	grep -q '"worker":0,' ev.json && grep -q '"worker":1,' ev.json ||
		{ fail "the events do not say which worker each came from"; return 1; }
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_events_sequence)

# 50 listeners at once each hear every event, drops starting and stopping
# among them (one line a second at most); a client that asks for events
# and never reads is cut off once it falls 1024 events behind (1300
# impairments of a second cable, c2), while cable0 forwards its stream
# whole
t_events_many() {
	local i lp rp nr sent got n
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --control "$T/x.ctl"
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	"$XCTL" -s "$T/x.ctl" add c2 left="$T/2l.sock" right="$T/2r.sock" >add.out 2>&1 ||
		{ cat add.out; fail "add c2 failed"; return 1; }
	for ((i = 0; i < 50; i++)); do
		"$XCTL" -s "$T/x.ctl" events >ev$i.out 2>ev$i.err &
		XC_PIDS+=("$!")
	done
	for ((i = 0; i < 50; i++)); do
		wait_log ev$i.out listening 1 10 || { cat ev$i.err; fail "listener $i did not start"; return 1; }
	done
	python3 "$TOP/tests/ctlpoke.py" noread "$T/x.ctl" events 30 >noread.out 2>&1 & nr=$!
	XC_PIDS+=("$nr")
	wait_log noread.out ready 1 10 || { cat noread.out; fail "the client that never reads did not start"; return 1; }
	say "50 listeners and one client that never reads"
	# both send once both are connected: no frame meets a peer not there
	rm -f "$T/go"
	STREAM_WAIT=$T/go stream_peer left.out "$T/l.sock" 1 9 & lp=$!
	STREAM_WAIT=$T/go stream_peer right.out "$T/r.sock" 2 9 & rp=$!
	wait_log xc.log "link up" 2 30 || { fail "the frontends did not connect"; return 1; }
	touch "$T/go"
	sleep 1
	"$XCTL" -s "$T/x.ctl" impair cable0 to-right blackhole >ctl.out 2>&1 && sleep 2.5 &&
	"$XCTL" -s "$T/x.ctl" clear cable0 >>ctl.out 2>&1 || { cat ctl.out; fail "impair failed"; return 1; }
	sleep 2
	python3 - "$T/x.ctl" <<'PY' || { fail "cannot flood the events"; return 1; }
import socket, sys
for i in range(1300):
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    s.sendall(b"impair c2 to-left none\n")
    while s.recv(4096):
        pass
    s.close()
PY
	wait $lp; wait $rp
	sleep 1
	wait_log xc.log "events: a listener fell more than 1024 events behind\|events client took nothing for" 1 5 ||
		{ fail "the client that never reads was not cut off"; return 1; }
	say "$(grep -m1 -o "events: a listener fell.*\|a events client took.*" xc.log)"
	kill "$nr" 2>/dev/null
	sent=$(sed -nE 's/^sent ([0-9]+)/\1/p' right.out); got=$(received_from left.out 2)
	say "right->left stream: sent $sent, received $got"
	[ -n "$sent" ] && [ "$sent" -ge 9000 ] && [ "$sent" = "$got" ] ||
		{ fail "the stream lost frames, or ran at less than half its 2000 pps ($sent sent in 9 s)"; return 1; }
	for ((i = 0; i < 50; i++)); do
		n=$(grep -c "impair \(cable0\|c2\) changed" ev$i.out)
		[ "$n" = 1302 ] || { tail -n 3 ev$i.err; fail "listener $i heard $n of the 1302 impairments"; return 1; }
		# one line a second: a start and a stop in the same second
		# are one line, "changed: started: ...; stopped: ..."
		grep -q "drops cable0 \(changed: \)\?started: \(.*; \)\?left->right impair-blackhole" ev$i.out &&
			grep -q "drops cable0 \(changed: .*\)\?stopped: \(.*; \)\?left->right impair-blackhole" ev$i.out ||
			{ grep drops ev$i.out; fail "listener $i did not hear the drops start and stop"; return 1; }
	done
	say "each of the 50 listeners heard the 1302 impairments and: $(grep -h 'drops cable0' ev0.out | cut -d' ' -f2- | tr '\n' ';')"
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_events_many)
SAN_ONCE+=(t_events_many)	# events; t_events_sequence runs on both

# careless and hostile listeners: words events takes not refused with
# exit 2; 100 clients that ask for events and vanish at once, and one
# that sends garbage after its request, cost nothing (fds back, xcable
# answers, a listener started after hears an event)
t_events_refused() {
	local rc fds n
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --control "$T/x.ctl"
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	timeout 10 "$XCTL" -s "$T/x.ctl" events now >bad.out 2>&1; rc=$?
	say "events now: exit $rc, $(head -n 1 bad.out)"
	[ $rc = 2 ] && grep -q "bad request" bad.out || { fail "extra words not refused"; return 1; }
	fds=$(ls /proc/"$XC_PID"/fd | wc -l)
	python3 - "$T/x.ctl" <<'PY'
import socket, sys
for i in range(100):
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    s.sendall(b"events --json\n" + (b"x" * 100000 if i == 0 else b""))
    s.close()
PY
	sleep 1
	n=$(ls /proc/"$XC_PID"/fd | wc -l)
	say "100 listeners that vanished: xcable's fds $fds before, $n after"
	[ "$n" -le "$fds" ] || { fail "fds leaked"; return 1; }
	ev_listen ev.json -s "$T/x.ctl" events --json || return 1
	"$XCTL" -s "$T/x.ctl" impair cable0 delay=2ms >ctl.out 2>&1 || { cat ctl.out; fail "impair failed"; return 1; }
	wait_log ev.json '"event":"impair"' 1 5 || { cat ev.json; fail "the listener did not hear the impairment"; return 1; }
	kill "$EV_PID"
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_events_refused)
