"""English dates and times as the community's English readers (in Europe) write them: day
before month and a 24-hour clock, like the Italian pages, not Django's US defaults
("11/26/2026 3 p.m."). Only how dates are shown; what forms accept stays Django's."""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y, H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
FIRST_DAY_OF_WEEK = 1
