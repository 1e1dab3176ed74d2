"""Explaining a release: the HTML report, its figures, disclosure risk, the sweep, projects.

These modules read what :mod:`engine.release` produced; nothing here changes a release.
"""
