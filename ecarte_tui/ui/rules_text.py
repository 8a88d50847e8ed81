"""The rules as a player reads them, for the preset and options in play (F2, ``ecarte rules``).

The same rules as the project's rule book, with the parameters of the table filled in
instead of listed, so a player reads only what applies to this game; every rule names the
source documents (``seeds/``, numbered 000 to 004) it comes from, so a player can check it.
"""

from __future__ import annotations

from ..engine import PRESET_DESCRIPTIONS, Rules
from ..engine.rules import SOURCES

# The five source documents (seeds/), as the rules page names them.
SOURCE_TITLES = {
    "000": "Académie des jeux (undated) and Méry, *L'Arbitre des jeux* (1847)",
    "001": "modern English rules (“Écarté: full rules”)",
    "002": "French rules, *L'Ecarté*",
    "003": "*Encyclopaedia Britannica* (1911), “Ecarte”",
    "004": "Dutch rules, *Hoe speel je*",
}

# "These are ...": each preset's source, as the subject of that sentence.
_THESE_ARE = {
    "000": "the rules of the Académie des jeux and of Méry's *L'Arbitre des jeux* (1847)",
    "001": "the modern English rules",
    "002": "the French rules of *L'Ecarté*",
    "003": "the rules of the *Encyclopaedia Britannica* (1911)",
    "004": "the Dutch rules of *Hoe speel je*",
}

# Where each value of a parameter comes from (the rule book's §2-§7).
_FIRST_DEALER_SOURCES = {
    "lowest_deals": "000, 004",
    "highest_deals": "003",
    "higher_chooses": "001; 002 says nothing of the first deal",
}
_DEALER_DISCARD_SOURCES = {1: "000, 001, 004", 0: "002, 003"}
_DEADLINE_SOURCES = {
    "own_first_card": "000, 001; 003 says nothing more precise",
    "opening_lead": "002, 004",
}
_PENALIZED_SOURCES = {"committer": "000, 001, 002", "elder": "003, 004"}
_VOLE_SOURCES = {"cap": "001, 003", "add": "000, 002, 004"}
_GAMES_SOURCES = {1: "000", 2: "000; rubbers in 001", 3: "004"}
_FIRST_ONLY = "000, 001, 002, 004; 003 read with them"
_TARGET_TEXT = {
    5: "A game is played to 5 points *(all five sources)*.",
    3: "A game to 3 points is *quick écarté* *(004)*.",
    11: "A game to 11 points is *écarté de Napoléon* *(004)*.",
}


def cite(sources: str) -> str:
    """A rule's sources, in the form every rule of the page ends with."""
    return f"*({sources})*"


def _first_dealer(r: Rules) -> str:
    return {
        "lowest_deals": "Both players draw a card; the **lower** card deals",
        "highest_deals": "Both players draw a card; the **higher** card deals",
        "higher_chooses": "Both players draw a card; the **higher** card chooses who deals",
    }[r.first_dealer] + (f" {cite(_FIRST_DEALER_SOURCES[r.first_dealer])}. Equal cards draw "
                         "again (no source says; the usual convention).")


def _king_shown(src: str) -> str:
    """Whether the king is shown: the sources differ, so each preset says its own."""
    if src == "000":
        return ("says **“I have the king!”** (key `k`) and scores 1 point at once, without "
                "having to show the king before playing it; if that point wins the game, he "
                f"shows it then {cite('000')}")
    if src == "001":
        return ("**shows it** and says **“I have the King”** (key `k`): 1 point at once "
                f"{cite('001')}")
    if src == "003":
        return ("announces it (key `k`) and scores 1 point at once: the Britannica says only "
                "that the king of trumps “scores one if in either hand”, not whether it is "
                f"shown {cite('003')}")
    if src == "004":
        return ("announces it (**“Roi!”**, key `k`) and scores 1 point at once; the source "
                f"does not say that he shows it {cite('004')}")
    return ("announces it (key `k`) and scores 1 point at once; the source does not say "
            f"that he shows it {cite(src or '002')}")


def _king(r: Rules) -> str:
    src = SOURCES.get(r.preset, "")
    if r.king_deadline == "opening_lead":
        when = ("Both players must announce it **before the elder leads to the first trick** "
                f"{cite(_DEADLINE_SOURCES[r.king_deadline])}; the table waits for the dealer "
                "to announce or pass (key `x`).")
    else:
        when = ("Each player must announce it **before playing his own first card** "
                f"{cite(_DEADLINE_SOURCES[r.king_deadline])}.")
    return (
        f"A player holding the king of trumps {_king_shown(src)}. The announcement is made "
        f"once the play has begun. {when} A player who does not announce in time loses the "
        f"point {cite('000, 001, 002, 004')}; the settings can announce it for you."
    )


def _penalty(r: Rules) -> str:
    if r.penalized == "committer":
        who = ("The elder who plays without proposing, or the dealer who refuses the first "
               "proposal, has *insisted* and is **at risk**")
    else:
        who = ("Whether the elder plays without proposing or the dealer refuses the first "
               "proposal, the **elder** is at risk")
    if r.penalty_on_vole == "cap":
        pay = ("If the player at risk fails to take 3 tricks, the opponent scores **2** "
               "— and no more, even for the vole")
    else:
        pay = ("If the player at risk fails to take 3 tricks, the opponent scores **1 more** "
               "than usual: 2 for the point, **3** for the vole")
    return (f"{who} {cite(_PENALIZED_SOURCES[r.penalized])}. {pay} "
            f"{cite(_VOLE_SOURCES[r.penalty_on_vole])}. A player at risk who wins scores "
            "normally.")


def sources_markdown() -> str:
    """The list of the source documents, closing the rules page."""
    lines = [f"- **{code}**: {title}" for code, title in SOURCE_TITLES.items()]
    return "\n".join(lines)


def rules_markdown(rules: Rules | None = None) -> str:
    """The whole page, Markdown: F2 shows it and ``ecarte rules`` prints it."""
    r = rules or Rules()
    src = SOURCES.get(r.preset, "")
    these = _THESE_ARE.get(src, f"the {r.preset} rules")
    changed = r.differences()
    if changed:
        these += (", with this table's own settings: "
                  + ", ".join(f"`{k}` {v}" for k, v in changed.items()))
    games = ("One game decides the match (*cinq sec*, “five straight”)" if r.games_to_win == 1
             else f"The match goes to the first player to win **{r.games_to_win} games**")
    games += f" {cite(_GAMES_SOURCES.get(r.games_to_win, 'no source: a table option'))}."
    target = _TARGET_TEXT.get(
        r.target, f"A game to {r.target} points is this table's choice (no source).")
    rank = ("A K Q J 10 9 8 7** *(a variant in 001)*" if r.ace_high else
            f"K Q J A 10 9 8 7** {cite('000, 001, 002, 004; 003: the king is the highest')}")
    dealer_discard = (
        "The dealer must change **at least one** card" if r.dealer_min_discard else
        "The dealer may change **any number of cards, or none**"
    ) + f" {cite(_DEALER_DISCARD_SOURCES[r.dealer_min_discard])}."
    return f"""\
# Écarté — {r.preset} rules

*{PRESET_DESCRIPTIONS.get(r.preset, "")}* These are {these}. Each rule names its sources in
brackets: the five documents listed at the end (000 to 004).

## The cards

32 cards: K Q J A 10 9 8 7 in each suit {cite('all five sources')}. Inside a suit they
rank, high to low, **{rank}. Cards have no point value: only tricks and the king of trumps
score {cite('002')}.

## The deal

- {_first_dealer(r)}
- The dealer gives each player **5 cards**, then turns up the 11th: its suit is **trumps**
  for the hand. The other 21 cards are the **stock** {cite('all five sources')}. The
  turn-up never enters a hand {cite('000, 001')}.
- If the turn-up is a **king**, the dealer scores 1 point at once {cite('all five sources')}.
- The deal alternates every hand {cite('all five sources')}. Each player deals with his own
  deck: the two decks have backs of different colours {cite('000')}.
- The non-dealer is the **elder** (*premier joueur*, *voorhand*).

## Proposals and exchanges

1. The elder **plays** (“We play!”, key `p`) or **proposes** (“Cards!”, key `c`).
2. To a proposal the dealer **accepts** (“How many?”, key `a`) or **refuses** (key `r`),
   which starts the play at once {cite('all five sources')}.
3. After an acceptance the elder discards **1 to 5** cards and draws as many from the stock;
   then the dealer does the same {cite('all five sources')}. {dealer_discard} Nobody may
   take more cards than the stock holds {cite('000, 002; 001 read so')}; when the elder
   empties the stock the dealer does not exchange {cite('001')}.
4. The elder then plays or proposes again. When the stock is empty the play starts
   {cite('002, 004')}.

Discards stay out of the game, face down {cite('002')}.

## Insisting

Only the **first** decision of the hand carries a risk {cite(_FIRST_ONLY)}.
{_penalty(r)}

## The king of trumps

{_king(r)} A player who reaches the target with the king's point wins at once, without
playing the hand {cite('000, 001')}.

## The play

- The elder leads to the first trick; the winner of a trick leads to the next
  {cite('all five sources')}.
- The second player **must follow suit** and **must head the trick** (play a higher card
  of the suit led) if he can {cite('all five sources')}.
- Without a card of the suit led he **must trump** if he can; otherwise he plays any card
  {cite('000, 001, 002, 004')}.
- A trump beats any other suit; otherwise the higher card of the suit led wins
  {cite('all five sources')}.
- All five tricks are always played: the vole needs all five {cite('004')}.

## Scoring

- **3 or 4 tricks**: the point, **1**.  **All 5**: the vole, **2** {cite('all five sources')}.
- The penalty for insisting, above.
- The king of trumps and the turn-up king, **1** each {cite('all five sources')}.

## Winning

Each player starts with **{r.target} chips** to the right of the dealer and moves one to
the left for each point {cite('000')}: the first to reach **{r.target}** points wins the
game, the moment it happens {cite('000, 001')}. {target} {games}

## Sources

{sources_markdown()}

The documents themselves are in the project's `seeds/` folder (file names start with
their number).
"""
