#!/bin/bash
# The command line as a user meets it: usage errors, --help, exit codes,
# hostile trees, a full disk, a full stdout.  Usage: test_cli.sh BINARY SRCDIR
set -u
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'umount "$tmp/tiny" 2>/dev/null; rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../lib/tally.sh
. "$(dirname "$0")/../lib/tally.sh"

# expect RC CMD...: run with a time limit, keep stdout/stderr for later asserts
expect() {
	want=$1; shift
	timeout 20 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	got=$?
	if [ "$got" -eq "$want" ]; then ok; else bad "$* exited $got, wanted $want"; cat "$tmp/err"; fi
}
stderr_has() { if grep -q -- "$1" "$tmp/err"; then ok; else bad "stderr lacks '$1'"; cat "$tmp/err"; fi; }
stdout_has() { if grep -q -- "$1" "$tmp/out"; then ok; else bad "stdout lacks '$1'"; head "$tmp/out"; fi; }
valid_json() { if python3 -m json.tool "$tmp/out" >/dev/null 2>&1; then ok; else bad "not one JSON document: $1"; head -c 300 "$tmp/out"; fi; }

# usage
expect 2 "$bin";				stderr_has "usage:"
expect 0 "$bin" --help;				stdout_has "inventory"
expect 0 "$bin" --version;			stdout_has "rdmadoctor"
expect 2 "$bin" frobnicate;			stderr_has "unknown command 'frobnicate'"
expect 2 "$bin" --frob inventory;		stderr_has "unknown option"
expect 2 "$bin" --root;				stderr_has "needs a directory"
expect 2 "$bin" inventory extra;		stderr_has "unexpected argument 'extra'"
for c in inventory gids topo snapshot; do
	expect 0 "$bin" "$c" --help;		stdout_has "usage: rdmadoctor"
done
expect 2 "$bin" snapshot;			stderr_has "missing OUTDIR"

# the option tables: global options after the command, --opt=value and
# --opt value alike, "did you mean", and the dump for man pages/completion
fxd=$src/tests/fixtures/dgx-h100/root
expect 0 "$bin" inventory --root "$fxd" --json;	valid_json "global options after the command"
expect 0 "$bin" check --root="$fxd" --profile=dgx-h100 --json;	valid_json "--opt=value"
expect 0 "$bin" --root "$fxd" check --profile dgx-h100 -q;	stdout_has "profile dgx-h100"
expect 0 "$bin" --root "$fxd" check --color never --nhc
expect 2 "$bin" --color=purple inventory;	stderr_has "auto, always or never"
expect 2 "$bin" chek;				stderr_has "did you mean 'check'?"
expect 2 "$bin" check --profil x;		stderr_has "did you mean '--profile'?"
expect 2 "$bin" check --nhc=yes;		stderr_has "takes no value"
# a profile name with a typo: the built-in it is near (issue 43)
expect 2 "$bin" --root "$fxd" check --profile dgx-h10;	stderr_has "did you mean 'dgx-h100'?"
expect 2 "$bin" profiles show dgx-h10;		stderr_has "did you mean 'dgx-h100'?"
expect 2 "$bin" check --window;			stderr_has "needs a value"
if [ "$(wc -l <"$tmp/err")" -le 2 ]; then ok; else bad "a usage error printed $(wc -l <"$tmp/err") lines"; fi
expect 0 "$bin" --dump-options;			valid_json "--dump-options"
if python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cmds = {c["name"]: c for c in d["commands"]}
assert {o["long"] for o in d["global"]} >= {"root", "json", "color", "quiet", "verbose"}
assert "profile" in {o["long"] for o in cmds["check"]["options"]}
assert cmds["check"]["declared"] and cmds["inventory"]["options"] == []
# every command declares its option table (main.c has no row without one)
assert all(c["declared"] and isinstance(c["options"], list) for c in cmds.values())
PY
then ok; else bad "--dump-options lacks the tables"; fi

# arguments are looked at before the machine is read: with a root that
# cannot be opened (exit 3 if it were read), a bad argument is still exit 2
nr=$tmp/nope
expect 2 "$bin" --root "$nr" serve --listen 127.0.0.1:99999;	stderr_has "port from 0 to 65535"
expect 2 "$bin" --root "$nr" serve --listen localhost:9879;	stderr_has "names are not resolved"
expect 2 "$bin" --root "$nr" snapshot "$tmp/no/such/dir/snap";	stderr_has "its directory '$tmp/no/such/dir'"
expect 2 "$bin" --root "$nr" record --db "$tmp/f.db" --bw "$tmp/no-bw.json"
stderr_has "--bw '$tmp/no-bw.json': No such file or directory"
expect 2 "$bin" --root "$nr" record --db "$tmp/f.db" --fabric "$tmp"
stderr_has "--fabric '$tmp': Is a directory"
if [ -e "$tmp/f.db" ]; then bad "a refused record made its database"; else ok; fi
expect 2 "$bin" fleet --db "$tmp/f.db" --verdict passed ls;	stderr_has "give pass, warn or fail"
expect 2 "$bin" fleet --db "$tmp/f.db" report --html "$tmp/no/page.html"
stderr_has "its directory '$tmp/no'"
expect 2 "$bin" --root "$nr" bw server --devices mlx5_0,,mlx5_1;	stderr_has "joined by commas"
expect 2 "$bin" --root "$nr" bw server --device "";		stderr_has "needs a device name"
expect 2 "$bin" --root "$nr" fabric --rails mlx5_0,;		stderr_has "--rails 'mlx5_0,': give all"
expect 2 "$bin" --root "$nr" watch --interval 0;		stderr_has "give seconds"
expect 2 "$bin" --root "$nr" watch --netdev "eth 0";		stderr_has "give a netdev name"

expect 2 "$bin" --root "$nr" ethtool-stats a/b;		stderr_has "not an interface name"

# bw --loopback's arguments: pairs of two different devices, before the
# machine is read; then the devices and rails of a real machine's files
expect 2 "$bin" --root "$nr" bw --loopback mlx5_0 mlx5_4 mlx5_1
stderr_has "takes devices in pairs (A B .C D....): 3 names given, 'mlx5_1' has no partner"
expect 2 "$bin" --root "$nr" bw --loopback mlx5_0 mlx5_0;	stderr_has "'mlx5_0' twice in pair 1"
expect 2 "$bin" --root "$nr" bw --loopback server;		stderr_has "runs server and client itself"
expect 2 "$bin" --root "$nr" bw --loopback --transport tcp;	stderr_has "runs the verbs transport"
expect 2 "$bin" --root "$nr" bw --loopback --port 9 a b;	stderr_has "--port does not apply to --loopback"
expect 2 "$bin" --root "$nr" bw --loopback --device mlx5_0;	stderr_has "name the pairs after the options"
expect 2 "$bin" --root "$nr" bw --loopback --allow 10.0.0.0/8;	stderr_has "--allow is a server option"
expect 2 "$bin" --root "$nr" bw;				stderr_has "missing server | client HOST"
lbfx=$src/tests/fixtures
expect 2 "$bin" --root "$lbfx/dgx-h100/root" bw --loopback mlx5_0 nosuch
stderr_has "--loopback: no RDMA device 'nosuch' here"
# a800-2x100g-x8's NICs are no rails under its profile: none to pair
expect 2 "$bin" --root "$lbfx/a800-2x100g-x8/root" bw --loopback
stderr_has "no rails to pair: this host has 0 rail ports under the a800-8x100g-roce profile; name the pairs"
expect 3 "$bin" --root "$lbfx/atlas-a3/root" bw --loopback;	stderr_has "this host has no RDMA device"
# a RoCE port without an IPv4 address has no GID to be its own: said
# before any traffic (roce-broken's mlx5_2), after the odd rail left out
expect 3 "$bin" --root "$lbfx/roce-broken/root" bw --loopback
stderr_has "rail 6 (mlx5_6) has no partner and is left out"
stderr_has "mlx5_2 port 1 has no RoCE v2 GID of an IPv4 address: set an address on its netdev enp74s0np0"

# a root that is not there: could not run
expect 3 "$bin" --root "$tmp/nope" inventory;	stderr_has "cannot open root '$tmp/nope'"

# an empty root: no devices, says so, points at the examples, still valid JSON
mkdir -p "$tmp/empty"
expect 0 "$bin" --root "$tmp/empty" --json inventory
valid_json "empty root"
stderr_has "examples/dgx-h100"
expect 0 "$bin" --root "$tmp/empty" -q --json inventory
if [ -s "$tmp/err" ]; then bad "-q still printed: $(cat "$tmp/err")"; else ok; fi
# record with nothing to check speaks as record, not as check
expect 3 "$bin" --root "$tmp/empty" record --db "$tmp/empty.db"
stderr_has "rdmadoctor record: nothing to check under"
# a netdev the root does not have is named as missing, not read as empty
expect 2 "$bin" --root "$tmp/empty" --json ethtool-stats eth9
stderr_has "no network interface 'eth9' under '$tmp/empty'"
if [ -s "$tmp/out" ]; then bad "a missing netdev printed: $(cat "$tmp/out")"; else ok; fi

# a hostile tree: links out of the root and in circles, a FIFO where a
# value should be, bytes that are not UTF-8, numbers out of range
h=$tmp/hostile
dev=$h/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0
mkdir -p "$dev/infiniband/mlx5_0/ports/1/gids" "$dev/infiniband/mlx5_0/ports/1/counters" \
	"$h/sys/class/infiniband" "$h/sys/bus/pci/devices" "$h/sys/class/net" "$h/proc/sys/kernel"
ln -s ../../devices/pci0000:00/0000:00:01.0/0000:01:00.0/infiniband/mlx5_0 "$h/sys/class/infiniband/mlx5_0"
ln -s ../../../../../../../../../../etc "$h/sys/class/infiniband/escape"
ln -s loop "$h/sys/class/infiniband/loop"
ln -s ../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0 "$h/sys/bus/pci/devices/0000:01:00.0"
ln -s ../../../../.. "$dev/infiniband/mlx5_0/device"
mkfifo "$dev/infiniband/mlx5_0/ports/1/rate"
printf 'caf\xe9 \xff\xfe\n' >"$dev/infiniband/mlx5_0/node_desc"
printf '28.\033[31mRED\n' >"$dev/infiniband/mlx5_0/fw_ver"
# a right-to-left override in the board id: the terminal would show the
# rest of the line reversed
printf 'MT_\342\200\256kaerb\n' >"$dev/infiniband/mlx5_0/board_id"
printf '99999999999999999999999\n' >"$dev/infiniband/mlx5_0/ports/1/counters/symbol_error"
printf '4: ACTIVE' >"$dev/infiniband/mlx5_0/ports/1/state"
printf 'not-a-gid\n' >"$dev/infiniband/mlx5_0/ports/1/gids/0"
printf '0x10de\n' >"$dev/vendor"; printf '0x030200\n' >"$dev/class"
printf 'Garbage\n' >"$dev/current_link_speed"
printf '%s\n' "-99999999999999999999" >"$dev/numa_node"
expect 0 "$bin" --root "$h" -v --json inventory
valid_json "hostile tree"
stderr_has "malformed"
if grep -q "root:" "$tmp/out"; then bad "read /etc/passwd of the host"; else ok; fi
names=$(python3 -c 'import json,sys; print(" ".join(n["name"] for n in json.load(open(sys.argv[1]))["nics"]))' "$tmp/out")
if [ "$names" = "mlx5_0" ]; then ok; else bad "hostile tree listed '$names', wanted only mlx5_0"; fi
stderr_has "skipped 'loop': Too many levels of symbolic links"
stderr_has "skipped 'escape'"
expect 0 "$bin" --root "$h" inventory
# a value must not reach the terminal as an escape sequence
if grep -q "$(printf '\033')" "$tmp/out"; then bad "an ESC byte reached the text output"; else ok; fi
stdout_has "28.?\[31mRED"
if grep -q "$(printf '\342\200\256')" "$tmp/out"; then bad "a bidi override reached the text output"; else ok; fi
stdout_has "MT_???kaerb"
expect 0 "$bin" --root "$h" --json gids;	valid_json "hostile gids"
expect 0 "$bin" --root "$h" --json topo;	valid_json "hostile topo"

# a RoCE port that is down: mlx5 writes a placeholder rate, not a rate
d=$tmp/rocedown
pd=$d/sys/devices/pci0000:00/0000:00:02.0/0000:02:00.0/infiniband/mlx5_0/ports/1
mkdir -p "$pd" "$d/sys/class/infiniband"
ln -s ../../devices/pci0000:00/0000:00:02.0/0000:02:00.0/infiniband/mlx5_0 "$d/sys/class/infiniband/mlx5_0"
printf 'Ethernet\n' >"$pd/link_layer"; printf '1: DOWN\n' >"$pd/state"
printf '3: Disabled\n' >"$pd/phys_state"; printf '40 Gb/sec (4X QDR)\n' >"$pd/rate"
expect 0 "$bin" --root "$d" --json inventory
rate=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["nics"][0]["ports"][0]["rate_gbps"])' "$tmp/out")
if [ "$rate" = None ]; then ok; else bad "down RoCE port reported rate $rate"; fi

# check: exit codes, NHC mode, profiles from files, colour only when asked
fx=$src/tests/fixtures
expect 0 "$bin" --root "$fx/dgx-h100/root" check --nhc
if [ -s "$tmp/out" ]; then bad "--nhc printed on a healthy machine: $(cat "$tmp/out")"; else ok; fi
expect 1 "$bin" --root "$fx/broken/root" check --nhc
if [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q '^ERROR: rdmadoctor: Health check failed: ' "$tmp/out"; then ok
else bad "--nhc is not one NHC line: $(cat "$tmp/out")"; fi
expect 2 "$bin" --root "$fx/broken/root" --json check --nhc;	stderr_has "do not go together"
expect 1 "$bin" --root "$fx/broken/root" --json check;	valid_json "check --json"
expect 1 "$bin" --root "$fx/broken/root" check --profile generic --nhc
stdout_has "more errors"
expect 2 "$bin" --root "$fx/broken/root" check --profile no-such-profile
stderr_has "no built-in profile 'no-such-profile'"
printf '[profile]\nname = mine\nbased_on = dgx-h100\n\n[rail]\nrate_gbps = fast\n' >"$tmp/bad.ini"
expect 2 "$bin" --root "$fx/dgx-h100/root" check --profile "$tmp/bad.ini"
stderr_has "$tmp/bad.ini:6: rate_gbps"
if [ -s "$tmp/out" ]; then bad "a broken profile still ran the check"; else ok; fi
printf '[profile]\nname = mine\nbased_on = dgx-h100\n\n[rail]\nrate_gbps = 800\n' >"$tmp/mine.ini"
expect 1 "$bin" --root "$fx/dgx-h100/root" check --profile "$tmp/mine.ini"
stdout_has "profile mine"
stdout_has "port.rate_low"
expect 0 "$bin" profiles;			stdout_has "dgx-h100"
expect 0 "$bin" profiles show dgx-h100
cp "$tmp/out" "$tmp/shown.ini"
expect 0 "$bin" --root "$fx/dgx-h100/root" check --profile "$tmp/shown.ini"
stdout_has "profile dgx-h100"
expect 2 "$bin" profiles show no-such-profile
expect 1 "$bin" --root "$fx/broken/root" --color=always check
if grep -q "$(printf '\033')\[" "$tmp/out"; then ok; else bad "--color=always gave no colour"; fi
expect 1 "$bin" --root "$fx/broken/root" check
if grep -q "$(printf '\033')" "$tmp/out"; then bad "colour in a pipe"; else ok; fi
# colour beyond the verdict: a down port in inventory, SYS and NODE cells
# in topo; red is ESC[1;31m, yellow ESC[1;33m, back to plain ESC[0m
esc=$(printf '\033')
expect 0 "$bin" --root "$fx/broken/root" --color=always inventory
if grep -q "${esc}\[1;31mDOWN/Polling${esc}\[0m" "$tmp/out"; then ok; else bad "a down port is not red"; grep -a "port 1" "$tmp/out" | cat -v; fi
if grep -q "${esc}\[[0-9;]*mACTIVE" "$tmp/out"; then bad "an active port is coloured"; else ok; fi
expect 0 "$bin" --root "$fx/dgx-h100/root" --color=always topo
if grep -q "${esc}\[1;31mSYS${esc}\[0m" "$tmp/out" && grep -q "${esc}\[1;33mNODE${esc}\[0m" "$tmp/out"; then ok
else bad "topo: SYS / NODE cells not coloured"; head -3 "$tmp/out" | cat -v; fi
if grep -q "${esc}\[[0-9;]*mPIX" "$tmp/out"; then bad "topo: a PIX cell is coloured"; else ok; fi
# the codes bypass the filter of values: a value's own ESC is still '?'
expect 0 "$bin" --root "$h" --color=always inventory
stdout_has "28.?\[31mRED"
if grep -q "$(printf '\342\200\256')" "$tmp/out"; then bad "a bidi override reached the text output"; else ok; fi
stdout_has "MT_???kaerb"
# NO_COLOR (no-color.org): any non-empty value turns auto colour off on a
# terminal; empty is as unset; --color=always, asked for on the command
# line, still colours (as that page says a flag may)
on_tty() {	# run "$@" with a terminal for stdout (and stderr): output in $tmp/out
	python3 - "$tmp/out" "$@" <<'PY'
import os, pty, sys
out = open(sys.argv[1], "wb")
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
while True:
    try:
        b = os.read(fd, 65536)
    except OSError:
        break
    if not b:
        break
    out.write(b)
sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
PY
}
for cmd in "check" "inventory" "topo"; do
	NO_COLOR=1 on_tty "$bin" --root "$fx/broken/root" $cmd
	if grep -q "$esc" "$tmp/out"; then bad "NO_COLOR=1 on a terminal: colour in $cmd"; else ok; fi
	NO_COLOR= on_tty "$bin" --root "$fx/broken/root" $cmd
	if grep -q "${esc}\[1;3" "$tmp/out"; then ok; else bad "a terminal, NO_COLOR empty: no colour in $cmd"; fi
done
NO_COLOR=1 on_tty "$bin" --root "$fx/broken/root" --color=never check
if grep -q "$esc" "$tmp/out"; then bad "--color=never on a terminal coloured"; else ok; fi
expect 1 env NO_COLOR=1 "$bin" --root "$fx/broken/root" --color=always check
if grep -q "${esc}\[1;31m" "$tmp/out"; then ok; else bad "--color=always under NO_COLOR gave no colour"; fi
expect 0 "$bin" --root "$h" check --profile generic
expect 0 "$bin" --root "$h" --json check;	valid_json "check on the hostile tree"

# an InfiniBand port's LID, SM LID and GUIDs, as ibstat shows them
expect 0 "$bin" --root "$fx/dgx-h100/root" -v inventory
stdout_has "^    node guid 0x946dae03009a5f10  system image guid 0x946dae03009a5f10$"
stdout_has "^      lid 523  sm lid 1  port guid 0x946dae03009a5f10$"
# -v: an IB port's GIDs have no netdev (the kernel's EINVAL on ndevs/N is
# by design): no note on every port, and never the replay's "Is a directory"
if grep -q "ndevs" "$tmp/err"; then bad "-v notes ndevs of IB ports"; grep ndevs "$tmp/err" | head -3; else ok; fi
if grep -q "Is a directory" "$tmp/err"; then bad "-v says 'Is a directory' of a refused read"; grep "Is a directory" "$tmp/err" | head -3; else ok; fi
expect 0 "$bin" --root "$fx/dgx-h100/root" --json inventory
if python3 -c 'import json,sys; n=json.load(open(sys.argv[1]))["nics"][0]; sys.exit(not (n["sys_image_guid"] == "946d:ae03:009a:5f10" and n["ports"][0]["port_guid"] == "946d:ae03:009a:5f10"))' "$tmp/out"
then ok; else bad "inventory --json: sys_image_guid / port_guid"; fi
# a refused read replays as what the kernel said: the fixture's marker
# (EINVAL on an IPoIB netdev's speed), and a snapshot writes the marker back
expect 0 "$bin" --root "$fx/broken/root" -v inventory
stderr_has "cannot read 'speed': Invalid argument"
expect 0 "$bin" --root "$fx/broken/root" snapshot "$tmp/refused"
m=$(find "$tmp/refused" -path '*/speed/.errno' | head -1)
if [ -n "$m" ] && [ "$(cat "$m")" = EINVAL ]; then ok; else bad "snapshot: no EINVAL marker for a refused read ($m)"; fi
expect 0 "$bin" --root "$tmp/refused" -v inventory
stderr_has "cannot read 'speed': Invalid argument"
# a GUID that is not one is a note, not printed
printf 'zz:0\n' >"$dev/infiniband/mlx5_0/node_guid"
expect 0 "$bin" --root "$h" -v inventory
stderr_has "malformed 'node_guid'"
stdout_has "node guid ?"

# an H100 box whose NIC driver did not load: no RDMA device at all must
# fail the check (nic.count), not pass it under the generic profile
cp -a "$fx/dgx-h100/root" "$tmp/nonic"
rm -rf "$tmp/nonic/sys/class/infiniband"
printf 'Some OEM box\n' >"$tmp/nonic/sys/class/dmi/id/product_name"
expect 1 "$bin" --root "$tmp/nonic" check --nhc;	stdout_has "nic.count"

# stdout that cannot take the document: an error, not silence
expect 3 sh -c "'$bin' --root '$tmp/empty' -q --json inventory >/dev/full"
stderr_has "cannot write JSON"
expect 3 sh -c "'$bin' --root '$h' inventory >/dev/full"
stderr_has "cannot write to standard output"

# snapshot: refuses to overwrite, and a full disk leaves nothing behind
mkdir -p "$tmp/exists"
expect 2 "$bin" --root "$h" snapshot "$tmp/exists";	stderr_has "already exists"
expect 0 "$bin" --root "$h" snapshot "$tmp/snap";	stdout_has "replay it with"
stdout_has "snapshot of 1 RDMA device and 1 GPU ("
if ls -d "$tmp"/snap.partial-* >/dev/null 2>&1; then bad "partial snapshot left"; else ok; fi
# snapshot of a hostile replayed tree: its links to the host's /etc and
# /proc/self, or climbing out with .., are left out and said; an absolute
# link into the tree is rebased; no link of the snapshot leads outside it
hostile=$tmp/hostile-links
cp -a "$src/tests/fixtures/dgx-h100/root" "$hostile"
ln -sfn "/$(readlink "$hostile/sys/class/infiniband/mlx5_1" | sed 's|^\.\./\.\./|sys/|')" \
	"$hostile/sys/class/infiniband/mlx5_1"
ln -s /var "$hostile/sys/class/infiniband/etc0"
ln -s /proc/self/cwd "$hostile/sys/class/infiniband/self0"
ln -s ../../../../../../../../etc "$hostile/sys/class/infiniband/up0"
expect 0 "$bin" --root "$hostile" --json snapshot "$tmp/snap-hostile"
if python3 - "$tmp/out" "$tmp/snap-hostile" <<'PY'; then ok; else bad "snapshot of hostile links"; cat "$tmp/err"; fi
import json, os, sys
doc = json.load(open(sys.argv[1]))
top = os.path.realpath(sys.argv[2])
assert doc["links_left_out"] == 3, doc
ib = os.path.join(top, "sys/class/infiniband")
assert os.readlink(os.path.join(ib, "mlx5_1")).startswith("../../../sys/devices/"), "not rebased"
assert os.path.exists(os.path.join(ib, "mlx5_1", "fw_ver")), "rebased link leads nowhere"
for name in ("etc0", "self0", "up0"):
    assert not os.path.lexists(os.path.join(ib, name)), name + " copied"
for d, dirs, files in os.walk(top):
    for n in dirs + files:
        p = os.path.join(d, n)
        if os.path.islink(p):
            assert os.path.realpath(p).startswith(top + "/"), "%s leads out" % p
PY
stderr_has "left out the symlink 'sys/class/infiniband/etc0' -> '/var'"
mkdir -p "$tmp/tiny"
if mount -t tmpfs -o size=8k tmpfs "$tmp/tiny" 2>/dev/null; then
	big=$src/tests/fixtures/dgx-h100/root
	[ -d "$big" ] || big=$h
	expect 3 "$bin" --root "$big" snapshot "$tmp/tiny/snap"
	stderr_has "No space left on device"
	if [ -n "$(ls -A "$tmp/tiny")" ]; then bad "full disk left: $(ls "$tmp/tiny")"; else ok; fi
	umount "$tmp/tiny"
else
	echo "note: cannot mount a tmpfs here (not root?): full-disk case not run"
fi

tally_done
