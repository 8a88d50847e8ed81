"""The club's domain: live tables and their seats, the pool's rounds, the house (purses,
stakes, wagers, ratings, talk, galleries) and who is in each table's room.

No Textual and no asyncssh here: the screens (``net.screens``) and the SSH transport
(``net.ssh``) use it, never the other way round. The names most callers need are here.
"""

from net.club.live_club import Club
from net.club.model import (
    BOT_PREFIX,
    CODE_ALPHABET,
    ClubError,
    LiveTable,
    SeatState,
    TableOptions,
    round_record_id,
)

__all__ = ["BOT_PREFIX", "CODE_ALPHABET", "Club", "ClubError", "LiveTable", "SeatState",
           "TableOptions", "round_record_id"]
