#!/usr/bin/env bash
# Install the textanon and en_textanon wheels into a FRESH virtual environment, as a user would (dependencies
# from the package registries; pip may use its cache), then load the pipeline and anonymize one document there,
# outside the repository and, where `unshare -n` works, without any network.
# Then it installs the evaluators' wheel ($EVAL_WHEEL, textanon-eval) beside them and checks its commands.
# Usage: EVAL_WHEEL=... .ci/check_wheel.sh VENV_DIR TEXTANON_WHEEL EN_TEXTANON_WHEEL [pip options, e.g. -c requirements.txt]
# (the constraints keep the tested versions: without them pip takes the newest torch, with CUDA, several GB)
set -euo pipefail
venv=$1; shift
here="$(cd "$(dirname "$0")" && pwd)"
smoke="$here/check_wheel.py"
constraints=("${@:3}")
eval_wheel="$(cd "$(dirname "${EVAL_WHEEL:?the evaluators wheel}")" && pwd)/$(basename "$EVAL_WHEEL")"
rm -rf "$venv"
"${PYTHON:-python3}" -m venv "$venv"
venv="$(cd "$venv" && pwd)"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q "$@"
"$venv/bin/python" -m pip check
offline=()
if command -v unshare >/dev/null && unshare -n true 2>/dev/null; then offline=(unshare -n); fi
cd "$(mktemp -d)"  # not the repository: only what the wheels installed is importable
# without NLTK_DATA (the Makefile exports it): the default profile generalizes with the WordNet its package ships
env -u NLTK_DATA HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TEXTANON_CACHE="$PWD/cache" "${offline[@]}" "$venv/bin/python" "$smoke"
"$venv/bin/python" -m pip install -q "$eval_wheel" "${constraints[@]}"
"$venv/bin/python" -m pip check
HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 "${offline[@]}" "$venv/bin/python" "$here/check_eval_wheel.py"
