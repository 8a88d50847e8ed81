"""Argument types for the commands' numbers: a negative timeout or a zero count is refused
by argparse with the option's name, instead of starting something that cannot work."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def _number(kind: type[int] | type[float], text: str) -> int | float:
    try:
        return kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None


def count(low: int = 1) -> Callable[[str], int]:
    """A whole number, at least ``low``."""
    def parse(text: str) -> int:
        value = int(_number(int, text))
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {text}")
        return value
    return parse


def port_number(text: str) -> int:
    """A TCP port, 0 to 65535."""
    value = int(_number(int, text))
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be between 0 and 65535, not {text}")
    return value


def seconds(text: str) -> float:
    """A duration: 0 or more seconds (a finite number: an infinite timer cannot be set)."""
    value = float(_number(float, text))
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"must be 0 or more seconds, not {text}")
    return value


def positive_seconds(text: str) -> float:
    """A duration above 0."""
    value = float(_number(float, text))
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    return value
