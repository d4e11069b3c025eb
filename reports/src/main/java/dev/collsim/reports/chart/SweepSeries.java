package dev.collsim.reports.chart;

import java.util.List;

/**
 * A size sweep of one collective under one setting (one cluster variant, or one algorithm/protocol), for the bus
 * bandwidth chart. This record is immutable.
 *
 * @param name     legend text
 * @param points   predicted points by increasing size
 * @param measured measured points (nccl-tests or collsim run), possibly empty
 */
public record SweepSeries(String name, List<Point> points, List<Measured> measured) {

    /** Copies the lists. */
    public SweepSeries {
        points = List.copyOf(points);
        measured = List.copyOf(measured == null ? List.of() : measured);
    }

    /**
     * One predicted point.
     *
     * @param sizeBytes  nccl-tests size, bytes
     * @param timeUs     predicted time, microseconds
     * @param busBw      predicted busbw, GB/s
     * @param boundBusBw physical bound on busbw, GB/s
     * @param algorithm  NCCL algorithm predicted
     * @param protocol   NCCL protocol predicted
     */
    public record Point(long sizeBytes, double timeUs, double busBw, double boundBusBw, String algorithm,
            String protocol) {
    }

    /**
     * One measured point.
     *
     * @param sizeBytes nccl-tests size, bytes
     * @param timeUs    measured time, microseconds
     * @param busBw     measured busbw, GB/s
     */
    public record Measured(long sizeBytes, double timeUs, double busBw) {
    }
}
