package dev.collsim.cli.report;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code collsim plan} and {@code collsim report} run in-process. */
class PlanReportCommandTest {

    /**
     * 175B with fp32 gradients, tp=8 inside the default cluster's 4 DGX H100 hosts (eight 400 Gb/s NICs each),
     * dp=4: each DP AllReduce carries 175e9/8 x 4 B = 87.5 GB and the 8 DP groups of a host share its 400 GB/s, so
     * one call takes at least 8 x 2*3/4 x 87.5e9 / 400e9 = 2.625 s; its busbw column is nccl-tests' busbw in GB/s.
     */
    @Test
    void planPrintsEveryCollectiveAndTheStep() {
        CliRun r = run("plan", "--params", "175B", "--grad-reduce-dtype", "fp32", "--tp", "8", "--dp", "4", "--global-batch", "16",
                "--step-compute-ms", "1000", "--overlap", "0.5");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("TP activation AllReduce"), r.out());
        Matcher m = Pattern.compile("DP gradient AllReduce\\s+DP\\s+4\\s+4\\s+81.5G\\s+1\\s+([0-9.]+)\\s+[0-9.]+"
                + "\\s+([0-9.]+)").matcher(r.out());
        assertTrue(m.find(), r.out());
        double us = Double.parseDouble(m.group(1));
        assertTrue(us >= 2.625e6 * 0.999 && us < 2.625e6 * 1.3, "DP AllReduce " + us + " us");
        // the busbw column is in GB/s (1e9 B/s), nccl-tests' definition: 87.5e9 B / us x 2 (4-1)/4, B/us = MB/s
        assertTrue(r.out().contains("ms/step busbw(GB/s)  algorithm"), r.out());
        assertEquals(87.5e9 / us / 1e3 * 2 * 3 / 4, Double.parseDouble(m.group(2)), 0.051);
        assertTrue(r.out().contains("scaling efficiency"), r.out());
        assertTrue(r.out().contains("tokens per second"), r.out());
    }

    /**
     * The option defaults come from the job defaults' one home (JobBuilder: s = 2048, dp = tp = pp = 1, overlap 1)
     * and the help prints them.
     */
    @Test
    void planHelpShowsTheJobDefaults() {
        CliRun r = run("plan", "--help");
        assertEquals(0, r.code(), r.err());
        String help = r.out().replaceAll("\\s+", " ");
        assertTrue(help.contains("sequence length (default: 2048)"), help);
        assertTrue(help.contains("pipeline stages (default: 1)"), help);
        assertTrue(help.contains("compute (default: 1.0, as Megatron-LM's"), help);
    }

    /**
     * --mfu is end-to-end (PaLM App. B): 70B preset (V=128256, untied, h=8192, L=80), s=4096: model FLOPs per token
     * 6 x (70e9 - 128256 x 8192) + 12 x 80 x 8192 x 4096 = 413,695,961,088 + 32,212,254,720 = 445,908,215,808;
     * 64 H100 x 989e12 x 0.4 / that = 56,779.4 tokens/s, whatever the communication. 70B on one host (tp=8, dp=1,
     * no ZeRO) needs 16 bytes x 70e9/8 = 140 GB of model states alone on an 80 GB H100.
     */
    @Test
    void planMfuIsEndToEndAndMemoryIsChecked() {
        CliRun r = run("plan", "-c", "dgx-h100x8", "--params", "70B", "--tp", "8", "--pp", "2", "--sequence-parallel",
                "--zero", "1", "--seq-len", "4096", "--global-batch", "128", "--mfu", "0.4");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("tokens per second             56,779"), r.out());
        assertTrue(r.out().contains("end-to-end MFU                 0.400"), r.out());
        assertTrue(r.out().contains("kernel efficiency"), r.out());
        assertTrue(r.out().contains(": fits"), r.out());
        CliRun both = run("plan", "--params", "7B", "--mfu", "0.4", "--kernel-efficiency", "0.5");
        assertEquals(2, both.code());
        assertTrue(both.err().contains("at most one of --step-compute-ms, --mfu"), both.err());
        CliRun big = run("plan", "--params", "70B", "--tp", "8", "--dp", "1", "--global-batch", "8");
        assertEquals(0, big.code(), big.err());
        assertTrue(big.out().contains("DOES NOT FIT"), big.out());
        assertTrue(big.out().contains("fits with: --recompute full") || big.out().contains("no single change"),
                big.out());
        CliRun badRecompute = run("plan", "--params", "7B", "--recompute", "some");
        assertEquals(2, badRecompute.code());
        assertTrue(badRecompute.err().contains("--recompute: 'some' is not a recompute policy; allowed: none,"
                + " selective, full"), badRecompute.err());
    }

    @Test
    void planTargetSearchAndBadLayouts() {
        CliRun t = run("plan", "--params", "7B", "--tp", "8", "--global-batch", "64", "--target-tokens-per-s", "1e3");
        assertEquals(0, t.code(), t.err());
        assertTrue(t.out().contains("target 1,000 tokens/s: reached with 8 GPUs"), t.out());
        CliRun bad = run("plan", "--params", "7B", "--ep", "3", "--dp", "4");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("--ep 3 needs --experts > 0"), bad.err());
        assertTrue(bad.err().contains("--ep 3 must divide --dp 4"), bad.err());
        CliRun big = run("plan", "--params", "7B", "--tp", "8", "--dp", "8");
        assertEquals(2, big.code());
        assertTrue(big.err().contains("needs 64 GPUs (dp=8 x tp=8 x pp=1), cluster '"), big.err());
    }

    /**
     * --tp 3 for a 20B model shaped by Kaplan's rule (h = 47 x 128 = 6016, no factor 3; heads unknown): no
     * tensor-parallel split of h exists; allowed: the divisors of 6016 = 2^7 x 47 up to 64. --tp 3 and 16 for 70B
     * (Llama 3 70B: 64 heads, 8 KV heads, Dubey et al. 2024 Table 3): Megatron-Core's TransformerConfig refuses a tp
     * that does not divide both, so 1, 2, 4, 8 are allowed. --tp 6 with h = 6144 = 6 x 1024 splits h, but 6 neither
     * divides nor is a multiple of the default cluster's 8 GPUs per host (DGX H100). --tp 16 for GPT-3 175B (96
     * heads, Brown et al. 2020 Table 2.1: two whole hosts) and --tp 4 for 70B are accepted.
     */
    @Test
    void planRejectsTensorParallelDegreesThatDoNotFit() {
        CliRun three = run("plan", "--params", "20B", "--tp", "3");
        assertEquals(2, three.code(), three.out());
        assertTrue(three.err().contains("--tp 3 must divide the hidden size h = 6016"), three.err());
        assertTrue(three.err().contains("allowed up to 64: 1, 2, 4, 8, 16, 32, 47, 64"), three.err());
        for (String tp : new String[] {"3", "16"}) {
            CliRun heads = run("plan", "--params", "70B", "--tp", tp, "--dp", "1");
            assertEquals(2, heads.code(), heads.out());
            assertTrue(heads.err().contains("--tp " + tp + ": the model has 64 attention heads and 8 KV heads"),
                    heads.err());
            assertTrue(heads.err().contains("allowed up to 64: 1, 2, 4, 8"), heads.err());
        }
        CliRun six = run("plan", "--params", "7B", "--hidden", "6144", "--tp", "6", "--dp", "1");
        assertEquals(2, six.code(), six.out());
        assertTrue(six.err().contains("--tp 6 must divide the 8 GPUs per host") && six.err().contains(
                "(allowed: 1, 2, 4, 8) or be a multiple of it"), six.err());
        assertEquals(0, run("plan", "--params", "175B", "--tp", "16", "--dp", "2").code());
        assertEquals(0, run("plan", "--params", "70B", "--tp", "4", "--dp", "2").code());
    }

    /**
     * The options whose "not given" is 0 to the job builder (--dp fills the cluster, --global-batch is dp x b, the
     * shape options take the preset's or Kaplan's): a value below 1 given by hand was once run as if left out; now it
     * is a usage error naming the option, and a report spec's plan refuses the same (global-batch below 1).
     */
    @Test
    void planRefusesValuesBelowOneForOptionsWithADefault() {
        for (String[] bad : new String[][] {{"--global-batch", "0"}, {"--global-batch", "-5"}, {"--dp", "0"},
            {"--dp", "-2"}, {"--hidden", "-4096"}, {"--layers", "0"}, {"--ffn-hidden", "-1"},
            {"--moe-ffn-hidden", "0"}}) {
            CliRun r = run("plan", "--params", "7B", bad[0], bad[1]);
            assertEquals(2, r.code(), String.join(" ", bad) + ": " + r.out());
            assertTrue(r.err().contains(bad[0] + " " + bad[1] + ": allowed: a whole number >= 1"), r.err());
        }
        CliRun dense = run("plan", "--params", "7B", "--first-dense-layers", "-1");
        assertEquals(2, dense.code(), dense.out());
        assertTrue(dense.err().contains("--first-dense-layers -1: allowed: 0 or more"), dense.err());
        CliRun ok = run("plan", "--params", "7B", "--tp", "8", "--dp", "4", "--global-batch", "16");
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().contains("dp=4 tp=8 pp=1"), ok.out());
    }

    @Test
    void badSpecIsListedWithLineAndColumnAndWritesNothing(@TempDir Path tmp) throws IOException {
        Path spec = tmp.resolve("bad.yaml");
        Files.writeString(spec, "variants:\n  - name: x\n    nic-speed: fast\nsweeps:\n  - collective: allreduce\n");
        Path out = tmp.resolve("out");
        CliRun r = run("report", spec.toString(), "-o", out.toString());
        assertEquals(3, r.code());
        // "    nic-speed: fast": the value starts in column 16
        assertTrue(r.err().contains(spec + ":3:16: variants[0].nic-speed: found 'fast'; allowed: a number > 0 and at most 1000 TB/s with"
                + " one of GB/s, Gb/s"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void badBackendIsAnInputErrorNamingTheAllowedValues(@TempDir Path tmp) throws IOException {
        Path spec = tmp.resolve("bad.yaml");
        Files.writeString(spec, "variants:\n  - name: x\n    backend: ns3\nsweeps:\n  - collective: allreduce\n");
        CliRun r = run("report", spec.toString(), "-o", tmp.resolve("out").toString());
        assertEquals(3, r.code());
        // "    backend: ns3": the value starts in column 14
        assertTrue(r.err().contains(spec + ":3:14: variants[0].backend: unknown backend 'ns3'; allowed: analytical,"
                + " flow"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void reportWritesTheFolderAndPrintsTheSummary(@TempDir Path tmp) throws IOException {
        Path spec = tmp.resolve("w.yaml");
        Files.writeString(spec, """
                title: two DGX H100 hosts
                cluster: dgx-h100
                variants:
                  - name: 2 hosts
                    hosts: 2
                  - name: 2 hosts, 100 Gb/s
                    hosts: 2
                    nic-speed: 100 Gb/s
                sweeps:
                  - {collective: allreduce, min: 1M, max: 1G, factor: 8}
                """);
        Path out = tmp.resolve("rep");
        CliRun r = run("report", spec.toString(), "-o", out.toString(), "--no-progress");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("two DGX H100 hosts"), r.out());
        assertTrue(r.out().contains("2 hosts, 100 Gb/s"), r.out());
        assertTrue(r.out().contains("Report: " + out.toAbsolutePath().resolve("index.html")), r.out());
        for (String f : List.of("index.html", "report.json", "spec.yaml", "data/sweeps.csv",
                "charts/busbw-allreduce-float.png", "charts/busbw-allreduce-float.svg")) {
            assertTrue(Files.isRegularFile(out.resolve(f)), f);
        }
        // 8 x 100 Gb/s = 100 GB/s per host bounds the 512 MiB AllReduce on 16 ranks over k = 2 hosts: each host
        // sends at least 2(k-1)/k = 1 x the data while busbw counts 2(n-1)/n = 15/8 of it: busbw <= 187.5 GB/s
        String slow = Files.readAllLines(out.resolve("data/sweeps.csv")).stream()
                .filter(l -> l.startsWith("\"2 hosts, 100 Gb/s\",AllReduce,float,16,536870912,")).findFirst()
                .orElseThrow();
        double busBw = Double.parseDouble(slow.split(",")[8]);
        assertTrue(busBw <= 187.5001, "busbw " + busBw);
        // the tuning section, from collsim tune's code, for the base variant (the spec's cluster: one DGX H100)
        String html = Files.readString(out.resolve("index.html"));
        assertTrue(html.contains("<h2>What to change in NCCL's settings for this cluster</h2>"), html);
        assertTrue(html.contains("base (dgx-h100), 8 ranks on 1 NCCL node(s)"), html);
        assertTrue(html.contains("collective_type,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks"));
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(2, s.count(), "only the spec and the report folder");
        }
    }

    @Test
    void rootCommandDocumentsTheDefaultReport() {
        CliRun r = run("--help");
        assertEquals(0, r.code());
        assertTrue(r.out().contains("built-in what-if report"), r.out());
        assertTrue(r.out().contains("plan") && r.out().contains("report"), r.out());
    }

    /**
     * --params 70 (the B forgotten) is 70 parameters: plan still plans it but warns on stderr, naming the count and
     * 70B; 70B and 1.3B, real model sizes, give no warning; 999,999 is below the 1e6 threshold, 1M is not.
     */
    @Test
    void planWarnsOnAForgottenSuffix() {
        CliRun r = run("plan", "--params", "70");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("--params 70 is 70 parameters") && r.err().contains("did you mean 70B?"), r.err());
        for (String ok : List.of("70B", "1.3B", "1M")) {
            CliRun fine = run("plan", "--params", ok);
            assertEquals(0, fine.code(), fine.err());
            assertFalse(fine.err().contains("did you mean"), ok + ": " + fine.err());
        }
        assertTrue(run("plan", "--params", "999999").err().contains("did you mean 999999B?"));
    }
}
