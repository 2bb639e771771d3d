#!/bin/sh
# contrib/slurm/rdmadoctor-healthcheck without Slurm: --help, usage errors and
# settings it must refuse before it touches anything (exit 2, saying where).
# Needs neither root nor Slurm: these paths end before scontrol is called.
#
# usage: test_wrapper_settings.sh REPO-DIR
set -u
WRAPPER=$1/contrib/slurm/rdmadoctor-healthcheck
T=$(mktemp -d /tmp/rd-slurmcfg.XXXXXX)
trap 'rm -rf "$T"' EXIT
failures=0

# expect RC GREP-PATTERN VAR=VALUE... [-- ARGS]: run the wrapper with an empty
# environment plus VARS, check its exit code and that its output holds PATTERN
expect() {
	want=$1 pattern=$2
	shift 2
	set -- env -i PATH=/usr/bin:/bin RDMADOCTOR_HEALTHCHECK_CONF="$T/none.conf" "$@"
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" != "$want" ] || ! printf '%s\n' "$out" | grep -q -- "$pattern"; then
		echo "FAIL: $* -> exit $rc (expected $want), output:" >&2
		printf '%s\n' "$out" >&2
		failures=$((failures + 1))
	fi
}
run() { expect "$@"; }

run 0 'usage: rdmadoctor-healthcheck' "$WRAPPER" --help
run 2 'unexpected argument --bogus' "$WRAPPER" --bogus
run 2 "RDMADOCTOR_TIMEOUT '0'" RDMADOCTOR_TIMEOUT=0 "$WRAPPER"
run 2 "RDMADOCTOR_TIMEOUT '99999'" RDMADOCTOR_TIMEOUT=99999 "$WRAPPER"
run 2 "RDMADOCTOR_TIMEOUT '5s'" RDMADOCTOR_TIMEOUT=5s "$WRAPPER"
run 2 "RDMADOCTOR_ON_ERROR 'panic'" RDMADOCTOR_ON_ERROR=panic "$WRAPPER"
run 2 "RDMADOCTOR_ON_UNCHECKED 'ignore'" RDMADOCTOR_ON_UNCHECKED=ignore "$WRAPPER"
# a host list would drain many nodes; a quote would change scontrol's words
run 2 "node name 'n\[1-4\]' is not one node" RDMADOCTOR_NODENAME='n[1-4]' "$WRAPPER"
run 2 "node name 'a?b' is not one node" RDMADOCTOR_NODENAME="$(printf 'a\nb')" "$WRAPPER"
run 2 "node name 'a,b' is not one node" SLURMD_NODENAME=a,b "$WRAPPER"

printf '# comment\n\nRDMADOCTOR_TIMEOUT=5\nRDMADOCTOR_ARG=--profile x\n' >"$T/typo.conf"
run 2 "typo.conf:4: unknown setting 'RDMADOCTOR_ARG'" RDMADOCTOR_HEALTHCHECK_CONF="$T/typo.conf" "$WRAPPER"
printf 'RDMADOCTOR_TIMEOUT=5\njust words\n' >"$T/words.conf"
run 2 'words.conf:2: expected KEY=VALUE' RDMADOCTOR_HEALTHCHECK_CONF="$T/words.conf" "$WRAPPER"
# values are text: a $(...) in the file is never run
# shellcheck disable=SC2016 # the $(...) is meant literally
printf 'RDMADOCTOR_TIMEOUT="$(touch %s/ran)"\n' "$T" >"$T/subst.conf"
run 2 "RDMADOCTOR_TIMEOUT '\$(touch" RDMADOCTOR_HEALTHCHECK_CONF="$T/subst.conf" "$WRAPPER"
if [ -e "$T/ran" ]; then
	echo "FAIL: a value in the settings file was run as a command" >&2
	failures=$((failures + 1))
fi
# quotes around a value are taken off; the environment wins over the file
printf "RDMADOCTOR_ON_ERROR='panic'\n" >"$T/quoted.conf"
run 2 "RDMADOCTOR_ON_ERROR 'panic'" RDMADOCTOR_HEALTHCHECK_CONF="$T/quoted.conf" "$WRAPPER"
printf 'RDMADOCTOR_TIMEOUT=7\n' >"$T/ok.conf"
run 2 "RDMADOCTOR_TIMEOUT 'x'" RDMADOCTOR_HEALTHCHECK_CONF="$T/ok.conf" RDMADOCTOR_TIMEOUT=x "$WRAPPER"
run 2 'RDMADOCTOR_ARGS: --root needs a directory' RDMADOCTOR_ARGS='-v --root' "$WRAPPER"
# the example settings file parses and its values are valid: the run gets as
# far as the node name (the last setting checked), which is made bad here
run 2 "node name 'not one' is not one node" \
	RDMADOCTOR_HEALTHCHECK_CONF="$1/contrib/slurm/healthcheck.conf.example" \
	RDMADOCTOR_NODENAME='not one' "$WRAPPER"

[ $failures -eq 0 ] && echo "ok: wrapper settings" && exit 0
echo "$failures failures" >&2
exit 1
