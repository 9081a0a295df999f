# The two Quick start commands. Both install what they need first (system fonts for the
# PDF sheets, then tomecraft and its Python dependencies into the current Python).
PY ?= python3
TC = $(PY) -m tomecraft.compiler.cli

.PHONY: install build test bench wheel

install:
	@scripts/install-system-deps
	@$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]'

# Check all content, regenerate generated/ and schemas/, write every sheet to sheets/.
build: install
	$(TC) check content/
	$(TC) build
	$(TC) sheets --all --out sheets

# What CI runs: generated/ must be fresh, then the whole test suite.
# Bytecode is cached even where the environment sets PYTHONDONTWRITEBYTECODE: otherwise
# every worker rewrites and compiles every test module again (collection takes 6.3 s a
# worker without the cache, 3.0 s with it) and every `tomecraft` subprocess the tests
# start compiles the package's source again.
test: install
	$(TC) build --check
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n auto

bench: install
	@$(PY) -m pip install --quiet --disable-pip-version-check -e '.[bench]'
	$(PY) bench/run.py

# The distribution fans install: one import package `tomecraft` with the games' content,
# compiled modules and schemas (the wheel test in tests/test_from_outside.py builds it too).
wheel:
	rm -rf build dist
	$(PY) -m pip wheel --quiet --no-deps --wheel-dir dist .
