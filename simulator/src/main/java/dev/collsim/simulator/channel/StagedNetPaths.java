package dev.collsim.simulator.channel;

/**
 * The network bandwidth a node's GPUs can feed when their GPU-NIC paths cross the CPU, GB/s per direction. NCCL routes
 * a GPU-NIC path through the GPU's CPU when it does not use GPU Direct RDMA there (NCCL 2.28.9 {@code
 * src/graph/paths.cc ncclTopoComputePaths}, {@code addInterStep} over {@code ncclTopoCheckGdr}: NCCL_NET_GDR_LEVEL,
 * a NIC without GDR, and every NIC of the socket transport, which offers host memory only) and its network proxy then
 * keeps the connection's buffers in host memory ({@code src/transport/net.cc}: device memory only with
 * {@code useGdr}). So every byte between the GPU and the network crosses the PCIe links to the CPU and from the CPU
 * to the NIC: on a DGX H100 the GPU and its NIC share one PCIe switch, whose one uplink to the CPU then carries each
 * direction's data twice (a send goes up from the GPU and down to the NIC; a receive up from the NIC and down to the
 * GPU).
 *
 * <p>Each GPU taking part sends and receives at one rate over the path to its NIC (its local NIC on its own rail,
 * else its first local NIC; {@code HostModel#localNics(int)}); a link's per-direction physical bandwidth is shared
 * equally by the staged path traversals that cross it in that direction, so a GPU moves at most min over its links
 * of bandwidth / traversals. A NIC that some GPU of the node reaches without crossing the CPU (both directions) is
 * not staged: NCCL's channel search takes the network through that GPU (others relay over NVLink, PXN), so it keeps
 * its port speed. The node's figure is the sum over its NICs (a staged NIC: its GPUs' rates, at most its port), never
 * more than its NICs. Worked example, DGX H100 under NCCL_NET_GDR_LEVEL=LOC: 8 GPUs, each with its own 400
 * Gb/s NIC behind one PCIe Gen5 x16 switch uplink (63.0 GB/s per direction, {@code hardware.PcieGen}); each uplink
 * direction carries 2 traversals, so 31.5 GB/s per GPU and 252 GB/s per node, below the NICs' 400 GB/s. A node with
 * no path through the CPU keeps its NICs' bandwidth. Physical figures, not NCCL's path bandwidths: this is a bound
 * on what the hardware can move, which NCCL's search (whose figures set Ring's time) never exceeds. Not modelled:
 * host memory bandwidth and the CPU time of the copies. Stateless.
 */
final class StagedNetPaths {

    private StagedNetPaths() {
    }

    /**
     * @param h     the node
     * @param nicBw the node's NIC bandwidth (the local NICs of its GPUs), GB/s per direction
     * @return GB/s per direction the node's GPUs can move over the network, at most {@code nicBw}
     */
    static double nodeBw(HostModel h, double nicBw) {
        int g = h.gpus.size();
        int[] nic = new int[g];
        boolean[] direct = new boolean[h.nics.size()];
        for (int i = 0; i < g; i++) {
            nic[i] = ownNic(h, i);
            for (int n = 0; n < h.nics.size(); n++) {
                HostPath out = h.gpuToNic[i][n];
                HostPath in = h.nicToGpu[n][i];
                direct[n] |= out != null && in != null && !h.viaCpu(out) && !h.viaCpu(in);
            }
        }
        double[] load = new double[h.capacity.length];
        boolean any = false;
        for (int i = 0; i < g; i++) {
            if (nic[i] >= 0 && !direct[nic[i]]) {
                any = true;
                count(load, h.gpuToNic[i][nic[i]]);
                count(load, h.nicToGpu[nic[i]][i]);
            }
        }
        if (!any) {
            return nicBw;
        }
        double[] feed = new double[h.nics.size()];
        boolean[] used = new boolean[h.nics.size()];
        for (int i = 0; i < g; i++) {
            if (nic[i] >= 0) {
                used[nic[i]] = true;
                feed[nic[i]] += direct[nic[i]] ? 0 : Math.min(rate(h, load, h.gpuToNic[i][nic[i]]),
                        rate(h, load, h.nicToGpu[nic[i]][i]));
            }
        }
        double sum = 0;
        for (int n = 0; n < feed.length; n++) {
            sum += !used[n] ? 0 : direct[n] ? h.nicSpeed[n] : Math.min(h.nicSpeed[n], feed[n]);
        }
        return Math.min(nicBw, sum);
    }

    /** @return the GPU's NIC: of its local NICs the one on its own rail, else the first; -1 when it has none */
    private static int ownNic(HostModel h, int gpu) {
        int[] local = h.localNics(gpu);
        for (int n : local) {
            if (h.nics.get(n).rail() == h.gpus.get(gpu).index()) {
                return n;
            }
        }
        return local.length == 0 ? -1 : local[0];
    }

    private static void count(double[] load, HostPath p) {
        for (int l : p.links()) {
            load[l]++;
        }
    }

    /** @return the path's rate when every traversal of a link shares it equally: min over links of bw / load */
    private static double rate(HostModel h, double[] load, HostPath p) {
        double r = Double.POSITIVE_INFINITY;
        for (int l : p.links()) {
            r = Math.min(r, h.physicalBw(l) / load[l]);
        }
        return r;
    }
}
