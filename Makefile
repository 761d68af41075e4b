# Tengen: the referee kiosk for physical Go boards.
# make run   builds and starts the kiosk (the built-in demo when no camera is configured)
# make test  installs what is missing, then runs every test
export PATH := /usr/local/go/bin:$(PATH)
GO      ?= go
BIN     := bin/kiosk

.PHONY: run test deps build bench pi oracle clean

deps:
	scripts/install-deps

# bin/kiosk and its camera helper bin/kiosk-camera, linked as scripts/build explains.
build: deps
	GO=$(GO) scripts/build bin

run: build
	$(BIN) run $(ARGS)

test: deps
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 45m ./...
	cd internal/localeenv && $(GO) vet ./... && $(GO) test -count=1 ./...
	scripts/oracle --ci

bench: deps
	$(GO) test -run '^$$' -bench . -benchmem -count 1 ./...

oracle: build
	scripts/oracle

# The linux/arm64 binary for the Raspberry Pi, cross-built in a Debian 12 arm64 root (needs root).
pi:
	scripts/ci-arm64 --build-only

clean:
	rm -rf bin
