"""The app's screens: home, table, the end of a hand and of a game, rules, settings, help."""
