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
 * <p>Each GPU taking part sends and receives at one rate, split equally over the NICs its channels use (NCCL's
 * choice among its local NICs, {@link #gpuNets}); a link's per-direction physical bandwidth is shared equally by the
 * staged path traversals that cross it in that direction (a GPU on k NICs counts 1/k per path), so a GPU moves at
 * most min over its links of bandwidth / traversals. A NIC that some GPU of the node reaches without crossing the
 * CPU (both directions) is not staged: NCCL's channel search takes the network through that GPU (others relay over
 * NVLink, PXN), so it keeps its port speed. The node's figure is the sum over its NICs (a staged NIC: its GPUs'
 * rates, at most its port), never more than its NICs. Worked example, DGX H100 under NCCL_NET_GDR_LEVEL=LOC: 8
 * GPUs, each with its own 400 Gb/s NIC behind one PCIe Gen5 x16 switch uplink (63.0 GB/s per direction,
 * {@code hardware.PcieGen}); each uplink direction carries 2 traversals, so 31.5 GB/s per GPU and 252 GB/s per
 * node, below the NICs' 400 GB/s. AWS p5 over sockets (4 EFA ports of 100 Gb/s behind each GPU's switch): once
 * staged, each GPU's local NICs are the 16 ports of its CPU (all PHB), shared by that CPU's 4 GPUs, so each GPU
 * uses 4 of them from the start dev % 4 mirrored within 16 (GPU 1 starts at NIC 8, behind GPU 2's switch); every
 * switch uplink still carries 2 traversals per direction, 31.5 GB/s per GPU against its 4 x 12.5 GB/s of ports:
 * 252 GB/s per node. A node with no path through the CPU keeps its NICs' bandwidth. Physical figures, not NCCL's
 * path bandwidths: this is a bound on what the hardware can move, which NCCL's search (whose figures set Ring's
 * time) never exceeds. Not modelled:
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
        int[][] nets = new int[g][];
        boolean[] direct = new boolean[h.nics.size()];
        for (int i = 0; i < g; i++) {
            nets[i] = gpuNets(h, i);
            for (int n = 0; n < h.nics.size(); n++) {
                HostPath out = h.gpuToNic[i][n];
                HostPath in = h.nicToGpu[n][i];
                direct[n] |= out != null && in != null && !h.viaCpu(out) && !h.viaCpu(in);
            }
        }
        double[] load = new double[h.capacity.length];
        boolean any = false;
        for (int i = 0; i < g; i++) {
            for (int n : nets[i]) {
                if (!direct[n]) {
                    any = true;
                    count(load, h.gpuToNic[i][n], 1.0 / nets[i].length);
                    count(load, h.nicToGpu[n][i], 1.0 / nets[i].length);
                }
            }
        }
        if (!any) {
            return nicBw;
        }
        double[] feed = new double[h.nics.size()];
        boolean[] used = new boolean[h.nics.size()];
        for (int i = 0; i < g; i++) {
            double rate = Double.POSITIVE_INFINITY;
            for (int n : nets[i]) {
                used[n] = true;
                if (!direct[n]) {
                    rate = Math.min(rate, Math.min(rate(h, load, h.gpuToNic[i][n]), rate(h, load, h.nicToGpu[n][i])));
                }
            }
            for (int n : nets[i]) {
                feed[n] += direct[n] ? 0 : rate / nets[i].length;
            }
        }
        double sum = 0;
        for (int n = 0; n < feed.length; n++) {
            sum += !used[n] ? 0 : direct[n] ? h.nicLineBw(n) : Math.min(h.nicLineBw(n), feed[n]);
        }
        return Math.min(nicBw, sum);
    }

    /**
     * The NICs a GPU's channels use, NCCL 2.30.7 {@code src/graph/topo.cc ncclTopoGetLocalNetType} under the default
     * NCCL_NETDEVS_POLICY (AUTO): of the GPU's L local NICs ({@link HostModel#localNics(int)}, {@code
     * ncclTopoGetLocal}), shared by the G GPUs local to the first of them, each GPU uses ceil(L / G) consecutive ones
     * starting at {@code dev % G}, bit-mirrored within L when L is a power of two ({@code mirrorBits},
     * {@code src/graph/topo.h}), so that GPUs spread over the NICs. Channel c takes the start + c % ceil(L / G): the
     * NIC of channels 0 .. ceil(L / G) - 1 as {@link LocalNet#ofGpu} (the one home of that rule) gives it.
     *
     * @return indices into {@link HostModel#nics}; empty when the GPU has no local NIC
     */
    static int[] gpuNets(HostModel h, int gpu) {
        int[] local = h.localNics(gpu);
        int localGpus = local.length == 0 ? 0 : LocalNet.localGpus(h, local[0]).length;
        if (localGpus == 0) {
            return new int[0];
        }
        int[] out = new int[(local.length + localGpus - 1) / localGpus];
        for (int c = 0; c < out.length; c++) {
            out[c] = LocalNet.ofGpu(h, gpu, c);
        }
        return out;
    }

    private static void count(double[] load, HostPath p, double share) {
        for (int l : p.links()) {
            load[l] += share;
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
