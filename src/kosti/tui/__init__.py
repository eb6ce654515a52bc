"""``kosti play``: the terminal game, built with Textual.

:mod:`kosti.tui.session` is the model (the game, the dice on the table, the log);
the screens in this package only draw it and pass keys to it.
"""
