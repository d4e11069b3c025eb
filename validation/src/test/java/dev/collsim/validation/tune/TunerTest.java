package dev.collsim.validation.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.PreparedCommunicator;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.MeasurementReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Tuner on the 2x H200 (NV18) machine's topology dump (data/device/h200x2-2026-11-29, NCCL 2.28, NCCL_NVLS_ENABLE=0
 * as in every run there). NCCL picks Ring/LL for AllReduce up to 1 MiB on it (its LL table entry, not collsim's
 * parameters, decides), so a model told that LL runs at 1 % of its bandwidth must advise away from LL where the
 * bandwidth term matters (1 MiB) and not where latency dominates (8 B: 8 B at 1 % of LL's tens of GB/s adds well under
 * a microsecond, far below the 11.9 % band of a ~10 us call).
 */
class TunerTest {

    private static final Path DIR = Path.of("..", "data", "device", "h200x2-2026-11-29");
    private static final NcclSettings ENV = NcclSettings.parse(Map.of("NCCL_NVLS_ENABLE", "0"));

    private static Topology topo() throws Exception {
        return ClusterLoader.read("nccl-topo-dump.xml", Files.readString(DIR.resolve("nccl-topo-dump.xml")));
    }

    /** The defaults with LL at 1 % efficiency (built through the JSON form, so every other parameter is kept). */
    private static PerformanceParameters slowLl() {
        ObjectMapper m = new ObjectMapper();
        ObjectNode tree = m.valueToTree(PerformanceParameters.DEFAULTS);
        tree.put("bwEfficiencyLL", 0.01);
        try {
            return m.treeToValue(tree, PerformanceParameters.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void advisesAwayFromACripledProtocolOnlyWhereItMatters() throws Exception {
        Topology t = topo();
        NcclPredictor p = new NcclPredictor(NcclVersion.parse("2.28"), slowLl());
        PreparedCommunicator comm = p.prepare(t, t.gpus(), ENV);
        TuneResult r = Tuner.sweep(comm, slowLl(), TuningBand.UNCALIBRATED, List.of(Collective.ALL_REDUCE),
                List.of(8L, 1L << 20), Evidence.NONE);
        TunePoint small = r.points().get(0);
        TunePoint mid = r.points().get(1);
        assertEquals(Protocol.LL, small.ncclProtocol());
        assertEquals(Protocol.LL, mid.ncclProtocol());
        assertFalse(small.recommended(), "8 B: " + small);
        assertTrue(mid.recommended(), "1 MiB: " + mid);
        assertNotEquals(Protocol.LL, mid.bestProtocol());
        assertTrue(mid.gainPercent() > 50, mid.toString());
        assertEquals(1, r.recommended().size());
        assertEquals(1048576L, r.recommended().get(0).minBytes());
    }

    @Test
    void envSettingsMakeNcclPickTheAdvice() throws Exception {
        Topology t = topo();
        NcclPredictor p = new NcclPredictor(NcclVersion.parse("2.28"), slowLl());
        // 512 KiB-2 MiB: one best algorithm and protocol at every size (at 256 KiB Ring/LL128, at 512 KiB Ring/Simple since the Hopper NVLink LL128
        // step, perf.NvlinkLl128Hop, so no one NCCL_PROTO covers it and the advice goes to the tuner file instead)
        List<Long> sizes = List.of(512L << 10, 1L << 20, 2L << 20);
        TuneResult r = Tuner.sweep(p.prepare(t, t.gpus(), ENV), slowLl(), TuningBand.UNCALIBRATED,
                List.of(Collective.ALL_REDUCE), sizes, Evidence.NONE);
        TuneEnv env = TuneEnv.of(r, s -> p.prepare(t, t.gpus(), merged(s)), slowLl());
        assertFalse(env.settings().isEmpty(), env.notes().toString());
        // checked through the ordinary prediction path, with the settings parsed as a user's environment
        Map<String, String> user = new HashMap<>(env.settings());
        user.put("NCCL_NVLS_ENABLE", "0");
        for (int i = 0; i < sizes.size(); i++) {
            Prediction pr = p.predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, sizes.get(i),
                    DataType.FLOAT, RedOp.SUM, NcclSettings.parse(user)));
            assertEquals(r.points().get(i).bestAlgorithm(), pr.algorithm());
            assertEquals(r.points().get(i).bestProtocol(), pr.protocol());
        }
    }

    private static NcclSettings merged(NcclSettings s) {
        Map<String, String> m = new HashMap<>(s.asMap());
        m.put("NCCL_NVLS_ENABLE", "0");
        return NcclSettings.parse(m);
    }

    @Test
    void measuredEvidenceFromTheAlgorithmSweep() throws Exception {
        // collsim-sweep-NCCL_ALGO.txt, block NCCL_ALGO=Tree vs collsim-all_reduce.txt (NCCL's choice): read as files
        List<Dataset> data = new ArrayList<>();
        data.addAll(MeasurementReader.read(DIR.resolve("collsim-all_reduce.json")));
        data.addAll(MeasurementReader.read(DIR.resolve("collsim-sweep-NCCL_ALGO.json")));
        Evidence ev = new Evidence(data);
        double nccl = ev.ncclChoiceUs(Collective.ALL_REDUCE, 2, 8);
        assertTrue(nccl > 0, "NCCL's own choice was measured at 8 B");
        assertTrue(Double.isNaN(ev.ncclChoiceUs(Collective.ALL_REDUCE, 4, 8)), "no 4-rank run");
        assertTrue(Double.isNaN(ev.ncclChoiceUs(Collective.BROADCAST, 2, 8)), "no broadcast in these files");
    }

    @Test
    void channelLimitInTheEnvIsWrittenOnlyWhereNoSizeSlowsDown() throws Exception {
        Topology t = topo();
        NcclPredictor p = new NcclPredictor(NcclVersion.parse("2.28"), PerformanceParameters.DEFAULTS);
        PreparedCommunicator comm = p.prepare(t, t.gpus(), ENV);
        TuneResult own = Tuner.sweep(comm, PerformanceParameters.DEFAULTS, TuningBand.UNCALIBRATED,
                List.of(Collective.ALL_REDUCE), List.of(8L << 30), Evidence.NONE);
        TunePoint q = own.points().get(0);
        // a point that says 4 channels would halve the time at 8 GiB (a pretend advice: the model gives no such gain)
        TunePoint pretend = new TunePoint(q.collective(), q.sizeBytes(), q.bytes(), q.ncclAlgorithm(),
                q.ncclProtocol(), q.ncclChannels(), q.ncclUs(), q.ncclAlgorithm(), q.ncclProtocol(), 4, 4,
                q.ncclUs() / 2, q.band(), Double.NaN, Double.NaN);
        TuneResult r = new TuneResult(own.nNodes(), own.nRanks(), own.band(), List.of(pretend), List.of(),
                List.of());
        TuneEnv env = TuneEnv.of(r, s -> p.prepare(t, t.gpus(), merged(s)), PerformanceParameters.DEFAULTS);
        // re-predicted under NCCL_MAX_NCHANNELS=4 the 8 GiB call is cap-bound on 4 channels: about
        // 8589934592 B / (1000 x 4 x 20.7 GB/s) = 103743 us (measured 104490 us,
        // collsim-sweep-NCCL_MAX_NCHANNELS.txt), far slower than NCCL's own count, so nothing is written
        assertFalse(env.settings().containsKey("NCCL_MAX_NCHANNELS"), env.settings().toString());
        assertTrue(env.notes().stream().anyMatch(n -> n.contains("NCCL_MAX_NCHANNELS=4") && n.contains("8589934592 B")),
                env.notes().toString());
        assertTrue(q.ncclUs() < 103_743 / 2.0, "NCCL's own count is much faster: " + q.ncclUs());
    }

    @Test
    void aForcedChannelCountMustBeatTheBandToBeAdvised() {
        TuningBand band = new TuningBand(13.1, "test");
        // by hand: 100 us on NCCL's own count; 86 us forced is a 14 % gain (> 13.1 %), 87 us 13 % and 86.9 us 13.1 %
        // (not more than the band), 110 us a loss
        assertEquals(4, Tuner.channelsToForce(100, 86, 4, band.percentAt(8)));
        assertEquals(0, Tuner.channelsToForce(100, 87, 4, band.percentAt(8)));
        assertEquals(0, Tuner.channelsToForce(100, 86.9, 4, band.percentAt(8)));
        assertEquals(0, Tuner.channelsToForce(100, 110, 4, band.percentAt(8)));
        assertEquals(0, Tuner.channelsToForce(100, 50, 0, band.percentAt(8)), "no faster forced count");
    }
}
