import pytest

from agents.demo.calculator import calculate


@pytest.mark.parametrize("expression, value", [("17 * 23 + 4", 395), ("-(2 ** 10) / 4", -256.0), ("7 // 2 % 3", 0),
                                               ("(1.5 + 0.5) * 3", 6.0)])
def test_arithmetic(expression, value):
    assert calculate(expression) == value


@pytest.mark.parametrize("expression, message", [("__import__('os')", "contains Call"), ("x + 1", "contains Name"),
                                                 ("1 +", "not an arithmetic expression"), ("1 / 0", "division by zero"),
                                                 ("9 ** 9 ** 9", "too large"), ("'a' * 3", "contains Constant")])
def test_anything_else_is_refused(expression, message):
    with pytest.raises(ValueError, match=message):
        calculate(expression)
