"""The trusted runner (reference, comparison, clock) and the untrusted worker it drives, in the sandbox."""
