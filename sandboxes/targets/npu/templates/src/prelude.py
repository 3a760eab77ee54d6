"""Template text of the prelude family (${PARAM} placeholders are filled by templates.render_kernel)."""

SOURCE = r'''"""${DESCRIPTION} -- a kernel for the simulated NPU (sandboxes.targets.npu.lang)."""

import math

import torch
import torch.nn as nn

from sandboxes.targets.npu.lang import *
'''
