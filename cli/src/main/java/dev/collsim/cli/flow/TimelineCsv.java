package dev.collsim.cli.flow;

import dev.collsim.simulator.network.FlowRecord;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
     * @param file   target file
     * @param points records per size
     * @throws IOException when the file cannot be written (nothing half-written is left)
     */
    static void write(Path file, List<Point> points) throws IOException {
        Path abs = file.toAbsolutePath();
        Path dir = abs.getParent();
        Path tmp = dev.collsim.topology.io.AtomicFiles.tempFile(dir, abs.getFileName().toString());
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            w.write(HEADER);
            w.write('\n');
            for (Point p : points) {
                for (FlowRecord r : p.records()) {
                    w.write(String.format(Locale.ROOT, "%d,%s,%d,%d,%d,%.6f,%d,%d,%d,%d,%.1f,%.6f,%.6f%n", p.size(),
                            r.job(), r.step(), r.copy(), r.copies(), r.periodUs(), r.src(), r.dst(), r.channel(),
                            r.flows(), r.bytes(), r.startUs(), r.endUs()));
                }
            }
        } catch (IOException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
