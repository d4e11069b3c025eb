/**
 * NCCL's own analytical cost model (NCCL 2.30.7 and 2.28.9 {@code src/graph/tuning.cc}): the constant tables per
 * release ({@link dev.collsim.simulator.tuning.TuningConstants}), the latency/bandwidth table
 * ({@link dev.collsim.simulator.tuning.NcclTuningModel}) and the per-call time and argmin selection
 * ({@link dev.collsim.simulator.tuning.CostTable}). It predicts <em>which</em> algorithm and protocol NCCL picks
 * and the time NCCL itself estimates ({@code ncclGroupSimulateEnd}); collsim's prediction of the real time lives
 * in {@code dev.collsim.simulator.perf}. Imports only the topology model and {@code dev.collsim.nccl.env}.
 */
package dev.collsim.simulator.tuning;
