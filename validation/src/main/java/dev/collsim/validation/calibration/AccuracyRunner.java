package dev.collsim.validation.calibration;

import dev.collsim.hardware.GpuModels;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.validation.compare.ClusterGuesser;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.compare.DatasetComparison;
import dev.collsim.validation.compare.ErrorStats;
import dev.collsim.validation.compare.Regime;
import dev.collsim.validation.diagnose.Diagnoser;
import dev.collsim.validation.diagnose.Finding;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.PerfPoint;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The accuracy table: every dataset compared with the default model, and with a calibration fitted on the other
 * datasets of its hardware class (leave-one-out). Median absolute percentage error of time at sizes of 1 MiB
 * and more. Every median leaves out the one-off hiccups diagnose finds from the measured times alone
 * ({@link Comparer#leftOut}), as compare's statistics and calibrate's fits do, so a dataset's uncalibrated cells are
 * compare's {@code --calibration none} medians. The calibration is {@code collsim calibrate}'s without {@code -c} and {@code --fit}: the same
 * {@link FitLadder#everyParameter()} (every parameter, refused fits replaced by the fallback sets, each judged by
 * {@link FitAcceptance}); when every set is refused the calibrated value is the uncalibrated one
 * ({@link AccuracyRow#refused()}). calibrate's refusal of files of different host counts under one {@code -c}
 * cannot arise here: each dataset's cluster is built from its own host count.
 */
public final class AccuracyRunner {

    /** The note of a row when the runner makes no fits ({@link #bareOnly}). */
    public static final String NOT_CALIBRATED = "not calibrated (--calibration none)";

    private final Comparer defaults;
    private final Optional<NcclVersion> given;
    private final PerformanceParameters base;
    private final boolean fits;

    /**
     * @param given NCCL release to model every dataset with, or empty for the one each file states
     *              ({@link Comparer#modelled}); with the model's default parameters
     */
    public AccuracyRunner(Optional<NcclVersion> given) {
        this(given, PerformanceParameters.DEFAULTS);
    }

    /**
     * @param given   NCCL release to model every dataset with, or empty for the one each file states
     * @param base    the parameters the "uncalibrated" column uses and fits start from (the defaults, except when
     *                a test asks what a different model would score)
     */
    public AccuracyRunner(Optional<NcclVersion> given, PerformanceParameters base) {
        this(given, base, true);
    }

    private AccuracyRunner(Optional<NcclVersion> given, PerformanceParameters base, boolean fits) {
        this.given = given;
        this.base = base;
        this.fits = fits;
        this.defaults = new Comparer(given, base, null);
    }

    /**
     * @return this runner without the leave-one-out fits: every row has the same uncalibrated cells, its calibrated
     *         cell NaN, no fit and the note {@link #NOT_CALIBRATED} (the fits are most of a run's time)
     */
    public AccuracyRunner bareOnly() {
        return new AccuracyRunner(given, base, false);
    }

    /**
     * @param datasets datasets to include
     * @return one row per dataset with per-size times, in input order
     */
    public List<AccuracyRow> run(List<Dataset> datasets) {
        Map<Dataset, Series> series = new LinkedHashMap<>();
        Set<Dataset> problems = problemDatasets(datasets);
        Map<Dataset, String> classes = new LinkedHashMap<>();
        List<AccuracyRow> rows = new ArrayList<>();
        for (Dataset d : datasets) {
            SeriesBuilder.of(d, Optional.empty(), defaults, Comparer.leftOutPoints(d)).ifPresent(s -> {
                series.put(d, s);
                classes.put(d, hardwareClass(d));
            });
        }
        for (Dataset d : datasets) {
            Series s = series.get(d);
            if (s == null) {
                DatasetComparison dc = defaults.compare(d, Optional.empty());
                if (!dc.reason().isEmpty() && !d.points().isEmpty()) {
                    rows.add(new AccuracyRow(d, "-", count(d), Double.NaN, Double.NaN, Optional.empty(),
                            dc.reason(), 0, Double.NaN, Double.NaN));
                }
                continue;
            }
            double uncal = median(s, base, true);
            List<Series> others = new ArrayList<>();
            series.forEach((o, os) -> {
                if (o != d && classes.get(o).equals(classes.get(d)) && !problems.contains(o)) {
                    others.add(os);
                }
            });
            double cal = Double.NaN;
            Optional<FitLadder.Outcome> fit = Optional.empty();
            String note;
            if (!fits) {
                note = NOT_CALIBRATED;
            } else if (others.isEmpty()) {
                note = "no other dataset of this class to calibrate on";
            } else {
                FitLadder.Outcome o = FitLadder.everyParameter().fit(others, base);
                fit = Optional.of(o);
                int points = others.stream().mapToInt(x -> x.calls().size()).sum();
                note = (o.accepted().isPresent() ? "calibrated on " : "every fit refused on ") + others.size()
                        + " other dataset(s), " + points + " points";
                cal = o.accepted().map(c -> median(s, c.parameters(), true)).orElse(uncal);
            }
            rows.add(new AccuracyRow(d, classes.get(d), count(d), uncal, cal, fit, note, countSmall(s),
                    median(s, base, false), signedMedian(s, base), Comparer.leftOut(d).stream()
                    .map(PerfPoint::sizeBytes).toList()));
        }
        return rows;
    }

    /**
     * The datasets {@link #run} gives no row: those with nothing per size to compare (a summary-only table, a run
     * whose table the author cut to its footer), so that the table's reader sees every dataset accounted for.
     *
     * @param datasets the datasets given to {@link #run}
     * @param rows     its rows
     * @return one entry per dataset without a row: {@code file:line (label): why}
     */
    public List<String> withoutRows(List<Dataset> datasets, List<AccuracyRow> rows) {
        Set<Dataset> shown = new HashSet<>();
        rows.forEach(r -> shown.add(r.dataset()));
        List<String> out = new ArrayList<>();
        for (Dataset d : datasets) {
            if (!shown.contains(d)) {
                String why = defaults.compare(d, Optional.empty()).reason();
                out.add(d.file() + ":" + d.line() + " (" + d.label() + "): " + (why.isEmpty() ? "not compared" : why));
            }
        }
        return out;
    }

    /**
     * Datasets diagnose finds a PROBLEM in (a misconfigured or broken run): they are compared, but never used to
     * calibrate others, since a fit to a broken run would teach the model the breakage.
     */
    static Set<Dataset> problemDatasets(List<Dataset> datasets) {
        Set<Dataset> out = new HashSet<>();
        Map<String, List<Dataset>> byFile = new LinkedHashMap<>();
        datasets.forEach(d -> byFile.computeIfAbsent(d.file(), f -> new ArrayList<>()).add(d));
        Diagnoser diag = new Diagnoser();
        for (List<Dataset> group : byFile.values()) {
            for (var g : diag.diagnose(group, List.of())) {
                if (g.findings().stream().anyMatch(f -> f.severity()
                        == Finding.Severity.PROBLEM)) {
                    out.add(g.dataset());
                }
            }
        }
        return out;
    }

    /** @return the points of 1 MiB and more a median counts (usable, less {@link Comparer#leftOut}) */
    private static int count(Dataset d) {
        Set<PerfPoint> left = Comparer.leftOutPoints(d);
        return (int) Comparer.usable(d).stream().filter(p -> p.sizeBytes() >= Regime.ONE_MIB && !left.contains(p)).count();
    }

    private static int countSmall(Series s) {
        int n = 0;
        for (long size : s.sizes()) {
            n += size < Regime.ONE_MIB ? 1 : 0;
        }
        return n;
    }

    /**
     * @return the hardware class: collective, GPU figures' name, and whether the run spans one host (calibration
     *         parameters are per protocol and algorithm family, so collectives are not mixed)
     */
    public static String hardwareClass(Dataset d) {
        String gpu = GpuModels.find(d.gpuModel()).or(() -> GpuModels.find(d.header().text("hardware")))
                .map(g -> (g.hasNvlink() ? "" : "PCIe ") + g.name()).orElse("unknown");
        boolean single = ClusterGuesser.guess(d).map(g -> g.topology().hostCount() == 1).orElse(d.nHosts() == 1);
        return d.collective().testName() + " / " + gpu + (single ? " / 1 host" : " / multi-host");
    }

    /** @return median APE of time, percent, over the sizes of 1 MiB and more ({@code large}) or below it */
    private static double median(Series s, PerformanceParameters p, boolean large) {
        return ErrorStats.median(Residuals.errors(s, p, b -> b >= Regime.ONE_MIB == large, true));
    }

    /**
     * @return median signed error of time below 1 MiB, percent ((predicted - measured) / measured: positive where the
     *         model is slow), NaN when the series has no such size
     */
    private static double signedMedian(Series s, PerformanceParameters p) {
        return ErrorStats.median(Residuals.errors(s, p, b -> b < Regime.ONE_MIB, false));
    }

    /** @return the NCCL release every dataset is modelled with, or empty when each file's own */
    public Optional<NcclVersion> given() {
        return given;
    }

}
