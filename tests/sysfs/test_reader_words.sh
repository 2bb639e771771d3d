#!/bin/bash
# Readers take the kernel's words as they are, on small trees laid out as
# the kernel writes them: a value ending in two newlines, counters_ext/
# (64-bit) beside a 32-bit counter stuck at its maximum and beside a
# counters/ value that is the wider, a memlock limit
# near 2^64, "N/A (no PMA)" counters, a partial tree without
# sys/class/iommu whose devices sit in an IOMMU group, and no empty
# parentheses in text.  Usage: test_reader_words.sh BINARY
set -u
bin=$1
tmp=$(mktemp -d /tmp/arch-readers.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source-path=SCRIPTDIR source=../lib/tally.sh
. "$(dirname "$0")/../lib/tally.sh"
py() {	# python expression over the JSON document d, description
	if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
		"$tmp/out" "$1" 2>/dev/null; then ok; else bad "$2"; head -c 600 "$tmp/out"; echo; fi
}

t=$tmp/root
pci=sys/devices/pci0000:00/0000:00:02.0/0000:02:00.0
dev=$t/$pci/infiniband/mlx5_0
port=$dev/ports/1
mkdir -p "$port/counters" "$port/counters_ext" "$port/hw_counters" "$port/gids" "$port/gid_attrs/types" \
	"$port/gid_attrs/ndevs" "$t/sys/class/infiniband" "$t/sys/class/net/bond0/bonding" \
	"$t/sys/bus/pci/devices" "$t/sys/kernel/iommu_groups/7/devices" "$t/proc/self" \
	"$t/proc/sys/kernel"
ln -s "../../${pci#sys/}/infiniband/mlx5_0" "$t/sys/class/infiniband/mlx5_0"
ln -s "../../../${pci#sys/}" "$t/sys/bus/pci/devices/0000:02:00.0"
ln -s ../../../../kernel/iommu_groups/7 "$t/$pci/iommu_group"
# bound to mlx5_core, as every mlx5 function is: the driver names the
# counter vocabulary (model/driver_counters.c) its hw_counters are judged by
mkdir -p "$t/sys/bus/pci/drivers/mlx5_core"
ln -s ../../../../bus/pci/drivers/mlx5_core "$t/$pci/driver"
ln -s ../../../0000:02:00.0 "$dev/device"
printf 'DMA\n' >"$t/sys/kernel/iommu_groups/7/type"
printf '0x15b3\n' >"$t/$pci/vendor"; printf '0x101d\n' >"$t/$pci/device"
printf '0x020000\n' >"$t/$pci/class"
printf 'MT4125\n' >"$dev/hca_type"; printf '22.40.1000\n' >"$dev/fw_ver"
# two newlines after the word, as some drivers and captures leave it
printf 'Ethernet\n\n' >"$port/link_layer"
printf '4: ACTIVE\n' >"$port/state"; printf '5: LinkUp\n' >"$port/phys_state"
printf '25 Gb/sec (1X)\n' >"$port/rate"
printf 'fe80:0000:0000:0000:0000:0000:0000:0001\n' >"$port/gids/0"
printf 'RoCE v2\n' >"$port/gid_attrs/types/0"; printf 'bond0\n' >"$port/gid_attrs/ndevs/0"
printf '\n' >"$t/sys/class/net/bond0/bonding/slaves"
printf '9000\n' >"$t/sys/class/net/bond0/mtu"
# the 32-bit counter stopped at 2^32-1; the 64-bit one goes on
printf '4294967295\n' >"$port/counters/port_rcv_data"
printf '10000000000\n' >"$port/counters_ext/port_rcv_data_64"
printf '123\n' >"$port/counters_ext/port_unicast_rcv_packets"
# counters/unicast_xmit_packets (newer kernels) beside counters_ext/'s
# spelling of the same PortCountersExtended field (MLNX_OFED's mlx4): one
# counter, the wider value
printf '4000000000\n' >"$port/counters/unicast_xmit_packets"
printf '4000000007\n' >"$port/counters_ext/port_unicast_xmit_packets"
# a published mlx4 capture: counters/ already 64 bits wide, counters_ext/ 0
printf '6825908347\n' >"$port/counters/port_rcv_packets"
printf '0\n' >"$port/counters_ext/port_rcv_packets_64"
printf 'N/A (no PMA)\n' >"$port/counters/symbol_error"
# hw_counters/: a fault check judges (ICRC), a retry it judges only over a
# window, one it does not judge (counters.c's hw_errors table)
printf '5\n' >"$port/hw_counters/rx_icrc_encapsulated"
printf '7\n' >"$port/hw_counters/out_of_sequence"
printf '9\n' >"$port/hw_counters/out_of_buffer"
printf 'Limit                     Soft Limit           Hard Limit           Units     \nMax locked memory         18446744073708503040 18446744073708503040 bytes     \n' \
	>"$t/proc/self/limits"
printf 'host\n' >"$t/proc/sys/kernel/hostname"

timeout 20 "$bin" --root "$t" -v --json inventory >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && ok || { bad "inventory exited non-zero"; cat "$tmp/err"; }
py 'd["nics"][0]["ports"][0]["link_layer"] == "Ethernet"' "a value ending in two newlines keeps none"
py 'd["nics"][0]["ports"][0]["counters"]["port_rcv_data"] == 40000000000' \
	"counters_ext: the 64-bit count (in bytes) wins over the 32-bit maximum"
py 'd["nics"][0]["ports"][0]["counters"]["unicast_rcv_packets"] == 123' \
	"counters_ext: the extended-only counters are read, under the name newer kernels give them"
py 'd["nics"][0]["ports"][0]["counters"]["unicast_xmit_packets"] == 4000000007 and not [k for k in d["nics"][0]["ports"][0]["counters"] if k.startswith("port_unicast")]' \
	"counters_ext/port_unicast_xmit_packets and counters/unicast_xmit_packets are one counter, the wider"
py 'd["nics"][0]["ports"][0]["counters"]["port_rcv_packets"] == 6825908347' \
	"counters/ wider than counters_ext/: counters/ wins"
if grep -q "'port_rcv_packets': counters/ 6825908347, counters_ext/ 0: took counters/, the wider" "$tmp/err" &&
	grep -q "'port_rcv_data': counters/ 17179869180, counters_ext/ 40000000000: took counters_ext/, the wider" "$tmp/err"
then ok; else bad "-v does not say which of counters/ and counters_ext/ was taken"; cat "$tmp/err"; fi
py 'd["host"]["memlock_unlimited"] is True and d["host"]["memlock_bytes"] is None' \
	"a memlock limit at or above 2^63 is unlimited"
py 'd["host"]["iommu"]["present"] is None' \
	"no sys/class/iommu but a device in an IOMMU group: IOMMU unknown, not off"
# one counters/ file "N/A (no PMA)" beside others read, and hw_counters/ read:
# said precisely (what is missing, what is still read), never "no counters"
if grep -qF "counters: the driver does not give the PMA port counter 'symbol_error' (\"N/A (no PMA)\"); still read: 4 PMA port counters, 3 hw_counters" "$tmp/err"
then ok; else bad "N/A (no PMA) on one counter not said precisely"; cat "$tmp/err"; fi
if grep -q "has no counters" "$tmp/err"; then bad "-v says no counters where others are read"; else ok; fi
if grep -q "malformed 'symbol_error'" "$tmp/err"; then bad "N/A (no PMA) called malformed"; else ok; fi

timeout 20 "$bin" --root "$t" inventory >"$tmp/out" 2>"$tmp/err"
if grep -q "(1X)" "$tmp/out"; then ok; else bad "rate lanes lost: $(grep Gb/s "$tmp/out")"; fi
if grep -q "( \| )\|()\|(bond of )" "$tmp/out"; then bad "empty parentheses: $(grep -n "( \| )\|()" "$tmp/out")"; else ok; fi
# the errors line: what counters.errors judges (its table), hw_counters
# included; retries apart; mlx4's counters_ext/ packet counts are no errors
if grep -qx "      errors: rx_icrc_encapsulated 5" "$tmp/out"; then ok
else bad "errors line without the hw_counters check judges: $(grep -n errors "$tmp/out")"; fi
if grep -qx "      retries: out_of_sequence 7" "$tmp/out"; then ok
else bad "no retries line: $(grep -n retries "$tmp/out")"; fi
if grep -q "unicast\|out_of_buffer" "$tmp/out"; then bad "a counter check does not judge on the errors line: $(grep -n "unicast\|out_of_buffer" "$tmp/out")"; else ok; fi

# every counters/ file "N/A (no PMA)" (iWARP, some RoCE drivers): no PMA port
# counters (and no counters_ext/), the hw_counters still read
for f in "$port"/counters/*; do printf 'N/A (no PMA)\n' >"$f"; done
rm -r "$port/counters_ext"
timeout 20 "$bin" --root "$t" -v inventory >"$tmp/out" 2>"$tmp/err"
if grep -qF "counters: no PMA port counters: the driver answers \"N/A (no PMA)\" for all 4 in counters/; still read: 3 hw_counters" "$tmp/err"
then ok; else bad "no PMA port counters at all not said with what is still read"; cat "$tmp/err"; fi

timeout 20 "$bin" --root "$t" --json check --profile generic >"$tmp/out" 2>"$tmp/err"
py 'not [f for f in d["findings"] if f["id"] == "sys.job_memlock"]' "sys.job_memlock on an effectively unlimited memlock"

tally_done
