// Package external answers Appendix D's question: do the findings hold on
// benchmarks the paper did not build (DyKnow, TempLAMA-style facts)? It
// holds the external provenance table, the snapshot ceiling and the DyKnow
// RAG table.
package external
