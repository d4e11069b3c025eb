package dev.collsim.simulator.channel;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.nccl.env.NcclVariable;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.OfiRailGroups;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The NCCL_PROTO=simple that aws-ofi-nccl sets in NCCL's environment on EFA hosts whose endpoints cannot deliver
 * each aligned 128 bytes in order, so that NCCL never runs LL or LL128 over them. A setting of the net plugin, not of
 * NCCL; applied where NCCL's settings are read ({@code simulator.PreparedCommunicator}), after the run's own.
 *
 * <p>What the plugin does (aws/aws-ofi-nccl v1.13.2-aws {@code src/platform-aws.c}): its platform table gives each
 * instance type a transport protocol, SENDRECV on p3dn.24xlarge, p4d.24xlarge, p4de.24xlarge and g5.48xlarge (the
 * EFA generation 1 hosts, GPUs before Hopper), RDMA (one-sided writes) on p5.48xlarge, p5e.48xlarge and
 * p5en.48xlarge ({@code platform_data_map}, {@code default_protocol}). When it configures its first endpoint
 * ({@code platform_config_endpoint}) it asks libfabric for FI_OPT_EFA_SENDRECV_IN_ORDER_ALIGNED_128_BYTES (SENDRECV)
 * or FI_OPT_EFA_WRITE_IN_ORDER_ALIGNED_128_BYTES (RDMA); when the EFA device refuses, {@code configure_nccl_proto}
 * sets NCCL_PROTO=simple unless the user set NCCL_PROTO. libfabric v1.22.0 grants the send/recv option only where the
 * device's queue pair reports 128-byte in-order RDMA reads ({@code prov/efa/src/rdm/efa_rdm_ep_fiops.c},
 * {@code efa_rdm_ep_check_qp_in_order_aligned_128_bytes}). On p4d the device refuses: public p4d.24xlarge logs with
 * libfabric 1.22 print "Setting FI_OPT_EFA_SENDRECV_IN_ORDER_ALIGNED_128_BYTES not supported." then "Setting
 * NCCL_PROTO to \"simple\"" (aws/aws-ofi-nccl issue 715, plugin 1.11.0-aws, 2024-12; issue 889, 2025-05), and the
 * v1.7.0-aws source says it of the platform itself ("whenever we know that the LL/LL128 protocols are not safe, such as
 * on P4d/P4e", {@code src/platform-aws.c configure_nccl_proto}). On the RDMA hosts LL and LL128 stay allowed:
 * v1.7.3-aws skips the check on P5 (aws/aws-ofi-nccl pull request 280, "Do not force NCCL_PROTO=simple on P5"), and
 * since pull request 516 (2024-08) EFA reports the write ordering on P5.
 *
 * <p>collsim has no instance type in its topology, so the rule reads the plugin's table by the GPU: EFA between the
 * ranks' hosts and a GPU before Hopper (sm below 90) is a SENDRECV host. The rule holds from aws-ofi-nccl v1.6.0
 * (tagged 2023-04-21), the first release that sets NCCL_PROTO, then by a platform flag, {@code force_proto_simple},
 * true for p4d, p4de and p3dn ({@code src/platform-aws.c}; v1.5.0-aws has no such code); a run's plugin release is
 * not a model input, so the run's NCCL release stands for it: 2.18 and later ({@link #FIRST_MINOR}), NCCL 2.18.1
 * being the release current when v1.6.0 was tagged (NVIDIA/nccl tag v2.18.1-1, 2023-04-03). Before it AWS's own
 * guide told users to set NCCL_PROTO=simple themselves (aws/aws-ofi-nccl issue 76, 2021-12: "EFA doesn't support LL
 * and LL128 variants"), which a run's header then states. Stateless.
 */
public final class AwsOfiNcclProto {

    /** First NCCL 2 minor release taken to run with aws-ofi-nccl v1.6.0 or later (see the class comment). */
    public static final int FIRST_MINOR = 18;

    private AwsOfiNcclProto() {
    }

    /**
     * @param topology the cluster
     * @param ranks    the GPUs in rank order
     * @param settings the run's NCCL settings
     * @param runMinor the run's NCCL 2 minor release
     * @return true when aws-ofi-nccl sets NCCL_PROTO=simple for this run: EFA between two or more of the ranks' hosts,
     *         a GPU before Hopper, NCCL_PROTO not set by the run, NCCL 2.18 or later
     */
    public static boolean forcesSimple(Topology topology, List<Gpu> ranks, NcclSettings settings, int runMinor) {
        if (topology.networkClass() != NetworkClass.EFA || settings.isSet(NcclVariable.NCCL_PROTO)
                || runMinor < FIRST_MINOR || ranks.isEmpty()) {
            return false;
        }
        int firstHost = ranks.get(0).host();
        boolean multiHost = ranks.stream().anyMatch(g -> g.host() != firstHost);
        int minSm = ranks.stream().mapToInt(Gpu::sm).min().orElse(OfiRailGroups.RDMA_MIN_SM);
        return multiHost && minSm < OfiRailGroups.RDMA_MIN_SM;
    }

    /**
     * @param topology the cluster
     * @param ranks    the GPUs in rank order
     * @param settings the run's NCCL settings
     * @param runMinor the run's NCCL 2 minor release
     * @return {@code settings} with NCCL_PROTO=simple added when {@link #forcesSimple} holds, else {@code settings}
     */
    public static NcclSettings apply(Topology topology, List<Gpu> ranks, NcclSettings settings, int runMinor) {
        if (!forcesSimple(topology, ranks, settings, runMinor)) {
            return settings;
        }
        Map<String, String> env = new LinkedHashMap<>(settings.asMap());
        env.put(NcclVariable.NCCL_PROTO.name(), "simple");
        return NcclSettings.parse(env);
    }

    /** @return the line predict and compare print when the rule applies */
    public static String note() {
        return "NCCL_PROTO=simple, as aws-ofi-nccl (v1.6.0 and later) sets it on EFA hosts whose device cannot"
                + " deliver 128-byte writes in order (p3dn, p4d, p4de, g5: its SENDRECV protocol): no LL or LL128";
    }
}
