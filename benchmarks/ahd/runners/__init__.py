"""Sandbox-side sources. They are copied into the sandbox and run there as standalone files
(``python harness.py`` beside ``runner.py`` and ``ahd_common.py``); they import only numpy."""
