package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.collsim.io.InputException;
import dev.collsim.reports.io.AtomicFolder;
import dev.collsim.reports.plan.FormulaPredictor;
import dev.collsim.reports.plan.TestClusters;
import dev.collsim.topology.edit.ClusterEdits;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole report on hand-built clusters with {@link FormulaPredictor}: folder contents, HTML embedding, CSV/JSON
 * numbers matching the formula, atomic writes.
 */
class ReportEndToEndTest {

    static final String SPEC = """
            title: Test what-if
            variants:
              - name: NIC 100 Gb/s
                nic-speed: 100 Gb/s
              - name: 4 hosts
                hosts: 4
            sweeps:
              - collective: allreduce
                min: 1K
                max: 1G
                factor: 4
            plans:
              - name: small dense
                params: 805306368
                hidden: 2048
                layers: 16
                tp: 2
                pp: 2
                dp: 2
                seq-len: 1024
                micro-batch: 2
                global-batch: 16
                step-compute-ms: 100
                overlap: 0.5
                scaling-max-gpus: 16
                target-tokens-per-s: 50000
            algorithm-map: {collective: allreduce, min: 1K, max: 1G, factor: 8}
            """;

    /** Base: 2 hosts x 4 GPUs, NVLink 100 GB/s, one 200 Gb/s NIC per host; variants change NIC speed or hosts. */
    static final VariantResolver RESOLVER = (spec, v) -> {
        ClusterEdits e = v.edits();
        double nic = e.nicSpeed() == null ? 200 : e.nicSpeed().gbits();
        int hosts = e.hosts() == null ? 2 : e.hosts();
        return new ResolvedVariant(v, TestClusters.cluster(hosts, 4, 1, nic, 100, "H100"), new FormulaPredictor(),
                h -> TestClusters.cluster(h, 4, 1, nic, 100, "H100"), 4);
    };

    private static ReportData run() throws InputException {
        ReportSpec spec = ReportSpecReader.read("test.yaml", SPEC, Path.of("."));
        return new ReportRunner(RESOLVER, null, ProgressListener.NONE).run(spec);
    }

    /**
     * Numbers follow the stated formula: AllReduce of 1 GiB on the base's 8 ranks over 2 hosts, bandwidth
     * min(25 GB/s host NIC, 4 GPUs x 25) = 25 GB/s: 5 + 2*7/8 * 1073741824/25000 = 75,166.93 us; with the 100 Gb/s
     * NIC (12.5 GB/s) 5 + 1.75 * 1073741824/12500 = 150,328.86 us.
     */
    @Test
    void numbersFollowThePredictor() throws InputException {
        ReportData d = run();
        assertEquals(3, d.variants().size());
        ReportData.SweepRow base = d.sweeps().stream().filter(r -> r.variant().equals("base")
                && r.sizeBytes() == 1L << 30).findFirst().orElseThrow();
        assertEquals(75_166.93, base.timeUs(), 0.01);
        ReportData.SweepRow slow = d.sweeps().stream().filter(r -> r.variant().equals("NIC 100 Gb/s")
                && r.sizeBytes() == 1L << 30).findFirst().orElseThrow();
        assertEquals(150_328.86, slow.timeUs(), 0.01);
        assertEquals(16, d.sweeps().stream().filter(r -> r.variant().equals("4 hosts")).findFirst().orElseThrow()
                .nRanks());
        // 8 GPUs in 2+2 rows: ranks 2, 4, 8; sizes 1K, 8K, ..., 1G: 1K*8^k <= 1G -> k = 0..6, 7 sizes
        assertEquals(3 * 7, d.algorithmMap().size());
        assertEquals(3, d.plans().size());
        assertTrue(d.plans().stream().allMatch(ReportData.PlanRow::fits));
        // scaling: G=16, b=2 -> dp in {1, 2, 4, 8}, tp*pp=4 -> 4, 8, 16 GPUs up to 16
        assertEquals(List.of(4, 8, 16), d.scaling().stream().filter(s -> s.variant().equals("base"))
                .map(ReportData.ScalingRow::gpus).toList());
        assertEquals(3, d.targets().size());
    }

    @Test
    void writesACompleteSelfContainedFolder(@TempDir Path tmp) throws IOException, InputException {
        ReportData d = run();
        Path target = tmp.resolve("out");
        ReportWriter.Written w = ReportWriter.write(d, target, SPEC);
        ReportWriter.write(d, Path.of("target", "report-preview"), SPEC); // to open and look at
        assertEquals(target.toAbsolutePath(), w.folder());
        for (String f : List.of("index.html", "report.json", "spec.yaml", "data/sweeps.csv", "data/plans.csv",
                "data/plan-collectives.csv", "data/scaling.csv", "data/targets.csv", "data/algorithm-map.csv",
                "charts/busbw-allreduce-float.png", "charts/busbw-allreduce-float.svg", "charts/algorithm-map.png",
                "charts/step-1.png", "charts/step-1.svg", "charts/scaling-1.png")) {
            assertTrue(Files.isRegularFile(target.resolve(f)), f + " missing; wrote " + w.files());
        }
        String html = Files.readString(target.resolve("index.html"));
        long pngCharts;
        try (Stream<Path> s = Files.list(target.resolve("charts"))) {
            pngCharts = s.filter(p -> p.toString().endsWith(".png")).count();
        }
        Matcher m = Pattern.compile("src=\"data:image/png;base64,[A-Za-z0-9+/=]{1000,}\"").matcher(html);
        int embedded = 0;
        while (m.find()) {
            embedded++;
        }
        Matcher live = Pattern.compile("<div class=chart id=\"chart-[a-z0-9-]+\" data-option-id=").matcher(html);
        while (live.find()) {
            embedded++;
        }
        assertEquals(pngCharts, embedded, "every chart is in the HTML, interactive or as an embedded PNG");
        assertTrue(html.contains("echarts"), "the charting library is inlined");
        assertFalse(html.contains("src=\"charts/"), "no image is loaded from outside the page");
        assertTrue(html.contains("What the model leaves out"));
        assertTrue(html.contains("NIC 100 Gb/s"));
        JsonNode json = new ObjectMapper().readTree(target.resolve("report.json").toFile());
        assertEquals(d.sweeps().size(), json.get("sweeps").size());
        String csv = Files.readString(target.resolve("data/sweeps.csv"));
        assertTrue(csv.startsWith("variant,collective,dataType,nRanks,sizeBytes,timeUs"), csv.substring(0, 80));
        assertTrue(csv.contains("base,AllReduce,float,8,1073741824,75166.9"), "CSV keeps the predicted time");
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(List.of(target), s.toList(), "no temporary folder left next to the report");
        }
        // a second run replaces the folder, again leaving nothing else
        ReportWriter.write(d, target, null);
        assertFalse(Files.exists(target.resolve("spec.yaml")));
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(1, s.count());
        }
    }

    @Test
    void failureLeavesNoTemporaryFolderAndKeepsTheOldReport(@TempDir Path tmp) throws IOException {
        Path target = tmp.resolve("report");
        Files.createDirectories(target);
        Files.writeString(target.resolve("index.html"), "old");
        Files.writeString(target.resolve(AtomicFolder.MARKER), "");
        assertThrows(IOException.class, () -> {
            try (AtomicFolder out = new AtomicFolder(target)) {
                out.write("index.html", new byte[] {1});
                out.write("charts/a.png", new byte[] {2});
                throw new IOException("disk full (simulated)");
            }
        });
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(List.of(target), s.toList());
        }
        assertEquals("old", Files.readString(target.resolve("index.html")));
    }

    /** A folder that is not a collsim report (no marker) and not empty is never replaced, nor is a file. */
    @Test
    void refusesToReplaceForeignFolders(@TempDir Path tmp) throws IOException, InputException {
        Path home = tmp.resolve("home");
        Files.createDirectories(home);
        Files.writeString(home.resolve("thesis.tex"), "precious");
        IOException e = assertThrows(IOException.class, () -> ReportWriter.write(run(), home, null));
        assertTrue(e.getMessage().contains("is not a collsim report"), e.getMessage());
        assertEquals("precious", Files.readString(home.resolve("thesis.tex")));
        Path file = Files.writeString(tmp.resolve("f"), "x");
        assertThrows(IOException.class, () -> ReportWriter.write(run(), file, null));
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(2, s.count(), "no temporary folder left");
        }
    }
}
