package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.collsim.io.InputException;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.compare.PredictionBand;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.MeasurementReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The accuracy gate: the public measurement files the project carries (src/test/resources/data, each with its
 * {@code #@} source header) run through the accuracy table with the default model, and the healthy datasets'
 * figures must not regress past those recorded in {@code accuracy-gate.properties}. The same figures are the last
 * line of {@code collsim accuracy validation/src/test/resources/data}.
 */
class AccuracyGateTest {

    /** @return every dataset of the project's measurement files (A-* nccl-tests tables, D-* logs) */
    static List<Dataset> corpus() throws IOException, InputException {
        List<Dataset> out = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(Corpus.DIR)) {
            files = s.filter(p -> p.getFileName().toString().matches("[AD]-.*\\.(txt|json|log)")).sorted().toList();
        }
        for (Path f : files) {
            out.addAll(MeasurementReader.read(f));
        }
        return out;
    }

    private static List<AccuracyRow> bareRows;

    /**
     * @return the default model's rows over {@link #corpus}, without the leave-one-out fits (every figure the gate and
     *         the multi-node doc check read is uncalibrated), made once per test JVM
     */
    static synchronized List<AccuracyRow> bareRows() throws IOException, InputException {
        if (bareRows == null) {
            bareRows = List.copyOf(new AccuracyRunner(Optional.empty()).bareOnly().run(corpus()));
        }
        return bareRows;
    }

    @Test
    void defaultModelDoesNotRegressOnThePublicData() throws Exception {
        List<AccuracyRow> rows = bareRows();
        AccuracySummary now = AccuracySummary.of(rows);
        List<String> regressions = AccuracyGate.regressions(AccuracyGate.recorded(), now);
        assertTrue(regressions.isEmpty(), "accuracy regressed: " + regressions + "\nnow: " + now.render());
        // the band every uncalibrated prediction carries must be the one this run supports (to 1 point)
        PredictionBand band = AccuracySummary.band(rows);
        assertEquals(band.belowMiBPercent(), PredictionBand.UNCALIBRATED.belowMiBPercent(), 1.0, band.toString());
        assertEquals(band.atLeastMiBPercent(), PredictionBand.UNCALIBRATED.atLeastMiBPercent(), 1.0, band.toString());
    }

    @Test
    void gateFailsForAModelThatRunsAtHalfTheBandwidth() throws Exception {
        // every protocol's bandwidth efficiency halved: times at >= 1 MiB roughly double, so every dataset that was
        // within 10 % now misses by far more (built through the JSON form, so new parameters keep their defaults)
        ObjectMapper m = new ObjectMapper();
        ObjectNode tree = m.valueToTree(PerformanceParameters.DEFAULTS);
        for (String f : List.of("bwEfficiencyLL", "bwEfficiencyLL128", "bwEfficiencySimple")) {
            tree.put(f, tree.get(f).asDouble() / 2);
        }
        PerformanceParameters half = m.treeToValue(tree, PerformanceParameters.class);
        AccuracySummary worse = AccuracySummary.of(new AccuracyRunner(Optional.empty(), half).bareOnly()
                .run(corpus()));
        assertFalse(AccuracyGate.regressions(AccuracyGate.recorded(), worse).isEmpty(), worse.render());
    }

    @Test
    void ruleByHand() {
        AccuracySummary rec = new AccuracySummary(40, 10.0, 8, 20, 12, 4);
        assertEquals(List.of(), AccuracyGate.regressions(rec, new AccuracySummary(40, 10.5, 7, 19, 12, 3)),
                "0.5 points and one dataset per count are within the slack");
        List<String> r = AccuracyGate.regressions(rec, new AccuracySummary(39, 10.51, 6, 18, 12, 2));
        assertEquals(5, r.size(), r.toString());
    }

    @Test
    void summaryByHand() throws Exception {
        // three healthy rows with medians 2, 5 and 12 %: median 5, within 3 %: 1, within 10 %: 2
        Dataset d = Corpus.read("A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt").get(0);
        List<AccuracyRow> rows = List.of(row(d, 2, 20), row(d, 5, 14), row(d, 12, Double.NaN));
        AccuracySummary s = AccuracySummary.of(rows);
        assertEquals(new AccuracySummary(3, 5.0, 1, 2, 2, 1), s);
    }

    private static AccuracyRow row(Dataset d, double large, double small) {
        return new AccuracyRow(d, "all_reduce / A100 SXM / 1 host", 5, large, Double.NaN,
                Optional.empty(), "", Double.isNaN(small) ? 0 : 4, small, small);
    }
}
