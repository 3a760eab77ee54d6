"""Sandbox-side script: build one ``load_inline`` spec with torch's own machinery.

Usage (inside the sandbox work dir): ``python -m sandboxes.targets.inline_build spec.json``.
The module lands in ``build/<module>.so``; compiler errors go to stderr, exit code 1. The compilers keep
their preprocessed sources (``build/main.ii``, ``build/keep/*.ii`` for CUDA) for the native check.
"""

from __future__ import annotations

import json
import os
import sys

KEPT_CPP = "main.ii"
"""g++'s preprocessed main.cpp, kept by ``-save-temps=obj`` beside main.o."""
KEPT_CUDA_DIR = "keep"
"""Where nvcc keeps its intermediate files (the host and device preprocessed cuda.cu among them)."""
GLUE_MARK = "agentkiln_glue_"
"""``namespace <GLUE_MARK><nonce> {}`` follows the solution's C++ sources in main.cpp: what comes after it is the
binding code load_inline generates (the nonce is the host's, per build, so a source cannot forge the mark)."""


def main(spec_path: str) -> int:
    """Build the spec named in ``spec_path``; return the process exit code."""
    from torch.utils.cpp_extension import load_inline

    data = json.loads(open(spec_path).read())
    spec, module = data["spec"], data["module"]
    keep_dir = os.path.abspath(os.path.join("build", KEPT_CUDA_DIR))
    os.makedirs(keep_dir, exist_ok=True)
    flags = {key: list(spec[key]) for key in ("extra_cflags", "extra_cuda_cflags", "extra_ldflags")}
    flags["extra_cflags"].append("-save-temps=obj")
    flags["extra_cuda_cflags"] += ["--keep", f"--keep-dir={keep_dir}"]
    sources = [*spec["cpp_sources"], f"namespace {GLUE_MARK}{data['marker']} {{}}"]
    try:
        load_inline(name=module, cpp_sources=sources, cuda_sources=list(spec["cuda_sources"]) or None,
                    functions=list(spec["functions"]) or None, **flags,
                    extra_include_paths=spec["options"].get("extra_include_paths") or None,
                    with_cuda=spec["options"].get("with_cuda"), build_directory="build", verbose=False)
    except Exception as error:  # the compiler's message is the useful part
        print(str(error), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
