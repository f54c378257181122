# ci-split.bash - which pass of CI runs a test.  .ci/run runs make check
# twice side by side, plain and SANITIZE=1, and sets CI_SPLIT=1 in both:
# the tests below, whose time would make the plain pass (which alone has
# the Python-only and PyTorch 2 tests) the longer one, then run in the
# sanitizer pass only.  A plain `make check` runs them as before.

# ci_san_pass: skips the test in CI's plain pass.
ci_san_pass() {
  [ "${CI_SPLIT:-0}" != 1 ] || [ "${SANITIZE:-0}" = 1 ] ||
    skip "CI runs this in its sanitizer pass (CI_SPLIT=1)"
}

# plain_pass_unless_split WHY: skips the test under SANITIZE=1 but in
# CI's split, where it runs in the sanitizer pass instead.
plain_pass_unless_split() {
  ci_san_pass
  [ "${SANITIZE:-0}" != 1 ] || [ "${CI_SPLIT:-0}" = 1 ] || skip "$1"
}
