# rdmadoctor fabric: the pure parts are unit tests (tests/fabric/test_fabric_*.c);
# these run it under the real launchers.

# Open MPI's mpirun, 6-8 ranks in one network namespace made by the test,
# each on its own address, faults made with tc (root only: skipped, exit 77,
# otherwise or without mpirun; the script says why).  About 40 s.
add_test(NAME fabric_mpirun COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_fabric_mpirun.sh
  ${RD_BIN})
set_tests_properties(fabric_mpirun PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 400 RUN_SERIAL TRUE)

# fabric --load under mpirun, over tcp: 4-5 ranks in one network namespace
# made by the test, tc htb on its loopback shaping every flow into each
# receiver to one rate (each sender an equal guaranteed share): the incast
# goodput near that rate and fair shares; one sender capped, exactly the
# receivers it sends into unfair naming it; alltoall, every ordered pair
# measured in one round; the option conflicts usage errors.  Root only
# (exit 77 otherwise, or without mpirun).  About 40 s.
add_test(NAME fabric_load COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_fabric_load.sh
  ${RD_BIN})
set_tests_properties(fabric_load PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 RUN_SERIAL TRUE)

# A stranger on the ranks' ports: mpirun -np 4, every rank on 127.0.0.1 in a
# network namespace made by the test, while tests/fabric/stranger.py keeps
# connections queued on every rank's listener (garbage, and proofs of a
# wrong secret): the run pairs as planned with no suspect, and the ranks log
# each refusal with the stranger's address.  Root only (exit 77 otherwise,
# or without mpirun).  About 20 s.
add_test(NAME fabric_stranger COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_fabric_stranger.sh
  ${RD_BIN})
set_tests_properties(fabric_stranger PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 RUN_SERIAL TRUE)

# A real four-node Slurm on this machine (four slurmd -N nodeN, in a network
# namespace made by the test): srun -N 4 --mpi=pmix rdmadoctor fabric, a
# slow node named, and contrib/slurm/rdmadoctor-fabric-drain draining it.
# Skipped, exit 77, only when not root or Slurm/munge are not installed.
add_test(NAME fabric_slurm COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_fabric_slurm.sh
  ${RD_BIN} ${PROJECT_SOURCE_DIR})
set_tests_properties(fabric_slurm PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 RUN_SERIAL TRUE
  RESOURCE_LOCK slurm)

add_test(NAME fabric_shellcheck COMMAND ${RD_NEED_SHELLCHECK} shellcheck -x
  ${CMAKE_CURRENT_LIST_DIR}/test_fabric_mpirun.sh ${CMAKE_CURRENT_LIST_DIR}/test_fabric_slurm.sh
  ${CMAKE_CURRENT_LIST_DIR}/test_fabric_stranger.sh ${CMAKE_CURRENT_LIST_DIR}/test_fabric_load.sh
  ${CMAKE_CURRENT_LIST_DIR}/rank.sh ${CMAKE_CURRENT_LIST_DIR}/test_fabric_vm.sh
  ${PROJECT_SOURCE_DIR}/bench/bench_fabric.sh ${PROJECT_SOURCE_DIR}/bench/bench_fabric_load.sh)
set_tests_properties(fabric_shellcheck PROPERTIES TIMEOUT 60 SKIP_RETURN_CODE 77 LABELS system)

# Soft-RoCE in the test VM (tests/vm), one boot: mpirun -np 3 rdmadoctor
# fabric with the verbs transport over rxe0 (every pair measured both ways);
# then fabric --load incast with each rank on an rxe of its own (on macvlans,
# so the packets cross a netdev): without loss no drop or sequence-error
# counter grows and no row is lossy but by rxe's ACK timeouts under TCG
# (tolerated and printed; FAB_VM_STRICT=1 fails on them), and with tc netem
# loss 3% on what reaches fab1's netdev its row is lossy with fab1's
# hw:out_of_seq_request and its senders' hw:rcvd_seq_err as evidence.  The
# script's header says how and why.  Skipped, exit 77, only when the VM
# cannot start.  About 75 s under TCG (the load part 50 s).  It runs in the
# timed VM boot (tests/vm/timed_boot.sh, vm_timed_boot) with the bw ones;
# this test prints its part and passes or fails on it
# (`test_fabric_vm.sh RDMADOCTOR` still boots a VM of its own by hand).
add_test(NAME fabric_vm COMMAND ${PROJECT_SOURCE_DIR}/tests/vm/shared_result.sh
  ${PROJECT_BINARY_DIR}/vm-timed fabric)
set_tests_properties(fabric_vm PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS vm
  FIXTURES_REQUIRED vm_timed)
