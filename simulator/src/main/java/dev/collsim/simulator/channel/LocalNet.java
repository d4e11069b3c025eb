package dev.collsim.simulator.channel;

import dev.collsim.nccl.NcclDevice;
import dev.collsim.topology.PathType;
import dev.collsim.topology.paths.HostPaths;

/**
 * Which NIC a GPU's channel uses and which GPU a NIC belongs to, as NCCL 2.30.7 {@code src/graph/topo.cc} decides:
 * <ul>
 *   <li>{@code ncclTopoGetLocalNetType} (the NIC of channel c): the GPU's local NICs ({@link HostModel#localNics(int)},
 *       {@code ncclTopoGetLocal}), shared by the GPUs local to the first of them; each GPU starts at its device index
 *       modulo that GPU count, bit-mirrored over the NIC count when that is a power of two ({@code mirrorBits}), and
 *       adds c modulo netsPerGpu = ceil(NICs / GPUs) (the default policy, NCCL_NETDEVS_POLICY AUTO);</li>
 *   <li>{@code ncclTopoGetLocalGpu} (the NIC's GPU, the head of an NVLS channel, {@link NvlsSearch}): of the GPUs local
 *       to the NIC, in order, the first whose NIC for channel 0, then 1, ... is this one.</li>
 * </ul>
 * On a node of 8 GPUs with two NICs per PCIe switch (DGX H100) GPU 2k takes the first NIC of its switch and GPU 2k+1
 * the second; with one NIC per GPU pair both GPUs take the pair's NIC and the NIC's GPU is the first of the pair.
 * Stateless.
 */
final class LocalNet {

    private LocalNet() {
    }

    /**
     * @param h       the node
     * @param gpu     index into {@link HostModel#gpus}
     * @param channel channel id, >= 0
     * @return the NIC the GPU's channel uses, index into {@link HostModel#nics}; -1 when the GPU reaches none
     */
    static int ofGpu(HostModel h, int gpu, int channel) {
        int[] nets = h.localNics(gpu);
        if (nets.length == 0) {
            return -1;
        }
        int localGpus = localGpus(h, nets[0]).length;
        if (localGpus == 0) {
            return -1;
        }
        int netsPerGpu = (nets.length + localGpus - 1) / localGpus;
        int net = h.gpus.get(gpu).index() % localGpus;
        if (Integer.bitCount(nets.length) == 1) {
            net = mirrorBits(net, nets.length);
        }
        net += channel % netsPerGpu;
        return nets[net % nets.length];
    }

    /**
     * @param h   the node
     * @param nic index into {@link HostModel#nics}
     * @return the NIC's GPU, index into {@link HostModel#gpus}; -1 when no local GPU takes it on any channel
     */
    static int gpuOf(HostModel h, int nic) {
        int[] gpus = localGpus(h, nic);
        for (int c = 0; c < NcclDevice.MAXCHANNELS; c++) {
            for (int g : gpus) {
                if (ofGpu(h, g, c) == nic) {
                    return g;
                }
            }
        }
        return -1;
    }

    /**
     * The GPUs local to a NIC ({@code ncclTopoGetLocal} from the NIC). NCCL's path from a NET node starts on the NET
     * link, whose bandwidth is the port speed ({@code ncclTopoAddNet}, NCCL 2.30.7 {@code src/graph/topo.cc}: {@code
     * ncclTopoConnectNodes(net, nic, LINK_NET, net->net.bw)}), and a path's bandwidth is the least over its links
     * ({@code ncclTopoComputePaths}, {@code src/graph/paths.cc}); so each GPU's path bandwidth is capped by the NIC's
     * speed, as {@link HostModel#localNics(int)} caps it in the other direction. A NIC slower than every PCIe path
     * makes its GPUs tie on bandwidth and the closest path type decides.
     *
     * @param h   the node
     * @param nic index into {@link HostModel#nics}
     * @return indices into {@link HostModel#gpus}
     */
    static int[] localGpus(HostModel h, int nic) {
        double[] bw = new double[h.gpus.size()];
        PathType[] type = new PathType[h.gpus.size()];
        for (int g = 0; g < bw.length; g++) {
            HostPath p = h.nicToGpu[nic][g];
            type[g] = p == null ? PathType.DIS : p.type();
            bw[g] = p == null ? 0 : Math.min(p.bandwidth(), h.nicSpeed[nic]);
        }
        return HostPaths.local(bw, type);
    }

    /**
     * NCCL's {@code mirrorBits} ({@code src/graph/topo.h}): val's bits reversed over log2(pow2) bits.
     *
     * @param val  value, 0 <= val < pow2
     * @param pow2 a power of two
     * @return the mirrored value
     */
    static int mirrorBits(int val, int pow2) {
        int mirror = 0;
        for (int b = 1, mb = pow2 >> 1; b < pow2; b <<= 1, mb >>= 1) {
            if ((val & b) != 0) {
                mirror |= mb;
            }
        }
        return mirror;
    }
}
