"""Tables an organiser can check by hand: a league's rule for rounds without an opponent,
and exact match points.

- ``League.unplayed_rounds``: how a bye, a rest, a forfeit or a void table counts in Buchholz and
  Sonneborn–Berger — ``virtual`` (FIDE's virtual opponent with the player's own points, the default
  for every league from now on) or ``none`` (the round adds nothing, as before).
- ``TableSeat.points`` and ``Standing.points`` keep exact fractions as text ("10/3"): a decimal column
  kept a three-way share of 10 points as 3.33. Stored values convert as they are ("3.00" reads 3);
  ``manage.py projections_rebuild`` recomputes every table by the rules now in force (exact shares,
  places scaled to the win and loss points).
"""
from django.db import migrations, models

import league.models


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0006_first_hour'),
    ]

    operations = [
        migrations.AddField(
            model_name='league',
            name='unplayed_rounds',
            field=models.CharField(choices=[('virtual', "A virtual opponent with the player's own match points (FIDE, 2023)"), ('none', 'No opponent: the round adds nothing')], default='virtual', help_text='How a bye, a rest, a forfeit or a void table counts in Buchholz and Sonneborn–Berger.', max_length=16, verbose_name='rounds without an opponent'),
        ),
        migrations.AlterField(
            model_name='league',
            name='place_points',
            field=models.JSONField(blank=True, default=list, help_text='Tournaments of three or more seats a table: points for 1st, 2nd, … at a full table (a smaller table takes them at the same fraction of the way from first to last); empty: first scores the points for a win, last the points for a loss, the places between evenly spaced. Tied places share the points of the places they cover.', verbose_name='points by place'),
        ),
        migrations.AlterField(
            model_name='standing',
            name='points',
            field=league.models.PointsField(default=0, max_length=40, verbose_name='match points'),
        ),
        migrations.AlterField(
            model_name='tableseat',
            name='points',
            field=league.models.PointsField(blank=True, max_length=40, null=True, verbose_name='points'),
        ),
    ]
