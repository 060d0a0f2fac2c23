from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Matches and events")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # imported once the apps are loaded (they import models); checks registers the start-up checks
        from games import checks, publish, store  # noqa: F401

        def published(sender, match_id: int, seq: int, **kwargs):
            publish.match_changed(match_id, seq)

        store.events_appended.connect(published, dispatch_uid="games.publish.match_changed", weak=False)
