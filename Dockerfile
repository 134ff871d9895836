# syntax=docker/dockerfile:1
# The image behind `uses: agcgate/agc-action@v1`: a static agc-sarif built
# by the same Makefile target the tests use, on a small non-root base with
# what it needs at run time (CA certificates for the GitHub API, git for
# scoped fingerprints).
FROM golang:1.26-alpine AS build
RUN apk add --no-cache make git
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN make build VERSION=${VERSION}

FROM alpine:3.22
RUN apk add --no-cache ca-certificates git \
 && git config --system --add safe.directory '*' \
 && adduser -D -u 10001 agc
COPY --from=build /src/bin/agc-sarif /usr/local/bin/agc-sarif
USER 10001
ENTRYPOINT ["/usr/local/bin/agc-sarif"]
CMD ["action"]
