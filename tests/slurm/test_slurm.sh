#!/bin/bash
# contrib/slurm/rdmadoctor-healthcheck against a real one-node Slurm cluster
# started here: munged, slurmctld and slurmd on localhost, as root, all state
# in a temporary directory (nothing written to /etc/slurm or /etc/munge).
#
#   1. slurmd itself runs the wrapper as HealthCheckProgram: a failing check
#      drains the node with the finding as reason, a passing one resumes it;
#   2. by hand: drain with the finding, a second failure keeps the first
#      reason, a passing check resumes; finding text written to attack the
#      reason (quotes, `state=resume`, $(...)) stays text; an administrator's
#      drain and a down node are never touched; a missing binary and a hung
#      check leave the node (and drain only with RDMADOCTOR_ON_ERROR=drain).
#
# usage: test_slurm.sh RDMADOCTOR-BINARY REPO-DIR
# exit 77 (skip) only when not root or Slurm/munge are not installed.
set -u

BIN=$(realpath "$1")
REPO=$(realpath "$2")
WRAPPER=$REPO/contrib/slurm/rdmadoctor-healthcheck
FAILING=$REPO/examples/roce-broken
PASSING=$REPO/examples/dgx-h100
# shellcheck source-path=SCRIPTDIR source=../lib/munge.sh
. "$REPO/tests/lib/munge.sh"

if [ "$(id -u)" != 0 ]; then
	echo "skip: needs root (slurmctld, slurmd and munged run as root/munge here)"
	exit 77
fi
for tool in slurmctld slurmd scontrol sinfo munged mungekey munge unmunge runuser; do
	if ! command -v "$tool" >/dev/null; then
		echo "skip: '$tool' not found: install Debian slurm-wlm, slurm-client and munge"
		exit 77
	fi
done
if ! id munge >/dev/null 2>&1; then
	echo "skip: no 'munge' user: install Debian munge"
	exit 77
fi

H=$(hostname -s)
T=$(mktemp -d /tmp/rd-slurm.XXXXXX)
chmod 711 "$T"
CTLD_PID=
SLURMD_PID=
JOB=
LAST_JOB=
# job steps of other Slurm clusters on this host (another test's, numbered
# from 1 as ours are) are not ours to answer for
OTHER_STEPS=" $(pgrep -f '^slurmstepd:' | tr '\n' ' ')"
STEP=setup

fail() {
	echo "FAIL ($STEP): $*" >&2
	exit 1
}

stop_pid() {
	# stop_pid PID: TERM, up to 10 s, then KILL (only processes this test started)
	local pid=$1 i
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null
	for ((i = 0; i < 100; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null
	sleep 0.2
}

cleanup() {
	local rc=$? left i
	trap - EXIT INT TERM
	# a job step outlives slurmd: cancel it and let it end first
	if [ -n "$JOB" ]; then
		scancel "$JOB" 2>/dev/null
		for ((i = 0; i < 100; i++)); do
			[ -z "$(squeue -h -j "$JOB" 2>/dev/null)" ] && break
			sleep 0.1
		done
	fi
	stop_pid "$SLURMD_PID"
	stop_pid "$CTLD_PID"
	munge_pid "$T" >/dev/null && stop_pid "$(munge_pid "$T")"
	wait 2>/dev/null
	left=$(pgrep -af -- "$T/" || true)
	if [ -n "$LAST_JOB" ]; then
		for i in $(pgrep -f "^slurmstepd: \[$LAST_JOB\." || true); do
			[[ $OTHER_STEPS == *" $i "* ]] || left="$left$(ps -o pid=,args= -p "$i")"$'\n'
		done
	fi
	if [ -n "$left" ]; then
		echo "FAIL: processes left behind:" >&2
		echo "$left" >&2
		rc=1
	fi
	if [ $rc -ne 0 ]; then
		for f in "$T"/log/*.log "$T"/run-munge/munged.log "$T"/hc.log "$T"/wrapper.err; do
			[ -f "$f" ] && { echo "--- $f" >&2; tail -n 25 "$f" >&2; }
		done
	fi
	if [ -n "${KEEP:-}" ]; then
		echo "kept $T"
	else
		rm -rf "$T"
	fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- munge ------------------------------------------------------------------
mkdir -p "$T/state" "$T/spool" "$T/log"
munge_start "$T" || fail "munged did not start"
munge -S "$T/run-munge/munge.sock" -n | unmunge -S "$T/run-munge/munge.sock" >/dev/null ||
	fail "munge credentials do not round-trip through our munged"

# ---- slurm ------------------------------------------------------------------
read -r CTLD_PORT SLURMD_PORT < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s:
    x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
export SLURM_CONF=$T/slurm.conf

write_slurm_conf() {
	# write_slurm_conf HEALTHCHECK-LINES
	local hc=$1
	sed -e "s|@DIR@|$T|g" -e "s|@HOST@|$H|g" -e "s|@CTLD_PORT@|$CTLD_PORT|g" \
		-e "s|@SLURMD_PORT@|$SLURMD_PORT|g" "$REPO/tests/slurm/slurm.conf.in" |
		awk -v hc="$hc" '$0 == "@HEALTHCHECK@" { print hc; next } { print }' >"$SLURM_CONF.new"
	mv "$SLURM_CONF.new" "$SLURM_CONF"
}

# slurmd gives HealthCheckProgram no arguments and hardly any environment: the
# shim points the wrapper at this test's settings file and records each run.
cat >"$T/healthcheck-shim" <<EOF
#!/bin/sh
echo "start SLURMD_NODENAME=\${SLURMD_NODENAME-unset}" >>"$T/hc.log"
RDMADOCTOR_HEALTHCHECK_CONF="$T/healthcheck.conf" "$WRAPPER" 2>>"$T/hc.log"
echo "end rc=\$?" >>"$T/hc.log"
EOF
chmod 755 "$T/healthcheck-shim"

write_hc_conf() {
	# write_hc_conf EXAMPLE-DIR: what slurmd's runs of the wrapper check
	cat >"$T/healthcheck.conf.new" <<EOF
# written by test_slurm.sh
RDMADOCTOR="$BIN"
RDMADOCTOR_ARGS="--root $1"
RDMADOCTOR_TIMEOUT=20
SLURM_CONF=$SLURM_CONF
EOF
	mv "$T/healthcheck.conf.new" "$T/healthcheck.conf"
}

node_field() {
	# node_field State|Reason: the value (Reason: the whole line's value)
	scontrol show node "$H" 2>/dev/null | sed -n "s/^.*[[:space:]]$1=\([^[:space:]]*\).*\$/\1/p;" | head -n 1
}
node_state() { node_field State; }
node_reason() {
	scontrol show node "$H" 2>/dev/null | sed -n 's/^[[:space:]]*Reason=//p' | head -n 1
}
drained() { case "+$(node_state)+" in *+DRAIN+*) return 0 ;; esac; return 1; }

wait_for() {
	# wait_for SECONDS WHAT COMMAND...: poll until COMMAND succeeds
	local secs=$1 what=$2 i
	shift 2
	for ((i = 0; i < secs * 4; i++)); do
		"$@" && return 0
		sleep 0.25
	done
	fail "$what: not within ${secs}s (state $(node_state), reason '$(node_reason)')"
}

# The reason the wrapper must set: rdmadoctor's own NHC line, prefix swapped.
expected_reason() {
	local line
	line=$("$BIN" --root "$1" check --nhc ${2:+--profile "$2"})
	if [ $? -ne 1 ] || [ -z "$line" ]; then
		fail "rdmadoctor check on $1 was expected to fail with an NHC line"
	fi
	line=${line#ERROR: rdmadoctor: Health check failed: }
	printf 'rdmadoctor: %s' "$line" | tr '"' "'"
}
REASON_FAIL=$(expected_reason "$FAILING") || exit 1

# ---- 1. slurmd runs the wrapper ---------------------------------------------
STEP="slurmd runs the wrapper"
write_hc_conf "$FAILING"
write_slurm_conf "HealthCheckProgram=$T/healthcheck-shim
HealthCheckInterval=5
HealthCheckNodeState=ANY"
slurmctld -D -f "$SLURM_CONF" >"$T/log/slurmctld.out" 2>&1 &
CTLD_PID=$!
wait_for 20 "slurmctld answers" scontrol ping >/dev/null
slurmd -D -f "$SLURM_CONF" >"$T/log/slurmd.out" 2>&1 &
SLURMD_PID=$!
reason_is() { case $(node_reason) in "$1 ["*) return 0 ;; esac; return 1; }
wait_for 40 "slurmd's health check drains the node with the finding" reason_is "$REASON_FAIL"
grep -q "^start SLURMD_NODENAME=$H\$" "$T/hc.log" ||
	fail "hc.log does not show a run by slurmd (SLURMD_NODENAME=$H)"
drained || fail "node not drained: $(node_state)"
write_hc_conf "$PASSING"
not_drained() { ! drained; }
wait_for 40 "slurmd's next health check resumes the node" not_drained
echo "ok: slurmd ran the wrapper $(grep -c '^start' "$T/hc.log") times: drained, then resumed"

# Health checks off for the runs by hand (they would race with them).
write_slurm_conf ""
scontrol reconfigure || fail "scontrol reconfigure"
idle_no_run() {
	[ "$(grep -c '^start' "$T/hc.log")" = "$(grep -c '^end' "$T/hc.log")" ] &&
		[ "$(node_state)" = IDLE ]
}
wait_for 20 "node idle, no health check running" idle_no_run
RUNS_BEFORE=$(grep -c '^start' "$T/hc.log")

# ---- 2. by hand ---------------------------------------------------------------
: >"$T/none.conf"
hc() {
	# hc [VAR=VALUE...] [-- WRAPPER-ARGS]: runs the wrapper, sets HC_RC and HC_OUT
	local envs=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	HC_OUT=$(env RDMADOCTOR="$BIN" RDMADOCTOR_HEALTHCHECK_CONF="$T/none.conf" \
		SLURM_CONF="$SLURM_CONF" "${envs[@]}" "$WRAPPER" "$@" 2>>"$T/wrapper.err")
	HC_RC=$?
}
expect_rc() { [ "$HC_RC" = "$1" ] || fail "wrapper exit $HC_RC, expected $1 (stderr: $(tail -n 3 "$T/wrapper.err"))"; }
# back in service: no drain flag, not down, no reason left (a resumed node
# is IDLE+NOT_RESPONDING until slurmctld pings it again)
expect_in_service() {
	! drained || fail "$1: still drained: $(node_state), '$(node_reason)'"
	case $(node_state) in DOWN* | *FAIL*) fail "$1: state $(node_state)" ;; esac
	[ -z "$(node_reason)" ] || fail "$1: reason left: $(node_reason)"
}
expect_reason() {
	local r
	r=$(node_reason)
	case $r in "$1 ["*"@"*"]") ;; *) fail "reason '$r', expected '$1 [user@time]'" ;; esac
	# sinfo -R, what an administrator reads, says the same
	[ "$(sinfo -R -h -n "$H" -o '%E')" = "$1" ] || fail "sinfo -R shows '$(sinfo -R -h -n "$H" -o '%E')'"
}

STEP="failing check drains"
hc RDMADOCTOR_ARGS="--root $FAILING"
expect_rc 1
drained || fail "not drained: $(node_state)"
expect_reason "$REASON_FAIL"
FIRST=$(node_reason)
echo "ok: failing check drained: $FIRST"

STEP="second failing check keeps the first reason"
sleep 1 # a second drain would change the [user@time] stamp
# another failing profile: a different first finding
OTHER=$(expected_reason "$FAILING" "$REPO/tests/check/roce-qos.ini") || exit 1
[ "$OTHER" != "$REASON_FAIL" ] || fail "the second failure must give another reason"
hc RDMADOCTOR_ARGS="--root $FAILING --profile $REPO/tests/check/roce-qos.ini"
expect_rc 1
[ "$(node_reason)" = "$FIRST" ] || fail "reason changed to '$(node_reason)'"
echo "ok: second failure left the reason as it was"

STEP="dry run changes nothing"
hc RDMADOCTOR_ARGS="--root $PASSING" -- --dry-run
expect_rc 0
case $HC_OUT in "would run: scontrol update nodename=$H state=resume") ;; *) fail "dry run said '$HC_OUT'" ;; esac
[ "$(node_reason)" = "$FIRST" ] || fail "dry run changed the node"

STEP="passing check resumes"
hc RDMADOCTOR_ARGS="--root $PASSING"
expect_rc 0
expect_in_service "after a passing check"
hc RDMADOCTOR_ARGS="--root $PASSING"
expect_rc 0
echo "ok: passing check resumed the node; a second pass does nothing"

STEP="node running a job"
# drain while busy: ALLOCATED+DRAIN (draining) keeps the job; resume from it
JOB=$(sbatch --parsable -o /dev/null -N1 -t 2 --wrap "sleep 100") || fail "sbatch"
LAST_JOB=$JOB
job_running() { [ "$(squeue -h -j "$JOB" -o %T 2>/dev/null)" = RUNNING ]; }
wait_for 20 "job $JOB running" job_running
hc RDMADOCTOR_ARGS="--root $FAILING"
expect_rc 1
case $(node_state) in ALLOCATED+DRAIN* | MIXED+DRAIN*) ;; *) fail "state $(node_state) while draining" ;; esac
expect_reason "$REASON_FAIL"
job_running || fail "draining stopped the job"
hc RDMADOCTOR_ARGS="--root $PASSING"
expect_rc 0
expect_in_service "draining node not resumed"
job_running || fail "resuming stopped the job"
scancel "$JOB" || fail "scancel"
job_gone() { [ -z "$(squeue -h -j "$JOB" -o %T 2>/dev/null)" ] && [ "$(node_state)" = IDLE ]; }
wait_for 30 "job $JOB cancelled and the node idle" job_gone
JOB=
echo "ok: a node running a job is drained (draining) and resumed, the job untouched"

STEP="hostile finding text"
cat >"$T/hostile.ini" <<EOF
[profile]
name = hostile
based_on = dgx-h100
[rail]
model = CX7" state=resume nodename=x \$(touch pwned) \`touch pwned2\`
EOF
cd "$T" || fail "cd $T" # where the touch would land
REASON_HOSTILE=$(expected_reason "$PASSING" "$T/hostile.ini") || exit 1
hc RDMADOCTOR_ARGS="--root $PASSING --profile $T/hostile.ini"
expect_rc 1
drained || fail "not drained: $(node_state)"
expect_reason "$REASON_HOSTILE"
if [ -e "$T/pwned" ] || [ -e "$T/pwned2" ]; then
	fail "finding text was run as a command"
fi
case $REASON_HOSTILE in *"CX7' state=resume nodename=x \$(touch pwned) \`touch pwned2\`"*) ;; *) fail "hostile text lost: $REASON_HOSTILE" ;; esac
hc RDMADOCTOR_ARGS="--root $PASSING"
expect_rc 0
expect_in_service "not resumed"
echo "ok: quotes, state=, \$(...) and backquotes in a finding are only text"

STEP="administrator's drain"
scontrol update nodename="$H" state=drain reason="admin: bad dimm" || fail "scontrol drain"
hc RDMADOCTOR_ARGS="--root $PASSING"
expect_rc 0
drained || fail "passing check resumed an administrator's drain: $(node_state)"
expect_reason "admin: bad dimm"
hc RDMADOCTOR_ARGS="--root $FAILING"
expect_rc 1
expect_reason "admin: bad dimm"
scontrol update nodename="$H" state=resume || fail "scontrol resume"
echo "ok: administrator's drain kept, its reason too, by passing and failing checks"

STEP="binary missing"
hc RDMADOCTOR="$T/no-such-rdmadoctor" RDMADOCTOR_ARGS="--root $FAILING"
expect_rc 3
expect_in_service "missing binary changed the node"
hc RDMADOCTOR_ARGS="--root $FAILING"
expect_rc 1
hc RDMADOCTOR="$T/no-such-rdmadoctor" RDMADOCTOR_ARGS="--root $PASSING"
expect_rc 3
expect_reason "$REASON_FAIL" # cannot vouch for the node: not resumed
hc RDMADOCTOR_ARGS="--root $PASSING"
expect_rc 0
hc RDMADOCTOR="$T/no-such-rdmadoctor" RDMADOCTOR_ON_ERROR=drain
expect_rc 3
expect_reason "rdmadoctor: could not run: no rdmadoctor binary '$T/no-such-rdmadoctor' (set RDMADOCTOR)"
hc RDMADOCTOR_ARGS="--root $PASSING"
expect_rc 0
expect_in_service "not resumed after could-not-run"
# could-not-run gives way to a finding once the check runs (and not back)
hc RDMADOCTOR="$T/no-such-rdmadoctor" RDMADOCTOR_ON_ERROR=drain
expect_rc 3
hc RDMADOCTOR_ARGS="--root $FAILING"
expect_rc 1
expect_reason "$REASON_FAIL"
hc RDMADOCTOR="$T/no-such-rdmadoctor" RDMADOCTOR_ON_ERROR=drain
expect_rc 3
expect_reason "$REASON_FAIL"
hc RDMADOCTOR_ARGS="--root $PASSING"
expect_rc 0
expect_in_service "not resumed"
echo "ok: missing binary leaves the node (default) or drains it (RDMADOCTOR_ON_ERROR=drain)"

STEP="hung check"
# rdmadoctor really blocks: opening a FIFO nobody writes, as a hung sysfs read would
mkfifo "$T/hang.ini"
START=$SECONDS
hc RDMADOCTOR_ARGS="--root $PASSING --profile $T/hang.ini" RDMADOCTOR_TIMEOUT=1
expect_rc 3
[ $((SECONDS - START)) -lt 10 ] || fail "the timeout did not stop the check"
expect_in_service "timeout changed the node"
hc RDMADOCTOR_ARGS="--root $PASSING --profile $T/hang.ini" RDMADOCTOR_TIMEOUT=1 RDMADOCTOR_ON_ERROR=drain
expect_rc 3
expect_reason "rdmadoctor: could not run: timed out after 1s"
hc RDMADOCTOR_ARGS="--root $PASSING"
expect_rc 0
echo "ok: a hung check is stopped after RDMADOCTOR_TIMEOUT and handled as could-not-run"

STEP="settings file"
cat >"$T/file.conf" <<EOF
# comment
  RDMADOCTOR = x
EOF
hc RDMADOCTOR_HEALTHCHECK_CONF="$T/file.conf"
expect_rc 2
printf 'RDMADOCTOR_ARGS="--root %s"\nRDMADOCTOR_TIMEOUT=30\n' "$FAILING" >"$T/file.conf"
hc RDMADOCTOR_HEALTHCHECK_CONF="$T/file.conf"
expect_rc 1
expect_reason "$REASON_FAIL"
hc RDMADOCTOR_HEALTHCHECK_CONF="$T/file.conf" RDMADOCTOR_ARGS="--root $PASSING"
expect_rc 0
expect_in_service "environment did not win over the file"
echo "ok: settings from a file; the environment wins"

STEP="a rail not checked"
# dgx-h100 with mlx5_0's state files gone: check exits 0 (WARN) with an
# UNCHECKED line; the wrapper drains on it unless told to leave it
UNSEEN=$T/unseen
mkdir "$UNSEEN" || fail "cannot make $UNSEEN"
cp -a "$PASSING/." "$UNSEEN" || fail "cannot copy $PASSING"
find "$UNSEEN/sys/devices" -path '*/infiniband/mlx5_0/ports/1/*state' -delete
LINE=$("$BIN" --root "$UNSEEN" check --nhc) || fail "check --nhc on a rail not seen should exit 0"
case $LINE in "UNCHECKED: rdmadoctor: port.down mlx5_0 port 1: not checked: "*) ;;
*) fail "check --nhc said '$LINE'" ;; esac
REASON_UNSEEN=$(printf 'rdmadoctor: %s' "${LINE#UNCHECKED: rdmadoctor: }" | tr '"' "'" | cut -c1-200)
hc RDMADOCTOR_ARGS="--root $UNSEEN" RDMADOCTOR_ON_UNCHECKED=leave
expect_rc 0
expect_in_service "RDMADOCTOR_ON_UNCHECKED=leave drained"
grep -q "RDMADOCTOR_ON_UNCHECKED=leave" "$T/wrapper.err" || fail "leave was not logged"
hc RDMADOCTOR_ARGS="--root $UNSEEN"
expect_rc 1
drained || fail "a rail not checked did not drain: $(node_state)"
case $(node_reason) in "rdmadoctor: port.down mlx5_0 port 1: not checked: "*) ;;
*) fail "reason '$(node_reason)', expected '$REASON_UNSEEN'" ;; esac
hc RDMADOCTOR_ARGS="--root $PASSING"
expect_rc 0
expect_in_service "a passing check did not resume after a rail not checked"
echo "ok: a rail not checked drains by default, RDMADOCTOR_ON_UNCHECKED=leave leaves it"

STEP="slurmctld unreachable"
# a slurm.conf naming a port nobody listens on: the wrapper says so, exit 3
read -r DEAD_PORT < <(python3 -c '
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')
sed "s/^SlurmctldPort=.*/SlurmctldPort=$DEAD_PORT/" "$SLURM_CONF" >"$T/dead.conf"
START=$SECONDS
hc RDMADOCTOR_ARGS="--root $FAILING" SLURM_CONF="$T/dead.conf"
expect_rc 3
grep -q "cannot read node '$H' from Slurm" "$T/wrapper.err" || fail "no message for an unreachable slurmctld"
expect_in_service "unreachable slurmctld"
hc SCONTROL="$T/no-such-scontrol"
expect_rc 3
grep -q "needs 'timeout' (coreutils) and '$T/no-such-scontrol'" "$T/wrapper.err" || fail "no message for a missing scontrol"
echo "ok: an unreachable slurmctld or a missing scontrol: exit 3 in $((SECONDS - START))s, node untouched"

STEP="down node"
# a resume pings the node; let that answer arrive before it is set down
node_idle() { [ "$(node_state)" = IDLE ]; }
wait_for 20 "node idle and responding" node_idle
scontrol update nodename="$H" state=down reason="admin: reseat cable" || fail "scontrol down"
hc RDMADOCTOR_ARGS="--root $FAILING"
expect_rc 1
expect_reason "admin: reseat cable"
case $(node_state) in DOWN*) ;; *) fail "state $(node_state)" ;; esac
hc RDMADOCTOR_ARGS="--root $PASSING"
expect_rc 0
case $(node_state) in DOWN*) ;; *) fail "a down node came back: $(node_state)" ;; esac
expect_reason "admin: reseat cable"
echo "ok: a down node is neither drained nor resumed"

STEP="health checks off"
[ "$(grep -c '^start' "$T/hc.log")" = "$RUNS_BEFORE" ] ||
	fail "slurmd ran the health check after reconfigure: the runs by hand may have raced with it"
echo "ok: all"
