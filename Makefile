# One place for how agc-sarif is built and tested; the Dockerfile, CI and
# the README use these targets.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)
GOFLAGS_BUILD := -trimpath -ldflags "$(LDFLAGS)"

.PHONY: build demo test setup fuzz bench lint

## build: the static agc-sarif binary in bin/ (the same flags as the Dockerfile)
build:
	CGO_ENABLED=0 go build $(GOFLAGS_BUILD) -o bin/agc-sarif ./cmd/agc-sarif

## demo: run agc-sarif on the bundled fixtures
demo: build
	./scripts/demo.sh bin/agc-sarif

## setup: install the pinned external tools the tests use (npm, Go proxy)
setup:
	./scripts/setup.sh

## test: everything CI runs: setup, formatting, vet, the whole test suite
test: setup lint
	go test -count=1 ./...

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	go vet ./...

## fuzz: run every fuzz target for FUZZTIME (default 60s) each
FUZZTIME ?= 60s
fuzz:
	./scripts/fuzz.sh $(FUZZTIME)

## bench: the benchmarks named by the issues
bench:
	go test -run '^$$' -bench . -benchmem ./...
