"""English dates as the clubs read them: the day before the month and a 24-hour clock ("1 December
2026, 13:00", "01.12.2026 13:00"), as Latvian, Lithuanian, Russian and Ukrainian already show them;
Django's English is American ("Dec. 1, 2026, 1 p.m.", "12/01/2026 1 p.m."). What is not set here
(numbers) stays Django's English."""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y, H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "d.m.Y"
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
FIRST_DAY_OF_WEEK = 1  # Monday

# Typed dates are read day first too (never month first), or as ISO dates.
DATE_INPUT_FORMATS = [
    "%Y-%m-%d",  # '2026-12-01'
    "%d.%m.%Y",  # '01.12.2026'
    "%d/%m/%Y",  # '01/12/2026'
    "%d.%m.%y",  # '01.12.26'
    "%d %B %Y",  # '1 December 2026'
    "%d %b %Y",  # '1 Dec 2026'
]
DATETIME_INPUT_FORMATS = [
    "%Y-%m-%d %H:%M:%S",  # '2026-12-01 13:30:59'
    "%Y-%m-%d %H:%M:%S.%f",  # '2026-12-01 13:30:59.000200'
    "%Y-%m-%d %H:%M",  # '2026-12-01 13:30'
    "%d.%m.%Y %H:%M:%S",  # '01.12.2026 13:30:59'
    "%d.%m.%Y %H:%M",  # '01.12.2026 13:30'
    "%d/%m/%Y %H:%M:%S",  # '01/12/2026 13:30:59'
    "%d/%m/%Y %H:%M",  # '01/12/2026 13:30'
]
