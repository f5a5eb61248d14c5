# SPDX-License-Identifier: BSD-3-Clause
# tests/t_shape.sh - the shape of the code, as doc/development.md's Layout promises it
# (sourced by tests/run; each t_* function is one test)

# t_code_shape - what a newcomer is promised: no function in app/ longer
# than 100 lines, main.c at most 400 lines, the data model (cable.h,
# port.h) depending on nothing above it, the vhost library used by the
# vhost port kind alone, and no include circles between modules
t_code_shape() {
	local ok=0 long n inc vh
	long=$(for f in "$TOP"/app/*.c; do
		awk -v F="${f##*/}" '
			/^[a-zA-Z].*\(/ && !/;$/ { name = $0; start = NR }
			/^}/ && start { if (NR - start > 100) printf "%s:%d (%d lines) %s\n", F, start, NR - start, name; start = 0 }
		' "$f"; done)
	if [ -n "$long" ]; then
		fail "functions longer than 100 lines:"; echo "$long" | sed 's/^/    /'; ok=1
	else
		say "no function in app/ is longer than 100 lines"
	fi
	n=$(wc -l <"$TOP/app/main.c")
	say "app/main.c: $n lines (at most 400)"
	[ "$n" -le 400 ] || { fail "main.c has grown past 400 lines"; ok=1; }
	inc=$(grep -h '^#include "' "$TOP/app/cable.h" "$TOP/app/port.h" \
		"$TOP/app/caps.h" "$TOP/app/bounds.h" |
		grep -v -E '"(bounds|caps|port)\.h"')
	if [ -n "$inc" ]; then
		fail "the model includes headers above it: $inc"; ok=1
	else
		say "cable.h and port.h include only bounds.h, caps.h and port.h"
	fi
	# code lines only: comments may name the library
	vh=$(grep -H -E 'rte_vhost_|rte_eth_vhost_|is_vhost' "$TOP"/app/*.[ch] |
		grep -v -E '^[^:]*:[[:space:]]*(\*|/\*)' |
		grep -v -E '^[^:]*/port_vhost\.c:' | cut -d: -f1 | sort -u)
	if [ -n "$vh" ]; then
		fail "vhost calls or checks outside port_vhost.c: $vh"; ok=1
	else
		say "the vhost library is called from port_vhost.c only"
	fi
	# a module is FILE.c with FILE.h; modules include each other in one
	# direction only
	inc=$(/usr/bin/python3 - "$TOP/app" <<'PY'
import glob, os, re, sys
mods = {}
for f in glob.glob(os.path.join(sys.argv[1], "*.[ch]")):
    m = os.path.basename(f).rsplit(".", 1)[0]
    incs = set(re.findall(r'^#include "([^"]+)\.h"', open(f).read(), re.M))
    mods.setdefault(m, set()).update(incs - {m})
def reach(a):
    seen, todo = set(), [a]
    while todo:
        for y in mods.get(todo.pop(), ()):
            if y not in seen:
                seen.add(y)
                todo.append(y)
    return seen
print(" ".join(sorted({"%s<->%s" % tuple(sorted((a, b))) for a in mods for b in mods[a] if a in reach(b)})))
PY
)
	if [ -n "$inc" ]; then
		fail "modules that include each other (directly or through others): $inc"; ok=1
	else
		say "no two modules of app/ include each other, directly or through others ($(ls "$TOP"/app/*.[ch] | wc -l) files)"
	fi
	return $ok
}
TESTS+=(t_code_shape)
