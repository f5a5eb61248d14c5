# SPDX-License-Identifier: BSD-3-Clause
# tests/t_package.sh - xcable as operators install it: the Debian package
# built from the tree, installed, a lab run as the service xcable@lab
# (under systemd where it runs, else the unit's own command and
# environment, by hand), frames through it, a reload, a stop, and the
# package removed without a trace.
# (sourced by tests/run; each t_* function is one test)

# pkg_unit_value KEY - a setting of the installed xcable@.service
pkg_unit_value() { sed -nE "s/^$1=(.*)/\\1/p" /lib/systemd/system/xcable@.service | tail -n 1; }

# pkg_gone - purge the package (a test that failed half-way included)
pkg_gone() { apt-get purge -y -qq xcable >/dev/null 2>&1; rm -f /etc/xcable/lab.ini; }

# pkg_notify_listen SOCK OUT - collect what a service sends to the
# notification socket SOCK, one message a line, in OUT, until killed
pkg_notify_listen() {
	/usr/bin/python3 - "$1" "$2" <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a", buffering=1) as out:
    while True:
        out.write(s.recv(4096).decode().replace("\n", " ") + "\n")
PY
	PKG_NL=$!
	XC_PIDS+=("$PKG_NL")
}

PKG_DROPIN=/usr/share/doc/xcable/examples/netdev-namespaces.conf

# pkg_verify_unit - systemd-analyze verify on the installed unit, alone
# and with the netdev drop-in (for one instance, removed after)
pkg_verify_unit() {
	local d=/etc/systemd/system/xcable@verify.service.d
	if ! command -v systemd-analyze >/dev/null; then
		say "systemd-analyze is not installed: the unit is not verified"
		return 0
	fi
	systemd-analyze verify /lib/systemd/system/xcable@.service >verify.out 2>&1 ||
		{ cat verify.out; fail "systemd-analyze verify finds fault with xcable@.service"; return 1; }
	mkdir -p "$d" && cp "$PKG_DROPIN" "$d/"
	systemd-analyze verify xcable@verify.service >verify.out 2>&1; local rc=$?
	rm -rf "$d"
	[ $rc = 0 ] || { cat verify.out; fail "systemd-analyze verify finds fault with the netdev drop-in"; return 1; }
	say "systemd-analyze verify: xcable@.service, and with the netdev drop-in, no fault"
}

# pkg_caps FILE - the ambient capabilities a drop-in grants, as setpriv
# takes them (+net_raw,+sys_admin)
pkg_caps() {
	sed -nE 's/^AmbientCapabilities=(.+)/\1/p' "$1" | tr ' ' '\n' |
		sed -nE 's/^CAP_([A-Z_]+)$/+\L\1/p' | paste -sd, -
}

# pkg_netdev_lab SD - the lab "ns" has netdev ends in another network
# namespace, named by its path and by a process's ID: the unit alone
# cannot start it, for want of a capability; with the shipped drop-in
# it runs and both ends are up. Under systemd the unit and the drop-in
# themselves; without, the unit's command as its user with no
# capability, then with the drop-in's (its RestrictNamespaces=net, a
# seccomp filter, is checked only under systemd)
pkg_netdev_lab() {
	local sd=$1 ns=pkg-${T##*/} sp exec env caps pid i dd=/etc/systemd/system/xcable@ns.service.d
	ip netns add "$ns" && ip -n "$ns" link add w1 type veth peer name w2 &&
		ip -n "$ns" link set w1 up && ip -n "$ns" link set w2 up ||
		{ fail "cannot make the namespace $ns"; return 1; }
	ip netns exec "$ns" sleep 600 & sp=$!
	XC_PIDS+=("$sp")
	printf '[cable bypath]\nleft = /run/xcable/ns-a.sock\nright-netdev = w1\nright-netns = /run/netns/%s\n[cable bypid]\nleft = /run/xcable/ns-b.sock\nright-netdev = w2\nright-netns = %s\n' \
		"$ns" "$sp" >/etc/xcable/ns.ini
	if [ $sd = 1 ]; then
		systemctl start xcable@ns 2>/dev/null && { systemctl stop xcable@ns; fail "the unit alone started the netdev lab"; return 1; }
		say "without the drop-in: $(journalctl -u xcable@ns -n 20 | grep -m1 -oE 'cable [a-z]+: right: .*')"
		mkdir -p "$dd" && cp "$PKG_DROPIN" "$dd/" && systemctl daemon-reload
		systemctl start xcable@ns || { journalctl -u xcable@ns | tail -n 10; fail "the netdev lab did not start with the drop-in"; return 1; }
	else
		exec=$(pkg_unit_value ExecStart | sed 's/%i/ns/g')
		env=$(pkg_unit_value Environment)
		env "$env" setpriv --reuid=xcable --regid=xcable --clear-groups $exec >ns0.log 2>&1 &&
			{ fail "the unit's command started the netdev lab with no capability"; return 1; }
		say "the unit's command, no capability: $(grep -m1 -oE 'cable [a-z]+: right: .*' ns0.log)"
		grep -qE "needs CAP_(NET_RAW|SYS_ADMIN)" ns0.log || { cat ns0.log; fail "not refused for want of a capability"; return 1; }
		caps=$(pkg_caps "$PKG_DROPIN")
		env "$env" setpriv --reuid=xcable --regid=xcable --clear-groups \
			--inh-caps "$caps" --ambient-caps "$caps" $exec >ns.log 2>&1 &
		pid=$!
		XC_PIDS+=("$pid")
		say "the unit's command with the drop-in's capabilities ($caps)"
	fi
	for ((i = 0; i < 100; i++)); do
		/usr/bin/xcablectl -s /run/xcable/ns.ctl list >ns-list.out 2>&1 &&
			[ "$(grep -cE '^by(path|pid): .* up$' ns-list.out)" = 2 ] && break
		sleep 0.1
	done
	say "$(grep -E '^by(path|pid):' ns-list.out | tr '\n' ' ')"
	[ $i -lt 100 ] || { cat ns-list.out ns.log 2>/dev/null | tail -n 10; fail "the netdev ends did not come up"; return 1; }
	if [ $sd = 1 ]; then
		systemctl stop xcable@ns; rm -rf "$dd"; systemctl daemon-reload
	else
		kill -TERM "$pid"; wait "$pid"
	fi
	rm -f /etc/xcable/ns.ini
	kill "$sp"; ip netns del "$ns"
}

# pkg_prerm_stops - without systemd here, the package's prerm run where
# it would think systemd runs (a private /run with /run/systemd/system)
# against a stand-in systemctl, and no policy-rc.d (DPKG_ROOT: one that
# forbids service actions, as in containers, is obeyed): on remove it
# stops every xcable@ instance, on upgrade none
pkg_prerm_stops() {
	mkdir -p "$T/fake" "$T/root" && printf '#!/bin/sh\necho "$*" >>%s/systemctl.calls\n' "$T" >"$T/fake/systemctl" &&
		chmod +x "$T/fake/systemctl"
	for a in "upgrade 0.1.0" remove; do
		unshare -m --propagation private sh -c 'mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/system &&
			DPKG_ROOT=$2 PATH="$1:$PATH" sh /var/lib/dpkg/info/xcable.prerm $3' _ "$T/fake" "$T/root" "$a" ||
			{ fail "the prerm failed ($a)"; return 1; }
		echo "after $a" >>"$T/systemctl.calls"
	done
	say "prerm with a stand-in systemctl: $(tr '\n' ';' <"$T/systemctl.calls")"
	[ "$(cat "$T/systemctl.calls")" = "after upgrade 0.1.0
stop xcable@*.service
after remove" ] || { fail "the prerm does not stop the labs on remove (and only then)"; return 1; }
}

# the package builds (dpkg-buildpackage -b), lintian checks it and finds
# no error, apt-get installs it with what it needs, systemd-analyze
# verify finds no fault in its unit; xcable@lab runs the lab of
# /etc/xcable/lab.ini as user xcable, says READY=1, carries the frame
# catalogue both ways, applies a changed config on reload (READY=1 again);
# a lab of netdev ends in another namespace runs with the shipped
# drop-in and not without; removing the package stops the running lab
# (its prerm); apt-get purge leaves none of its files, /etc/xcable nor
# /run/xcable (only the system user, which Debian policy keeps)
t_package_install() {
	local v files sd=0 exec env pid rc left
	dpkg -s xcable >/dev/null 2>&1 && { fail "xcable is installed already: not touching it"; return 1; }
	mkdir src && (cd "$TOP" && git ls-files -co --exclude-standard -z | xargs -0 tar cf -) | tar xf - -C src ||
		{ fail "cannot copy the tree"; return 1; }
	(cd src && dpkg-buildpackage -us -uc -b) >build.log 2>&1 ||
		{ tail -n 20 build.log; fail "dpkg-buildpackage failed"; return 1; }
	v=$(ls xcable_*_*.deb) || { fail "no package built"; return 1; }
	say "built $v ($(du -k "$v" | cut -f1) kB): $(dpkg-deb -f "$v" Depends | cut -c1-90)..."
	# lintian's status: 0 no error, 1 errors, anything else it did not
	# check (a missing lintian fails too: scripts/setup installs it)
	command -v lintian >/dev/null || { fail "lintian is not installed: the package is unchecked"; return 1; }
	lintian --allow-root "$v" >lintian.out 2>&1; rc=$?
	[ $rc = 1 ] || grep -q '^E:' lintian.out && { cat lintian.out; fail "lintian finds errors"; return 1; }
	[ $rc = 0 ] || { tail -n 5 lintian.out; fail "lintian did not check the package (exit $rc)"; return 1; }
	say "lintian (exit 0): $(grep -c '^E:' lintian.out) errors, $(grep -c '^W:' lintian.out) warnings $(grep '^W:' lintian.out | cut -d' ' -f3 | paste -sd' ' -)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "./$v" >install.log 2>&1 ||
		{ tail -n 10 install.log; pkg_gone; fail "apt-get install failed"; return 1; }
	files=$(dpkg -L xcable)
	for f in /usr/bin/xcable /usr/bin/xcablectl /lib/systemd/system/xcable@.service \
		 /usr/share/bash-completion/completions/xcablectl /usr/share/man/man1/xcable.1.gz \
		 /usr/share/doc/xcable/examples/one-link.ini "$PKG_DROPIN" \
		 /usr/lib/x86_64-linux-gnu/wireshark/extcap/xcable-extcap; do
		[ -e "$f" ] || { pkg_gone; fail "$f is not installed"; return 1; }
	done
	pkg_verify_unit || { pkg_gone; return 1; }
	id xcable >/dev/null 2>&1 || { pkg_gone; fail "no system user xcable"; return 1; }
	say "installed: $(echo "$files" | wc -l) paths, user $(id xcable | cut -d' ' -f1-2); $(/usr/bin/xcable --version)"
	# the lab: the example, and its cables' sockets where the unit serves
	cp /usr/share/doc/xcable/examples/one-link.ini /etc/xcable/lab.ini
	[ "$(ps -p 1 -o comm=)" = systemd ] && systemctl is-system-running >/dev/null 2>&1 && sd=1
	if [ $sd = 1 ]; then
		say "systemd runs here: systemctl start xcable@lab"
		systemctl start xcable@lab || { journalctl -u xcable@lab | tail -n 20; pkg_gone; fail "the service did not start"; return 1; }
		pid=$(systemctl show -p MainPID --value xcable@lab)
	else
		# no systemd: the unit's own command, user and environment
		exec=$(pkg_unit_value ExecStart | sed 's/%i/lab/g')
		env=$(pkg_unit_value Environment)
		say "no systemd here (pid 1 is $(ps -p 1 -o comm=)): the unit's ExecStart by hand, as $(pkg_unit_value User), with $env and NOTIFY_SOCKET"
		install -d -o xcable -g xcable /run/xcable
		chmod o+x "$T" && mkdir -m 0755 "$T/n"
		pkg_notify_listen "$T/n/notify.sock" notify.out
		for ((rc = 0; rc < 30; rc++)); do [ -S "$T/n/notify.sock" ] && break; sleep 0.1; done
		chmod 0666 "$T/n/notify.sock"
		env "$env" NOTIFY_SOCKET="$T/n/notify.sock" \
			setpriv --reuid=xcable --regid=xcable --clear-groups $exec >xc.log 2>&1 &
		pid=$!
		XC_PIDS+=("$pid")
		wait_log notify.out "READY=1" 1 30 || { cat xc.log; pkg_gone; fail "no READY=1 from xcable"; return 1; }
		say "notified: $(head -n 1 notify.out)"
	fi
	[ "$(stat -c %U /run/xcable/vm-a.sock)" = xcable ] || { pkg_gone; fail "the sockets are not the service user's"; return 1; }
	# the frames go once xcable says both ends are up (as a user would
	# check with xcablectl), not as soon as the frontend's own link is
	"$XCPEER" $(peer_eal /run/xcable/vm-a.sock /run/xcable/vm-b.sock) -- frames --rounds 1 \
		--wait-file "$T/go" >peer.log 2>&1 &
	rc=$!
	for ((v = 0; v < 300; v++)); do
		/usr/bin/xcablectl -s /run/xcable/lab.ctl list 2>/dev/null | grep -qE '^link1: [a-z-]+ up, [a-z-]+ up' && break
		sleep 0.1
	done
	touch "$T/go"
	[ $v -lt 300 ] || { kill $rc; pkg_gone; fail "xcablectl list never showed both ends of link1 up"; return 1; }
	wait $rc || { tail -n 5 peer.log; /usr/bin/xcablectl -s /run/xcable/lab.ctl list; pkg_gone; fail "frames did not cross the packaged lab"; return 1; }
	say "$(grep catalogue peer.log)"
	# Wireshark's extcap interface, installed, lists the service's cables
	/usr/lib/x86_64-linux-gnu/wireshark/extcap/xcable-extcap --extcap-interfaces >extcap.out 2>&1
	grep -q '^interface {value=xcable:lab:link1:left}' extcap.out ||
		{ cat extcap.out; pkg_gone; fail "the installed xcable-extcap does not list link1"; return 1; }
	say "xcable-extcap --extcap-interfaces: $(grep -c '^interface' extcap.out) interfaces, $(grep -m1 -o 'xcable:lab:link1:left' extcap.out) among them"
	# reload: one more cable in the file
	printf '[cable link2]\nleft = /run/xcable/vm-c.sock\nright = /run/xcable/vm-d.sock\n' >>/etc/xcable/lab.ini
	if [ $sd = 1 ]; then
		systemctl reload xcable@lab
	else
		kill -HUP "$pid"	# the unit's ExecReload
		wait_log notify.out "READY=1" 2 20 || { pkg_gone; fail "no READY=1 after the reload"; return 1; }
	fi
	for ((rc = 0; rc < 50; rc++)); do
		[ -S /run/xcable/vm-c.sock ] && break
		sleep 0.1
	done
	/usr/bin/xcablectl -s /run/xcable/lab.ctl list >list.out 2>&1
	say "after the reload: $(grep -oE '^[a-z0-9]+:' list.out | tr '\n' ' ')"
	[ "$(grep -cE '^link[12]:' list.out)" = 2 ] || { cat list.out; pkg_gone; fail "the reload did not add link2"; return 1; }
	pkg_netdev_lab $sd || { pkg_gone; return 1; }
	# removal stops a running lab first (prerm), under systemd; here,
	# the lab is stopped by hand and the prerm tried on its own
	if [ $sd = 0 ]; then
		kill -TERM "$pid"; wait "$pid"; rc=$?
		grep -q "STOPPING=1" notify.out || say "(no STOPPING=1 seen)"
		[ "$rc" = 0 ] || { tail -n 5 xc.log; pkg_gone; fail "the service stopped with $rc"; return 1; }
		pkg_prerm_stops || { pkg_gone; return 1; }
	fi
	rm -f /etc/xcable/lab.ini	# the admin's, not the package's
	DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq xcable >purge.log 2>&1 ||
		{ cat purge.log; fail "apt-get purge failed"; return 1; }
	if [ $sd = 1 ]; then
		systemctl is-active -q xcable@lab && { fail "xcable@lab still runs after the package was removed"; return 1; }
		pgrep -u xcable xcable && { fail "xcable processes left after the package was removed"; return 1; }
		say "apt-get purge stopped the running xcable@lab first"
	fi
	# its files, and the directories that are its alone
	left=$(for f in $files /etc/xcable /run/xcable /usr/share/doc/xcable; do
		[ -e "$f" ] && { [ ! -d "$f" ] || [[ $f == */xcable ]]; } && echo "$f"; done)
	[ -z "$left" ] || { fail "left behind after purge: $left"; return 1; }
	say "purged: none of its files, /etc/xcable nor /run/xcable left; the system user xcable stays, as Debian policy has it"
}
TESTS+=(t_package_install)
ONCE+=(t_package_install)	# builds and installs the package itself

# xcablectl's bash completion: commands, cable names from the running
# xcable (through the -s given), add's keys from xcable --help, impair's
# directions and keys
t_xcablectl_completion() {
	local out
	printf '[cable alpha]\nleft = %s\nright = %s\n[cable beta]\nleft = %s\nright = %s\n' \
		"$T/a.sock" "$T/b.sock" "$T/c.sock" "$T/d.sock" >c.ini
	xc_start xc.log --config c.ini --control "$T/x.ctl"
	wait_log xc.log "running;" 1 30 || { fail "xcable did not start"; return 1; }
	out=$(PATH="$BUILD/app:$PATH" bash -c '
		. "$1/config/xcablectl.bash"
		t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _xcablectl; echo "${COMPREPLY[*]}"; }
		t xcablectl re
		t xcablectl -s "$2" show ""
		t xcablectl -s "$2" del b
		t xcablectl -s "$2" add x left-cl
		t xcablectl -s "$2" impair alpha to-' _ "$TOP" "$T/x.ctl")
	say "completions: $(echo "$out" | tr '\n' '|')"
	[ "$out" = "reload
alpha beta
beta
left-client=
to-right to-left" ] || { fail "completion gave something else"; return 1; }
	xc_stop
}
TESTS+=(t_xcablectl_completion)
