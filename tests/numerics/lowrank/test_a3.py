"""A^3's component optimality on a single head, with numbers."""

import torch

from numerics.lowrank.a3 import (head_moments, ov_error, qk_error, reduce_ov, reduce_qk, refit_down,
                                 select_neurons)
from numerics.lowrank.apply import per_matrix_rank, svd_weight
from numerics.lowrank.whiten import second_moment, sqrt_and_inverse

D, HEAD, RANK = 32, 8, 4


def _head(seed: int):
    generator = torch.Generator().manual_seed(seed)
    mixing = torch.randn(D, D, generator=generator, dtype=torch.float64) * torch.logspace(0, -1.5, D).double()
    inputs = torch.randn(2000, D, generator=generator, dtype=torch.float64) @ mixing
    w1, w2 = (torch.randn(D, HEAD, generator=generator, dtype=torch.float64) for _ in range(2))
    return inputs, w1, w2


def _per_matrix(weight, inputs):
    """A ``nn.Linear``-layout weight at (at least) A^3's budget, plain or whitened by ``inputs``.

    Its rank k stays <= RANK, so the product of two such factors has rank <= RANK: A^3's optimum over all
    rank-RANK maps can be no worse, even though the baseline stores k (D + HEAD) >= D x RANK parameters.
    """
    rank = per_matrix_rank(RANK / HEAD, D, HEAD)
    assert rank <= RANK and rank * (D + HEAD) >= D * RANK
    return svd_weight(weight, rank, inputs)


def test_qk_error_is_the_optimum_and_no_worse_than_either_baseline():
    for seed in range(5):
        inputs, w_q, w_k = _head(seed)
        moment, m = second_moment(inputs), w_q @ w_k.T
        ours = qk_error(m, reduce_qk(w_q, w_k, moment, RANK).product(), moment)
        root, _ = sqrt_and_inverse(moment)
        tail = torch.linalg.svdvals(root @ m @ root)[RANK:]
        assert abs(ours - (tail ** 2).sum().item()) < 1e-6 * ours  # Eckart-Young: the discarded spectrum
        plain = _per_matrix(w_q.T, None).T @ _per_matrix(w_k.T, None)
        whitened = _per_matrix(w_q.T, inputs).T @ _per_matrix(w_k.T, inputs)
        for baseline in (plain, whitened):
            assert ours <= qk_error(m, baseline, moment) * (1 + 1e-9)


def test_ov_error_on_attention_weighted_inputs_is_no_worse_than_either_baseline():
    for seed in range(5):
        inputs, w_v, w_o_t = _head(seed)
        generator = torch.Generator().manual_seed(100 + seed)
        scores = torch.randn(1, 1, 40, 40, generator=generator).tril() - torch.triu(torch.full((40, 40), 1e9), 1)
        probs = scores.softmax(-1)
        batch = inputs[:1600].reshape(40, 40, D)
        moment = torch.stack(head_moments(probs.expand(40, 1, 40, 40), batch)).squeeze(0)
        m = w_v @ w_o_t.T
        ours = ov_error(m, reduce_ov(w_v, w_o_t.T, moment, RANK).product(), moment)
        head_outputs = (probs.double() @ batch).reshape(-1, D) @ w_v  # the input of W_O
        plain = _per_matrix(w_v.T, None).T @ _per_matrix(w_o_t, None).T
        whitened = _per_matrix(w_v.T, batch.reshape(-1, D)).T @ _per_matrix(w_o_t, head_outputs).T
        for baseline in (plain, whitened):
            assert ours <= ov_error(m, baseline, moment) * (1 + 1e-9)
        assert ours < ov_error(m, plain, moment)


def test_mlp_refit_is_the_least_squares_optimum_for_the_kept_neurons():
    generator = torch.Generator().manual_seed(0)
    hidden = torch.nn.functional.gelu(torch.randn(500, 64, generator=generator)).double()
    w_down = torch.randn(64, 16, generator=generator, dtype=torch.float64)
    kept = select_neurons(hidden, w_down, 32)
    refit = refit_down(hidden, w_down, kept)
    target = hidden @ w_down
    refit_error = (hidden[:, kept] @ refit - target).norm()
    assert refit_error < (hidden[:, kept] @ w_down[kept] - target).norm()
    perturbed = refit + 1e-3 * torch.randn(refit.shape, generator=generator, dtype=torch.float64)
    assert refit_error <= (hidden[:, kept] @ perturbed - target).norm()
