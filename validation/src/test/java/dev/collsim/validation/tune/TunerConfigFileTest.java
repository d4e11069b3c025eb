package dev.collsim.validation.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The written file against NCCL's example tuner plugin's rules, re-derived from its README.md and plugin.c
 * (plugins/tuner/example, NCCL master 2026): 256-byte line buffer, '#' or empty lines skipped, comma-separated fields
 * with spaces trimmed, 8 to 10 fields, case-sensitive names (strcmp) with silent fallbacks, inclusive byte range,
 * -1 wildcards for nNodes/nRanks/numPipeOps/regBuff, first match wins; channels 0 keeps NCCL's own count and -1 the
 * plugin's default of 1 (plugin.c, NCCL 2.30.7).
 */
class TunerConfigFileTest {

    private static final TuningBand BAND = new TuningBand(22.2, "test");

    /**
     * A hand-made world for one 2-node 16-rank communicator, AllReduce: NCCL picks Ring/LL128 up to 3,000,000 bytes
     * and Ring/Simple above; collsim predicts Tree/Simple 30 % faster (above the 22.2 % band) from 40,000,000 to
     * 150,000,000 bytes and 10 % faster (below it) elsewhere.
     */
    private static TunePoint world(long bytes) {
        Protocol np = bytes <= 3_000_000 ? Protocol.LL128 : Protocol.SIMPLE;
        double ncclUs = 1000;
        double bestUs = bytes >= 40_000_000 && bytes <= 150_000_000 ? 700 : 900;
        return new TunePoint(Collective.ALL_REDUCE, bytes, bytes, Algorithm.RING, np, 16, ncclUs, Algorithm.TREE,
                Protocol.SIMPLE, 16, 0, bestUs, BAND, Double.NaN, Double.NaN);
    }

    private static TuneResult result() {
        List<TunePoint> ar = List.of(world(1 << 20), world(64L << 20), world(128L << 20), world(256L << 20));
        // 100 -> 50 us: 50 %: advise NVLSTree/LL128 for AllGather on 4 channels (NVLSTree is not an AllGather
        // algorithm in NCCL, but the file does not know; the name must still be the plugin's 'nvls_tree')
        TunePoint ag = new TunePoint(Collective.ALL_GATHER, 4096, 4096, Algorithm.RING, Protocol.LL, 16, 100,
                Algorithm.NVLS_TREE, Protocol.LL128, 4, 4, 50, BAND, Double.NaN, Double.NaN);
        List<TunePoint> pts = new ArrayList<>(ar);
        pts.add(ag);
        List<ConfigLine> lines = new ArrayList<>(LineCover.of(ar, TunerConfigFileTest::world));
        lines.addAll(LineCover.of(List.of(ag), s -> {
            throw new AssertionError("one point needs no probe");
        }));
        return new TuneResult(2, 16, BAND, pts, Tuner.ranges(pts), lines);
    }

    @Test
    void coversEverySweptSizeInThePluginsSpelling() {
        List<String> lines = TunerConfigFile.lines(result(), List.of("test"));
        List<String> config = lines.stream().filter(l -> !l.startsWith("#")).toList();
        // by hand from world(): 1 MiB = 1048576 up to NCCL's switch at 3000000/3000001, Ring/Simple kept up to the
        // advice's start at 40000000, the advice to its end 150000000, then Ring/Simple kept to 256 MiB = 268435456;
        // 2 nodes, 16 ranks; channels 0 (NCCL's own count) except the AllGather advice's 4; numPipeOps, regBuff -1
        assertEquals(List.of("allreduce,1048576,3000000,ring,ll128,0,2,16,-1,-1",
                "allreduce,3000001,39999999,ring,simple,0,2,16,-1,-1",
                "allreduce,40000000,150000000,tree,simple,0,2,16,-1,-1",
                "allreduce,150000001,268435456,ring,simple,0,2,16,-1,-1",
                "allgather,4096,4096,nvls_tree,ll128,4,2,16,-1,-1"), config);
        assertEquals(List.of(), TunerConfigFile.problems(lines));
    }

    @Test
    void pluginMatchingPicksTheAdviceAndNcclsOwnChoiceElsewhere() {
        List<String> lines = TunerConfigFile.lines(result(), List.of());
        // what the plugin would apply for (collective, nBytes) on a 2-node 16-rank communicator, by its rules
        assertEquals(Optional.of("tree/simple/0"), match(lines, "allreduce", 67108864L, 2, 16));
        assertEquals(Optional.of("tree/simple/0"), match(lines, "allreduce", 100_000_000L, 2, 16));
        assertEquals(Optional.of("ring/simple/0"), match(lines, "allreduce", 150_000_001L, 2, 16));
        assertEquals(Optional.of("ring/ll128/0"), match(lines, "allreduce", 1L << 20, 2, 16));
        assertEquals(Optional.of("ring/simple/0"), match(lines, "allreduce", 3_000_001L, 2, 16));
        assertEquals(Optional.empty(), match(lines, "allreduce", (1L << 20) - 1, 2, 16), "below the sweep");
        assertEquals(Optional.empty(), match(lines, "allreduce", (256L << 20) + 1, 2, 16), "above the sweep");
        assertEquals(Optional.empty(), match(lines, "allreduce", 67108864L, 1, 16), "nNodes must match");
        assertEquals(Optional.empty(), match(lines, "allreduce", 67108864L, 2, 8), "nRanks must match");
        assertEquals(Optional.of("nvls_tree/ll128/4"), match(lines, "allgather", 4096L, 2, 16));
    }

    /** The plugin's matching (README "Dimension Matching", plugin.c pluginGetCollInfo), on the parsed fields. */
    private static Optional<String> match(List<String> lines, String coll, long nBytes, int nNodes, int nRanks) {
        for (String l : lines) {
            if (l.isEmpty() || l.charAt(0) == '#') {
                continue;
            }
            String[] f = l.split(",");
            if (f.length < 8) {
                continue;
            }
            int pipe = f.length > 8 ? Integer.parseInt(f[8].trim()) : -1;
            int reg = f.length > 9 ? Integer.parseInt(f[9].trim()) : -1;
            int nodes = Integer.parseInt(f[6].trim());
            int ranks = Integer.parseInt(f[7].trim());
            if (f[0].trim().equals(coll) && nBytes >= Long.parseUnsignedLong(f[1].trim())
                    && nBytes <= Long.parseUnsignedLong(f[2].trim()) && (nodes == -1 || nodes == nNodes)
                    && (ranks == -1 || ranks == nRanks) && (pipe == -1 || pipe == 1) && (reg == -1 || reg == 0)) {
                return Optional.of(f[3].trim() + "/" + f[4].trim() + "/" + f[5].trim());
            }
        }
        return Optional.empty();
    }

    @Test
    void acceptsTheReadmesFullLinesButFlagsItsMinusOneChannels() {
        // the 10-field lines of the plugin README's "Example Configuration"
        assertEquals(List.of(), TunerConfigFile.problems(List.of("# comment", "",
                "allreduce,0,65536,tree,simple,2,1,-1,-1,1", "allreduce,65537,1048576,ring,simple,4,4,32,1,0",
                "broadcast,32769,4294967295,ring,simple,2,-1,-1,1,0")));
        // README: "-1 to keep NCCL's default channel selection"; plugin.c (NCCL 2.30.7) starts from *nChannels = 1
        // and only overwrites it for channels != -1, and NCCL uses any non-zero count: one channel
        List<String> p = TunerConfigFile.problems(List.of("allreduce,1048577,4294967295,ring,ll128,-1,-1,-1,4,-1"));
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).contains("field channels: found '-1'") && p.get(0).contains("1 channel"), p.get(0));
    }

    @Test
    void flagsWhatThePluginWouldDropOrMisread() {
        List<String> bad = List.of(
                "allreduce,0,65536,Tree,simple,0,1,2,-1,-1",       // strcmp: 'Tree' silently becomes ring
                "allreduce,0,65536,nvlstree,simple,0,1,2,-1,-1",   // the plugin spells it nvls_tree
                "all_reduce,0,65536,tree,simple,0,1,2,-1,-1",      // unknown collective silently becomes allreduce
                "allreduce,0,65536,tree,ll64,0,1,2,-1,-1",         // unknown protocol silently becomes simple
                "allreduce,0,,tree,simple,0,1,2,-1,-1",            // strtok collapses the empty field: shifted
                "allreduce,9,8,tree,simple,0,1,2,-1,-1",           // min > max never matches
                "allreduce,0,65536,tree,simple,-1,1,2,-1,-1",      // channels -1: the plugin's default, 1 channel
                "allreduce,0,65536,tree,simple,0,1,2,-1,2",        // regBuff is -1, 0 or 1
                " # indented comment",                             // not a comment: a 1-field line, dropped
                "allreduce,0,65536,tree,simple,0,1,2",             // 8 fields: accepted by the plugin, not written
                "# " + "x".repeat(253));                           // 255 characters: past the 256-byte buffer
        List<String> p = TunerConfigFile.problems(bad);
        assertEquals(bad.size(), p.size(), String.join("\n", p));
        assertTrue(p.get(0).contains("line 1, field algorithm: found 'Tree'"), p.get(0));
        assertTrue(p.get(4).startsWith("line 5"), p.get(4));
    }

    @Test
    void listsTheAllowedNamesInOneOrder() {
        // the plugin's names (README "collective_type", "algorithm", "protocol") in the order of collsim's enums
        // (AllReduce, AllGather, ReduceScatter, Broadcast, Reduce; Tree, Ring, CollNet Direct/Chain, NVLS, NVLSTree,
        // PAT; LL, LL128, Simple): Map.of's order is salted per JVM, so a message could differ from run to run
        List<String> p = TunerConfigFile.problems(List.of("all_reduce,0,65536,treee,ll64,0,1,2,-1,-1"));
        assertEquals(List.of(
                "line 1, field collective_type: found 'all_reduce', allowed [allreduce, allgather, reducescatter,"
                        + " broadcast, reduce]",
                "line 1, field algorithm: found 'treee', allowed [tree, ring, collnet_direct, collnet_chain, nvls,"
                        + " nvls_tree, pat]",
                "line 1, field protocol: found 'll64', allowed [ll, ll128, simple]"), p);
    }

    /**
     * A header longer than the plugin's 254-character line (256-byte buffer less newline and terminator) is broken
     * into several comment lines at spaces, none over 254, whose words read back as the header; it was cut at 254,
     * so tune's first line ended "default parameters (fit". 300 words "ab " are 899 characters: with "# " each line
     * holds 84 words (84 x 3 - 1 = 251 characters plus 2), so 3 full lines and 48 words on a fourth.
     */
    @Test
    void aLongHeaderIsWrappedNotCut() {
        String header = String.join(" ", Collections.nCopies(300, "ab"));
        List<String> lines = TunerConfigFile.comment(header);
        assertEquals(4, lines.size(), lines.toString());
        assertTrue(lines.stream().allMatch(l -> l.startsWith("# ") && l.length() <= TunerConfigFile.MAX_LINE));
        assertEquals(253, lines.get(0).length());
        assertEquals(header, String.join(" ", lines.stream().map(l -> l.substring(2)).toList()));
        assertEquals(List.of(), TunerConfigFile.problems(lines));
    }
}
