"""Regenerate the measured results: the results page of the user guide, the README's
table of the paper's claims and doc/images/, from measured runs.

    python doc/make_results.py

runs, from the repository root, exactly the commands quoted on the results page
(doc/user_guide/results.md: the main job, the three examples and the sensitivity
benchmark, about 30 minutes on 2 cores), keeps their printed output in
doc/results/, lets the examples write their figures into doc/images/, draws
doc/images/sensitivity.png from the sensitivity benchmark's tables, and replaces
the text between the markers of the results page and of the README with the
numbers they printed. Nothing is typed by hand.

    python doc/make_results.py --from-saved
    python doc/make_results.py --only main paper_reproduction

rewrite those parts from the outputs kept in doc/results/ (all of them, or all
but the named commands, which are rerun).
"""

import argparse
import os
import platform
import re
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import sklearn

import sklearn_softattn
from sklearn_softattn._layer import AUTO_LEARNING_RATE

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "doc" / "images"
RESULTS = ROOT / "doc" / "results"
README = ROOT / "README.md"
RESULTS_PAGE = ROOT / "doc" / "user_guide" / "results.md"
SENSITIVITY_FIGURE = IMAGES / "sensitivity.png"

MAIN = "python -m sklearn_softattn"
EXAMPLE = "SOFTATTN_EXAMPLES_OUTPUT=doc/images python examples/{}"
EXAMPLE_REPRO = EXAMPLE.format("plot_paper_reproduction.py")
EXAMPLE_COMPUTE = EXAMPLE.format("plot_data_and_compute.py")
EXAMPLE_BASELINES = EXAMPLE.format("plot_linear_baselines.py")
SENSITIVITY = "python benchmarks/bench_paper_sensitivity.py"
COMMANDS = {"main": MAIN, "paper_reproduction": EXAMPLE_REPRO,
            "data_and_compute": EXAMPLE_COMPUTE, "linear_baselines": EXAMPLE_BASELINES,
            "sensitivity": SENSITIVITY}

CLAIMS_MARKERS = ("<!-- claims: written by doc/make_results.py -->", "<!-- end of claims -->")
RESULTS_MARKERS = ("<!-- results: written by doc/make_results.py -->", "<!-- end of results -->")

CLAIMS = {
    "(a)": "the spectral start is within 3× of least squares' excess risk after one update",
    "(b)": "a random start with the preconditioner comes within 2× of the default's final "
           "excess risk within 100 updates",
    "(c)": "plain SGD from a random start is still at least 10× worse than the default after "
           "2000 updates",
}
MEASURES = {"predict": "predict", "linear limit": "linear limit coef_"}


def run(command, name, rerun, cwd=ROOT):
    """Run a quoted command (from the repository root by default) and keep its output;
    or, if ``name`` is not in ``rerun`` (None: every name is), read the kept output."""
    if rerun is not None and name not in rerun:
        return (RESULTS / f"{name}.txt").read_text().split("\n", 1)[1]
    env = dict(os.environ, SOFTATTN_EXAMPLES_OUTPUT=str(IMAGES), MPLBACKEND="Agg")
    env.pop("SOFTATTN_EXAMPLES_QUICK", None)
    argv = command.split()
    argv = [sys.executable] + argv[argv.index("python") + 1:]
    print(f"$ {command}", flush=True)
    out = subprocess.run(argv, cwd=cwd, env=env, check=True, capture_output=True,
                         text=True).stdout
    (RESULTS / f"{name}.txt").write_text(f"$ {command}\n{out}")
    return out


def section(text, start, stop=None):
    """The lines of ``text`` from the first starting with ``start`` to the one before
    the next starting with ``stop`` (None: the next blank line)."""
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith(start))

    def ends(line):
        return not line.strip() if stop is None else line.startswith(stop)

    j = next((k for k in range(i + 1, len(lines)) if ends(lines[k])), len(lines))
    return "\n".join(lines[i:j]).strip()


def _cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def table_rows(markdown):
    """``{first cell: [other cells]}`` of a Markdown table."""
    rows = {}
    for line in markdown.splitlines():
        cells = _cells(line)
        if line.startswith("|") and not set(cells[0]) <= {"-"}:
            rows[cells[0]] = cells[1:]
    return rows


HELD = re.compile(r".* (\d+)/(\d+)")


def held_counts(table):
    """``{reading: {column: (seeds held, seeds)}}`` of a table of the sensitivity
    benchmark; a reading is the tuple of a row's cells that are neither counts nor the
    number of SGD epochs: ``("30", "targets", "updates")``."""
    lines = table.splitlines()
    header = _cells(lines[0])
    out = {}
    for line in lines[2:]:
        row = dict(zip(header, _cells(line)))
        counts = {name: (int(m[1]), int(m[2]))
                  for name, value in row.items() if (m := HELD.fullmatch(value))}
        reading = tuple(v for name, v in row.items()
                        if name not in counts and name != "SGD epochs")
        out[reading] = counts
    return out


def claim_rows(main_out):
    """``(claim, measure, statement, ratio, "held" or "NOT held")`` of the main job."""
    rows = []
    pattern = re.compile(r"^\s+(\(\w\)) (.*): measured ([\d.e+-]+), (held|NOT held)$")
    for title, what in MEASURES.items():
        block = section(main_out, f"The paper's claims, on the excess risk of {what}:")
        for line in block.splitlines()[1:]:
            m = pattern.match(line)
            if m:
                rows.append((m[1], title, m[2], m[3], m[4]))
    return rows


def r2_claims(table):
    columns = {name: i for i, name in enumerate(table["model"])}

    def get(model, data):
        return float(table[model][columns[data]].split("±")[0])

    att, lin, mlp = "SoftmaxAttention (tuned)", "LinearRegression", "MLPRegressor"
    out = []
    gap = get(att, "gaussian linear") - get(lin, "gaussian linear")
    out.append(("gaussian linear (a linear model is right): tuned attention within 0.01 "
                "of LinearRegression", f"{gap:+.3f}", gap >= -0.01))
    gain = get(att, "friedman1") - get(lin, "friedman1")
    out.append(("friedman1: tuned attention beats LinearRegression by at least 0.1",
                f"{gain:+.3f}", gain >= 0.1))
    gap = get(att, "friedman1") - get(mlp, "friedman1")
    out.append(("friedman1: tuned attention within 0.02 of MLPRegressor", f"{gap:+.3f}",
                gap >= -0.02))
    return out


def sensitivity_sections(out):
    """The parts of the sensitivity benchmark's output the results page quotes."""
    return {
        "header": section(out, "Sensitivity of the paper's claims"),
        "ab": section(out, "| cond | (a) predict"),
        "starts": section(out, "| cond | start | predict"),
        "c_predict": section(out, "| cond | start | counted in"),
        "c_linear": section(out.split("excess risk of linear limit coef_:", 1)[1],
                            "| cond | start | counted in"),
        "control": section(out, "Control,", "Done in"),
        "seconds": re.search(r"Done in (\d+) s", out)[1],
    }


def sensitivity_counts(sens):
    """``{(claim, measure): {reading: {column: (held, seeds)}}}`` of the sensitivity
    benchmark; the columns of (c) are its learning rates and "best lr"."""
    ab = held_counts(sens["ab"])
    out = {(claim, title): {reading: {"all": cols[f"{claim} {title}"]}
                            for reading, cols in ab.items()}
           for claim in ["(a)", "(b)"] for title in MEASURES}
    out["(c)", "predict"] = held_counts(sens["c_predict"])
    out["(c)", "linear limit"] = held_counts(sens["c_linear"])
    return out


def default_reading(main_out):
    """The sensitivity benchmark's reading of the main job's run: its condition number,
    the estimator's random start, its count and plain SGD's default learning rate."""
    cond = re.search(r"\bcond=([\d.]+)", main_out)[1]
    count = re.search(r"^m counts (\w+)", main_out, re.M)[1]
    return (cond, "targets", count), f"lr={AUTO_LEARNING_RATE['sgd']:g}"


def _reading_name(reading):
    if len(reading) == 1:
        return f"cond {reading[0]}"
    cond, start, count = reading
    return f"cond {cond}, {start} start, {count}"


def where_it_fails(rows):
    """Where a claim failed, from ``{reading: {column: (held, seeds)}}``; the last column
    sums a row up ("best lr" for (c), each seed at its best learning rate)."""
    last = {reading: list(cols.values())[-1] for reading, cols in rows.items()}
    failed = [r for r, (k, n) in last.items() if k < n]
    if not failed:
        return "nowhere: held on every seed under " + ", ".join(map(_reading_name, rows))
    none = sum(last[r][0] == 0 for r in failed)
    best = " at each seed's best learning rate" if len(next(iter(rows.values()))) > 1 else ""
    every = [f"({_reading_name(r)}, {col})" for r, cols in rows.items()
             for col, (k, n) in cols.items() if k == n and col != "best lr"]
    return (f"fails on every seed under {none} of {len(rows)} readings{best}, on some under "
            f"{len(failed) - none}; holds on every seed only under "
            + (" and ".join(every) or "none"))


def claims_table(main_out, sens):
    """The README's short table: each claim on the main job's run, on how many seeds it
    held under that reading, and where it failed under the others."""
    counts = sensitivity_counts(sens)
    reading, rate = default_reading(main_out)
    setting = re.search(r"\((n=[^)]*)\)", main_out)[1]
    seed = re.search(r"seed=(\d+)", setting)[1]
    seed0 = {}
    for claim, title, _, ratio, held in claim_rows(main_out):
        seed0.setdefault(claim, {})[title] = (ratio, held == "held")
    n_seeds = next(iter(counts["(a)", "predict"].values()))["all"][1]
    intro = (
        f"The paper's three claims on its setting ({setting}; `{MAIN}`), with its "
        f"\"iterations\" read as parameter updates and plain SGD at its default learning "
        f"rate ({rate}), and across {n_seeds} seeds and the other readings (condition "
        f"number, random start, counting, learning rate; `{SENSITIVITY}`). Ratios and "
        "counts are on `predict` / on the linear limit `coef_`:")
    lines = [
        textwrap.fill(intro, width=96, break_long_words=False, break_on_hyphens=False),
        "",
        f"| claim | seed {seed} | seeds held, same reading | where it fails |",
        "|---|---|---|---|",
    ]
    for claim, text in CLAIMS.items():
        ratios = " / ".join(f"{ratio}×" for ratio, _ in seed0[claim].values())
        held_on = [title for title, (_, held) in seed0[claim].items() if held]
        verdict = ("held" if len(held_on) == len(MEASURES) else
                   f"held on {held_on[0]} only" if held_on else "**not held**")
        key, column = (reading, rate) if claim == "(c)" else (reading[:1], "all")
        held = " / ".join("{}/{}".format(*counts[claim, title][key][column])
                          for title in MEASURES)
        fails = {title: where_it_fails(counts[claim, title]) for title in MEASURES}
        fails = (f"{fails['predict']}, on both" if len(set(fails.values())) == 1
                 else "; ".join(f"{title}: {where}" for title, where in fails.items()))
        lines.append(f"| {claim} {text} | {ratios}: {verdict} | {held} | {fails} |")
    lines += [
        "",
        "![Claim (c): on how many seeds it held, by reading and SGD learning rate]"
        "(doc/images/sensitivity.png)",
    ]
    return "\n".join(lines) + "\n"


def draw_sensitivity(sens, main_out, path):
    """Heatmaps of the seeds on which (c) held, readings × learning rates, one panel
    per measure; the main job's reading is outlined. Returns the figure."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    counts = sensitivity_counts(sens)
    reading, rate = default_reading(main_out)
    panels = {t: counts["(c)", t] for t in MEASURES}
    readings = list(panels["predict"])
    columns = list(panels["predict"][readings[0]])
    n_seeds = panels["predict"][readings[0]][columns[0]][1]
    budget = re.search(r"budget (\d+)", sens["header"])[1]
    fig = Figure(figsize=(10, 0.45 * len(readings) + 2.2), layout="constrained")
    axes = fig.subplots(1, len(panels), sharey=True)
    for ax, (title, rows) in zip(axes, panels.items()):
        grid = [[rows[r][c][0] for c in columns] for r in readings]
        image = ax.imshow(grid, cmap="viridis", vmin=0, vmax=n_seeds, aspect="auto")
        for i, row in enumerate(grid):
            for j, k in enumerate(row):
                ax.text(j, i, f"{k}/{n_seeds}", ha="center", va="center",
                        color="black" if k > n_seeds / 2 else "white")
        ax.add_patch(Rectangle((columns.index(rate) - 0.5, readings.index(reading) - 0.5),
                               1, 1, fill=False, edgecolor="red", linewidth=2.5))
        ax.axvline(len(columns) - 1.5, color="white", linewidth=3)
        ax.set_xticks(range(len(columns)),
                      [c.removeprefix("lr=").replace("best lr", "best") for c in columns])
        ax.set_yticks(range(len(readings)), [_reading_name(r) for r in readings])
        ax.set_xlabel("SGD learning rate")
        ax.set_title(f"excess risk of {MEASURES[title]}")
    fig.colorbar(image, ax=axes, label=f"seeds held (of {n_seeds})", ticks=range(n_seeds + 1))
    fig.suptitle(f"(c) plain SGD from a random start ≥ 10× the default after {budget} "
                 "updates or passes: seeds on which it held\n(red: the reading of "
                 f"{MAIN}; best: each seed's best learning rate)")
    fig.savefig(path, dpi=100)
    return fig


def replace_between(text, markers, new):
    """``text`` with what lies between the two ``markers`` replaced by ``new``."""
    start, end = markers
    before, rest = text.split(start, 1)
    return before + start + "\n" + new + end + rest.split(end, 1)[1]


def rewrite(path, markers, new):
    path.write_text(replace_between(path.read_text(encoding="utf-8"), markers, new),
                    encoding="utf-8")


def paper_baseline():
    """``sklearn_softattn.PAPER_BASELINE`` as keyword arguments, as the page lists it."""
    return ", ".join(f'{name}="{value}"' if isinstance(value, str) else f"{name}={value}"
                     for name, value in sklearn_softattn.PAPER_BASELINE.items())


def results_page(outputs):
    """The measured part of the results page, from the commands' outputs."""
    main_out, compute_out = outputs["main"], outputs["data_and_compute"]
    baselines_out = outputs["linear_baselines"]
    predict_table = section(main_out, "| method |")
    linear_table = section(main_out.split("linear limit coef_ (exact):", 1)[1], "| method |")
    rate_note = section(main_out, "rate μ:")
    counting = section(main_out, "m counts")
    seconds = re.search(r"Done in ([\d.]+) s", main_out)[1]
    baselines_table = section(baselines_out, "| model |")
    choices = section(baselines_out, "GridSearchCV's choice in each outer fold")
    coefs = section(baselines_out, "coef_ on diabetes", "Figure written")
    compute_block = section(compute_out, "n=", "Figure written")
    sens = sensitivity_sections(outputs["sensitivity"])
    claims_md = "\n".join(
        ["| claim | measured on | ratio | held? |", "|---|---|---|---|"]
        + [f"| {c} {s} | {t} | {r} | {'held' if h == 'held' else '**not held**'} |"
           for c, t, s, r, h in claim_rows(main_out)]
    )
    r2_md = "\n".join(
        ["| claim | measured difference in R² | held? |", "|---|---|---|"]
        + [f"| {s} | {d} | {'held' if h else '**not held**'} |"
           for s, d, h in r2_claims(table_rows(baselines_table))]
    )
    baseline = paper_baseline()
    versions = (f"sklearn_softattn {sklearn_softattn.__version__}, scikit-learn "
                f"{sklearn.__version__}, Python {platform.python_version()}, "
                f"{os.cpu_count()} cores")
    return TEMPLATE.format(**locals(), **globals())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from-saved", action="store_true",
                        help="rerun nothing: read every output kept in doc/results/")
    parser.add_argument("--only", nargs="+", choices=list(COMMANDS), metavar="NAME",
                        help=f"rerun only these commands ({', '.join(COMMANDS)})")
    args = parser.parse_args(argv)
    rerun = set() if args.from_saved else None if args.only is None else set(args.only)
    IMAGES.mkdir(parents=True, exist_ok=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    outputs = {}
    for name, command in COMMANDS.items():
        # The main job writes its own plot into the working directory: keep it out of
        # the tree.
        with tempfile.TemporaryDirectory() as tmp:
            outputs[name] = run(command, name, rerun, cwd=tmp if name == "main" else ROOT)
    sens = sensitivity_sections(outputs["sensitivity"])
    draw_sensitivity(sens, outputs["main"], SENSITIVITY_FIGURE)
    rewrite(README, CLAIMS_MARKERS, claims_table(outputs["main"], sens))
    rewrite(RESULTS_PAGE, RESULTS_MARKERS, results_page(outputs))
    print(f"{SENSITIVITY_FIGURE.relative_to(ROOT)}, the claims table of README.md and "
          f"{RESULTS_PAGE.relative_to(ROOT)} written")


TEMPLATE = """\
Every number below was printed by the command quoted above it ({versions}).
`python doc/make_results.py` reruns them all and rewrites this part of the page, the README's
table of the claims and the figures.
Excess risk is `½ E‖f(x) − M x‖²` over fresh `x ~ N(0, Σ)`: the population loss minus the noise
floor, on the paper's data (`sklearn_softattn.datasets.make_gaussian_regression`). For
`predict` it is a Monte-Carlo average over 5000 fresh samples (the same ones for every
method) of the layer as the paper writes it (`extrapolation="continue"`; by default the
estimator pulls the rare samples beyond the training radius back to it); for the model's infinite-data linear limit `coef_ = V Σ̂ Kᵀ` — the quantity the
paper's analysis is about — it is exact (`datasets.linear_excess_risk`).

## The paper's experiment

    {MAIN}

n = 500 samples, d = 10 features, q = 20 targets, cond(Σ) = 30, noise 0.5, seed 0; every
method runs with `tol=0` (no early stop). Each column is its own seeded fit, which is exactly
where one long run is at that point. It took {seconds} s of wall time (on a shared machine
that time grows with the other processes' load).

`m` counts parameter updates, the reading closest to the paper's "iterations": the paper
compares the two methods iteration by iteration, and an iteration of either is one update of
`(K, V)`. In the estimator an `sgd` iteration is an epoch of several minibatches (the note
below says how many). `python -m sklearn_softattn --count passes` counts passes over the
training data instead (full-gradient equivalents: one per `gd` iteration, one per SGD epoch),
which compares the methods at equal compute and gives plain SGD one epoch per `gd` iteration;
an epoch is one pass for both solvers, so this is also the count in epochs. The main job's
own note:

```
{counting}
```

Excess risk of `predict`:

{predict_table}

Excess risk of the linear limit `coef_`:

{linear_table}

{rate_note}

The rows: the default is the structure-aware algorithm (spectral initialization, covariance
preconditioner, balancing regularizer, renormalization, `gd` block steps). "Plain SGD, random
start" is the paper's baseline, `SoftmaxAttentionRegressor(**sklearn_softattn.PAPER_BASELINE)`:
`{baseline}`. Each other row switches one part of the default off.

The paper's three claims, measured from these tables:

{claims_md}

`predict` attends over the 500 training rows with `‖K‖_F = attention_scale` (whitened
coordinates): with a finite context the layer is a local, nonlinear smoother, whose extra
error its infinite-data linear limit `coef_` does not have. The paper's analysis is about the
latter, which is why both are shown.

![Excess risk against parameter updates, every method; plain SGD also against passes](../images/paper_reproduction.png)

    {EXAMPLE_REPRO}

## How the claims depend on the readings

    {SENSITIVITY}

One seed, one learning rate and one way of counting are readings we chose; this benchmark
varies each (it took {sens[seconds]} s of wall time here).
{sens[header]}
The SGD learning rates form a grid; "best lr" takes, for each seed, the rate that did best on the test excess (the reading most favourable
to SGD). The random start "targets" is the estimator's `init="random"` (`V` at the targets'
scale, like LeCun's initialization); "unit" has i.i.d. N(0, 1) entries in `K` and `V`, as
initializers that ignore the fan-in do, and is measured at cond 30 only (to bound the run
time). Plain SGD runs in float32 to cut the run time: {sens[control]}

(a) and (b):

{sens[ab]}

How far the random starts begin above least squares (the paper: about three orders of
magnitude):

{sens[starts]}

(c), the excess risk of `predict`:

{sens[c_predict]}

(c), the excess risk of the linear limit `coef_`:

{sens[c_linear]}

On how many seeds (c) held under each reading:

![Claim (c): seeds held, by reading and SGD learning rate](../images/sensitivity.png)

## Data and compute: the two terms of the bound

    {EXAMPLE_COMPUTE}

```
{compute_block}
```

The paper bounds the linear limit's excess risk by `μ^m` (optimization) plus a statistical
term (`n⁻² log⁶ n`). The n panel speaks to the statistical term only where the optimization
term is negligible at the stopping point, and only to its slope over n ≤ `max_context`: over
this range the local slope of `n⁻² log⁶ n`, `−2 + 6 / ln n`, stays near −1 (printed above),
so the figure cannot tell the bound from `1/n`, and an upper bound is not contradicted by an excess
that falls faster. `predict` adds the finite context's smoothing error, which the bound does
not cover; `coef_` is the quantity it is about. The m panel speaks to the optimization term
only: n is fixed, so the statistical term is a constant floor; the spectral start begins near
that floor, so its curve has little optimization error left to show, while the random start
shows the decay of `μ^m`. It cannot speak to the statistical term.

![Excess risk against n and against m](../images/data_and_compute.png)

## Against linear baselines

    {EXAMPLE_BASELINES}

`SoftmaxAttentionRegressor` is tuned by `GridSearchCV` (3-fold, inside each outer fold) over
`attention_scale`, `max_iter` (with `tol=0`) and `balance_strength`: a strong balance forces a rank-one
key–query matrix for a single target, which holds the nonlinear model back, so the grid has a
weak one too (a grid over `attention_scale` and `max_iter` alone, at `balance_strength=10`, tied least
squares on friedman1). `SoftmaxAttentionRegressorCV` makes this choice along a path
instead ([Choosing the sharpness by cross-validation](selection.md)). `MLPRegressor` (behind `StandardScaler`) and
`HistGradientBoostingRegressor` are there for context. "gaussian linear" is
`make_gaussian_regression(500, 10, 1, noise=0.5, random_state=0)`, where least squares is the
right model; "friedman1" is `make_friedman1(600, noise=1.0, random_state=0)`.

{baselines_table}

```
{choices}
{coefs}
```

The claims we test on these data (measured on these data sets only):

{r2_md}

![Cross-validated R² and coef_ beside least squares](../images/linear_baselines.png)
"""


if __name__ == "__main__":
    main()
