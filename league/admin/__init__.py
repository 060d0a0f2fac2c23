"""The organiser's workflow in the admin, one module per subject: ``clubs`` (clubs, their invitations,
leagues, seasons, and the organiser's scope every page keeps to), ``tournaments`` (tournaments, their
entrants, rounds and tables), ``people`` (player profiles and ratings); ``forms`` holds the form parts the
league's and the tournament's forms share (the clock).

Every action calls a service (and has a management command twin), and the tournament page in the admin
shows progress (x of y matches finished), standings and rounds from the same selectors as the public
pages. Actions and pages that change anything need the change permission (an account with view
permissions only is not even offered them); the exports need the view permission.
"""
from league.admin import clubs, entries, people, presets, teams, tournaments  # noqa: F401 (each module registers its models)
