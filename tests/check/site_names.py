#!/usr/bin/env python3
"""The site file's names are held to what exists (issue 43, section 3): an
id in ignore or accept_unchecked that is no check id (`port.donw`), or a
device in rail or storage the machine lacks (`mlx5_99`), would waive or
label nothing in silence: a usage error (exit 2) naming the file, the key
and the name, with the nearest id or device.  A renamed check's old id
still waives; a view (inventory) warns and shows the machine.

usage: site_names.py RDMADOCTOR FIXTURES_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rdtest import Harness  # noqa: E402

h = Harness("site-names")
expect, run = h.expect, h.run
root = h.copy("dgx-h100", "root")
conf = os.path.join(root, "etc/rdmadoctor/rdmadoctor.conf")
os.makedirs(os.path.dirname(conf))


def site(text):
    with open(conf, "w") as f:
        f.write("[site]\n" + text)


for text, want in (
        ("ignore = port.donw\n",
         "ignore: 'port.donw' is no check id (`rdmadoctor check --list` names them): "
         "did you mean 'port.down'?"),
        ("accept_unchecked = roce.pfx\n",
         "accept_unchecked: 'roce.pfx' is no check id"),
        ("storage = mlx5_77\n", "storage: this machine has no RDMA device 'mlx5_77'"),
        ("rail = mlx5_O\n", "rail: this machine has no RDMA device 'mlx5_O' (`rdmadoctor "
         "inventory` lists them): did you mean 'mlx5_0'?")):
    site(text)
    rc, _, out, err = run(root, json_out=False)
    expect(rc == 2 and conf + ": " + want in err and not out,
           f"{text.strip()}: a usage error with a suggestion", f"rc {rc} {err!r}")
    rc, _, out, err = run(root, json_out=False, cmd="inventory")
    expect(rc == 0 and "warning: the site file is broken" in err and want in err and out,
           f"{text.strip()}: inventory warns and shows the machine", f"rc {rc} {err!r}")

site("ignore = sys.memlock, port.down\nrail = mlx5_0\nstorage = mlx5_1\n")
rc, doc, _, err = run(root)
expect(rc == 0 and doc and doc["verdict"] == "pass", "known ids (an old one too) and devices: "
       "accepted", f"rc {rc} {err}")
h.done()
