package dev.collsim.topology.fabric;

import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.util.Objects;

/**
 * How hosts are networked. This record is immutable.
 *
 * @param kind             shape
 * @param linkSpeed        speed of every fabric cable per direction (NIC-leaf and leaf-spine ports); null means the
 *                         NICs' own speed
 * @param oversubscription leaf downlink bandwidth / leaf uplink bandwidth, e.g. 2.0 for "2:1"; >= 1 (1 = non-blocking)
 * @param leafRadix        downlink ports per leaf, >= 1 (default {@link #DEFAULT_LEAF_RADIX})
 * @param planes           independent network planes, >= 1; NIC rail r is on plane r mod planes
 * @param switchLatency    latency of one switch traversal, charged on each link entering a switch
 */
public record FabricSpec(FabricKind kind, Bandwidth linkSpeed, double oversubscription, int leafRadix, int planes,
        Latency switchLatency) {

    /**
     * Default downlinks per leaf: 32, half of a 64-port 400 Gb/s switch (NVIDIA Quantum-2 QM9700: 64 NDR ports; DGX
     * H100 SuperPOD reference architecture uses 32 down / 32 up per leaf).
     */
    public static final int DEFAULT_LEAF_RADIX = 32;

    /** Default switch latency, 0.6 us (InfiniBand NDR switch port-to-port, NVIDIA QM9700 datasheet: below 0.6 us). */
    public static final Latency DEFAULT_SWITCH_LATENCY = Latency.ofMicros(0.6);

    /**
     * Largest oversubscription (down:up) a spec may ask for. Real leaf switches are built 1:1 to about 4:1; 64
     * leaves room for what-ifs while refusing a typo such as 1e300:1 (which would make every uplink carry nothing).
     */
    public static final double MAX_OVERSUBSCRIPTION = 64;

    /** @throws IllegalArgumentException on oversubscription below 1 or above 64, radix or planes below 1 */
    public FabricSpec {
        Objects.requireNonNull(kind, "kind");
        switchLatency = switchLatency == null ? DEFAULT_SWITCH_LATENCY : switchLatency;
        if (!(oversubscription >= 1.0 && oversubscription <= MAX_OVERSUBSCRIPTION)) {
            throw new IllegalArgumentException("oversubscription must be from 1 to " + (int) MAX_OVERSUBSCRIPTION
                    + " (e.g. 2 for 2:1), got " + oversubscription);
        }
        if (leafRadix < 1 || planes < 1) {
            throw new IllegalArgumentException("leafRadix and planes must be >= 1, got " + leafRadix + ", " + planes);
        }
    }

    /** @param kind shape; @return a non-blocking single-plane spec with default radix and latency */
    public static FabricSpec of(FabricKind kind) {
        return new FabricSpec(kind, null, 1.0, DEFAULT_LEAF_RADIX, 1, DEFAULT_SWITCH_LATENCY);
    }

    /**
     * What an oversubscription may be written as, for refusals: the one text that cluster YAML, report variants and
     * {@code --oversubscription} print after "allowed: ".
     */
    public static final String RATIO_ALLOWED = "down/up from 1 to 64 as a number (2) or as down:up with down >= up"
            + " > 0, e.g. 1:1 or 2:1";

    /**
     * Parses an oversubscription ratio, the one parser for every input: {@code "2:1"}, {@code "1.5:1"} or the bare
     * ratio {@code "2"} (= 2:1).
     *
     * @param text the ratio
     * @return downlink / uplink, from 1 to {@link #MAX_OVERSUBSCRIPTION}
     * @throws IllegalArgumentException ("found '...'; allowed: " {@link #RATIO_ALLOWED}) when neither a number
     *     from 1 to 64 nor of the form {@code a:b} with a >= b > 0 and a / b at most 64
     */
    public static double parseRatio(String text) {
        String t = text == null ? "" : text.trim();
        String[] parts = t.split("\\s*:\\s*");
        try {
            double r = parts.length == 2 ? Double.parseDouble(parts[0]) / Double.parseDouble(parts[1])
                    : parts.length == 1 && t.matches("\\d+(\\.\\d*)?") ? Double.parseDouble(t) : Double.NaN;
            boolean upPositive = parts.length != 2 || Double.parseDouble(parts[1]) > 0;
            if (upPositive && r >= 1 && r <= MAX_OVERSUBSCRIPTION) {
                return r;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("found '" + text + "'; allowed: " + RATIO_ALLOWED);
    }
}
