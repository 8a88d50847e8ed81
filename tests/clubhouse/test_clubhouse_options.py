"""The club's table options: defaults, checks, JSON."""

from __future__ import annotations

import json

import pytest

from net.club.clubhouse.options import ClubOptions, ClubOptionsError


def test_defaults_and_json_round_trip():
    o = ClubOptions(pool="two_in_row", stake=5, jeux_de_regle=True)
    o.check()
    assert ClubOptions.from_json(json.loads(json.dumps(o.to_json()))) == o
    assert ClubOptions.from_json({}) == ClubOptions()


@pytest.mark.parametrize(
    "data, message",
    [
        ({"pool": "first"}, "unknown pool rule"),
        ({"stake": 101}, "0 to 100"),
        ({"stake": -1}, "0 to 100"),
        ({"stake": "5"}, "whole number"),
        ({"pool": "loser_out", "french_rule": True}, "choose one"),
        ({"colour": "red"}, "unknown table option"),
        ({"wagers": "yes"}, "yes or no"),
    ],
)
def test_bad_options_are_refused(data, message):
    with pytest.raises(ClubOptionsError, match=message):
        ClubOptions.from_json(data)
