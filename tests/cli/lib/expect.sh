# Sourced by CLI tests after they define `fail`:
#   expect_fail WANT_RC WANT_STDERR CMD...   the command exits with exactly WANT_RC and prints exactly
#                                            WANT_STDERR on standard error (standard output is not looked at)
expect_fail() {
  local want_rc=$1 want=$2; shift 2
  local rc=0 got
  got=$("$@" 2>&1 >/dev/null) || rc=$?
  [[ $rc == "$want_rc" ]] || fail "$*: exit $rc, want $want_rc ($got)"
  [[ "$got" == "$want" ]] || fail "$*: got [$got], want [$want]"
}
