"""Tournament formats: one module per format, each declaring ``FORMAT``, on ``league.formats.base``
(the base class and the registry)."""
