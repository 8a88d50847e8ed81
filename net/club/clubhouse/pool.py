"""Pool écarté (RULES.md §9): the pure logic lives in ``ecarte_tui.pool`` so that the local
game can use it too (the ui layer must not import ``net``); this module keeps the club's
imports working."""

from ecarte_tui.pool import (
    JSON_VERSION,
    POOL_RULE_DESCRIPTIONS,
    POOL_RULES,
    BoardRow,
    Pool,
    PoolError,
    PoolGame,
    PoolResult,
)

__all__ = [
    "JSON_VERSION",
    "POOL_RULE_DESCRIPTIONS",
    "POOL_RULES",
    "BoardRow",
    "Pool",
    "PoolError",
    "PoolGame",
    "PoolResult",
]
