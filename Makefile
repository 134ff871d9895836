# One place for how agc-sarif is built and tested; the Dockerfile, CI and
# the README use these targets. `make help` lists them.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null)
LDFLAGS := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT)
GOFLAGS_BUILD := -trimpath -ldflags "$(LDFLAGS)"
GO_FILES = $(shell git ls-files '*.go')

.PHONY: help build demo test setup lint fuzz bench bench-compare release-snapshot screenshots

## help: list the targets
help:
	@sed -n 's/^## \([a-z-]*\): \(.*\)/  \1\t\2/p' $(MAKEFILE_LIST) | expand -t 20

## build: the static agc-sarif binary in bin/ (the same flags as the Dockerfile)
build:
	CGO_ENABLED=0 go build $(GOFLAGS_BUILD) -o bin/agc-sarif ./cmd/agc-sarif

## demo: run agc-sarif on the bundled fixtures
demo: build
	./scripts/demo.sh bin/agc-sarif

## setup: install the pinned tools the tests, linters and release use into tools/ (npm, Go proxy; shellcheck from Debian)
setup:
	./scripts/setup.sh

## test: everything CI runs: setup, lint, the whole test suite (missing tools fail, not skip)
test: setup lint
	AGC_REQUIRE_TOOLS=1 go test -count=1 -timeout 30m ./...

## lint: gofmt, goimports, go vet and staticcheck (pinned in scripts/setup.sh)
lint:
	@./scripts/setup.sh lint
	@out=$$(gofmt -l $(GO_FILES)); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	@out=$$(tools/bin/goimports -l $(GO_FILES)); if [ -n "$$out" ]; then echo "goimports would change:"; echo "$$out"; exit 1; fi
	go vet ./...
	tools/bin/staticcheck ./...

## release-snapshot: the six release archives and checksums.txt of HEAD in dist/, built here with no network (GoReleaser)
release-snapshot:
	@./scripts/setup.sh release
	./scripts/release-build.sh

## fuzz: run every fuzz target for FUZZTIME (default 60s) each
FUZZTIME ?= 60s
fuzz:
	./scripts/fuzz.sh $(FUZZTIME)

## screenshots: photograph the review/testdata/looks goldens into docs/img (cmark-gfm, headless Chromium; not in CI)
screenshots:
	./scripts/screenshots.sh

## bench: the benchmarks named by the issues (benchstat-comparable, BENCHCOUNT runs each), then the built binary beside the floor and the peers
BENCHCOUNT ?= 6
bench:
	go test -run '^$$' -bench . -benchmem -count=$(BENCHCOUNT) ./...
	./scripts/bench-convert.sh 25000 2000 $(BENCHCOUNT)
	./scripts/bench-convert.sh 1000000 20000 3 lean
	./scripts/bench-fingerprint.sh 100000 9

## bench-compare: make bench for BASE (a commit) and this checkout side by side in one run (BASE=8373427 make bench-compare)
bench-compare:
	BENCHCOUNT=$(BENCHCOUNT) ./scripts/bench-compare.sh $(BASE)
