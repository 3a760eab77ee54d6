"""Input regions: layout, packing, a shared mapping the runner reads back, and output aliasing."""

import os

import pytest
import torch

import fcntl

from benchmarks.kernels.verifier.runner.inputs import (ALIGN, Region, gaps, layout_of, map_region, overlapping_input,
                                                       same_bits, views, write)


def sample_inputs():
    return [torch.randn(3, 5), torch.randn(7, 4).t(), torch.randn(9)[::3], torch.arange(6), 2.5, "mean"]


def test_layout_keeps_dense_strides_packs_the_rest_and_passes_values():
    slots, nbytes = layout_of(sample_inputs())
    assert slots[1]["stride"] == [1, 4] and slots[2]["stride"] == [1]  # transposed kept, gappy slice packed
    assert slots[4] == {"value": 2.5} and slots[5] == {"value": "mean"}
    assert all(slot["offset"] % ALIGN == 0 for slot in slots[:4]) and nbytes % ALIGN == 0


def packed(inputs):
    slots, nbytes = layout_of(inputs)
    buffer = torch.zeros(nbytes, dtype=torch.uint8)
    write(buffer, slots, inputs)
    return buffer, slots, nbytes


def test_views_of_a_written_buffer_equal_the_inputs():
    inputs = sample_inputs()
    buffer, slots, _ = packed(inputs)
    for view, value in zip(views(buffer, slots), inputs):
        assert same_bits(view, value) if isinstance(value, torch.Tensor) else view == value


def test_anything_but_tensors_and_plain_values_is_refused():
    with pytest.raises(TypeError, match="input 1 is a dict"):
        layout_of([torch.zeros(1), {"a": 1}])


def test_a_second_mapping_of_the_region_sees_writes_and_mutations_are_found():
    inputs = sample_inputs()
    slots, nbytes = layout_of(inputs)
    region = Region(nbytes)
    other = map_region(os.dup(region.descriptor()), nbytes)  # what a worker maps
    write(region.buffer, slots, inputs)
    assert all(same_bits(view, value) for view, value in zip(views(other, slots), inputs)
               if isinstance(value, torch.Tensor))
    views(other, slots)[1][2, 3] += 1.0  # a strided (transposed) input changed by the worker
    assert not same_bits(views(region.buffer, slots)[1], inputs[1])


def test_a_region_cannot_be_resized_by_whoever_holds_its_descriptor():
    region = Region(4096)
    with pytest.raises(PermissionError):
        os.ftruncate(region.descriptor(), 64)
    assert fcntl.fcntl(region.descriptor(), fcntl.F_GET_SEALS) & fcntl.F_SEAL_SHRINK


def test_nan_payloads_count_as_bits():
    a = torch.full((16,), float("nan"))
    b = a.clone()
    assert same_bits(a, b)
    b.view(torch.int32)[3] ^= 1  # a different NaN
    assert not same_bits(a, b) and not same_bits(a, a[:8])


@pytest.mark.parametrize("make", [lambda x: x.t(), lambda x: x.expand(2, 4, 4), lambda x: x[1:, :2],
                                  lambda x: x.as_strided((2, 2), (1, 4), 3), lambda x: x])
def test_views_of_an_input_overlap_it(make):
    x = torch.randn(4, 4)
    assert overlapping_input(make(x), [3, x]) == 1


def test_a_fresh_tensor_does_not_overlap():
    x = torch.randn(4, 4)
    assert overlapping_input(x.clone(), [x]) is None and overlapping_input(torch.empty(0), [x]) is None


def test_every_byte_outside_the_inputs_is_zeroed_on_each_write():
    inputs = [torch.randn(5), torch.arange(3, dtype=torch.int32), 2.0, torch.randn(2, 3)]
    slots, nbytes = layout_of(inputs)
    region = Region(nbytes, "t")
    assert region.nbytes % 4096 == 0 and region.buffer.numel() == region.nbytes  # whole pages, all of them seen
    free = gaps(slots, region.nbytes)
    assert free == [(20, 64), (76, 128), (152, region.nbytes)]
    region.buffer.fill_(0xAB)  # a kernel that kept bytes past its inputs, up to the end of the page
    write(region.buffer, slots, inputs)
    assert all(int(region.buffer[start:end].count_nonzero()) == 0 for start, end in free)
    assert all(same_bits(a, b) for a, b in zip([inputs[0], inputs[1], inputs[3]],
                                               [v for v in views(region.buffer, slots) if isinstance(v, torch.Tensor)]))
