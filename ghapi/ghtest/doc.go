// Package ghtest is a GitHub emulator for tests: an httptest.Server that
// checks every request (method, path, query, JSON body) against GitHub's own
// OpenAPI description (a committed subset of @octokit/openapi 23.0.2, see
// openapi/README.md), fails the test on any request the description does not
// allow or on any endpoint ghapi does not use, counts requests per operation,
// and holds GitHub-like state: pull requests with files and patches computed
// from their contents, reviews, review comments and threads (also through
// GraphQL, whose requests are checked against GitHub's GraphQL schema, a
// committed subset of @octokit/graphql-schema 15.26.1, see graphql/README.md),
// check runs, commit statuses and SARIF uploads, and the pull requests a
// commit belongs to or was merged by (Merge).
//
// It behaves like GitHub where it bites: 422 for a review comment outside
// the diff (the whole review fails), for a status description over 140
// characters and for more than 50 annotations in one check-run request; 403
// "Resource not accessible by integration" for a read-only token; 413 for a
// SARIF upload over 10 MB gzipped; Link-header pagination. Secondary and
// primary rate limits and 5xx answers are injected on demand with Inject.
//
// It listens on loopback only.
package ghtest
