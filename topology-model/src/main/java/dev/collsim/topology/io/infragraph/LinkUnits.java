package dev.collsim.topology.io.infragraph;

import dev.collsim.io.NumberField;
import dev.collsim.io.yaml.YamlNode;
import dev.collsim.topology.io.Problems;

/**
 * Reads an InfraGraph link's {@code physical.bandwidth} and {@code physical.latency} ({@code schema/link.yaml}: a
 * {@code choice} of unit and the value under the unit's key). Bandwidth in GB/s (1e9 B/s): gigabits per second are
 * divided by 8; gigatransfers per second are refused, as they need the encoding and lane count the link does not
 * carry. Latency in microseconds.
 */
final class LinkUnits {

    private static final String[] BW_UNITS = {"gigabits_per_second", "gigabytes_per_second",
        "gigatransfers_per_second"};
    private static final String[] LAT_UNITS = {"ms", "us", "ns"};

    private LinkUnits() {
    }

    /** @return GB/s per direction, or NaN when {@code bw} is absent or refused (refusals go to problems) */
    static double gbps(YamlNode bw, Problems problems) {
        if (bw == null) {
            return Double.NaN;
        }
        String unit = unit(bw, BW_UNITS, problems);
        if (unit == null) {
            return Double.NaN;
        }
        if (unit.equals("gigatransfers_per_second")) {
            problems.add(bw.get(unit), "bandwidth." + unit, "not read: GT/s does not give bytes per second without"
                    + " the lane count and encoding; allowed: gigabits_per_second, gigabytes_per_second");
            return Double.NaN;
        }
        double v = number(bw.get(unit), "bandwidth." + unit, false, problems);
        return unit.equals("gigabits_per_second") ? v / 8 : v;
    }

    /** @return microseconds, 0 when {@code lat} is absent or refused (refusals go to problems) */
    static double latencyUs(YamlNode lat, Problems problems) {
        if (lat == null) {
            return 0;
        }
        String unit = unit(lat, LAT_UNITS, problems);
        if (unit == null) {
            return 0;
        }
        double v = number(lat.get(unit), "latency." + unit, true, problems);
        if (Double.isNaN(v)) {
            return 0;
        }
        return switch (unit) {
            case "ms" -> v * 1000;
            case "ns" -> v / 1000;
            default -> v;
        };
    }

    /** The unit: {@code choice}, or the one unit key present. */
    private static String unit(YamlNode n, String[] units, Problems problems) {
        YamlNode choice = n.get("choice");
        String allowed = String.join(", ", units);
        if (choice != null) {
            for (String u : units) {
                if (u.equals(choice.text())) {
                    if (n.get(u) == null) {
                        problems.add(choice, "choice", "'" + u + "' is chosen but has no value under '" + u + "'");
                        return null;
                    }
                    return u;
                }
            }
            problems.add(choice, "choice", "found " + choice.found() + "; allowed: " + allowed);
            return null;
        }
        for (String u : units) {
            if (n.get(u) != null) {
                return u;
            }
        }
        problems.add(n, n.path(), "no unit; allowed: choice with one of " + allowed);
        return null;
    }

    private static double number(YamlNode v, String field, boolean zero, Problems problems) {
        if (v == null || !v.isScalar()) {
            problems.add(v, field, "found " + (v == null ? "nothing" : v.found()) + "; allowed: a number > 0");
            return Double.NaN;
        }
        try {
            double d = NumberField.finite(v.text(), field, v.column());
            if (d > 0 || zero && d == 0) {
                return d;
            }
            problems.add(v, field, "found " + v.found() + "; allowed: a number " + (zero ? ">= 0" : "> 0"));
        } catch (NumberField.Refused e) {
            problems.add(v, field, e.getMessage());
        }
        return Double.NaN;
    }
}
