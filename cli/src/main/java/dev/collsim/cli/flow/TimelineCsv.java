package dev.collsim.cli.flow;

import dev.collsim.simulator.network.FlowRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** Writes {@code --timeline} CSV: one line per simulated flow, written to a temporary file then moved atomically. */
final class TimelineCsv {

    /** The header line. */
    static final String HEADER = "size,job,step,copy,copies,period_us,src_rank,dst_rank,channel,flows,bytes,"
            + "start_us,end_us";

    private TimelineCsv() {
    }

    /** One sweep point's records. */
    record Point(long size, List<FlowRecord> records) {
    }

    /**
     * @param file   target file (checked with {@link OutputPaths#check} before the simulation)
     * @param points records per size
     * @throws dev.collsim.cli.UserError (exit 3) when the file cannot be written; nothing half-written is left
     */
    static void write(Path file, List<Point> points) {
        OutputPaths.write(file, "--timeline", w -> {
            w.write(HEADER);
            w.write('\n');
            for (Point p : points) {
                for (FlowRecord r : p.records()) {
                    w.write(String.format(Locale.ROOT, "%d,%s,%d,%d,%d,%.6f,%d,%d,%d,%d,%.1f,%.6f,%.6f%n", p.size(),
                            r.job(), r.step(), r.copy(), r.copies(), r.periodUs(), r.src(), r.dst(), r.channel(),
                            r.flows(), r.bytes(), r.startUs(), r.endUs()));
                }
            }
        });
    }
}
