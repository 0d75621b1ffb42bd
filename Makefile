# cvbook: two commands do everything on a fresh machine.
#   make book   -- create .venv if missing, install, execute every chapter, render _build/html
#   make test   -- everything CI checks (unit tests, nbval, papermill, the -W build, the browser test)
# Each stage prints its wall time; they are collected in _build/test-times.txt.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JB     := $(BIN)/jupyter-book
PYTEST := $(BIN)/python -m pytest -p no:cacheprovider
TIMES  := _build/test-times.txt
NBVAL_FLAGS := --nbval --nbval-current-env --nbval-cell-timeout=600 \
               --nbval-sanitize-with tests/nbval_sanitize.cfg
# Time a stage: $(call timed,name,command)
timed = @mkdir -p _build; s=$$(date +%s); $(2); rc=$$?; e=$$(( $$(date +%s) - s )); \
        echo "[$(1)] $${e} s (exit $$rc)" | tee -a $(TIMES); exit $$rc

.PHONY: help install book lab test unit nbval papermill build browser chromium \
        bench sweep coverage-run clean

help:
	@echo "make book    build the book into _build/html (creates .venv)"
	@echo "make test    run every check CI runs"
	@echo "make lab     open the chapters in JupyterLab"

$(STAMP): pyproject.toml constraints.txt
	@test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[book,test]"
	@touch $(STAMP)

install:
	@rm -f $(TIMES); mkdir -p _build
	$(call timed,install,$(MAKE) --no-print-directory $(STAMP))

book: install
	$(call timed,build,$(JB) build . -W --keep-going)
	@echo "The book is in _build/html/index.html"

lab: install
	$(BIN)/jupyter lab chapters/

test: install unit nbval papermill build browser
	@echo "--- wall times ---"; cat $(TIMES)

unit: install
	$(call timed,unit,$(PYTEST) tests --doctest-modules cvbook \
	    --ignore=tests/test_papermill.py --ignore=tests/test_site.py)

nbval: install
	$(call timed,nbval,$(PYTEST) $(NBVAL_FLAGS) $$($(BIN)/python tests/booktoc.py))

papermill: install
	$(call timed,papermill,$(PYTEST) tests/test_papermill.py)

# --all: re-read and re-execute every page even after `make book`, so the check is never stale.
build: install
	$(call timed,build,$(JB) build . --all -W --keep-going)

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	    echo "Installing Debian's chromium for the browser test"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# The pages load MathJax 3 from its CDN; the browser test has no network and answers those
# requests from a local copy installed once from the npm registry (git-ignored, under _build/).
MATHJAX := _build/mathjax/node_modules/mathjax/es5/tex-mml-chtml.js

$(MATHJAX):
	@mkdir -p _build/mathjax
	npm install --prefix _build/mathjax --no-save --no-audit --no-fund --loglevel=error mathjax@3.2.2

# CVBOOK_REQUIRE_SITE=1: a missing site, browser or MathJax copy fails the test (plain pytest
# skips). Screenshots of every chapter go to _build/screenshots/.
browser: install chromium $(MATHJAX)
	$(call timed,browser,CVBOOK_REQUIRE_SITE=1 $(PYTEST) tests/test_site.py)

clean:
	rm -rf _build

# --- long runs and benchmarks (not part of `make test`) ----------------------------------
# DATA_HOME: a folder with the Rätsch benchmarks (benchmarks.mat or <name>.npz); empty means
# the loader's default ($CVBOOK_DATA, else download benchmarks.mat once, checksum verified).
DATA_HOME ?=

sweep: install  ## Table 1 of Anguita et al.: 13 data sets x 10 realisations, resumable
	$(BIN)/python -m cvbook.sweep --out results/table1 --n-jobs 2 $(if $(DATA_HOME),--data-home $(DATA_HOME))

coverage-run: install  ## the large coverage run behind chapter 6's committed figures
	PYTHON=$(BIN)/python sh results/coverage/run_large.sh

bench: install  ## speed benchmarks; each prints ratios against a baseline in the same process
	$(BIN)/python benchmarks/bench_simulation_parallel.py
	$(BIN)/python benchmarks/bench_loo.py
	$(if $(DATA_HOME),CVBOOK_DATA=$(DATA_HOME)) $(BIN)/python benchmarks/bench_ckcv.py
