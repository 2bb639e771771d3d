#!/usr/bin/env python3
"""The container image and the DaemonSet's pod, run for real, with no cluster.

contrib/kubernetes/image/build-image.sh builds the image from the .deb that
the package test built (a ctest fixture: it is not built twice): an
mmdebstrap tree of Debian packages, imported by podman into a storage of
this test's own.  Then the pod that contrib/kubernetes/daemonset.yaml
describes is run from that image: the image's entrypoint with the
DaemonSet's args, the host's network, a read-only root, the DaemonSet's
hostPath volumes bound read-only where it mounts them (but the agent's
memory, /var/lib/rdmadoctor: a directory of this test's own, writable), its
memory volume as a tmpfs, its capabilities (all dropped, none added) and no new
privileges.  One thing differs, and is said: serve listens on a free port
of 127.0.0.1, not on every address's 9879 (a test machine's are not ours).

`podman run` is tried first.  Where it fails before the container starts
(on these machines crun and runc cannot set RLIMIT_NOFILE), the image's own
root file system (podman image mount) runs under bwrap with the same
command, mounts, namespaces and capabilities (serve its PID 1, as in a
container); the test says which ran.  bwrap applies no seccomp profile,
where podman, like the DaemonSet's RuntimeDefault, applies its default.
The image's one program must be rdmadoctor, and the DaemonSet's image,
entrypoint and args the ones the image was built with.

Twice:
1. as the DaemonSet says, the host's /sys: serve reads this machine.  With
   no RDMA device here it must exit 3, "nothing to check" (the oracle: the
   host's /sys/class/infiniband, read here); where the machine has one, it
   must serve every one of them.
2. with a bundled example machine's sys tree in place of the host's /sys
   (examples/dgx-h100), so that there is something to serve: /metrics is
   scraped on 127.0.0.1 and held to that tree (its RDMA devices), to the
   host (kernel and hostname, through the shared /proc and host name), to
   the .deb (its version) and to promtool; the serving process's
   capabilities, no_new_privs and read-only mounts are read from /proc;
   a SIGTERM to it must end it with 0.

usage: test_image.py DEB_DIR SOURCE_DIR
Exit 0 pass, 1 fail, 77 skip (not root, or the Debian archive cannot be
reached: the reason is printed).
"""
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

import yaml

DEB_DIR, SRC = sys.argv[1], sys.argv[2]
EXAMPLE = os.path.join(SRC, "examples/dgx-h100")
CAP_NET_ADMIN = 12
STATE = "/var/lib/rdmadoctor"	# the agent's memory (docs/state.md): the one writable hostPath
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


def die(msg):
    print("FAIL:", msg)
    sys.exit(1)


class Pod:
    """One container of the DaemonSet's pod, read from daemonset.yaml: the
    first (serve), or the one named (among the init containers too)."""

    def __init__(self, path, name=None):
        with open(path) as f:
            ds = yaml.safe_load(f)
        spec = ds["spec"]["template"]["spec"]
        every = spec["containers"] + spec.get("initContainers", [])
        c = next((k for k in every if k["name"] == name), None) if name else every[0]
        if c is None:
            die(f"the DaemonSet has no container {name}")
        self.name = c["name"]
        self.image = c["image"]
        self.host_network = spec.get("hostNetwork", False)
        self.command = c.get("command")
        self.args = c.get("args", [])
        sc = c.get("securityContext", {})
        self.read_only_root = sc.get("readOnlyRootFilesystem", False)
        self.no_new_privs = sc.get("allowPrivilegeEscalation") is False
        self.user = sc.get("runAsUser")
        self.cap_drop = sc.get("capabilities", {}).get("drop", [])
        self.cap_add = sc.get("capabilities", {}).get("add", [])
        volumes = {v["name"]: v for v in spec.get("volumes", [])}
        self.host_paths = []	# (host path, mount path, read-only)
        self.memory = []	# mount paths of emptyDir volumes
        for m in c.get("volumeMounts", []):
            v = volumes[m["name"]]
            if "hostPath" in v:
                self.host_paths.append((v["hostPath"]["path"], m["mountPath"],
                                        m.get("readOnly", False)))
            elif "emptyDir" in v:
                self.memory.append(m["mountPath"])
            else:
                die(f"volume {m['name']}: neither hostPath nor emptyDir, which this test runs")


def test_listen(args):
    """The args with serve's --listen on a free loopback port."""
    return [("--listen=127.0.0.1:0" if a.startswith("--listen=") else a) for a in args]


def podman_argv(podman, image, pod, binds):
    argv = podman + ["run", "--rm", "--network", "host" if pod.host_network else "none"]
    if pod.read_only_root:
        argv.append("--read-only")
    argv += [f"--cap-drop={c}" for c in pod.cap_drop] + [f"--cap-add={c}" for c in pod.cap_add]
    if pod.no_new_privs:
        argv += ["--security-opt", "no-new-privileges"]
    for src, dst, ro in binds:
        argv += ["-v", f"{src}:{dst}" + (":ro" if ro else "")]
    for m in pod.memory:
        argv += ["--tmpfs", m]
    if pod.command:
        argv += ["--entrypoint", pod.command[0]]
    return argv + [image] + (pod.command or [])[1:] + test_listen(pod.args)


def bwrap_argv(rootfs, entrypoint, pod, binds):
    """A pod's namespaces: its own mount, PID (serve its PID 1, as in a
    container), IPC and cgroup ones; the host's network and (as Kubernetes
    does under hostNetwork) host name.  No user namespace: the capabilities
    are the host's, as in a pod."""
    argv = ["bwrap", "--die-with-parent", "--unshare-pid", "--as-pid-1", "--unshare-ipc",
            "--unshare-cgroup-try", "--ro-bind" if pod.read_only_root else "--bind", rootfs, "/",
            "--proc", "/proc", "--dev", "/dev"]
    if not pod.host_network:
        argv.append("--unshare-net")
    for src, dst, ro in binds:
        argv += ["--ro-bind" if ro else "--bind", src, dst]
    for m in pod.memory:
        argv += ["--tmpfs", m]
    # bwrap sets no_new_privs always, as allowPrivilegeEscalation: false does
    if "ALL" in pod.cap_drop:
        argv += ["--cap-drop", "ALL"]
    for c in pod.cap_add:
        argv += ["--cap-add", "CAP_" + c]
    return argv + ["--"] + (pod.command or entrypoint) + test_listen(pod.args)


def serve_pid(argv_tail, not_pid):
    """The pid of the process running the container's command (its argv
    ends with it), not a runtime's own process that names it too."""
    mine = os.readlink("/proc/self/ns/mnt")
    for p in os.listdir("/proc"):
        if not p.isdigit() or int(p) == not_pid:
            continue
        try:
            with open(f"/proc/{p}/cmdline", "rb") as f:
                args = [a.decode() for a in f.read().split(b"\0")[:-1]]
            if args == argv_tail and os.readlink(f"/proc/{p}/ns/mnt") != mine:
                return int(p)
        except (OSError, UnicodeDecodeError):
            continue
    return None


def start(argv, log):
    """Runs argv until serve says where it listens (the port) or ends
    (None); the process either way."""
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                            start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        with open(log.name) as f:
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/metrics", f.read())
        if m:
            return proc, int(m.group(1))
        if proc.poll() is not None:
            return proc, None
        time.sleep(0.1)
    return proc, None


def stop(proc, pid=None):
    """SIGTERM, as the kubelet sends it to the container's PID 1: to serve
    itself when its pid is known (bwrap does not pass signals on), else to
    the runtime (podman does)."""
    if proc.poll() is None:
        if pid:
            os.kill(pid, signal.SIGTERM)
        else:
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            return proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode


def caps(status, key):
    return int(re.search(rf"^{key}:\s*([0-9a-f]+)$", status, re.M).group(1), 16)


def mount_options(pid):
    """{mount point: its per-mount options} as the process sees them."""
    out = {}
    with open(f"/proc/{pid}/mountinfo") as f:
        for line in f:
            fields = line.split()
            out[fields[4]] = fields[5].split(",")
    return out


def metric_labels(text, name, label):
    return {m.group(1) for m in re.finditer(rf'^{name}{{[^}}]*\b{label}="([^"]*)"', text, re.M)}


def main():
    if os.geteuid() != 0:
        skip("not root (mmdebstrap's root mode, podman's storage and bwrap's mounts need it)")
    for tool in ("mmdebstrap", "podman", "bwrap", "promtool"):
        if not shutil.which(tool):
            die(f"no {tool} (tests/debian-packages.txt)")
    debs = glob.glob(os.path.join(DEB_DIR, "rdmadoctor_*.deb"))
    if len(debs) != 1:
        die(f"not one rdmadoctor .deb in {DEB_DIR} (the package test leaves it there): {debs}")
    deb = debs[0]
    version = subprocess.run(["dpkg-deb", "-f", deb, "Version"], capture_output=True,
                             text=True, check=True).stdout.strip()
    pod = Pod(os.path.join(SRC, "contrib/kubernetes/daemonset.yaml"))
    work = tempfile.mkdtemp(prefix="rdimage.", dir="/var/tmp")
    podman = ["podman", "--root", f"{work}/storage", "--runroot", f"{work}/run",
              "--storage-driver", "vfs", "--cgroup-manager", "cgroupfs", "--events-backend", "none"]
    try:
        t0 = time.time()
        r = subprocess.run([os.path.join(SRC, "contrib/kubernetes/image/build-image.sh"), deb],
                           env=dict(os.environ, PODMAN=" ".join(podman), TMPDIR=work),
                           capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            print(r.stdout + r.stderr)
            if re.search(r"Temporary failure resolving|Could not resolve|Failed to fetch|"
                         r"Network is unreachable|Connection (failed|refused|timed out)", r.stderr):
                skip("the Debian archive cannot be reached (mmdebstrap could not download)")
            die("build-image.sh")
        image = r.stdout.strip().splitlines()[-1]
        size = subprocess.run(podman + ["image", "inspect", "--format", "{{.Size}}", image],
                              capture_output=True, text=True).stdout.strip()
        ok(f"built {image} in {time.time() - t0:.0f} s ({int(size or 0) >> 20} MiB)")
        config = json.loads(subprocess.run(podman + ["image", "inspect", "--format",
                                                     "{{json .Config}}", image],
                                           capture_output=True, text=True, check=True).stdout)
        rootfs = subprocess.run(podman + ["image", "mount", image], capture_output=True,
                                text=True, check=True).stdout.strip()
        programs = sorted(os.path.relpath(os.path.join(d, f), rootfs)
                          for b in ("bin", "sbin", "usr/bin", "usr/sbin")
                          for d, _, files in os.walk(os.path.join(rootfs, b)) for f in files)
        if programs == ["usr/bin/rdmadoctor"]:
            ok("the image's one program is usr/bin/rdmadoctor")
        else:
            bad(f"the image's programs: {programs}")
        run_pods(podman, image, config, rootfs, pod, version, work)
    finally:
        subprocess.run(podman + ["image", "unmount", "--all"], capture_output=True)
        subprocess.run(podman + ["rmi", "--all", "--force"], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    print(f"image: {fails} failed")
    return 1 if fails else 0


def run_pods(podman, image, config, rootfs, pod, version, work):
    entrypoint = config.get("Entrypoint") or []
    # the pod runs the image's entrypoint with the DaemonSet's args, which
    # are the image's own command but for where it listens (the node's own
    # address in the pod, every address in the image's plain `podman run`):
    # the two cannot drift apart
    if pod.command is None and entrypoint == ["/usr/bin/rdmadoctor"] and \
            test_listen(pod.args) == test_listen(config.get("Cmd") or []):
        ok(f"the DaemonSet runs the image's entrypoint and command: {entrypoint + pod.args}")
    else:
        bad(f"image {entrypoint} {config.get('Cmd')} vs DaemonSet {pod.command} {pod.args}")
    # the manifest names the image build-image.sh makes of this .deb
    if pod.image == image:
        ok(f"the DaemonSet's image is the one built: {image}")
    else:
        bad(f"the DaemonSet's image is {pod.image}, build-image.sh made {image}: "
            "the manifest is not in step with the package's version")
    if not pod.host_network:
        die("the DaemonSet is not on the host's network: nothing to scrape on 127.0.0.1")
    if pod.user != 0:
        bad(f"runAsUser {pod.user}: this test runs the container as user 0")
    for src, dst, ro in pod.host_paths:
        if not ro and dst != STATE:
            bad(f"hostPath {src} is mounted writable at {dst}")
    if (STATE, STATE, False) not in pod.host_paths:
        bad(f"the DaemonSet keeps no memory: no writable hostPath {STATE} (docs/state.md)")
    state = os.path.join(work, "state")
    os.mkdir(state)
    # a hostPath the host lacks (this machine may have no /dev/infiniband)
    # is left out: Kubernetes would not start the pod there (type: Directory)
    binds = []
    for src, dst, ro in pod.host_paths:
        if dst == STATE:	# not the host's own memory: this test's
            binds.append((state, dst, False))
        elif os.path.exists(src):
            binds.append((src, dst, ro))
        else:
            print(f"note: this machine has no {src}: not bound")
    if "/sys" not in [d for _, d, _ in pod.host_paths]:
        bad("the DaemonSet does not mount the host's /sys")

    # podman where it can start a container; else bwrap on the image's tree
    r = subprocess.run(podman + ["run", "--rm", "--network", "host", image, "--version"],
                       capture_output=True, text=True, timeout=120)
    if r.returncode == 0 and version in r.stdout:
        runner = "podman run"
        make_for = lambda p, b: podman_argv(podman, image, p, b)
    elif re.search(r"OCI|crun: |runc: ", r.stderr):
        why = r.stderr.strip().splitlines()[-1]
        runner = f"bwrap (podman run failed before the container started: {why})"
        make_for = lambda p, b: bwrap_argv(rootfs, entrypoint, p, b)
    else:	# the runtime started it: the image is at fault
        die(f"podman run {image} --version: exit {r.returncode}: {r.stdout}{r.stderr}")
    print(f"container: {runner}")
    make = lambda b: make_for(pod, b)

    # 1. the host's /sys, as the DaemonSet has it
    host_rdma = sorted(os.listdir("/sys/class/infiniband")) \
        if os.path.isdir("/sys/class/infiniband") else []
    log = open(os.path.join(work, "host.log"), "w+")
    proc, port = start(make(binds), log)
    if port is None:
        rc = stop(proc)
        out = open(log.name).read()
        if not host_rdma and rc == 3 and "nothing to check under '/'" in out:
            ok("on this machine's /sys (no RDMA device): serve exits 3, nothing to check")
        else:
            bad(f"on the host's /sys (RDMA devices {host_rdma}): exit {rc}: {out}")
    else:
        text = scrape(port)
        stop(proc)
        seen = sorted(metric_labels(text, "rdmadoctor_nic_info", "device"))
        if text and seen == host_rdma:
            ok(f"on this machine's /sys: serve serves its RDMA devices {seen}")
        else:
            bad(f"on the host's /sys: devices {seen}, the host has {host_rdma}")

    # 2. a bundled example's sys tree in place of the host's /sys
    example = [(os.path.join(EXAMPLE, "sys") if dst == "/sys" else src, dst, ro)
               for src, dst, ro in binds]
    log = open(os.path.join(work, "example.log"), "w+")
    proc, port = start(make(example), log)
    if port is None:
        stop(proc)
        bad(f"serve did not listen on the example's /sys: {open(log.name).read()}")
        return
    ok(f"serve listens on 127.0.0.1:{port}, the example's sys tree bound at /sys")
    text = scrape(port)
    pid = serve_pid(entrypoint + test_listen(pod.args), proc.pid)
    judge_process(pid, pod, runner == "podman run")
    judge_metrics(text, version, work)
    judge_memory(state, text)
    rc = stop(proc, pid)
    if rc == 0:
        ok("SIGTERM stops it, exit 0")
    else:
        bad(f"after SIGTERM: exit {rc}: {open(log.name).read()[-500:]}")
    verdicts = re.findall(r'^rdmadoctor_check_verdict\{[^}]*verdict="(\w+)"\} 1$', text, re.M)
    run_agent(make_for, state, work, verdicts[0] if len(verdicts) == 1 else None)


def run_agent(make_for, state, work, verdict_seen):
    """The pod's other containers, from the image, on the example machine:
    the init container puts NPD's plugin into the memory's directory, the
    agent (labels --every) writes the NFD labels and the NPD verdict, and
    the plugin, run from there in an empty root as NPD's pod would, says
    it.  The oracle: serve's verdict of the same machine in the same pod
    (verdict_seen; the pod has no /dev/infiniband of the example's, so it
    is fail there), which the label and NPD's status must both say."""
    path = os.path.join(SRC, "contrib/kubernetes/daemonset.yaml")
    features = os.path.join(work, "features.d")
    os.mkdir(features)

    def binds(p):
        out = []
        for src, dst, ro in p.host_paths:
            if dst == STATE:
                out.append((state, dst, False))
            elif dst == "/sys":
                out.append((os.path.join(EXAMPLE, "sys"), dst, ro))
            elif src.endswith("node-feature-discovery/features.d"):
                out.append((features, dst, ro))
            elif os.path.exists(src):
                out.append((src, dst, ro))
        return out

    init = Pod(path, "npd-plugin")
    r = subprocess.run(make_for(init, binds(init)), capture_output=True, text=True, timeout=120)
    plugin = os.path.join(state, "rdmadoctor-npd")
    if r.returncode == 0 and os.access(plugin, os.X_OK):
        ok(f"the init container installed NPD's plugin: {r.stderr.strip()}")
    else:
        bad(f"init container npd-plugin: exit {r.returncode}: {r.stdout}{r.stderr}")
        return
    agent = Pod(path, "agent")
    log = open(os.path.join(work, "agent.log"), "w+")
    proc = subprocess.Popen(make_for(agent, binds(agent)), stdin=subprocess.DEVNULL,
                            stdout=log, stderr=log, start_new_session=True)
    verdict, labels = os.path.join(state, "npd"), os.path.join(features, "rdmadoctor")
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None and \
            not (os.path.exists(verdict) and os.path.exists(labels)):
        time.sleep(0.2)
    pid = serve_pid(["/usr/bin/rdmadoctor"] + agent.args, proc.pid) if proc.poll() is None \
        else None
    rc = stop(proc, pid)
    text = open(labels).read() if os.path.exists(labels) else ""
    if rc == 0 and f"rdmadoctor.verdict={verdict_seen}\n" in text and \
            "rdmadoctor.rails=8\n" in text:
        ok(f"the agent wrote the example's NFD labels (verdict {verdict_seen}, as serve "
           "says; 8 rails) and ended on SIGTERM with 0")
    else:
        bad(f"agent: exit {rc}, labels {text!r} (serve says {verdict_seen}): "
            f"{open(log.name).read()[-600:]}")
    r = subprocess.run(["bwrap", "--unshare-all", "--die-with-parent", "--ro-bind", state, STATE,
                        os.path.join(STATE, "rdmadoctor-npd"), os.path.join(STATE, "npd")],
                       capture_output=True, timeout=30)
    line = r.stdout.decode(errors="replace").strip()
    want = {"pass": 0, "warn": 0, "fail": 1}.get(verdict_seen)
    if r.returncode == want and 0 < len(line.encode()) <= 80:
        ok(f"NPD's plugin, run from the host path in an empty root: exit {r.returncode} "
           f"for {verdict_seen}, {line!r}")
    else:
        bad(f"NPD's plugin: exit {r.returncode} for {verdict_seen}: {r.stdout!r} {r.stderr!r}")


def scrape(port):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=20) as r:
            return r.read().decode() if r.status == 200 else ""
    except OSError as e:
        bad(f"GET /metrics: {e}")
        return ""


def judge_process(pid, pod, runtime):
    """The serving process as the kernel has it.  A container runtime sets
    the bounding set to the added capabilities and leaves the inheritable
    and ambient sets empty; bwrap run by root leaves the bounding set whole
    and puts the added ones in the inheritable and ambient sets, so there
    only the effective and permitted sets are held to the DaemonSet (with
    no_new_privs, an exec cannot raise the permitted set past them)."""
    if pid is None:
        bad("no process runs the container's command")
        return
    with open(f"/proc/{pid}/status") as f:
        status = f.read()
    want = 0
    for c in pod.cap_add:
        if c != "NET_ADMIN":
            bad(f"the DaemonSet adds {c}, which this test does not know the number of")
        want |= 1 << CAP_NET_ADMIN
    named = "/".join("CAP_" + c for c in pod.cap_add) or "no capability"
    got = {k: caps(status, k) for k in ("CapEff", "CapPrm", "CapBnd", "CapInh", "CapAmb")}
    held = ("CapEff", "CapPrm") + (("CapBnd",) if runtime else ())
    unset = ("CapInh", "CapAmb") if runtime else ()
    shown = ", ".join(f"{k} {v:#x}" for k, v in got.items())
    if "ALL" in pod.cap_drop and all(got[k] == want for k in held) and \
            all(got[k] == 0 for k in unset):
        note = "" if runtime else " (bwrap run by root leaves the bounding set whole, " \
            "and an added capability inheritable and ambient)"
        ok(f"{'/'.join(held)} hold {named} (the DaemonSet's){note}: {shown}")
    else:
        bad(f"capabilities {shown}: want {want:#x} in {held}, nothing in {unset}")
    nnp = re.search(r"^NoNewPrivs:\s*(\d)", status, re.M)
    if pod.no_new_privs and nnp and nnp.group(1) == "1":
        ok("no_new_privs is set (allowPrivilegeEscalation: false)")
    else:
        bad(f"NoNewPrivs {nnp and nnp.group(1)}")
    mounts = mount_options(pid)
    want_ro = ["/"] + [d for _, d, r in pod.host_paths if d in mounts and r]
    want_rw = pod.memory + [d for _, d, r in pod.host_paths if not r]
    ro = [m for m in want_ro if "ro" in mounts.get(m, [])]
    rw = [m for m in want_rw if "rw" in mounts.get(m, [])]
    if ro == want_ro and rw == want_rw:
        ok(f"read-only: {', '.join(ro)}; writable: {', '.join(rw)}")
    else:
        bad(f"mounts: read-only {ro} of {want_ro}, writable {rw} of {want_rw}")


def judge_memory(state, text):
    """serve kept its memory in the hostPath, keyed by this kernel's boot id
    (the container's /proc is the host kernel's), and the verdict does not
    say it could not (latch.state)."""
    with open("/proc/sys/kernel/random/boot_id") as f:
        boot = f.read().strip()
    path = os.path.join(state, "latched")
    head = open(path).read(200) if os.path.exists(path) else ""
    if head.startswith(f"rdmadoctor-latch 1\nboot {boot}\n"):
        ok(f"serve keeps its memory in {STATE}/latched, of boot {boot}")
    else:
        bad(f"{STATE}/latched: {head!r}, want the memory of boot {boot}")
    if 'id="latch.state"' in text:
        bad("/metrics says the memory could not be kept (latch.state)")
    else:
        ok("no latch.state: the memory was read and written")


def judge_metrics(text, version, work):
    if not text:
        bad("no metrics")
        return
    built = metric_labels(text, "rdmadoctor_build_info", "version")
    if built == {version}:
        ok(f"the image's binary is the .deb's: rdmadoctor_build_info version {version}")
    else:
        bad(f"rdmadoctor_build_info versions {built}, the .deb is {version}")
    want = sorted(os.listdir(os.path.join(EXAMPLE, "sys/class/infiniband")))
    seen = sorted(metric_labels(text, "rdmadoctor_nic_info", "device"))
    if seen == want:
        ok(f"its RDMA devices are the example tree's: {len(seen)}, {seen[0]}..{seen[-1]}")
    else:
        bad(f"rdmadoctor_nic_info devices {seen}, the tree has {want}")
    kernel = metric_labels(text, "rdmadoctor_host_info", "kernel")
    host = metric_labels(text, "rdmadoctor_host_info", "hostname")
    if kernel == {os.uname().release} and host == {os.uname().nodename}:
        ok(f"the host's kernel and host name, through the pod's /proc: {kernel}, {host}")
    else:
        bad(f"host_info kernel {kernel} hostname {host}, the host is "
            f"{os.uname().release} {os.uname().nodename}")
    verdicts = re.findall(r'^rdmadoctor_check_verdict\{[^}]*verdict="(\w+)"\} 1$', text, re.M)
    if len(verdicts) == 1:
        ok(f"one verdict: {verdicts[0]}")
    else:
        bad(f"verdicts set: {verdicts}")
    path = os.path.join(work, "metrics.txt")
    with open(path, "w") as f:
        f.write(text)
    r = subprocess.run(["promtool", "check", "metrics"], stdin=open(path), capture_output=True,
                       text=True)
    if r.returncode == 0:
        ok(f"promtool check metrics: {len(text.splitlines())} lines")
    else:
        bad(f"promtool check metrics: {r.stdout}{r.stderr}")


if __name__ == "__main__":
    sys.exit(main())
