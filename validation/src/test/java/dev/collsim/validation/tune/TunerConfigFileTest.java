package dev.collsim.validation.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The written file against NCCL's example tuner plugin's rules, re-derived from its README.md and plugin.c
 * (plugins/tuner/example, NCCL master 2026): 256-byte line buffer, '#' or empty lines skipped, comma-separated fields
 * with spaces trimmed, 8 to 10 fields, case-sensitive names (strcmp) with silent fallbacks, inclusive byte range,
 * -1 wildcards for nNodes/nRanks/numPipeOps/regBuff, first match wins.
 */
class TunerConfigFileTest {

    private static final TuningBand BAND = new TuningBand(22.2, "test");

    /** Hand-made point: NCCL's choice takes ncclUs, the best takes bestUs (both collsim predictions). */
    private static TunePoint point(Collective c, long bytes, Algorithm na, Protocol np, double ncclUs, Algorithm ba,
            Protocol bp, double bestUs) {
        return new TunePoint(c, bytes, bytes, na, np, 16, ncclUs, ba, bp, 16, bestUs, BAND, Double.NaN, Double.NaN);
    }

    private static TuneResult result() {
        List<TunePoint> pts = List.of(
                // 1000 -> 900 us: 10 % < 22.2 %: keep
                point(Collective.ALL_REDUCE, 1 << 20, Algorithm.RING, Protocol.LL128, 1000, Algorithm.TREE,
                        Protocol.LL128, 900),
                // 1000 -> 700 us: 30 % > 22.2 %: advise Tree/Simple at 64 MiB and 128 MiB (one line)
                point(Collective.ALL_REDUCE, 64L << 20, Algorithm.RING, Protocol.SIMPLE, 1000, Algorithm.TREE,
                        Protocol.SIMPLE, 700),
                point(Collective.ALL_REDUCE, 128L << 20, Algorithm.RING, Protocol.SIMPLE, 2000, Algorithm.TREE,
                        Protocol.SIMPLE, 1400),
                // NCCL's choice is the best: keep
                point(Collective.ALL_REDUCE, 256L << 20, Algorithm.RING, Protocol.SIMPLE, 4000, Algorithm.RING,
                        Protocol.SIMPLE, 4000),
                // 100 -> 50 us: 50 %: advise NVLSTree/LL for AllGather? (NVLSTree is not an AllGather algorithm in
                // NCCL, but the file does not know; the name must still be the plugin's 'nvls_tree')
                point(Collective.ALL_GATHER, 4096, Algorithm.RING, Protocol.LL, 100, Algorithm.NVLS_TREE,
                        Protocol.LL128, 50));
        return new TuneResult(2, 16, BAND, pts, Tuner.ranges(pts));
    }

    @Test
    void writesOnlyAdvisedRangesInThePluginsSpelling() {
        List<String> lines = TunerConfigFile.lines(result(), List.of("test"));
        List<String> config = lines.stream().filter(l -> !l.startsWith("#")).toList();
        // by hand: 64 MiB = 67108864, 128 MiB = 134217728; 2 nodes, 16 ranks; channels, numPipeOps, regBuff -1
        assertEquals(List.of("allreduce,67108864,134217728,tree,simple,-1,2,16,-1,-1",
                "allgather,4096,4096,nvls_tree,ll128,-1,2,16,-1,-1"), config);
        assertEquals(List.of(), TunerConfigFile.problems(lines));
    }

    @Test
    void pluginMatchingPicksTheAdviceAndNothingElse() {
        List<String> lines = TunerConfigFile.lines(result(), List.of());
        // what the plugin would apply for (collective, nBytes) on a 2-node 16-rank communicator, by its rules
        assertEquals(Optional.of("tree/simple"), match(lines, "allreduce", 67108864L, 2, 16));
        assertEquals(Optional.of("tree/simple"), match(lines, "allreduce", 100_000_000L, 2, 16));
        assertEquals(Optional.of("tree/simple"), match(lines, "allreduce", 134217728L, 2, 16));
        assertEquals(Optional.empty(), match(lines, "allreduce", 134217729L, 2, 16));
        assertEquals(Optional.empty(), match(lines, "allreduce", 1L << 20, 2, 16));
        assertEquals(Optional.empty(), match(lines, "allreduce", 67108864L, 1, 16), "nNodes must match");
        assertEquals(Optional.empty(), match(lines, "allreduce", 67108864L, 2, 8), "nRanks must match");
        assertEquals(Optional.of("nvls_tree/ll128"), match(lines, "allgather", 4096L, 2, 16));
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
                return Optional.of(f[3].trim() + "/" + f[4].trim());
            }
        }
        return Optional.empty();
    }

    @Test
    void acceptsTheReadmesFullLines() {
        // the 10-field lines of the plugin README's "Example Configuration"
        assertEquals(List.of(), TunerConfigFile.problems(List.of("# comment", "",
                "allreduce,0,65536,tree,simple,2,1,-1,-1,1", "allreduce,65537,1048576,ring,simple,4,4,32,1,0",
                "allreduce,1048577,4294967295,ring,ll128,-1,-1,-1,4,-1",
                "broadcast,32769,4294967295,ring,simple,2,-1,-1,1,0")));
    }

    @Test
    void flagsWhatThePluginWouldDropOrMisread() {
        List<String> bad = List.of(
                "allreduce,0,65536,Tree,simple,-1,1,2,-1,-1",      // strcmp: 'Tree' silently becomes ring
                "allreduce,0,65536,nvlstree,simple,-1,1,2,-1,-1",  // the plugin spells it nvls_tree
                "all_reduce,0,65536,tree,simple,-1,1,2,-1,-1",     // unknown collective silently becomes allreduce
                "allreduce,0,65536,tree,ll64,-1,1,2,-1,-1",        // unknown protocol silently becomes simple
                "allreduce,0,,tree,simple,-1,1,2,-1,-1",           // strtok collapses the empty field: shifted
                "allreduce,9,8,tree,simple,-1,1,2,-1,-1",          // min > max never matches
                "allreduce,0,65536,tree,simple,0,1,2,-1,-1",       // channels 0 is neither -1 nor a count
                "allreduce,0,65536,tree,simple,-1,1,2,-1,2",       // regBuff is -1, 0 or 1
                " # indented comment",                             // not a comment: a 1-field line, dropped
                "allreduce,0,65536,tree,simple,-1,1,2",            // 8 fields: accepted by the plugin, not written
                "# " + "x".repeat(253));                           // 255 characters: past the 256-byte buffer
        List<String> p = TunerConfigFile.problems(bad);
        assertEquals(bad.size(), p.size(), String.join("\n", p));
        assertTrue(p.get(0).contains("line 1, field algorithm: found 'Tree'"), p.get(0));
        assertTrue(p.get(4).startsWith("line 5"), p.get(4));
    }
}
