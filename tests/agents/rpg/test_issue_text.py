from agents.rpg.issue_text import drop_environment

MATPLOTLIB_STYLE = """### Bug summary

`set_visible(False)` does not hide a 3d axes.

### Code for reproduction

```python
import matplotlib.pyplot as plt
# the system default backend
ax = plt.subplot(projection="3d")
ax.set_visible(False)
return_value = 2.0
```

### Operating system

Windows 10

### Matplotlib Version

3.4.2

### Matplotlib Backend

QtAgg

### Python version

3.8.10
"""

SKLEARN_STYLE = """CalibratedClassifierCV fails with pandas output.

#### Versions
```
System:
    python: 3.9.15 (main, Nov 24 2022, 14:31:59)  [GCC 11.2.0]
   machine: Linux-5.15.0-57-generic-x86_64-with-glibc2.31
Python dependencies:
      sklearn: 1.2.0
   setuptools: 62.3.2
```

#### Expected Results
IsotonicRegression returns an array.
"""


def test_environment_sections_are_dropped_and_the_rest_kept():
    text = drop_environment(MATPLOTLIB_STYLE)
    assert "Windows" not in text and "3.4.2" not in text and "3.8.10" not in text and "Operating" not in text
    for kept in ("set_visible(False)", 'projection="3d"', "# the system default backend", "return_value = 2.0",
                 "### Matplotlib Backend", "QtAgg"):
        assert kept in text  # a code comment is not a heading; an assignment is not a version report


def test_show_versions_output_is_dropped_up_to_the_next_heading():
    text = drop_environment(SKLEARN_STYLE)
    assert "setuptools" not in text and "machine" not in text and "python:" not in text
    assert "CalibratedClassifierCV fails" in text and "#### Expected Results" in text and "returns an array" in text


def test_version_lines_in_prose():
    text = drop_environment("It crashes.\n- Sphinx version: 5.0.2\nPython 3.10.6 (main, Nov 14 2022) [GCC 11.3.0]\n"
                            "return 2.0\nx = 1.5\nSee numpy 1.24 notes for the change in rounding.")
    assert text.splitlines() == ["It crashes.", "return 2.0", "x = 1.5",
                                 "See numpy 1.24 notes for the change in rounding."]


def test_code_fences_lose_their_labels_and_keep_their_code():
    text = drop_environment("Totals are short.\n```python\nprint(inv.total())\n```\n```pytb\nValueError: x\n```")
    assert "python" not in text and "pytb" not in text
    assert "print(inv.total())" in text and "ValueError: x" in text
