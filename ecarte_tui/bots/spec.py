"""A bot named with options, ``expert:blend=0.95,effort=2``: the arena's way to try a change.

Whether a change to the expert helps is measured by playing both versions on the same
deals (``ecarte arena ... --baseline``): the options name the knobs that such experiments
turn, so a figure quoted from one can be reproduced with the command beside it.
"""

from __future__ import annotations

import math

from . import Bot, make_bot

# option -> (lowest, highest allowed, the ExpertBot argument it sets); a knob of the search
EXPERT_OPTIONS: dict[str, tuple[float, float, str]] = {
    "effort": (0.01, 10.0, "effort"),  # deals per decision, as a multiple (1: published)
    "bid_effort": (0.01, 10.0, "bid_effort"),  # and for play/propose, accept/refuse only
    "discard_effort": (0.01, 10.0, "discard_effort"),  # and for the discards only
    "blend": (0.0, 1.0, "blend"),  # weight of its best play, valuing a hand before the play
    "margin": (0.0, 10.0, "margin"),  # standard errors by which to overrule the treatises
    "card_policy": (0.0, 1.0, "card_policy"),  # weight of the treatises' replies in the play
    "info_sets": (0.0, 1.0, "info_sets"),  # 1: plan its later cards without seeing his
    "two_sided": (0.0, 1.0, "two_sided"),  # 1: value a score by hands it plays against him
    "oversample": (1.0, 16.0, "oversample"),  # guesses drawn per deal searched
    "play_misses": (0.01, 6.0, "play_misses"),  # weight of a play off the treatises, ×
}
# options that are on (1) or off (0), nothing between
SWITCHES = frozenset({"info_sets", "two_sided"})


def parse_spec(spec: str) -> tuple[str, dict[str, float]]:
    """``LEVEL[:key=value,...]`` as (level, options); a ValueError says what is wrong."""
    level, sep, rest = spec.partition(":")
    if not sep:
        return level, {}
    if level != "expert":
        raise ValueError(f"only the expert takes options, not {level!r}")
    options: dict[str, float] = {}
    for part in rest.split(","):
        key, eq, value = part.partition("=")
        if key not in EXPERT_OPTIONS:
            known = ", ".join(EXPERT_OPTIONS)
            raise ValueError(f"unknown expert option {key!r} (known: {known})")
        if not eq:
            raise ValueError(f"expert option {key!r} needs a value: {key}=NUMBER")
        if key in options:
            raise ValueError(f"expert option {key!r} is given twice")
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f"expert option {key}: {value!r} is not a number") from None
        lo, hi, _ = EXPERT_OPTIONS[key]
        if not (math.isfinite(number) and lo <= number <= hi):
            raise ValueError(f"expert option {key}: {value} is outside {lo:g}..{hi:g}")
        if key in SWITCHES and number not in (0.0, 1.0):
            raise ValueError(f"expert option {key} is a switch: {key}=0 or {key}=1")
        options[key] = number
    return level, options


def bot_from_spec(spec: str, seed: int | None = None) -> Bot:
    """The bot a spec names (a plain level is ``make_bot``'s)."""
    level, options = parse_spec(spec)
    if not options:
        return make_bot(level, seed)
    from .expert import ExpertBot

    kwargs: dict[str, float | bool] = {
        EXPERT_OPTIONS[k][2]: bool(v) if k in SWITCHES else v for k, v in options.items()
    }
    return ExpertBot(seed, **kwargs)
