"""EPSVec-style differentially private dataset vectors for synthetic text, on the shipped byte-level fixture.

A steering vector is the mean residual-stream activation of a private corpus minus that of a public prior (the
fixture's docstrings). Each private example's contribution is clipped, the sum is noised once by the Gaussian
mechanism for (epsilon, delta)-DP (accounting in ``privacy``), and the released vector is added to the residual
stream while decoding. Reusing it for any number of samples is post-processing; the baseline draws a fresh noisy
vector per sample and must split the budget over them.

SIMULATED: the private corpus is generated REPL transcripts (``corpus``), not real records. The fixture is a
2-layer byte model trained on docstrings, so the vector carries byte-level style (prompts, digits, brackets,
short lines) rather than meaning: steered samples look like sessions to a bigram classifier and are closer in
bigram statistics, but their arithmetic is not right.
"""
