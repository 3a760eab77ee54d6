"""The standard Ascend C custom-operator project: op definition JSON, host tiling, kernel source,
pybind wrapper and a test, written from a solution's source strings (MultiKernelBench layout)."""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from pathlib import Path

from sandboxes.errors import UserError

FIELDS = ("project_json_src", "host_tiling_src", "host_operator_src", "kernel_src", "python_bind_src", "model_src")
"""String variables an ascendc solution defines, one per project part."""


@dataclass(frozen=True)
class AscendcProject:
    """The sources of one custom operator."""

    op_type: str
    """Operator type in CamelCase, e.g. ``AddCustom`` (msopgen's name for everything)."""
    project_json_src: str
    host_tiling_src: str
    host_operator_src: str
    kernel_src: str
    python_bind_src: str
    model_src: str

    @property
    def snake(self) -> str:
        return re.sub(r"(?<!^)(?=[A-Z])", "_", self.op_type).lower()

    def files(self) -> dict[str, str]:
        """Relative path → text of every file the build script expects."""
        return {
            f"{self.snake}.json": self.project_json_src,
            f"op_host/{self.snake}_tiling.h": self.host_tiling_src,
            f"op_host/{self.snake}.cpp": self.host_operator_src,
            f"op_kernel/{self.snake}.cpp": self.kernel_src,
            "CppExtension/csrc/op.cpp": self.python_bind_src,
            "CppExtension/setup.py": SETUP_PY,
            "test_op.py": self.model_src + TEST_SUFFIX,
            "run.sh": build_script(self),
        }

    def write(self, folder: Path) -> list[Path]:
        """Write the project under ``folder``; returns the written paths."""
        written = []
        for relative, text in self.files().items():
            path = folder / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            written.append(path)
        (folder / "run.sh").chmod(0o755)
        return written


def from_solution(source: str) -> AscendcProject:
    """Read the six source strings of a solution (by AST, nothing is executed)."""
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        raise UserError(f"ascendc solution is not valid Python: line {error.lineno}: {error.msg}") from error
    values = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if node.targets[0].id in FIELDS and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                values[node.targets[0].id] = node.value.value
    missing = [name for name in FIELDS if name not in values]
    if missing:
        raise UserError(f"ascendc solution lacks the string variables {', '.join(missing)}")
    return AscendcProject(op_type=op_type_of(values["project_json_src"]), **values)


def op_type_of(project_json: str) -> str:
    """The ``op`` name in the op definition JSON (a list with one operator)."""
    try:
        ops = json.loads(project_json)
        return str(ops[0]["op"])
    except (ValueError, KeyError, IndexError, TypeError) as error:
        raise UserError(f"project_json_src is not an op definition list with an 'op' name: {error}") from error


def build_script(project: AscendcProject) -> str:
    """Shell steps run inside the CANN container, from the project folder."""
    return f"""#!/bin/bash
set -euo pipefail
source /usr/local/Ascend/ascend-toolkit/set_env.sh
cd "$(dirname "$0")"
rm -rf {project.op_type}
msopgen gen -i {project.snake}.json -c ai_core-${{ASCEND_SOC:-Ascend910B2}} -lan cpp -out {project.op_type}
cp op_host/* {project.op_type}/op_host/
cp op_kernel/* {project.op_type}/op_kernel/
(cd {project.op_type} && ./build.sh)
./{project.op_type}/build_out/custom_opp_*.run --quiet
(cd CppExtension && python3 setup.py build bdist_wheel && pip3 install --force-reinstall dist/*.whl)
python3 test_op.py
"""


SETUP_PY = '''"""Build the pybind wrapper of the custom operator against torch_npu."""
import glob
import os

import torch_npu
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension
from torch_npu.utils.cpp_extension import NpuExtension

PYTORCH_NPU_INSTALL_PATH = os.path.dirname(os.path.abspath(torch_npu.__file__))
setup(
    name="custom_ops",
    version="1.0",
    ext_modules=[NpuExtension(name="custom_ops_lib", sources=glob.glob("./csrc/*.cpp"),
                              extra_compile_args=["-I" + os.path.join(PYTORCH_NPU_INSTALL_PATH, "include/third_party/acl/inc")])],
    cmdclass={"build_ext": BuildExtension},
)
'''

TEST_SUFFIX = '''

if __name__ == "__main__":
    import torch
    import torch_npu  # noqa: F401  (registers the npu device)

    inputs = [x.npu() for x in get_inputs()]
    out = ModelNew().npu()(*inputs)
    torch.npu.synchronize()
    print("ascendc test ran:", tuple(out.shape))
'''
