#!/usr/bin/env python3
"""driver.userspace and the DMA-BUF part of gdr.missing on real libraries.

The verbs userspace of this machine (Debian's libibverbs, its providers and
/etc/libibverbs.d, from the packages the tests install) is copied into
copies of fixture roots, and rdmadoctor's reading of it is held against
`readelf -V` on the same bytes (the peer tool); then one part is changed as
it is in the field:

  - as installed: no driver.userspace finding, the facts readelf gives;
  - the mlx5 provider left from an older stack (libmlx5-rdmav25.so): ONE
    error naming every NIC it serves (the rails make it an error), both
    private ABIs;
  - no etc/libibverbs.d/mlx5.driver: one error for that;
  - a kernel uverbs ABI of 7 (outside libibverbs' 3..6): an error;
  - a libibverbs cut short: not checked (info, counted), never a fault;
  - a libibverbs whose highest set is IBVERBS_1.11, built here by gcc and
    ld from a version script (rdma-core 33's sets): on a DGX B200 on
    DMA-BUF (open kernel modules, kernel 6.8, nvidia_peermem unloaded in
    the copy) gdr.missing says ibv_reg_dmabuf_mr is missing; with Debian's
    library it says nothing.

gcc, readelf and libibverbs1 / ibverbs-providers are needed (exit 77
otherwise).

usage: verbs_userspace.py RDMADOCTOR FIXTURES_DIR
"""
import glob
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness  # noqa: E402

LIBDIR = "usr/lib/x86_64-linux-gnu"


def can_run():
    if not os.path.exists("/" + LIBDIR + "/libibverbs.so.1"):
        return "no /usr/lib/x86_64-linux-gnu/libibverbs.so.1 (libibverbs1)"
    if not os.path.exists("/" + LIBDIR + "/libibverbs/libmlx5-rdmav34.so") and \
            not glob.glob("/" + LIBDIR + "/libibverbs/libmlx5-rdmav*.so"):
        return "no libmlx5 provider (ibverbs-providers)"
    for tool in ("gcc", "readelf"):
        if not shutil.which(tool):
            return f"no {tool}"
    return None


def install_userspace(root):
    """This machine's libibverbs, its providers and driver files, links
    kept as links, into root."""
    dst = os.path.join(root, LIBDIR)
    os.makedirs(dst, exist_ok=True)
    so1 = "/" + LIBDIR + "/libibverbs.so.1"
    target = os.readlink(so1)
    os.symlink(target, os.path.join(dst, "libibverbs.so.1"))
    shutil.copy2(os.path.join("/" + LIBDIR, target), dst)
    shutil.copytree("/" + LIBDIR + "/libibverbs", os.path.join(dst, "libibverbs"),
                    symlinks=True)
    # providers that are links (libmlx5-rdmav34.so -> ../libmlx5.so.1...)
    # need their targets: a dangling one loads nothing
    for p in glob.glob("/" + LIBDIR + "/libibverbs/*"):
        if os.path.islink(p):
            real = os.path.realpath(p)
            shutil.copy2(real, os.path.join(dst, os.path.relpath(real, "/" + LIBDIR)))
    shutil.copytree("/etc/libibverbs.d", os.path.join(root, "etc/libibverbs.d"))
    return os.path.join(dst, target)


def readelf_sets(path):
    """(highest N of IBVERBS_1.N, N of IBVERBS_PRIVATE_N) as readelf -V lists them."""
    out = subprocess.run(["readelf", "-V", path], capture_output=True, text=True,
                         check=True).stdout
    names = re.findall(r"Name: (IBVERBS_\S+)", out.split("Version needs")[0])
    minor = max(int(n[len("IBVERBS_1."):]) for n in names if n.startswith("IBVERBS_1."))
    pabi = [int(n[len("IBVERBS_PRIVATE_"):]) for n in names
            if n.startswith("IBVERBS_PRIVATE_")]
    return minor, pabi[0] if pabi else None


def build_old_libibverbs(h, pabi):
    """A real shared object with rdma-core 33's public sets (IBVERBS_1.0 ..
    IBVERBS_1.11, no 1.12: no ibv_reg_dmabuf_mr) and the given private
    set, as gcc and ld make it."""
    work = os.path.join(h.tmp, "oldverbs")
    os.makedirs(work, exist_ok=True)
    sets = ["IBVERBS_1.0", "IBVERBS_1.1"] + [f"IBVERBS_1.{k}" for k in range(5, 12)]
    src, script = os.path.join(work, "v.c"), os.path.join(work, "v.map")
    with open(src, "w") as f:
        for k, s in enumerate(sets):
            f.write(f"int sym{k}(void) {{ return {k}; }}\n")
        f.write("int priv(void) { return 99; }\n")
    with open(script, "w") as f:
        for k, s in enumerate(sets):
            f.write(f"{s} {{ global: sym{k}; {'local: *; ' if k == 0 else ''}}};\n")
        f.write(f"IBVERBS_PRIVATE_{pabi} {{ global: priv; }};\n")
    out = os.path.join(work, "libibverbs.so.1.11.33.0")
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", out, src,
                    "-Wl,-soname,libibverbs.so.1", f"-Wl,--version-script={script}"],
                   check=True)
    return out


def userspace(h, shape, name):
    root = h.copy(shape, name)
    lib = install_userspace(root)
    return root, lib


def findings(doc, prefix):
    return [f for f in (doc or {}).get("findings", []) if f["id"].startswith(prefix)]


def main():
    h = Harness("verbs-userspace")
    why = can_run()
    if why:
        print(f"SKIP: {why}")
        sys.exit(77)

    # 1. as installed
    root, lib = userspace(h, "a800-8x100g-roce", "installed")
    minor, pabi = readelf_sets(lib)
    rc, doc, _, err = h.run(root, cmd="inventory")
    v = (doc or {}).get("host", {}).get("verbs_userspace") or {}
    h.expect(v.get("library") == os.path.basename(lib), "the library libibverbs.so.1 names",
             (v.get("library"), err))
    h.expect((v.get("verbs_set"), v.get("private_abi")) == (minor, pabi),
             "its sets as readelf -V lists them", (v.get("verbs_set"), v.get("private_abi"),
                                                   minor, pabi))
    want_rel = os.path.basename(lib).split(".", 4)[-1]
    h.expect(v.get("rdma_core") == want_rel, "rdma-core's release from the name",
             (v.get("rdma_core"), want_rel))
    provs = {(p["name"], p["private_abi"]) for p in v.get("providers", [])}
    on_disk = {(m.group(1), int(m.group(2))) for m in
               (re.match(r"lib(.+)-rdmav(\d+)\.so$", os.path.basename(p)) for p in
                glob.glob(os.path.join(root, LIBDIR, "libibverbs", "*"))) if m}
    h.expect(provs == on_disk and ("mlx5", pabi) in provs, "every provider file, mlx5 among them",
             (sorted(provs), sorted(on_disk)))
    h.expect("mlx5" in (v.get("driver_files") or []), "mlx5.driver read", v.get("driver_files"))
    h.expect((v.get("uverbs_abi"), v.get("umad_abi")) == (6, 5), "the kernel's ABI files",
             (v.get("uverbs_abi"), v.get("umad_abi")))
    rc, doc, _, err = h.run(root)
    h.expect(doc is not None and findings(doc, "driver.userspace") == [],
             "a matching stack: no driver.userspace", findings(doc, "driver.userspace") or err)

    # 2. the mlx5 provider of an older stack
    root, lib = userspace(h, "a800-8x100g-roce", "old-provider")
    pdir = os.path.join(root, LIBDIR, "libibverbs")
    os.rename(os.path.join(pdir, f"libmlx5-rdmav{pabi}.so"), os.path.join(pdir, "libmlx5-rdmav25.so"))
    rc, doc, _, err = h.run(root)
    found = findings(doc, "driver.userspace")
    h.expect(len(found) == 1, "one finding for the provider", found or err)
    if found:
        f = found[0]
        h.expect(f["severity"] == "error" and rc == 1, "an error on rails, exit 1", (f, rc))
        h.expect(f["subject"].split() == [f"mlx5_{k}" for k in range(10)],
                 "its subject: every NIC it serves", f["subject"])
        h.expect(f"private ABI {pabi}" in f["observed"] and "libmlx5-rdmav25.so" in f["observed"],
                 "names both ABIs", f["observed"])

    # 2b. the provider a link to a library that is gone
    root, lib = userspace(h, "a800-8x100g-roce", "dangling-provider")
    target = os.path.realpath(os.path.join(root, LIBDIR, "libibverbs", f"libmlx5-rdmav{pabi}.so"))
    if os.path.islink(os.path.join(root, LIBDIR, "libibverbs", f"libmlx5-rdmav{pabi}.so")):
        os.unlink(target)
        rc, doc, _, err = h.run(root)
        found = findings(doc, "driver.userspace")
        h.expect(len(found) == 1 and "no libmlx5-rdmav*.so" in found[0]["observed"],
                 "a dangling provider link loads nothing: one finding", found or err)

    # 3. no driver file for mlx5
    root, lib = userspace(h, "a800-8x100g-roce", "no-driver-file")
    os.unlink(os.path.join(root, "etc/libibverbs.d/mlx5.driver"))
    rc, doc, _, err = h.run(root)
    found = findings(doc, "driver.userspace")
    h.expect(len(found) == 1 and "'driver mlx5'" in found[0]["observed"],
             "no mlx5.driver: one finding saying so", found or err)

    # 3b. etc/libibverbs.d gone: whether it names mlx5 is not known
    root, lib = userspace(h, "a800-8x100g-roce", "no-driver-dir")
    shutil.rmtree(os.path.join(root, "etc/libibverbs.d"))
    rc, doc, _, err = h.run(root)
    found = findings(doc, "driver.userspace")
    h.expect(len(found) == 1 and found[0]["severity"] == "info" and found[0].get("unchecked"),
             "no driver directory: not checked, never a pass", found or err)

    # 4. a kernel uverbs ABI libibverbs refuses
    root, lib = userspace(h, "a800-8x100g-roce", "abi7")
    with open(os.path.join(root, "sys/class/infiniband_verbs/abi_version"), "w") as f:
        f.write("7\n")
    rc, doc, _, err = h.run(root)
    found = findings(doc, "driver.userspace")
    h.expect(len(found) == 1 and found[0]["severity"] == "error" and
             "uverbs ABI 7" in found[0]["observed"], "uverbs ABI 7: an error", found or err)

    # 5. a library cut short
    root, lib = userspace(h, "a800-8x100g-roce", "truncated")
    with open(lib, "r+b") as f:
        f.truncate(4096)
    rc, doc, _, err = h.run(root)
    found = findings(doc, "driver.userspace")
    h.expect(len(found) == 1 and found[0]["severity"] == "info" and found[0].get("unchecked")
             and "not checked" in found[0]["observed"],
             "a truncated libibverbs: not checked, an info", found or err)
    h.expect(doc is not None and doc["verdict"] == "pass", "which leaves the verdict alone",
             doc and doc["verdict"])

    # 6. DMA-BUF with a libibverbs of rdma-core 33
    def dmabuf_root(name, old):
        root, lib = userspace(h, "dgx-b200", name)
        mods = os.path.join(root, "proc/modules")
        with open(mods) as f:
            lines = [ln for ln in f if not ln.startswith("nvidia_peermem ")]
        with open(mods, "w") as f:
            f.writelines(lines)
        shutil.rmtree(os.path.join(root, "sys/module/nvidia_peermem"), ignore_errors=True)
        if old:
            built = build_old_libibverbs(h, pabi)
            os.unlink(lib)
            os.unlink(os.path.join(root, LIBDIR, "libibverbs.so.1"))
            shutil.copy2(built, os.path.join(root, LIBDIR))
            os.symlink(os.path.basename(built), os.path.join(root, LIBDIR, "libibverbs.so.1"))
            h.expect(readelf_sets(built) == (11, pabi), "the built library's sets, by readelf",
                     readelf_sets(built))
        return root

    rc, doc, _, err = h.run(dmabuf_root("dmabuf-new", False))
    h.expect(doc is not None and findings(doc, "gdr.missing") == [],
             "DMA-BUF with Debian's libibverbs: no gdr.missing",
             findings(doc, "gdr.missing") or err)
    rc, doc, _, err = h.run(dmabuf_root("dmabuf-old", True))
    found = findings(doc, "gdr.missing")
    h.expect(len(found) == 1 and "no ibv_reg_dmabuf_mr" in found[0]["observed"] and
             "IBVERBS_1.11" in found[0]["observed"] and "rdma-core 33.0" in found[0]["observed"],
             "DMA-BUF with rdma-core 33: gdr.missing names ibv_reg_dmabuf_mr", found or err)
    h.expect(findings(doc, "driver.userspace") == [],
             "and its providers match its private ABI: no driver.userspace",
             findings(doc, "driver.userspace"))
    h.done()


if __name__ == "__main__":
    main()
