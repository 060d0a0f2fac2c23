"""Pages: home, new match, play (htmx board), replay, audit, rules. Thin: parse, call, render."""
from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import get_language, ngettext
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET, require_POST

from engine import IllegalMove
from games import services
from games.errors import DomainError, MalformedRequest, MatchError, RateLimited, http_error
from games.kits import kit
from games.models import Match
from games.records import match_record as record_of
from games.records import match_verify, randomness
from games.selectors import board, feeds, log, replay
from games.selectors.people import match_people, players, table_seats, turn_clock, waits_for, waits_version
from games.selectors.rules import rules_page
from games.services import SeatSpec
from games.services.challenges import challenges_decline_all as decline_all
from games.services.limits import challenges_allowed, new_match_allowed, one_hand_each
from games.web import params, streaming
from games.web.access import access_match, access_play, seats_of
from games.web.forms import NewMatchForm, options_words
from games.web.params import count, parse_move
from games.web.respond import respond


def home(request):
    """The home page: for a signed-in person, what waits for them first (kept live: from their
    account stream where the server has streams, else by polling ``home_waits``), then the new-match
    form."""
    context = {"form": NewMatchForm()}
    if request.user.is_authenticated:
        context["waits"] = waits_for(request.user)
        context["waits_version"] = waits_version(request.user)
        context["waits_stream_url"] = reverse("account_stream") if streaming.available(request) else None
        context["recent"] = Match.objects.filter(status=Match.Status.FINISHED).order_by("-finished_at")[:10]
    return render(request, "games/home.html", context)


@require_GET
@never_cache
def home_waits(request):
    """The home page's "what waits for you" alone, for its live updates: 204 while it is the version
    the page shows (``?v=``), so a poll that finds nothing new costs a few queries and no page."""
    if not request.user.is_authenticated:
        return HttpResponse(status=401)  # a fetch, not a page: no redirect to the sign-in form
    version = waits_version(request.user)
    if request.GET.get("v") == version:
        return HttpResponse(status=204)
    return render(request, "games/_waits.html", {"waits": waits_for(request.user), "waits_version": version})


@login_required
@require_POST
def match_new(request):
    form = NewMatchForm(request.POST, user=request.user)
    try:
        new_match_allowed(request.user)  # every attempt counts, refused ones too
    except MatchError as exc:
        form.is_valid()
        form.add_error(None, exc.message)
        return render(request, "games/home.html", {"form": form}, status=exc.status)
    if not form.is_valid():
        return render(request, "games/home.html", {"form": form}, status=400)
    data = form.cleaned_data
    try:
        one_hand_each([request.user, *data["people_users"]])
        challenges_allowed(data["people_users"], by=request.user)
    except MatchError as exc:
        form.add_error(None, exc.message)
        return render(request, "games/home.html", {"form": form}, status=exc.status)
    # the creator sits down with their browser's random value; the people they name are invited
    people = ([SeatSpec(user=request.user, entropy=params.entropy(data["entropy"]))]
              + [SeatSpec(user=u, invite=True) for u in data["people_users"]])
    seats = people + [SeatSpec(bot=data["bot"]) for _ in range(data["seats"] - len(people))]
    match = services.match_create(game=data["game"], seats=seats, options=form.options(), created_by=request.user,
                                  clock=data["clock_value"])
    return redirect("match_play", match_id=match.pk)


def _url(name: str, match: Match, query: dict) -> str:
    url = reverse(name, args=[match.pk])
    return f"{url}?{urlencode(query)}" if query else url


def _game_assets(match: Match) -> dict:
    """The game's board partial (the generic one if it has none) and its stylesheet."""
    return {"game_template": [f"games/play/{match.game}.html", "games/play/_generic.html"],
            **kit(match.game).assets()}


def _viewer(request, match: Match, seats: list | None = None) -> int | None:
    """The seat the page is for: the one asked for (``?seat=``) if the user holds it, else the
    user's first seat, else None (a spectator). ``seats``: the match's seats, if already read."""
    if seats is None:
        held = seats_of(request.user, match)
    else:
        held = [s.index for s in seats if request.user.is_authenticated and s.user_id == request.user.pk]
    requested = request.GET.get("seat")
    if count(requested, digits=2) in held:
        return count(requested, digits=2)
    return held[0] if held else None


def _board_context(request, match: Match, since: int | None = None) -> dict:
    seats = table_seats(match)  # read once: the viewer's seat, the names and the table panel
    seat = _viewer(request, match, seats)
    context = board.match_board(match, seat, since=since, seats=seats)
    context["people"] = match_people(match, request.user, seats)
    context["turn_clock"] = turn_clock(match, context["people"])  # the countdown in the turn banner
    seat_query = {"seat": seat} if seat is not None else {}
    context["move_url"] = _url("match_move", match, seat_query)
    context["poll_url"] = _url("match_board", match, {"since": match.last_seq, **seat_query})
    context["log_url"] = _url("match_log", match, seat_query)
    # live without polling where the server has streams: the seat's own event stream, from the position
    # the page shows (not from event 1: a long match's page would fetch its board once per old event)
    context["stream_url"] = _url("match_stream", match, {**seat_query, "after": match.last_seq}) \
        if streaming.available(request) and not match.has_ended else None
    context.update(_game_assets(match))
    return context


def _domain(fn):
    """A domain error as the page's answer (``games.web.respond``): Not Found for an unknown match, else its
    status with ``code: message``."""
    def wrapper(request, *args, **kwargs):
        try:
            return fn(request, *args, **kwargs)
        except DomainError as exc:
            return respond(request, exc, as_="page")
    wrapper.__name__ = fn.__name__
    return wrapper


@login_required
@require_GET
@_domain
def match_play(request, match_id: int):
    match = access_match(request.user, match_id)
    return render(request, "games/play.html", _board_context(request, match))


@login_required
@require_GET
@_domain
def match_board(request, match_id: int):
    match = access_match(request.user, match_id)
    since = request.GET.get("since", "")
    if since == str(match.last_seq):
        return HttpResponse(status=204)  # nothing new: htmx keeps the board (and any selection) as it is
    position = count(since)
    return render(request, "games/_board.html", _board_context(request, match, since=position))


@login_required
@require_POST
@_domain
def match_move(request, match_id: int):
    """Submit one move from the play page; answers with the board (htmx) or a redirect."""
    requested = request.GET.get("seat") or request.POST.get("seat")
    seat = count(requested, digits=2)
    error, before = None, None
    try:
        match, seat = access_play(request, match_id, seat)
    except RateLimited as exc:
        # over the move budget, nothing sent to the match: a seated person's board says so
        match = access_match(request.user, match_id)
        if not request.htmx or not seats_of(request.user, match):
            return respond(request, exc, as_="page")
        _, error = http_error(exc)
        context = _board_context(request, match)
        context["error"] = error
        return render(request, "games/_board.html", context)
    try:
        move = parse_move(request.POST.get("move", ""))
        before = _position(request.POST.get("expected_seq"))
        services.move_submit(match_id=match.pk, seat=seat, move=move, expected_seq=before)
    except (IllegalMove, DomainError) as exc:
        if not request.htmx:
            return respond(request, exc, as_="page")
        _, error = http_error(exc)  # an illegal move's message is in words (games.words)
    if not request.htmx:
        return redirect("match_play", match_id=match.pk)
    match.refresh_from_db()
    # the board after the move, and the bots' moves that followed it, played back one by one
    context = _board_context(request, match, since=before if error is None else None)
    context["error"] = error
    return render(request, "games/_board.html", context)


def _position(text: str | None) -> int | None:
    """The page's ``expected_seq``: absent, or a position; anything else is a malformed request."""
    if text is None or text == "":
        return None
    position = count(text)
    if position is None:
        raise MalformedRequest()
    return position


def rate_limited(request, exception=None):
    """django-ratelimit's answer (RATELIMIT_VIEW): 429 with the project's error shape and ``Retry-After``."""
    return respond(request, RateLimited(), as_="page")


@login_required
@require_GET
@_domain
def match_replay(request, match_id: int):
    match = access_match(request.user, match_id)
    if not match.has_ended or match.status == Match.Status.CANCELLED:
        return redirect("match_play", match_id=match.pk)
    step = request.GET.get("step", "")
    frame = replay.replay_frame(match, count(step, digits=9) or 0)
    frame.update(_game_assets(match))
    frame["log_url"] = _url("match_log", match, {"upto": frame["seq"]})
    template = "games/_replay_frame.html" if request.htmx else "games/replay.html"
    return render(request, template, frame)


@login_required
@require_GET
@_domain
def match_log(request, match_id: int):
    """The lines of one older round of the move log, as the page's seat may know them (htmx, when the
    reader opens the round); ``upto``: a replay's position, for a match that has ended."""
    match = access_match(request.user, match_id)
    index, upto = request.GET.get("round", ""), request.GET.get("upto", "")
    if count(index, digits=6) is None:
        raise Http404()
    position = count(upto) if match.has_ended else None
    seat = _viewer(request, match) if position is None else None
    found = log.match_log_round(match, seat, int(index), upto=position)
    if found is None:
        raise Http404()
    return render(request, "games/_log_lines.html", {"r": found})


@login_required
@require_GET
@_domain
def match_audit(request, match_id: int):
    match = access_match(request.user, match_id)
    report = match_verify(match) if match.has_ended else None
    held = seats_of(request.user, match)
    events = feeds.audit_events(match, held[0] if held else None)
    names = players(match)
    given = randomness(match)
    server_seats = ", ".join(f"{i + 1}. {names[i] if i < len(names) else ''}" for i in (given or {}).get("server", ()))
    return render(request, "games/audit.html", {"match": match, "report": report, "events": events,
                                                "players": names, "randomness": given, "server_seats": server_seats})


@require_GET
def rules(request, game: str):
    """A game's rules for players, in the site's language; public."""
    try:
        context = rules_page(game, get_language())
    except KeyError:
        raise Http404() from None
    context["match_options"] = options_words(game)
    return render(request, f"rules/{game}.html", context)


@require_GET
@cache_control(max_age=86400, public=True)
def favicon(request):
    """Browsers ask for /favicon.ico whatever the page says: send them to the SVG icon."""
    return redirect(static("favicon.svg"), permanent=True)


@login_required
@require_POST
@_domain
def match_join(request, match_id: int):
    """Accept an invitation, or take the seat a tournament gave you, with this browser's random value."""
    services.seat_join(match_id=access_match(request.user, match_id).pk, user=request.user,
                       entropy=params.entropy(request.POST.get("entropy")))
    return redirect("match_play", match_id=match_id)


@login_required
@require_POST
@_domain
def match_decline(request, match_id: int):
    services.seat_decline(match_id=access_match(request.user, match_id).pk, user=request.user)
    return redirect("home")


@login_required
@require_POST
def challenges_decline_all(request):
    """The home page's "Decline all": every challenge waiting for the person is declined (tournament
    seats stay)."""
    declined = decline_all(user=request.user)
    messages.success(request, ngettext("%(n)d challenge declined.", "%(n)d challenges declined.", len(declined))
                     % {"n": len(declined)})
    return redirect("home")


@login_required
@require_POST
@_domain
def match_resign(request, match_id: int):
    """Resign a seat you hold (the page asks to confirm first)."""
    if request.POST.get("confirm") != "yes":
        raise MalformedRequest()
    match, seat = access_play(request, match_id, None)
    services.match_resign(match_id=match.pk, seat=seat)
    return redirect("match_play", match_id=match_id)


@login_required
@require_GET
@_domain
def match_record(request, match_id: int):
    """"Download record": the portable record of an ended match, to verify offline."""
    match = access_match(request.user, match_id)
    if not match.has_ended:
        raise Http404()
    response = HttpResponse(json.dumps(record_of(match), ensure_ascii=False, indent=1),
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.json"'
    return response
