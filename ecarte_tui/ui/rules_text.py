"""The rules as a player reads them in the terminal, for the preset and options in play.

Adapted from RULES.md (the project's rule book): the same rules, with the parameters of the
table filled in instead of listed, so a player reads only what applies to this game.
"""

from __future__ import annotations

from ..engine import PRESET_DESCRIPTIONS, Rules
from ..engine.rules import SOURCES

_SOURCE_NAMES = {
    "000": "Académie des jeux / Méry, *L'Arbitre des jeux* (1847)",
    "001": "the modern English rules",
    "002": "the French club rules, *L'Écarté*",
    "003": "the *Encyclopaedia Britannica* (1911)",
    "004": "the Dutch rules, *Hoe speel je*",
}


def _first_dealer(r: Rules) -> str:
    return {
        "lowest_deals": "Both players draw a card; the **lower** card deals.",
        "highest_deals": "Both players draw a card; the **higher** card deals.",
        "higher_chooses": "Both players draw a card; the **higher** card chooses who deals.",
    }[r.first_dealer] + " Equal cards draw again."


def _king(r: Rules) -> str:
    if r.king_deadline == "opening_lead":
        when = ("Both players must announce it **before the elder leads to the first trick**; "
                "the table waits for the dealer to announce or pass (key `x`).")
    else:
        when = "Each player must announce it **before playing his own first card**."
    return (
        "A player holding the king of trumps may say **“I have the king!”** (key `k`) and "
        "score 1 point at once, without showing it. The announcement is made once the play "
        f"has begun. {when} A player who does not announce in time loses the point; the "
        "settings can announce it for you."
    )


def _penalty(r: Rules) -> str:
    if r.penalized == "committer":
        who = ("The elder who plays without proposing, or the dealer who refuses the first "
               "proposal, has *insisted* and is **at risk**.")
    else:
        who = ("Whether the elder plays without proposing or the dealer refuses the first "
               "proposal, the **elder** is at risk.")
    if r.penalty_on_vole == "cap":
        pay = ("If the player at risk fails to take 3 tricks, the opponent scores **2** "
               "— and no more, even for the vole.")
    else:
        pay = ("If the player at risk fails to take 3 tricks, the opponent scores **1 more** "
               "than usual: 2 for the point, **3** for the vole.")
    return f"{who} {pay} A player at risk who wins scores normally."


def rules_markdown(rules: Rules | None = None) -> str:
    r = rules or Rules()
    src = SOURCES.get(r.preset, "")
    source = _SOURCE_NAMES.get(src, r.preset)
    games = ("One game decides the match (*cinq sec*)." if r.games_to_win == 1 else
             f"The match goes to the first player to win **{r.games_to_win} games**.")
    rank = "A K Q J 10 9 8 7" if r.ace_high else "K Q J A 10 9 8 7"
    dealer_discard = (
        "The dealer must change **at least one** card." if r.dealer_min_discard else
        "The dealer may change **any number of cards, or none**."
    )
    return f"""\
# Écarté — {r.preset} rules

*{PRESET_DESCRIPTIONS.get(r.preset, "")}* These are the rules of {source}.

## The cards

32 cards: K Q J A 10 9 8 7 in each suit. Inside a suit they rank, high to low,
**{rank}**. Cards have no point value: only tricks and the king of trumps score.

## The deal

- {_first_dealer(r)}
- The dealer gives each player **5 cards**, then turns up the 11th: its suit is **trumps**
  for the hand. The other 21 cards are the **stock**. The turn-up never enters a hand.
- If the turn-up is a **king**, the dealer scores 1 point at once.
- The deal alternates every hand. Each player deals with his own deck: the two decks have
  backs of different colours.
- The non-dealer is the **elder** (*premier joueur*).

## Proposals and exchanges

1. The elder **plays** (“We play!”, key `p`) or **proposes** (“Cards!”, key `c`).
2. To a proposal the dealer **accepts** (“How many?”, key `a`) or **refuses** (key `r`),
   which starts the play at once.
3. After an acceptance the elder discards **1 to 5** cards and draws as many from the stock;
   then the dealer does the same. {dealer_discard} Nobody may take more cards than the stock
   holds; when the elder empties the stock the dealer does not exchange.
4. The elder then plays or proposes again. When the stock is empty the play starts.

Discards stay out of the game, face down.

## Insisting

Only the **first** decision of the hand carries a risk. {_penalty(r)}

## The king of trumps

{_king(r)} A player who reaches the target with the king's point wins at once.

## The play

- The elder leads to the first trick; the winner of a trick leads to the next.
- The second player **must follow suit** and **must head the trick** (play a higher card
  of the suit led) if he can.
- Without a card of the suit led he **must trump** if he can; otherwise he plays any card.
- A trump beats any other suit; otherwise the higher card of the suit led wins.
- All five tricks are always played.

## Scoring

- **3 or 4 tricks**: the point, **1**.  **All 5**: the vole, **2**.
- The penalty for insisting, above.
- The king of trumps and the turn-up king, **1** each.

## Winning

Each player starts with **{r.target} chips** to the right of the dealer and moves one to
the left for each point: the first to reach **{r.target}** points wins the game, the moment
it happens. {games}
"""
