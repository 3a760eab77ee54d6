import ast

from agents.rpg.typefacts import annotation_type, collect, parameter_types, plain, value_type


def expr(text):
    return ast.parse(text, mode="eval").body


def test_annotations_name_one_class_or_nothing():
    cases = {"Foo": "Foo", "mod.Foo": "mod.Foo", "'Foo'": "Foo", "Optional[Foo]": "Foo", "typing.Optional[a.B]": "a.B",
             "Foo | None": "Foo", "None | Foo": "Foo", "Foo | Bar": "", "list[Foo]": "list", "'not valid('": "",
             "ClassVar[Foo]": "Foo"}
    assert {text: annotation_type(expr(text)) for text in cases} == cases
    assert annotation_type(None) == ""


def test_values_are_constructor_calls_or_known_names():
    assert value_type(expr("Foo(1, x=2)"), {}) == "Foo" and value_type(expr("pkg.Foo()"), {}) == "pkg.Foo"
    assert value_type(expr("app"), {"app": "Flask"}) == "Flask" and value_type(expr("app"), {}) == ""
    assert value_type(expr("[1]"), {}) == ""


def test_collect_binds_locals_and_self_attributes_and_drops_ambiguous_names():
    body = ast.parse("x = Foo()\ny: Bar = make()\nself.app = app\nself.cache: 'Cache' = None\n"
                     "z = A()\nif cond:\n    z = B()\nother.attr = C()\n")
    local, attributes = {"app": "Flask"}, {}
    for statement in body.body:
        collect(statement, local, attributes)
    assert plain(local) == {"x": "Foo", "y": "Bar", "app": "Flask"}  # z is A or B: dropped
    assert attributes == {"app": "Flask", "cache": "Cache"}  # other.attr is not self's


def test_parameter_annotations():
    function = ast.parse("def f(a: Foo, b, *, c: 'mod.Bar' = None, **kw): pass").body[0]
    assert parameter_types(function.args) == {"a": "Foo", "c": "mod.Bar"}
