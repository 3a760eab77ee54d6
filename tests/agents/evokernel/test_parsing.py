import pytest

from agents.evokernel.parsing import MalformedReply, parse_kernel, parse_summary

SOLUTION = "import torch\nimport torch.nn as nn\n\nclass ModelNew(nn.Module):\n    def forward(self, x):\n        return x\n"


def test_the_last_block_defining_modelnew_is_the_solution():
    reply = f"Plan:\n```python\nx = 1\n```\nSolution:\n```python\n{SOLUTION}```\nDone."
    assert parse_kernel(reply) == SOLUTION


def test_a_bare_file_without_fences_is_accepted():
    assert parse_kernel(SOLUTION) == SOLUTION


@pytest.mark.parametrize("reply, message", [
    ("", "empty"),
    ("I would tile the loop by 4096 elements.", "no code block defines"),
    ("```python\nclass ModelNew(nn.Module):\n    def forward(self x):\n```", "not valid Python: line 2"),
])
def test_malformed_replies_say_what_to_fix(reply, message):
    with pytest.raises(MalformedReply, match=message):
        parse_kernel(reply)


def test_summary_fields():
    assert parse_summary("LESSON: halve the tile.\nPRACTICE: none") == ("halve the tile.", None)
    assert parse_summary("**LESSON:** a\nb\n**PRACTICE:** use 2 buffers") == ("a b", "use 2 buffers")
    with pytest.raises(MalformedReply, match="LESSON"):
        parse_summary("it went fine")
