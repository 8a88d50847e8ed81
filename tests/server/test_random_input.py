"""Random keys, clicks and sizes from three clients at one club (``random_input``): no
session may fail, whatever a stranger sends."""

from __future__ import annotations

import pytest
from random_input import one_seed


@pytest.mark.parametrize("seed", [0, 1])
async def test_random_input_from_three_clients_ends_no_session(tmp_path, seed):
    run = await one_seed(tmp_path, seed, steps=150)
    assert run.failure is None, run.report()
    assert len(run.inputs) == 150  # (every step sent something: none was skipped)
