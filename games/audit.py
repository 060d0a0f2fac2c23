"""Auditing a match: the server builds the match's record (``games.records``) and checks it with the
offline verifier (``engine.verify``): the hash chain, the secret against its commitment, the seats'
contributions, and a replay that reproduces every recorded event. One check, wherever it runs."""
from games.records import match_verify

__all__ = ["match_verify"]
