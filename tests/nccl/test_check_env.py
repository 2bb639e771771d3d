#!/usr/bin/env python3
"""`check --env FILE|environ` on bundled examples: a job's bad NCCL
environment gives the documented nccl.* findings in check's verdict, a
good one none, a job script's commands are skipped and counted (its
#SBATCH --export read), a file that is no text is a usage error, and
check without --env is unchanged.  usage: test_check_env.py RDMADOCTOR SRCDIR"""
import json
import os
import sys
import tempfile

binary, src = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdtest  # noqa: E402
from rdtest import done, ok  # noqa: E402


def check(example, env_text=None, environ=None, json_out=True):
    args = (["--json"] if json_out else []) + \
        ["--root", os.path.join(src, "examples", example), "check"]
    path = None
    if env_text is not None:
        fd, path = tempfile.mkstemp(suffix=".env")
        with os.fdopen(fd, "w") as f:
            f.write(env_text)
        args += ["--env", path]
    elif environ is not None:
        args += ["--env", "environ"]
    env = dict(os.environ)
    env.update(environ or {})
    res = rdtest.run(binary, *args, env=env)
    if path:
        os.unlink(path)
    doc = json.loads(res.stdout) if json_out and res.returncode in (0, 1) else None
    return res.returncode, doc, res.stderr


def nccl(doc):
    return sorted((f["id"], f["subject"]) for f in doc["findings"] if f["id"].startswith("nccl."))


# dgx-h100: rails mlx5_0 3 4 5 6 9 10 11, storage mlx5_1 2 7 8
# (InfiniBand).  "mlx5_1" without '=' is a prefix: it selects storage
# mlx5_1 and rails mlx5_10 and mlx5_11.
RAILS = "mlx5_0:1,mlx5_3:1,mlx5_4:1,mlx5_5:1,mlx5_6:1,mlx5_9:1,mlx5_10:1,mlx5_11:1"
rc0, plain, _ = check("dgx-h100")
ok(rc0 in (0, 1) and not nccl(plain), "check without --env gives nccl.* findings")

rc, doc, err = check("dgx-h100", "# prolog\nexport NCCL_IB_HCA==%s\n" % RAILS)
ok(rc == rc0 and not nccl(doc), f"a good NCCL_IB_HCA: rc {rc}, {nccl(doc)} {err}")
ok(doc["findings"] == plain["findings"], "a good env changes check's findings")

rc, doc, _ = check("dgx-h100", "NCCL_IB_HCA=mlx5_0,mlx5_1,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_9\n")
ids = nccl(doc)
ok(("nccl.hca_storage", "mlx5_1 port 1") in ids, f"storage mlx5_1 not named: {ids}")
ok(not any(i == "nccl.hca_missing" for i, _ in ids),
   f"mlx5_10/11 come in by the prefix mlx5_1, yet missing: {ids}")
ok(doc["verdict"] in ("warn", "fail"), "a storage NIC left the verdict pass")

rc, doc, _ = check("dgx-h100", "NCCL_IB_HCA=^mlx5_1,mlx5_2,mlx5_7,mlx5_8\n")
ids = nccl(doc)
ok(("nccl.hca_missing", "mlx5_10 port 1") in ids and ("nccl.hca_missing", "mlx5_11 port 1") in ids,
   f"'^mlx5_1' excludes rails mlx5_10 and mlx5_11 too: {ids}")
ok(not any(i == "nccl.hca_storage" for i, _ in ids), f"excluded storage named: {ids}")

rc, doc, _ = check("dgx-h100", "NCCL_IB_HCA==%s,mlx5_99\n" % RAILS)
ok(("nccl.hca_unknown", "mlx5_99") in nccl(doc) and rc == 1, f"mlx5_99: rc {rc} {nccl(doc)}")

rc, doc, _ = check("dgx-h100", "NCCL_IB_GID_INDEX=x3\n")
ok(("nccl.malformed", "NCCL_IB_GID_INDEX") in nccl(doc) and rc == 1, f"malformed: {nccl(doc)}")

# roce-broken: trust dscp without PFC; GIDs at 3 and 5 (and none on mlx5_2)
rc, doc, _ = check("roce-broken", environ={"NCCL_IB_TC": "106", "NCCL_IB_GID_INDEX": "3"})
ids = [i for i, _ in nccl(doc)]
ok("nccl.tc_no_pfc" in ids and "nccl.gid_index" in ids and rc == 1,
   f"roce-broken environ: rc {rc} {nccl(doc)}")

# a line that is no assignment (here a command the shell would run, not a
# variable it would set): not read, counted, and named since it speaks of
# NCCL (issue 44: a job script's first srun used to be a usage error)
rc, doc, err = check("dgx-h100", "NCCL_IB_HCA==mlx5_0\n\nNCCL_IB_TC = 106\n")
ok(rc in (0, 1) and "1 line not read" in err and "line 3 (NCCL_IB_TC = 106): not an assignment"
   in err, f"a command line: rc {rc}, {err!r}")

# a job script as sbatch takes it: its assignments and #SBATCH --export's
# items judged, the commands skipped; what the shell would compute named
script = ("#!/bin/bash\n#SBATCH -N 2\n#SBATCH --export=ALL,NCCL_IB_HCA=mlx5_99\n"
          "module load nccl\nexport NCCL_IB_GID_INDEX=$GID\nsrun ./all_reduce_perf\n")
rc, doc, err = check("dgx-h100", script)
ok(rc == 1 and "nccl.hca_unknown" in [i for i, _ in nccl(doc)] and "3 lines not read" in err
   and "NCCL_IB_GID_INDEX: a $ or `" in err and "srun" not in err,
   f"job script: rc {rc} {doc and nccl(doc)} {err!r}")
# a skipped line is quoted through the text filter: its ESC never reaches
# the terminal
rc, doc, err = check("dgx-h100", "echo \033[2J NCCL_IB_HCA\n")
ok("\033" not in err and "echo ?[2J NCCL_IB_HCA" in err, f"a quoted control: {err!r}")
# a NUL byte: no text, a usage error
rc, _, err = check("dgx-h100", "NCCL_IB_HCA=mlx5_0\n\0\n")
ok(rc == 2 and "NUL" in err, f"a NUL byte: rc {rc}, {err!r}")
rc, _, err = check("dgx-h100", None)
res = rdtest.run(binary, "check", "--env", "/nonexistent/job.env")
ok(res.returncode == 2 and "/nonexistent/job.env" in res.stderr, f"missing file: {res.stderr!r}")

# text: the findings print like check's
rc, _, _ = check("dgx-h100", "NCCL_IB_HCA=mlx5_1\n", json_out=False)
ok(rc in (0, 1), f"text rc {rc}")

done()
