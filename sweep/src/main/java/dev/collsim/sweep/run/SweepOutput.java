package dev.collsim.sweep.run;

import dev.collsim.reports.io.AtomicFolder;
import dev.collsim.reports.io.CsvTable;
import dev.collsim.sweep.out.FrontPage;
import dev.collsim.sweep.out.ParetoFront;
import dev.collsim.sweep.out.PointsParquet;
import dev.collsim.sweep.out.PointsTable;
import dev.collsim.sweep.out.TargetResult;
import dev.collsim.sweep.point.PointResult;
import dev.collsim.sweep.spec.CostModel;
import dev.collsim.sweep.spec.DesignSpace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Writes a sweep's output folder atomically ({@link AtomicFolder}: complete or absent): {@code points.csv} and
 * {@code points.parquet} (every point), {@code front.csv} (the Pareto front of each workload), {@code targets.csv}
 * (the cheapest design per target), {@code index.html} (the chart of the fronts) and {@code chunks/} (the points as
 * the chunks a rerun resumes from). Stateless.
 */
public final class SweepOutput {

    /** Sub-folder of the output holding the chunk files. */
    public static final String CHUNKS = "chunks";

    private SweepOutput() {
    }

    /** @return the folder of chunks finished while the output is not yet written: {@code .NAME.sweep-parts} */
    public static Path partsDir(Path out) {
        Path abs = out.toAbsolutePath().normalize();
        return abs.resolveSibling("." + abs.getFileName() + ".sweep-parts");
    }

    /**
     * @throws IOException when the output folder may not be replaced (a file, or a folder collsim did not write)
     */
    public static void checkTarget(Path out) throws IOException {
        AtomicFolder.checkReplaceable(out.toAbsolutePath().normalize());
    }

    /**
     * @return summary lines: points and their status, where and how fast they were computed, and {@link #costNote}
     *         where the spec prices nothing
     */
    public static List<String> summary(SweepRun.Result r) {
        long ok = r.rows().stream().filter(PointResult::ok).count();
        long noFit = r.rows().stream().filter(p -> PointResult.NO_FIT.equals(p.status())).count();
        List<String> s = new ArrayList<>();
        s.add(String.format(Locale.ROOT, "%d points (%d designs x %d workloads): %d computed, %d do not fit, %d failed",
                r.rows().size(), r.space().designs(), r.space().workloads().size(), ok, noFit,
                r.rows().size() - ok - noFit));
        s.add(String.format(Locale.ROOT, "this run: %d points in %.2f s (%.0f points/s) on %s, Spark start-up %.1f s;"
                + " %d points resumed from an earlier run", r.computed(), r.seconds(), r.rate(), r.master(),
                r.startup(), r.resumed()));
        costNote(r.space().cost()).ifPresent(s::add);
        return s;
    }

    /**
     * @param cost the spec's cost model
     * @return one line saying that every cost is 0 and the front is only the fastest point, when nothing is priced
     */
    static Optional<String> costNote(CostModel cost) {
        return cost.isFree() ? Optional.of("no prices (the spec has no cost: section, or every price is 0): every"
                + " design costs 0 " + cost.currency() + ", so each workload's Pareto front is only its fastest point;"
                + " add cost: (docs/sweep.md) to trade cost against time") : Optional.empty();
    }

    /**
     * @param out         the folder
     * @param r           the points
     * @param fingerprint the chunks' fingerprint
     * @param chunk       points per chunk
     * @throws IOException when it cannot be written
     */
    static void write(Path out, SweepRun.Result r, String fingerprint, int chunk) throws IOException {
        DesignSpace space = r.space();
        Map<String, List<PointResult>> fronts = ParetoFront.of(r.rows());
        List<TargetResult> targets = TargetResult.of(space.targets(), r.rows(), space.axes());
        List<PointResult> front = fronts.values().stream().flatMap(List::stream).toList();
        try (AtomicFolder f = new AtomicFolder(out)) {
            f.write("points.csv", bytes(PointsTable.csv(space, r.rows())));
            PointsParquet.write(f.dir().resolve("points.parquet"), space, r.rows());
            f.write("front.csv", bytes(PointsTable.csv(space, front)));
            f.write("targets.csv", bytes(CsvTable.of(TargetResult.class, targets)));
            f.write("index.html", bytes(FrontPage.html(space, r.rows(), fronts, targets, summary(r))));
            f.write(CHUNKS + "/" + PartStore.FINGERPRINT, bytes(fingerprint + "\n"));
            for (int from = 0, id = 0; from < r.rows().size(); from += chunk, id++) {
                f.write(CHUNKS + "/" + PartStore.fileName(id),
                        bytes(PartStore.lines(r.rows().subList(from, Math.min(r.rows().size(), from + chunk)))));
            }
            f.commit();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
