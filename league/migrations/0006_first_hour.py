"""A tournament's own clock and timeout rule, reminders, and the repair of drafts saved with "{}" options.

Tournaments so far played their league's clock and rule (``table_match_create`` read the league's):
each takes them over, so nothing changes for them. A draft tournament whose options are ``{}`` while
its league's are not was saved by the admin's add form, which pre-filled ``{}`` under the help "Empty:
the league's match options": it takes its league's options. Running and finished
tournaments keep what they played.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def tournaments_take_their_leagues_terms(apps, schema_editor):
    Tournament = apps.get_model("league", "Tournament")
    for tournament in Tournament.objects.select_related("league").iterator():
        league = tournament.league
        tournament.clock, tournament.timeout_rule = league.clock or None, league.timeout_rule
        fields = ["clock", "timeout_rule"]
        if tournament.status == "draft" and tournament.options == {} and league.options:
            tournament.options = dict(league.options)
            fields.append("options")
        tournament.save(update_fields=fields)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0003_people_at_the_table'),
        ('league', '0005_bot_levels'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='tournament',
            name='clock',
            field=models.JSONField(blank=True, help_text="Empty: no clock. Starts as the league's; a change applies to the matches created from then on.", null=True, verbose_name='clock'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='timeout_rule',
            field=models.CharField(choices=[('bot', 'a bot makes the move (after three timeouts in a row the seat is abandoned)'), ('forfeit', 'the seat forfeits the match (a bot plays it on for the others)')], default='bot', max_length=16, verbose_name='when a deadline passes'),
        ),
        migrations.CreateModel(
            name='Reminder',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seat', models.PositiveSmallIntegerField(verbose_name='seat')),
                ('emailed', models.BooleanField(default=False, verbose_name='e-mailed')),
                ('sent_at', models.DateTimeField(db_index=True, default=django.utils.timezone.now, verbose_name='sent')),
                ('by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='sent by')),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.match', verbose_name='match')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='player')),
            ],
            options={
                'verbose_name': 'reminder',
                'verbose_name_plural': 'reminders',
                'ordering': ['-sent_at'],
                'indexes': [models.Index(fields=['match', 'seat', 'sent_at'], name='reminder_seat_sent')],
            },
        ),
        migrations.RunPython(tournaments_take_their_leagues_terms, migrations.RunPython.noop),
    ]
