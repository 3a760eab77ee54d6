"""The real CANN toolchain path for users who have it: write the standard Ascend C custom-operator
project and run msopgen, the build, the install and a test inside a CANN container image.

Not run on Ascend hardware here: nobody on this project has an NPU or the CANN image.
"""
