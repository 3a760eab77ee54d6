"""EPSVec-style differentially private dataset vectors: a steering vector extracted from a private corpus under
(epsilon, delta)-DP once, then added to the fixture transformer's residual stream for any number of samples."""
