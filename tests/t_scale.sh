# SPDX-License-Identifier: BSD-3-Clause
# tests/t_scale.sh - many cables in one process: the port limit, cables
# added and removed at runtime
# (sourced by tests/run; each t_* function is one test)

# scale_ini FILE N [PREFIX] - a config of N socket-to-socket cables
# PREFIX0..PREFIX(N-1), sockets $T/PREFIXi-l.sock and -r.sock
scale_ini() {
	local f=$1 n=$2 p=${3:-c} i
	printf '[global]\nstats-interval = 0\n' >"$f"
	for ((i = 0; i < n; i++)); do
		printf '[cable %s%d]\nleft = %s/%s%d-l.sock\nright = %s/%s%d-r.sock\n' \
			"$p" "$i" "$T" "$p" "$i" "$T" "$p" "$i" >>"$f"
	done
}

t_port_limit() {
	local n
	# 17 socket-to-socket cables need 34 ports: more than DPDK's 32
	scale_ini over.ini 17
	expect_usage "17 cables" "cable c16: the cables need 34 DPDK ports.*at most 32 (RTE_MAX_ETHPORTS).*run one xcable for each" \
		--config over.ini || return 1
	ls "$T"/*.sock >/dev/null 2>&1 && { fail "sockets were created before the limit was checked"; return 1; }
	say "no socket was created"
	# 16 fit: every socket listens
	scale_ini fit.ini 16
	xc_start xc.log --config fit.ini
	wait_log xc.log "running;" 1 30 || { cat xc.log; fail "16 cables did not start"; return 1; }
	n=$(ls "$T"/c*-?.sock | wc -l)
	xc_stop
	say "16 cables: $n sockets, exit $XC_RC"
	[ "$n" = 32 ] && [ "$XC_RC" = 0 ] || { fail "expected 32 sockets and exit 0"; return 1; }
}
TESTS+=(t_port_limit)

# ups LOG - how many "link up" lines LOG has so far
ups() { grep -c "link up" "$1"; }

# runtime_ini FILE [C-CHANGE] - cables alpha and beta (and gamma, with
# C-CHANGE as an extra line, when given)
runtime_ini() {
	local f=$1
	printf '[global]\nstats-interval = 0\n' >"$f"
	printf '[cable alpha]\nleft = %s/a-l.sock\nright = %s/a-r.sock\n' "$T" "$T" >>"$f"
	if [ $# -gt 1 ]; then
		printf '[cable gamma]\nleft = %s/c-l.sock\nright = %s/c-r.sock\n%s\n' "$T" "$T" "$2" >>"$f"
	else
		printf '[cable beta]\nleft = %s/b-l.sock\nright = %s/b-r.sock\n' "$T" "$T" >>"$f"
	fi
}

t_runtime_change() {
	local p=() rc=0 n sa sb ra rb
	runtime_ini lab.ini
	xc_start xc.log --config lab.ini --control "$T/x.ctl"
	wait_log xc.log "running;" 1 30 || { cat xc.log; fail "xcable did not start"; return 1; }
	# alpha and beta carry streams both ways all along, from the moment
	# all four frontends are attached (a frame sent before its peer is
	# there is peer-down, and not what this test is about)
	rm -f "$T/go"
	STREAM_WAIT=$T/go stream_peer a-l.out "$T/a-l.sock" 1 16 & p+=($!)
	STREAM_WAIT=$T/go stream_peer a-r.out "$T/a-r.sock" 2 16 & p+=($!)
	STREAM_WAIT=$T/go stream_peer b-l.out "$T/b-l.sock" 3 16 & p+=($!)
	STREAM_WAIT=$T/go stream_peer b-r.out "$T/b-r.sock" 4 16 & p+=($!)
	wait_log xc.log "link up" 4 30 || { fail "the four frontends did not come up"; return 1; }
	touch "$T/go"
	sleep 1
	# add gamma: same keys as a [cable] section
	n=$(ups xc.log)
	"$XCTL" -s "$T/x.ctl" add gamma left="$T/c-l.sock" right="$T/c-r.sock" >add.out 2>&1 ||
		{ cat add.out; fail "xcablectl add failed"; rc=1; }
	[ $rc = 0 ] && say "added gamma: $(grep -m1 'gamma: added' xc.log | sed 's/^xcable: //')"
	[ $rc = 0 ] && { run_frames xc.log "$T/c-l.sock" "$T/c-r.sock" $((n + 2)) 1 || rc=1; }
	[ $rc = 0 ] && say "gamma carries the catalogue both ways, byte for byte"
	# a second cable of the same name, or on a socket in use: refused
	"$XCTL" -s "$T/x.ctl" add gamma left="$T/x-l.sock" right="$T/x-r.sock" >dup.out 2>&1 &&
		{ fail "a second gamma was accepted"; rc=1; }
	"$XCTL" -s "$T/x.ctl" add delta left="$T/a-l.sock" right="$T/d-r.sock" >sock.out 2>&1 &&
		{ fail "a socket in use was accepted"; rc=1; }
	say "refused: $(cat dup.out); $(cat sock.out)"
	# del beta: its frontends see the carrier go, its sockets go
	"$XCTL" -s "$T/x.ctl" del beta >del.out 2>&1 || { cat del.out; fail "xcablectl del failed"; rc=1; }
	[ -e "$T/b-l.sock" ] || [ -e "$T/b-r.sock" ] && { fail "beta's sockets are still there"; rc=1; }
	# SIGHUP reads a config that changes only gamma (an impairment):
	# gamma is replaced, alpha is not touched
	runtime_ini lab.ini "impair-to-right = delay=1ms"
	n=$(ups xc.log)
	kill -HUP "$XC_PID"
	wait_log xc.log "SIGHUP: reload" 1 20 || { fail "SIGHUP was not acted on"; rc=1; }
	say "$(grep -m1 'SIGHUP: reload' xc.log | sed 's/^xcable: //')"
	grep -q "SIGHUP: reload done.*1 cable(s) removed or replaced, 1 added" xc.log ||
		{ fail "the reload did not replace exactly gamma"; rc=1; }
	[ $rc = 0 ] && { run_frames xc.log "$T/c-l.sock" "$T/c-r.sock" $((n + 2)) 1 || rc=1; }
	[ $rc = 0 ] && say "the new gamma carries the catalogue"
	# a bad config changes nothing and says why, to xcablectl and the log
	printf '[cable alpha]\nleft = %s/a-l.sock\nright = %s/a-r.sock\nleft-clinet = yes\n' "$T" "$T" >lab.ini
	"$XCTL" -s "$T/x.ctl" reload >bad.out 2>&1 && { fail "a bad config was accepted"; rc=1; }
	say "bad reload: $(cat bad.out)"
	grep -q "left-clinet: unknown key" bad.out || { fail "xcablectl was not told why"; rc=1; }
	grep -q "xcablectl reload: failed: .*left-clinet: unknown key" xc.log || { fail "the log does not say why"; rc=1; }
	"$XCTL" -s "$T/x.ctl" list >list.out 2>&1
	say "cables now: $(grep -oE '^[a-z]+:' list.out | tr '\n' ' ')"
	[ "$(grep -oE '^[a-z]+:' list.out | tr '\n' ' ')" = "alpha: gamma: " ] ||
		{ cat list.out; fail "the bad reload changed the cables"; rc=1; }
	for i in 0 1 2 3; do wait "${p[$i]}"; done
	sleep 0.5
	xc_stop
	[ $rc = 0 ] || return 1
	sa=$(sed -nE 's/^sent ([0-9]+)/\1/p' a-l.out); sb=$(sed -nE 's/^sent ([0-9]+)/\1/p' a-r.out)
	ra=$(received_from a-r.out 1); rb=$(received_from a-l.out 2)
	say "alpha: left sent $sa, right received $ra; right sent $sb, left received $rb; link-downs $(sed -nE 's/^link-downs //p' a-l.out)/$(sed -nE 's/^link-downs //p' a-r.out)"
	[ "$sa" -gt 10000 ] && [ "$sa" = "$ra" ] && [ "$sb" = "$rb" ] || { fail "alpha lost frames"; return 1; }
	grep -q "^link-downs 0" a-l.out && grep -q "^link-downs 0" a-r.out || { fail "alpha's carrier dropped"; return 1; }
	check_dir_clean xc.log "alpha left->right" "$sa" || return 1
	check_dir_clean xc.log "alpha right->left" "$sb" || return 1
	say "beta's frontends: link-downs $(sed -nE 's/^link-downs //p' b-l.out)/$(sed -nE 's/^link-downs //p' b-r.out)"
	grep -q "^link-downs [1-9]" b-l.out && grep -q "^link-downs [1-9]" b-r.out ||
		{ fail "beta's frontends did not see the carrier go"; return 1; }
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_runtime_change)

t_sighup_simple_mode() {
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock"
	wait_log xc.log "running;" 1 30 || { fail "xcable did not start"; return 1; }
	kill -HUP "$XC_PID"
	wait_log xc.log "SIGHUP: nothing to reload" 1 10 || { fail "SIGHUP not logged"; return 1; }
	kill -0 "$XC_PID" || { fail "SIGHUP ended xcable"; return 1; }
	say "$(grep -m1 SIGHUP xc.log | sed 's/^xcable: //')"
	run_frames xc.log "$T/l.sock" "$T/r.sock" 2 1 || return 1
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
	say "still forwards after SIGHUP; exit 0"
}
TESTS+=(t_sighup_simple_mode)

# idle_cost N - start N cables from a config, attach a frontend to every
# end, and set IDLE_KB to xcable's resident memory plus the hugepages it
# took itself (Private_Hugetlb: the guests' memory it maps is shared)
idle_cost() {
	local n=$1 i s p=() rss huge
	scale_ini "idle$n.ini" "$n" "i${n}c"
	xc_start "idle$n.log" --config "idle$n.ini"
	wait_log "idle$n.log" "running;" 1 30 || { fail "$n cables did not start"; return 1; }
	for ((i = 0; i < n; i++)); do
		for s in l r; do
			stream_peer "idle$n-$i$s.out" "$T/i${n}c$i-$s.sock" 1 25 & p+=($!)
		done
	done
	wait_log "idle$n.log" "link up" $((2 * n)) 60 || { fail "not every frontend came up"; kill "${p[@]}"; return 1; }
	sleep 2
	rss=$(awk '/^VmRSS/ {print $2}' /proc/"$XC_PID"/status)
	huge=$(awk '/^Private_Hugetlb/ {s += $2} END {print s + 0}' /proc/"$XC_PID"/smaps)
	IDLE_KB=$((rss + huge))
	say "$n idle cables, frontends attached: resident $rss kB + own hugepages $huge kB = $IDLE_KB kB"
	xc_stop
	kill "${p[@]}" 2>/dev/null; wait "${p[@]}" 2>/dev/null
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}

t_idle_memory() {
	local saved one eight per rc=0
	saved=$(cat /proc/sys/vm/nr_hugepages)
	# the DPDK frontends take 96 MB of hugepages each
	ensure_hugepages 1000 || { fail "cannot reserve hugepages for 18 frontends"; return 1; }
	idle_cost 1 && one=$IDLE_KB || rc=1
	[ $rc = 0 ] && { idle_cost 8 && eight=$IDLE_KB || rc=1; }
	echo "$saved" >/proc/sys/vm/nr_hugepages
	[ $rc = 0 ] || return 1
	per=$(( (eight - one) / 7 ))
	say "each idle cable beyond the first costs $per kB (target: 2048); 8 cables $((eight / 8)) kB each, the process's fixed part included"
	[ "$per" -le 2048 ] || fail "an idle cable costs more than 2 MB"
}
TESTS+=(t_idle_memory)

# own_huge PID - hugepages a process took itself (not the guests'), kB
own_huge() { awk '/^Private_Hugetlb/ {s += $2} END {print s + 0}' /proc/"$1"/smaps; }
# rss PID - its resident memory, kB
rss() { awk '/^VmRSS/ {print $2}' /proc/"$1"/status; }

t_pool_shrinks() {
	local h0 h1 h2 r0 r2
	xc_start xc.log --left "$T/l.sock" --right "$T/r.sock" --log-level=xcable.main:debug
	wait_log xc.log "running;" 1 30 || { fail "xcable did not start"; return 1; }
	sleep 1
	h0=$(own_huge "$XC_PID") r0=$(rss "$XC_PID")
	# a delay line holds frames on purpose: its cable's pool grows to the cap
	"$XCTL" -p "xcable-$XC_PID" impair cable0 to-right delay=1ms >ctl.out 2>&1 || { cat ctl.out; fail "impair refused"; return 1; }
	wait_log xc.log "xc_pool0: grown to 8191 mbufs" 1 10 || { fail "the pool did not grow to its cap"; return 1; }
	sleep 0.5
	h1=$(own_huge "$XC_PID")
	"$XCTL" -p "xcable-$XC_PID" clear cable0 >ctl.out 2>&1 || { cat ctl.out; fail "clear refused"; return 1; }
	wait_log xc.log "xc_pool0: idle, shrunk to 256 mbufs" 1 30 || { fail "the idle pool did not shrink back"; return 1; }
	sleep 0.5
	h2=$(own_huge "$XC_PID") r2=$(rss "$XC_PID")
	say "xcable's own hugepages: $h0 kB at start, $h1 kB with its pool grown to the cap, $h2 kB after 10 s idle (resident memory $r0 then $r2 kB)"
	[ $((h1 - h0)) -gt 10240 ] || { fail "growing to the cap took under 10 MB of hugepages: not measured right"; return 1; }
	[ "$h2" -le "$h0" ] || { fail "the shrunk pool kept hugepages"; return 1; }
	# the mbufs that stayed still work
	run_frames xc.log "$T/l.sock" "$T/r.sock" 2 1 || return 1
	say "the shrunk pool still carries the frame catalogue both ways"
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
}
TESTS+=(t_pool_shrinks)
