"""Sanity properties of the timing model, on real kernels (every number is simulated)."""

import numpy as np
import pytest
import torch

from sandboxes.targets.npu.chip import ChipConfig, load_chip
from sandboxes.targets.npu.errors import NpuKernelError, ParamError, UseAfterFreeError
from sandboxes.targets.npu.lang import (Adds, CreateVecIndex, DataCopy, GetBlockIdx, GetBlockNum, GlobalTensor, TBuf,
                                        TPipe, TPosition, TQue, UnaryRepeatParams, float32, int16, int32, kernel,
                                        launch)
from sandboxes.targets.npu.launch import capture
from tests.sandboxes.targets.npu.kernels import run_copy, single_block


@pytest.mark.parametrize("block_dim", [1, 4, 16, 48])
def test_copy_never_beats_the_bandwidth_bound(block_dim):
    profile = run_copy(n=1 << 18, block_dim=block_dim)
    chip = ChipConfig()
    bound = chip.launch_overhead_cycles + 2 * (1 << 18) * 4 / chip.hbm_bytes_per_cycle
    assert profile.cycles >= bound
    assert profile.gm_read_bytes >= (1 << 18) * 4  # ragged tails move whole 32-byte blocks
    assert profile.gm_write_bytes == profile.gm_read_bytes


def test_double_buffering_overlaps_pipes_and_single_buffering_serialises():
    single = run_copy(n=1 << 17, tile=4096, buffers=1, vector_ops=6, inplace=True)
    double = run_copy(n=1 << 17, tile=4096, buffers=2, vector_ops=6, inplace=True)
    assert double.cycles < 0.8 * single.cycles
    busy = single.busy
    serial = busy["MTE2"] + busy["VEC"] + busy["MTE3"]
    assert single.makespan_cycles == pytest.approx(serial, rel=0.05)  # nothing overlapped
    assert double.makespan_cycles < 0.75 * serial


def test_more_cores_help_until_bandwidth_bound():
    cycles = {cores: run_copy(n=1 << 20, block_dim=cores, tile=8192).cycles for cores in (1, 2, 4, 8, 16, 32, 48)}
    assert cycles[2] < 0.6 * cycles[1] and cycles[4] < 0.6 * cycles[2]
    assert cycles[48] >= 0.9 * cycles[16]  # bandwidth bound: more cores stop helping
    chip = ChipConfig()
    floor = chip.launch_overhead_cycles + 2 * (1 << 20) * 4 / chip.hbm_bytes_per_cycle
    assert cycles[48] == pytest.approx(floor, rel=0.05)


def test_same_kernel_and_inputs_give_the_same_cycles():
    assert run_copy(block_dim=3).cycles == run_copy(block_dim=3).cycles


def test_second_chip_config_changes_the_timing():
    other = load_chip("ascend910a")
    assert other.separated is False and other.ub_bytes == 262144
    assert run_copy(block_dim=8, chip=other).cycles != run_copy(block_dim=8).cycles


def test_launch_rejects_undecorated_functions_and_bad_block_dim():
    with pytest.raises(ParamError, match="@kernel"):
        launch(lambda: None, 1)

    @kernel
    def empty():
        pass
    with pytest.raises(ParamError, match="block_dim"):
        launch(empty, 0)
    assert launch(empty, 2).cycles == ChipConfig().launch_overhead_cycles


def test_trace_records_events_per_core():
    profile = launch_traced()
    pipes = {event.pipe for event in profile.events[0]}
    assert {"MTE2", "VEC", "MTE3"} <= pipes
    for event in profile.events[0]:
        assert event.end >= event.start


def launch_traced():
    from tests.sandboxes.targets.npu.kernels import CopyTiling, copy_kernel

    x, y = np.ones(4096, np.float32), np.zeros(4096, np.float32)
    return launch(copy_kernel, 1, x, y, CopyTiling(4096, 1024, 2, 0), trace=True)


def test_a_tensor_is_converted_once_per_launch_and_each_block_gets_its_own_gm_address(monkeypatch):
    import sandboxes.targets.npu.launch as simulator
    from sandboxes.targets.npu.runtime import gm_array

    converted, seen = [], []
    monkeypatch.setattr(simulator, "gm_array", lambda value: converted.append(value) or gm_array(value))

    @kernel
    def note(x):
        seen.append(x)
    x = np.arange(64, dtype=np.float32)
    launch(note, 4, x)
    assert len(converted) == 1 and len({id(a) for a in seen}) == len({id(a.base) for a in seen}) == 4
    assert all(a.offset == 0 and np.shares_memory(a.base, x) for a in seen)


def test_what_a_kernel_does_to_the_capture_does_not_outlive_its_block():
    """A kernel that opened a capture of its own (kept open past the block) had its launch counted in that
    private list instead of the forward pass's: the pass then cost one empty launch."""
    kept = []

    @kernel
    def hiding(x, y):
        private = capture()
        next(private.gen)  # the capture is now open ... and never closed
        kept.append(private)

    with capture() as launches:
        launch(hiding, 2, np.zeros(8, np.float32), np.zeros(8, np.float32))
    assert [p.kernel for p in launches] == ["hiding"]


def test_a_kernel_cannot_launch_another():
    @kernel
    def inner():
        pass

    @kernel
    def outer():
        launch(inner, 1)

    with pytest.raises(ParamError, match="launch\\(\\) inside a kernel"):
        launch(outer, 1)


def test_a_local_tensor_or_queue_cannot_be_moved_to_another_position():
    def body():
        pipe = TPipe()
        queue = TQue(TPosition.VECIN)
        pipe.InitBuffer(queue, 1, 1024)
        tensor = queue.AllocTensor("float32")
        for relabelled in (tensor, queue, TBuf(TPosition.VECCALC)):
            with pytest.raises(AttributeError):
                relabelled.position = "A1"  # vector-core UB seen as the cube's L0A
        assert tensor.position == queue.position == "VECIN"

    single_block(body)


def test_the_profile_a_launch_returns_inside_a_capture_is_the_callers_own_copy():
    with capture() as launches:
        profile = run_copy(n=1 << 12)
        counted = launches[0].cycles
        profile.__init__(*(0 if isinstance(v, (int, float)) else v for v in vars(profile).values()))
    assert profile.cycles == 0 and launches[0].cycles == counted > 0


def test_a_tensor_of_a_block_that_has_ended_cannot_be_used_by_the_next():
    """Blocks that kept each other's L1 tiles (through a dict shared between blocks) read their operands
    once for all the cores: one on-chip memory for the whole chip."""
    kept = []

    @kernel
    def sharing():
        if not kept:
            pipe = TPipe()
            buffer = TBuf(TPosition.VECCALC)
            pipe.InitBuffer(buffer, 1024)
            kept.append(buffer.Get("float32"))
        else:
            kept[0].GetValue(0)

    with pytest.raises(UseAfterFreeError, match="a VECCALC tensor of a block that has ended"):
        launch(sharing, 2)



def _through_ub(queues, gm_in, gm_out, count):
    """gm_out = gm_in over ``count`` elements, through a VECIN and a VECOUT queue (synchronised as a kernel must)."""
    vecin, vecout = queues
    tile = vecin.AllocTensor(float32)
    DataCopy(tile, gm_in, count)
    vecin.EnQue(tile)
    tile, result = vecin.DeQue(), vecout.AllocTensor(float32)
    Adds(result, tile, 0.0, count)
    vecout.EnQue(result)
    result = vecout.DeQue()
    DataCopy(gm_out, result, count)
    vecin.FreeTensor(tile)
    vecout.FreeTensor(result)


def _queues():
    pipe, vecin, vecout = TPipe(), TQue(TPosition.VECIN), TQue(TPosition.VECOUT)
    pipe.InitBuffer(vecin, 1, 64 * 4)
    pipe.InitBuffer(vecout, 1, 64 * 4)
    return vecin, vecout


@kernel
def _partials_then_last_block_sums(x, partial, out):
    """Each block writes its 8 elements to ``partial``, reads them back (its own writes: ordered within the block),
    and the last block copies all of them on (the others' writes: no second launch between)."""
    gm_x, gm_p, gm_mine, gm_out = GlobalTensor(), GlobalTensor(), GlobalTensor(), GlobalTensor()
    gm_x.SetGlobalBuffer(x[GetBlockIdx() * 8], 8)
    gm_p.SetGlobalBuffer(partial[GetBlockIdx() * 8], 8)
    gm_mine.SetGlobalBuffer(out[GetBlockIdx() * 8], 8)
    queues = _queues()
    _through_ub(queues, gm_x, gm_p, 8)
    _through_ub(queues, gm_p, gm_mine, 8)
    if GetBlockIdx() == GetBlockNum() - 1:
        gm_all = GlobalTensor()
        gm_all.SetGlobalBuffer(partial, 8 * GetBlockNum())
        gm_out.SetGlobalBuffer(out, 8 * GetBlockNum())
        _through_ub(queues, gm_all, gm_out, 8 * GetBlockNum())


def test_a_block_that_reads_what_another_block_wrote_in_the_launch_reads_a_race():
    """Blocks run in parallel on the chip: the last block summing the others' partials in one launch got them
    here only because the simulator runs blocks in turn (mse_loss 2.79x against 2.37x for two launches)."""
    x, partial, out = torch.arange(64.0), torch.zeros(64), torch.zeros(64)
    with pytest.raises(NpuKernelError, match="block 7: DataCopy GM->UB reads GM that block 0 wrote in this launch"):
        launch(_partials_then_last_block_sums, 8, x, partial, out)
    launch(_partials_then_last_block_sums, 1, x[:8].clone(), partial, out)  # one block: its own writes only
    assert torch.equal(out[:8], x[:8])


def test_one_tensor_passed_twice_is_one_buffer_and_overlapping_arguments_are_refused():
    """Two arguments of one tensor were two buffers to the timeline: a read-back through the second started
    before the write through the first had ended."""
    @kernel
    def write_then_read(source, written, read_back):
        gm_in, gm_w, gm_r = GlobalTensor(), GlobalTensor(), GlobalTensor()
        gm_in.SetGlobalBuffer(source, 64)
        gm_w.SetGlobalBuffer(written, 64)
        gm_r.SetGlobalBuffer(read_back, 64)
        queues = _queues()
        _through_ub(queues, gm_in, gm_w, 64)
        _through_ub(queues, gm_r, gm_in, 64)

    x, y = torch.randn(64), torch.zeros(64)
    events = launch(write_then_read, 1, x, y, y, trace=True).events[0]
    first_write = next(e for e in events if e.name == "DataCopy UB->GM")
    read_back = [e for e in events if e.name == "DataCopy GM->UB"][1]
    assert read_back.start >= first_write.end
    z = torch.zeros(128)
    launch(write_then_read, 1, x, y, z[8:72])  # another buffer
    with pytest.raises(ParamError, match="overlap without being one buffer"):
        launch(write_then_read, 1, x, z[:64], z[32:96])


def test_a_race_through_another_dtypes_view_is_seen():
    """The race table counted elements of the view that wrote first: partials written through an int16 view and
    read through the float32 one never met (mse_loss in one launch, 1.17x). It counts bytes now."""
    @kernel
    def halves_then_sum(x, partial, partial16, out):
        gm_x, gm_half = GlobalTensor(), GlobalTensor()
        gm_x.SetGlobalBuffer(x[GetBlockIdx() * 8], 8)
        gm_half.SetGlobalBuffer(partial16[GetBlockIdx() * 16], 16)
        queues = _queues()
        vecin, vecout = queues
        local = vecin.AllocTensor(float32)
        DataCopy(local, gm_x, 8)
        vecin.EnQue(local)
        local = vecin.DeQue()
        result = vecout.AllocTensor(float32)
        DataCopy(result, local, 8)
        vecout.EnQue(result)
        vecin.FreeTensor(local)
        result = vecout.DeQue()
        DataCopy(gm_half, result.ReinterpretCast(int16), 16)
        vecout.FreeTensor(result)
        if GetBlockIdx() == GetBlockNum() - 1:
            gm_all, gm_out = GlobalTensor(), GlobalTensor()
            gm_all.SetGlobalBuffer(partial, 8 * GetBlockNum())
            gm_out.SetGlobalBuffer(out, 8 * GetBlockNum())
            _through_ub(queues, gm_all, gm_out, 8 * GetBlockNum())

    x, partial, out = torch.arange(32.0), torch.zeros(32), torch.zeros(32)
    with pytest.raises(NpuKernelError, match="block 3: DataCopy GM->UB reads GM that block 0 wrote"):
        launch(halves_then_sum, 4, x, partial, partial.view(torch.int16), out)


def test_a_tpipe_kept_from_another_block_allocates_nothing():
    """A TPipe carried to a later launch booked its buffers on the ended core's counters, from UB+0 again: a
    buffer that aliased the new block's own, with a Slot of its own (no wait for the DMA that filled it)."""
    kept = []

    @kernel
    def keep_pipe(x):
        kept.append(TPipe())

    @kernel
    def use_kept(x):
        kept[0].InitBuffer(TBuf(), 256)

    x = torch.zeros(64)
    launch(keep_pipe, 1, x)
    with pytest.raises(ParamError, match="block 0: InitBuffer on a TPipe made by another block or launch"):
        launch(use_kept, 1, x)


def test_an_error_the_simulator_did_not_phrase_names_the_call():
    """A three-word mask raised a bare ValueError from the vector unit's internals; it names the call now."""
    @kernel
    def bad_mask(x):
        pipe, buffer = TPipe(), TBuf()
        pipe.InitBuffer(buffer, 256)
        local = buffer.Get(float32)
        Adds(local, local, 1.0, [1, 2, 3], 1, UnaryRepeatParams())

    @kernel
    def own_bug(x):
        [][1]

    with pytest.raises(ParamError, match=r"block 0: Adds cannot take these arguments \(ValueError"):
        launch(bad_mask, 1, torch.zeros(64))
    with pytest.raises(IndexError):  # the kernel's own code: left as it is
        launch(own_bug, 1, torch.zeros(64))


@pytest.mark.parametrize("argument", [torch.empty(64, device="meta"), torch.zeros(64, dtype=torch.float8_e4m3fn),
                                      torch.zeros(64, dtype=torch.complex64).conj()])
def test_an_argument_the_chip_cannot_hold_is_a_param_error(argument):
    @kernel
    def nothing(x):
        pass

    with pytest.raises(NpuKernelError):
        launch(nothing, 1, argument)


def test_two_blocks_writing_the_same_bytes_race():
    """The last writer won by simulation order; on the chip either block may land last."""
    @kernel
    def same_place(x, out):
        gm_x, gm_out = GlobalTensor(), GlobalTensor()
        gm_x.SetGlobalBuffer(x[GetBlockIdx() * 8], 8)
        gm_out.SetGlobalBuffer(out, 8)
        _through_ub(_queues(), gm_x, gm_out, 8)

    x, out = torch.arange(32.0), torch.zeros(8)
    with pytest.raises(NpuKernelError, match="block 1: DataCopy UB->GM writes GM that block 0 wrote in this launch"):
        launch(same_place, 4, x, out)
    launch(same_place, 1, x, out)
    assert torch.equal(out, x[:8])


def test_a_block_that_writes_what_another_block_read_races_it():
    """Block b read slice b + 1 and wrote slice b: the simulator ran block b first, so it always read the old data,
    but on the chip block b + 1 may write first."""
    @kernel
    def shift_left(y):
        b = GetBlockIdx()
        gm_in, gm_out = GlobalTensor(), GlobalTensor()
        gm_in.SetGlobalBuffer(y[(b + 1) * 8], 8)
        gm_out.SetGlobalBuffer(y[b * 8], 8)
        _through_ub(_queues(), gm_in, gm_out, 8)

    y = torch.arange(40.0)
    with pytest.raises(NpuKernelError, match="block 1: DataCopy UB->GM writes GM that block 0 read in this launch"):
        launch(shift_left, 4, y)
    y = torch.arange(40.0)
    launch(shift_left, 1, y)  # one block reads before it writes: no race
    assert torch.equal(y[:8], torch.arange(8.0, 16.0))


def test_a_count_past_the_buffer_is_refused_before_anything_is_computed():
    """CreateVecIndex with a count of 2**45 computed np.arange first and died in numpy with a MemoryError."""
    @kernel
    def huge_index(x):
        pipe, buffer = TPipe(), TBuf()
        pipe.InitBuffer(buffer, 256)
        CreateVecIndex(buffer.Get(int32), 0, 1 << 45)

    with pytest.raises(NpuKernelError, match="block 0"):
        launch(huge_index, 1, torch.zeros(64))
