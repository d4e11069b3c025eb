package dev.collsim.simulator.perf;

/**
 * collsim's predicted real time of one call with a given algorithm and protocol.
 *
 * @param timeUs     predicted time, microseconds
 * @param channels   runtime channels the call uses
 * @param latencyUs  latency part (launch overhead + NCCL latency x scale + pipeline fill), microseconds
 * @param algBw      bandwidth part as algorithm bandwidth, GB/s (1e9 B/s)
 * @param bottleneck what limits the bandwidth part, in words
 */
public record PerfEstimate(double timeUs, int channels, double latencyUs, double algBw, String bottleneck) {
}
