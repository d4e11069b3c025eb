package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user sees for a missing file or a bad option value: one line naming the file and what is wrong (exit 3), or
 * one line with picocli's message and a pointer to {@code --help} (exit 2), never the whole usage.
 */
class CliErrorMessagesTest {

    @TempDir
    Path dir;

    @Test
    void missingParamsFileIsNamedWithItsOption() {
        Path nope = dir.resolve("nope.json");
        CliRun r = CliRun.run("predict", "allreduce", "--params", nope.toString());
        assertEquals(ExitCodes.INPUT, r.code(), r.err());
        assertEquals("collsim: " + nope + ": no such file (given to --params)", r.err().strip());
    }

    /**
     * predict's help names the performance-parameters option as the README and docs/predict.md do, --perf-params; the
     * former name --params (still read, above) is hidden: picocli's synopsis showed the shortest name, --params.
     */
    @Test
    void helpNamesPerfParams() {
        String help = CliRun.run("predict", "--help").out();
        assertTrue(help.contains("[--perf-params=FILE]"), help);
        assertFalse(help.contains("--params=FILE"), help);
        Path nope = dir.resolve("nope.json");
        CliRun r = CliRun.run("predict", "allreduce", "--perf-params", nope.toString());
        assertEquals("collsim: " + nope + ": no such file (given to --perf-params)", r.err().strip());
    }

    @Test
    void missingReportSpecSaysNoSuchFile() {
        Path nope = dir.resolve("nonexist.yaml");
        CliRun r = CliRun.run("report", nope.toString(), "-o", dir.resolve("out").toString(), "--no-progress");
        assertEquals(ExitCodes.INPUT, r.code(), r.err());
        assertEquals("collsim: " + nope + ": no such file (given as the report spec)", r.err().strip());
    }

    /** diagnose exits 3 for a missing input file, like every other command. */
    @Test
    void missingMeasurementFileExits3() {
        Path nope = dir.resolve("nope.txt");
        CliRun r = CliRun.run("diagnose", nope.toString());
        assertEquals(ExitCodes.INPUT, r.code(), r.err());
        assertEquals("collsim: " + nope + ": no such file or folder (given as a measurement file or folder)",
                r.err().strip());
    }

    /** A NoSuchFileException no command handles itself reaches Main's handler: path, reason, exit 3. */
    @Test
    void unhandledMissingFileIsReportedCentrally() {
        Path nope = dir.resolve("shard.csv");
        CliRun r = CliRun.run("merge", nope.toString());
        assertEquals(ExitCodes.INPUT, r.code(), r.err());
        assertEquals("collsim: " + nope + ": no such file", r.err().strip());
    }

    @Test
    void badEnumValueGivesTwoLinesNotTheUsage() {
        CliRun r = CliRun.run("predict", "allreduce", "--format", "xml");
        assertEquals(ExitCodes.USAGE, r.code(), r.err());
        String[] lines = r.err().strip().split("\\R");
        assertEquals(2, lines.length, r.err());
        assertTrue(lines[0].startsWith("collsim predict: ") && lines[0].contains("'xml'")
                && lines[0].contains("text, csv, json"), lines[0]);
        assertEquals("Try 'collsim predict --help'.", lines[1]);
        assertEquals("", r.out());
    }

    /**
     * An NCCL_ALGO that leaves a collective nothing to run is the user's setting, not a bug: NCCL has no Tree
     * AllGather (NCCL 2.30.7 src/enqueue.cc: Tree runs AllReduce only; topoGetAlgoInfo then fails "no algorithm"), so
     * {@code --algo Tree} on allgather is one line and exit 2, never "internal error" with a stack trace.
     */
    @Test
    void algorithmNcclCannotRunIsAUsageError() {
        CliRun r = CliRun.run("predict", "allgather", "--algo", "Tree", "-b", "1M", "-e", "1M");
        assertEquals(ExitCodes.USAGE, r.code(), r.err());
        String[] lines = r.err().strip().split("\\R");
        assertEquals(1, lines.length, r.err());
        assertTrue(lines[0].startsWith("collsim: No algorithm/protocol available for AllGather")
                && lines[0].contains("NCCL_ALGO=Tree") && !lines[0].contains("internal error"), lines[0]);
    }

    /** The README writes {@code --bw nccl|physical}: the allowed values are listed that way. */
    @Test
    void bandwidthViewsAreLowerCase() {
        CliRun bad = CliRun.run("topo", "paths", "--bw", "phys");
        assertEquals(ExitCodes.USAGE, bad.code(), bad.err());
        assertTrue(bad.err().startsWith("collsim topo paths: ") && bad.err().contains("physical, nccl"), bad.err());
        assertFalse(bad.err().contains("PHYSICAL") || bad.err().contains("NCCL,"), bad.err());
        CliRun help = CliRun.run("topo", "paths", "--help");
        assertTrue(help.out().contains("Bandwidth view: physical, nccl"), help.out());
        CliRun ok = CliRun.run("topo", "paths", "-c", "dgx-a100", "--bw", "physical");
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().contains("(physical view)"), ok.out());
    }

    @Test
    void unknownOptionIsOneLinePlusHint() {
        CliRun r = CliRun.run("topo", "show", "--colour");
        assertEquals(ExitCodes.USAGE, r.code(), r.err());
        assertTrue(r.err().startsWith("collsim topo show: Unknown option: '--colour'"), r.err());
        assertTrue(r.err().strip().endsWith("Try 'collsim topo show --help'."), r.err());
        assertFalse(r.err().contains("Usage:"), r.err());
    }

    /**
     * A mistyped required option is named as the typo, not as the required option missing: compare's one required
     * option is -m/--measured (CompareCommand), so {@code --mesured} is one letter from it and picocli suggests it;
     * a missing required option with no unknown word stays picocli's message.
     */
    @Test
    void mistypedRequiredOptionIsNamedAsUnknown() {
        CliRun r = CliRun.run("compare", "--mesured", "x.txt", "-c", "dgx-h100:2");
        assertEquals(ExitCodes.USAGE, r.code(), r.err());
        String[] lines = r.err().strip().split("\\R");
        assertEquals("collsim compare: Unknown option: '--mesured'", lines[0], r.err());
        assertTrue(r.err().contains("--measured"), r.err());
        assertEquals("Try 'collsim compare --help'.", lines[lines.length - 1]);
        assertFalse(r.err().contains("Missing required"), r.err());
        CliRun none = CliRun.run("compare", "-c", "dgx-h100:2");
        assertEquals(ExitCodes.USAGE, none.code(), none.err());
        assertTrue(none.err().startsWith("collsim compare: Missing required option: '--measured=FILE'"), none.err());
    }

    /** A PROBLEM finding exits 0 unless --fail-on-problem: the help must not say 0 means "no problem". */
    @Test
    void diagnoseHelpTellsTheExitCodesAsTheyAre() {
        CliRun r = CliRun.run("diagnose", "--help");
        assertFalse(r.out().contains("0   no problem found"), r.out());
        assertTrue(r.out().contains("unless --fail-on-problem"), r.out());
    }

    /** The README writes {@code --routing ecmp|spray}; help and errors list them so. */
    @Test
    void routingModesAreLowerCase() {
        CliRun bad = CliRun.run("predict", "allreduce", "--backend", "flow", "--routing", "hash");
        assertEquals(ExitCodes.USAGE, bad.code(), bad.err());
        assertTrue(bad.err().contains("allowed: ecmp, spray"), bad.err());
        CliRun help = CliRun.run("predict", "--help");
        assertTrue(help.out().contains("ecmp, spray"), help.out());
    }

    /** Help texts are printed without picocli format warnings, and list the NCCL versions compare models. */
    @Test
    void compareHelpIsClean() {
        CliRun r = CliRun.run("compare", "--help");
        assertEquals(0, r.code(), r.err());
        assertFalse(r.err().contains("WARN"), r.err());
        assertTrue(r.out().contains("95% band"), r.out());
        // every carried entry (2.8 ... 2.30, NcclVersion) and the spans a user may name (NcclVersion.parse)
        assertTrue(r.out().replaceAll("\\s+", " ").contains("NCCL release to model every file with: 2.8, 2.10, 2.18,"
                + " 2.19, 2.21, 2.23, 2.25, 2.27, 2.28, 2.30 or any release 2.8 to 2.11 or 2.18 to 2.30"), r.out());
    }

    /** A hierarchical algorithm name is wider than the algo column was: the column widens, proto stays aligned. */
    @Test
    void predictColumnsStayAlignedForHierarchicalAlgorithms() {
        CliRun r = CliRun.run("predict", "allreduce", "-c", "dgx-h100x2", "--algo", "hier:rs-ar-ag", "-b", "1M",
                "-e", "1M");
        assertEquals(0, r.code(), r.err());
        String header = r.out().lines().filter(l -> l.startsWith("#") && l.contains(" algo ")).findFirst()
                .orElseThrow();
        String row = r.out().lines().filter(l -> l.contains("hier:rs-ar-ag ")).filter(l -> !l.startsWith("#"))
                .findFirst().orElseThrow();
        int algo = header.indexOf(" algo ") + 1;
        assertEquals(algo, row.indexOf("hier:rs-ar-ag"), header + "\n" + row);
        int proto = header.indexOf("proto");
        assertTrue(proto > algo + "hier:rs-ar-ag".length(), header + "\n" + row);
        assertTrue(row.charAt(proto) != ' ' && row.charAt(proto - 1) == ' ', header + "\n" + row);
    }

    @Test
    void missingClusterFileSaysNoSuchFile() {
        Path nope = dir.resolve("cluster.yaml");
        CliRun r = CliRun.run("topo", "show", "-c", nope.toString());
        assertEquals(ExitCodes.INPUT, r.code(), r.err());
        assertEquals(nope + ": -c/--cluster: no such file", r.err().lines().findFirst().orElse(""), r.err());
    }

    /**
     * A bandwidth unit written another way ({@code 400 Gbps}, {@code Gbit/s}, {@code GB}) is refused with the allowed
     * spelling suggested, in a cluster file (file:line:col), on the command line and in a report spec.
     */
    @Test
    void bandwidthUnitTyposSuggestTheAllowedSpelling() throws Exception {
        Path yaml = Files.writeString(dir.resolve("c.yaml"), "schema: collsim/v1\nname: c\nhosts: dgx-h100"
                + "\ncount: 2\nfabric:\n  kind: fat-tree\n  linkSpeed: 400 Gbps\n");
        CliRun topo = CliRun.run("topo", "check", "-c", yaml.toString());
        assertEquals(ExitCodes.INPUT, topo.code(), topo.err());
        assertTrue(topo.err().contains("c.yaml:7:14: fabric.linkSpeed: found '400 Gbps'; allowed: a number > 0 and at most 1000 TB/s with"
                + " one of GB/s, Gb/s") && topo.err().contains("; did you mean '400 Gb/s'?"), topo.out() + topo.err());
        CliRun flow = CliRun.run("predict", "allreduce", "-c", "dgx-h100x2", "--backend", "flow", "--fabric",
                "fat-tree", "--link-speed", "400 Gbit/s", "-b", "1G", "-e", "1G");
        assertEquals(ExitCodes.USAGE, flow.code(), flow.err());
        assertTrue(flow.err().contains("--link-speed: '400 Gbit/s' is not a bandwidth")
                && flow.err().contains("did you mean '400 Gb/s'?"), flow.err());
        Path spec = Files.writeString(dir.resolve("s.yaml"), "variants:\n  - name: slow\n"
                + "    nic-speed: 200 gbps\n");
        CliRun report = CliRun.run("report", spec.toString(), "-o", dir.resolve("out").toString(), "--no-progress");
        assertEquals(ExitCodes.INPUT, report.code(), report.err());
        assertTrue(report.err().contains("s.yaml:3:16") && report.err().contains("did you mean '200 Gb/s'?"),
                report.err());
    }

    /** A first word that is no command: named, with the commands and picocli's near misses; exit 2 (usage). */
    @Test
    void unknownCommandListsTheCommands() {
        CliRun r = CliRun.run("foo");
        assertEquals(ExitCodes.USAGE, r.code(), r.err());
        String[] lines = r.err().strip().split("\\R");
        assertTrue(lines[0].startsWith("collsim: unknown command 'foo'; commands: topo, predict, run, "), lines[0]);
        assertTrue(lines[0].endsWith(", merge, sweep"), lines[0]);
        assertEquals("Try 'collsim --help'.", lines[lines.length - 1]);
        assertFalse(r.err().contains("Unmatched argument"), r.err());
        CliRun typo = CliRun.run("prdict", "allreduce");
        assertEquals(ExitCodes.USAGE, typo.code(), typo.err());
        assertTrue(typo.err().contains("Did you mean 'collsim predict'"), typo.err());
        // an unknown option of the root command stays picocli's message
        assertTrue(CliRun.run("--nope").err().contains("Unknown option: '--nope'"));
    }

    /** sweep is listed with the commands; started from the cli jar (not the launcher) it says how it runs. */
    @Test
    void sweepIsACommandRunByTheLauncher() {
        CliRun help = CliRun.run("--help");
        assertTrue(help.out().lines().anyMatch(l -> l.startsWith("  sweep ")), help.out());
        CliRun r = CliRun.run("sweep", "spec.yaml");
        assertEquals(ExitCodes.USAGE, r.code(), r.err());
        assertTrue(r.err().contains("./collsim sweep SPEC.yaml"), r.err());
    }

    /** topo show prints a cloud system's name as the provider spells it (systems.tsv: Standard_ND96isr_H100_v5). */
    @Test
    void systemNamesKeepTheProvidersSpelling() {
        CliRun r = CliRun.run("topo", "show", "-c", "standard_nd96isr_h100_v5x2");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertTrue(r.out().lines().anyMatch(l -> l.equals("cluster    Standard_ND96isr_H100_v5x2")), r.out());
    }

    /** topo export into a folder that does not exist names the folder (it named a temporary file's path). */
    @Test
    void exportIntoAMissingFolderNamesIt(@TempDir Path dir) {
        Path out = dir.resolve("absent").resolve("x.dot");
        CliRun r = CliRun.run("topo", "export", "-c", "dgx-h100", "--format", "dot", "-o", out.toString());
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().contains("cannot write " + out + ": " + dir.resolve("absent").toAbsolutePath()
                + ": no such folder"), r.err());
    }
}
