package dev.collsim.simulator;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.CostTable;
import dev.collsim.simulator.tuning.NcclTuningModel;
import dev.collsim.simulator.tuning.ReleaseRules;
import dev.collsim.simulator.tuning.TuningInput;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The message of a call for which NCCL's cost table has no eligible algorithm and protocol under the settings
 * ({@link PreparedCommunicator#call}): what the ranks could run without NCCL_ALGO and NCCL_PROTO, and what NCCL of
 * the release has for the function.
 */
final class NoAlgorithmMessage {

    private NoAlgorithmMessage() {
    }

    /**
     * @param table    the communicator's cost table
     * @param settings its NCCL settings
     * @param bytes    the call's bytes as the table reads them
     * @return {@code No algorithm/protocol available for ...; NCCL would fail the same way. Without ...; algorithms
     *         NCCL has for it: ...}
     */
    static String text(CostTable table, NcclSettings settings, Collective c, long bytes, DataType dataType, RedOp op) {
        return "No algorithm/protocol available for " + c.ncclName() + " on " + table.input().nRanks()
                + " ranks with " + settings + "; NCCL would fail the same way. "
                + runnable(table, settings, c, bytes, dataType, op) + "; algorithms NCCL has for it: "
                + offered(table, c);
    }

    /**
     * What would run without NCCL_ALGO and NCCL_PROTO: the same cost table filled with those two unset (the graphs,
     * node count and NVLS/CollNet support stay the communicator's), so a user who forced an algorithm the cluster
     * cannot run (NVLS across nodes without CollNet) reads what it can, not only what NCCL has.
     *
     * @return e.g. {@code "Without NCCL_ALGO/NCCL_PROTO these ranks can run: Tree, Ring, NVLSTree"}
     */
    private static String runnable(CostTable table, NcclSettings settings, Collective c, long bytes,
            DataType dataType, RedOp op) {
        Map<String, String> env = new TreeMap<>(settings.asMap());
        env.remove("NCCL_ALGO");
        env.remove("NCCL_PROTO");
        TuningInput in = table.input();
        CostTable free = NcclTuningModel.tune(new TuningInput(in.graphs(), in.nRanks(), in.nNodes(), in.minSm(),
                in.maxSm(), in.cpu(), in.nvlsSupport(), in.collNetSupport(), in.hasNvSwitch(), in.maxLocalRanks(),
                in.maxTreePattern(), in.runtimeChannels(), NcclSettings.parse(env), in.constants()));
        String algos = free.candidates(c, bytes, dataType, op).stream().map(a -> a.algorithm().ncclName())
                .distinct().collect(Collectors.joining(", "));
        return "Without NCCL_ALGO/NCCL_PROTO these ranks can run: " + (algos.isEmpty() ? "none" : algos);
    }

    /** @return the algorithms NCCL of this release has for the function, comma separated, in NCCL's order */
    private static String offered(CostTable table, Collective c) {
        ReleaseRules rules = table.input().constants().rules();
        return Arrays.stream(Algorithm.values()).filter(a -> rules.offers(c, a)
                && Arrays.stream(Protocol.values()).anyMatch(p -> NcclTuningModel.supports(c, a, p)))
                .map(Algorithm::ncclName).collect(Collectors.joining(", "));
    }
}
