"""Generated packages, one per game (and per shipped pack). Never edited by hand."""
