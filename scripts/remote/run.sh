#!/bin/sh
# The remote machines' test (make remote-test): a real sshd on the
# loopback serving a "remote" HOME with live sessions, read by the local
# hud over ssh. See scripts/remote/doc.go.
#
# Where sshd or ssh is missing, a person's run says why and skips; under CI
# (CI=true) that is a failure, since .ci/run installs openssh-server.
set -eu
cd "$(dirname "$0")/../.."

suite=remote-test
. scripts/skip.sh

[ -x /usr/sbin/sshd ] || skip "sshd is not installed (apt-get install openssh-server)"
command -v ssh >/dev/null 2>&1 || skip "ssh is not installed (apt-get install openssh-client)"
command -v ssh-keygen >/dev/null 2>&1 || skip "ssh-keygen is not installed (apt-get install openssh-client)"
[ -x bin/hud ] && [ -x bin/hud-hook ] || { echo "remote-test: build first (make build)"; exit 1; }

HUD_REMOTE_TEST=1 CGO_ENABLED=1 exec go test -race -count="${REMOTE_COUNT:-1}" ${REMOTE_RUN:+-run "$REMOTE_RUN"} -v ./scripts/remote
