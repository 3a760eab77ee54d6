import pytest

from agents.splittester.parsing import parse_choice, parse_deck, parse_script


def test_deck_and_script_blocks():
    reply = "x\n```ruby\nsource($input)\nreport('t', $output)\n```\n```python\nprint(1)\n```"
    assert parse_deck(reply).startswith("source($input)")
    assert parse_script(reply) == "print(1)\n"
    with pytest.raises(ValueError, match="source"):
        parse_deck("```ruby\nputs 1\n```")
    with pytest.raises(ValueError, match="no ```python"):
        parse_script("no code")


def test_choice():
    assert parse_choice("I think ANSWER: 2", 3) == 1
    assert parse_choice("ANSWER: **3**", 3) == 2
    for bad in ("none", "ANSWER: 4"):
        with pytest.raises(ValueError):
            parse_choice(bad, 3)
