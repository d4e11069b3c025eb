package dev.collsim.simulator.network;

/**
 * How busy one directed link was over a simulation.
 *
 * @param link        link id, e.g. {@code leaf0>spine1#0}
 * @param capacityGBps capacity, GB/s
 * @param bytes       bytes carried
 * @param utilization bytes / (capacity x simulated time), in [0, 1]
 */
public record LinkUsage(String link, double capacityGBps, double bytes, double utilization) {
}
