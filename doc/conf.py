# Sphinx configuration of the rdma module's documentation (make doc).
#
# The documents are reStructuredText, as ns-3's own module documentation
# (doc/models in an ns-3 tree) is; Debian's python3-sphinx builds them with
# no extension. make doc writes the HTML to build/doc/html, and
# test/python/test_doc_build.py builds them with warnings as errors.

project = 'rdma: RoCEv2 fabrics in ns-3'
author = 'the rdma module authors'
copyright = 'the rdma module authors'

root_doc = 'index'
source_suffix = {'.rst': 'restructuredtext'}
extensions = []
exclude_patterns = ['_build']
templates_path = []

# Literal blocks are C++ unless a document says otherwise (rdma.rst sets
# ``.. highlight:: cpp``; shell examples are ``.. code-block:: sh``).
highlight_language = 'none'
pygments_style = 'sphinx'

html_theme = 'alabaster'
html_static_path = []
html_show_sourcelink = False
html_last_updated_fmt = None
