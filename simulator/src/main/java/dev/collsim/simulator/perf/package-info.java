/**
 * collsim's prediction of the real time, kept apart from NCCL's own estimate: the calibratable
 * {@link dev.collsim.simulator.perf.PerformanceParameters}, the collective model
 * ({@link dev.collsim.simulator.perf.PerformanceModel}), point-to-point collectives
 * ({@link dev.collsim.simulator.perf.P2pModel}), with the hardware bound of
 * {@link dev.collsim.simulator.bound.PhysicalBound}. Imports channel, tuning, bound and env.
 */
package dev.collsim.simulator.perf;
