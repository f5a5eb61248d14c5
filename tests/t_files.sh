# SPDX-License-Identifier: BSD-3-Clause
# tests/t_files.sh - other people's files are never destroyed: xcable
# removes and renames only the sockets it made (by device, inode and
# time), and of what a killed xcable or worker left, only the sockets its
# record in its run directory proves it bound
# (sourced by tests/run; each t_* function is one test)

# foreign_file PATH - put a regular file with known content at PATH, in
# place of whatever is there
foreign_file() { rm -f "$1" && echo "not xcable's: $1" >"$1"; }

# check_foreign PATH WHEN - PATH still is that regular file, content and all
check_foreign() {
	if [ -f "$1" ] && [ ! -L "$1" ] && [ "$(cat "$1")" = "not xcable's: $1" ]; then
		say "$2: ${1##*/} is still the regular file, with its content"
		return 0
	fi
	fail "$2: ${1##*/} is gone or changed: $(ls -la "$1" 2>&1)"
}

# xc_log_has LOG PATTERN WHAT - LOG has a line matching PATTERN (grep -E)
xc_log_has() {
	grep -qE -- "$2" "$1" || { fail "no log line saying $3"; return 1; }
	say "xcable: $(grep -m1 -E -- "$2" "$1" | sed 's/^xcable: //' | cut -c1-200)"
}

# a file put where a cable's socket was survives xcablectl del of that
# cable, and xcable's exit, whose port closes remove the socket path in
# DPDK's vhost library
t_files_foreign_survives_del_and_exit() {
	runtime_ini lab.ini
	xc_start xc.log --config lab.ini --control "$T/x.ctl"
	wait_log xc.log "running;" 1 30 || { cat xc.log; fail "xcable did not start"; return 1; }
	[ -S "$T/b-l.sock" ] && [ -S "$T/a-r.sock" ] || { fail "no sockets"; return 1; }
	foreign_file "$T/b-l.sock"
	"$BUILD/app/xcablectl" -s "$T/x.ctl" del beta >del.out 2>&1 ||
		{ cat del.out; fail "xcablectl del beta failed"; return 1; }
	say "xcablectl del beta: $(tr '\n' ' ' <del.out)"
	check_foreign "$T/b-l.sock" "after xcablectl del beta" || return 1
	[ ! -e "$T/b-r.sock" ] || { fail "beta's own right socket was not removed"; return 1; }
	say "beta's own socket b-r.sock was removed"
	xc_log_has xc.log "'$T/b-l.sock' is a regular file, not the socket xcable made" \
		"what is at b-l.sock" || return 1
	foreign_file "$T/a-r.sock"
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
	check_foreign "$T/a-r.sock" "after xcable's exit" || return 1
	[ ! -e "$T/a-l.sock" ] || { fail "alpha's own left socket was not removed at exit"; return 1; }
	ls -a "$T" | grep -q 'aside' && { fail "a file was left under its temporary name: $(ls -a "$T" | grep aside)"; return 1; }
	say "alpha's own socket a-l.sock was removed at exit, nothing left aside"
}
TESTS+=(t_files_foreign_survives_del_and_exit)

# a regular file named like the guard's hidden name (.l.sock.in-use) is
# not replaced when a frontend attaches: the guard says it cannot hide the
# socket, and the cable works unguarded
t_files_in_use_name_kept() {
	local lp rp got
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --no-link-propagation
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	foreign_file "$T/.l.sock.in-use"
	stream_peer left.out "$T/l.sock" 1 5 & lp=$!
	stream_peer right.out "$T/r.sock" 2 5 & rp=$!
	wait_ends_up xc.log 30 left right || { fail "frontends did not connect"; return 1; }
	wait $lp $rp
	check_foreign "$T/.l.sock.in-use" "with a frontend attached" || return 1
	xc_log_has xc.log "left: cannot hide $T/l.sock while in use \($T/.l.sock.in-use is a regular file, not xcable's" \
		"that the socket cannot be hidden" || return 1
	[ -S "$T/.r.sock.in-use" ] || grep -q "right.*link down" xc.log ||
		{ fail "the right socket was not hidden"; return 1; }
	got=$(received_from right.out 1)
	say "right received ${got:-0} frames from left over 5 s"
	[ "${got:-0}" -gt 1000 ] || { fail "the cable did not work unguarded"; return 1; }
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
	check_foreign "$T/.l.sock.in-use" "after xcable's exit" || return 1
	[ ! -e "$T/l.sock" ] && [ ! -e "$T/r.sock" ] || { fail "xcable's own sockets left behind"; return 1; }
}
TESTS+=(t_files_in_use_name_kept)
SAN_ONCE+=(t_files_in_use_name_kept)	# CI time: correctness alone; the other t_files tests run on both

# a file put on the public path while a guest is attached (where the
# guard's decoy was) is not replaced when the guest leaves: the socket
# stays hidden, and the log says frontends cannot reconnect
t_files_public_path_kept() {
	local lp rp
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --no-link-propagation
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	stream_peer left.out "$T/l.sock" 1 4 & lp=$!
	stream_peer right.out "$T/r.sock" 2 8 & rp=$!
	wait_ends_up xc.log 30 left right || { fail "frontends did not connect"; return 1; }
	sleep 0.5
	[ -S "$T/.l.sock.in-use" ] || { fail "the served socket was not hidden"; return 1; }
	foreign_file "$T/l.sock"
	say "replaced the decoy on l.sock with a regular file while left is attached"
	wait $lp
	wait_log xc.log "left.*link down" 1 10 || { fail "left never went down"; return 1; }
	sleep 0.5
	check_foreign "$T/l.sock" "after the left guest left" || return 1
	xc_log_has xc.log "left: cannot put $T/l.sock back \(a regular file is there now, not xcable's" \
		"that the socket cannot go back" || return 1
	wait $rp
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
	check_foreign "$T/l.sock" "after xcable's exit" || return 1
	[ ! -e "$T/.l.sock.in-use" ] || { fail "xcable's hidden socket was left behind"; return 1; }
	say "the socket that could not go back was removed from its hidden name at exit"
}
TESTS+=(t_files_public_path_kept)
SAN_ONCE+=(t_files_public_path_kept)	# socket files; the other t_files tests run on both

# a live socket of another process at a killed worker's path is not
# removed by the supervisor's cleanup of that worker: worker 1 is stopped
# (SIGSTOP) so that it cannot exit by itself, the supervisor told to stop
# SIGKILLs it after 5 s and removes the sockets it left, but only those
# nobody listens on
t_files_supervisor_keeps_live() {
	local w1 lp rc=0
	sup_start 20 || return 1
	w1=$(worker_pid 1)
	[ -n "$w1" ] || { fail "no worker 1"; return 1; }
	kill -STOP "$w1"
	# c17 is worker 1's (10 cables each): another process serves its
	# left socket now
	rm -f "$T/c17-l.sock"
	/usr/bin/python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(4)
open(sys.argv[2], "w").close()
time.sleep(60)' "$T/c17-l.sock" "$T/listening" & lp=$!
	XC_PIDS+=("$lp")
	for _ in $(seq 50); do [ -e "$T/listening" ] && break; sleep 0.1; done
	say "worker 1 (pid $w1) stopped with SIGSTOP; another process listens on c17-l.sock"
	xc_stop
	grep -q "worker 1 (pid $w1) did not stop within .*SIGKILL" xc.log ||
		{ fail "the supervisor did not SIGKILL worker 1"; rc=1; }
	if [ -S "$T/c17-l.sock" ] && /usr/bin/python3 -c '
import socket, sys
socket.socket(socket.AF_UNIX).connect(sys.argv[1])' "$T/c17-l.sock" 2>/dev/null; then
		say "c17-l.sock is still there and answers"
	else
		fail "the live socket at c17-l.sock was removed"; rc=1
	fi
	[ ! -e "$T/c17-r.sock" ] || { fail "worker 1's stale c17-r.sock was not removed"; rc=1; }
	say "worker 1's stale c17-r.sock was removed"
	xc_log_has xc.log "worker 1 is gone, but not its socket: '$T/c17-l.sock' holds a socket xcable did not make now" \
		"that the live socket was left alone" || rc=1
	kill "$lp" 2>/dev/null; wait "$lp" 2>/dev/null
	return $rc
}
TESTS+=(t_files_supervisor_keeps_live)

# a FIFO (or a link) put where xcable writes its counters before renaming
# them into place is not opened for writing: that would block the main
# thread until someone read it. The counters are not written, xcable says
# why, forwards, and stops in time; the FIFO is left alone
t_files_stats_tmp_fifo() {
	mkfifo "$T/s.json.tmp" || { fail "cannot make a FIFO"; return 1; }
	# (the runner reads what a failed test left: no FIFO past the test)
	trap 'rm -f "$T/s.json.tmp"' RETURN
	"$XC" --left "$T/l.sock" --right "$T/r.sock" --stats-json "$T/s.json" --stats-interval 1 >xc.log 2>&1 &
	XC_PID=$!
	XC_PIDS+=("$XC_PID")
	wait_log xc.log "running;" 1 20 || { tail -n 5 xc.log; fail "xcable did not start"; return 1; }
	wait_log xc.log "counters not written to $T/s.json" 1 5 || { tail -n 5 xc.log; fail "the counters' FIFO was not refused"; return 1; }
	say "$(grep -m1 'counters not written' xc.log | sed 's/^xcable: //')"
	run_frames xc.log "$T/l.sock" "$T/r.sock" 2 1 || return 1
	timeout 10 bash -c "kill -TERM $XC_PID; while kill -0 $XC_PID 2>/dev/null; do sleep 0.1; done" ||
		{ fail "xcable did not stop within 10 s"; return 1; }
	[ -p "$T/s.json.tmp" ] || { fail "the FIFO was removed"; return 1; }
	say "xcable forwarded, stopped, and left the FIFO alone"
}
TESTS+=(t_files_stats_tmp_fifo)

# foreign_sock PATH - a unix socket of somebody else's at PATH, that
# nobody listens on (bound, then closed); its inode in $FOREIGN_INO
foreign_sock() {
	rm -f "$1"
	/usr/bin/python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.close()' "$1" || return 1
	FOREIGN_INO=$(stat -c %i "$1")
}

# check_sock PATH INO WHEN - PATH still is that socket
check_sock() {
	if [ -S "$1" ] && [ "$(stat -c %i "$1")" = "$2" ]; then
		say "$3: ${1##*/} is still the socket of somebody else's (inode $2)"
		return 0
	fi
	fail "$3: ${1##*/} is gone or changed: $(ls -lai "$1" 2>&1)"
}

# a socket of somebody else's that nobody listens on, at a cable's path,
# is left alone and named: at start (exit 2), by xcablectl add, and by
# the supervisor's cleanup of a worker killed while its socket was
# replaced by it (the worker then cannot start again until it is gone);
# what a killed xcable left is removed by the next start, its record
# proving it bound it, while another socket beside it is refused
t_files_foreign_socket_kept() {
	local rc ino w1 n
	foreign_sock "$T/f.sock" || { fail "cannot make a socket"; return 1; }
	ino=$FOREIGN_INO
	timeout 30 "$XC" --left "$T/f.sock" --right "$T/r.sock" >start.out 2>&1; rc=$?
	say "start with it as the left socket: exit $rc: $(grep -m1 'f.sock' start.out)"
	[ $rc = 2 ] && grep -q "cannot create socket '$T/f.sock': a socket nobody listens on is there, and no xcable that ended recorded binding it: left alone (if it is a leftover nobody needs, remove it: rm '$T/f.sock')" start.out ||
		{ fail "not refused with a message naming the path and what to do"; return 1; }
	check_sock "$T/f.sock" "$ino" "after the start" || return 1
	runtime_ini lab.ini
	xc_start xc.log --config lab.ini --control "$T/x.ctl"
	wait_log xc.log "running;" 1 30 || { cat xc.log; fail "xcable did not start"; return 1; }
	"$BUILD/app/xcablectl" -s "$T/x.ctl" add foreign left="$T/f.sock" right="$T/g.sock" >add.out 2>&1 &&
		{ fail "add over the socket was taken"; return 1; }
	say "xcablectl add with it as the left socket: $(tail -n 1 add.out | cut -c1-150)..."
	grep -q "no xcable that ended recorded binding it: left alone" add.out || { cat add.out; fail "add refused without the reason"; return 1; }
	check_sock "$T/f.sock" "$ino" "after xcablectl add" || return 1
	[ ! -e "$T/g.sock" ] || { fail "the refused add left its right socket"; return 1; }
	# a crash: what it left is its own, by its record; a foreign socket
	# put beside the cable's is not
	kill -KILL "$XC_PID"; wait "$XC_PID" 2>/dev/null
	[ -S "$T/a-l.sock" ] && [ -S "$T/x.ctl" ] || { fail "the killed xcable left no sockets: the test proves nothing"; return 1; }
	foreign_sock "$T/b-l.sock" && ino=$FOREIGN_INO
	timeout 30 "$XC" --config lab.ini --control "$T/x.ctl" >again.out 2>&1; rc=$?
	say "start again after SIGKILL, beta's left socket replaced by somebody else's: exit $rc: $(grep -m1 'b-l.sock' again.out | cut -c1-120)..."
	[ $rc = 2 ] && grep -q "cannot create socket '$T/b-l.sock': a socket nobody listens on is there" again.out ||
		{ tail -n 3 again.out; fail "the foreign socket beside the leftovers was not refused"; return 1; }
	check_sock "$T/b-l.sock" "$ino" "after the start" || return 1
	rm -f "$T/b-l.sock"
	xc_start xc2.log --config lab.ini --control "$T/x.ctl"
	wait_log xc2.log "running;" 1 30 || { tail -n 5 xc2.log; fail "the leftovers of the killed xcable were not removed"; return 1; }
	say "once it is gone: xcable starts, over the sockets and control socket the killed one left (its record proves them its own)"
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
	# the supervisor: worker 1's c17-l.sock replaced by somebody else's
	sup_start 20 || return 1
	w1=$(worker_pid 1)
	foreign_sock "$T/c17-l.sock" && ino=$FOREIGN_INO
	n=$(grep -c "running;" xc.log)
	kill -KILL "$w1"
	wait_log xc.log "worker 1 is gone, but not its socket: '$T/c17-l.sock' holds a socket xcable did not make now" 1 10 ||
		{ tail -n 5 xc.log; fail "the supervisor did not say it left the socket alone"; return 1; }
	say "$(grep -m1 "worker 1 is gone, but not its socket" xc.log | sed 's/^xcable: //')"
	wait_log xc.log "cannot create socket '$T/c17-l.sock'" 1 10 ||
		{ tail -n 5 xc.log; fail "the worker started again did not say why it cannot"; return 1; }
	check_sock "$T/c17-l.sock" "$ino" "after the worker's crash and restart" || return 1
	[ ! -e "$T/c17-r.sock" ] || [ "$(grep -c 'running;' xc.log)" -gt "$n" ] ||
		{ fail "worker 1's own c17-r.sock was left behind"; return 1; }
	rm -f "$T/c17-l.sock"
	wait_log xc.log "running;" $((n + 1)) 30 || { tail -n 5 xc.log; fail "worker 1 did not come back once the socket was gone"; return 1; }
	say "once it is gone, worker 1 comes back"
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_files_foreign_socket_kept)

# a socket that took its path over from a name beside it (.NAME.next: a
# cable replaced whole on its sockets is made beside the old one) is
# still proven xcable's when the process is killed: by a reload that
# changes its mode (the record follows the rename), and by a record that
# names it at .NAME.next only (killed between the rename and its record,
# or while it lent the path): the next start takes both over; a worker
# killed after such a reload comes back at once, its supervisor removing
# what it left
t_files_killed_after_replace() {
	local n rc
	runtime_ini lab.ini
	xc_start xc.log --config lab.ini --control "$T/x.ctl"
	wait_log xc.log "running;" 1 30 || { cat xc.log; fail "xcable did not start"; return 1; }
	sed -i "s|^left = $T/a-l.sock$|&\nleft-socket-mode = 0600|" lab.ini
	"$XCTL" -s "$T/x.ctl" reload >reload.out 2>&1 || { cat reload.out; fail "the reload failed"; return 1; }
	[ "$(stat -c %a "$T/a-l.sock")" = 600 ] || { fail "alpha's left socket is not the new one (mode $(stat -c %a "$T/a-l.sock"))"; return 1; }
	kill -KILL "$XC_PID"; wait "$XC_PID" 2>/dev/null
	[ -S "$T/a-l.sock" ] || { fail "the killed xcable left no socket: the test proves nothing"; return 1; }
	# beta's left socket: a record of another killed xcable names it at
	# .b-l.sock.next alone
	rm -f "$T/b-l.sock"
	/usr/bin/python3 -c '
import os, socket, sys
sock, d = sys.argv[1], sys.argv[2]
os.makedirs(d)
socket.socket(socket.AF_UNIX).bind(sock)
st = os.lstat(sock)
nxt = os.path.join(os.path.dirname(sock), "." + os.path.basename(sock) + ".next")
with open(d + "/xcable-sockets", "w") as f:
    f.write("+ %d %d %d %d %s\n" % (st.st_dev, st.st_ino, st.st_mtime_ns // 10**9, st.st_mtime_ns % 10**9, nxt))
' "$T/b-l.sock" "/var/run/dpdk/xcable-t-files-$$" || { fail "cannot make beta's socket and its record"; return 1; }
	timeout 30 "$XC" --config lab.ini --control "$T/x.ctl" >again.out 2>&1 &
	XC_PID=$!
	XC_PIDS+=("$XC_PID")
	wait_log again.out "running;" 1 30; rc=$?
	rm -rf "/var/run/dpdk/xcable-t-files-$$"
	[ $rc = 0 ] || { tail -n 5 again.out; fail "the start after SIGKILL refused what was left"; return 1; }
	say "start after SIGKILL, alpha's left socket renamed from .a-l.sock.next by a reload, beta's recorded at .b-l.sock.next alone: both taken over"
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
	# supervised: worker 1's c17 replaced by a reload, the worker killed
	sup_start 20 || return 1
	sed -i "s|^left = $T/c17-l.sock$|&\nleft-socket-mode = 0600|" lab.ini
	"$XCTL" -s "$T/x.ctl" reload >reload.out 2>&1 || { cat reload.out; fail "the supervised reload failed"; return 1; }
	[ "$(stat -c %a "$T/c17-l.sock")" = 600 ] || { fail "c17's left socket is not the new one"; return 1; }
	n=$(grep -c "running;" xc.log)
	kill -KILL "$(worker_pid 1)"
	wait_log xc.log "running;" $((n + 1)) 20 || { tail -n 5 xc.log; fail "worker 1 did not come back"; return 1; }
	grep -q "cannot create socket" xc.log && { grep -m1 "cannot create socket" xc.log; fail "a restart was refused on the way"; return 1; }
	say "worker 1 killed after c17 was replaced: back at its first restart"
	run_frames xc.log "$T/c17-l.sock" "$T/c17-r.sock" $(($(grep -c "link up" xc.log) + 2)) 1 || return 1
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "the supervisor exited with $XC_RC"; return 1; }
}
TESTS+=(t_files_killed_after_replace)

# a killed xcable leaves its runtime directory (/var/run/dpdk/xcable-PID),
# its control socket and the record of the sockets it bound
# (app/util/sockrec.c); pids wrap (at 32768 by default), and an xcable
# that gets the same pid finds them: the recorded socket nobody listens on
# is taken over, and xcablectl reaches the new xcable
t_files_stale_control_same_pid() {
	# a directory of a dead process that had this pid before is not the
	# one this test leaves: it goes first (no live process has the pid)
	bash -c 'd=/var/run/dpdk/xcable-$$
		rm -rf "$d" && mkdir -p "$d" && /usr/bin/python3 -c "
import os, socket, sys
d = sys.argv[1]
socket.socket(socket.AF_UNIX).bind(d + \"/xcable.ctl\")
st = os.lstat(d + \"/xcable.ctl\")
with open(d + \"/xcable-sockets\", \"w\") as f:
    f.write(\"+ %d %d %d %d %s/xcable.ctl\\n\" % (st.st_dev, st.st_ino, st.st_mtime_ns // 10**9, st.st_mtime_ns % 10**9, d))
" "$d" && exec "$0" "$@"' "$XC" --left "$T/l.sock" --right "$T/r.sock" >xc.log 2>&1 &
	XC_PID=$!
	XC_PIDS+=("$XC_PID")
	wait_log xc.log "running;" 1 20 || { cat xc.log; fail "xcable did not start"; return 1; }
	grep "no runtime control" xc.log && { fail "the leftover socket kept xcable from its control socket"; return 1; }
	"$BUILD/app/xcablectl" -p "xcable-$XC_PID" list >list.out 2>&1 || { cat list.out; fail "xcablectl cannot reach it"; return 1; }
	say "a leftover xcable.ctl in /var/run/dpdk/xcable-$XC_PID (pid $XC_PID, as the new xcable's): taken over; xcablectl list: $(head -n 1 list.out)"
	xc_stop
	[ "$XC_RC" = 0 ] && [ ! -e "/var/run/dpdk/xcable-$XC_PID" ] || { fail "exit $XC_RC, or its runtime directory left"; return 1; }
}
TESTS+=(t_files_stale_control_same_pid)
