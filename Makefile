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

build: install
	$(call timed,build,$(JB) build . -W --keep-going)

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	    echo "Installing Debian's chromium for the browser test"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

browser: install chromium
	$(call timed,browser,CVBOOK_REQUIRE_SITE=1 $(PYTEST) tests/test_site.py)

clean:
	rm -rf _build
