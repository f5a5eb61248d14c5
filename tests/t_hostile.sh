# SPDX-License-Identifier: BSD-3-Clause
# tests/t_hostile.sh - hostile guests: tests/vhostile drives one cable with
# each bad input; after each case xcable must still run, that cable must
# work again for a well-behaved guest pair, a second cable in the same
# process must forward, xcable's fds and memory must be back where they
# were, and every frame it received must be delivered or counted as a drop.
# (sourced by tests/run; each t_* function is one test)

VHOSTILE=${VHOSTILE:-$BUILD/tests/vhostile}

# hostile_xc [PROPAGATION] - xcable with cables A (a-l, a-r) and B (b-l,
# b-r); link propagation off unless PROPAGATION is "yes"; IOMMU support
# offered if HOSTILE_IOMMU is "yes"
hostile_xc() {
	cat >h.ini <<EOF
[global]
stats-interval = 0
link-propagation = ${1:-no}
iommu = ${HOSTILE_IOMMU:-no}
[cable A]
left = $T/a-l.sock
right = $T/a-r.sock
[cable B]
left = $T/b-l.sock
right = $T/b-r.sock
EOF
	xc_start xc.log --config h.ini
	wait_log xc.log "running;" 1 20
}

# xc_fds - xcable's open fds, less its listening sockets (with link
# propagation a vhost port without its guest is unplugged and its socket
# closed until the other end is back: that is state, not a leak)
xc_fds() {
	find "/proc/$XC_PID/fd" -mindepth 1 -printf '%l\n' 2>/dev/null |
		grep -v -x -F -f <(awk '$4 == "00010000" && $6 == "01" { print "socket:[" $7 "]" }' /proc/net/unix) |
		wc -l
}

# fds_settled - xcable's open fd count once it has stayed the same for
# 0.2 s (a connection that just closed may still be open in xcable for a
# moment, longer under the sanitizers); at most 3 s
fds_settled() {
	local a b i
	a=$(xc_fds)
	for ((i = 0; i < 30; i++)); do
		sleep 0.1
		b=$(xc_fds)
		if [ "$a" = "$b" ]; then
			sleep 0.1
			[ "$(xc_fds)" = "$b" ] && break
		fi
		a=$b
	done
	echo "$b"
}
xc_rss() { awk '/^VmRSS/ {print $2}' "/proc/$XC_PID/status" 2>/dev/null; }

# good CABLE - a well-behaved guest pair on cable A or B: 2000 frames
# checked byte for byte
good() {
	local c=${1,,}
	"$VHOSTILE" "$T/$c-l.sock" "$T/$c-r.sock" good >good.out 2>&1
	local rc=$?
	sed "s/^  /  cable $1: /" good.out
	return $rc
}

# hostile_case CASE [PROPAGATION] - run one case of tests/vhostile against
# cable A and check everything the file header promises
hostile_case() {
	local c=$1 fd0 rss0 fd1 rss1 i rc
	hostile_xc "${2:-no}" || { fail "xcable did not start"; return 1; }
	good A >/dev/null && good B >/dev/null ||
		{ fail "the cables do not work before the case"; return 1; }
	fd0=$(fds_settled); rss0=$(xc_rss)
	timeout 120 "$VHOSTILE" "$T/a-l.sock" "$T/a-r.sock" "$c" >case.out 2>&1
	rc=$?
	sed 's/^\([^ ]\)/  vhostile: \1/' case.out
	[ $rc = 0 ] || { fail "vhostile $c: exit status $rc"; return 1; }
	sleep 0.1
	kill -0 "$XC_PID" 2>/dev/null ||
		{ tail -n 20 xc.log | sed 's/^/  xcable: /'; fail "xcable died"; return 1; }
	good A || { fail "cable A does not work again after the case"; return 1; }
	good B || { fail "cable B (another cable) does not forward"; return 1; }
	# leaked guest memory fds are closed by xcable's memory guard after
	# two scans up to 2 s apart (the main thread, idle, keeps house every 2 s)
	for ((i = 0; i < 60; i++)); do
		fd1=$(xc_fds)
		[ "$fd1" -le "$fd0" ] && break
		sleep 0.1
	done
	rss1=$(xc_rss)
	say "xcable: open fds (not counting listening sockets) $fd0 before, $fd1 after; RSS $rss0 kB before, $rss1 kB after$([[ $BUILD == *san* ]] && echo " (not held: sanitizer build)")"
	[ "$fd1" = "$fd0" ] || { ls -l "/proc/$XC_PID/fd" | sed 's/^/  /' | tail -n 8; fail "fds leaked"; return 1; }
	# (not under ASan: its quarantine keeps every freed block for a while,
	# and each guest's connection and its events free some)
	[[ $BUILD == *san* ]] || [ $((rss1 - rss0)) -le 2048 ] || { fail "memory grew by more than 2 MB"; return 1; }
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
	check_accounted xc.log || { fail "frames not accounted for"; return 1; }
}

# one test per case of tests/vhostile (a function each, so that each has
# its own name, log and verdict)
for c in desc-past-region desc-unmapped desc-unmapped-zero-len desc-zero-len \
	desc-loop desc-next-past-ring chain-longer-than-ring indirect-odd-size \
	indirect-nested indirect-past-region indirect-empty header-short \
	header-only header-split huge-chain write-flag-in-tx \
	rx-unmapped rx-read-only rx-loop rx-tiny rx-zero-len rx-past-region \
	vring-index-out-of-range vring-num-bad vring-addr-bad vring-file-bad \
	mem-table-bad mem-beyond-file mem-truncated fds-bad log-base-overflow \
	junk-requests repeat disconnect-mid-burst connect-cycles \
	hangup-before-reply; do
	f=t_hostile_${c//-/_}
	eval "$f() { hostile_case $c; }"
	TESTS+=("$f")
done
unset c f
# fwd_ticks - CPU clock ticks used so far by xcable's threads, less the
# vhost library's event thread (it handles the IOTLB messages themselves)
fwd_ticks() {
	local t s=0 v
	for t in "/proc/$XC_PID/task/"*; do
		[ "$(cat "$t/comm" 2>/dev/null)" = vhost-events ] && continue
		v=$(cpu_ticks "$XC_PID/task/${t##*/}" 2>/dev/null)
		s=$((s + ${v:-0}))
	done
	echo "$s"
}

# a guest behind a vIOMMU that sends IOTLB messages (as one moving frames
# does, each miss answered) keeps its lcore polling, not sleeping and
# woken per message, and wakes no other lcore per message (here the main
# one, which forwards the idle cable B); once they stop, the lcore sleeps
# again
t_iommu_iotlb_polls() {
	local vp a b c d m0 m1 hz storm quiet main
	HOSTILE_IOMMU=yes hostile_xc || { fail "xcable did not start"; return 1; }
	xc_stop
	sed -i -e '/^\[cable A\]/a lcore = 1' -e '/^\[cable B\]/a lcore = 0' h.ini
	xc_start xc.log --config h.ini
	wait_log xc.log "running;" 1 20 || { fail "xcable did not start"; return 1; }
	grep -q "lcore 0 forwards 2 direction" xc.log && grep -q "lcore 1 forwards 2 direction" xc.log ||
		{ grep "forwards" xc.log; fail "cable A is not on lcore 1 and B on the main lcore 0"; return 1; }
	"$VHOSTILE" "$T/a-l.sock" "$T/a-r.sock" iotlb-storm >case.out 2>&1 &
	vp=$!
	wait_log case.out "^  storm" 1 20 || { cat case.out; fail "vhostile did not start its IOTLB messages"; return 1; }
	sleep 0.5
	a=$(fwd_ticks) m0=$(cpu_ticks "$XC_PID/task/$XC_PID"); sleep 2; b=$(fwd_ticks) m1=$(cpu_ticks "$XC_PID/task/$XC_PID")
	wait_log case.out "^  quiet" 1 10 || { cat case.out; fail "vhostile did not stop its IOTLB messages"; return 1; }
	sleep 0.5
	c=$(fwd_ticks); sleep 2; d=$(fwd_ticks)
	wait_exit "$vp" 20 vhostile || { fail "vhostile did not finish"; return 1; }
	wait "$vp" || { sed 's/^/  vhostile: /' case.out; fail "vhostile iotlb-storm failed"; return 1; }
	sed 's/^/  vhostile: /' case.out | grep -v -e storm -e quiet
	hz=$(getconf CLK_TCK)
	storm=$(( (b - a) * 100 / hz / 2 )) quiet=$(( (d - c) * 100 / hz / 2 ))
	main=$(( (m1 - m0) * 100 / hz / 2 ))
	say "xcable's threads but the vhost event thread: ${storm}% of a core during the IOTLB messages (its main thread ${main}%), ${quiet}% after"
	[ "$storm" -ge 50 ] || { fail "the lcore slept while a guest's IOTLB messages came"; return 1; }
	[ "$main" -le 3 ] || { fail "the IOTLB messages woke the main lcore, which forwards none of that guest's frames"; return 1; }
	[ "$quiet" -le 5 ] || { fail "the lcore kept polling after the IOTLB messages stopped"; return 1; }
	good A && good B || { fail "the cables do not forward after it"; return 1; }
	xc_stop
	[ "$XC_RC" = 0 ] || { fail "xcable exited with $XC_RC"; return 1; }
	check_accounted xc.log || { fail "frames not accounted for"; return 1; }
}
TESTS+=(t_iommu_iotlb_polls)
ONCE+=(t_iommu_iotlb_polls)	# measures CPU; --iommu's code runs under the sanitizers in t_hostile_*iommu*
SAN_ONCE+=(t_hostile_connect_cycles)	# a thousand reconnections; t_hostile_connect_cycles_propagation runs them on build/

# lying virtio-net headers: besides the common checks, xcable must have
# refused the lies it can see (bad-offload, too-big)
t_hostile_lying_offload() {
	local refused
	hostile_case lying-offload || return 1
	refused=$(( $(counter xc.log "A left->right" bad-offload) + $(counter xc.log "A left->right" too-big) ))
	say "refused as bad-offload or too-big: $refused of 300"
	[ "$refused" -gt 0 ] || fail "no lying header was refused"
}
TESTS+=(t_hostile_lying_offload)

# xcable's guards said what they did
t_hostile_mem_guard_logged() {
	hostile_case mem-beyond-file || return 1
	grep -q "access(es) past its end, given zero pages" xc.log ||
		{ fail "the SIGBUS guard did not report the fault"; return 1; }
	say "logged: $(grep -o "[0-9]* access(es) past its end" xc.log | head -n 1)"
	hostile_case mem-table-bad || return 1
	grep -q "closed fd .*never closed" xc.log ||
		{ fail "the fd guard did not report the leaked fds"; return 1; }
	say "logged: $(grep -c "closed fd .*never closed" xc.log) leaked guest memory fd(s) closed"
}
TESTS+=(t_hostile_mem_guard_logged)

# a thousand connections with link propagation on: a completed handshake
# on A's left end that xcable sees come and go takes A's right end down
# and plugs it in again
t_hostile_connect_cycles_propagation() {
	local n lines held
	# every 100th cycle the end stays away 500 ms (propagation acts on an
	# end gone for 300 ms; shorter absences are a driver's reset)
	hostile_case connect-cycles:500 yes || return 1
	n=$(grep -c "went away: taking" xc.log)
	say "carrier taken from the other end $n times, given back $(grep -c "is back: plugging" xc.log) times"
	[ "$n" -gt 0 ] || { fail "link propagation never acted"; return 1; }
	# a guest that connects in a loop does not fill the log (t_logs.sh)
	read -r lines held <<<"$(logged_and_held xc.log "($T/a-l.sock): link up")"
	say "A's left came up $((lines + held)) times: $lines lines logged, $held held back and said so"
	[ "$held" -gt 0 ] && [ "$lines" -le $((4 * RL_BURST)) ] || fail "the connect loop's link-up lines were not limited"
}
TESTS+=(t_hostile_connect_cycles_propagation)
ONCE+=(t_hostile_connect_cycles_propagation)	# timing of propagation; t_hostile_connect_cycles runs under the sanitizers

# guests behind a vIOMMU (xcable offering IOMMU support): a good pair whose
# every address goes through the IOTLB, and hostile IOTLB messages
for c in good-iommu iotlb-bad; do
	f=t_hostile_${c//-/_}
	eval "$f() { HOSTILE_IOMMU=yes hostile_case $c; }"
	TESTS+=("$f")
done
unset c f
SAN_ONCE+=(t_hostile_connect_cycles)	# a thousand reconnections; t_hostile_connect_cycles_propagation runs them on build/
