// Package debian builds data/debian, a real high-clutter revision benchmark
// from Debian changelogs (issue 32): each event is one whole entry of a
// source package's debian/changelog (header, change details, trailer), and
// every gold answer is read from the entries' headers and trailers only,
// never from the prose, which is the clutter ("Thanks to …", other people's
// names, versions, bug numbers, reverted changes).
//
// Input is what scripts/build-debian.sh fetches with apt: per source
// package of data/debian/packages.txt, a folder PKG/ with changelog (the
// Debian changelog a binary package carries), copyright and SOURCE (which
// .deb it came from). Build is deterministic in those files.
//
// Per package: one stream; four atoms per entry (uploader = the trailer's
// name, distribution, urgency, and version with the facet
// "distribution=DIST"); questions per key (snapshot, provenance,
// relation-type), version questions per distribution (faceted). Strata come
// from each key's gold value sequence (LabelSequence), code of its own that
// reads no atom and shares nothing with the relation scorers or memory
// classes the benchmark tests.
//
// The changelog reader (ParseChangelog) follows deb-changelog(5): a header
// "PACKAGE (VERSION) DISTRIBUTION(S); urgency=URGENCY", change details, and
// a trailer " -- NAME <EMAIL>  DATE" with an RFC 5322 date. Bad input is an
// error naming the file, the line and the field.
package debian
