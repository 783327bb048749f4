# Sourced by the suites' run.sh after they cd to the repository root, with
# $suite set to the suite's name. skip MESSAGE ends a suite that cannot run
# on this machine: a person's run says why and exits 0; under CI (CI=true)
# it is a failure, since .ci/run installs everything the suites need.
skip() {
	if [ "${CI:-}" = true ]; then
		echo "$suite: FAILED: $* (CI must provide it: see .ci/run)" >&2
		exit 1
	fi
	echo "$suite: SKIPPED: $*"
	exit 0
}
