# SPDX-License-Identifier: BSD-3-Clause
# tests/t_ctl.sh - the control socket: no client can stall it (slow,
# silent, greedy clients; changes pending in the main thread), and
# xcablectl's own deadline; for one xcable and for the supervisor
# (sourced by tests/run; each t_* function is one test)

XCTL=${XCTL:-$BUILD/app/xcablectl}
POKE=(/usr/bin/python3 "$TOP/tests/ctlpoke.py")

# timed VAR CMD... - run CMD; its wall time in ms goes to $VAR; CMD's status
timed() {
	local v=$1 t0 rc
	shift
	t0=$(date +%s%N)
	"$@"
	rc=$?
	printf -v "$v" %d $(( ($(date +%s%N) - t0) / 1000000 ))
	return $rc
}

# list_worst SOCK N - ask `xcablectl list` N times in a row (each bounded
# to 15 s: an xcablectl without a deadline of its own may wait forever);
# the slowest answer in ms in $LIST_MS; fails if one is not ok
list_worst() {
	local i ms
	LIST_MS=0
	for ((i = 0; i < $2; i++)); do
		timed ms timeout 15 "$XCTL" -s "$1" list >list.out 2>&1 ||
			{ cat list.out; fail "xcablectl list failed (after $ms ms)"; return 1; }
		[ "$ms" -gt "$LIST_MS" ] && LIST_MS=$ms
	done
	return 0
}

# ctl_lone - start one xcable (cable0) with its control socket $T/x.ctl
ctl_lone() {
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --control "$T/x.ctl" --no-link-propagation
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
}

# ctl_trickle SOCK - a client sends "list" a byte every 0.5 s and never a
# newline: xcablectl list is answered at once all along, and the client is
# closed unanswered at its deadline (2 s for the whole line)
ctl_trickle() {
	local tp t
	"${POKE[@]}" trickle "$1" 0.5 6 >trickle.out 2>&1 & tp=$!
	wait_log trickle.out ready 1 10 || { cat trickle.out; fail "the trickling client did not start"; return 1; }
	sleep 0.6	# two bytes sent
	list_worst "$1" 3 || return 1
	say "xcablectl list while a client sends a byte every 0.5 s: answered in $LIST_MS ms at worst (3 asked)"
	[ "$LIST_MS" -lt 500 ] || { fail "the trickling client delayed list"; return 1; }
	wait $tp
	say "$(grep '^trickle:' trickle.out)"
	t=$(sed -nE 's/^trickle: closed by xcable after ([0-9.]+) s, .* 0 bytes of answer.*/\1/p' trickle.out)
	[ -n "$t" ] || { fail "the trickling client was not closed unanswered within 6 s"; return 1; }
	awk -v t="$t" 'BEGIN { exit !(t >= 1.8 && t <= 3.0) }' ||
		{ fail "closed after $t s, not at its 2 s deadline"; return 1; }
}

# ctl_silent SOCK N - N connections that send nothing: xcablectl list is
# answered within the read deadline (2 s) nonetheless, and xcable closes
# every one of them
ctl_silent() {
	local sp n=$2
	"${POKE[@]}" silent "$1" "$n" 5 >silent"$n".out 2>&1 & sp=$!
	wait_log silent"$n".out ready 1 10 || { cat silent"$n".out; fail "the silent clients did not start"; return 1; }
	sleep 0.3
	list_worst "$1" 1 || return 1
	say "$n silent connections ($(sed -nE 's/^ready: //p' silent"$n".out)): xcablectl list answered in $LIST_MS ms"
	[ "$LIST_MS" -lt 1500 ] || { fail "$n silent connections delayed list past the read deadline"; return 1; }
	wait $sp
	say "$(grep '^silent:' silent"$n".out)"
	grep -q "^silent: $n of $n closed by xcable" silent"$n".out ||
		{ fail "xcable did not close every silent connection"; return 1; }
}

t_ctl_trickle() {
	ctl_lone || return 1
	ctl_trickle "$T/x.ctl" || return 1
	wait_log xc.log "clients closed: 1 sent no whole request line" 1 5 ||
		{ fail "the log does not say a client was closed"; return 1; }
	say "log: $(grep -m1 'clients closed' xc.log | sed 's/^xcable: //')"
}
TESTS+=(t_ctl_trickle)

t_ctl_silent_clients() {
	ctl_lone || return 1
	ctl_silent "$T/x.ctl" 10 || return 1
	# more than the 16 served at once: the others wait in the backlog,
	# and the oldest silent ones make room for them
	ctl_silent "$T/x.ctl" 40 || return 1
	grep -q "clients closed: " xc.log || { fail "the log does not say clients were closed"; return 1; }
	say "log: $(grep 'clients closed' xc.log | tail -n 1 | sed 's/^xcable: //')"
	list_worst "$T/x.ctl" 1 || return 1
}
TESTS+=(t_ctl_silent_clients)

# a request line is carried out only once its newline came: neither the
# read deadline nor a client that shuts its writing side makes half a
# line a request
t_ctl_no_newline() {
	ctl_lone || return 1
	"${POKE[@]}" send "$T/x.ctl" 'del cable0' 0 4 >held.out 2>&1
	say "'del cable0' without a newline, held open: $(sed 's/^send: //' held.out)"
	grep -q "^send: closed after [12]\.[0-9]* s, answer b''" held.out ||
		{ fail "not closed unanswered at the read deadline"; return 1; }
	"${POKE[@]}" send "$T/x.ctl" 'del cable0' 1 4 >shut.out 2>&1
	say "'del cable0' without a newline, writing side shut: $(sed 's/^send: //' shut.out)"
	grep -q "error: request without a newline: not carried out" shut.out ||
		{ fail "not refused with the reason"; return 1; }
	list_worst "$T/x.ctl" 1 || return 1
	grep -q '^cable0: ' list.out && [ -S "$T/l.sock" ] && [ -S "$T/r.sock" ] ||
		{ cat list.out; fail "cable0 was removed"; return 1; }
	! grep -q "cable0: removed" xc.log || { fail "the log says cable0 was removed"; return 1; }
	say "cable0 is still there, its sockets too"
}
TESTS+=(t_ctl_no_newline)

# a change is carried out by the main thread: while it waits for it
# (here the main thread is stopped by ptrace, the control thread runs
# on), list and show are answered at once, and the change completes once
# the main thread runs again
t_ctl_change_pending() {
	local fp ap rc
	ctl_lone || return 1
	"${POKE[@]}" freeze "$XC_PID" 3 >freeze.out 2>&1 & fp=$!
	wait_log freeze.out ready 1 10 || { cat freeze.out; fail "could not stop the main thread"; return 1; }
	"$XCTL" -s "$T/x.ctl" add gamma left="$T/g-l.sock" right="$T/g-r.sock" >add.out 2>&1 & ap=$!
	sleep 0.3
	list_worst "$T/x.ctl" 3 || return 1
	say "main thread stopped, 'add gamma' pending: list answered in $LIST_MS ms at worst (3 asked)"
	[ "$LIST_MS" -lt 500 ] || { fail "the pending add delayed list"; return 1; }
	grep -q '^cable0: ' list.out && ! grep -q '^gamma: ' list.out ||
		{ cat list.out; fail "list does not show cable0 alone"; return 1; }
	timeout 15 "$XCTL" -s "$T/x.ctl" show cable0 >show.out 2>&1 || { cat show.out; fail "show failed meanwhile"; return 1; }
	wait $fp
	wait $ap; rc=$?
	say "$(cat freeze.out | tail -n 1); add gamma: exit $rc"
	[ $rc = 0 ] || { cat add.out; fail "add gamma failed"; return 1; }
	list_worst "$T/x.ctl" 1 || return 1
	grep -q '^gamma: ' list.out && [ -S "$T/g-l.sock" ] || { cat list.out; fail "gamma is not there"; return 1; }
	say "gamma added once the main thread ran again: $(grep -m1 'xcablectl add gamma' xc.log | sed 's/^xcable: //')"
}
TESTS+=(t_ctl_change_pending)

# two changes asked at once wait their turn, are carried out in the order
# they came, and neither is refused; list is answered meanwhile
t_ctl_changes_in_order() {
	local fp a1 a2 r1 r2 l1 l2
	ctl_lone || return 1
	"${POKE[@]}" freeze "$XC_PID" 3 >freeze.out 2>&1 & fp=$!
	wait_log freeze.out ready 1 10 || { cat freeze.out; fail "could not stop the main thread"; return 1; }
	"$XCTL" -s "$T/x.ctl" add gamma left="$T/g-l.sock" right="$T/g-r.sock" >add.out 2>&1 & a1=$!
	sleep 0.2
	"$XCTL" -s "$T/x.ctl" del gamma >del.out 2>&1 & a2=$!
	sleep 0.2
	list_worst "$T/x.ctl" 1 || return 1
	say "main thread stopped, add gamma then del gamma waiting: list answered in $LIST_MS ms"
	[ "$LIST_MS" -lt 500 ] || { fail "the waiting changes delayed list"; return 1; }
	wait $fp
	wait $a1; r1=$?
	wait $a2; r2=$?
	say "add gamma: exit $r1 $(cat add.out); del gamma: exit $r2 $(cat del.out)"
	[ $r1 = 0 ] && [ $r2 = 0 ] || { fail "a change failed or was refused"; return 1; }
	l1=$(grep -n "xcablectl add gamma .*: done" xc.log | cut -d: -f1)
	l2=$(grep -n "xcablectl del gamma: done" xc.log | cut -d: -f1)
	[ -n "$l1" ] && [ -n "$l2" ] && [ "$l1" -lt "$l2" ] || { fail "not carried out in order (log lines '$l1' '$l2')"; return 1; }
	list_worst "$T/x.ctl" 1 || return 1
	! grep -q '^gamma: ' list.out && [ ! -e "$T/g-l.sock" ] || { cat list.out; fail "gamma is still there"; return 1; }
	say "carried out in order: gamma added, then removed"
}
TESTS+=(t_ctl_changes_in_order)

# xcablectl --timeout bounds the whole exchange with a server that never
# answers (a plain socket, not xcable): one that accepts and holds the
# connection, and one whose listen backlog is full (connect waits)
t_ctl_timeout() {
	local mp bp ms rc
	"${POKE[@]}" mute "$T/mute.sock" accept 30 >mute.out 2>&1 & mp=$!
	"${POKE[@]}" mute "$T/full.sock" backlog 30 >full.out 2>&1 & bp=$!
	XC_PIDS+=("$mp" "$bp")
	wait_log mute.out ready 1 10 && wait_log full.out ready 1 10 || { cat mute.out full.out; fail "no mute server"; return 1; }
	timed ms timeout 10 "$XCTL" -s "$T/mute.sock" --timeout 1 list >t1.out 2>&1; rc=$?
	say "--timeout 1 list, a server that accepts and never answers: exit $rc after $ms ms: $(cat t1.out)"
	[ $rc = 2 ] && [ "$ms" -ge 900 ] && [ "$ms" -le 2000 ] &&
		grep -qx "xcablectl: no answer from xcable within 1 s" t1.out || { fail "not exit 2 with the message after 1 s"; return 1; }
	timed ms timeout 10 "$XCTL" -t 1 -s "$T/full.sock" show cable0 >t2.out 2>&1; rc=$?
	say "-t 1 show, a server whose backlog is full: exit $rc after $ms ms: $(cat t2.out)"
	[ $rc = 2 ] && [ "$ms" -ge 900 ] && [ "$ms" -le 2000 ] &&
		grep -qx "xcablectl: no answer from xcable within 1 s" t2.out || { fail "not exit 2 with the message after 1 s"; return 1; }
	timed ms timeout 15 "$XCTL" -s "$T/mute.sock" list >t3.out 2>&1; rc=$?
	say "list without --timeout: exit $rc after $ms ms: $(cat t3.out)"
	[ $rc = 2 ] && [ "$ms" -ge 4500 ] && [ "$ms" -le 7000 ] &&
		grep -qx "xcablectl: no answer from xcable within 5 s" t3.out || { fail "a request that reads does not time out after 5 s"; return 1; }
	"$XCTL" -s "$T/mute.sock" --timeout soon list >t4.out 2>&1; rc=$?
	say "--timeout soon: exit $rc: $(cat t4.out)"
	[ $rc = 2 ] && grep -q "expected seconds" t4.out || { fail "a bad --timeout not refused"; return 1; }
	kill "$mp" "$bp" 2>/dev/null
}
TESTS+=(t_ctl_timeout)
SAN_ONCE+=(t_ctl_timeout)	# CI time: xcablectl against a server that is not xcable

# the supervisor's socket (17 cables: a supervisor and 2 workers) is
# served the same way from its poll() loop
t_ctl_sup_clients() {
	sup_start 17 || return 1
	ctl_trickle "$T/x.ctl" || return 1
	ctl_silent "$T/x.ctl" 10 || return 1
	ctl_silent "$T/x.ctl" 40 || return 1
	list_worst "$T/x.ctl" 1 || return 1
	[ "$(grep -c '^c[0-9]*: ' list.out)" = 17 ] || { cat list.out; fail "list does not show the 17 cables"; return 1; }
	say "list afterwards: 17 cables"
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_ctl_sup_clients)

# a client that asks for a large answer and never reads it (list --json
# of 48 cables of 8 queues, through the supervisor: more than a socket's
# buffer holds) does not hold up others, and is dropped at its deadline
t_ctl_sup_slow_reader() {
	local np size
	scale_ini lab.ini 48
	sed -i 's/^stats-interval = 0$/&\nqueues = 8/' lab.ini
	xc_start xc.log --config lab.ini --control "$T/x.ctl"
	wait_log xc.log "supervisor running" 1 30 && wait_log xc.log "running;" 3 60 ||
		{ tail -n 20 xc.log; fail "the supervisor and its 3 workers did not start"; return 1; }
	size=$(timeout 15 "$XCTL" -s "$T/x.ctl" list --json | wc -c)
	say "list --json: $size bytes"
	[ "$size" -gt 262144 ] || { fail "the answer is not larger than a socket's buffer: the test would prove nothing"; return 1; }
	"${POKE[@]}" noread "$T/x.ctl" "list --json" 7 >noread.out 2>&1 & np=$!
	wait_log noread.out ready 1 10 || { cat noread.out; fail "the client did not start"; return 1; }
	list_worst "$T/x.ctl" 3 || return 1
	say "a client not reading its list --json: xcablectl list answered in $LIST_MS ms at worst (3 asked)"
	[ "$LIST_MS" -lt 500 ] || { fail "the client that does not read delayed list"; return 1; }
	wait $np
	say "$(sed 's/^noread: //' noread.out | tail -n 1)"
	grep -q "^noread: [0-9]* bytes of answer after 7.0 s, closed, last line" noread.out &&
		! grep -q "last line b'ok'" noread.out || { fail "the client was not dropped at its write deadline"; return 1; }
	wait_log xc.log "clients closed: .* 1 did not read their answer" 1 5 ||
		{ fail "the log does not say the client was dropped"; return 1; }
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_ctl_sup_slow_reader)

# the supervisor never waits for a worker: worker 1 is stopped (SIGSTOP)
# with a change (del c17) and a read (show c15) parked on it; meanwhile
# workers, show of a cable of worker 0 and list (each worker asked at
# once) are answered, list within its deadline for worker 1 and saying
# so; the parked show gets an error naming worker 1 at its deadline;
# worker 0, killed, is started again; once worker 1 runs again (SIGCONT)
# the parked del is carried out and answered with c17's last counters
t_ctl_sup_stuck_worker() {
	local w1 dp sp ms rc n
	sup_start 20 || return 1
	w1=$(worker_pid 1)
	kill -STOP "$w1" || { fail "cannot stop worker 1"; return 1; }
	say "worker 1 (pid $w1, c10 to c19) stopped with SIGSTOP"
	timed ms timeout 60 "$XCTL" -s "$T/x.ctl" del c17 >del.out 2>&1 & dp=$!
	sleep 0.3
	"$XCTL" -s "$T/x.ctl" show c15 >show.out 2>&1 & sp=$!
	sleep 0.3
	timed ms timeout 10 "$XCTL" -s "$T/x.ctl" workers >workers.out 2>&1 || { cat workers.out; fail "workers failed"; return 1; }
	say "del c17 and show c15 parked on worker 1: workers answered in $ms ms"
	[ "$ms" -lt 500 ] || { fail "workers waited for the parked requests"; return 1; }
	timed ms timeout 10 "$XCTL" -s "$T/x.ctl" show c3 >show3.out 2>&1 || { cat show3.out; fail "show c3 failed"; return 1; }
	say "show c3 (worker 0): answered in $ms ms"
	[ "$ms" -lt 500 ] && grep -q "^c3: " show3.out || { cat show3.out; fail "show c3 waited, or is wrong"; return 1; }
	timed ms timeout 10 "$XCTL" -s "$T/x.ctl" list >list.out 2>&1; rc=$?
	say "list: exit $rc in $ms ms: $(grep -m1 '^c1[0-9]: ' list.out | cut -c1-110)"
	[ $rc = 0 ] && [ "$ms" -lt 3000 ] || { cat list.out; fail "list did not answer within worker 1's deadline"; return 1; }
	[ "$(grep -c '^c[0-9]: left ' list.out)" = 10 ] ||
		{ cat list.out; fail "list does not show worker 0's 10 cables"; return 1; }
	[ "$(grep -c '^c1[0-9]: not running: worker 1 did not answer within 2000 ms' list.out)" = 10 ] ||
		{ cat list.out; fail "list does not say worker 1 did not answer"; return 1; }
	wait $sp; rc=$?
	say "the parked show c15: exit $rc: $(cat show.out)"
	[ $rc != 0 ] && grep -q "error: cable c15: worker 1 did not answer within 2000 ms" show.out ||
		{ fail "the parked show did not get an error naming worker 1"; return 1; }
	n=$(grep -c "running;" xc.log)
	kill -KILL "$(worker_pid 0)"
	wait_log xc.log "worker 0 .*was killed by signal 9.*restarting" 1 5 && wait_log xc.log "running;" $((n + 1)) 30 ||
		{ tail -n 5 xc.log; fail "worker 0 was not started again while del was parked"; return 1; }
	say "worker 0 killed meanwhile: started again ($(grep -m1 'worker 0 .*was killed' xc.log | sed 's/^xcable: //' | cut -c1-80)...)"
	kill -0 "$dp" 2>/dev/null || { cat del.out; fail "the parked del did not wait for worker 1"; return 1; }
	kill -CONT "$w1"
	wait $dp; rc=$?
	say "worker 1 continued: del c17: exit $rc, $(tail -n 1 del.out)"
	[ $rc = 0 ] && grep -q "^c17 left->right: .*(final: removed)" del.out && grep -q "c17: removed from worker 1" del.out ||
		{ cat del.out; fail "the parked del was not carried out once worker 1 ran"; return 1; }
	timed ms timeout 10 "$XCTL" -s "$T/x.ctl" list >list.out 2>&1 || { cat list.out; fail "list failed"; return 1; }
	say "list: $(grep -c '^c[0-9]*: left ' list.out) cables running, in $ms ms"
	[ "$(grep -c '^c[0-9]*: left ' list.out)" = 19 ] && ! grep -q '^c17: ' list.out ||
		{ cat list.out; fail "list does not show the 19 cables left"; return 1; }
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_ctl_sup_stuck_worker)

# ctl_finds_body - t_ctl_finds inside its own mount namespace, with an
# empty /run (so no other xcable of this machine is seen)
ctl_finds_body() {
	local out pa pb
	trap 'kill -KILL "${XC_PIDS[@]}" 2>/dev/null' EXIT
	mount -t tmpfs tmpfs /run && mkdir -p /run/xcable || { fail "cannot make a private /run"; return 1; }
	"$XCTL" list >none.out 2>&1 && { cat none.out; fail "xcablectl found an xcable where none runs"; return 1; }
	say "none running: $(cat none.out)"
	# the service's way: --control /run/xcable/NAME.ctl
	printf '[cable alpha]\nleft = %s\nright = %s\n' "$T/a.sock" "$T/b.sock" >lab.ini
	xc_start lab.log --config lab.ini --control /run/xcable/lab.ctl
	pa=$XC_PID
	wait_log lab.log "running;" 1 30 || { cat lab.log; fail "xcable did not start"; return 1; }
	"$XCTL" list >list.out 2>list.err || { cat list.out list.err; fail "xcablectl without -s did not reach the lab"; return 1; }
	say "one lab in /run/xcable: $(cat list.err); $(grep -c '^alpha:' list.out) cable alpha listed"
	grep -q '^alpha: ' list.out && grep -q "socket is /run/xcable/lab.ctl$" list.err ||
		{ fail "xcablectl did not use /run/xcable/lab.ctl, or did not say so"; return 1; }
	# bash completion of cable names, without -s, finds the same lab
	out=$(PATH="$BUILD/app:$PATH" bash -c '. "$1/config/xcablectl.bash"
		COMP_WORDS=(xcablectl show ""); COMP_CWORD=2; _xcablectl; echo "${COMPREPLY[*]}"' _ "$TOP")
	say "completion of 'xcablectl show ' without -s: $out"
	[ "$out" = alpha ] || { fail "completion did not find the lab's cables"; return 1; }
	# a second xcable, its socket in its EAL runtime directory: two
	# found, none picked; -s still chooses
	xc_start two.log --left "$T/c.sock" --right "$T/d.sock"
	pb=$XC_PID
	wait_log two.log "running;" 1 30 || { cat two.log; fail "the second xcable did not start"; return 1; }
	"$XCTL" list >list.out 2>list.err && { cat list.out list.err; fail "with two xcables, xcablectl picked one"; return 1; }
	say "two running: $(cat list.err)"
	grep -q "2 xcables are running (.*/run/xcable/lab.ctl.*): give -s" list.err &&
		grep -q "/var/run/dpdk/xcable-$pb/xcable.ctl" list.err ||
		{ fail "the message does not name both sockets"; return 1; }
	"$XCTL" -s /run/xcable/lab.ctl list >/dev/null 2>list.err && [ ! -s list.err ] ||
		{ cat list.err; fail "-s did not choose (or said more than the answer)"; return 1; }
	kill -TERM "$pa" "$pb" && wait "$pa" "$pb"
}

# xcablectl without -s or -p finds the one running xcable, in an EAL
# runtime directory or among the service's sockets (/run/xcable/*.ctl),
# and says which; with none or two it picks none and names what it saw
t_ctl_finds() {
	unshare -m --propagation private bash -c '. "$TOP/tests/lib.sh"; . "$TOP/tests/t_ctl.sh"
		ctl_finds_body'
}
TESTS+=(t_ctl_finds)
