"""Served apps share one parsed stylesheet per theme (issue 10): the rule sets of two
sessions are the same objects, a session that changes theme gets that theme's rules (and
still draws), and the others keep theirs."""

from __future__ import annotations

from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.settings import Settings
from net.screens.club_app import LOBBY_STYLES
from net.ssh.shared_stylesheet import SharedStylesheet, share_stylesheet


class ServedLike(EcarteApp):
    CSS_PATH = [*EcarteApp.CSS_PATH, LOBBY_STYLES]


def served() -> ServedLike:
    app = ServedLike(settings=Settings(), served=True)
    share_stylesheet(app)
    return app


async def test_two_sessions_share_their_rule_sets_and_a_theme_change_is_their_own():
    first, second = served(), served()
    async with first.run_test(size=(80, 24)) as p1, second.run_test(size=(80, 24)) as p2:
        await p1.pause()
        await p2.pause()
        assert isinstance(first.stylesheet, SharedStylesheet)
        rules_1, rules_2 = first.stylesheet.rules, second.stylesheet.rules
        assert len(rules_1) == len(rules_2) > 50
        assert all(a is b for a, b in zip(rules_1, rules_2, strict=True))

        background = second.screen.styles.background
        second.theme = "salon"  # the settings dialog does this
        await p2.pause()
        assert isinstance(second.stylesheet, SharedStylesheet)
        assert second.screen.styles.background != background  # the new theme is drawn
        assert not any(a is b for a, b in zip(rules_1, second.stylesheet.rules, strict=True))
        # the first session keeps its rules and colours
        assert all(a is b for a, b in zip(rules_1, first.stylesheet.rules, strict=True))
        assert first.screen.styles.background == background

        third = served()  # a later session in the salon theme reuses the salon rules
        third.theme = "salon"
        async with third.run_test(size=(80, 24)) as p3:
            await p3.pause()
            assert all(a is b for a, b in zip(second.stylesheet.rules, third.stylesheet.rules,
                                              strict=True))
