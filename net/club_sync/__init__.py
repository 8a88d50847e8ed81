"""One club across several processes: each table is a log of steps in the shared store.

Every process that shows a table holds its replay. A process that accepts a step writes it
as the table's next step (a unique key settles two writers) before anyone sees it; the others
read it when the store says a table moved (``ClubNode``'s feed) and show it. Seats, presence
and the lease (the one process running a table's bots and timers) are rows in the same store.
"""
