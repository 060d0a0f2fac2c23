from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


def outside_bots(user_ids) -> set:
    """The accounts among ``user_ids`` that are outside bots (played by a program through the API):
    the games show them as bots on an invitation (games do not import the league)."""
    from league.models import PlayerProfile

    return set(PlayerProfile.objects.filter(user_id__in=user_ids, is_bot_account=True)
               .values_list("user_id", flat=True))


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = _("Clubs and leagues")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from games.services import match_finished, turn_waiting
        from league.receivers import on_match_finished, on_turn_waiting

        match_finished.connect(on_match_finished, dispatch_uid="league.match_finished")
        from games import selectors as match_selectors
        from league.selectors import hooks as selectors

        if selectors.match_context not in match_selectors.MATCH_CONTEXT:
            match_selectors.MATCH_CONTEXT.append(selectors.match_context)
            match_selectors.HOME_SECTIONS.append(selectors.home_sections)
        from games.selectors import people

        if outside_bots not in people.BOT_ACCOUNTS:
            people.BOT_ACCOUNTS.append(outside_bots)
        from games.services import limits
        from league.services.challenge_rules import challenge_gate

        if challenge_gate not in limits.CHALLENGE_GATES:
            limits.CHALLENGE_GATES.append(challenge_gate)
        turn_waiting.connect(on_turn_waiting, dispatch_uid="league.turn_waiting")
