#!/bin/bash
# One fabric rank of a test: its own address 10.213.0.<10+rank> and name
# fab<rank> (under Slurm the node's name); its stdout, stderr, exit code,
# its pid and this wrapper's go into DIR.  The rank
# comes from the launcher's environment (Open MPI or Slurm), only here:
# rdmadoctor itself takes it from PMIx.
#
#   usage: rank.sh DIR RDMADOCTOR ARGS...
d=$1 bin=$2
shift 2
r=${OMPI_COMM_WORLD_RANK:-${SLURM_PROCID:?neither mpirun nor srun started this}}
name=${SLURMD_NODENAME:-fab$r}	# under Slurm: the node's name
addr=${FAB_ADDR:-10.213.0.$((10 + r))}	# FAB_ADDR: one address for all (the VM)
"$bin" "$@" --bind "$addr" --name "$name" >"$d/out.$r" 2>"$d/err.$r" &
echo $! >"$d/pid.$r"
echo $$ >"$d/wrapper.$r"
wait $!
echo $? >"$d/rc.$r"
