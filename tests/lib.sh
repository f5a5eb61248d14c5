# SPDX-License-Identifier: BSD-3-Clause
# tests/lib.sh - helpers shared by xcable's test scripts (sourced)
#
# Every test is a shell function that returns 0 on success. It says what
# it checked with `say`, and explains a failure with `fail` (which returns 1).

XC=${XC:-$BUILD/app/xcable}
XCPEER=${XCPEER:-$BUILD/tests/xcpeer}
XC_PIDS=()

# what a guest's kernel prints when it crashes or finds itself broken
# ("BUG: scheduling while atomic" was seen, in a CI-like run, on a moved
# guest that then never finished); a grep pattern; the migration tests
# and scripts/bench --migrate look for it
GUEST_CRASH='Kernel panic\|kernel BUG at\|BUG: \|Oops: \|general protection fault'

# MIG_RAM - the RAM of a guest that moves (tests/t_migrate.sh, scripts/bench
# --migrate): 256 MB less 8 KB. QEMU 7.2 under TCG loses writes a guest
# makes while it moves if its RAM block's size is a multiple of 256 KB (64
# pages): each pass takes the block's dirty bits a
# 64-page word at a time (cpu_physical_memory_sync_dirty_bitmap()'s fast
# path) without marking the vCPUs' TLB entries not dirty again, so a page
# the guest had written before keeps being written through an entry that
# sets no dirty bit, and the destination gets an old copy. Any other size
# takes the page-by-page path, which marks them. Measured with and without
# vhost-user (scripts/bench --migrate --migrate-ram-check, doc/migration.md)
MIG_RAM=262136k

say()  { echo "  $*"; }
fail() { echo "  FAIL: $*"; return 1; }

# ensure_hugepages N - make sure N free 2 MiB pages exist (the virtio_user
# frontends of the tests need them; xcable itself does not). Frontends of
# the test before may still be exiting with theirs, and a fragmented
# memory may give fewer new pages than asked: so it compacts the memory,
# asks again and waits, for up to 10 s
ensure_hugepages() {
	local want=$1 free total i
	for i in $(seq 1 20); do
		free=$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)
		[ "$free" -ge "$want" ] && return 0
		total=$(cat /proc/sys/vm/nr_hugepages)
		[ -w /proc/sys/vm/compact_memory ] && echo 1 > /proc/sys/vm/compact_memory
		echo $((total + want - free)) > /proc/sys/vm/nr_hugepages
		free=$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)
		[ "$free" -ge "$want" ] && return 0
		sleep 0.5
	done
	echo "  hugepages: $free free of $(cat /proc/sys/vm/nr_hugepages), $want wanted" >&2
	return 1
}

# stats_json LOG - the file an xcable logging to LOG writes its counters
# to (--stats-json): LOG with .json for .log, absolute
stats_json() {
	local f=${1%.log}.json
	case $f in /*) echo "$f" ;; *) echo "$PWD/$f" ;; esac
}

# xc_start LOG ARGS... - start xcable in the background, pid in $XC_PID
# (in network namespace $XC_NS if set);
# its counters also go to $(stats_json LOG) (added to ARGS after "--" in
# DPDK mode, or with xcable's own --left/--config; not to bare EAL options)
xc_start() {
	local log=$1 a own=0 sep=0; shift
	for a in "$@"; do
		case $a in
		--) sep=1 ;;
		--left|--left=*|--config|--config=*) own=1 ;;
		--stats-json|--stats-json=*) own=2; break ;;
		esac
	done
	rm -f "$(stats_json "$log")"
	if [ $own != 2 ] && [ $((own + sep)) -gt 0 ]; then
		set -- "$@" --stats-json "$(stats_json "$log")"
	fi
	${XC_NS:+ip netns exec "$XC_NS"} "$XC" "$@" >"$log" 2>&1 &
	XC_PID=$!
	XC_PIDS+=("$XC_PID")
}

# xc_stop - SIGTERM xcable and wait, at most 60 s; its exit status in
# $XC_RC (124 if it did not exit: its threads' stacks are in the log,
# and it is killed)
xc_stop() {
	kill -TERM "$XC_PID" 2>/dev/null
	wait_exit "$XC_PID" 60 "FAIL: xcable (pid $XC_PID) after SIGTERM"
	XC_RC=$?
}

# stacks PID... - what each thread of each PID is doing: its state and
# the kernel function it waits in, then its backtraces (gdb)
stacks() {
	local p t
	for p in "$@"; do
		[ -d "/proc/$p" ] || { echo "  stacks of $p: it is gone"; continue; }
		echo "  stacks of $p: $(tr '\0' ' ' <"/proc/$p/cmdline" | cut -c 1-200)"
		for t in /proc/"$p"/task/*; do
			echo "    thread ${t##*/} ($(cat "$t/comm" 2>/dev/null)): state $(awk '{ print $3 }' "$t/stat" 2>/dev/null), in $(cat "$t/wchan" 2>/dev/null)"
		done
		command -v gdb >/dev/null &&
		timeout 60 gdb -p "$p" -batch -nx -ex 'set pagination off' \
			-ex 'thread apply all bt 25' 2>&1 |
			grep -E '^(Thread|#)' | head -n 300 | sed 's/^/    /'
	done
}

# cpu_ticks PID[/task/TID] - user + system clock ticks a process (or one
# of its threads) used so far
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# cable_names XCABLECTL_ARGS... - the names of the cables an xcable lists
# (xcablectl -s SOCKET or -p PREFIX), sorted, on one line
cable_names() {
	"${XCTL:-$BUILD/app/xcablectl}" "$@" list --json 2>/dev/null |
	/usr/bin/python3 -c 'import json, sys; print(" ".join(sorted(json.load(sys.stdin)["cables"])))'
}

# wait_exit PID SECS WHAT - wait for the child PID to exit, at most SECS;
# returns its exit status, or 124 when it is still there: then "WHAT did
# not exit" and its stacks are printed, and it is killed. (Only kill -0
# asks: bash reaps an exited child as soon as it waits for any other,
# sleep here, and a look at /proc between the two would race with that.)
wait_exit() {
	local pid=$1 secs=$2 i
	for ((i = 0; i < secs * 10; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	# one more wait: a child that ended just now is reaped by it
	kill -0 "$pid" 2>/dev/null && sleep 0.2
	if kill -0 "$pid" 2>/dev/null; then
		echo "  $3 did not exit within $secs s"
		stacks "$pid"
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		return 124
	fi
	wait "$pid"
}

# wait_log FILE PATTERN COUNT SECONDS - wait until PATTERN occurs COUNT times
wait_log() {
	local file=$1 pat=$2 count=$3 secs=$4 i n
	for ((i = 0; i < secs * 10; i++)); do
		n=$(grep -c -- "$pat" "$file" 2>/dev/null)	# none yet: no file
		[ "${n:-0}" -ge "$count" ] && return 0
		sleep 0.1
	done
	return 1
}

# wait_ends_up LOG SECONDS LABEL... - wait until xcable logged "link up"
# for the end of each LABEL, by name (app/ports.c update_link: "xcable:
# LABEL (SOCKET): link up, VM connected; ..." for a vhost end, "xcable:
# LABEL: link up" for others): a count of "link up" lines can be reached
# while one end is still down if another logs twice; names the ends that
# never came up
wait_ends_up() {
	local file=$1 secs=$2 i l missing; shift 2
	for ((i = 0; i < secs * 10; i++)); do
		missing=
		for l in "$@"; do
			grep -qE -- "^xcable: $l( \([^)]*\))?: link up" "$file" 2>/dev/null ||
				missing="$missing $l"
		done
		[ -z "$missing" ] && return 0
		sleep 0.1
	done
	say "never up:$missing"
	return 1
}

# median VALUE... - the middle one of the values, numbers (integers or
# not) sorted by value; of an even count, the lower of the two middle ones
median() { printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"; }

# peer_eal SOCK... - EAL arguments for an xcpeer with one port per socket
# (append ",server=1" to a socket to make that port listen)
peer_eal() {
	local i=0 s
	echo -n "-l 0 --no-pci --in-memory --single-file-segments -m 96"
	echo -n " --log-level=lib.eal:warning --file-prefix=xcpeer$$_$RANDOM"
	for s in "$@"; do
		echo -n " --vdev=net_virtio_user$i,path=$s,queue_size=256"
		i=$((i + 1))
	done
}

# counter LOG DIR FIELD - a counter of a direction ("cable0 left->right")
# in the last counters xcable wrote to $(stats_json LOG); FIELD: a name of
# app/model/stats.c's table (rx-pkts, tx-pkts, dropped, peer-down, ...)
counter() {
	/usr/bin/python3 - "$(stats_json "$1")" "$2" "$3" <<'PY'
import json, sys
try:
    doc = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    sys.exit("counter: %s" % e)
cable, d = sys.argv[2].split(" ", 1)
try:
    print(doc["cables"][cable]["directions"][d]["counters"][sys.argv[3]])
except KeyError as e:
    sys.exit("counter: %s %s: no %s" % (sys.argv[2], sys.argv[3], e))
PY
}

# trunk_counter LOG TRUNK FIELD - the same for a trunk's counter
# (rx-pkts, unknown-tag, backlog, oerrors, imissed, ierrors)
trunk_counter() {
	/usr/bin/python3 - "$(stats_json "$1")" "$2" "$3" <<'PY'
import json, sys
try:
    print(json.load(open(sys.argv[1]))["trunks"][sys.argv[2]]["counters"][sys.argv[3]])
except (OSError, ValueError, KeyError) as e:
    sys.exit("trunk_counter: %s %s: %s" % (sys.argv[2], sys.argv[3], e))
PY
}

# check_dir_clean LOG DIR EXPECT - a direction carried EXPECT frames with
# no drop and nothing left over
check_dir_clean() {
	local rx tx dr
	rx=$(counter "$1" "$2" rx-pkts); tx=$(counter "$1" "$2" tx-pkts)
	dr=$(counter "$1" "$2" dropped)
	[ -n "$rx" ] || { fail "no counters for $2 in $(stats_json "$1")"; return 1; }
	say "$2: rx $rx tx $tx dropped $dr (expected $3 each, 0 dropped)"
	[ "$rx" = "$3" ] && [ "$tx" = "$3" ] && [ "$dr" = 0 ] ||
		fail "counters of $2 do not match"
}

# check_accounted LOG [N] - in every direction of every cable (N
# directions, default 4), each frame received was delivered or dropped
# with a reason: its "unaccounted" is 0 in $(stats_json LOG) (the balance
# of app/model/stats.c's counter table, xc_dir_unaccounted())
check_accounted() {
	/usr/bin/python3 - "$(stats_json "$1")" "${2:-4}" <<'PY'
import json, sys
try:
    doc = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    sys.exit("  check_accounted: %s" % e)
n, ok = 0, True
main = ("rx-pkts", "rx-bytes", "tx-pkts", "tx-bytes", "dropped")
for cable, c in doc["cables"].items():
    for d, v in c["directions"].items():
        k = v["counters"]
        rx, tx, dr = k["rx-pkts"], k["tx-pkts"], k["dropped"]
        good = v["unaccounted"] == 0
        ok &= good
        n += 1
        if rx or dr:
            print("  %s %s: rx %d, tx %d, dropped %d; other counters not 0: %s%s" % (cable, d, rx, tx, dr,
                  ", ".join("%s %d" % (w, x) for w, x in k.items() if x and w not in main) or "none",
                  "" if good else "  <- %d NOT ACCOUNTED" % v["unaccounted"]))
sys.exit(0 if ok and n == int(sys.argv[2]) else 1)
PY
}

# cleanup_all - kill whatever a test left running
cleanup_all() {
	local p
	for p in "${XC_PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	for p in "${XC_PIDS[@]}"; do wait "$p" 2>/dev/null; done
	XC_PIDS=()
	# network namespaces a test made (named after its directory)
	[ -n "${T:-}" ] &&
	for p in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -F -- "${T##*/}"); do
		ip netns pids "$p" 2>/dev/null | xargs -r kill -KILL
		ip netns del "$p"
	done
	pkill -KILL -f "$XCPEER" 2>/dev/null
	# guest RAM files a test kept (tests/t_migrate.sh's mig_ramfile)
	[ -n "${T:-}" ] && rm -f /dev/shm/xcable-"${T##*/}"-*.ram
	# mounts a test made in its directory (a test that failed early)
	[ -n "${T:-}" ] &&
	awk -v t="$T/" 'index($2, t) == 1 { print $2 }' /proc/mounts | xargs -r -n 1 umount -l
	true
}

# vm_start NAME SOCK MAC "KERNEL ARGS" [CHARDEV_OPTS] [DEVICE_OPTS] - boot a
# tiny guest (scripts/mkguest) under TCG whose only NIC is a vhost-user
# virtio-net on SOCK; its console goes to NAME.console, its pid to
# VM_PID[NAME]. CHARDEV_OPTS default to reconnect=1 (QEMU connects to
# xcable); "server=on,wait=off" makes QEMU listen instead. VM_SMP sets the
# vCPUs, VM_NETDEV extra -netdev options (queues=2); VM_TAP=IFNAME puts the
# NIC on that host tap interface instead (SOCK is then unused). VM_MACHINE
# is the machine type (default pc; q35 for a vIOMMU), VM_ARGS more QEMU
# arguments before the NIC (split on spaces: an intel-iommu device, say).
# VM_RAM is its RAM's size (default 256M), VM_RAMFILE=PATH keeps that RAM
# in a file there (shared, as a memfd is by default: tests/ramcmp.py
# compares two). VM_QMP=PATH gives it a QMP socket there (tests/qmp.py talks to it),
# VM_NS=NAME runs it in that network namespace. GUEST_KERNEL is the kernel
# (default scripts/mkguest's guest/kernel, a PVH vmlinux where it could
# make one; guest/vmlinuz is the bzImage).
declare -A VM_PID
QEMU_ACCEL=${QEMU_ACCEL:-tcg,thread=multi}

# vm_ram - QEMU's -object for a guest's RAM (id mem), VM_RAM big (default
# 256M) and shared, as vhost-user needs: a memfd, or the file VM_RAMFILE
# (scripts/bench boots its guests with it too)
vm_ram() {
	local mem=memory-backend-memfd
	[ -n "${VM_RAMFILE:-}" ] && mem=memory-backend-file,mem-path=$VM_RAMFILE
	echo "$mem,id=mem,size=${VM_RAM:-256M},share=on"
}

vm_start() {
	local name=$1 sock=$2 mac=$3 append=$4 chardev=${5:-reconnect=1} dev=${6:-}
	local net=(-chardev "socket,id=c0,path=$sock,$chardev"
		   -netdev "vhost-user,id=n0,chardev=c0${VM_NETDEV:+,$VM_NETDEV}")
	[ -n "${VM_TAP:-}" ] &&
		net=(-netdev "tap,id=n0,ifname=$VM_TAP,script=no,downscript=no")
	${VM_NS:+ip netns exec "$VM_NS"} \
	qemu-system-x86_64 -accel "$QEMU_ACCEL" -cpu max -smp "${VM_SMP:-1}" -m "${VM_RAM:-256M}" \
		-object "$(vm_ram)" \
		-machine "${VM_MACHINE:-pc},memory-backend=mem" ${VM_ARGS:-} \
		-nodefaults -display none -monitor none -no-reboot \
		${VM_QMP:+-qmp "unix:$VM_QMP,server=on,wait=off"} \
		-serial "file:$name.console" \
		-kernel "${GUEST_KERNEL:-$BUILD/guest/kernel}" -initrd "$BUILD/guest/initramfs.gz" \
		-append "console=ttyS0 quiet panic=-1 $append" \
		"${net[@]}" \
		-device "virtio-net-pci,netdev=n0,mac=$mac,vectors=0${dev:+,$dev}" \
		>"$name.qemu.log" 2>&1 &
	VM_PID[$name]=$!
	XC_PIDS+=("$!")
}

# vm_result NAME SECTION - the console text between XC-BEGIN and XC-END of
# SECTION; vm_rc NAME SECTION - its exit code (empty if it never ended)
vm_result() { tr -d '\r' <"$1.console" | sed -n "/^XC-BEGIN $2$/,/^XC-END $2 /p"; }
vm_rc() { sed -nE "s/^XC-END $2 rc=([0-9]+).*/\1/p" "$1.console" | tail -n 1; }
