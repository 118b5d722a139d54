"""Which defaults for SoftmaxAttentionRegressorCV: chosen on the development half of the
real sets by a rule written before the fits, then scored once on the confirmation half.

    pip install ".[benchmarks]"
    nice -n 10 python benchmarks/bench_defaults.py --half development   # fit what the cache lacks
    python benchmarks/bench_defaults.py --half development --analyse    # the verdict, from the summary
    nice -n 10 python benchmarks/bench_defaults.py --half confirmation  # the adopted defaults, once
    nice -n 10 python benchmarks/bench_defaults.py --half development --large   # the time limit

The data: every eligible set of the registry's first four readings (``datasets.csv``,
``_common.PANEL_READINGS``) at its natural size up to 5 000 rows (a seeded sample of larger
sets), split into halves by ``_common.half``, fixed before any fit; with ``--large``, the
sets of 10 000 rows or more, up to 20 000. With ``--fifth``, the fifth reading's sets instead
(the data other packages bundle), split the same way, on which the peers and the defaults
are fitted and reported apart (``results/defaults_<half>_fifth[_large].csv``, the
fifth_reading page): the rounds below choose on the first four readings only. Every model
is behind a ``StandardScaler``, scored by ``KFold(3, shuffle=True, random_state=0)``, each
fit on one thread, in two processes sharing two cores. A fit's time is the CPU time of its
process (one thread), so that fits cached in runs under other loads compare. Fits are
cached outside the repository (``$SOFTATTN_BENCHMARK_CACHE``); a run
resumes where the last stopped. A first run of the confirmation half, its six peers and
the defaults, takes about 4 minutes on 2 cores; the development half's large sets about
2 minutes per model, a candidate with restarts about 5. The summary is
``results/defaults_<half>[_large].csv`` (on the development half, the candidates of the
rounds from :data:`LATEST` on in ``defaults_development_latest.csv``), which the tables of
the selection, development, development_sets and confirmation pages come from;
``--analyse`` prints the large sets' tables too where their summary exists, on the
confirmation half whether the defaults meet the targets set for it (:func:`must_show`), and
on the development half each model's headroom over the defaults the rounds chose: how much
the better of the two on each set would add to the mean, a bound on what a choice between
them can gain there.

The rule, written before any candidate was fitted, applied to the development half only:

- Per model: ``mean`` is the mean over the sets of R² (each set's mean over its folds),
  every R² below 0 counted as 0 (a few sets whose folds hold extreme targets would otherwise
  rule the mean); ``below 0.02`` and ``below 0.05`` count the sets more than that below
  ``RidgeCV``'s R²; ``time`` is the median over the sets of its fit time over
  ``MLPRegressor(max_iter=2000)``'s (:data:`TIME_REFERENCE`); ``large time`` the largest
  such ratio on the large sets.
- A candidate qualifies if no set is more than 0.05 below ``RidgeCV``, at most 5% of the
  sets are more than 0.02 below it, its ``time`` is at most 1 and its ``large time`` at
  most 2 (where the large sets were fitted).
- The qualifier with the highest ``mean`` becomes the default; within 0.001 of it, the
  cheapest (lowest ``time``). If none qualifies, the defaults stay as they are.

The confirmation half is fitted once per adopted default and reported beside it, never
used to choose.

The second round (:data:`SECOND_ROUND`), its rule written after the first round's verdict and
before any of its candidates was fitted: the same statistics, conditions and choice, among
the defaults and its candidates, with one change. ``large time`` is the median over the large
sets of a fit's time over the reference's, where the first round took the largest (still
printed beside it): in the first round the largest was ruled by one set, on which the
reference stops in under half a second, so that no attention model could meet it. Its
candidates screen from 1000 rows on (``first_fold_screening="auto"``); that threshold was
set with the first round's development results in view (screening lost only on sets of
fewer than 200 rows), so for it the development half is not blind, and the confirmation
half is the check.

The third round (:data:`THIRD_ROUND`), written after the second's verdict and before any of
its candidates was fitted: the second round's rule, unchanged, among the defaults and
candidates that choose the point by a looser rule than two standard errors (one, or the
best mean, as the probe that tied boosting did), alone and with restarts.

The fourth round (:data:`FOURTH_ROUND`), written after the third's verdict and before its
candidate was fitted: the second round's rule, unchanged, between the defaults and every
part of the layer reading far rows pulled back to the training radius
(``extrapolation="radius"``).

The fifth round (:data:`FIFTH_ROUND`), written after the fourth's verdict and before its
candidate was fitted: the second round's rule with another tie-break. Within 0.001 of the
best mean, the cheapest is the one with the lowest geometric mean over the sets of its fit
time over the best mean's qualifier's, each set's two fits paired; the second round's
tie-break compared two medians of time ratios to the MLP, which on sets where two candidates
fit the same computation measure noise, and chose by 0.148 against 0.152 there. Its
candidate is the fourth round's default with the second round's screening.

The sixth round (:data:`SIXTH_ROUND`), written after the fifth's verdict and before its
candidate was fitted: the fifth round's rule, unchanged, between the defaults and the defaults
with the linear skip term (``linear_skip=True``), whose spectral start has since become local
(the attended targets corrected by the linear fit, TabR's values). The first round's skip
candidates were fitted from the earlier start, the values at zero; their cached fits and the
summary keep those results, and a refit from an empty cache would fit the new start.

The seventh round (:data:`SEVENTH_ROUND`), written after the sixth's verdict and before its
candidate was fitted on the whole half: the fifth round's rule, unchanged, between the
defaults and ten inner folds instead of five up to 5 000 rows (``cv=10`` here, where every
set's training rows are fewer; its large sets' fits, all above 5 000 training rows, are the
defaults'). A probe on 17 sets of this half, chosen as those where a peer led the defaults
(the sixth round's note), gave it +0.094 on Labour, +0.018 on stVincent, −0.009 on spinach:
for it this half is not blind, and the confirmation half is the check.

The eighth round (:data:`EIGHTH_ROUND`), written after the seventh's verdict and before its
candidate was fitted: the fifth round's rule, unchanged, between the defaults and the five
inner folds repeated twice (``RepeatedKFold(n_splits=5, n_repeats=2)``) up to 5 000 rows: as
many folds as the seventh round's, each a fifth of the rows rather than a tenth, which on
Parade2005's 130 rows held single extreme earnings. It was written with the seventh round's
results in view. Its fits on the large sets are the defaults' (:data:`LARGE_AS`): it acts up
to 5 000 rows, and every large set's folds train on more. It won, and is the default
(``cv="auto"``); the rounds before it were fitted with ``"auto"`` as it was then, five folds
up to 10 000 rows, and their cached fits and the summaries keep those results.

The ninth round (:data:`NINTH_ROUND`), written after the eighth's verdict and before its
candidate was fitted: the fifth round's rule, unchanged, between the defaults (the eighth
round's) and the point chosen by one standard error instead of two
(``selection_rule="1se"``), which the third round tried on five folds: with ten, the
standard errors are narrower and one of them is a smaller step. It won, by 0.00105 of the
mean, and is the default.

The tenth round (:data:`TENTH_ROUND`), written after the ninth's verdict and before its
candidates were fitted: the fifth round's rule, with the development half's large sets
counted with its other sets, between the defaults and more context tokens
(``max_context`` 4096 and 8192, where the default takes 2048). More context changes the
fits of sets whose folds train on more than 2048 rows, most of all on the large sets, which
the earlier rounds timed but did not score. So ``mean``, ``below 0.02`` and ``below 0.05``
are over the 89 sets and the large sets together, and the tie-break's paired time too;
``time`` and ``large time`` are as before. Up to 5 000 rows every training set has at most
4 000 rows, so that the two candidates fit the same there. It was written after a probe of
one outer fold of three large sets of this half (CPS1988 +0.041 with 4096, HI +0.007,
check_times unchanged): for those the half is not blind, and the confirmation half is the
check.
Neither won: 4096 tokens raised the mean by 0.0002, within the 0.001 where the cheaper
wins, and 8192 tokens took 2.1 times the MLP's median time on the large sets.

The eleventh round (:data:`ELEVENTH_ROUND`), written after the tenth's verdict and before its
candidate was fitted: the tenth round's rule, unchanged (the large sets counted), between the
defaults and the defaults with the skip term from its local start and scores that read the
features' normal scores (``linear_skip=True, score_features="ranks"``). The first round's
"skip, ranks" was fitted from the skip term's earlier start and the defaults of then; its
headroom over the defaults is +0.0027 on this half and +0.0059 on the large sets, and the
sixth round fitted the skip term alone from the local start (−0.002).
It did not qualify: Labour fell 0.10 below RidgeCV and Electricity1970 0.051.

The twelfth round (:data:`TWELFTH_ROUND`), written after the eleventh's verdict and before its
candidate was fitted: the tenth round's rule, unchanged (the large sets counted), between the
defaults and the folds choosing what the scores read (``score_features="auto"``): the
features, or the eleventh round's normal scores with the skip term, ranked after the
features' points, so that ``"1se"`` takes them only where they lead by one standard error.
It was written with the eleventh round's results in view, which showed each representation
losing where the other gains.
It did not qualify: the folds took the normal scores on Labour (0.10 below RidgeCV) and
Electricity1970 (0.051 below); on the large sets, where the folds are one hold-out of 1 000
rows or more, it lost no more than 0.0002 to the defaults on any set and gained 0.007 of
their mean. (Its value is ``"choose"`` since the thirteenth round gave ``"auto"`` a threshold.)

The thirteenth round (:data:`THIRTEENTH_ROUND`), written after the twelfth's verdict and
before its candidate was fitted: the tenth round's rule, unchanged (the large sets counted),
between the defaults and the twelfth round's choice from 2000 training rows of positive
weight on, the features below (``score_features="auto"``). The threshold was set with the
twelfth round's per-set results in view: every set where the choice lost had fewer than
1 200 training rows, and from 1 500 on none lost. So for it the development half is not
blind, and the confirmation half is the check. The candidate raises the cost where a linear
model is right, since the folds then fit the first fold of both representations; if it
wins, ``bench_generated.py --linear-cost`` is measured and reported beside it.

The fourteenth round (:data:`FOURTEENTH_ROUND`), written after the thirteenth's verdict and
before its candidate was fitted: the tenth round's rule, unchanged, between the defaults and
the defaults with ``screening_stop=True``, where the screening fold stops a path at the first
iteration count at which it scores below the fold's linear end. The defaults are refitted
first: since the thirteenth round the normal scores' later folds are not scored where their
first fold screens out every path, which changes their time and nothing else, and the
candidate has that too. The candidate lowers the cost where a linear model is right (a probe
of ``bench_generated.py --linear-cost``'s data: 1.08 s against 1.43 s, the MLP about 12 s).
Its risk is a path that trails the linear end at 5 and 15 iterations and leads it at 40,
which it loses: ``make_friedman1`` at 300 rows does (below the 1 000 rows the defaults screen
from), and at 2 000 rows it leads at 5 iterations by only 0.01.
It won: its mean tied the defaults' (0.4079), and its paired time was 0.92 of theirs.

The fifteenth round (:data:`FIFTEENTH_ROUND`), written after the fourteenth's verdict and
before its candidate was fitted: the tenth round's rule, unchanged, between the defaults and
the defaults with ``extrapolation="auto"``, where a linear limit the folds choose reads far
rows as they are (its trend going on) wherever its folds score that higher than pulling them
back to the training radius. It was written after the 300-row panel at the fourteenth
round's defaults put three sets more than 0.05 below RidgeCV, two of them (Labour, return)
through rows pulled back, and after a probe of the candidate on four sets (three outer
folds at natural size: Labour 0.729 to 0.783, return 0.010 to 0.028, injury unchanged at
0.176; five outer folds at 300 rows: Labour 0.729 to 0.719, return unchanged): for those
the half is not blind, and the confirmation half is the check.
The defaults stayed: the means tied (0.4079), and the defaults took 0.93 of its paired time.

The sixteenth round (:data:`SIXTEENTH_ROUND`), written after the fifteenth's verdict and
before its candidate was fitted: the tenth round's rule, with one more condition, between the
defaults and the defaults with ``refit="auto"``, where the chosen point is kept as the
folds fitted it wherever they are one split (above 10 000 rows, so on the large sets only)
instead of refitted on all the rows. Since the large sets are 9 of the 98 sets of the mean, a
loss of 0.01 on each would stay within its 0.001 tie; so the candidate qualifies only if its
mean of max(R², 0) over the large sets is at most 0.002 below the defaults' there
(:data:`LARGE_FLOOR`). The defaults are refitted beside it, under a label of their own
(:data:`SIXTEENTH`), so that the earlier rounds' tables keep their fits: on the sets below
10 000 rows the two compute the same, and their paired time should compare fits of one run
there. A probe
of one outer fold of three large sets of this half (BudgetFood: the refit took 4.9 of the
fit's 10.5 s, census2000 0.4 of 2.5, CPS1988 6.2 of 19.0) and of ``make_friedman1`` at
12 000 rows (5.2 s against 8.4, test R² 0.9531 against 0.9535) came before it.
It won: the means tied within 0.001 (0.40797 against 0.40785; on the large sets 0.380
against 0.378), and the defaults took 1.04 of its paired time.

The seventeenth round (:data:`SEVENTEENTH_ROUND`), written after the sixteenth's verdict and
before its candidate was fitted: the sixteenth round's rule (the tenth's, with
:data:`LARGE_FLOOR`), between the defaults (the sixteenth round's candidate, whose fits it
reads) and the defaults with ``attention_shrinkages=(0.0,)``, whose paths go on past the
linear limit of shrinkage 0 instead of ``"auto"``'s. The ridge penalty falls on ``V Kᵀ``, the
layer's linear part at flat scales; with the metric's norm learned (``renormalize=False``)
it grows with the sharpness for the same values, so that past the linear limit it holds the
metric at its start. It was written after a probe on ISLP's ``Bikeshare`` (8 645 rows, 14
features; a set of neither half, whose package the registry does not read): at the point the
folds chose on one outer fold's 5 763 training rows, the fit stayed at its start's sharpness
from 7 of 10 context samples (test R² 0.36 to 0.47) at ``"auto"`` and left it from all 10 at
0 (0.904 to 0.910); the outer 3-fold R² went from 0.602 to 0.910 (boosting 0.945, the MLP
0.774). The earlier choice of ``"auto"`` alone was made on the 300- and 1 500-row panels,
among ``"auto"``, ``(0.0, "auto")`` and every shrinkage, for its time (the benchmark log's
eleventh and twelfth panel rounds); 0 alone was not a candidate.
It won: the means tied within 0.001 (0.4081 against 0.4080; on the large sets 0.378 against
0.380, within :data:`LARGE_FLOOR`), and the defaults took 1.3 times its paired time.

The eighteenth round (:data:`EIGHTEENTH_ROUND`), written after the seventeenth's verdict and
before its candidate was fitted: the sixteenth round's rule, between the defaults (the
seventeenth round's candidate, whose fits it reads) and the defaults with
``attention_shrinkages=(0.0, "auto")``, where the folds choose between the two penalties'
paths. It was written after the seventeenth round's per-set results (its losses on small
sets: Adler −0.015, RacialAnimus −0.011, ncbirths −0.010) and a probe on the tests'
``make_friedman1`` of 300 rows: on the first of three folds the path at 0 fell from 0.61 to
0.44 between 5 and 40 iterations, below the linear end's 0.64, where ``"auto"``'s rose to
0.853: on a few hundred rows the penalty keeps the fit from the noise, and on thousands it
can hold the metric at its start. A second path costs up to twice the time past the linear
limit.
The defaults stayed: the means tied (0.4080 against 0.4081), and the candidate took 1.6 times
their paired time. Its folds chose well on the large sets (0.380 against 0.378; check_times
0.433 as at ``"auto"``, where 0 alone scores 0.417), and on the 89 others it was within
0.0003 of the defaults' mean.

The nineteenth round (:data:`NINETEENTH_ROUND`), written after the eighteenth's verdict and
before its candidate was fitted: the sixteenth round's rule, between the defaults (the
seventeenth round's candidate, whose fits it reads) and the defaults with
``additive_end=True``, where the folds also score ridge regression on each feature's cubic
B-splines and take it where it leads the chosen point by one standard error. It was written
after ``bench_additive.py`` had probed that end on this half's 89 sets and the large ones
(the benchmark log's "An additive end, probed"): the penalties' floor of 0.1 and the
margin of one standard error were read off that probe, whose 89-set mean was 0.4168
against the defaults' 0.4066, so that for this round the half is not blind, and the
confirmation half, which has never seen the additive end, is the check.
It won: 0.4184 against 0.4081 (on the large sets 0.384 against 0.378), with 2 sets more
than 0.02 below RidgeCV against 1 and none more than 0.05, at 0.35 of the MLP's median time
against 0.26. Before its adoption was measured further, the additive end's penalty got a
leave-one-out of its own (RidgeCV's choice at a third of its cost), and from 1 000 rows the
first fold screens it as it screens the paths, since where a linear model is right it took
the fit past the time the targets allow it there; refitted so, the candidate scores 0.4183
(five sets move, by at most 0.0023) at 0.33 of the MLP's median time, and the summaries
hold these fits, refitted once more when the splines and the "auto" shrinkage's
leave-one-out were written in numpy (no R² moved).

The twentieth round (:data:`TWENTIETH_ROUND`), written after the nineteenth's adoption and
before its candidate was fitted: the sixteenth round's rule, between the defaults (the
nineteenth round's additive end, whose fits it reads) and the defaults with
``additive_base="auto"``: from 2000 rows of positive weight, every point of the path, on
each fold and in the refit, fits what an additive model (the additive end's, fitted on the
same rows) leaves, and predicts with the two summed; the additive end is then not scored,
since the path's linear limit holds it. It was written after a probe on this half, outside
the benchmarks (the CV estimator fitted on the additive end's residuals, on every outer
fold), which gained on most of the sets of at least 3000 rows (2000 training rows) and lost
much on a few small sets (mariokart): the threshold was read off it, the half is not blind to
it, and the confirmation half is the check.
Its means tie (0.4189 against 0.4183), and the rule took it as the cheaper, though on the 70
sets where the two are one model its fits had merely run on a quieter machine. It is not
adopted (:data:`HELD`): where a linear model is right it fits in 0.28 of the MLP's time,
where the defaults take 0.078 and at most 0.1 is asked.

The twenty-first round (:data:`TWENTY_FIRST_ROUND`), written after the twentieth's verdict
and before its fits: the sixteenth round's rule, between the defaults refitted beside the
candidate (the nineteenth round's additive end, in the same run) and the twentieth round's
candidate, ``additive_base="auto"``, after one change to the estimator: on an additive base
the solver's ``tol`` is relative to the loss of predicting the mean of the targets as given,
not of what the base leaves, so that where the base leaves noise the layer stops at its
start (where a linear model is right, 10 000 rows of ``make_regression``, that fit fell from
8.8 s to 2.7 s, the defaults' 3.3 s, measured before this round's fits). The defaults are
refitted so that the tie-break's paired time compares the fits of one run: the twentieth
round's compared fits of different runs, and on the sets where the two are one model it
measured the machine.
No candidate qualified, because of the machine: the round's fits ran on another machine than
the recorded time reference's, two at a time, and took 2.9 times as long as the same
models' recorded fits (the refitted defaults at 0.96 of the reference's median time, where
they were measured at 0.33); the rule reads the reference's recorded times and the round did
not refit them. Read otherwise they tie: 0.4190 against 0.4184, the candidate's time over
the defaults' paired per set 0.997 (geometric mean over the 98 sets). The defaults stay.

The twenty-second round (:data:`TWENTY_SECOND_ROUND`), written after the twenty-first's
verdict and before its fits: the sixteenth round's rule, between the twenty-first round's
refitted defaults (its fits) and the defaults with ``screening_stop="first_iteration"``,
with one change: the time reference is the MLP refitted in this round
(:data:`TWENTY_SECOND_REFERENCE`), on the machine the twenty-first round's fits ran on, in
the same run as the candidate, so that every time the rule reads comes from one machine.
The half is not blind to the candidate: a probe outside the benchmarks fitted the same stop
on the same folds before this round (on the 89 sets of at most 5000 rows the mean moved by
-0.00007, the fit time fell to 0.48 of the defaults', geometric mean); the confirmation half
is the check.
The rule chose the candidate: the same mean (0.4184), at 0.87 of the refitted defaults' time
paired per set. It is not adopted (:data:`HELD`): on ``make_friedman1`` at 2000 rows its
screening fold's path trails the linear end after one iteration and is screened out, where
after five it leads (R² 0.922 against the defaults' 0.990 and the MLP's 0.989).

The twenty-third round (:data:`TWENTY_THIRD_ROUND`), written after the twenty-second's
verdict and before its fits: the twenty-second round's rule, baseline (the twenty-first
round's refitted defaults, its fits) and time reference (the MLP refitted beside the
twenty-second round, on the machine of this round's fits), between the baseline and the
defaults with ``screening_stop="far_behind"``: after its first iteration the screening
fold's path stops only where its validation loss is more than twice the linear end's.
The threshold was read off three generated sets (first-fold scores of ``make_friedman1``,
``make_friedman3`` and ``make_regression`` at 2000 rows), not off the half; the half is
not blind to the stop at the first iteration, which the twenty-second round fitted.
Where the rule chooses the candidate, it is adopted only if it meets the targets of the
defaults that the rule does not read (``bench_generated.py``, and its ``--linear-cost``),
as the twentieth and twenty-second rounds' choices were held.
The rule chose the candidate: the same R² as the baseline on each of the 98 sets (mean
0.4184), at 0.92 of its time paired per set (0.94 on the 63 sets where no fold screens, so
that the two are one model: the machine). It is not adopted (:data:`HELD`): where a linear
model is right its path is within twice the linear end's loss after one iteration, runs to
the first count as the defaults' does, and the fit takes 0.14 of the MLP's time.

The twenty-fourth round (:data:`TWENTY_FOURTH_ROUND`), written after the twenty-third's
verdict and before its fits: the twenty-third round's rule, baseline and time reference,
between the baseline and the defaults with ``screening_stop="significantly_behind"``: after
its first iteration the screening fold's path stops only where its squared error trails the
linear end's by more than two standard errors of their paired difference over the
validation rows. Before this round it was checked where its round's rule does not look: on
10 000 linear rows (``bench_generated.py --linear-cost``'s data) the fit took 1.93 s of CPU
time, the defaults 2.75 s and ``"first_iteration"`` 1.65 s; on ``make_friedman1`` to 3 at
2000 rows it scores as the defaults (0.990, 0.998, 0.985). The half is not blind to the
stop after the first iteration (the twenty-second round) nor to far_behind (the
twenty-third). Where the rule chooses it, it is adopted only if ``--linear-cost`` then
gives it at most 0.1 of the MLP's time and the generated-data targets hold.
The rule chose the candidate: mean 0.4185 against 0.4184 (Workinghours +0.0075 and
TenMileRace +0.0017, which the twenty-second round's stop gained, without its losses; every
other set as the baseline), at 0.91 of its time paired per set (0.96 on the 63 sets where
no fold screens and the two are one model; 0.77 on the 26 screened sets of up to 5000
rows). ``--linear-cost`` then gave it 0.066 of the MLP's time (the former defaults 0.14 in
the same run): the default since.

The twenty-fifth round (:data:`TWENTY_FIFTH_ROUND`), written after the twenty-fourth's
adoption and before its fits: the twenty-fourth round's rule and time reference, between
the twenty-fourth round's candidate (the defaults since; its fits) and the defaults with
``screening_stop="not_closing"``: after its first iteration the screening fold's path stops
only where it trails the linear end significantly and by less than 0.01 of R² (a near tie),
and at a count only where it trails and gained less R² since its last reading (its first
iteration, or the count before) than it still trails by. The half is not blind to it: both
were read off the screening fold's validation R² along the path on its 26 screened sets
(outer fold 1, no stop, a probe outside the benchmarks), where after one iteration the path
trails the linear end by 0.07 to 0.25 whether it leads later or not, and where five paths
that the stop at the first count cut lead later (diamonds by 0.046, BudgetFood by 0.083);
the confirmation half is the check. Before this round it was checked where the rule does
not look: on 10 000 linear rows (``--linear-cost``'s data) the fit took 1.65 s of CPU, the
defaults 2.05 s; on ``make_friedman1`` to 3 at 2000 rows (2000 more rows of the same draw
held out) it scores as the defaults (0.992, 0.998, 0.989). Where the rule chooses it, it is
adopted only if ``--linear-cost`` then gives it at most 0.1 of the MLP's time and the
generated-data targets hold.
The rule chose the baseline: the means tie (0.4184 against 0.4185) and the candidate's fits
took 1.1 times the baseline's paired per set. The candidate gains on diamonds (+0.034, where
the path trails by 0.16 after one iteration and leads from the eighth) and gives back the
twenty-fourth round's gains (Workinghours -0.0075, TenMileRace -0.0017) and 0.0026 on
check_times (13 626 rows); every other set as the baseline. The defaults stay.

The twenty-sixth round (:data:`TWENTY_SIXTH_ROUND`), written after the twenty-fifth's
verdict and before its fits: the twenty-fifth round's rule, baseline (the defaults; the
twenty-fourth round's candidate's fits) and time reference, between the baseline and the
defaults with ``extrapolation="targets"``: a row is read as ``"clip"`` reads it (the
scores' query pulled back to the training radius, the linear part reading the row as it
is), and every prediction is clipped to the training targets' range. Written after a
diagnosis on this half: the two sets furthest below RidgeCV (GrinnellHouses by 0.023,
Electricity1970 by 0.022) lose in one outer fold each through one test row past the
training radius, which ``"radius"`` pulls back for the linear end too (on Electricity1970
the chosen linear limit, least squares, predicts 357 there instead of 547, the truth being
737: the fold's R² 0.772 against least squares' 0.912); the half is not blind to it.
Where the rule chooses it, it is adopted only if ``--linear-cost`` then gives it at most
0.1 of the MLP's time and the generated-data targets hold.
The candidate does not qualify: four sets fall more than 0.02 below RidgeCV and one more
than 0.05 (Electricity1970, by 0.052; it loses 0.029, GrinnellHouses gains 0.012), and its
mean is 0.4154 against the baseline's 0.4185 (Parade2005 -0.114, Freedman -0.072, kielmc
-0.064, NLSY -0.048). The defaults stay.
"""

import csv
import os
import statistics
import sys
import time

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.model_selection import KFold, RepeatedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from sklearn_softattn import SoftmaxAttentionRegressorCV

from _common import (
    PANEL_READINGS,
    RESULTS,
    by_set,
    cache_dir,
    cached,
    candidates,
    cpu_timed_fit,
    eligible_names,
    half,
    load,
    markdown_table,
    model_key,
    peers,
    read_summary,
    script_parser,
    selected,
    write_summary,
)

MAX_ROWS, LARGE_ROWS, LARGE_MAX_ROWS, N_FOLDS = 5000, 10_000, 20_000, 3
LINEAR_REFERENCE = "RidgeCV"
# The time reference the targets name: MLPRegressor(max_iter=2000) behind a StandardScaler,
# on the targets as they are.
TIME_REFERENCE = "MLPRegressor, unscaled targets"
# The peers beside the candidates (the benchmarks' peers but the O(n²) MLKR smoother).
PEERS = ("LinearRegression", "RidgeCV", "HistGradientBoosting", "MLPRegressor",
         TIME_REFERENCE, "KNeighbors (CV k)")
# Candidate defaults of SoftmaxAttentionRegressorCV, each a change of its parameters. The
# first round's, written before any of them was fitted on a real set:
# a linear term beside the attention; attention that reads normal scores, which heavy
# tails do not rule; restarts at a third and three times the automatic start; longer
# paths, with the first fold screening the others so that they cost no more time.
SKIP = {"linear_skip": True}
RANKS = {**SKIP, "score_features": "ranks"}
STARTS = {**RANKS, "start_multiples": (0.3, 1.0, 3.0)}
# "defaults" is the estimator as it is. The rounds' candidates are changes of the defaults
# they started from, those before extrapolation="radius" (the fourth round's),
# first_fold_screening="auto" (the fifth's) and score_features="auto" (the thirteenth's),
# with the screening fold's paths run to their last count (screening_stop=False, which the
# fourteenth round judges), refitted after one hold-out (refit=True, the sixteenth's) and
# their paths past the linear limit of "auto" (the seventeenth's), without the additive end
# (the nineteenth's) and without an additive base (the twentieth's): "clip" is the estimator
# at them, the first four rounds' baseline.
ROUND_BASE = {"extrapolation": "clip", "first_fold_screening": False,
              "score_features": "features", "screening_stop": False, "refit": True,
              "attention_shrinkages": ("auto",), "additive_end": False,
              "additive_base": False}
FIRST_ROUND = {
    "skip": SKIP,
    "skip, ranks": RANKS,
    "skip, ranks, 3 starts": STARTS,
    "skip, ranks, 3 starts, to 100 iterations, screened": {
        **STARTS, "max_iters": (5, 15, 40, 100), "first_fold_screening": True},
    # Added once the five above had been fitted on 55 of the sets: the screening alone,
    # which the linear-cost target asks for, and the restarts without the skip term.
    "screened": {"first_fold_screening": True},
    "3 starts, screened": {"start_multiples": (0.3, 1.0, 3.0), "first_fold_screening": True},
    # Added after those seven were fitted: features clipped to their widened training
    # range (extrapolation="range"), alone and with the changes above.
    "range": {"extrapolation": "range"},
    "range, screened": {"extrapolation": "range", "first_fold_screening": True},
    "range, 3 starts, screened": {"extrapolation": "range", "start_multiples": (0.3, 1.0, 3.0),
                                  "first_fold_screening": True},
    "range, skip, ranks, 3 starts, to 100 iterations, screened": {
        **STARTS, "extrapolation": "range", "max_iters": (5, 15, 40, 100),
        "first_fold_screening": True},
}

# The second round's candidates (see the module docstring), beside the defaults: screening
# from 1000 rows on, which the cost of a linear fit asks for, alone and with a fourth
# iteration count, 100, since on large sets the folds chose the last count, 40.
AUTO_SCREENING = {"first_fold_screening": "auto"}
SECOND_ROUND = {
    "screened from 1000 rows": AUTO_SCREENING,
    "screened from 1000 rows, to 100 iterations": {**AUTO_SCREENING,
                                                   "max_iters": (5, 15, 40, 100)},
}
# The third round's candidates: where the folds' means favour the attention, a looser
# rule than two standard errors takes it more often (the standard errors of three to five
# folds are wide); restarts at a third and three times the start (the first round's) can
# only be chosen where they clear that rule.
THREE_STARTS = {"start_multiples": (0.3, 1.0, 3.0)}
THIRD_ROUND = {
    "1se": {"selection_rule": "1se"},
    "best": {"selection_rule": "best"},
    "1se, 3 starts": {"selection_rule": "1se", **THREE_STARTS},
    "best, 3 starts, to 100 iterations": {"selection_rule": "best", **THREE_STARTS,
                                          "max_iters": (5, 15, 40, 100)},
}
# The fourth round's candidate: the linear limit extrapolates without bound (injury's test
# rows far out cost it R² -38 in the first round, as RidgeCV); a far row pulled back to the
# training radius in the Mahalanobis distance is bounded along the data's correlations,
# where clipping each feature alone ("range") was not.
FOURTH_ROUND = {"radius": {"extrapolation": "radius"}}
# The fifth round's candidate: the second round's screening, beside the fourth's default.
FIFTH_ROUND = {"radius, screened from 1000 rows": {**FOURTH_ROUND["radius"], **AUTO_SCREENING}}
# The sixth round's candidate: the skip term from its local start, beside the fifth's default.
SIXTH_ROUND = {"radius, screened from 1000 rows, skip": {
    **FIFTH_ROUND["radius, screened from 1000 rows"], **SKIP}}
# The seventh round's candidate: with more folds the paired standard errors of the
# selection rule are narrower, and the attention is taken where it is ahead by less.
SEVENTH_ROUND = {"radius, screened from 1000 rows, 10 folds": {
    **FIFTH_ROUND["radius, screened from 1000 rows"], "cv": 10}}
# The eighth round's candidate: as many folds, each of the usual size.
EIGHTH_ROUND = {"radius, screened from 1000 rows, 5 folds twice": {
    **FIFTH_ROUND["radius, screened from 1000 rows"],
    "cv": RepeatedKFold(n_splits=5, n_repeats=2, random_state=0)}}
# The ninth round's candidate: one standard error, on the eighth round's folds.
# (cv="auto" draws the folds twice since the eighth round: on this half as its candidate did,
# and on the large sets as the defaults do.) It won: the later rounds' baseline.
NINTH = "radius, screened from 1000 rows, 5 folds twice, 1se"
NINTH_ROUND = {NINTH: {**FIFTH_ROUND["radius, screened from 1000 rows"], "selection_rule": "1se"}}
# The tenth round's candidates: more context tokens, which on the large sets the smoother
# averages over (the folds there train on 9 084 or more rows).
TENTH_ROUND = {f"context {m}": {**NINTH_ROUND[NINTH], "max_context": m} for m in (4096, 8192)}
# The eleventh round's candidate: the skip term from its local start with rank scores.
ELEVENTH_ROUND = {"skip, ranks, at the defaults": {**NINTH_ROUND[NINTH], **RANKS}}
# The twelfth round's candidate: the folds choose the eleventh round's candidate or the
# defaults' representation.
TWELFTH_ROUND = {"scores' features chosen": {**NINTH_ROUND[NINTH], "score_features": "choose"}}
# The thirteenth round's candidate: the twelfth round's choice from 2000 training rows on.
THIRTEENTH_ROUND = {"scores' features chosen from 2000 rows": {**NINTH_ROUND[NINTH],
                                                              "score_features": "auto"}}
# The fourteenth round's candidate: the thirteenth's, its screening fold stopping the paths
# that trail the linear end.
THIRTEENTH = "scores' features chosen from 2000 rows"
FOURTEENTH_ROUND = {"screening stopped where the linear end leads": {
    **THIRTEENTH_ROUND[THIRTEENTH], "screening_stop": True}}
# The fifteenth round's candidate: the fourteenth's, its linear limit reading far rows as
# they are where its folds score that higher.
FOURTEENTH = "screening stopped where the linear end leads"
FIFTEENTH_ROUND = {"extrapolation chosen by the folds": {
    **FOURTEENTH_ROUND[FOURTEENTH], "extrapolation": "auto"}}
# The sixteenth round's candidate: the fourteenth's, keeping the hold-out's fit of the
# chosen point instead of refitting it where the folds are one split (the large sets).
# Its baseline: the defaults, refitted beside it.
SIXTEENTH = "defaults, refitted beside the sixteenth round"
SIXTEENTH_CHOICE = "one split's fit kept"
SIXTEENTH_ROUND = {SIXTEENTH: FOURTEENTH_ROUND[FOURTEENTH],
                   SIXTEENTH_CHOICE: {**FOURTEENTH_ROUND[FOURTEENTH], "refit": "auto"}}
# The seventeenth round's candidate: the paths past the linear limit of shrinkage 0, where
# the defaults' go on past "auto"'s. Its baseline: the sixteenth round's candidate.
SEVENTEENTH_ROUND = {"paths past shrinkage 0": {
    **SIXTEENTH_ROUND[SIXTEENTH_CHOICE], "attention_shrinkages": (0.0,)}}
# The eighteenth round's candidate: the folds choose between the paths of 0 and "auto".
SEVENTEENTH = "paths past shrinkage 0"
EIGHTEENTH_ROUND = {"paths past 0 and auto": {
    **SEVENTEENTH_ROUND[SEVENTEENTH], "attention_shrinkages": (0.0, "auto")}}
# The nineteenth round's candidate: an additive end beside the path.
NINETEENTH_ROUND = {"additive end": {**SEVENTEENTH_ROUND[SEVENTEENTH], "additive_end": True}}
# The twentieth round's candidate: the path on an additive base from 2000 rows.
NINETEENTH = "additive end"
TWENTIETH_ROUND = {"additive base from 2000 rows": {**NINETEENTH_ROUND[NINETEENTH],
                                                    "additive_base": "auto"}}
# The twenty-first round: the twentieth's candidate, on an additive base whose layer's tol
# is relative to the targets as given, against the defaults refitted beside it.
TWENTY_FIRST = "additive end, refitted beside the twenty-first round"
TWENTY_FIRST_ROUND = {
    TWENTY_FIRST: NINETEENTH_ROUND[NINETEENTH],
    "additive base from 2000 rows, tol of the targets": TWENTIETH_ROUND[
        "additive base from 2000 rows"]}
# The twenty-second round: the screening fold also asked after a point's first iteration,
# against the twenty-first round's refitted defaults; its time reference the MLP refitted
# beside it.
TWENTY_SECOND_ROUND = {"screening stop after the first iteration": {
    **NINETEENTH_ROUND[NINETEENTH], "screening_stop": "first_iteration"}}
TWENTY_SECOND_REFERENCE = f"{TIME_REFERENCE}, refitted beside the twenty-second round"
# The twenty-third round: the screening fold's path stopped after its first iteration
# only where it is far behind the linear end; the twenty-second round's time reference.
TWENTY_THIRD_ROUND = {"screening stop where the first iteration is far behind": {
    **NINETEENTH_ROUND[NINETEENTH], "screening_stop": "far_behind"}}
# The twenty-fourth round: stopped after the first iteration only where it trails the
# linear end significantly.
TWENTY_FOURTH = "screening stop where the first iteration trails significantly"
TWENTY_FOURTH_ROUND = {TWENTY_FOURTH: {
    **NINETEENTH_ROUND[NINETEENTH], "screening_stop": "significantly_behind"}}
# The twenty-fifth round: stopped after the first iteration only where it trails the
# linear end significantly in a near tie, and at a count only where it is not closing the
# gap; its baseline the twenty-fourth round's candidate, the defaults since.
TWENTY_FIFTH_ROUND = {"screening stop where the path is not closing the gap": {
    **NINETEENTH_ROUND[NINETEENTH], "screening_stop": "not_closing"}}
# The twenty-sixth round: rows read as "clip" reads them, predictions clipped to the
# training targets' range.
TWENTY_SIXTH_ROUND = {"predictions clipped to the targets' range": {
    **TWENTY_FOURTH_ROUND[TWENTY_FOURTH], "extrapolation": "targets"}}
# A model refitted beside a round stands for the model it refits: a baseline for the
# defaults it refits (the headroom's reference, where the round keeps them), a peer for the
# peer. A refit is a cache entry of its own, so that it is fitted anew where the cache holds
# the fits it refits.
REFITS = {SIXTEENTH: FOURTEENTH, TWENTY_FIRST: NINETEENTH, TWENTY_SECOND_REFERENCE: TIME_REFERENCE}
# Rounds whose choice was not adopted: {round: (choice, why)}, a target of the defaults that
# the rule does not read, which the choice fails where the defaults meet it.
HELD = {"twentieth": ("additive base from 2000 rows",
                      "where a linear model is right (bench_generated.py --linear-cost) it "
                      "fits in 0.28 of the MLP's time, and the defaults in 0.078, where at "
                      "most 0.1 is asked"),
        "twenty-second": ("screening stop after the first iteration",
                          "on make_friedman1 at 2000 rows (bench_generated.py) it scores "
                          "0.922, the defaults 0.990 and the MLP 0.989, where at least the "
                          "MLP's - 0.01 is asked"),
        "twenty-third": ("screening stop where the first iteration is far behind",
                         "where a linear model is right (bench_generated.py --linear-cost) "
                         "it fits in 0.14 of the MLP's time, the defaults in 0.12 in the same "
                         "run, where at most 0.1 is asked: its path is not far behind after "
                         "one iteration there and stops where the defaults' does")}
# The sixteenth round's extra condition: a candidate's mean of max(R², 0) over the large
# sets at most this much below the round's baseline's there.
LARGE_FLOOR = 0.002
# Candidates whose fits on the large sets are another model's, since they differ from it
# only below the large sets' training rows (9 084 to 13 334).
LARGE_AS = {"radius, screened from 1000 rows, 5 folds twice": "radius, screened from 1000 rows"}
# Per round: its baseline and candidates, how the large sets' times are summed up, whether
# the tie-break is the paired time (the fifth round's rule), and whether the large sets
# count in the mean (the tenth round's).
ROUNDS = {"first": (("clip", *FIRST_ROUND), max, False, False),
          "second": (("clip", *SECOND_ROUND), statistics.median, False, False),
          "third": (("clip", *THIRD_ROUND), statistics.median, False, False),
          "fourth": (("clip", *FOURTH_ROUND), statistics.median, False, False),
          "fifth": (("radius", *FIFTH_ROUND), statistics.median, True, False),
          "sixth": (("radius, screened from 1000 rows", *SIXTH_ROUND), statistics.median,
                    True, False),
          "seventh": (("radius, screened from 1000 rows", *SEVENTH_ROUND), statistics.median,
                      True, False),
          "eighth": (("radius, screened from 1000 rows", *EIGHTH_ROUND), statistics.median,
                     True, False),
          "ninth": (("radius, screened from 1000 rows, 5 folds twice", *NINTH_ROUND),
                    statistics.median, True, False),
          "tenth": ((NINTH, *TENTH_ROUND), statistics.median, True, True),
          "eleventh": ((NINTH, *ELEVENTH_ROUND), statistics.median, True, True),
          "twelfth": ((NINTH, *TWELFTH_ROUND), statistics.median, True, True),
          "thirteenth": ((NINTH, *THIRTEENTH_ROUND), statistics.median, True, True),
          "fourteenth": ((THIRTEENTH, *FOURTEENTH_ROUND), statistics.median, True, True),
          "fifteenth": ((FOURTEENTH, *FIFTEENTH_ROUND), statistics.median, True, True),
          "sixteenth": ((*SIXTEENTH_ROUND,), statistics.median, True, True, LARGE_FLOOR),
          "seventeenth": ((SIXTEENTH_CHOICE, *SEVENTEENTH_ROUND), statistics.median, True, True,
                          LARGE_FLOOR),
          "eighteenth": ((SEVENTEENTH, *EIGHTEENTH_ROUND), statistics.median, True, True,
                         LARGE_FLOOR),
          "nineteenth": ((SEVENTEENTH, *NINETEENTH_ROUND), statistics.median, True, True,
                         LARGE_FLOOR),
          "twentieth": ((NINETEENTH, *TWENTIETH_ROUND), statistics.median, True, True,
                        LARGE_FLOOR),
          "twenty-first": ((*TWENTY_FIRST_ROUND,), statistics.median, True, True,
                           LARGE_FLOOR),
          "twenty-second": ((TWENTY_FIRST, *TWENTY_SECOND_ROUND), statistics.median, True,
                            True, LARGE_FLOOR),
          "twenty-third": ((TWENTY_FIRST, *TWENTY_THIRD_ROUND), statistics.median, True,
                           True, LARGE_FLOOR),
          "twenty-fourth": ((TWENTY_FIRST, *TWENTY_FOURTH_ROUND), statistics.median, True,
                            True, LARGE_FLOOR),
          "twenty-fifth": ((TWENTY_FOURTH, *TWENTY_FIFTH_ROUND), statistics.median, True,
                           True, LARGE_FLOOR),
          "twenty-sixth": ((TWENTY_FOURTH, *TWENTY_SIXTH_ROUND), statistics.median, True,
                           True, LARGE_FLOOR)}
# The rounds whose time reference is a refit of TIME_REFERENCE's: {round: its label}.
ROUND_REFERENCES = {"twenty-second": TWENTY_SECOND_REFERENCE,
                    "twenty-third": TWENTY_SECOND_REFERENCE,
                    "twenty-fourth": TWENTY_SECOND_REFERENCE,
                    "twenty-fifth": TWENTY_SECOND_REFERENCE,
                    "twenty-sixth": TWENTY_SECOND_REFERENCE}
# The first round whose candidates' per-set R² is a table of its own (the rounds that
# count the large sets' mean as a condition).
LATEST = "sixteenth"
CANDIDATES = {"defaults": {}, "clip": {}, **FIRST_ROUND, **SECOND_ROUND, **THIRD_ROUND,
              **FOURTH_ROUND, **FIFTH_ROUND, **SIXTH_ROUND, **SEVENTH_ROUND, **EIGHTH_ROUND,
              **NINTH_ROUND, **TENTH_ROUND, **ELEVENTH_ROUND,
              **TWELFTH_ROUND, **THIRTEENTH_ROUND, **FOURTEENTH_ROUND, **FIFTEENTH_ROUND,
              **SIXTEENTH_ROUND, **SEVENTEENTH_ROUND, **EIGHTEENTH_ROUND,
              **NINETEENTH_ROUND, **TWENTIETH_ROUND, **TWENTY_FIRST_ROUND,
              **TWENTY_SECOND_ROUND, **TWENTY_THIRD_ROUND, **TWENTY_FOURTH_ROUND,
              **TWENTY_FIFTH_ROUND, **TWENTY_SIXTH_ROUND}


def models(labels=None):
    """The peers and the candidates, behind a StandardScaler: ``{label: model}``."""
    found = {label: model for label, model in peers().items() if label in PEERS}
    found |= {label: make_pipeline(StandardScaler(), SoftmaxAttentionRegressorCV(
                  **{**({} if label == "defaults" else ROUND_BASE), **params}, random_state=0))
              for label, params in CANDIDATES.items()}
    found |= {label: clone(found[same]) for label, same in REFITS.items() if same in PEERS}
    return selected(found, labels)


def dataset(name, max_rows):
    """``(X, y)`` of a registry set at up to ``max_rows`` rows, cached as an .npz file."""
    path = cache_dir() / "data" / f"{name}__{max_rows}.npz"
    if not path.exists():
        X, y, _ = load(candidates()[name], max_rows)
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written whole, then renamed: the other process may be reading the same set.
        partial = path.with_name(f"{path.stem}.{os.getpid()}.npz")
        np.savez(partial, X=X, y=y)
        os.replace(partial, path)
    with np.load(path) as data:
        return data["X"], data["y"]


def set_names(which, large=False, fifth=False):
    """The eligible sets of a half (with ``fifth``, of the fifth reading); with ``large``,
    those of at least LARGE_ROWS rows."""
    readings = ("fifth",) if fifth else PANEL_READINGS
    names = [name for name in eligible_names(readings=readings) if half(name) == which]
    if large:
        names = [name for name in names if len(dataset(name, LARGE_MAX_ROWS)[1]) >= LARGE_ROWS]
    return names


def fit_fold(model, X, y, train, test):
    """One fold on one thread: test R² and fit time, the process's CPU time
    (:func:`~_common.cpu_timed_fit`: a model stopping at its ``max_iter`` is measured as
    it is)."""
    fit_time = cpu_timed_fit(model, X[train], y[train])
    with threadpool_limits(limits=1):
        return {"r2": float(model.score(X[test], y[test])), "fit_time": fit_time}


def _task(name, max_rows, label, model, fold):
    X, y = dataset(name, max_rows)
    train, test = list(KFold(N_FOLDS, shuffle=True, random_state=0).split(X))[fold]
    refit = f"__{label}" if label in REFITS else ""
    key = f"{name}__{max_rows}__{model_key(model)}{refit}__{fold}"
    return name, label, cached("defaults", key, lambda: fit_fold(model, X, y, train, test))


def fit(names, max_rows, labels=None, n_jobs=2):
    """Per set and model, the mean R² and fit time over the folds: summary rows."""
    found = models(labels)
    tasks = [(name, max_rows, label, model, fold) for name in names
             for label, model in found.items() for fold in range(N_FOLDS)]
    start = time.perf_counter()
    print(f"{len(tasks)} fits of {len(found)} models on {len(names)} sets", file=sys.stderr)
    done = Parallel(n_jobs=n_jobs, verbose=5)(delayed(_task)(*task) for task in tasks)
    print(f"done in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    folds = {}
    for name, label, result in done:
        folds.setdefault((name, label), []).append(result)
    rows = []
    for (name, label), results in folds.items():
        X, _ = dataset(name, max_rows)
        rows.append({"set": name, "n": X.shape[0], "d": X.shape[1], "model": label,
                     "r2": f"{np.mean([r['r2'] for r in results]):.4f}",
                     "fit_time": f"{np.mean([r['fit_time'] for r in results]):.4g}"})
    return rows


def summary_path(which, large=False, fifth=False):
    return RESULTS / f"defaults_{which}{'_fifth' if fifth else ''}{'_large' if large else ''}.csv"


def round_labels():
    """The rounds' candidates in three sets: the first round's, the later rounds' up to
    :data:`LATEST`, and those of the rounds from it on (with the time references refitted
    beside them)."""
    rounds = list(ROUNDS.values())
    latest = list(ROUNDS).index(LATEST)
    first = set(rounds[0][0])
    later = {label for labels, *_ in rounds[1:latest] for label in labels} - first
    last = {label for labels, *_ in rounds[latest:] for label in labels} - first - later
    return first, later, last | set(ROUND_REFERENCES.values())


def summary_parts(which, large=False, fifth=False):
    """``{path: whether a model's rows are in it}``: a reading's summary files. The
    development half's candidates of the rounds from :data:`LATEST` on have a file of their
    own (``_latest``), so that each file stays small."""
    path = summary_path(which, large, fifth)
    if which != "development" or large or fifth:
        return {path: lambda label: True}
    last = round_labels()[2]
    return {path: lambda label: label not in last,
            path.with_name(f"{path.stem}_latest.csv"): lambda label: label in last}


def read_summaries(which, large=False, fifth=False):
    """:func:`~_common.read_summary` of a reading's summary files (those that exist)
    together; ``(None, {})`` where none does."""
    results, shapes = {}, {}
    for path in summary_parts(which, large, fifth):
        if path.exists():
            part, part_shapes = read_summary(path)
            results |= part
            shapes |= part_shapes
    return dict(sorted(results.items())) or None, shapes  # the order of one file


def write_summaries(rows, which, large=False, fifth=False):
    """Write each of a reading's summary files with its models' ``rows``."""
    for path, holds in summary_parts(which, large, fifth).items():
        write_summary(sorted((r for r in rows if holds(r["model"])),
                             key=lambda r: (r["set"].lower(), r["model"])), path)


def with_large_sets(results, large):
    """Each model's sets of ``results`` and, where it has them, of ``large``."""
    return {label: {**by_set, **(large or {}).get(label, {})} for label, by_set in results.items()}


def statistics_of(results, label, large=None, large_time=max, scored=None,
                  reference=TIME_REFERENCE):
    """The rule's statistics of one model (see the module docstring); ``large_time``
    takes the large sets' time ratios to the round's ``large time``; ``mean`` and the
    sets below RidgeCV are over ``scored`` (default: ``results``), ``time`` over
    ``results``; times are over ``reference``'s."""
    scored = results if scored is None else scored
    by_set, linear = scored[label], scored[LINEAR_REFERENCE]
    r2 = np.array([v[0] for v in by_set.values()])
    gap = np.array([linear[s][0] - v[0] for s, v in by_set.items()])
    ratios = [v[1] / results[reference][s][1] for s, v in results[label].items()]
    stats = {"sets": len(r2), "mean": float(np.mean(np.maximum(r2, 0))),
             "mean R²": float(np.mean(r2)), "median R²": float(np.median(r2)),
             "below 0.02": int(np.sum(gap > 0.02)), "below 0.05": int(np.sum(gap > 0.05)),
             "time": statistics.median(ratios), "large time": None, "largest": None}
    if large is not None and label in large:
        large_ratios = [v[1] / large[reference][s][1] for s, v in large[label].items()]
        stats["large time"], stats["largest"] = large_time(large_ratios), max(large_ratios)
    return stats


def conditions(stats):
    """Whether each of the rule's conditions (see the module docstring) holds, by the
    statistic it reads."""
    return {"below 0.02": stats["below 0.02"] <= 0.05 * stats["sets"],
            "below 0.05": stats["below 0.05"] == 0,
            "time": stats["time"] <= 1,
            "large time": stats["large time"] is None or stats["large time"] <= 2}


def qualifies(stats):
    """The rule's conditions, all of them."""
    return all(conditions(stats).values())


# A round's verdict where none of its candidates qualifies: its baseline stays.
NONE_QUALIFIES = "defaults (none qualifies)"


def paired_time(results, label, other):
    """The geometric mean over the sets of ``label``'s fit time over ``other``'s."""
    ours, theirs = results[label], results[other]
    return float(np.exp(np.mean([np.log(ours[s][1] / theirs[s][1]) for s in ours])))


def verdict(results, large=None, labels=None, large_time=max, paired=False, with_large=False,
            large_floor=None, reference=TIME_REFERENCE):
    """A round's choice among its candidates ``labels`` (None: all) of a development
    summary, and its table; ``large_time`` as for :func:`statistics_of`. Within 0.001 of
    the best mean the cheapest wins: by ``time`` or, with ``paired``, by
    :func:`paired_time` over the best mean's qualifier. With ``with_large``, the mean,
    the sets below RidgeCV and the paired time count the large sets too. With
    ``large_floor``, a candidate qualifies only if its mean of max(R², 0) over the large
    sets is at most that much below the first label's (the round's baseline's). Times are
    over ``reference``'s."""
    scored = with_large_sets(results, large) if with_large else results
    stats = {label: statistics_of(results, label, large, large_time, scored, reference)
             for label in (CANDIDATES if labels is None else labels) if label in results}
    qualified = [label for label, s in stats.items() if qualifies(s)]
    if large_floor is not None:
        def large_mean(label):
            return np.mean([max(r2, 0) for r2, _ in large.get(label, {}).values()] or [np.nan])
        qualified = [label for label in qualified
                     if large_mean(label) >= large_mean(labels[0]) - large_floor]
    choice = NONE_QUALIFIES
    if qualified:
        leader = max(qualified, key=lambda label: stats[label]["mean"])
        if paired:
            for label, s in stats.items():
                s["paired"] = paired_time(scored, label, leader)
        choice = min((label for label in qualified
                      if stats[label]["mean"] >= stats[leader]["mean"] - 0.001),
                     key=lambda label: stats[label]["paired" if paired else "time"])
    large_header = ["largest time on large sets"]
    if large_time is not max:
        large_header = ["median time on large sets", "largest"]
    rows = [[label, f"{s['mean']:.4f}", s["below 0.02"], s["below 0.05"], f"{s['time']:.2g}",
             *("-" if s["large time"] is None else f"{value:.2g}"
               for value in [s["large time"], s["largest"]][:len(large_header)]),
             *([f"{s['paired']:.2g}" if "paired" in s else "-"] if paired else []),
             "yes" if label in qualified else "no"] for label, s in stats.items()]
    table = markdown_table(["candidate", "mean of max(R², 0)", "sets > 0.02 below RidgeCV",
                            "sets > 0.05 below", f"median time / {reference}",
                            *large_header,
                            *(["time / the best mean's (geometric mean)"] if paired else []),
                            "qualifies"], rows)
    return choice, table


def overview(results, refitted=None):
    """Per model: the sets, mean R², mean of max(R², 0), median R², sets below RidgeCV
    and median fit time over :data:`TIME_REFERENCE`'s; with ``refitted`` (a refit of
    it, fitted in the defaults' run), the defaults' over the refit's, as their row says,
    and no row of the refit."""
    rows = []
    for label in (label for label in results if label != refitted):
        own = label == "defaults" and refitted is not None
        s = statistics_of(results, label, reference=refitted if own else TIME_REFERENCE)
        rows.append([f"{label} (time / MLP refit)" if own else label,
                     s["sets"], f"{s['mean R²']:.3f}", f"{s['mean']:.3f}",
                     f"{s['median R²']:.3f}", s["below 0.02"], s["below 0.05"],
                     f"{s['time']:.2g}"])
    return markdown_table(["model", "sets", "mean R²", "mean of max(R², 0)", "median R²",
                           "sets > 0.02 below RidgeCV", "> 0.05 below",
                           f"median fit time / {TIME_REFERENCE}"], rows)


# The peer whose mean R² the confirmation half's first target is set against.
BOOSTING = "HistGradientBoosting"


def latest_reference(results):
    """The time reference a reading's targets read: the latest refit of
    :data:`TIME_REFERENCE` that ``results`` hold (fitted in the run of the defaults that
    they hold), else the reference."""
    return [TIME_REFERENCE, *(r for r in ROUND_REFERENCES.values() if r in results)][-1]


def refit_of_reference(results):
    """The refit of :data:`TIME_REFERENCE` that a reading of the defaults holds (fitted
    in their run; :func:`latest_reference`), and a sentence on what it took against the
    recorded reference; ``(None, None)`` where it holds none."""
    refit = latest_reference(results)
    if refit == TIME_REFERENCE:
        return None, None
    ratio = statistics.median(t / results[TIME_REFERENCE][s][1]
                              for s, (_, t) in results[refit].items())
    return refit, (f"The defaults' times are over those of {TIME_REFERENCE} refitted in their "
                   f"run, which took {ratio:.2g} times its recorded times (median over the "
                   "sets); the other models' over the recorded ones.")


def reading_overview(results, rounds):
    """A summary's :func:`overview` and, outside the ``rounds``, the sentence of
    :func:`refit_of_reference`; and the summary without the refit, for the tables of every
    set."""
    refit, note = (None, None) if rounds else refit_of_reference(results)
    text = overview(results, refit) + "\n" + (f"\n{note}\n" if note else "")
    return text, {m: r for m, r in results.items() if m != refit}


def must_show(results, large=None, label="defaults"):
    """The targets the confirmation half must show for ``label``, as a table: its mean R²
    at least boosting's + 0.01; at most 5% of the sets more than 0.02 below RidgeCV and
    none more than 0.05 below; its median fit time at most the reference MLP's; and, on
    each set of the ``large`` summary, at most twice the MLP's time: the rule's
    :func:`conditions`, its large sets' time their largest. Times are over
    :func:`latest_reference`'s."""
    reference = latest_reference(results)
    s, boosting = statistics_of(results, label, large, reference=reference), statistics_of(
        results, BOOSTING)
    met = conditions(s)
    rows = [["mean R² at least boosting's + 0.01",
             f"{s['mean R²']:.3f} against {boosting['mean R²']:.3f}",
             s["mean R²"] >= boosting["mean R²"] + 0.01],
            ["at most 5% of the sets more than 0.02 below RidgeCV",
             f"{s['below 0.02']} of {s['sets']}", met["below 0.02"]],
            ["no set more than 0.05 below RidgeCV", f"{s['below 0.05']}", met["below 0.05"]],
            [f"median fit time / {reference} at most 1", f"{s['time']:.2g}", met["time"]]]
    if s["large time"] is not None:
        rows.append([f"largest fit time / {reference} on the sets of at least "
                     f"{LARGE_ROWS} rows at most 2", f"{s['large time']:.2g}",
                     met["large time"]])
    return markdown_table(["target", "value", "met"],
                          [[*row[:2], "yes" if row[2] else "no"] for row in rows])


def headroom(results, reference, shapes, min_rows=None):
    """Per other model, the headroom of a choice between it and ``reference``: the mean
    over the sets of the better R² of the two, over ``reference``'s mean (every R² below
    0 counted as 0, as in the rule's mean); with ``min_rows``, also on the sets of at
    least that many rows. No choice between the two, per set or per fold, gains more."""
    own = {s: max(r2, 0) for s, (r2, _) in results[reference].items()}
    subsets = [list(own)] + ([] if min_rows is None else
                             [[s for s in own if shapes[s][0] >= min_rows]])
    rows = [[label, *(f"{np.mean([max(r2s[s][0] - own[s], 0) for s in sets]):+.4f}"
                      for sets in subsets)]
            for label, r2s in results.items() if label != reference]
    return markdown_table(["model", f"headroom on {len(subsets[0])} sets",
                           *(f"on the {len(sets)} of at least {min_rows} rows"
                             for sets in subsets[1:])], rows)


def analyse(which, fifth=False):
    results, shapes = read_summaries(which, fifth=fifth)
    large_path = summary_path(which, large=True, fifth=fifth)
    large, large_shapes = read_summaries(which, large=True, fifth=fifth)
    if large and which == "development":
        large |= {label: large[same] for label, same in LARGE_AS.items()
                  if same in large and label not in large}
    print(f"The {which} half{' of the fifth reading' if fifth else ''}: {len(shapes)} real "
          f"sets, {N_FOLDS}-fold shuffled R², at most {MAX_ROWS} rows "
          f"(benchmarks/results/{summary_path(which, fifth=fifth).name})\n")
    current = "defaults"
    if which == "development" and not fifth:
        for name, (labels, *rule) in ROUNDS.items():
            choice, table = verdict(results, large, labels, *rule,
                                    reference=ROUND_REFERENCES.get(name, TIME_REFERENCE))
            held = (f"; not adopted: {HELD[name][1]}" if HELD.get(name, (None,))[0] == choice
                    else "")
            print(f"The {name} round\n\n{table}\n\nThe rule's choice: {choice}{held}\n")
            # The defaults the rounds have reached: this round's choice (unless held), or
            # its baseline (the fits it refits, where it refits them).
            kept = REFITS.get(labels[0], labels[0])
            current = kept if choice == NONE_QUALIFIES or held else choice
    # Outside the rounds, the defaults' times read the reference refitted in their run.
    rounds = which == "development" and not fifth
    text, shown = reading_overview(results, rounds)
    print(text)
    # Every set: the peers and the first round's candidates, then the later rounds' up to
    # LATEST, then theirs from it on (three tables, so that each page that holds one stays
    # readable).
    first, later, last = round_labels()
    print(by_set({m: r for m, r in shown.items() if m not in later | last}, shapes))
    for labels in (later, last):
        if labels & set(shown):
            print("\n" + by_set({m: r for m, r in shown.items() if m in labels}, shapes))
    if large:
        print(f"\nThe sets of at least {LARGE_ROWS} rows, up to {LARGE_MAX_ROWS} "
              f"(benchmarks/results/{large_path.name})\n")
        text, shown = reading_overview(large, rounds)
        print(text)
        print(by_set(shown, large_shapes))
    if which == "confirmation":
        print("\nThe targets the defaults must meet on this half\n")
        print(must_show(results, large))
    if which == "development":
        print(f"\nHeadroom: the mean of max(R², 0), {current!r} or each other model, whichever "
              "is higher on each set, over the mean of the first\n")
        print(headroom(results, current, shapes, min_rows=1000))
        if large and current in large:  # (not while a round's large sets are unfitted)
            print(f"\nThe same on the sets of at least {LARGE_ROWS} rows\n")
            print(headroom(large, current, large_shapes))


def main(argv=None):
    parser = script_parser(__doc__)
    parser.add_argument("--half", choices=["development", "confirmation"], required=True)
    parser.add_argument("--analyse", action="store_true",
                        help="print the verdict and tables from the summary file; fit nothing")
    parser.add_argument("--large", action="store_true",
                        help=f"the sets of at least {LARGE_ROWS} rows, up to {LARGE_MAX_ROWS}")
    parser.add_argument("--fifth", action="store_true",
                        help="the sets of the fifth reading, the peers and the defaults only")
    parser.add_argument("--model", action="append", help="fit these models only (repeatable)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default: 2)")
    args = parser.parse_args(argv)
    if not args.analyse:
        max_rows = LARGE_MAX_ROWS if args.large else MAX_ROWS
        names = set_names(args.half, args.large, args.fifth)
        labels = args.model or ([*PEERS, "defaults"] if args.fifth else None)
        rows = fit(names, max_rows, labels, args.jobs)
        reading = (args.half, args.large, args.fifth)
        if args.model:  # some models only: keep the others' rows
            rows += [r for path in summary_parts(*reading) if path.exists()
                     for r in csv.DictReader(open(path, encoding="utf-8"))
                     if r["model"] not in args.model]
        write_summaries(rows, *reading)
    if not args.large:
        analyse(args.half, args.fifth)


if __name__ == "__main__":
    main()
