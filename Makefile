# hud — see README.md. `make test` is what CI runs.
GO        ?= go
PREFIX    ?= $(HOME)/.local
BIN       := bin
# What `hud --version` says: the release (packaging/version.sh) and commit.
VERSION   ?= $(shell ./packaging/version.sh)
COMMIT    ?= $(shell git rev-parse HEAD 2>/dev/null)
LDFLAGS   := -s -w -X github.com/capacitor-hud/hud/hud/version.Version=$(VERSION) \
             -X github.com/capacitor-hud/hud/hud/version.Commit=$(COMMIT)
# The tray on Linux is pure Go (D-Bus); macOS needs cgo for Cocoa.
UNAME_S   := $(shell uname -s)
ifeq ($(UNAME_S),Linux)
export CGO_ENABLED ?= 0
endif
# Packages that must cross-compile for macOS without cgo: all but the
# systray adapter (cmd/hud builds without it there, as `make dist` does).
DARWIN_PKGS = $(shell $(GO) list ./... | grep -v -e '/hud/tray$$')

.PHONY: all build run test unit hostile lint darwin-check fuzz e2e e2e-latest soak agents-e2e desktop-test focus-test remote-test screenshot bench install uninstall generate clean

all: build

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/hud ./cmd/hud
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/hud-hook ./cmd/hud-hook

## run: build and start the tray (the main job)
run: build
	./$(BIN)/hud

## test: every check CI runs
test: lint darwin-check unit fuzz e2e soak agents-e2e desktop-test package-test remote-test focus-test

# gofmt and goimports (imports grouped as goimports does), vet, no
# unreachable code (deadcode, counting tests as callers), and no product
# function over 80 lines. The tools are pinned in go.mod's tool block.
GOFILES = $(shell git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './scripts/e2e/.cache/*')
lint:
	@out=$$(gofmt -l $(GOFILES)); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	@out=$$($(GO) tool goimports -l $(GOFILES)); \
	  if [ -n "$$out" ]; then echo "goimports would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	@out=$$($(GO) tool deadcode -test ./...); \
	  if [ -n "$$out" ]; then echo "unreachable code:"; echo "$$out"; exit 1; fi
	$(GO) run ./scripts/funclen cmd hud resolver lockholder internal assets

darwin-check:
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) vet $(DARWIN_PKGS)
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) build $(DARWIN_PKGS)

# -race needs cgo. Includes the adversarial suite (scripts/hostile).
unit:
	CGO_ENABLED=1 $(GO) test -race -count=1 ./...

## hostile: only the adversarial suite (part of unit): the real binaries against hostile repositories and homes
hostile:
	$(GO) test -count=1 -v ./scripts/hostile

## fuzz: each fuzz target briefly (longer: FUZZTIME=5000000x make fuzz)
# A count, not a duration: with a duration Go 1.26's fuzz coordinator can
# report a spurious "context deadline exceeded" at the deadline
# (golang/go#75804, fixed in Go 1.27).
FUZZTIME ?= 200000x
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeEvent$$' -fuzztime $(FUZZTIME) ./hud/hook
	$(GO) test -run '^$$' -fuzz '^FuzzNormalize$$' -fuzztime $(FUZZTIME) ./internal/paths
	$(GO) test -run '^$$' -fuzz '^FuzzInstallUninstall$$' -fuzztime $(FUZZTIME) ./hud/install
	$(GO) test -run '^$$' -fuzz '^FuzzLine$$' -fuzztime $(FUZZTIME) ./hud/text
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeLaunch$$' -fuzztime $(FUZZTIME) ./hud/activity
	$(GO) test -run '^$$' -fuzz '^FuzzAsEncodingJSON$$' -fuzztime $(FUZZTIME) ./internal/jsonfields
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./internal/jsonfields

## e2e: the real Claude Code CLI in tmux against a local stand-in API, the
## oldest supported and the newest tested release side by side (named in
## scripts/e2e/claude-code-versions; one release: CLAUDE_CODE_VERSION=X make e2e)
e2e: build
	./scripts/e2e/run.sh

## e2e-latest: the same suite against the release npm calls latest (asked of
## npm, installed once into the shared cache): a new Claude Code checked in
## one command, before it becomes the newest tested; fails when npm cannot say
e2e-latest: build
	CLAUDE_CODE_VERSION=latest ./scripts/e2e/run.sh

## soak: the newest tested Claude Code release driven at random in tmux for
## SOAK_S seconds (default 120, the short run `make test` has; SOAK_SEED
## changes the steps), hud's state sampled every 250 ms beside Claude's own
## status; report in bin/e2e/soak-<release>.md
soak: build
	./scripts/e2e/run.sh --soak

## agents-e2e: the other coding agents' real CLIs (scripts/e2e/agent-versions)
## in tmux against loopback stand-ins for their model APIs
agents-e2e: build
	./scripts/agents/run.sh

## desktop-test: the tray under Xvfb + xfce4-panel + dunst, read back over D-Bus
desktop-test: build
	./scripts/desktop/run.sh

## focus-test: a click brings the exact terminal forward, no notification comes for the terminal in front, the away push fires when you left: on X11 (Xvfb + xfwm4) and on sway, KWin and GNOME Shell headless
focus-test: build
	HUD_FOCUS=1 HUD_BIN=$(CURDIR)/$(BIN)/hud HUD_HOOK_BIN=$(CURDIR)/$(BIN)/hud-hook \
	  $(GO) test -count=1 -v -timeout 20m -parallel 4 ./scripts/focus/

## remote-test: remote machines against a real sshd on the loopback
remote-test: build
	./scripts/remote/run.sh

## screenshot: the README's pictures (docs/screenshot.png, docs/menu.png), played on the test desktop
screenshot: build
	UPDATE_SCREENSHOT=1 ./scripts/desktop/run.sh

## bench: figures for docs/performance.md
bench: build
	$(GO) run ./scripts/bench

install: build
	install -d $(PREFIX)/bin
	install -m 0755 $(BIN)/hud $(BIN)/hud-hook $(PREFIX)/bin/

uninstall:
	rm -f $(PREFIX)/bin/hud $(PREFIX)/bin/hud-hook

generate:
	$(GO) generate ./...

clean:
	rm -rf $(BIN) $(DIST)

include packaging/dist.mk
