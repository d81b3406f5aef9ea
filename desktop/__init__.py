"""Battlemap desktop application (PySide6). Qt is imported lazily by the CLI.

The first window imports the rules it shows, not the resolvers it rules with (issue #18:
they were 37 ms of a 0.54 s first frame). A module of the first window imports a resolver,
an odds function or an action whose module pulls in the rules engine (``core.rules.attack``,
``.shove``, ``.grapple``, ``.manoeuvres``, ``.missile``...), or the searches and sight
sweeps of ``core.spatial`` (paths, retreats, the party's view: about 9 ms of imports, issue
#40) inside the function that uses it, with a pointer here; :func:`desktop.app.warm_up`
imports them all on a thread as soon as the first frame is painted (done in ~0.15 s,
before the quiet collector freezes what the start made), so the GM's first click does not
wait for them either.
``tests/desktop/test_app.py`` lists the rules modules the first window may import.
"""
