# SPDX-License-Identifier: BSD-3-Clause
# tests/t_shape.sh - the shape of the code, as doc/development.md's Layout promises it
# (sourced by tests/run; each t_* function is one test)

# t_code_shape - what a newcomer is promised: no function in app/ longer
# than 100 lines, main.c at most 400 lines; app/'s folders in layers
# (app/meson.build's xc_dirs, bottom first), each file including only
# headers of its own folder or of folders below it, a kind's headers
# included by kinds alone, no include circles; no kind named outside
# kinds/ (in code: comments and strings for people may give examples);
# the vhost library called by the vhost port kind alone
t_code_shape() {
	local ok=0 long n out
	long=$(for f in "$TOP"/app/*.c "$TOP"/app/*/*.c; do
		awk -v F="${f#"$TOP"/app/}" '
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
	out=$(/usr/bin/python3 - "$TOP/app" <<'PY'
import glob, os, re, sys
app = sys.argv[1]
layers = re.search(r"xc_dirs = \[([^\]]*)\]", open(os.path.join(app, "meson.build")).read()).group(1)
layers = [d.strip().strip("'") for d in layers.split(",") if d.strip()]
rank = {d: i for i, d in enumerate(layers)}
rank[""] = len(layers)			# main.c, xcablectl.c: on top
where, incs, files = {}, {}, []
for f in glob.glob(os.path.join(app, "*.[ch]")) + glob.glob(os.path.join(app, "*", "*")):
    if not re.search(r"\.(c|h|def)$", f):
        continue
    rel = os.path.relpath(f, app)
    d = os.path.dirname(rel)
    if d not in rank:
        print("FAIL %s: in a folder that is no layer of app/meson.build" % rel)
        continue
    where[os.path.basename(rel)] = d
    files.append((rel, d))
bad = []
for rel, d in files:
    text = open(os.path.join(app, rel)).read()
    incs[rel] = re.findall(r'^#include "([^"]+)"', text, re.M)
    for h in incs[rel]:
        if h not in where:
            bad.append("%s includes %s, which app/ has not" % (rel, h))
        elif rank[where[h]] > rank[d]:
            bad.append("%s (%s) includes %s (%s), a layer above" % (rel, d or "top", h, where[h]))
        elif where[h] == "kinds" and d != "kinds":
            bad.append("%s includes %s, a kind's own header" % (rel, h))
for b in bad:
    print("FAIL " + b)
print("ok layers, bottom first: %s; %d files include downward only, kinds' headers from kinds/ alone" % (" ".join(layers), len(files)))
# circles between modules (FILE.c with FILE.h)
mods = {}
for rel, d in files:
    m = os.path.basename(rel).rsplit(".", 1)[0]
    mods.setdefault(m, set()).update(h.rsplit(".", 1)[0] for h in incs[rel] if h.endswith(".h"))
    mods[m].discard(m)
def reach(a):
    seen, todo = set(), [a]
    while todo:
        for y in mods.get(todo.pop(), ()):
            if y not in seen:
                seen.add(y)
                todo.append(y)
    return seen
circ = sorted({"%s<->%s" % tuple(sorted((a, b))) for a in mods for b in mods[a] if a in reach(b)})
print(("FAIL modules that include each other: " + " ".join(circ)) if circ else
      "ok no two modules include each other, directly or through others")
# kinds named outside kinds/: identifiers only (comments and strings
# stripped); the one-line lists of kinds (*.def) name them by design.
# A name no other word contains is not in any identifier; every kind of
# the lists (socket, port and loop are words of the model too) in none
# of a kind's own symbols: xc_kind_NAME, xc_kind_def_NAME,
# XC_KIND_ID_NAME, xc_end_NAME..., xc_end_def_NAME..., xc_port_NAME_...
names = ["trunk", "vxlan", "netdev", "vhost", "af_packet", "af_xdp"]
ends = re.findall(r"^XC_END_KIND\((\w+)\)", open(os.path.join(app, "defs", "endkinds.def")).read(), re.M)
ports = re.findall(r"^XC_PORT_KIND\((\w+)\)", open(os.path.join(app, "model", "portkinds.def")).read(), re.M)
own = re.compile(r"^(?:xc_kind_(?:def_|id_)?|xc_end_(?:def_)?)(?:%s)(?:_|$)|^xc_port_(?:%s)_" %
                 ("|".join(ends), "|".join(ports)), re.I)
def code(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"^#include [<\"].*$", "", text, flags=re.M)
named = []
for rel, d in files:
    if d == "kinds" or rel.endswith(".def"):
        continue
    for i, line in enumerate(code(open(os.path.join(app, rel)).read()).split("\n"), 1):
        for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", line):
            if any(n in w.lower() for n in names) or own.search(w):
                named.append("%s:%d %s" % (rel, i, w))
print(("FAIL kinds named outside kinds/: " + ", ".join(named[:20])) if named else
      "ok no file outside kinds/ names a kind in its code (%s; the symbols of %s)" % (", ".join(names), ", ".join(ends + ports)))
# the vhost library: the vhost port kind's alone
vh = [rel for rel, d in files
      if rel != "kinds/port_vhost.c" and re.search(r"\brte_(eth_)?vhost_|<rte_vhost\.h>|<rte_eth_vhost\.h>", re.sub(r"/\*.*?\*/", "", open(os.path.join(app, rel)).read(), flags=re.S))]
print(("FAIL the vhost library used outside kinds/port_vhost.c: " + " ".join(vh)) if vh else
      "ok the vhost library is used by kinds/port_vhost.c alone")
PY
)
	echo "$out" | sed -E 's/^ok /  /; s/^FAIL /  FAIL: /'
	echo "$out" | grep -q "^FAIL" && ok=1
	return $ok
}
TESTS+=(t_code_shape)
