# make dist: the release artifacts, reproducibly.
#
#   dist/hud_<version>_<os>_<arch>.tar.gz   hud, hud-hook, README.md, LICENSE
#   dist/hud_<version>-1_<arch>.deb, dist/hud-<version>-1.<arch>.rpm
#   dist/hud_<version>_src.tar.gz           the source, for the Homebrew formula
#   dist/homebrew/Formula/hud.rb            the formula for that source
#   dist/SHA256SUMS
#
# Reproducible: the same commit gives the same bytes, on any machine with
# the same Go. Binaries are built with -trimpath and no build id or VCS
# stamp (the commit is set explicitly); every file in an archive or
# package gets the commit's time (SOURCE_DATE_EPOCH), owner root, normalised
# permissions and a sorted place; gzip leaves out name and time.
# `make dist-check` builds everything twice and compares the checksums.
#
# macOS: the archives built here hold hud-hook and the command line, but no
# menu bar, which needs cgo and Cocoa (a build on a Mac with the Xcode
# command line tools; the Homebrew formula does that).

.PHONY: dist dist-check package-test

DIST      := dist
PLATFORMS := linux_amd64 linux_arm64 darwin_amd64 darwin_arm64
DEB_ARCHS := amd64 arm64
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
export SOURCE_DATE_EPOCH
# nfpm from the Go module proxy, pinned: the same version builds the same
# packages.
NFPM      ?= $(GO) run github.com/goreleaser/nfpm/v2/cmd/nfpm@v2.45.2
DIST_LDFLAGS := $(LDFLAGS) -buildid=
TAR       := tar --sort=name --mtime=@$(SOURCE_DATE_EPOCH) --owner=0 --group=0 \
             --numeric-owner --mode=u+rwX,go+rX,go-w --format=ustar

ARCHIVES  := $(foreach p,$(PLATFORMS),$(DIST)/hud_$(VERSION)_$(p).tar.gz)
DEBS      := $(foreach a,$(DEB_ARCHS),$(DIST)/hud_$(VERSION)-1_$(a).deb)
RPMS      := $(DIST)/hud-$(VERSION)-1.x86_64.rpm $(DIST)/hud-$(VERSION)-1.aarch64.rpm
SRC       := $(DIST)/hud_$(VERSION)_src.tar.gz

dist: $(DIST)/SHA256SUMS $(DIST)/homebrew/Formula/hud.rb
	@echo "dist: hud $(VERSION) ($(COMMIT)) in $(DIST)/"

$(DIST)/SHA256SUMS: $(ARCHIVES) $(DEBS) $(RPMS) $(SRC)
	cd $(DIST) && sha256sum $(notdir $^) > SHA256SUMS

# Binaries, one directory per platform. FORCE: go build decides what is
# stale, far better than make's timestamps could.
$(DIST)/build/%/hud $(DIST)/build/%/hud-hook: FORCE
	@mkdir -p $(DIST)/build/$*
	GOOS=$(word 1,$(subst _, ,$*)) GOARCH=$(word 2,$(subst _, ,$*)) CGO_ENABLED=0 \
	  $(GO) build -trimpath -buildvcs=false -ldflags '$(DIST_LDFLAGS)' -o $(DIST)/build/$*/ ./cmd/hud ./cmd/hud-hook

$(DIST)/hud_$(VERSION)_%.tar.gz: $(DIST)/build/%/hud $(DIST)/build/%/hud-hook README.md LICENSE
	rm -rf $(DIST)/stage/$* && mkdir -p $(DIST)/stage/$*/hud_$(VERSION)_$*
	cp $(DIST)/build/$*/hud $(DIST)/build/$*/hud-hook README.md LICENSE $(DIST)/stage/$*/hud_$(VERSION)_$*/
	$(TAR) -C $(DIST)/stage/$* -cf - hud_$(VERSION)_$* | gzip -9n > $@

# The packages' changelog: one entry, this release, dated by its commit.
$(DIST)/build/changelog.yml: FORCE
	@mkdir -p $(dir $@)
	printf -- '- semver: %s-1\n  date: %s\n  packager: the hud authors <hud@capacitor-hud.github.io>\n  deb: {urgency: medium, distributions: [stable]}\n  changes:\n    - commit: %s\n      note: hud %s (https://github.com/capacitor-hud/hud/releases)\n' \
	  '$(VERSION)' "$$(date -u -d @$(SOURCE_DATE_EPOCH) +%Y-%m-%dT%H:%M:%SZ)" '$(COMMIT)' '$(VERSION)' > $@

# The manual pages, from the commands' own --help (scripts/mangen).
MANPAGES := $(DIST)/build/man/hud.1.gz $(DIST)/build/man/hud-hook.1.gz
$(MANPAGES) &: FORCE
	@mkdir -p $(DIST)/build/man
	$(GO) run ./scripts/mangen $(DIST)/build/man '$(VERSION)'
	gzip -9nf $(DIST)/build/man/hud.1 $(DIST)/build/man/hud-hook.1

PKG_DEPS  := $(DIST)/build/changelog.yml $(MANPAGES) packaging/nfpm.yaml packaging/linux/*

$(DIST)/hud_$(VERSION)-1_%.deb: $(DIST)/build/linux_%/hud $(DIST)/build/linux_%/hud-hook $(PKG_DEPS)
	VERSION=$(VERSION) ARCH=$* BUILD=$(DIST)/build/linux_$* $(NFPM) package -f packaging/nfpm.yaml -p deb -t $@

$(DIST)/hud-$(VERSION)-1.x86_64.rpm: $(DIST)/build/linux_amd64/hud $(DIST)/build/linux_amd64/hud-hook $(PKG_DEPS)
	VERSION=$(VERSION) ARCH=amd64 BUILD=$(DIST)/build/linux_amd64 $(NFPM) package -f packaging/nfpm.yaml -p rpm -t $@
$(DIST)/hud-$(VERSION)-1.aarch64.rpm: $(DIST)/build/linux_arm64/hud $(DIST)/build/linux_arm64/hud-hook $(PKG_DEPS)
	VERSION=$(VERSION) ARCH=arm64 BUILD=$(DIST)/build/linux_arm64 $(NFPM) package -f packaging/nfpm.yaml -p rpm -t $@

# The committed tree at HEAD (git archive stamps the commit's time itself).
$(SRC): FORCE
	@mkdir -p $(DIST)
	git archive --format=tar --prefix=hud-$(VERSION)/ HEAD | gzip -9n > $@

$(DIST)/homebrew/Formula/hud.rb: packaging/homebrew/hud.rb.in $(SRC)
	@mkdir -p $(dir $@)
	sed -e 's/@VERSION@/$(VERSION)/g' -e "s/@SHA256@/$$(sha256sum $(SRC) | cut -d' ' -f1)/g" $< > $@

## dist-check: build every artifact twice and compare the checksums
dist-check:
	rm -rf $(DIST) && $(MAKE) --no-print-directory dist
	mv $(DIST) $(DIST).first
	$(MAKE) --no-print-directory dist
	@if diff -u $(DIST).first/SHA256SUMS $(DIST)/SHA256SUMS; then \
	  echo "dist-check: $$(wc -l < $(DIST)/SHA256SUMS) artifacts, byte for byte the same twice"; rm -rf $(DIST).first; \
	else echo "dist-check: the second build differs (kept in $(DIST).first)"; exit 1; fi

.PHONY: FORCE
# Kept between runs: go build is what decides whether they are current.
.PRECIOUS: $(DIST)/build/%/hud $(DIST)/build/%/hud-hook
FORCE:

## package-test: build the .deb, install it, use it from /usr/bin, purge it
package-test:
	./scripts/package/run.sh
