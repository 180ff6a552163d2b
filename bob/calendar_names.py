"""Month and weekday names as Italian writes them.

Italian spells month and weekday names in lower case ("lunedì 23 novembre"), but Django's
own Italian catalogue capitalises them, so every localised date on our pages came out as
"Lunedì 23 Novembre". The project's catalogue (``LOCALE_PATHS``) takes precedence over
Django's, so listing the same msgids here, where ``makemessages`` finds them, lets
``locale/it`` give the lower-case forms. The English catalogue keeps the msgids as they are.
"""

from django.utils.translation import gettext_noop, pgettext_lazy

WEEKDAYS = (
    gettext_noop("Monday"),
    gettext_noop("Tuesday"),
    gettext_noop("Wednesday"),
    gettext_noop("Thursday"),
    gettext_noop("Friday"),
    gettext_noop("Saturday"),
    gettext_noop("Sunday"),
)
MONTHS = (
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
)
#: Django's "alt. month" forms, used where a month follows a day number.
MONTHS_ALT = (
    pgettext_lazy("alt. month", "January"),
    pgettext_lazy("alt. month", "February"),
    pgettext_lazy("alt. month", "March"),
    pgettext_lazy("alt. month", "April"),
    pgettext_lazy("alt. month", "May"),
    pgettext_lazy("alt. month", "June"),
    pgettext_lazy("alt. month", "July"),
    pgettext_lazy("alt. month", "August"),
    pgettext_lazy("alt. month", "September"),
    pgettext_lazy("alt. month", "October"),
    pgettext_lazy("alt. month", "November"),
    pgettext_lazy("alt. month", "December"),
)
