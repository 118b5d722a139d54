"""Build of the compiled attention kernel and neighbour search (the rest of the metadata
is in setup.cfg).

A C compiler is needed. OpenMP (``-fopenmp``) is used where the compiler
accepts it; without it the kernel runs on one thread.
"""

import os
import sys
import tempfile

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def _accepts(compiler, flags):
    """Whether the compiler compiles and links a small C file with ``flags``."""
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "check.c")
        with open(source, "w") as f:
            f.write("#include <omp.h>\nint main(void) { return omp_get_max_threads() < 0; }\n"
                    if "-fopenmp" in flags else "int main(void) { return 0; }\n")
        try:
            objects = compiler.compile([source], output_dir=tmp, extra_postargs=flags)
            compiler.link_executable(objects, os.path.join(tmp, "check"),
                                     extra_postargs=flags)
        except Exception:
            return False
    return True


class BuildExt(build_ext):
    """Adds -O3 and, where supported, OpenMP to every extension; puts a copy in the sources."""

    def build_extensions(self):
        if self.compiler.compiler_type == "msvc":
            compile_flags, link_flags = ["/O2", "/openmp"], []
        else:
            if not _accepts(self.compiler, []):
                sys.exit(
                    "sklearn_softattn: building its attention kernel needs a C compiler, and "
                    f"{self.compiler.compiler[0]!r} could not compile a test file. Install "
                    "one (for example `apt-get install gcc`, `dnf install gcc` or "
                    "`xcode-select --install`) and run the install again."
                )
            compile_flags, link_flags = ["-O3"], []
            if _accepts(self.compiler, ["-fopenmp"]):
                compile_flags.append("-fopenmp")
                link_flags.append("-fopenmp")
            else:
                print("sklearn_softattn: the compiler does not support OpenMP; "
                      "the attention kernel will run on one thread", file=sys.stderr)
        for ext in self.extensions:
            ext.extra_compile_args += compile_flags
            ext.extra_link_args += link_flags
        super().build_extensions()

    def run(self):
        super().run()
        if not self.inplace:
            # Also beside the sources: Python started in the source tree puts it
            # first on sys.path (`python -m sklearn_softattn` or `python -m sphinx`
            # there, after `pip install .`) and must find the kernel in it.
            self.copy_extensions_to_source()


kernel = Extension(
    "sklearn_softattn._kernel",
    sources=["sklearn_softattn/_kernel.pyx", "sklearn_softattn/_softmax_rows.c"],
    include_dirs=["sklearn_softattn"],
)

search = Extension("sklearn_softattn._search", sources=["sklearn_softattn/_search.pyx"])

setup(
    ext_modules=cythonize([kernel, search], compiler_directives={"language_level": "3"}),
    cmdclass={"build_ext": BuildExt},
)
