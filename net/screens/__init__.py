"""The club's screens: choosing a name, the lobby, a new table, waiting for an opponent,
and the table with who is away. ``net.screens.club_app.ClubApp`` strings them together."""
