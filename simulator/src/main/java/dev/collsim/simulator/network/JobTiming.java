package dev.collsim.simulator.network;

/**
 * When one job ran.
 *
 * @param name    job name
 * @param startUs start, microseconds
 * @param endUs   end (last byte delivered), microseconds
 * @param steps   synchronous steps the schedule has, counting repeats
 */
public record JobTiming(String name, double startUs, double endUs, long steps) {

    /** @return duration in microseconds */
    public double timeUs() {
        return endUs - startUs;
    }
}
