package dev.collsim.simulator.channel;

import dev.collsim.simulator.tuning.CpuKind;
import dev.collsim.simulator.tuning.GraphSet;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.NicVendor;
import java.util.Objects;

/**
 * The result of the channel search for one communicator (collsim's counterpart of NCCL's agreed
 * {@code ncclTopoGraph}s plus the runtime channel counts of NCCL 2.30.7 {@code src/graph/connect.cc},
 * {@code src/init.cc}; fact sheet §3.4, §5.4), with the hardware facts the tuning model and the physical bound
 * need. This record is immutable.
 *
 * @param graphs             agreed search graphs (min nChannels and bandwidths, max types over nodes)
 * @param nRanks             ranks
 * @param nNodes             NCCL nodes: hosts, or multi-node NVLink domains
 * @param maxLocalRanks      most ranks on one node
 * @param minLocalRanks      fewest ranks on one node (maxLocalRanks unless the nodes hold different numbers)
 * @param minSm              minimum compute capability x 10
 * @param maxSm              maximum compute capability x 10
 * @param cpu                CPU kind of the nodes
 * @param hasNvSwitch        every node has an NVSwitch
 * @param nvlsSupport        NVLink SHARP usable (NVSwitch, sm90+, NCCL_NVLS_ENABLE not 0)
 * @param runtimeChannels    comm.nChannels for collectives (after NCCL_MIN/MAX_CTAS)
 * @param nvlsChannels       runtime NVLS channels of NVLS and NVLSTree ({@link NvlsTuning}, then NCCL_NVLS_NCHANNELS
 *                           and the CTA limits)
 * @param p2pChannels        runtime point-to-point channels
 * @param scaleUp            the weakest GPU's way out ({@link ScaleUp}): physical per-direction NVLink bandwidth
 *                           (sum of its NVLinks; its PCIe or C2C link when it has none), GB/s, and what it reaches
 * @param nodeNicBw          physical per-direction NIC bandwidth of the weakest node, GB/s: the sum over the
 *                           NICs local to its ranks' GPUs ({@code HostModel.localNics}), each held to its own PCIe
 *                           link ({@code HostModel.nicLineBw}); 0 on one node
 * @param gpuPathBw          best NCCL-view path bandwidth between two GPUs of a node (per-peer p2p limit), GB/s
 * @param nicsPerNode        NICs local to the ranks of the weakest node
 * @param netClass           network transport between the nodes (the topology's; null: InfiniBand)
 * @param nicVendor          PCI vendor of the nodes' network interfaces (the topology's; null: OTHER), which sets
 *                           NCCL's socket defaults ({@code perf.SocketStreams})
 * @param nodeNetBw          per-direction network bandwidth the weakest node's GPUs can feed, GB/s: nodeNicBw, or
 *                           less where their GPU-NIC paths cross the CPU (GPU Direct RDMA off, the socket transport;
 *                           {@link StagedNetPaths}); 0 on one node
 * @param ringPathBw         GB/s per direction each GPU of the weakest node moves over the ring graph's GPU orders
 *                           with the hops between CPUs and NVLinks from GPU to GPU at their physical rate, the
 *                           others at NCCL's figure ({@link CpuPathRates#ring}); what a ring over SHM or direct
 *                           NVLinks is timed with; 0 when unknown
 * @param pairPathBw         GB/s per direction of the best GPU pair path alone, counted the same way
 *                           ({@link CpuPathRates#pair}); 0 when unknown
 * @param gpuPcieGen         PCIe generation (1 to 6) of the weakest node's GPUs' own links, the lowest of them
 *                           ({@link HostModel#gpuPcieGen}); 0 when unknown. Sets the SHM share of the link
 *                           ({@code perf.ShmLinkShare})
 * @param nvlsTuning         NCCL's NVLS tuning of the communicator before NCCL_NVLS_NCHANNELS and the CTA limits
 *                           (channels, NVLS and NVLSTree chunks; {@link NvlsTuning})
 * @param localNetsPerGpu    NCCL's {@code getLocalNetCountByBw} of the GPUs, the fewest over the ranks
 *                           ({@code HostModel.localNetCountByBw}): NICs, 0 for GPUs behind a PCIe switch
 * @param nvlsTimeGraph      the NVLS graph collsim's time reads ({@code tuning.TimeTable}): the one NCCL 2.30.7's
 *                           search finds on the same nodes (agreed the same way), which is {@code graphs.nvls()} for
 *                           2.30.7 and for every release on sm90 (the speed arrays differ only on sm100: 2.28.9's
 *                           {96, 48, ...} between nodes, 2.30.7's {96, 86, 80, 48, ...}; {@link SearchSpeeds})
 * @param ringSwitchHops     share of the ring graph's GPU-to-GPU hops inside one PCIe switch (PIX), 0 to 1, the
 *                           lowest over the nodes ({@link RingSwitchHops}; read by {@code perf.PcieSwitchHop})
 * @param nodeNicPortBw      the same NICs' port speeds summed, not held to their PCIe links, GB/s: what NCCL's search
 *                           sees of a NIC (its net speed; {@code perf.RingChannelRate}); 0 on one node
 * @param ringShmOneWay      the ring graph's orders on the weakest node have SHM hops and no GPU both sends and
 *                           receives over SHM, so every GPU's PCIe link carries SHM one way ({@link RingShmDirections});
 *                           false when some GPU's link carries it both ways. Sets the SHM share of the link
 *                           ({@code perf.ShmLinkShare})
 */
public record ChannelPlan(GraphSet graphs, int nRanks, int nNodes, int maxLocalRanks, int minLocalRanks, int minSm,
        int maxSm, CpuKind cpu, boolean hasNvSwitch, boolean nvlsSupport, int runtimeChannels, int nvlsChannels,
        int p2pChannels, ScaleUp scaleUp, double nodeNicBw, double gpuPathBw, int nicsPerNode, NetworkClass netClass,
        NicVendor nicVendor, double nodeNetBw, double ringPathBw, double pairPathBw, int gpuPcieGen,
        NvlsTuning nvlsTuning, int localNetsPerGpu, GraphSummary nvlsTimeGraph, double ringSwitchHops,
        double nodeNicPortBw, boolean ringShmOneWay) {

    /** Validates. */
    public ChannelPlan {
        Objects.requireNonNull(graphs, "graphs");
        Objects.requireNonNull(cpu, "cpu");
        Objects.requireNonNull(nvlsTuning, "nvlsTuning");
        Objects.requireNonNull(nvlsTimeGraph, "nvlsTimeGraph");
        Objects.requireNonNull(scaleUp, "scaleUp");
        netClass = netClass == null ? NetworkClass.INFINIBAND : netClass;
        nicVendor = nicVendor == null ? NicVendor.OTHER : nicVendor;
        if (nRanks < 1 || nNodes < 1 || runtimeChannels < 1) {
            throw new IllegalArgumentException("nRanks, nNodes and runtimeChannels must be >= 1");
        }
    }

    /** @return physical per-direction bandwidth of the weakest GPU's way out, GB/s ({@link ScaleUp#gbps}) */
    public double gpuScaleUpBw() {
        return scaleUp.gbps();
    }

    /**
     * @param bw per-direction network bandwidth the weakest node's GPUs can feed, GB/s
     * @return this plan with {@code nodeNetBw} replaced
     */
    public ChannelPlan withNodeNetBw(double bw) {
        return new ChannelPlan(graphs, nRanks, nNodes, maxLocalRanks, minLocalRanks, minSm, maxSm, cpu, hasNvSwitch,
                nvlsSupport, runtimeChannels, nvlsChannels, p2pChannels, scaleUp, nodeNicBw, gpuPathBw, nicsPerNode,
                netClass, nicVendor, bw, ringPathBw, pairPathBw, gpuPcieGen, nvlsTuning, localNetsPerGpu,
                nvlsTimeGraph, ringSwitchHops, nodeNicPortBw, ringShmOneWay);
    }

    /** @return ranks per node (NCCL's float ppn) */
    public double ppn() {
        return (double) nRanks / nNodes;
    }
}
