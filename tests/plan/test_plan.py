#!/usr/bin/env python3
"""`rdmadoctor plan` against figures this script computes on its own from the
formulas in docs/plan.md (nccl-tests bus-bandwidth factors, Megatron-LM and
llm-analysis traffic terms), never through the planner's code.

usage: test_plan.py CASE RDMADOCTOR SOURCE_DIR
CASE: worked (the reference worked example and the field guide's 30 GB/s
claim), configs (ZeRO-3, MoE with EP, PP across nodes, ...), recorded (a
host's record with a measured bw below nominal), bad (usage errors)."""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdtest  # noqa: E402

BIN, SRC = sys.argv[2], sys.argv[3]
FIX = os.path.join(SRC, "tests", "fixtures")
failures = []


def run(args, expect_rc=None):
    p = rdtest.run(BIN, *args)
    if expect_rc is not None and p.returncode != expect_rc:
        fail(f"{' '.join(args)}: exit {p.returncode}, wanted {expect_rc}\n"
             f"stdout: {p.stdout}\nstderr: {p.stderr}")
    return p


def plan(args, expect_rc=None):
    return run(["plan"] + args, expect_rc)


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def close(what, got, want, rel=1e-6):
    if got is None or want is None:
        if got != want:
            fail(f"{what}: got {got}, want {want}")
        return
    if not math.isclose(got, want, rel_tol=rel, abs_tol=1e-12):
        fail(f"{what}: got {got}, want {want}")


def has(what, text, needle):
    if needle not in text:
        fail(f"{what}: {needle!r} not in:\n{text}")


# --- the formulas, written out again -------------------------------------

def ranks_per_node(stride, size, gpn):
    k = 1 if stride >= gpn else gpn // stride
    return min(k, size)


def efficiency(ib, mtu, rate):
    """Payload after per-packet headers (IB 26 B, RoCEv2 82 B), capped by
    NCCL's per-NIC figure where its maintainers quote one."""
    payload = mtu / (mtu + (26 if ib else 82))
    nccl = {100: 12 / 12.5, 200: 24 / 25, 400: 47 / 50}.get(rate, 1.0)
    return min(payload, nccl)


def expect(job, gpn, ports):
    """job: dict; ports: [(rate_gbps, ib, mtu)] of one node.  The plan as
    docs/plan.md states it."""
    P, t, p, d = job["params"], job["tp"], job["pp"], job["dp"]
    e, z = job.get("ep", 1), job.get("zero", 0)
    L, h, s = job.get("layers", 0), job.get("hidden", 0), job.get("seq", 4096)
    b, B = job.get("micro_batch", 1), job.get("bytes", 2)
    Bg = job.get("grad_bytes", B)
    G = job.get("global_batch", b * d)
    m = G // (b * d)
    topk, moe = job.get("top_k", 0), job.get("moe_layers", L)
    act = b * s * h * B
    out = {}
    # data parallel: ring AllReduce of the gradients each GPU holds
    dpb = 2 * (d - 1) / d * P / (t * p) * Bg * (1.5 if z == 3 else 1) if d > 1 else 0
    k = ranks_per_node(t * p, d, gpn)
    out["dp"] = (dpb, 0 if k >= d else dpb / k)
    tpb = 4 * 2 * (t - 1) / t * act * (L / p) * m if t > 1 else 0
    k = ranks_per_node(1, t, gpn)
    out["tp"] = (tpb, 0 if k >= t else tpb / k)
    if p > 1:
        per = act * m
        ppb = per * (2 if p >= 3 else 1)
        k = ranks_per_node(t, p, gpn)
        out["pp"] = (ppb, 0 if k >= p else ppb if k == 1 else per)
    if e > 1:
        epb = 4 * topk * act * (moe / p) * m
        k = ranks_per_node(t * p, e, gpn)
        out["ep"] = (epb, epb * (e - k) / e)
    nic = sum(v[1] for v in out.values())
    line = sum(r for r, _, _ in ports) / 8 / gpn
    exp = sum(r * efficiency(ib, mtu, r) for r, ib, mtu in ports) / 8 / gpn
    if "step_seconds" in job:
        compute = job["step_seconds"]
    elif "tflops" in job:
        compute = 6 * P * G * s / (t * p * d * job["tflops"] * 1e12)
    else:
        compute = None
    net_exp = nic / (exp * 1e9)
    share = net_exp / compute if compute else None
    verdict = ("unknown" if share is None else "fits" if share <= 0.1 else
               "tight" if share <= 1 else "network-bound")
    return {"traffic": out, "line": line, "expected": exp, "net_line": nic / (line * 1e9),
            "net_expected": net_exp, "compute": compute, "verdict": verdict,
            "need_overlap": nic / compute / 1e9 if compute else None}


def args_of(job):
    a = ["--params", repr(job["params"]), "--tp", str(job["tp"]), "--pp", str(job["pp"]),
         "--dp", str(job["dp"])]
    for key, opt in (("ep", "--ep"), ("zero", "--zero"), ("layers", "--layers"),
                     ("hidden", "--hidden"), ("seq", "--seq"), ("micro_batch", "--micro-batch"),
                     ("global_batch", "--global-batch"), ("experts", "--experts"),
                     ("top_k", "--top-k"), ("moe_layers", "--moe-layers"),
                     ("step_seconds", "--step-seconds"), ("tflops", "--tflops")):
        if key in job:
            a += [opt, repr(job[key]) if isinstance(job[key], float) else str(job[key])]
    for key, opt in (("bytes", "--dtype"), ("grad_bytes", "--grad-dtype")):
        if key in job:
            a += [opt, {2: "bf16", 4: "fp32"}[job[key]]]
    return a


def compare(name, doc, want):
    got = {t["kind"]: t for t in doc["traffic"]}
    for kind, (total, nic) in want["traffic"].items():
        if total == 0:
            continue
        if kind not in got:
            fail(f"{name}: no {kind} traffic in {sorted(got)}")
            continue
        close(f"{name} {kind} bytes", got[kind]["bytes_per_gpu_per_step"], total)
        close(f"{name} {kind} nic bytes", got[kind]["nic_bytes_per_gpu_per_step"], nic)
        if got[kind]["crosses_nic"] != (nic > 0):
            fail(f"{name} {kind}: crosses_nic {got[kind]['crosses_nic']}, want {nic > 0}")
    close(f"{name} per GPU line", doc["per_gpu_gbytes_per_s"]["line_rate"], want["line"])
    close(f"{name} per_gpu_gbps", doc["per_gpu_gbps"], want["line"] * 8)
    close(f"{name} per GPU expected", doc["per_gpu_gbytes_per_s"]["expected"], want["expected"])
    close(f"{name} network line", doc["network_seconds"]["line_rate"], want["net_line"])
    close(f"{name} network expected", doc["network_seconds"]["expected"], want["net_expected"])
    close(f"{name} compute", doc["compute_seconds"], want["compute"])
    close(f"{name} need", doc["needs"]["overlap"]["per_gpu_gbytes_per_s"], want["need_overlap"])
    if doc["verdict"] != want["verdict"]:
        fail(f"{name}: verdict {doc['verdict']}, want {want['verdict']}")


def plan_json(args, rc=None):
    p = plan(args + ["--json"])
    if rc is not None and p.returncode != rc:
        fail(f"{args}: exit {p.returncode}, wanted {rc}: {p.stderr}")
    try:
        return json.loads(p.stdout)
    except ValueError:
        fail(f"{args}: not JSON: {p.stdout!r} {p.stderr!r}")
        return None


# --- cases -----------------------------------------------------------------

W70 = {"params": 70e9, "tp": 8, "pp": 1, "dp": 16, "layers": 80, "hidden": 8192}
HDR8 = [(200, True, 4096)] * 8
ROCE2 = [(100, False, 4096)] * 2


def case_worked():
    # 8 x 200G per node: 32.8 GB of gradients per GPU, at least 1.31 s
    for machine in (["--profile", "dgx-a100"],
                    ["--root", os.path.join(FIX, "dgx-a100", "root")]):
        job = dict(W70, step_seconds=2.0)
        want = expect(job, 8, HDR8)
        close("worked dp bytes", want["traffic"]["dp"][0], 32.8125e9)
        close("worked seconds", want["net_line"], 1.3125)
        doc = plan_json(args_of(job) + machine, 0)
        if doc:
            compare(f"worked {machine[0]}", doc, want)
            if doc["capped_by"] != "port_rate":
                fail(f"worked: capped_by {doc['capped_by']}")
        text = plan(args_of(job) + machine, 0).stdout
        has("worked text", text, "32.8 GB")
        has("worked text", text, "at least 1.31 s per step at line rate")
        has("worked text", text, "25.00 GB/s one way")
        has("worked text", text, "NVLink")
        if not text.startswith("plan: tight"):
            fail(f"worked text: verdict first: {text[:40]!r}")
    # the budget box: two 100G RoCE ports for 8 GPUs, at least 10.5 s
    for machine in (["--profile", "budget-2x100g-roce"],
                    ["--root", os.path.join(FIX, "a800-2x100g-roce", "root")]):
        job = dict(W70, step_seconds=4.0)
        want = expect(job, 8, ROCE2)
        close("budget seconds", want["net_line"], 10.5)
        doc = plan_json(args_of(job) + machine, 1)
        if doc:
            compare(f"budget {machine[0]}", doc, want)
            if doc["verdict"] != "network-bound":
                fail(f"budget: verdict {doc['verdict']}")
        text = plan(args_of(job) + machine, 1).stdout
        has("budget text", text, "at least 10.50 s per step at line rate")
        has("budget text", text, "3.12 GB/s one way")
        has("budget text", text, "plan: network-bound")
    # two dual-port 100G cards (four ports): about 5.2 s; a profile file
    with tempfile.TemporaryDirectory(prefix="plan-") as tmp:
        prof = os.path.join(tmp, "four.ini")
        with open(prof, "w") as f:
            f.write("[profile]\nname = four-100g\nbased_on = budget-2x100g-roce\n"
                    "[rail]\ncount = 4\n")
        job = dict(W70, step_seconds=100.0)
        want = expect(job, 8, ROCE2 * 2)
        close("four ports seconds", want["net_line"], 5.25)
        doc = plan_json(args_of(job) + ["--profile", prof], 0)
        if doc:
            compare("four ports", doc, want)
    # the field guide: 30 GB/s per GPU needs 2 x 200G or 1 x 400G per GPU
    job = dict(W70, step_seconds=32.8125 / 30)
    doc = plan_json(args_of(job) + ["--profile", "dgx-a100"], 1)
    if doc:
        close("field guide need", doc["needs"]["overlap"]["per_gpu_gbytes_per_s"], 30.0)
        opts = {o["rate_gbps"]: o for o in doc["needs"]["overlap"]["options"]}
        # per-port 200G gives 24 GB/s, 400G 47 GB/s (NCCL's per-NIC figures)
        if opts[200]["ports_per_node"] != 16 or opts[400]["ports_per_node"] != 8:
            fail(f"field guide options: {opts}")
        if opts[200]["pcie_ok"] is not True or opts[400]["pcie_ok"] is not False:
            fail(f"field guide: Gen4 x16 carries 200G, not 400G: {opts}")
    text = plan(args_of(job) + ["--profile", "dgx-a100"], 1).stdout
    has("field guide text", text, "30.0 GB/s per GPU to hide the network behind the compute: "
        "16 x 200G or 8 x 400G per node")


def case_configs():
    h100 = [(400, True, 4096)] * 8
    a100 = [(200, True, 4096)] * 8
    cases = [
        # ZeRO-3 with TP 4: two DP ranks per node share its NICs; fp32 gradients
        ("zero3", {"params": 13e9, "tp": 4, "pp": 1, "dp": 32, "zero": 3, "layers": 40,
                   "hidden": 5120, "grad_bytes": 4, "global_batch": 512, "tflops": 150.0},
         ["--profile", "a100-8x200g"], a100),
        # MoE with expert parallelism: Mixtral 8x7B, EP 8 out of DP 32
        ("moe-ep", {"params": 46.7e9, "tp": 2, "pp": 1, "dp": 32, "ep": 8, "layers": 32,
                    "hidden": 4096, "experts": 8, "top_k": 2, "global_batch": 256,
                    "tflops": 300.0},
         ["--profile", "dgx-h100"], h100),
        # pipeline parallelism across nodes: 405B, TP 8 x PP 8 x DP 4
        ("pp-nodes", {"params": 405e9, "tp": 8, "pp": 8, "dp": 4, "layers": 126,
                      "hidden": 16384, "global_batch": 512, "micro_batch": 1,
                      "step_seconds": 20.0},
         ["--profile", "dgx-h100"], h100),
        # pipeline with two stages per node: only a node's edge stage crosses
        ("pp-half", {"params": 70e9, "tp": 4, "pp": 4, "dp": 8, "layers": 80, "hidden": 8192,
                     "global_batch": 256, "seq": 8192, "step_seconds": 10.0},
         ["--profile", "dgx-h100"], h100),
        # a tensor-parallel group larger than a node: planned and flagged
        ("tp-span", {"params": 70e9, "tp": 16, "pp": 1, "dp": 8, "layers": 80,
                     "hidden": 8192, "global_batch": 64, "step_seconds": 5.0},
         ["--profile", "dgx-h100"], h100),
        # DeepSeek-V3 from the shape table, EP 64 across nodes, PP 16
        ("deepseek", {"params": 671e9, "tp": 1, "pp": 16, "dp": 64, "ep": 64,
                      "layers": 61, "hidden": 7168, "experts": 256, "top_k": 8,
                      "moe_layers": 58, "global_batch": 4096, "tflops": 250.0},
         ["--profile", "dgx-h100"], h100),
    ]
    for name, job, machine, ports in cases:
        want = expect(job, 8, ports)
        rc = 1 if want["verdict"] == "network-bound" else 0
        doc = plan_json(args_of(job) + machine, rc)
        if doc:
            compare(name, doc, want)
            if doc["tp_spans_nodes"] != (job["tp"] > 8):
                fail(f"{name}: tp_spans_nodes {doc['tp_spans_nodes']}")
        text = plan(args_of(job) + machine, rc).stdout
        if (job["tp"] > 8) != ("RED FLAG: the tensor-parallel group of" in text):
            fail(f"{name}: red flag in text: {text}")
    # the shape table gives the same as the shape written out
    doc = plan_json(["--model", "deepseek-v3", "--pp", "16", "--dp", "64", "--ep", "64",
                     "--global-batch", "4096", "--tflops", "250", "--profile", "dgx-h100"])
    if doc:
        compare("deepseek --model", doc, expect(cases[-1][1], 8, h100))
        if doc["job"]["model"] != "DeepSeek-V3 671B":
            fail(f"deepseek model name: {doc['job']['model']}")
    p = plan(["--models"], 0)
    for name in ("llama2-7b", "llama3-405b", "mixtral-8x7b", "mixtral-8x22b", "deepseek-v3"):
        has("--models", p.stdout, name)
    # --params alone where the parallelism needs the shape: a size that is
    # exactly a built-in model's takes its shape, and says so
    for params, title, job, also in (
            ("70B", "Llama 2 70B", dict(W70, step_seconds=2.0), "Llama 3 70B has the same shape"),
            ("8B", "Llama 3 8B", {"params": 8e9, "tp": 2, "pp": 2, "dp": 8, "layers": 32,
                                  "hidden": 4096, "step_seconds": 1.0}, None),
            ("405B", "Llama 3.1 405B", {"params": 405e9, "tp": 8, "pp": 8, "dp": 4,
                                        "layers": 126, "hidden": 16384, "step_seconds": 20.0},
             None)):
        shapeless = args_of({k: v for k, v in job.items() if k not in ("layers", "hidden")})
        shapeless[1] = params
        doc = plan_json(shapeless + ["--profile", "dgx-a100"])
        if doc:
            compare(f"--params {params} shape assumed", doc, expect(job, 8, a100))
            if (doc["job"]["shape_assumed"] is not True or doc["job"]["model"] != title or
                    doc["job"]["layers"] != job["layers"] or
                    doc["job"]["hidden"] != job["hidden"]):
                fail(f"--params {params}: job {doc['job']}")
        p = plan(shapeless + ["--profile", "dgx-a100"])
        has(f"--params {params} text", p.stdout,
            f"model: shape assumed from {title} ({job['layers']} layers, hidden "
            f"{job['hidden']}), the built-in model of --params {params}")
        if also:
            has(f"--params {params} text", p.stdout, also)
        if p.stderr:
            fail(f"--params {params}: stderr {p.stderr!r}")
    # what the command line gives still wins over the assumed shape
    doc = plan_json(["--params", "70B", "--tp", "8", "--hidden", "4096", "--profile", "dgx-a100"])
    if doc and (doc["job"]["layers"], doc["job"]["hidden"], doc["job"]["shape_assumed"]) != \
            (80, 4096, True):
        fail(f"--params 70B --hidden 4096: job {doc['job']}")
    # the shape given, or none needed: nothing assumed
    for args in (["--params", "70B", "--tp", "8", "--layers", "80", "--hidden", "8192"],
                 ["--params", "70B", "--dp", "16"]):
        doc = plan_json(args + ["--profile", "dgx-a100"])
        if doc and (doc["job"]["shape_assumed"] is not False or doc["job"]["model"] is not None):
            fail(f"{args}: job {doc['job']}")
        if "shape assumed" in plan(args + ["--profile", "dgx-a100"]).stdout:
            fail(f"{args}: says a shape was assumed")


def record(tmp, root, bw_docs):
    os.makedirs(tmp, exist_ok=True)
    db = os.path.join(tmp, "fleet.db")
    args = ["--root", root, "record", "--db", db]
    for i, d in enumerate(bw_docs):
        path = os.path.join(tmp, f"bw{i}.json")
        with open(path, "w") as f:
            json.dump(d, f)
        args += ["--bw", path]
    run(args, 0)
    return db


def bw_doc(host, rails):
    return {"schema": 1, "test": "bw", "role": "client", "transport": "verbs", "op": "write",
            "local": {"host": host}, "remote": {"host": "peer"},
            "results": [{"size_bytes": 4 << 20,
                         "rails": [{"device": dev, "port": 1,
                                    "gbps": {"avg": g, "min": g, "max": g}}
                                   for dev, g in rails],
                         "total": {"gbps": {"avg": sum(g for _, g in rails)}}}],
            "verdict": "fail"}


def case_recorded():
    root = os.path.join(FIX, "dgx-a100", "root")
    host = "dgx-a100-004"
    measured = 150.0
    with tempfile.TemporaryDirectory(prefix="plan-") as tmp:
        db = record(tmp, root, [bw_doc(host, [(f"mlx5_{i}", measured) for i in range(8)])])
        job = dict(W70, step_seconds=2.0)
        want = expect(job, 8, HDR8)
        line = 8 * measured / 8 / 8
        doc = plan_json(args_of(job) + ["--db", db, "--host", host], 0)
        if doc:
            close("recorded line", doc["per_gpu_gbytes_per_s"]["line_rate"], line)
            close("recorded nominal", doc["per_gpu_gbytes_per_s"]["nominal"], want["line"])
            # measured is below the expected efficiency too: it is the figure
            close("recorded expected", doc["per_gpu_gbytes_per_s"]["expected"], line)
            close("recorded seconds", doc["network_seconds"]["line_rate"],
                  want["traffic"]["dp"][1] / (line * 1e9))
            if doc["capped_by"] != "measured":
                fail(f"recorded: capped_by {doc['capped_by']}")
            if not doc["measured_from"] or "8 of 8 rail ports measured" not in doc["measured_from"]:
                fail(f"recorded: measured_from {doc['measured_from']}")
            if [p["measured_gbps"] for p in doc["machine"]["ports"]] != [measured] * 8:
                fail(f"recorded ports: {doc['machine']['ports']}")
        text = plan(args_of(job) + ["--db", db, "--host", host], 0).stdout
        has("recorded text", text, "capped by what was measured: mlx5_0 port 1 150 Gb/s of its 200")
        has("recorded text", text, "those figures replace the nominal rates")
        has("recorded text", text, "record of dgx-a100-004")
        # a host whose record has no bw result plans on nominal rates, and says so
        db2 = os.path.join(tmp, "two.db")
        run(["--root", os.path.join(FIX, "dgx-h100", "root"), "record", "--db", db2], 0)
        h = json.loads(run(["--root", os.path.join(FIX, "dgx-h100", "root"), "inventory",
                            "--json"]).stdout)["host"]["hostname"]
        doc = plan_json(args_of(job) + ["--db", db2, "--host", h], 0)
        if doc:
            if doc["capped_by"] != "port_rate" or "nominal rates only" not in doc["measured_from"]:
                fail(f"unmeasured record: {doc['capped_by']} {doc['measured_from']}")
            close("unmeasured line", doc["per_gpu_gbytes_per_s"]["line_rate"], 50.0)
        # every rail measured at 0 Gb/s: no bandwidth, forever, network-bound
        db3 = record(os.path.join(tmp, "zero"), root,
                     [bw_doc(host, [(f"mlx5_{i}", 0.0) for i in range(8)])])
        doc = plan_json(args_of(job) + ["--db", db3, "--host", host], 1)
        if doc and (doc["network_seconds"]["line_rate"] is not None or
                    doc["verdict"] != "network-bound" or doc["per_gpu_gbps"] != 0):
            fail(f"zero measured: {doc['network_seconds']} {doc['verdict']}")
        has("zero measured text", plan(args_of(job) + ["--db", db3, "--host", host], 1).stdout,
            "forever")
        # a live or --root machine is planned under the profile check would
        # judge it by: the site file's when it names one
        site_root = os.path.join(tmp, "site-root")
        shutil.copytree(os.path.join(FIX, "a800-8x100g-roce", "root"), site_root, symlinks=True)
        os.makedirs(os.path.join(site_root, "etc", "rdmadoctor"), exist_ok=True)
        with open(os.path.join(site_root, "etc", "rdmadoctor", "rdmadoctor.conf"), "w") as f:
            f.write("[site]\nprofile = budget-2x100g-roce\n")
        has("site file profile", plan(args_of(job) + ["--root", site_root], None).stdout,
            "(profile budget-2x100g-roce)")
        has("no site file", plan(args_of(job) + ["--root", os.path.join(FIX, "a800-8x100g-roce",
                                                                       "root")], None).stdout,
            "(profile a800-8x100g-roce)")
        p = plan(args_of(job) + ["--db", db2, "--host", "no-such-host"], 2)
        has("unknown host", p.stderr, "no record of host 'no-such-host'")
        p = plan(args_of(job) + ["--db", os.path.join(tmp, "missing.db"), "--host", h], 3)
        if p.stdout:
            fail(f"missing db printed: {p.stdout!r}")


BAD = [
    (["--params", "-70B"], "must be more than zero"),
    (["--params", "0"], "must be more than zero"),
    (["--params", "70X"], "unknown suffix"),
    (["--params", "70BB"], "after its suffix"),
    (["--params", "70 B"], "has a space"),
    (["--params", " 70B"], "is not a number"),
    (["--params", "+inf"], "is not a number"),
    (["--params", "70e"], "unknown suffix"),
    (["--params", ""], "is not a number"),
    (["--params", "abc"], "is not a number"),
    (["--params", "inf"], "is not a number"),
    (["--params", "nan"], "is not a number"),
    (["--params", "0x10"], "is not a number"),
    (["--params", "1e999"], "too large"),
    (["--model", "gpt-9"], "no built-in model 'gpt-9'"),
    (["--params", "70B", "--dp", "16", "--gpus", "100"], "DP x TP x PP = 16 x 1 x 1 = 16 GPUs, but --gpus is 100"),
    (["--params", "70B", "--tp", "0"], "--tp '0' must be more than zero"),
    (["--params", "70B", "--tp", "2.5"], "must be a whole number"),
    (["--params", "70B", "--seq", "-4096"], "must be more than zero"),
    (["--params", "70B", "--zero", "4"], "not a ZeRO stage"),
    (["--params", "70B", "--dtype", "int8"], "not a data type"),
    (["--params", "70B", "--profile", "dgx-a100", "--tp"], "--tp needs a value"),
    (["--params", "70B", "--frobnicate"], "unknown option"),
    (["--params", "70B", "extra"], "unexpected argument 'extra'"),
    (["--model", "mixtral-8x7b", "--dp", "16", "--ep", "3"], "not a multiple of --ep 3"),
    (["--params", "70B", "--dp", "16", "--global-batch", "17"], "not a multiple"),
    # a size no built-in model has: the options that give the shape
    (["--params", "65B", "--tp", "8"], "--params 65B is no built-in model's size"),
    (["--params", "65B", "--pp", "2"], "give --hidden H and --layers L"),
    (["--params", "65B", "--tp", "8", "--hidden", "8192"], "or --model NAME"),
    (["--params", "70B", "--ep", "2", "--dp", "2", "--hidden", "8", "--layers", "2"], "--ep needs a mixture-of-experts model"),
    (["--tp", "8"], "give the model"),
    # TP splits attention by heads, and lies within a node or spans whole ones
    (["--model", "llama3-70b", "--tp", "3"], "--tp 3 does not divide the model's 64 attention heads"),
    (["--model", "llama3-70b", "--tp", "16"], "does not divide the model's 8 key/value heads"),
    (["--params", "70B", "--tp", "3", "--layers", "80", "--hidden", "8192"], "does not fit nodes of 8 GPUs"),
    (["--model", "llama2-13b", "--tp", "4", "--gpus-per-node", "10"], "does not fit nodes of 10 GPUs"),
    (["--params", "70B", "--layers", "80", "--hidden", "8192", "--tp", "1048576", "--pp", "80",
      "--dp", "16777216"], "is more than 1073741824 GPUs"),
    (["--params", "70B", "--step-seconds", "2", "--tflops", "300"], "not both"),
    (["--params", "70B", "--step-seconds", "0"], "must be more than zero"),
    (["--params", "70B", "--profile", "no-such-profile"], "no built-in profile"),
    (["--params", "70B", "--db", "x.db"], "--db and --host go together"),
    (["--params", "70B", "--profile", "dgx-a100", "--db", "x.db", "--host", "h"], "one machine at a time"),
]


def case_bad():
    for args, needle in BAD:
        machine = [] if "--profile" in args or "--db" in args else ["--profile", "dgx-a100"]
        p = plan(args + machine)
        if p.returncode != 2:
            fail(f"{args}: exit {p.returncode}, wanted 2 ({p.stderr})")
        has(f"{args} stderr", p.stderr, needle)
        if p.stdout:
            fail(f"{args}: printed on stdout: {p.stdout!r}")
    p = plan(["--help"], 0)
    has("help", p.stdout, "--step-seconds")


def case_valgrind():
    """A profile, a fixture, a record with measured figures and a refused
    value, under valgrind as tests/valgrind/run.sh runs it: no error, no
    leak."""
    import shutil
    if not shutil.which("valgrind"):
        print("valgrind not installed: skipped")
        sys.exit(77)
    plain = BIN
    with tempfile.TemporaryDirectory(prefix="plan-") as tmp:
        root = os.path.join(FIX, "dgx-a100", "root")
        db = record(tmp, root, [bw_doc("dgx-a100-004", [("mlx5_0", 120.0)])])
        runs = [
            args_of(dict(W70, step_seconds=2.0)) + ["--profile", "dgx-a100", "--json"],
            ["--model", "deepseek-v3", "--pp", "16", "--dp", "64", "--ep", "64",
             "--tflops", "250", "--root", os.path.join(FIX, "dgx-h100", "root")],
            args_of(dict(W70, step_seconds=2.0)) + ["--db", db, "--host", "dgx-a100-004"],
            ["--params", "70X", "--profile", "dgx-a100"],
        ]
        for args in runs:
            p = subprocess.run(["valgrind", "-q", "--error-exitcode=99", "--leak-check=full",
                                "--show-leak-kinds=definite,indirect",
                                "--errors-for-leak-kinds=definite,indirect", plain, "plan"]
                               + args, capture_output=True, text=True, timeout=300)
            if p.returncode == 99:
                fail(f"valgrind {args}:\n{p.stderr}")


def main():
    {"worked": case_worked, "configs": case_configs, "recorded": case_recorded,
     "bad": case_bad, "valgrind": case_valgrind}[sys.argv[1]]()
    if failures:
        print(f"{len(failures)} failures")
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
