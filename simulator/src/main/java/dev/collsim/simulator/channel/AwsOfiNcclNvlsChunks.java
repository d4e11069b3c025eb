package dev.collsim.simulator.channel;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.nccl.env.NcclVariable;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Topology;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The NVLS chunk settings aws-ofi-nccl puts into NCCL's environment on AWS hosts: NCCL_NVLS_CHUNKSIZE and
 * NCCL_NVLSTREE_MAX_CHUNKSIZE, both 524288 bytes (512 KiB), each unless the run set it. A setting of the net plugin,
 * not of NCCL; applied where NCCL's settings are read ({@code simulator.PreparedCommunicator}), after the run's own.
 *
 * <p>What the plugin does: aws/aws-ofi-nccl v1.8.0-aws (tagged 2024-02-17) {@code src/platform-aws.c
 * platform_init} sets NCCL_NVLSTREE_MAX_CHUNKSIZE=524288 with {@code setenv(..., 0)} (a value the user set is kept),
 * because "NCCL v2.19.3 reduced the chunk size used when running NVLS Tree algorithm on greater than 4 nodes to 64KiB.
 * This drastically impacted performance on AWS ... NCCL v2.20.3 has made this a tunable"; v1.9.0-aws (2024-04-04)
 * adds NCCL_NVLS_CHUNKSIZE=524288 ("The NVLSTree chunk size can not be larger than the NVLS chunk size"); both
 * unconditionally on every EC2 platform up to v1.14, then in the platform table's environment of p5/p5e, p5en/p6-b200
 * and later p-series (v1.17.0 {@code src/platform-aws.cpp platform_data_map}). Public p5 logs print both lines
 * ("NET/OFI Setting NCCL_NVLSTREE_MAX_CHUNKSIZE to 512KiB", "... NCCL_NVLS_CHUNKSIZE to 512KiB"; plugin 1.11.0 to
 * 1.15.0). The plugin initialises with NCCL's network at communicator init, on one node too.
 *
 * <p>What NCCL does with them: {@code comm->nvlsChunkSize} = NCCL_NVLS_CHUNKSIZE (v2.18.5-1 to v2.30.7-1
 * {@code src/transport/nvls.cc}), the start of the NVLS AllReduce chunk and, from 2.21, of the NVLSTree chunk; the
 * NVLSTree chunk is capped by NCCL_NVLSTREE_MAX_CHUNKSIZE where set, else by NCCL's own rule, 64 KiB on 4 or more
 * nodes (v2.20.3-1 {@code src/enqueue.cc} line 1715, v2.26.2-1 line 1894; v2.30.7-1 {@code src/transport/nvls.cc}:
 * "env var &gt; tuning &gt; fallback"). So on 2 nodes of 8 the NVLSTree chunk runs 256 KiB from 512 MiB and 512 KiB
 * from 2 GiB (128 KiB at NCCL's default), the chunk 2.20's (its Simple step, 512 KiB) was.
 *
 * <p>collsim has no instance type or plugin release in its model, so the rule reads EFA between (or on) the hosts as
 * aws-ofi-nccl, and the run's NCCL release stands for the plugin's: 2.20 and later ({@link #FIRST_MINOR}, the first
 * release that reads NCCL_NVLSTREE_MAX_CHUNKSIZE, current when v1.8.0 and v1.9.0 were tagged). Stateless.
 */
public final class AwsOfiNcclNvlsChunks {

    /** First NCCL 2 minor release taken to run with aws-ofi-nccl v1.8.0 or later (class comment). */
    public static final int FIRST_MINOR = 20;

    /** The chunk aws-ofi-nccl sets for both variables, bytes. */
    public static final long CHUNK = 512 << 10;

    private AwsOfiNcclNvlsChunks() {
    }

    /**
     * @param topology the cluster
     * @param runMinor the run's NCCL 2 minor release
     * @return true when aws-ofi-nccl sets the NVLS chunks for this run: EFA, NCCL 2.20 or later
     */
    public static boolean applies(Topology topology, int runMinor) {
        return topology.networkClass() == NetworkClass.EFA && runMinor >= FIRST_MINOR;
    }

    /**
     * @param topology the cluster
     * @param settings the run's NCCL settings
     * @param runMinor the run's NCCL 2 minor release
     * @return {@code settings} with NCCL_NVLS_CHUNKSIZE and NCCL_NVLSTREE_MAX_CHUNKSIZE at {@link #CHUNK} where
     *         {@link #applies} and the run left them unset, else {@code settings}
     */
    public static NcclSettings apply(Topology topology, NcclSettings settings, int runMinor) {
        if (!applies(topology, runMinor)) {
            return settings;
        }
        Map<String, String> env = new LinkedHashMap<>(settings.asMap());
        env.putIfAbsent(NcclVariable.NCCL_NVLS_CHUNKSIZE.name(), Long.toString(CHUNK));
        env.putIfAbsent(NcclVariable.NCCL_NVLSTREE_MAX_CHUNKSIZE.name(), Long.toString(CHUNK));
        return NcclSettings.parse(env);
    }
}
