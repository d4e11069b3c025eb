package dev.collsim.hardware;

import dev.collsim.units.Bandwidth;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PCI Express generations with their physical (specification) data rates: the one home of PCIe datasheet figures.
 *
 * <p>Physical bandwidth per lane and direction after line encoding: Gen1/Gen2 use 8b/10b (2.5 and 5 GT/s give 0.25
 * and 0.5 GB/s), Gen3 to Gen5 use 128b/130b (8, 16, 32 GT/s give 0.985, 1.969, 3.938 GB/s), Gen6 uses 64 GT/s PAM4
 * with 242/256-byte FLITs (7.5625 GB/s) (PCI-SIG base specifications 1.0 to 6.0). An x16 link therefore moves 15.754
 * (Gen3), 31.508 (Gen4), 63.015 (Gen5) and 121.0 (Gen6) GB/s per direction (GB = 1e9 B).
 *
 * <p>NCCL does not use these rates: its own PCIe bandwidth ({@code width x speed code / 80}, Gen3 x16 = 12 GB/s) is
 * {@code dev.collsim.topology.NcclBandwidths#pcie}.
 */
public enum PcieGen {
    /** 2.5 GT/s. */ GEN1(2.5, 0.25),
    /** 5 GT/s. */ GEN2(5.0, 0.5),
    /** 8 GT/s. */ GEN3(8.0, 8.0 * 128 / 130 / 8),
    /** 16 GT/s. */ GEN4(16.0, 16.0 * 128 / 130 / 8),
    /** 32 GT/s. */ GEN5(32.0, 32.0 * 128 / 130 / 8),
    /** 64 GT/s. */ GEN6(64.0, 64.0 * 242 / 256 / 8);

    private static final Pattern GEN_TEXT = Pattern.compile("(?i)gen\\s*([1-6])");
    private static final Pattern DETAIL = Pattern.compile("PCIe Gen([1-6]) x(\\d+).*");

    private final double gtPerSecond;
    private final double gbpsPerLane;

    PcieGen(double gtPerSecond, double gbpsPerLane) {
        this.gtPerSecond = gtPerSecond;
        this.gbpsPerLane = gbpsPerLane;
    }

    /** @return transfer rate per lane in GT/s */
    public double gtPerSecond() {
        return gtPerSecond;
    }

    /** @return physical bandwidth per lane and direction in GB/s (after encoding) */
    public double gbpsPerLane() {
        return gbpsPerLane;
    }

    /**
     * @param width lanes, >= 1
     * @return the physical bandwidth of a link of this generation and width, per direction
     * @throws IllegalArgumentException when width is below 1
     */
    public Bandwidth physical(int width) {
        if (width < 1) {
            throw new IllegalArgumentException("PCIe width must be >= 1, got " + width);
        }
        return Bandwidth.ofGBps(gbpsPerLane * width);
    }

    /**
     * The generation whose transfer rate per lane is {@code gtps}.
     *
     * @param gtps GT/s per lane, e.g. 16.0
     * @return the generation, or null when the rate is not a PCIe rate
     */
    public static PcieGen ofGtPerSecond(double gtps) {
        for (PcieGen g : values()) {
            if (Math.abs(g.gtPerSecond - gtps) < 1e-9) {
                return g;
            }
        }
        return null;
    }

    /** @return the generation number, 1 to 6 */
    public int number() {
        return ordinal() + 1;
    }

    /**
     * @param number 1 to 6
     * @return the generation
     * @throws IllegalArgumentException outside 1..6
     */
    public static PcieGen of(int number) {
        if (number < 1 || number > 6) {
            throw new IllegalArgumentException("PCIe generation must be 1 to 6, got " + number);
        }
        return values()[number - 1];
    }

    /**
     * Finds the generation named in a link detail text such as {@code "PCIe Gen4 x16"}.
     *
     * @param detail the text
     * @return the generation, or null if the text names none
     */
    public static PcieGen fromDetail(String detail) {
        Matcher m = GEN_TEXT.matcher(detail == null ? "" : detail);
        return m.find() ? of(Integer.parseInt(m.group(1))) : null;
    }

    /**
     * The generation whose per-lane physical bandwidth is nearest to {@code gbpsPerLane} (used when a link's detail
     * text does not name its generation).
     *
     * @param gbpsPerLane GB/s per lane and direction
     * @return the nearest generation
     */
    public static PcieGen nearest(double gbpsPerLane) {
        PcieGen best = GEN3;
        double bestErr = Double.MAX_VALUE;
        for (PcieGen g : values()) {
            double err = Math.abs(Math.log(gbpsPerLane / g.gbpsPerLane));
            if (err < bestErr) {
                bestErr = err;
                best = g;
            }
        }
        return best;
    }

    /** @param width lanes; @return the conventional detail text, e.g. {@code PCIe Gen5 x16} */
    public String detail(int width) {
        return "PCIe Gen" + number() + " x" + width; // as String.format(ROOT, "PCIe Gen%d x%d"), cheaper
    }

    /**
     * Reads the generation and width back from a link detail that starts with {@link #detail(int)}'s text.
     *
     * @param detail link detail text
     * @return {generation number, width}, or null when the detail does not start with {@code PCIe GenN xW}
     */
    public static int[] parseDetail(String detail) {
        Matcher m = DETAIL.matcher(detail == null ? "" : detail);
        return m.matches() ? new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))} : null;
    }
}
