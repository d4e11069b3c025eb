package dev.collsim.validation.compare;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Topology;
import dev.collsim.validation.ingest.Dataset;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A VM type whose GPUs reach each other peer to peer over their NVLink bridges only: Azure NC A100 v4, named in the
 * file's {@code #@ hardware} line ({@link #VM_TYPE}), on the cluster config {@value #NC_A100_V4} (which
 * {@link ClusterGuesser} builds for any A100 PCIe host and which {@code -c} can name). The VM's name is the evidence,
 * not the GPU: a bare-metal A100 PCIe host gives its GPUs P2P across the CPU as any other PCIe host does (NCCL's own
 * rules), so a file that names no such VM is left alone. On that VM {@code nvidia-smi topo -p2p w} prints OK within
 * each NVLink-bridged pair and NS across the pairs (NVIDIA/cuQuantum#191, an NC96ads_A100_v4 on driver 570). NCCL
 * turns P2P off for a pair NVML or CUDA refuses: NCCL 2.30.7 {@code src/graph/paths.cc ncclTopoCheckP2p} sets
 * p2p = 0 when NVML's p2pStatusRead or p2pStatusWrite is not OK; before that check NCCL 2.16.5 {@code src/transport/p2p.cc p2pCanConnect} did the same on
 * {@code cudaDeviceCanAccessPeer} = 0 ("Could not enable P2P"); so the SHM transport connects the pairs, whatever the
 * P2P level. Modelled as {@code NCCL_P2P_LEVEL=NVL}: the NVLink peers keep P2P, every other pair goes through the CPU
 * (the same split, {@code PathFinder.Options#p2pLevelInForce}). Applied on one host of the config when the run's
 * ranks are not all NVLink peers (the NC48ads size, one bridged pair, has no other pair: nothing to change), and only
 * where the run set neither NCCL_P2P_DISABLE nor NCCL_P2P_LEVEL. Stateless.
 */
public final class NvlinkOnlyP2p {

    /** The cluster config (configs/*.yaml name) of Azure NC A100 v4, as {@link ClusterGuesser} names it. */
    static final String NC_A100_V4 = "azure-nc96ads-a100-v4";

    /**
     * The VM type's names as Azure and its images write them, lower case: the size (Standard_NC24ads_A100_v4,
     * NC48ads_A100_v4, NC96ads_A100_v4, Azure's VM size list), the series (NC A100 v4), and the short forms of
     * Azure's HPC images and Slurm partitions ("ncv4": azhpc-images {@code components/customizations/ncv4.sh},
     * {@code /opt/microsoft/ncv4/topo.xml}; "nc96v4", "nc48v4": the AZHOP partitions of the NC files' source page).
     * An underscore may come before a name (Standard_NC96ads_A100_v4), a letter or digit may not.
     */
    static final Pattern VM_TYPE = Pattern.compile(
            "(?<![a-z0-9])(?:nc(?:24|48|96)ads[_ ]a100[_ ]v4|nc a100 v4|nc(?:24|48|96)?v4)(?![a-z0-9])");

    private NvlinkOnlyP2p() {
    }

    /** @return true when the file's hardware line names the Azure NC A100 v4 VM type ({@link #VM_TYPE}) */
    static boolean namesVmType(Dataset d) {
        return VM_TYPE.matcher(d.header().text("hardware").toLowerCase(Locale.ROOT)).find();
    }

    /**
     * @param d        the dataset (its hardware line must name the VM type)
     * @param c        the cluster and the run's ranks
     * @param settings the run's settings; NCCL_P2P_LEVEL=NVL is added to it when the rule applies
     * @return the assumption line when the setting was added
     */
    public static Optional<String> apply(Dataset d, ClusterGuess c, Map<String, String> settings) {
        Topology t = c.topology();
        if (!NC_A100_V4.equals(t.name()) || !namesVmType(d) || t.hostCount() != 1
                || settings.containsKey("NCCL_P2P_DISABLE")
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
