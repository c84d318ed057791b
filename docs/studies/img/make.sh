#!/usr/bin/env bash
# Regenerates the pictures of the study pages (docs/studies/*.md) from real runs, at the sizes and seeds
# their captions state. Run from anywhere: bash docs/studies/img/make.sh [WORKDIR]
# (a few minutes on two cores; the reports themselves stay in WORKDIR, by default a temporary folder).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
work="${1:-$(mktemp -d)}"
export PYTHONPATH="$root${PYTHONPATH:+:$PYTHONPATH}"
dealsim() { python -m simulator -q "$@"; }

dealsim report bid-success -n 200000 --seed 1 -o "$work/bid-success" --force
cp "$work/bid-success/success_by_bid.png" "$here/bid-success.png"

dealsim report bid-guide -n 50000 --seed 1 --seat all=heuristic -o "$work/bid-guide" --force
# the heatmap as a 64-colour palette at 1,100 px wide, to keep the page light
python -c "from PIL import Image; import sys; im = Image.open(sys.argv[1]).convert('RGB'); \
im.resize((1100, round(im.size[1] * 1100 / im.size[0])), Image.LANCZOS).quantize(64).save(sys.argv[2], optimize=True)" \
  "$work/bid-guide/guide_heatmap.png" "$here/bid-guide.png"

dealsim report sweep-value -n 100000 --matches 1000 --seed 1 -o "$work/sweep-value" --force
cp "$work/sweep-value/value_of_ducking.png" "$here/sweep-value.png"

dealsim report help-value -n 2000 --seed 1 --seat all=heuristic:count=false -o "$work/help-value" --force
cp "$work/help-value/value_of_asking.png" "$here/help-value.png"

dealsim report play-quality -n 200 --matches 100 --seed 1 -o "$work/play-quality" --force
cp "$work/play-quality/points_given_away.png" "$here/play-quality.png"

dealsim report ladder forty-two --strategy random --strategy greedy --strategy heuristic --strategy expert \
  -n 1000 --seed 1 -o "$work/ladder" --force
cp "$work/ladder/ratings.png" "$here/ladder.png"

dealsim simulate rounds -n 20000 --seed 1 -o "$work/rounds" --force
dealsim report run --run "$work/rounds"
cp "$work/rounds/report/summary_rates.png" "$here/report-run.png"

echo "pictures in $here; reports in $work"
