package dev.collsim.simulator;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test fixture the simulator's tests share: a catalog cluster's channel plan under NCCL's default settings, NCCL
 * variables given as name, value pairs, and the default predictor's prediction of a float sum call (sizes in bytes).
 * It works nothing out: every expected value stays in the test that asserts it.
 */
public final class SimulatorFixtures {

    private SimulatorFixtures() {
    }

    /**
     * @param cluster a catalog cluster's name ({@link ClusterLoader#load}), e.g. {@code dgx-h100x2}
     * @return the channel plan of all its GPUs, NCCL's default settings, {@link NcclVersion#DEFAULT}
     */
    public static ChannelPlan plan(String cluster) {
        return plan(cluster, NcclVersion.DEFAULT);
    }

    /**
     * @param cluster a catalog cluster's name ({@link ClusterLoader#load})
     * @param v       the NCCL release
     * @return the channel plan of all its GPUs, NCCL's default settings
     */
    public static ChannelPlan plan(String cluster, NcclVersion v) {
        Topology t = ClusterLoader.load(cluster);
        return ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, v);
    }

    /**
     * @param pairs NCCL variables: name, value, name, value, ...
     * @return the settings
     */
    public static NcclSettings env(String... pairs) {
        return env(Map.of(), pairs);
    }

    /**
     * @param base  variables set first
     * @param pairs more variables, name, value, ...; a name of {@code base} given again takes the new value
     * @return the settings
     */
    public static NcclSettings env(Map<String, String> base, String... pairs) {
        Map<String, String> m = new LinkedHashMap<>(base);
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return NcclSettings.parse(m);
    }

    /**
     * @param t     the topology
     * @param gpus  indices into {@code t.gpus()} of the communicator's GPUs
     * @param c     the collective
     * @param bytes the size, bytes
     * @param s     NCCL's settings
     * @return the default predictor's prediction of a float sum call
     */
    public static Prediction predict(Topology t, List<Integer> gpus, Collective c, long bytes, NcclSettings s) {
        return new NcclPredictor().predict(new PredictionRequest(t, gpus.stream().map(t.gpus()::get).toList(), c,
                bytes, DataType.FLOAT, RedOp.SUM, s));
    }

    /**
     * @param t     the topology
     * @param c     the collective
     * @param bytes the size, bytes
     * @param s     NCCL's settings
     * @return the default predictor's prediction of a float sum call on every GPU of {@code t}
     */
    public static Prediction predict(Topology t, Collective c, long bytes, NcclSettings s) {
        return new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), c, bytes, DataType.FLOAT, RedOp.SUM, s));
    }
}
