package dev.collsim.topology;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PCI Express generations, with the physical data rate per lane and NCCL's speed code.
 *
 * <p>Physical bandwidth per lane and direction after line encoding: Gen1/Gen2 use 8b/10b (2.5 and 5 GT/s give 0.25
 * and 0.5 GB/s), Gen3 to Gen5 use 128b/130b (8, 16, 32 GT/s give 0.985, 1.969, 3.938 GB/s), Gen6 uses 64 GT/s PAM4
 * with 242/256-byte FLITs (7.56 GB/s) (PCI-SIG base specifications 1.0 to 6.0). NCCL's speed code per lane is 15,
 * 30, 60, 120, 240, 480 and its link bandwidth is {@code width x code / 80} GB/s (NCCL 2.30 {@code src/graph/topo.cc},
 * nccl-model.md section 5.2), so Gen3 x16 = 12, Gen4 x16 = 24, Gen5 x16 = 48 GB/s.
 */
public enum PcieGen {
    /** 2.5 GT/s. */ GEN1(2.5, 0.25, 15),
    /** 5 GT/s. */ GEN2(5.0, 0.5, 30),
    /** 8 GT/s. */ GEN3(8.0, 8.0 * 128 / 130 / 8, 60),
    /** 16 GT/s. */ GEN4(16.0, 16.0 * 128 / 130 / 8, 120),
    /** 32 GT/s. */ GEN5(32.0, 32.0 * 128 / 130 / 8, 240),
    /** 64 GT/s. */ GEN6(64.0, 64.0 * 242 / 256 / 8, 480);

    private static final Pattern GEN_TEXT = Pattern.compile("(?i)gen\\s*([1-6])");

    private final double gtPerSecond;
    private final double gbpsPerLane;
    private final int ncclSpeedCode;

    PcieGen(double gtPerSecond, double gbpsPerLane, int ncclSpeedCode) {
        this.gtPerSecond = gtPerSecond;
        this.gbpsPerLane = gbpsPerLane;
        this.ncclSpeedCode = ncclSpeedCode;
    }

    /** @return transfer rate per lane in GT/s */
    public double gtPerSecond() {
        return gtPerSecond;
    }

    /** @return physical bandwidth per lane and direction in GB/s (after encoding) */
    public double gbpsPerLane() {
        return gbpsPerLane;
    }

    /** @return NCCL's speed code per lane (NCCL 2.30 {@code src/graph/topo.cc}) */
    public int ncclSpeedCode() {
        return ncclSpeedCode;
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
}
