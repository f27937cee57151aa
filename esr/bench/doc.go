// Package bench reads, validates and writes ESR-Bench files (spec §8):
// streams.jsonl, atoms.jsonl, qa.jsonl and the optional relations.jsonl of
// gold atom-pair relations. Every problem is reported with the file, the line
// and the field; nothing is silently dropped.
package bench
