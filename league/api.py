"""The league API (django-ninja): clubs, tournaments, standings, ratings."""
from ninja import Router

router = Router(tags=["league"])
