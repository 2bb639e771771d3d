#!/usr/bin/env python3
"""contrib/kubernetes/daemonset.yaml, servicemonitor.yaml and
prometheusrule.yaml against Kubernetes' published object schemas, with no
cluster:

- ajv's validators that the npm package kubernetes-models compiles from
  Kubernetes' OpenAPI spec (DaemonSet, Service), and that
  @kubernetes-models/prometheus-operator compiles from the Prometheus
  Operator's CRDs (ServiceMonitor, PrometheusRule); tests/k8s/schema/package.json
  pins them;
- the TypeScript interfaces the same packages generate from the same spec,
  for what the schemas let through: an unknown field (a misspelt
  `readOnlyRootFilesystem` is silently dropped by an API server that does
  not validate strictly, and the container's root is then writable);
- what no schema says, read from the objects: the selectors match the
  labels, the ports' names and numbers agree with --listen, and the
  PrometheusRule holds contrib/prometheus/rdmadoctor.rules.yml's groups as
  they are (prometheusrule.sh makes it so) and passes promtool as Prometheus
  would load them: `promtool check rules`, and `promtool test rules` with
  the rules file's own tests run on the PrometheusRule's copy.

Each check is also shown a broken copy, which it must reject.

usage: test_manifests.py SOURCE_DIR NODE_DIR
NODE_DIR keeps the npm packages between runs (reinstalled when the lock
file changes).  Exit 0 pass, 1 fail, 77 skip (no node or npm here, or the
npm registry cannot be reached: the reason is printed).
"""
import copy
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

SRC, NODE_DIR = sys.argv[1], sys.argv[2]
SCHEMA = os.path.join(SRC, "tests/k8s/schema")
K8S = os.path.join(SRC, "contrib/kubernetes")
fails = 0


def ok(msg):
    print("ok:", msg)


def bad(msg):
    global fails
    fails += 1
    print("FAIL:", msg)


def skip(msg):
    print("SKIP:", msg)
    sys.exit(77)


def install():
    """npm ci of the pinned packages into NODE_DIR, unless the same lock
    file was installed there before."""
    for tool in ("node", "npm"):
        if not shutil.which(tool):
            skip(f"no {tool} (the machine's Node.js)")
    lock = open(os.path.join(SCHEMA, "package-lock.json"), "rb").read()
    stamp = os.path.join(NODE_DIR, "installed.sha256")
    digest = hashlib.sha256(lock).hexdigest()
    os.makedirs(NODE_DIR, exist_ok=True)
    for f in ("package.json", "package-lock.json", "validate.js"):
        shutil.copy(os.path.join(SCHEMA, f), NODE_DIR)
    if os.path.exists(stamp) and open(stamp).read() == digest and \
            os.path.isdir(os.path.join(NODE_DIR, "node_modules")):
        return
    r = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                       cwd=NODE_DIR, capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        print(r.stdout + r.stderr)
        if any(w in r.stderr for w in ("ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ETIMEDOUT",
                                       "ENETUNREACH")):
            skip("the npm registry cannot be reached")
        print("FAIL: npm ci of tests/k8s/schema")
        sys.exit(1)
    open(stamp, "w").write(digest)


def load():
    docs = []
    for name in ("daemonset.yaml", "servicemonitor.yaml", "prometheusrule.yaml"):
        with open(os.path.join(K8S, name)) as f:
            docs += [d for d in yaml.safe_load_all(f) if d is not None]
    return docs


def ajv(objs):
    """validate.js's verdict: (exit status, its lines)."""
    r = subprocess.run(["node", os.path.join(NODE_DIR, "validate.js")], input=json.dumps(objs),
                       capture_output=True, text=True, timeout=60)
    return r.returncode, (r.stdout + r.stderr).strip()


# Each object's TypeScript interface, as kubernetes-models names it.
TYPES = {
    "DaemonSet": ("kubernetes-models/apps/v1/DaemonSet", "IDaemonSet"),
    "Service": ("kubernetes-models/v1/Service", "IService"),
    "ServiceMonitor": ("@kubernetes-models/prometheus-operator/"
                       "monitoring.coreos.com/v1/ServiceMonitor", "IServiceMonitor"),
    "PrometheusRule": ("@kubernetes-models/prometheus-operator/"
                       "monitoring.coreos.com/v1/PrometheusRule", "IPrometheusRule"),
}


def tsc(groups):
    """Each group's objects as object literals typed with their interfaces,
    which TypeScript checks for unknown properties at every depth, in one
    run of tsc (a few seconds each): each group's errors, in order."""
    text, owner = [], []	# the file's lines, and the group of each
    for g, objs in enumerate(groups):
        for i, o in enumerate(objs):
            mod, iface = TYPES[o["kind"]]
            obj = f"export const o{g}_{i}: T{g}_{i} = {json.dumps(o, indent=1)};".split("\n")
            text += [f'import type {{ {iface} as T{g}_{i} }} from "{mod}";'] + obj
            owner += [g] * (1 + len(obj))
    ts = os.path.join(NODE_DIR, "manifests.ts")
    with open(ts, "w") as f:
        f.write("\n".join(text) + "\n")
    r = subprocess.run([os.path.join(NODE_DIR, "node_modules/.bin/tsc"), "--noEmit", "--strict",
                        "--skipLibCheck", "--moduleResolution", "node", "--module", "commonjs",
                        "--target", "es2020", ts], cwd=NODE_DIR, capture_output=True, text=True,
                       timeout=120)
    errors = [[] for _ in groups]
    for line in (r.stdout + r.stderr).splitlines():
        m = re.match(r"manifests\.ts\((\d+),\d+\): (.*)", line)
        if m and int(m.group(1)) <= len(owner):
            errors[owner[int(m.group(1)) - 1]].append(m.group(2))
        elif line.strip():
            errors[0].append(line)	# not about one object: the manifests' group fails
    if r.returncode != 0 and not any(errors):
        errors[0].append(f"tsc exited {r.returncode} without an error line")
    return errors


def by_kind(objs, kind):
    found = [o for o in objs if o["kind"] == kind]
    return found[0] if len(found) == 1 else None


def consistent(objs):
    """What the schemas cannot say: a list of the disagreements."""
    ds, svc, sm = (by_kind(objs, k) for k in ("DaemonSet", "Service", "ServiceMonitor"))
    if not ds or not svc or not sm:
        return ["not exactly one DaemonSet, Service and ServiceMonitor"]
    why = []
    pod_labels = ds["spec"]["template"]["metadata"].get("labels", {})

    def matches(selector, labels):
        return bool(selector) and all(labels.get(k) == v for k, v in selector.items())

    if not matches(ds["spec"]["selector"].get("matchLabels"), pod_labels):
        why.append("the DaemonSet's selector does not match its pods' labels")
    if not matches(svc["spec"].get("selector"), pod_labels):
        why.append("the Service's selector does not match the DaemonSet's pods")
    if not matches(sm["spec"]["selector"].get("matchLabels"), svc["metadata"].get("labels", {})):
        why.append("the ServiceMonitor's selector does not match the Service's labels")
    spec = ds["spec"]["template"]["spec"]
    c = spec["containers"][0]
    cports = {p.get("name"): p["containerPort"] for p in c.get("ports", [])}
    sports = {p.get("name"): p for p in svc["spec"]["ports"]}
    for ep in sm["spec"]["endpoints"]:
        if ep.get("port") not in sports:
            why.append(f"the ServiceMonitor scrapes port '{ep.get('port')}', "
                       "which the Service lacks")
    for p in sports.values():
        if p.get("targetPort") not in cports and p.get("targetPort") not in cports.values():
            why.append(f"the Service's targetPort {p.get('targetPort')} "
                       "is no port of the container")
    listen = [a.split("=", 1)[1] for a in c.get("args", []) if a.startswith("--listen=")]
    if len(listen) != 1 or int(listen[0].rsplit(":", 1)[1]) not in cports.values():
        why.append(f"serve's --listen {listen} is not the container's port {list(cports.values())}")
    if not spec.get("hostNetwork"):
        why.append("not on the host's network: the NICs' netdevs and netlink are not the pod's")
    # issue 44: the node's own address, not every address of the host's
    # network (public, data-plane), where NetworkPolicy does not reach
    env = {e["name"]: e for e in c.get("env", [])}
    host = listen[0].rsplit(":", 1)[0] if len(listen) == 1 else ""
    var = host[2:-1] if host.startswith("$(") and host.endswith(")") else None
    if not var or env.get(var, {}).get("valueFrom", {}).get("fieldRef", {}).get("fieldPath") \
            != "status.hostIP":
        why.append(f"serve listens on {host!r}, not on the node's own address "
                   "(an env var from the downward API's status.hostIP)")
    # no capability unless the operator opts in (NET_ADMIN: the module pages)
    for k in spec.get("initContainers", []) + spec["containers"]:
        caps = k.get("securityContext", {}).get("capabilities", {})
        if caps.get("drop") != ["ALL"] or caps.get("add"):
            why.append(f"container {k['name']} keeps or adds capabilities: {caps}")
    # only RDMA nodes: NFD's rdma labels; and no blanket toleration
    terms = spec.get("affinity", {}).get("nodeAffinity", {}) \
        .get("requiredDuringSchedulingIgnoredDuringExecution", {}).get("nodeSelectorTerms", [])
    keys = {e["key"] for t in terms for e in t.get("matchExpressions", [])}
    if not keys or not keys <= {"feature.node.kubernetes.io/rdma.capable",
                                "feature.node.kubernetes.io/rdma.available"}:
        why.append(f"the pods are not kept to RDMA nodes by NFD's rdma labels: {keys}")
    for t in spec.get("tolerations", []):
        if "key" not in t:
            why.append(f"a toleration of every taint: {t}")
    return why


def rules_agree(objs):
    """The PrometheusRule against the rules file it is made from: a list
    of the disagreements."""
    pr = by_kind(objs, "PrometheusRule")
    if not pr:
        return ["not exactly one PrometheusRule"]
    with open(os.path.join(SRC, "contrib", "prometheus", "rdmadoctor.rules.yml")) as f:
        groups = yaml.safe_load(f)["groups"]
    if pr["spec"].get("groups") != groups:
        return ["the PrometheusRule's groups are not rdmadoctor.rules.yml's "
                "(run contrib/kubernetes/prometheusrule.sh)"]
    return []


def promtool(objs):
    """The PrometheusRule's groups as a rule file, loaded and tested by
    promtool as Prometheus would load them: (ok, what it said)."""
    if not shutil.which("promtool"):
        return False, "no promtool (apt-get install prometheus)"
    with tempfile.TemporaryDirectory(prefix="rd-prule-") as d:
        with open(os.path.join(d, "rdmadoctor.rules.yml"), "w") as f:
            yaml.safe_dump({"groups": by_kind(objs, "PrometheusRule")["spec"]["groups"]}, f)
        shutil.copy(os.path.join(SRC, "contrib", "prometheus", "rdmadoctor.rules_test.yml"), d)
        out = ""
        for args in (["check", "rules", "rdmadoctor.rules.yml"],
                     ["test", "rules", "rdmadoctor.rules_test.yml"]):
            r = subprocess.run(["promtool"] + args, cwd=d, capture_output=True, text=True,
                               timeout=120)
            out += (r.stdout + r.stderr).strip() + "\n"
            if r.returncode != 0:
                return False, out
        return True, out


def main():
    install()
    objs = load()
    print("objects:", ", ".join(f"{o['kind']} {o['metadata']['name']}" for o in objs))

    rc, out = ajv(objs)
    print(out)
    if rc == 0 and out.count("\nok ") + out.startswith("ok ") == len(objs):
        ok("every object is valid against its schema (ajv)")
    else:
        bad("schema validation")
    # the validators can say no: a wrong type, a required field missing, a
    # Duration the CRD's pattern refuses
    broken = []
    b = copy.deepcopy(objs)
    container = by_kind(b, "DaemonSet")["spec"]["template"]["spec"]["containers"][0]
    container["ports"][0]["containerPort"] = "9879"
    broken.append(("a string containerPort", b))
    b = copy.deepcopy(objs)
    del by_kind(b, "DaemonSet")["spec"]["selector"]
    broken.append(("a DaemonSet without selector", b))
    b = copy.deepcopy(objs)
    by_kind(b, "ServiceMonitor")["spec"]["endpoints"][0]["interval"] = "30 seconds"
    broken.append(("a ServiceMonitor interval '30 seconds'", b))
    b = copy.deepcopy(objs)
    del by_kind(b, "PrometheusRule")["spec"]["groups"][0]["name"]
    broken.append(("a PrometheusRule group without a name", b))
    for what, b in broken:
        rc, out = ajv(b)
        if rc != 0 and "invalid" in out:
            why = next(line for line in out.splitlines() if line.startswith("invalid"))
            ok(f"ajv rejects {what}: {why}")
        else:
            bad(f"ajv accepts {what}: {out}")

    b = copy.deepcopy(objs)
    sc = by_kind(b, "DaemonSet")["spec"]["template"]["spec"]["containers"][0]["securityContext"]
    sc["readonlyRootFilesystem"] = sc.pop("readOnlyRootFilesystem")
    errs, errs_b = tsc([objs, b])
    if not errs:
        ok("no unknown field (TypeScript's excess property check against the same spec's types)")
    else:
        bad("tsc: " + "\n".join(errs))
    if any("readonlyRootFilesystem" in e for e in errs_b):
        ok("tsc rejects a misspelt readOnlyRootFilesystem (which ajv "
           f"{'rejects too' if ajv(b)[0] else 'lets through'})")
    else:
        bad(f"tsc accepts a misspelt readOnlyRootFilesystem: {errs_b}")

    why = consistent(objs)
    if why:
        for w in why:
            bad(w)
    else:
        ok("selectors match the labels; the ports agree with serve's --listen")
    b = copy.deepcopy(objs)
    by_kind(b, "Service")["spec"]["selector"]["app.kubernetes.io/component"] = "agent"
    by_kind(b, "ServiceMonitor")["spec"]["endpoints"][0]["port"] = "http"
    if len(consistent(b)) == 2:
        ok("a Service selecting no pod and a ServiceMonitor naming no port are caught")
    else:
        bad(f"broken labels and port names: {consistent(b)}")
    # what the pods were given, each undone in a copy (issue 44)
    for what, undo in (
            ("serve on every address", lambda p: p["containers"][0]["args"].__setitem__(
                1, "--listen=0.0.0.0:9879")),
            ("NET_ADMIN added by default", lambda p: p["containers"][0]["securityContext"]
             ["capabilities"].__setitem__("add", ["NET_ADMIN"])),
            ("no node affinity", lambda p: p.pop("affinity")),
            ("a toleration of every taint", lambda p: p["tolerations"].append(
                {"operator": "Exists"}))):
        b = copy.deepcopy(objs)
        undo(by_kind(b, "DaemonSet")["spec"]["template"]["spec"])
        if len(consistent(b)) == 1:
            ok(f"{what} is caught: {consistent(b)[0]}")
        else:
            bad(f"{what}: {consistent(b)}")

    # the PrometheusRule: made from the rules file, and what promtool loads
    made = subprocess.run(["sh", os.path.join(K8S, "prometheusrule.sh")], capture_output=True,
                          text=True, timeout=30)
    with open(os.path.join(K8S, "prometheusrule.yaml")) as f:
        shipped = f.read()
    if made.returncode == 0 and made.stdout == shipped:
        ok("prometheusrule.yaml is what prometheusrule.sh makes of the rules file")
    else:
        bad(f"prometheusrule.yaml is not prometheusrule.sh's output: {made.stderr}")
    why = rules_agree(objs)
    if why:
        for w in why:
            bad(w)
    else:
        ok("the PrometheusRule holds rdmadoctor.rules.yml's groups as they are")
    b = copy.deepcopy(objs)
    rule = by_kind(b, "PrometheusRule")["spec"]["groups"][0]["rules"][0]
    rule["for"] = "10m"
    if rules_agree(b):
        ok("a PrometheusRule that drifted from the rules file is caught")
    else:
        bad("a drifted PrometheusRule passes")
    good, out = promtool(objs)
    print(out.rstrip())
    if good:
        ok("promtool checks the PrometheusRule's rules and its alerts fire as the rules' tests say")
    else:
        bad("promtool on the PrometheusRule's rules")
    b = copy.deepcopy(objs)
    by_kind(b, "PrometheusRule")["spec"]["groups"][0]["rules"][0]["expr"] = "rdmadoctor_up =="
    if not promtool(b)[0]:
        ok("promtool rejects a PrometheusRule with a broken expression")
    else:
        bad("promtool accepts a broken expression")

    print(f"manifests: {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
