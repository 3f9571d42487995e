#!/usr/bin/env python3
"""Build the agentvcr_harness wheel on the standard library alone (the
machines that run .ci/run reach no package index, so no build backend can be
fetched): the package, the agentvcr binary given as --binary under
agentvcr_harness/bin, and the dist-info a wheel has (METADATA, WHEEL, the
pytest11 entry point, RECORD with each file's SHA-256), tagged for one
platform. Usage: build_wheel.py --binary PATH --out DIR [--platform TAG]."""
import argparse
import base64
import hashlib
import pathlib
import zipfile

NAME, VERSION = "agentvcr_harness", "0.1.0"


def digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--platform", default="linux_x86_64")
    a = p.parse_args()
    here = pathlib.Path(__file__).parent
    dist = f"{NAME}-{VERSION}.dist-info"
    files = []  # (name in the wheel, bytes, unix mode)
    for src in sorted((here / NAME).glob("*.py")):
        files.append((f"{NAME}/{src.name}", src.read_bytes(), 0o644))
    files.append((f"{NAME}/bin/agentvcr", pathlib.Path(a.binary).read_bytes(), 0o755))
    meta = {
        "METADATA": f"Metadata-Version: 2.1\nName: agentvcr-harness\nVersion: {VERSION}\n"
                    "Summary: agentvcr in the tests you already write: serve, conform and a pytest plugin\n"
                    "Requires-Python: >=3.9\n",
        "WHEEL": f"Wheel-Version: 1.0\nGenerator: agentvcr build_wheel.py\nRoot-Is-Purelib: false\nTag: py3-none-{a.platform}\n",
        "entry_points.txt": "[pytest11]\nagentvcr = agentvcr_harness.pytest_plugin\n",
    }
    for name, text in meta.items():
        files.append((f"{dist}/{name}", text.encode(), 0o644))
    record = "".join(f"{n},{digest(d)},{len(d)}\n" for n, d, _ in files) + f"{dist}/RECORD,,\n"
    files.append((f"{dist}/RECORD", record.encode(), 0o644))
    out = pathlib.Path(a.out) / f"{NAME}-{VERSION}-py3-none-{a.platform}.whl"
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, mode in files:
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    print(out)


if __name__ == "__main__":
    main()
