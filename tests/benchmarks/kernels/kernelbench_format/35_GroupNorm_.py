import torch
import torch.nn as nn

class Model(nn.Module):
    """
    Group normalisation over NCHW input; num_groups only reaches the constructor.
    """
    def __init__(self, num_features: int, num_groups: int):
        super(Model, self).__init__()
        self.gn = nn.GroupNorm(num_groups=num_groups, num_channels=num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.gn(x)

batch_size = 96
features = 64
num_groups = 8
dim1 = 384
dim2 = 384

def get_inputs():
    x = torch.rand(batch_size, features, dim1, dim2)
    return [x]

def get_init_inputs():
    return [features, num_groups]
