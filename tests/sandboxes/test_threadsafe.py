import ast
import sys
import threading

from sandboxes.threadsafe import serialise_ast_parse

SOURCE = "def f(x):\n" + "".join(f"    y{i} = [x + {i} for _ in range(3)]\n" for i in range(300)) + "    return x\n"


def test_parallel_parsing_after_the_lock_is_installed():
    serialise_ast_parse()
    serialise_ast_parse()  # idempotent
    if sys.version_info < (3, 12):
        assert ast.parse.serialised and ast.parse.__wrapped__ is not ast.parse
    errors: list[BaseException] = []

    def parse_many():
        try:
            for _ in range(30):
                assert isinstance(ast.parse(SOURCE).body[0], ast.FunctionDef)
        except BaseException as error:  # noqa: BLE001 - collected and asserted below
            errors.append(error)

    threads = [threading.Thread(target=parse_many) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
