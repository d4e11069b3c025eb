package dev.collsim.simulator.network;

import java.util.List;
import java.util.Locale;

/**
 * How busy one directed link was over a simulation.
 *
 * @param link        link id, e.g. {@code leaf0>spine1#0}
 * @param capacityGBps capacity, GB/s
 * @param bytes       bytes carried
 * @param utilization bytes / (capacity x simulated time), in [0, 1]
 */
public record LinkUsage(String link, double capacityGBps, double bytes, double utilization) {

    /**
     * @param links busiest links, most utilized first
     * @return e.g. {@code h0/nic0>leaf0#0 99%, leaf0>spine1#0 97%}, or {@code none} when the list is empty
     */
    public static String describe(List<LinkUsage> links) {
        StringBuilder sb = new StringBuilder();
        for (LinkUsage u : links) {
            sb.append(sb.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%s %.0f%%",
                    u.link(), 100 * u.utilization()));
        }
        return sb.length() == 0 ? "none" : sb.toString();
    }
}
