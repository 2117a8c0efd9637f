#!/bin/sh
# Lints every capture under test/fixtures (and any files named in LINT_IDENTICAL_FILES,
# say large generated captures) with two builds of the CLI and diffs the output of every
# format (text, json, sarif, junit) byte for byte, with and without the demo key, and the
# exit status. Usage:
#   sh test/bench/lint-identical.sh /path/to/before/cli/bin.js [cli/bin.js]
# Exit status 0 when every output is identical.
before="${1:?usage: lint-identical.sh BEFORE_BIN [AFTER_BIN]}"
after="${2:-cli/bin.js}"
tmp=$(mktemp -d)
status=0
n=0
for f in $(find test/fixtures -type f \( -name '*.har' -o -name '*.json' -o -name '*.jsonl' \) | sort) $LINT_IDENTICAL_FILES; do
  for format in text json sarif junit; do
    for key in none demo; do
      set -- --format "$format"
      [ "$key" = demo ] && set -- "$@" --key 'mrtr-inspector-demo-key-not-a-secret-0001'
      node "$before" lint "$f" "$@" >"$tmp/a" 2>"$tmp/ae"; ca=$?
      node "$after" lint "$f" "$@" >"$tmp/b" 2>"$tmp/be"; cb=$?
      n=$((n + 1))
      if ! cmp -s "$tmp/a" "$tmp/b" || ! cmp -s "$tmp/ae" "$tmp/be" || [ "$ca" != "$cb" ]; then
        echo "DIFFERS: $f (format: $format, key: $key; exit $ca vs $cb)"; diff "$tmp/a" "$tmp/b" | head -5; diff "$tmp/ae" "$tmp/be" | head -5; status=1
      fi
    done
  done
done
echo "$n lint runs compared; $( [ $status = 0 ] && echo 'all byte-identical (standard output, standard error and exit status)' || echo 'some differ')"
rm -rf "$tmp"
exit $status
