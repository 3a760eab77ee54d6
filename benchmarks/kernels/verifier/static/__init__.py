"""The allow-list (a positive model) of what a kernel solution's Python may do.

``forward`` and everything it reaches may only call the solution's own compiled, Triton or NPU
kernels, allocate (``torch.empty*``), query shapes and dtypes, make views needed to pass pointers,
and do plain arithmetic on numbers; anything else anywhere in the file is refused with its line.
Modules: ``allowlist`` (the tables), ``kinds`` (what a name may hold), ``symbols`` (the module's
names and reachability), ``paths`` (imported names), ``expressions`` / ``statements`` /
``module_scope`` (host code), ``analysis`` (the whole-module pass), ``device`` (kernel bodies),
``check`` (the entry point).
"""
