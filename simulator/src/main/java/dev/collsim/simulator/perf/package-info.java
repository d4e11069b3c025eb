/**
 * collsim's prediction of the real time, kept apart from NCCL's own estimate: the calibratable
 * {@link dev.collsim.simulator.perf.PerformanceParameters}, the collective model
 * ({@link dev.collsim.simulator.perf.PerformanceModel}), point-to-point collectives
 * ({@link dev.collsim.simulator.perf.P2pModel}) and the hardware bound
 * ({@link dev.collsim.simulator.perf.PhysicalBound}). Imports channel, tuning and env.
 */
package dev.collsim.simulator.perf;
