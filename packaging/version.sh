#!/bin/sh
# Prints the release version for the commit checked out, in a form dpkg,
# rpm and Homebrew all sort correctly:
#   on a tag v1.2.0            1.2.0
#   3 commits after v1.2.0     1.2.0+3.g2b0395e1c4a7
#   no tag yet                 0.0.0+412.g2b0395e1c4a7  (412 = commits so far)
# Outside a git checkout it prints "dev".
set -eu
if ! git rev-parse --git-dir >/dev/null 2>&1; then
	echo dev
	exit 0
fi
if d=$(git describe --tags --long --match 'v[0-9]*' --abbrev=12 2>/dev/null); then
	# v1.2.0-3-g2b0395e1c4a7
	hash=${d##*-}
	rest=${d%-*}
	count=${rest##*-}
	tag=${rest%-*}
	if [ "$count" = 0 ]; then
		echo "${tag#v}"
	else
		echo "${tag#v}+$count.$hash"
	fi
else
	echo "0.0.0+$(git rev-list --count HEAD).g$(git rev-parse --short=12 HEAD)"
fi
