package dev.collsim.validation.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PreparedCommunicator;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The tuner file's lines cover the swept sizes without gaps and switch where the advice switches. */
class LineCoverTest {

    private static final TuningBand BAND = new TuningBand(10, "test");

    /** NCCL picks Ring/LL up to 1200 bytes, Ring/LL128 to 1500, Ring/Simple above; nothing is advised. */
    private static TunePoint world(long bytes) {
        Protocol p = bytes <= 1200 ? Protocol.LL : bytes <= 1500 ? Protocol.LL128 : Protocol.SIMPLE;
        return new TunePoint(Collective.ALL_REDUCE, bytes, bytes, Algorithm.RING, p, 1, 10, Algorithm.RING, p, 1, 0,
                10, BAND, Double.NaN, Double.NaN);
    }

    /** @return each line as {@code min..max ALGORITHM/PROTOCOL advised} */
    private static List<String> text(List<ConfigLine> lines) {
        return lines.stream().map(l -> l.minBytes() + ".." + l.maxBytes() + " " + l.target().algorithm().name() + "/"
                + l.target().protocol().name() + " " + l.advised()).toList();
    }

    @Test
    void twoSwitchesBetweenTwoSweptSizesAreBothFound() {
        List<ConfigLine> lines = LineCover.of(List.of(world(1000), world(2000)), LineCoverTest::world);
        // by hand from world(): [1000, 1200] LL, [1201, 1500] LL128, [1501, 2000] Simple
        assertEquals(List.of("1000..1200 RING/LL false",
                "1201..1500 RING/LL128 false",
                "1501..2000 RING/SIMPLE false"), text(lines));
    }

    /** Ring/Simple except Ring/LL128 at 1301-1400 bytes: a detour between two swept sizes of the same choice. */
    private static TunePoint detour(long bytes) {
        Protocol p = bytes > 1300 && bytes <= 1400 ? Protocol.LL128 : Protocol.SIMPLE;
        return new TunePoint(Collective.ALL_REDUCE, bytes, bytes, Algorithm.RING, p, 1, 10, Algorithm.RING, p, 1, 0,
                10, BAND, Double.NaN, Double.NaN);
    }

    @Test
    void aDetourBetweenTwoSweptSizesOfOneChoiceIsFound() {
        // 1000 and 2000 are both Simple; the scan reads 1000 x 2^(k/16), of which 1354 (k = 7) is in the detour, and
        // bisection finds its ends. By hand from detour(): [1000, 1300] Simple, [1301, 1400] LL128, [1401, 2000] Simple
        List<ConfigLine> lines = LineCover.of(List.of(detour(1000), detour(2000)), LineCoverTest::detour);
        assertEquals(List.of("1000..1300 RING/SIMPLE false",
                "1301..1400 RING/LL128 false",
                "1401..2000 RING/SIMPLE false"), text(lines));
    }

    /**
     * NCCL picks Ring/LL up to 1500 bytes, Ring/Simple above; collsim's best is Ring/Simple from 1201 bytes (8 us
     * against NCCL's 10 us at 1201-1500: a 20 % gain over the 10 % band) and Tree/Simple from 1801 bytes at a 5 %
     * gain (9.5 us against 10 us, under the band).
     */
    private static TunePoint ownSwitch(long bytes) {
        Protocol nccl = bytes <= 1500 ? Protocol.LL : Protocol.SIMPLE;
        Algorithm bestA = bytes > 1800 ? Algorithm.TREE : Algorithm.RING;
        Protocol bestP = bytes <= 1200 ? Protocol.LL : Protocol.SIMPLE;
        double bestUs = bytes > 1800 ? 9.5 : bytes > 1200 && bytes <= 1500 ? 8 : 10;
        return new TunePoint(Collective.ALL_REDUCE, bytes, bytes, Algorithm.RING, nccl, 1, 10, bestA, bestP, 1, 0,
                bestUs, BAND, Double.NaN, Double.NaN);
    }

    @Test
    void whereNcclSwitchesToTheAdvisedChoiceItselfANewLineKeepsIt() {
        // by hand from ownSwitch(): [1000, 1200] NCCL's Ring/LL kept (no other choice); [1201, 1500] Ring/Simple
        // advised (20 % > 10 %); [1501, 2000] Ring/Simple is NCCL's own (Tree/Simple's 5 % at 1801-2000 is under the
        // band): the same target as the advised line, but no advice, so a line of its own
        List<ConfigLine> lines = LineCover.of(List.of(ownSwitch(1000), ownSwitch(2000)), LineCoverTest::ownSwitch);
        assertEquals(List.of("1000..1200 RING/LL false",
                "1201..1500 RING/SIMPLE true",
                "1501..2000 RING/SIMPLE false"), text(lines));
    }

    /**
     * NCCL picks Ring/LL at every size; Ring/Simple's predicted gain peaks between the swept sizes 1000 and 2000:
     * 10.6 - 1.6 |bytes - 1500| / 500 percent (9.0 % at both swept sizes, under the 10 % band).
     */
    private static TunePoint peak(long bytes) {
        double gain = 10.6 - 1.6 * Math.abs(bytes - 1500) / 500;
        Protocol best = gain > 10 ? Protocol.SIMPLE : Protocol.LL;
        return new TunePoint(Collective.ALL_REDUCE, bytes, bytes, Algorithm.RING, Protocol.LL, 1, 10, Algorithm.RING,
                best, 1, 0, 10 * (1 - gain / 100), BAND, Double.NaN, Double.NaN);
    }

    /**
     * No margin on top of the band (docs/tune.md "No margin on top of the band"): a line whose gain peaks 0.6 points
     * above the band is advised, from the first byte count whose gain exceeds 10 %. By hand: gain &gt; 10 where
     * |bytes - 1500| &lt; 187.5, so 1313..1687 (1313: 10.6 - 1.6 x 187 / 500 = 10.0016 %). The scan reads 1000 x
     * 2^(k/16); in the line k = 7..12 (1354, 1414, 1476, 1542, 1610, 1681) and the bisection's sizes near its ends;
     * the largest gain read is at 1476: 10.6 - 1.6 x 24 / 500 = 10.5232 %, the smallest at 1313.
     */
    @Test
    void aLineBetweenSweptSizesThatJustPassesTheBandIsAdvisedAndShowsItsGains() {
        List<ConfigLine> lines = LineCover.of(List.of(peak(1000), peak(2000)), LineCoverTest::peak);
        assertEquals(List.of("1000..1312 RING/LL false",
                "1313..1687 RING/SIMPLE true",
                "1688..2000 RING/LL false"), text(lines));
        List<TunePoint> read = lines.get(1).read();
        assertEquals(10.0016, read.stream().mapToDouble(TunePoint::gainPercent).min().orElseThrow(), 1e-9);
        assertEquals(10.5232, read.stream().mapToDouble(TunePoint::gainPercent).max().orElseThrow(), 1e-9);
        assertEquals(1313, read.get(0).bytes());
        assertEquals(1000, lines.get(0).read().get(0).bytes());
    }

    @Test
    void everySizeBetweenTheSweptOnesGetsTheLineOfItsOwnChoice() {
        // 2 DGX H100 (16 ranks, NVLS and Tree eligible): swept by factors of 4, checked at 120 sizes in between
        Topology t = Catalog.standalone(Catalog.hostType("dgx-h100").orElseThrow(), 2);
        PreparedCommunicator comm = new NcclPredictor().prepare(t, t.gpus(), NcclSettings.DEFAULTS);
        PerformanceParameters pp = PerformanceParameters.DEFAULTS;
        List<Long> sizes = new ArrayList<>();
        for (long s = 64; s <= (1L << 32); s *= 4) {
            sizes.add(s);
        }
        for (Collective c : List.of(Collective.ALL_REDUCE, Collective.ALL_GATHER)) {
            TuneResult r = Tuner.sweep(comm, pp, BAND, List.of(c), sizes, Evidence.NONE);
            List<ConfigLine> lines = r.lines();
            for (int i = 1; i < lines.size(); i++) {
                assertEquals(lines.get(i - 1).maxBytes() + 1, lines.get(i).minBytes(), "contiguous: " + lines);
            }
            Random rnd = new Random(18);
            for (int k = 0; k < 120; k++) {
                long s = (long) Math.exp(Math.log(64) + rnd.nextDouble() * (Math.log(1L << 32) - Math.log(64)));
                long bytes = comm.call(c, s, DataType.FLOAT, RedOp.SUM).bytes();
                List<TunePoint> at = Tuner.points(comm, pp, BAND, List.of(c), List.of(s), Evidence.NONE);
                if (bytes == 0) {
                    // AllGather below 16 B per rank (256 B on 16 ranks): an empty call, no choice and no line
                    assertEquals(List.of(), at, c + " at " + s + " B");
                    continue;
                }
                TunePoint p = at.get(0);
                ConfigLine l = lines.stream().filter(x -> x.minBytes() <= bytes && bytes <= x.maxBytes()).findFirst()
                        .orElseThrow(() -> new AssertionError(c + " " + bytes + " B matches no line: " + lines));
                assertEquals(p.target(), l.target(), c + " at " + s + " B (" + bytes + " B selected): " + lines);
            }
        }
    }
}
