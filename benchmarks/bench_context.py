"""On the paper's linear setting, how do the base estimator's accuracy and fit time depend
on its context size, ``max_context``?

Run: python benchmarks/bench_context.py   (about 20 seconds on 2 cores)

make_gaussian_regression(n=10 000, d=10, q=20, cond 30, noise 0.5): default fit for
each max_context; excess risk of predict (Monte Carlo on 5000 fresh rows) and fit time.
Least squares' excess risk is printed for reference. Shown on the scale page of the
user guide ("Choosing max_context"); the table at the base estimator's earlier
defaults is in the benchmark log.
"""

import time
import warnings

from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LinearRegression

from _common import script_parser
from sklearn_softattn import SoftmaxAttentionRegressor
from sklearn_softattn.datasets import excess_risk, linear_excess_risk, make_gaussian_regression


def main(n=10_000, contexts=(512, 1024, 2048, 4096)):
    warnings.simplefilter("ignore", ConvergenceWarning)
    X, y, M, cov = make_gaussian_regression(n, 10, 20, random_state=0, return_truth=True)
    lin = LinearRegression().fit(X, y)
    print(f"n={n}: least squares excess risk {linear_excess_risk(lin.coef_, lin.intercept_, M, cov):.4f}")
    print("| max_context | excess risk of predict | iterations | fit (s) |")
    print("|---|---|---|---|")
    for m in contexts:
        start = time.perf_counter()
        reg = SoftmaxAttentionRegressor(max_context=m, random_state=0).fit(X, y)
        seconds = time.perf_counter() - start
        print(f"| {m} | {excess_risk(reg, M, cov):.4f} | {reg.n_iter_} | {seconds:.1f} |",
              flush=True)


if __name__ == "__main__":
    script_parser(__doc__).parse_args()
    main()
