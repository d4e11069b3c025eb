package dev.collsim.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PerfRunTest {

    /**
     * The average over the broadcast table nccl-tests 2.19.6 printed on the lent H200 (one GPU) must equal its own
     * footer, 36758.2 GB/s: the mean counts every out-of-place and in-place busbw.
     */
    @Test
    void averageBusBwMatchesNcclTestsFooter() throws IOException {
        List<PerfRow> rows = new ArrayList<>();
        try (InputStream in = getClass().getResourceAsStream("/perf/nccl-tests-broadcast-1gpu.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.trim().split("\\s+");
                rows.add(new PerfRow("broadcast", f[2], f[3], Integer.parseInt(f[4]), 1, Long.parseLong(f[0]),
                        Long.parseLong(f[1]),
                        new PerfResult(Double.parseDouble(f[5]), Double.parseDouble(f[6]), Double.parseDouble(f[7]),
                                Long.parseLong(f[8])),
                        new PerfResult(Double.parseDouble(f[9]), Double.parseDouble(f[10]),
                                Double.parseDouble(f[11]), Long.parseLong(f[12])), null));
            }
        }
        assertEquals(14, rows.size());
        // printed values are rounded to 6 significant digits in the table, hence the tolerance
        assertEquals(36758.2, PerfRun.averageBusBw(rows), 0.5);
        assertEquals(0, PerfRun.countOutOfBounds(rows));
    }

    @Test
    void jsonUsesNcclTestsKeysAndRoundTrips(@TempDir Path dir) throws IOException {
        PerfRow row = new PerfRow("all_reduce", "float", "sum", -1, 2, 1024, 256,
                new PerfResult(10.0, 0.1024, 0.1024, 0L), new PerfResult(9.0, 0.11, 0.11, null), 8.5);
        RunMetadata meta = new RunMetadata("2.28.3", 22803, 13000, 13000, Map.of("NCCL_NVLS_ENABLE", "0"),
                List.of("h"), List.of(new GpuInfo(0, "h", 1, 0, "0000:1b:00.0", "NVIDIA H200", 1980, 3201,
                        150_000_000_000L, 132, "9.0")), null, List.of(), "t0", "t1", "");
        PerfRun run = new PerfRun("collsim-run", "all_reduce", 2,
                new RunConfig(1, 2, 8, 1024, 2, 0, 1, 20, 1, 1, 0, 0, 1, 0, false), List.of(row), 0.1, 1, meta, List.of());
        JsonNode tree = PerfJson.mapper().readTree(PerfJson.toJson(run));
        JsonNode r0 = tree.get("results").get(0);
        assertEquals(10.0, r0.get("out_of_place").get("time").asDouble());
        assertEquals(0.1024, r0.get("out_of_place").get("alg_bw").asDouble());
        assertEquals(0.1024, r0.get("out_of_place").get("bus_bw").asDouble());
        assertTrue(r0.get("in_place").get("nwrong").isNull(), "N/A is null as in nccl-tests -J");
        assertEquals(8.5, r0.get("nccl_estimate_us").asDouble());
        assertEquals("0000:1b:00.0", tree.get("metadata").get("gpus").get(0).get("bus_id").asText());
        assertEquals(20, tree.get("config").get("iterations").asInt());

        Path f = dir.resolve("run.json");
        PerfJson.write(run, f);
        PerfRun back = PerfJson.read(f);
        assertEquals(run, back);
        assertNull(back.rows().get(0).inPlace().wrong());
        assertFalse(back.hasWrongResults() && back.outOfBounds() == 0);
        try (var s = Files.list(dir)) {
            assertEquals(1, s.count(), "no temporary file left behind");
        }
        Path both = dir.resolve("sweep.json");
        PerfJson.write(List.of(run, run), both);
        assertEquals(List.of(run, run), PerfJson.readAll(both));
        assertEquals(List.of(run), PerfJson.readAll(f));
    }

    /**
     * {@code -C 1} with {@code -J}: nccl-tests 2.19.6 src/util.cu writeBenchmarkLineBody keys each half's time
     * {@code jsonKey(report_cputime ? "cpu_time" : "time")}, so the written halves carry cpu_time and no time, a
     * run without -C keeps time, and reading the file gives the same run back (the key renamed into timeUs).
     */
    @Test
    void cpuTimeRunKeysItsTimesCpuTimeAsNcclTestsDoes(@TempDir Path dir) throws IOException {
        PerfRow row = new PerfRow("all_reduce", "float", "sum", -1, 2, 1048576, 262144,
                new PerfResult(3.2, 99.86, 99.86, 0L), new PerfResult(3.1, 103.82, 103.82, 0L), null);
        PerfRun cpu = new PerfRun("collsim-run", "all_reduce", 2,
                new RunConfig(1, 2, 1048576, 1048576, 2, 0, 5, 20, 1, 1, 0, 0, 1, 0, true), List.of(row), 101.84, 0,
                null, List.of());
        JsonNode tree = PerfJson.mapper().readTree(PerfJson.toJson(cpu));
        JsonNode oop = tree.get("results").get(0).get("out_of_place");
        assertEquals(3.2, oop.get("cpu_time").asDouble());
        assertFalse(oop.has("time"), oop.toString());
        assertEquals("cpu_time", tree.get("results").get(0).get("in_place").fieldNames().next(),
                "the key keeps time's place, first, as nccl-tests writes it");
        assertTrue(tree.get("config").get("report_cputime").asBoolean());

        Path f = dir.resolve("cpu.json");
        PerfJson.write(List.of(cpu), f);
        assertTrue(Files.readString(f).contains("\"cpu_time\" : 3.1"), "written through write() too");
        assertEquals(List.of(cpu), PerfJson.readAll(f));
        assertEquals(cpu, PerfJson.parse(PerfJson.toJson(cpu)));

        PerfRun gpu = new PerfRun("collsim-run", "all_reduce", 2,
                new RunConfig(1, 2, 1048576, 1048576, 2, 0, 5, 20, 1, 1, 0, 0, 1, 0, false), List.of(row), 101.84, 0,
                null, List.of());
        JsonNode plain = PerfJson.mapper().readTree(PerfJson.toJson(gpu)).get("results").get(0).get("out_of_place");
        assertEquals(3.2, plain.get("time").asDouble());
        assertFalse(plain.has("cpu_time"));
    }
}
