package dev.collsim.cli.flow;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * User errors of {@code collsim predict --backend flow|links} and {@code collsim merge}: each is one line naming the
 * option and what is wrong, with the exit code of docs/input-limits.md's table (2 usage, 3 bad file), never a stack trace.
 */
class FlowCliErrorsTest {

    @TempDir
    Path dir;

    private static final String[] FLOW = {"predict", "allreduce", "-c", "dgx-h100x2", "--channels", "1",
        "--backend", "flow"};

    private static String[] flow(String... more) {
        return Stream.concat(Stream.of(FLOW), Stream.of(more)).toArray(String[]::new);
    }

    private static void assertUserError(CliRun r, int code, String... parts) {
        assertEquals(code, r.code(), r.err());
        assertFalse(r.err().contains("internal error") || r.err().contains("\tat "), r.err());
        for (String p : parts) {
            assertTrue(r.err().contains(p), "missing '" + p + "' in: " + r.err());
        }
    }

    @Test
    void emptyHostfileNameIsAUsageError() {
        assertUserError(run(flow("--placement", "hostfile:")), 2, "--placement hostfile: needs a file name");
    }

    @Test
    void hostfileThatIsAFolderIsABadFile() {
        assertUserError(run(flow("--placement", "hostfile:" + dir)), 3, dir + ": is a directory",
                "given to --placement");
    }

    @Test
    void missingHostfileIsABadFile() {
        Path f = dir.resolve("nope");
        assertUserError(run(flow("--placement", "hostfile:" + f)), 3, f + ": no such file (given to --placement)");
    }

    @Test
    void timelineThatIsAFolderFailsAndLeavesNoTemporaryFile() throws IOException {
        Path folder = Files.createDirectory(dir.resolve("out"));
        assertUserError(run(flow("--timeline", folder.toString())), 3, folder + ": is a directory",
                "given to --timeline");
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(1, s.count(), "only the folder itself may be in " + dir);
        }
        try (Stream<Path> s = Files.list(folder)) {
            assertEquals(0, s.count());
        }
    }

    /** Checked before simulating: the table is never printed, and no internal temporary path is named. */
    @Test
    void timelineInAMissingFolderFailsBeforeTheSimulation() {
        Path t = dir.resolve("no/such/dir/t.csv");
        CliRun r = run(flow("--timeline", t.toString()));
        assertUserError(r, 3, "cannot write " + t + ": " + dir.resolve("no/such/dir") + ": no such folder (given to"
                + " --timeline)");
        assertFalse(r.err().contains(".tmp"), r.err());
        assertEquals("", r.out());
    }

    @Test
    void timelineIsWrittenWholeWithNothingElseInItsFolder() throws IOException {
        Path t = dir.resolve("t.csv");
        CliRun r = run(flow("--timeline", t.toString()));
        assertEquals(0, r.code(), r.err());
        assertEquals(TimelineCsv.HEADER, Files.readAllLines(t).get(0));
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(1, s.count());
        }
    }

    /**
     * Every flow option but the fabric's shape, given without --backend flow|links, is refused instead of silently
     * ignored; the shape (--fabric and what goes with it) rebuilds the cluster for the analytical backend too, which
     * times the rebuilt leaf uplinks.
     */
    @Test
    void flowOptionsWithoutAFlowBackendAreUsageErrors() {
        String[][] cases = {{"--fail", "leaf0"},
            {"--fail-random-links", "1"}, {"--fail-random-nics", "1"}, {"--timeline", "t.csv"}, {"--shard", "0/2"},
            {"--job", "coll=allreduce,size=1M,ranks=8"}, {"--placement", "random"}, {"--routing", "spray"},
            {"--completion-window", "0.05"}, {"--seed", "3"}, {"--schedule", "tree"}, {"--channels", "2"},
            {"--no-pxn"}};
        for (String[] c : cases) {
            String[] args = Stream.concat(Stream.of("predict", "allreduce", "-c", "dgx-h100x2"), Stream.of(c))
                    .toArray(String[]::new);
            assertUserError(run(args), 2, c[0] + " needs --backend flow");
        }
        assertEquals(0, run("predict", "allreduce", "-c", "dgx-h100x2", "--backend", "analytical", "--fabric",
                "fat-tree").code());
        assertUserError(run("predict", "allreduce", "-c", "dgx-h100x2", "--oversubscription", "2:1"), 2,
                "--oversubscription, --leaf-radix, --planes, --rails and --link-speed need --fabric");
    }

    /** --job and --completion-window change only contention, which the links backend does not model. */
    @Test
    void contentionOptionsNeedTheFlowBackend() {
        String[] base = {"predict", "allreduce", "-c", "dgx-h100x2", "--backend", "links"};
        CliRun r = run(Stream.concat(Stream.of(base), Stream.of("--job", "coll=allreduce,size=1M,ranks=8"))
                .toArray(String[]::new));
        assertUserError(r, 2, "--job needs --backend flow; the links backend does not use it");
        r = run(Stream.concat(Stream.of(base), Stream.of("--completion-window", "0.05")).toArray(String[]::new));
        assertUserError(r, 2, "--completion-window needs --backend flow;");
    }

    @Test
    void negativeRandomFailureCountsAreRefused() {
        assertUserError(run(flow("--fail-random-links", "-1")), 2, "--fail-random-links -1: cannot fail -1 of");
        assertUserError(run(flow("--fail-random-nics", "-1")), 2, "--fail-random-nics -1: cannot fail -1 of");
    }

    @Test
    void badJobSpecsAreRefused() {
        assertUserError(run(flow("--job", "coll=allreduce,size=1M,ranks=8,channels=0")), 2,
                "channels must be >= 1, got 0");
        assertUserError(run(flow("--job", "coll=allreduce,coll=alltoall,size=1M,ranks=8")), 2,
                "key coll given twice");
        assertUserError(run(flow("--job", "coll=allreduce,size=1M,ranks=0")), 2, "ranks must be >= 1, got 0");
        assertUserError(run(flow("--job", "coll=allreduce,size=1M,ranks=8,start=-5")), 2,
                "start must be a finite number of microseconds >= 0");
    }

    @Test
    void fabricSizesNameTheOptionAndTheRange() {
        assertUserError(run(flow("--fabric", "fat-tree", "--leaf-radix", "0")), 2,
                "--leaf-radix must be >= 1 (host-facing ports per leaf), got 0");
        assertUserError(run(flow("--fabric", "fat-tree", "--planes", "0")), 2, "--planes must be >= 1");
        assertUserError(run(flow("--fabric", "fat-tree", "--oversubscription", "1:2")), 2,
                "--oversubscription: found '1:2'; allowed: down/up from 1 to 64");
        assertUserError(run(flow("--fabric", "fat-tree", "--link-speed", "fast")), 2,
                "--link-speed: 'fast' is not a bandwidth");
        assertUserError(run(flow("--completion-window", "-1")), 2, "--completion-window must be in [0, 1), got -1.0");
    }

    /** Ring moves no AllToAll data; Direct (the p2p rounds) is the only schedule here that does. */
    @Test
    void unsupportedScheduleListsTheOnesThatWork() {
        assertUserError(run("predict", "alltoall", "-c", "dgx-h100x2", "--backend", "flow", "--schedule", "ring"), 2,
                "--schedule ring: Ring has no schedule for AllToAll; schedules for AllToAll: Direct");
        assertUserError(run(flow("--ranks", "8", "--job", "coll=alltoall,size=1M,ranks=8,schedule=tree")), 2,
                "--job job1: Tree has no schedule for AllToAll; schedules for AllToAll: Direct");
    }

    /** The main job (8 ranks, contiguous) holds all of host 0; a job asking for h0 by hostfile is told so. */
    @Test
    void hostfileHostWithoutFreeGpusIsReportedAsFull() throws IOException {
        Path hosts = Files.writeString(dir.resolve("hosts"), "h0\n");
        CliRun r = run(flow("--ranks", "8", "--job", "coll=allreduce,size=1M,ranks=8,placement=hostfile:" + hosts));
        assertUserError(r, 3, hosts + ":1:1: host: host 'h0' has no free GPUs (other jobs hold them all); allowed:"
                + " a host index or h<index> of a host with free GPUs: 1");
    }

    /**
     * A DGX H100 has 8 compute NICs (ids nic0..nic7, cabled to the fabric) and 4 storage NICs (nic8..nic11, not
     * cabled; DGX H100 User Guide, the catalog's HgxEightGpu): 2 hosts have 16 NICs that a failure can affect, so
     * 17 is refused, and 6 random draws name 6 compute NICs in the settings (text header and JSON).
     */
    @Test
    void randomNicFailuresDrawOnlyNetworkedNicsAndAreNamed() throws IOException {
        assertUserError(run(flow("--fail-random-nics", "17")), 2,
                "--fail-random-nics 17: cannot fail 17 of 16 NICs with a network link; allowed: 0..16");
        CliRun r = run(flow("--fail-random-nics", "6", "--fail-random-links", "1", "--format", "json"));
        assertEquals(0, r.code(), r.err());
        String failed = line(r.out());
        Matcher m = Pattern.compile("NIC h[01]/nic(\\d+) \\(random\\)").matcher(failed);
        int nics = 0;
        while (m.find()) {
            nics++;
            assertTrue(Integer.parseInt(m.group(1)) < 8, "a storage NIC was drawn: " + failed);
        }
        assertEquals(6, nics, failed);
        assertTrue(failed.matches(".*cable \\S+>\\S+ \\(random\\).*"), failed);
        CliRun text = run(flow("--fail-random-nics", "6", "--fail-random-links", "1", "--fail", "h0/nic3"));
        assertTrue(text.out().contains("# Failed: h0/nic3, cable "), text.out());
    }

    /** @return the "Failed: ..." entry of a JSON settings array */
    private static String line(String json) throws IOException {
        for (JsonNode n : new ObjectMapper()
                .readTree(json).get("settings")) {
            if (n.asText().startsWith("Failed: ")) {
                return n.asText();
            }
        }
        throw new AssertionError("no Failed: entry in " + json);
    }

    /** Two shards whose sweeps both hold 1 MiB: the overlap is an input error naming both files and the size. */
    @Test
    void mergeOfOverlappingShardsFails() throws IOException {
        String[] sweep = {"predict", "allgather", "-c", "dgx-h100x2", "-b", "1M", "-e", "2M", "-f", "2", "--backend",
            "links", "--format", "csv"};
        Path a = Files.writeString(dir.resolve("a.csv"), run(sweep).out());
        Path b = Files.writeString(dir.resolve("b.csv"), run(Stream.concat(Stream.of(sweep),
                Stream.of("--shard", "0/2")).toArray(String[]::new)).out());
        Path out = dir.resolve("m.csv");
        assertUserError(run("merge", a.toString(), b.toString(), "-o", out.toString()), 3,
                b + ":2:1: size: size 1048576 also in " + a);
        assertFalse(Files.exists(out));
        assertUserError(run("merge", a.toString(), "-o", dir.toString()), 3, dir + ": is a directory",
                "given to -o");
    }

    /** Refused by the flow backend (not a bug): NCCL's choice for Broadcast is Ring, which has no flow schedule. */
    @Test
    void collectiveWithoutAFlowScheduleIsAUsageError() {
        assertUserError(run("predict", "broadcast", "-c", "dgx-h100x2", "-b", "1M", "-e", "1M", "--backend", "flow"),
                2, "no flow schedule for Broadcast");
    }

    /** All 16 compute NICs of two DGX H100 failed: no GPU can reach the other host, a refused what-if, exit 2. */
    @Test
    void failuresThatCutEveryNicAreAUsageError() {
        assertUserError(run("predict", "allreduce", "-c", "dgx-h100x2", "-b", "1M", "-e", "1M", "--backend", "flow",
                "--fail-random-nics", "16"), 2, "has no working NIC");
    }


    /**
     * Two DGX H100 hold 16 GPUs and the main job takes 8: a second job of 9 ranks cannot be placed on the 8 left, a
     * refused what-if (exit 2), not an internal error.
     */
    @Test
    void jobWithMoreRanksThanFreeGpusIsAUsageError() {
        assertUserError(run(flow("--ranks", "8", "--job", "coll=allreduce,size=1M,ranks=9")), 2,
                "cannot place 9 ranks on 8 free GPUs");
    }
}
