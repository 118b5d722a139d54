"""Sphinx configuration of the sklearn-softattn documentation.

Build from the repository root (as in the README)::

    python -m sphinx -W --keep-going -b html doc doc/_build/html

The gallery runs every script in examples/; with SOFTATTN_EXAMPLES_QUICK=1
it runs them at reduced size (as CI does).
"""

import os
import tempfile

import sklearn_softattn

project = "sklearn-softattn"
author = "the sklearn-softattn developers"
copyright = "2026, " + author
release = version = sklearn_softattn.__version__

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.mathjax",
    "sphinx_gallery.gen_gallery",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]

myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 3

numpydoc_show_class_members = False  # the API pages list the methods they document
numpydoc_xref_param_type = False
# Short names in the API pages' signatures and in their contents ("fit", not
# "SoftmaxAttentionRegressorCV.fit"), so that both fit the page.
add_module_names = False
toc_object_entries_show_parents = "hide"

html_theme = "pydata_sphinx_theme"
html_title = f"sklearn-softattn {release}"
html_theme_options = {"navigation_with_keys": False}
html_static_path = ["_static"]
html_css_files = ["custom.css"]

# The examples write their figures into SOFTATTN_EXAMPLES_OUTPUT (their own
# folder by default); the gallery takes the figures from matplotlib instead.
os.environ.setdefault("SOFTATTN_EXAMPLES_OUTPUT", tempfile.mkdtemp())
sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": "/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    # "Examples using ..." on the API pages (the minigallery directive).
    "doc_module": ("sklearn_softattn",),
    "backreferences_dir": "gen_modules/backreferences",
}
