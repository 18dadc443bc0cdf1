# Sourced by CLI tests that run under `set -o pipefail` and pipe a command into a test of its output:
#   CMD | grep_q [GREP OPTIONS] PATTERN   as `grep -q`, but reading all its input. grep -q leaves at the first
#                                         match, and a CMD still writing then dies of SIGPIPE, which pipefail
#                                         counts as the pipeline's failure (a race: it failed now and then).
grep_q() { grep "$@" >/dev/null; }
