package dev.collsim.validation.compare;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Topology;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A VM type whose GPUs reach each other peer to peer over their NVLink bridges only: Azure NC A100 v4 (the cluster
 * config {@value #NC_A100_V4}, which {@link ClusterGuesser} builds for an A100 PCIe host and which {@code -c} can
 * name). On that VM {@code nvidia-smi topo -p2p w} prints OK within each NVLink-bridged pair and NS across the pairs
 * (NVIDIA/cuQuantum#191, an NC96ads_A100_v4 on driver 570). NCCL turns P2P off for a pair NVML or CUDA refuses:
 * NCCL 2.30.7 {@code src/graph/paths.cc ncclTopoCheckP2p} sets p2p = 0 when NVML's p2pStatusRead or p2pStatusWrite
 * is not OK; before that check NCCL 2.16.5 {@code src/transport/p2p.cc p2pCanConnect} did the same on
 * {@code cudaDeviceCanAccessPeer} = 0 ("Could not enable P2P"); so the SHM transport connects the pairs, whatever the
 * P2P level. Modelled as {@code NCCL_P2P_LEVEL=NVL}: the NVLink peers keep P2P, every other pair goes through the CPU
 * (the same split, {@code PathFinder.Options#p2pLevelInForce}). Applied on one host of the config when the run's
 * ranks are not all NVLink peers (the NC48ads size, one bridged pair, has no other pair: nothing to change), and only
 * where the run set neither NCCL_P2P_DISABLE nor NCCL_P2P_LEVEL. Stateless.
 */
public final class NvlinkOnlyP2p {

    /** The cluster config (configs/*.yaml name) of Azure NC A100 v4, as {@link ClusterGuesser} names it. */
    static final String NC_A100_V4 = "azure-nc96ads-a100-v4";

    private NvlinkOnlyP2p() {
    }

    /**
     * @param c        the cluster and the run's ranks
     * @param settings the run's settings; NCCL_P2P_LEVEL=NVL is added to it when the rule applies
     * @return the assumption line when the setting was added
     */
    public static Optional<String> apply(ClusterGuess c, Map<String, String> settings) {
        Topology t = c.topology();
        if (!NC_A100_V4.equals(t.name()) || t.hostCount() != 1 || settings.containsKey("NCCL_P2P_DISABLE")
                || settings.containsKey("NCCL_P2P_LEVEL") || allNvlinkPeers(t, c.ranks())) {
            return Optional.empty();
        }
        settings.put("NCCL_P2P_LEVEL", "NVL");
        return Optional.of("Azure NC A100 v4: P2P over the NVLink bridges only (nvidia-smi topo -p2p w NS across the"
                + " pairs, NVIDIA/cuQuantum#191): modelled as NCCL_P2P_LEVEL=NVL, as NCCL does when NVML or CUDA"
                + " reports no P2P for a pair (the other pairs through the CPU, SHM transport)");
    }

    /** @return true when every two of the ranks' GPUs are joined by a direct NVLink */
    static boolean allNvlinkPeers(Topology t, List<Gpu> ranks) {
        for (Gpu a : ranks) {
            for (Gpu b : ranks) {
                if (a != b && t.outgoing(a).stream().noneMatch(l -> nvlinkTo(t, l, b))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean nvlinkTo(Topology t, Link l, Gpu b) {
        return l.type() == LinkType.NVLINK && t.target(l).equals(b);
    }
}
