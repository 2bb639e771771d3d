#!/bin/sh
# Stand-in for Huawei's `hccn_tool` and `npu-smi` (installed under both
# names): prints what a real one printed, from captures laid out as a
# snapshot keeps them ($STANDIN_CAPTURE/hccn/<N>/<option>, npu-smi/info-m,
# npu-smi/info, npu-smi/board-<N> or, for a die, board-<N>-<chip>,
# npu-smi/health-<N>-<chip>, and <key>.rc for an exit status), or on request
#   STANDIN_HANG="hccn/3/optical ..."  blocks (as a hung driver does); its pid
#                                      goes into the file $STANDIN_PIDS
#   STANDIN_FAIL="hccn/2/speed ..."    prints an error and exits 1
#   STANDIN_DELAY=0.05                 every call takes that long (the bench)
name=$(basename "$0")
cap=${STANDIN_CAPTURE:?}
case $name in
npu-smi)
	if [ "$1" = info ] && [ $# -eq 1 ]; then
		key=npu-smi/info
	elif [ "$1 $2" = "info -m" ] && [ $# -eq 2 ]; then
		key=npu-smi/info-m
	elif [ "$1 $2 $3 $4 $6" = "info -t health -i -c" ] && [ $# -eq 7 ]; then
		key=npu-smi/health-$5-$7
	elif [ "$1 $2 $4 $5" = "info -i -t board" ] && [ $# -eq 5 ]; then
		key=npu-smi/board-$3
	elif [ "$1 $2 $3 $4 $6" = "info -t board -i -c" ] && [ $# -eq 7 ]; then
		key=npu-smi/board-$5-$7	# one die of a two-die NPU
	else
		echo "Usage: npu-smi info ..."
		exit 2
	fi ;;
hccn_tool)
	if [ "$1" != -i ] || [ "$4" != -g ] || [ $# -ne 4 ]; then
		echo "Usage: hccn_tool -i <device_id> -<option> -g"
		exit 2
	fi
	key=hccn/$2/${3#-} ;;
*)
	exit 127 ;;
esac
if [ -n "${STANDIN_DELAY:-}" ]; then
	sleep "$STANDIN_DELAY"
fi
for h in ${STANDIN_HANG:-}; do
	if [ "$h" = "$key" ]; then
		echo $$ >>"${STANDIN_PIDS:-/dev/null}"
		exec sleep 120
	fi
done
for f in ${STANDIN_FAIL:-}; do
	if [ "$f" = "$key" ]; then
		echo "Get ${key##*/} failed, the device is busy"
		exit 1
	fi
done
if [ ! -f "$cap/$key" ]; then
	echo "Error: device $2 does not exist"
	exit 2
fi
cat "$cap/$key"
if [ -f "$cap/$key.rc" ]; then
	exit "$(cat "$cap/$key.rc")"
fi
exit 0
