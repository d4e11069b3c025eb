package dev.collsim.simulator.channel;

import java.util.List;

/**
 * The rates at which a node's GPUs move data over GPU-GPU paths through the CPU, from the links the bytes cross rather
 * than from NCCL's inter-CPU figure: what collsim times a call over NCCL's SHM transport with, while NCCL's own search
 * and tuning, and so NCCL's choices, keep NCCL's figure ({@link GraphSearch} on {@link HostModel#capacity}).
 *
 * <p>Why. NCCL gives the link between two CPU nodes a constant by CPU family (NCCL 2.29.2 and 2.30.7
 * {@code src/graph/topo.cc ncclTopoGetInterCpuBw}: Sapphire Rapids 22, AMD 16 GB/s; {@code topo.h}), and makes one CPU
 * node per NUMA node ({@code src/graph/xml.cc}: a PCI device's {@code numa_node} picks its {@code cpu} element;
 * {@code topo.cc ncclTopoConnectCpus} joins every pair of CPU nodes with that constant), so two NUMA nodes of one
 * socket (sub-NUMA clustering, AMD NPS2/NPS4) are joined by the same figure as two sockets. The link itself is far
 * faster: Xeon Platinum 8462Y+ 3 UPI links at 16 GT/s, 96 GB/s per direction (Intel ARK); EPYC xGMI 4 x16, 128 GB/s
 * (the catalog's figures, topology-model {@code topology.catalog}); on one socket the on-die mesh or Infinity Fabric.
 * A GPU's every byte over SHM crosses its own PCIe link (the sender's kernel stores into host memory, the receiver's
 * loads from it: {@code perf.ShmLinkShare}), so that link, not the inter-CPU one, sets the rate: 2x L40S on two NUMA
 * nodes moved 15.67 GB/s busbw at 128 MiB (validation/src/test/resources/data/
 * A-allreduce-1x2xL40S-pcie-farmshare-algo-proto-sweep-nccl2.29.txt line 47) = 23.5 GB/s per direction over the
 * SHM duplex share 0.666, 0.98 of the Gen4 x16 link's 24 GB/s; NCCL's graph for that pair is 1 channel x 20 GB/s (the
 * fastest speed of its sm89 array, 40, 30, 20, ..., below the 22 GB/s inter-CPU figure).
 *
 * <p>How. Every hop of a path counts at NCCL's figure ({@link HostModel#capacity}: PCIe width x speed code / 80,
 * 24 GB/s for Gen4 x16, the figure {@code bwEfficiencyPcie} was measured against and about what a GPU moves over the
 * link: a one-way chain on a Gen3 x16 uplink moved 11.09 of NCCL's 12 GB/s, {@code perf.OneWayPair}), except a hop
 * between two CPUs, which counts at its physical rate ({@link HostModel#physicalBw}, from the datasheet in the
 * topology), and a PCIe link whose speed NCCL could not read (a VM guest: NCCL's 8 GT/s x16 fallback, 12 GB/s, stays
 * in {@link HostModel#capacity} for the search), which counts at NCCL's formula on its real generation and width
 * ({@link HostModel#asBuiltBw}: 24 GB/s for an NC A100 v4 VM's Gen4 x16 GPU link). A ring's rate is that of its busiest hop: every channel's GPU order as NCCL's search kept it, closed
 * (the last GPU sends to the first), each hop's path loading its links once per channel, and the rate min over loaded
 * links of figure x channels / traversals. Two GPUs behind one PCIe switch whose pair goes through the CPU load the
 * switch's uplink twice per direction (0 to 1 and 1 to 0): half the uplink, as NCCL's own graph has it. Host memory
 * bandwidth is not counted: a ring over SHM writes and reads each GPU's bytes in host memory once each, 2 x 24 GB/s
 * per Gen4 GPU, far below a socket's DDR5 (8 channels of DDR5-4800, 307 GB/s, Intel ARK 8462Y+).
 *
 * <p>A ring over NVLinks straight from GPU to GPU (no NVSwitch: the DGX-1 V100 hybrid cube-mesh, NVLink bridges) of
 * GPUs before sm80 counts those hops at their datasheet rate too ({@link HostModel#datasheetNvlink},
 * {@code hardware.NvlinkGen}: NVLink2 25 GB/s per link and direction, Tesla V100 datasheet), not at NCCL's search
 * figure (NCCL 2.21.5 and 2.30.7 {@code src/graph/topo.h} {@code SM70_NVLINK_BW} 20.0): NCCL's figure only steers
 * its search, and a V100 link moves more than it. On the DGX-1 V100 NCCL's ring search keeps 6 channels x 20 GB/s,
 * each 2-link pair carrying 2 channels and each 1-link pair 1 per direction, so every link carries one channel:
 * 25 x 6 = 150 GB/s per direction, scale 150 / 120 = 1.25 ({@code perf.CpuRouteRate#ringScale}); measured 135.5 GB/s
 * busbw at 1 GiB on 8x V100 (validation/src/test/resources/data/A-allreduce-1x8xV100-sxm2-oci-bmgpu38-and-1x8xA100-
 * single-size.txt line 25), above NCCL's 120 x 0.98.
 *
 * <p>From sm80 ({@link #NCCL_FIGURE_NVLINK_SM}; not sm86's bridges, {@link #GA10X_BRIDGE_SM}) a direct NVLink counts
 * at NCCL's figure, as every NVSwitch host's
 * links do: an A100 has the same 12 NVLink3 links whether they go to NVSwitches (SXM4) or over the three bridges of
 * an A100 PCIe pair (NVIDIA A100 datasheet: 600 GB/s bidirectional for both), and what they carry is measured
 * through NVSwitches at NCCL's 12 x 20 = 240 GB/s x 0.965 (8x A100 plateau 231.6 GB/s busbw at 8 GiB,
 * A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt; 232.8 at 4 GiB one process per GPU,
 * A-allreduce-1x8xA100-80GB-sxm-thanos-g8-vs-mpirun-sweep.txt line 74), not at the datasheet's 300. The bridged
 * pair moves no more: 225.0 GB/s busbw at 8 GiB and 197.5 at 512 MiB (2x A100 80GB PCIe, NV12,
 * A-allreduce-1x2xA100pcie-azure-nc48v4-srun-graph-vs-topo-file.txt run 2) against 192.4 at 512 MiB on two SXM4
 * A100 through NVSwitches (D-info-1x2xA100-sxm4-80gb-nccl2.20.txt line 124); at the datasheet rate collsim timed the
 * bridged pair at 252.5 GB/s busbw (8 GiB), 11-15 % fast from 256 MiB. {@link #pair} keeps NCCL's figure for NVLink
 * hops of every generation. Stateless.
 */
final class CpuPathRates {

    /**
     * The compute capability x 10 from which a direct GPU-GPU NVLink counts at NCCL's figure in a ring's rate, not at
     * its datasheet rate: 80, the A100 (see the class note; NCCL 2.30.7 {@code src/graph/topo.h} {@code
     * SM80_NVLINK_BW} 20.0 per link, the figure the 8x A100 NVSwitch plateaus reach x 0.965).
     */
    static final int NCCL_FIGURE_NVLINK_SM = 80;

    /**
     * sm86 (GA10x boards: RTX 3090, RTX A6000), whose bridge links NCCL counts at its own {@code SM86_NVLINK_BW} 12.0
     * (NCCL 2.30.7 {@code src/graph/topo.h} line 23) against the datasheet's 14.0625 ({@code hardware.NvlinkGen}); no
     * run measures such a bridge and no NVSwitch carries those links, so they keep the datasheet rate.
     */
    static final int GA10X_BRIDGE_SM = 86;

    /**
     * @param sm a GPU's compute capability x 10 (0 when unknown)
     * @return true when the GPU's direct NVLinks count at their datasheet rate in a ring: before
     *         {@link #NCCL_FIGURE_NVLINK_SM}, and {@link #GA10X_BRIDGE_SM}
     */
    static boolean datasheetSm(int sm) {
        return sm < NCCL_FIGURE_NVLINK_SM || sm == GA10X_BRIDGE_SM;
    }

    private CpuPathRates() {
    }

    /**
     * @param h      the node
     * @param orders the GPU orders of the ring graph's channels (local indices), as {@link GraphSearch#orders}
     * @return GB/s per direction each GPU of the ring moves; 0 without orders, a path or two GPUs
     */
    static double ring(HostModel h, List<int[]> orders) {
        int g = h.gpus.size();
        if (orders.isEmpty() || g < 2) {
            return 0;
        }
        List<HostPath> hops = h.ringHops(orders);
        if (hops.contains(null)) {
            return 0;
        }
        double[] load = new double[h.capacity.length];
        for (HostPath p : hops) {
            for (int l : p.links()) {
                load[l] += 1.0 / orders.size();
            }
        }
        double rate = Double.POSITIVE_INFINITY;
        for (int l = 0; l < load.length; l++) {
            if (load[l] > 0) {
                rate = Math.min(rate, (h.datasheetNvlink(l) ? h.physicalBw(l) : hopRate(h, l)) / load[l]);
            }
        }
        return rate;
    }

    /**
     * @param h the node
     * @return GB/s per direction of the best GPU pair path alone (min over its hops), 0 with fewer than two GPUs
     */
    static double pair(HostModel h) {
        double best = 0;
        for (int i = 0; i < h.gpus.size(); i++) {
            for (int j = 0; j < h.gpus.size(); j++) {
                HostPath p = i == j ? null : h.gpuToGpu[i][j];
                if (p != null) {
                    double r = Double.POSITIVE_INFINITY;
                    for (int l : p.links()) {
                        r = Math.min(r, hopRate(h, l));
                    }
                    best = Math.max(best, r);
                }
            }
        }
        return best;
    }

    /**
     * @return the hop's rate: physical between two CPUs, NCCL's figure of the link as built otherwise ({@link
     *         HostModel#asBuiltBw}: on a PCIe link NCCL read with its 8 GT/s x16 fallback, its formula on the real
     *         generation and width), GB/s per direction
     */
    private static double hopRate(HostModel h, int hop) {
        return h.interCpu(hop) ? h.physicalBw(hop) : h.asBuiltBw(hop);
    }
}
