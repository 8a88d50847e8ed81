"""The club's house rules, without any screen or socket: écarté as played in the clubs.

Pure logic for the server's lobby and table screens to call (RULES.md §9): the pool of
three (``pool``), the gallery's backing and advice (``backers``), purses, stakes and wagers
(``purse``, on the ``club_*`` tables of ``ledger_db``), ratings and records (``ratings``),
table talk (``talk``), the jeux de règle option (``jeu_de_regle``) and the table options
that switch them on (``options``).
"""
