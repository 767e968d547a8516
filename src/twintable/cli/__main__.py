"""``python -m twintable.cli``: the command line (:mod:`twintable.cli`)."""

from twintable.cli import app

app()
