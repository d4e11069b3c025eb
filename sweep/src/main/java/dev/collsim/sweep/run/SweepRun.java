package dev.collsim.sweep.run;

import dev.collsim.io.InputException;
import dev.collsim.sweep.point.PointResult;
import dev.collsim.sweep.spec.DesignSpace;
import dev.collsim.sweep.spec.DesignSpaceReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs a design sweep on the driver: reads and checks the spec, resumes from the chunks an earlier run with the same
 * output folder finished ({@link PartStore}), computes the other chunks on Spark in batches (a chunk file written
 * after each batch, progress on standard error), then writes the outputs ({@link SweepOutput}). Not thread-safe.
 */
public final class SweepRun {

    /**
     * The sweep's points and how they were obtained. Immutable.
     *
     * @param space     the design space
     * @param rows      every point, in point order
     * @param resumed   points read back from an earlier run
     * @param computed  points computed by this run
     * @param seconds   wall time of the computation (Spark start-up excluded), seconds
     * @param startup   Spark start-up time, seconds
     * @param master    where the points were computed
     */
    public record Result(DesignSpace space, List<PointResult> rows, long resumed, long computed, double seconds,
            double startup, String master) {

        /** @return points per second computed by this run (0 when nothing was computed) */
        public double rate() {
            return seconds > 0 ? computed / seconds : 0;
        }
    }

    private SweepRun() {
    }

    /**
     * @param o   options
     * @param err progress and notes
     * @return the points
     * @throws InputException when the spec has problems (all listed)
     * @throws IOException    when a file cannot be read or written
     */
    public static Result run(SweepOptions o, PrintWriter err) throws IOException {
        DesignSpace space = DesignSpaceReader.read(o.spec());
        SpecBundle bundle = SpecBundle.of(o.spec(), space);
        String fingerprint = bundle.fingerprint() + " chunk " + o.chunk();
        int chunks = ChunkTask.chunks(space.points(), o.chunk());
        PartStore store = null;
        if (!o.benchmark()) {
            SweepOutput.checkTarget(o.out());
            store = new PartStore(SweepOutput.partsDir(o.out()), fingerprint,
                    List.of(o.out().resolve(SweepOutput.CHUNKS)));
        }
        Map<Integer, List<PointResult>> done = store == null ? new TreeMap<>() : store.done();
        long resumed = done.values().stream().mapToLong(List::size).sum();
        Progress progress = new Progress(err, o.progress(), space.points(), resumed);
        progress.note(String.format(Locale.ROOT, "%d points (%d designs x %d workloads) in %d chunks of %d; %s",
                space.points(), space.designs(), space.workloads().size(), chunks, o.chunk(),
                resumed > 0 ? resumed + " points done by an earlier run, skipped" : "nothing done before"));
        List<Integer> pending = new ArrayList<>();
        for (int c = 0; c < chunks; c++) {
            if (!done.containsKey(c)) {
                pending.add(c);
            }
        }
        double startup = 0;
        double seconds = 0;
        long computed = 0;
        if (!pending.isEmpty()) {
            long t0 = System.nanoTime();
            try (SparkPoints spark = new SparkPoints(o.master(), o.jars(), o.conf())) {
                long t1 = System.nanoTime();
                startup = (t1 - t0) / 1e9;
                int wave = Math.max(1, 2 * spark.parallelism());
                long failed = done.values().stream().flatMap(List::stream).filter(r -> PointResult.FAILED.equals(r.status()))
                        .count();
                for (int from = 0; from < pending.size(); from += wave) {
                    List<Integer> ids = pending.subList(from, Math.min(pending.size(), from + wave));
                    List<List<PointResult>> results = spark.compute(bundle, ids, o.chunk());
                    for (int k = 0; k < ids.size(); k++) {
                        List<PointResult> rows = results.get(k);
                        if (store != null) {
                            store.put(ids.get(k), rows);
                        } else {
                            done.put(ids.get(k), rows);
                        }
                        computed += rows.size();
                        failed += rows.stream().filter(r -> PointResult.FAILED.equals(r.status())).count();
                    }
                    progress.update(resumed + computed, failed);
                }
                seconds = (System.nanoTime() - t1) / 1e9;
            }
        }
        List<PointResult> rows = new ArrayList<>();
        done.values().forEach(rows::addAll);
        Result r = new Result(space, rows, resumed, computed, seconds, startup, o.master());
        if (store != null) {
            SweepOutput.write(o.out(), r, fingerprint, o.chunk());
            store.delete();
        }
        return r;
    }
}
