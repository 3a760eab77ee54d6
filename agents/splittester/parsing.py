"""Pull decks, scripts and answers out of model replies."""

from __future__ import annotations

import re

FENCE = re.compile(r"```([a-zA-Z]*)\n(.*?)```", re.DOTALL)
ANSWER = re.compile(r"ANSWER:\s*\**\s*(\d+)", re.IGNORECASE)


def code_block(text: str, languages: tuple[str, ...]) -> str:
    """The first fenced block in one of ``languages`` (or an unlabelled one); ValueError when there is none."""
    blocks = FENCE.findall(text)
    for language, body in blocks:
        if language.lower() in languages:
            return body
    for language, body in blocks:
        if not language:
            return body
    raise ValueError(f"no ```{languages[0]} block in the reply")


def parse_deck(text: str) -> str:
    deck = code_block(text, ("ruby", "rb", "drc"))
    if "$input" not in deck or "$output" not in deck:
        raise ValueError("the deck must use source($input) and report(title, $output)")
    return deck


def parse_script(text: str) -> str:
    return code_block(text, ("python", "py"))


def parse_choice(text: str, count: int) -> int:
    """The 0-based candidate the reply names with ``ANSWER: k``."""
    found = ANSWER.findall(text)
    if not found:
        raise ValueError("no `ANSWER: <number>` line")
    choice = int(found[-1])
    if not 1 <= choice <= count:
        raise ValueError(f"answer {choice} is not between 1 and {count}")
    return choice - 1
