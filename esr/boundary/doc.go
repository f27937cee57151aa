// Package boundary is where the paper's claims hold and where they stop:
// the noise sweeps (§4.2, Appendix C: Table 13, Figure 5), the per-stratum
// table and stream-length bins (§4.4: Tables 5 and 12), the
// cross-source-conflict path chain and the REFINES recovery (Appendix B:
// Tables 4 and 7–10), the external benchmarks (Appendix D) and deployed
// memories (Graphiti, Mem0, exec: adapters) under the render-matched
// protocol, and the benchmarks' own descriptors (Table 1).
package boundary
