# syntax=docker/dockerfile:1
# The image behind `uses: agcgate/agc-action@v1` on Linux runners with
# Docker: a static agc-sarif built by the same Makefile target the tests
# use, on a small non-root base with what it needs at run time (CA
# certificates for the GitHub API, git for scoped fingerprints). The
# release builds it for linux/amd64 and linux/arm64; Go cross-compiles on
# the builder's own platform, so only the base's packages are installed
# under emulation.
FROM --platform=$BUILDPLATFORM golang:1.26-alpine AS build
RUN apk add --no-cache make git
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
ARG COMMIT=
ARG TARGETOS
ARG TARGETARCH
RUN GOOS=${TARGETOS} GOARCH=${TARGETARCH} make build VERSION=${VERSION} COMMIT=${COMMIT}

FROM alpine:3.22
RUN apk add --no-cache ca-certificates git \
 && git config --system --add safe.directory '*' \
 && adduser -D -u 10001 agc
COPY --from=build /src/bin/agc-sarif /usr/local/bin/agc-sarif
USER 10001
ENTRYPOINT ["/usr/local/bin/agc-sarif"]
CMD ["action"]
