"""SWE-bench-style resolution: apply a patch at the base commit, run the instance's tests in the sandbox,
grade FAIL_TO_PASS and PASS_TO_PASS from the log with SWE-bench's own grader."""
