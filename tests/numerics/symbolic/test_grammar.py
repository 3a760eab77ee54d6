import sympy as sp

from numerics.symbolic.grammar import generate_blocks


def test_depth_one_has_atoms_only_and_depth_two_adds_products_and_waves():
    x, t = sp.Symbol("x", real=True), sp.Symbol("t", real=True)
    shallow = generate_blocks([x, t], depth=1)
    deep = generate_blocks([x, t], depth=2)
    assert all(len(b.instantiate().free_symbols) <= 1 for b in shallow)
    texts = {str(b) for b in deep}
    assert "exp(-1.0*t)*sin(1.0*x)" in texts and "sin(1.0*x)*cos(2.0*t)" in texts
    assert any(s.startswith("tanh(") for s in texts)
    assert len(deep) > len(shallow)


def test_constants_are_free_symbols_with_start_values():
    x = sp.Symbol("x", real=True)
    block = next(b for b in generate_blocks([x], depth=1) if b.constants)
    (symbol, value), = block.constants
    assert symbol in block.expr.free_symbols and symbol not in block.instantiate().free_symbols
