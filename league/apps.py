from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = _("Clubs and leagues")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from league import receivers  # imports models: only once the apps are loaded

        receivers.plug_in()
