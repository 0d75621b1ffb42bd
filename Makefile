# cvbook: two commands do everything on a fresh machine.
#   make book   -- create .venv if missing, install, execute every chapter, render _build/html
#   make test   -- everything CI checks (unit tests, nbval, papermill, the -W build, the browser test)
# Each chapter is executed once at its default parameters: `make nbval` re-executes and
# checks it, and keeps that run (_build/executed/), from which `make build` renders the site.
# Each stage prints its wall time; they are collected in _build/test-times.txt.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JB     := $(BIN)/jupyter-book
# Every test process does its numerics on one thread (OpenBLAS, OpenMP): the stages run two
# processes on the two cores already, and two BLAS threads in each then fight for them
# (chapter 7 with the logistic learner, two papermill runs side by side: 53 s with the
# default threads, 21 s with one). The chapters' numbers are the same either way (nbval).
ONE_THREAD := OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
PYTEST := $(ONE_THREAD) $(BIN)/python -m pytest -p no:cacheprovider
TIMES  := _build/test-times.txt
NBVAL_FLAGS := --nbval --nbval-current-env --nbval-cell-timeout=600 \
               --nbval-sanitize-with tests/nbval_sanitize.cfg
# nbval, papermill and the unit tests run on both cores: nbval and the unit tests with
# pytest-xdist (nbval: whole notebooks per worker, --dist loadfile), papermill as WORKERS
# pytest processes on disjoint halves of the chapters. WORKERS=1 runs each in one process.
WORKERS ?= 2
xdist = $(if $(filter 1,$(WORKERS)),,-n $(WORKERS) --dist $(1))
# Time a stage: $(call timed,name,command)
timed = @mkdir -p _build; s=$$(date +%s); $(2); rc=$$?; e=$$(( $$(date +%s) - s )); \
        echo "[$(1)] $${e} s (exit $$rc)" | tee -a $(TIMES); exit $$rc

.PHONY: help install book lab test unit unit-fast unit-min lint nbval papermill build browser \
        chromium mathjax claims bench sweep coverage-run page clean

help:  ## list every target
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## (.*)/  make \1\t\2/' | expand -t 22

$(STAMP): pyproject.toml constraints.txt
	@test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[book,test]"
	@touch $(STAMP)

install:  ## create .venv and install the package with the book and test extras (pinned)
	@rm -f $(TIMES); mkdir -p _build
	$(call timed,install,$(MAKE) --no-print-directory $(STAMP))

# tools/build_book.py is `jupyter-book build` reading BUILD_JOBS pages at a time;
# BUILD_JOBS=1 is plain `jupyter-book build`.
BUILD_JOBS ?= 2
BUILD := CVBOOK_BUILD_JOBS=$(BUILD_JOBS) $(BIN)/python tools/build_book.py
# The one execution of each chapter: nbval's run, kept by tests/nbval_executed.py in
# EXECUTED (with the prose's numbers and the run's wall and CPU time); the build reads
# it (_ext/cvbook_executed.py) instead of executing the chapters again.
EXECUTED := _build/executed
EXECUTE := $(ONE_THREAD) CVBOOK_EXECUTED=$(EXECUTED) PYTHONPATH=$(CURDIR)/tests
EXECUTED_PLUGIN := -p nbval_executed

# The chapters are executed once (nbval's runner, outputs not compared: --nbval-lax) into
# _build/executed/, and the site is rendered from those runs (see `make build`).
book: install mathjax  ## execute every chapter and render the website into _build/html
	$(call timed,execute,$(EXECUTE) $(PYTEST) $(call xdist,loadfile) --no-loadscope-reorder \
	    $(EXECUTED_PLUGIN) --nbval-lax --nbval-current-env --nbval-cell-timeout=600 \
	    $$($(BIN)/python tests/booktoc.py))
	$(call timed,build,$(EXECUTE) $(BUILD) . --all -W --keep-going)
	@echo "The book is in _build/html/index.html"

# A root shell (common in containers) needs --allow-root. The website's "JupyterLab (local)"
# launch entry points at http://localhost:8888/lab/tree/ (cvbook_local_lab_url in
# _config.yml): the port is fixed (no silent move to 8889 when 8888 is taken), and the
# browser that `make lab` opens is logged in, so the entry works in that browser.
LAB_PORT ?= 8888
lab: install  ## open the chapters in JupyterLab on port 8888 (the website's local launch entry)
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) \
	    --ServerApp.port=$(LAB_PORT) --ServerApp.port_retries=0 chapters/

test: install lint unit unit-min nbval papermill build browser  ## every check CI runs
	@echo "--- wall times ---"; cat $(TIMES)

# Lint and format (ruff), and no committed chapter carries volatile execution metadata.
lint: install  ## ruff check + ruff format --check; chapters free of execution timestamps, parameters typed, Lab captions, the claim ledger and the package map current, committed records in the one table format
	$(call timed,lint,$(BIN)/ruff check cvbook tests benchmarks tools _ext && \
	    $(BIN)/ruff format --check cvbook tests benchmarks tools _ext && \
	    $(BIN)/python tools/strip_notebooks.py --check chapters/*.ipynb && \
	    $(BIN)/python tools/annotate_parameters.py --check chapters/*.ipynb && \
	    $(BIN)/python tools/lab_captions.py --check chapters/*.ipynb && \
	    $(BIN)/python tools/ledger.py --check && \
	    $(BIN)/python tools/package_map.py --check && \
	    $(BIN)/python tools/migrate_records.py --check)

UNIT_ARGS := tests --doctest-modules cvbook --ignore=tests/test_papermill.py \
             --ignore=tests/test_site.py --ignore=tests/test_lab.py --ignore=tests/test_claims.py

unit: install  ## unit tests and doctests (on both cores)
	$(call timed,unit,$(PYTEST) $(call xdist,load) $(UNIT_ARGS))

unit-fast: install  ## the unit tests without those marked slow (the inner loop)
	$(PYTEST) $(UNIT_ARGS) -m "not slow"

# tests/booktoc.py lists the chapters, the longest run first; --no-loadscope-reorder keeps
# that order (pytest-xdist would order them by their number of cells), so that the two
# cores end on short chapters.
# The run is kept in _build/executed/ for `make build`, and its times are written into
# tests/chapter_costs.json (commit that file when its numbers moved), pass or fail.
nbval: install  ## strict nbval: re-execution reproduces the committed outputs and prose numbers
	$(call timed,nbval,( $(EXECUTE) $(PYTEST) $(call xdist,loadfile) --no-loadscope-reorder \
	    $(EXECUTED_PLUGIN) $(NBVAL_FLAGS) $$($(BIN)/python tests/booktoc.py); rc=$$?; \
	    $(BIN)/python tests/booktoc.py --record default $(EXECUTED)/times; exit $$rc ))

# The unit tests in a second, cached environment pinned to the declared minimum versions
# (constraints-min.txt): proves the floors in pyproject.toml. Built once (stamp file).
VENV_MIN  := .venv-min
STAMP_MIN := $(VENV_MIN)/.installed
$(STAMP_MIN): pyproject.toml constraints-min.txt
	@rm -rf $(VENV_MIN) && $(PYTHON) -m venv $(VENV_MIN)
	$(VENV_MIN)/bin/python -m pip install --quiet --upgrade pip
	$(VENV_MIN)/bin/python -m pip install --quiet --prefer-binary -c constraints-min.txt \
	    -e . pytest pytest-xdist hypothesis
	$(VENV_MIN)/bin/python -m pip check
	@touch $(STAMP_MIN)

# The tests of `make unit`, less those that read the book's files with dev-only packages
# (nbformat, pyyaml); the dask test skips itself (dask is not a runtime dependency).
unit-min: $(STAMP_MIN)  ## unit tests and doctests at the minimum versions (cached .venv-min)
	$(call timed,unit-min,$(ONE_THREAD) $(VENV_MIN)/bin/python -m pytest -p no:cacheprovider -q $(call xdist,load) $(UNIT_ARGS) \
	    --ignore=tests/booktoc.py --ignore=tests/test_book.py --ignore=tests/test_environment.py \
	    --ignore=tests/nbval_executed.py --ignore=tests/test_executed.py)

# Two pytest processes, each on chapters of about half the measured cost
# (CVBOOK_PAPERMILL_SHARD), so that a chapter's runs stay in one process; WORKERS=1 runs
# them all in one. DRAW_SEED picks the random legal draw of every chapter's parameters
# (fresh each time, printed; `make papermill DRAW_SEED=...` repeats one).
ifndef DRAW_SEED
DRAW_SEED := $(shell od -An -N4 -tu4 /dev/urandom | tr -d ' ')
endif
papermill: install  ## every chapter re-run: a random legal draw through papermill, each parameter, bad values
	@echo "papermill: random draws from CVBOOK_DRAW_SEED=$(DRAW_SEED)"; rm -rf _build/costs
	$(call timed,papermill,( $(MAKE) --no-print-directory -j$(WORKERS) DRAW_SEED=$(DRAW_SEED) \
	    $(foreach k,$(shell seq 0 $$(( $(WORKERS) - 1 ))),papermill-shard-$(k)); rc=$$?; \
	    $(BIN)/python tests/booktoc.py --record papermill _build/costs; exit $$rc ))

papermill-shard-%:
	@CVBOOK_DRAW_SEED=$(DRAW_SEED) CVBOOK_PAPERMILL_SHARD=$*/$(WORKERS) $(PYTEST) -q \
	    --basetemp=_build/papermill-$* tests/test_papermill.py

# The site is rendered from the runs `make nbval` kept (it executes nothing): a chapter
# without a checked run, or edited since it was run, stops the build, and an {eval}
# number without a value stored by that run is a warning, an error under -W.
# --all: re-read every page even after `make book`.
build: install mathjax  ## jupyter-book build -W of the whole book, from the chapters make nbval ran
	$(call timed,build,$(EXECUTE) $(BUILD) . --all -W --keep-going)

chromium:  ## install Debian's chromium for the browser tests (when absent)
	@command -v chromium >/dev/null 2>&1 || { \
	    echo "Installing Debian's chromium for the browser test"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# MathJax is bundled into the site, so that pages render offline: MathJax 3 from the npm
# registry (once, under _build/), copied into _build/mathjax-site/mathjax/, a static folder
# of the site (html_static_path and mathjax_path in _config.yml). Not under _static/:
# jupyter-book would add every .js file found there to every page.
MATHJAX_SRC := _build/mathjax/node_modules/mathjax/es5
MATHJAX := $(MATHJAX_SRC)/tex-mml-chtml.js
MATHJAX_STATIC := _build/mathjax-site/mathjax/tex-mml-chtml.js

$(MATHJAX):
	@mkdir -p _build/mathjax
	npm install --prefix _build/mathjax --no-save --no-audit --no-fund --loglevel=error mathjax@3.2.2

$(MATHJAX_STATIC): $(MATHJAX)
	@rm -rf _build/mathjax-site && mkdir -p _build/mathjax-site
	cp -r $(MATHJAX_SRC) _build/mathjax-site/mathjax

mathjax: $(MATHJAX_STATIC)  ## bundle MathJax 3 into the site (npm registry, once)

# CVBOOK_REQUIRE_SITE=1: a missing site, browser or MathJax copy fails the test (plain pytest
# skips). Screenshots of every chapter go to _build/screenshots/.
# One pytest run on both cores: the JupyterLab chapters first (each Run All keeps a kernel
# busy for the longest; each worker starts its own JupyterLab server on a free port), the
# site's pages filling the other core meanwhile.
browser: install chromium mathjax  ## the built site and chapters in JupyterLab, in headless Chromium
	$(call timed,browser,CVBOOK_REQUIRE_SITE=1 $(PYTEST) $(call xdist,load) \
	    tests/test_lab.py tests/test_site.py)

# A chapter re-run by papermill, as a page: `make page NB=/tmp/ch2.ipynb` builds a one-chapter
# site (the chapter, executed again with the parameters papermill injected, so every number,
# figure and reference is that run's; the bibliography; MathJax bundled) in
# _build/page/<name>/_build/html/index.html, readable offline.
NB ?=
page: install mathjax  ## a papermill output as an offline page: make page NB=/tmp/ch2.ipynb
	@test -n "$(NB)" || { echo "usage: make page NB=path/to/notebook.ipynb"; exit 2; }
	$(BIN)/python tools/page.py $(NB)

# A chapter made ready to commit, the notebook tools in their order: types for papermill's
# help and the Lab captions (they change the cells), then one execution that stores the
# prose's numbers, then the volatile metadata stripped; the package map and the claim
# ledger follow the new chapter. `make lint` checks each of these.
.PHONY: chapter
chapter: install  ## a chapter ready to commit: make chapter NB=chapters/NN_name.ipynb
	@test -n "$(NB)" || { echo "usage: make chapter NB=chapters/NN_name.ipynb"; exit 2; }
	$(BIN)/python tools/annotate_parameters.py $(NB)
	$(BIN)/python tools/lab_captions.py chapters/*.ipynb
	$(BIN)/python tools/store_values.py $(NB)
	$(BIN)/python tools/strip_notebooks.py $(NB)
	$(BIN)/python tools/package_map.py
	$(BIN)/python tools/ledger.py

clean:  ## remove the build (the site, screenshots, MathJax copies)
	rm -rf _build

# --- long runs and benchmarks (not part of `make test`) ----------------------------------
claims: install  ## every chapter at its default size under 3 other seeds: the checked claims hold
	$(call timed,claims,$(PYTEST) tests/test_claims.py -s)

# DATA_HOME: a folder with the Rätsch benchmarks (benchmarks.mat or <name>.npz); empty means
# the loader's default ($CVBOOK_DATA, else download benchmarks.mat once, checksum verified).
DATA_HOME ?=

sweep: install  ## Table 1 of Anguita et al.: 13 data sets x 10 realisations, resumable
	$(BIN)/python -m cvbook.runs.table1 --out results/table1 --n-jobs 2 $(if $(DATA_HOME),--data-home $(DATA_HOME))

coverage-run: install  ## the large coverage run behind chapter 6's committed figures
	PYTHON=$(BIN)/python sh cvbook/runs/coverage_large.sh

bench: install  ## speed benchmarks; each prints ratios against a baseline in the same process
	$(BIN)/python benchmarks/bench_simulation_parallel.py
	$(BIN)/python benchmarks/bench_loo.py
	$(BIN)/python benchmarks/bench_intervals.py --no-save
	$(if $(DATA_HOME),CVBOOK_DATA=$(DATA_HOME)) $(BIN)/python benchmarks/bench_ckcv.py
