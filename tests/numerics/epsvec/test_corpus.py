import torch

from numerics.epsvec.corpus import encode_example, private_sessions, public_windows


def test_sessions_are_seeded_and_print_what_python_prints():
    sessions = private_sessions(20, seed=3)
    assert sessions == private_sessions(20, seed=3) and sessions != private_sessions(20, seed=4)
    for session in sessions:
        lines = session.splitlines()
        assert 3 <= len(lines) // 2 <= 5
        for prompt, value in zip(lines[::2], lines[1::2]):
            assert prompt.startswith(">>> ")
            assert str(eval(prompt[4:], {"__builtins__": {"abs": abs, "divmod": divmod, "max": max,  # noqa: S307
                                                           "sorted": sorted, "round": round}})) == value


def test_windows_cover_the_text_from_its_first_to_its_last_byte():
    text = "".join(chr(ord("a") + i % 26) for i in range(150))
    windows = encode_example(text, 64)
    assert windows.shape == (3, 64)
    assert bytes(windows[0].tolist()) == text[:64].encode() and bytes(windows[-1].tolist()) == text[-64:].encode()
    assert encode_example("ab\n", 8).tolist() == [list(b"ab\nab\nab")]


def test_public_windows_are_docstring_bytes():
    windows = public_windows(5, 64, seed=1)
    assert windows.shape == (5, 64) and windows.dtype == torch.long and int(windows.max()) < 128
