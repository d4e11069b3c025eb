package dev.collsim.validation.ingest;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the NCCL_DEBUG=INFO (and WARN) lines of one run say. Every list keeps file order; every item carries its
 * 1-based source line so that findings can cite it. Formats are NCCL's INFO messages (NCCL 2.18-2.30
 * {@code src/init.cc}, {@code src/transport/*.cc}, {@code src/graph/search.cc}, {@code src/graph/tuning.cc},
 * {@code src/enqueue.cc}).
 *
 * @param version       NCCL version, e.g. {@code 2.20.5+cuda12.4}, or empty
 * @param versionLine   its line, 0 when absent
 * @param nRanks        ranks from "nRanks N nNodes M localRanks L", 0 when absent
 * @param nNodes        hosts, 0 when absent
 * @param localRanks    ranks per host, 0 when absent
 * @param busIds        bus ids from "Init START" lines, by rank
 * @param network       network NCCL chose ("Using network Socket"/"IB"/plugin name), empty when absent
 * @param networkLine   its line
 * @param ibNotFound    line of "NET/IB : No device found", 0 when absent
 * @param transports    per-channel connections ("Channel 00/0 : 0[0] -> 1[1] via P2P/direct pointer/read")
 * @param channelCounts "N coll channels, N collnet channels, N nvls channels, N p2p channels, N p2p channels per peer"
 * @param rings         ring orders ("Channel 00/24 : 0 1")
 * @param treeLines     number of "Trees [0] ..." lines
 * @param graphs        NCCL_DEBUG_SUBSYS=GRAPH "Pattern p, crossNic c, nChannels n, bw a/b, type T/T, sameChannels s"
 * @param tuning        NCCL_DEBUG_SUBSYS=TUNING latency/bandwidth table entries
 * @param choices       per-call algorithm choices ("AllReduce: 8 Bytes -> Algo 1 proto 0 time 7.0")
 * @param env           settings echoed by NCCL ("NCCL_P2P_LEVEL set by environment to NVL")
 * @param flagged       lines that a diagnosis may need verbatim: WARN lines, GPU Direct RDMA state, NVLS
 *                      support, P2P support, PCIe link state
 * @param net           the network the lines describe (devices, speeds, GPU Direct RDMA, NVLS, CollNet)
 */
public record NcclLog(String version, int versionLine, int nRanks, int nNodes, int localRanks,
        Map<Integer, String> busIds, String network, int networkLine, int ibNotFound,
        List<TransportEdge> transports, List<ChannelCounts> channelCounts, List<RingOrder> rings, int treeLines,
        List<GraphLine> graphs, List<TuningEntry> tuning, List<AlgoChoice> choices, Map<String, String> env,
        List<Note> flagged, NetworkLog net) {

    /** A run without any NCCL log line. */
    public static final NcclLog EMPTY = new NcclLog("", 0, 0, 0, 0, Map.of(), "", 0, 0, List.of(), List.of(),
            List.of(), 0, List.of(), List.of(), List.of(), Map.of(), List.of(), NetworkLog.EMPTY);

    /** Defensive copies. */
    public NcclLog {
        busIds = Map.copyOf(busIds);
        transports = List.copyOf(transports);
        channelCounts = List.copyOf(channelCounts);
        rings = List.copyOf(rings);
        graphs = List.copyOf(graphs);
        tuning = List.copyOf(tuning);
        choices = List.copyOf(choices);
        env = Map.copyOf(env);
        flagged = List.copyOf(flagged);
        net = net == null ? NetworkLog.EMPTY : net;
    }

    /** @return true when no NCCL line was seen */
    public boolean isEmpty() {
        return versionLine == 0 && nRanks == 0 && transports.isEmpty() && channelCounts.isEmpty()
                && rings.isEmpty() && flagged.isEmpty() && network.isEmpty() && env.isEmpty() && graphs.isEmpty()
                && tuning.isEmpty() && choices.isEmpty() && treeLines == 0 && net.isEmpty();
    }

    /** @return the last channel-count line, if any */
    public Optional<ChannelCounts> lastChannelCounts() {
        return channelCounts.isEmpty() ? Optional.empty() : Optional.of(channelCounts.get(channelCounts.size() - 1));
    }

    /**
     * One connection NCCL set up for a channel.
     *
     * @param channel   channel index
     * @param fromRank  sending rank
     * @param toRank    receiving rank
     * @param transport what follows "via", e.g. {@code P2P/direct pointer/read}, {@code SHM/direct/direct},
     *                  {@code NET/IB/0/GDRDMA}, {@code NET/Socket/0}
     * @param side      "send" or "receive" as the line marks it (NCCL prints every NET connection twice, once by
     *                  each end: 2.4-2.30 {@code src/transport/net.cc} sendSetup/recvSetup "[send] via NET/%s/%d"
     *                  and "[receive] via NET/%s/%d"), empty when unmarked (P2P, SHM)
     * @param line      source line
     */
    public record TransportEdge(int channel, int fromRank, int toRank, String transport, String side, int line) {

        /** Defensive default. */
        public TransportEdge {
            side = side == null ? "" : side;
        }

        /**
         * @return the rank whose process printed the line, so the host of the NET device it names: the sender of a
         *         "[send]" line, the receiver of a "[receive]" line, -1 when unmarked
         */
        public int printingRank() {
            return side.equals("send") ? fromRank : side.equals("receive") ? toRank : -1;
        }

        /**
         * @return the NET device index of a NET line: the number after the network name ({@code NET/IB/1/GDRDMA} is
         *         device 1; NCCL 2.12 on print a PXN proxy rank after it, {@code NET/IBext_v8/5(2)} is device 5 of
         *         proxy rank 2, {@code src/transport/net.cc} "%d(%d)"), -1 for other transports or no number
         */
        public int netDevice() {
            String[] part = transport.split("/");
            if (!family().equals("NET") || part.length < 3) {
                return -1;
            }
            int n = 0;
            while (n < part[2].length() && Character.isDigit(part[2].charAt(n)) && n < 6) {
                n++;
            }
            return n == 0 ? -1 : Integer.parseInt(part[2].substring(0, n));
        }
        /**
         * @return the transport family: P2P, SHM, NET or COLLNET (the text before the first '/'; NCCL 2.4 to 2.12
         *         print SHM as "direct shared memory", {@code src/transport/shm.cc})
         */
        public String family() {
            if (transport.startsWith("direct shared memory")) {
                return "SHM";
            }
            int i = transport.indexOf('/');
            return (i < 0 ? transport : transport.substring(0, i)).trim();
        }

        /** @return true when the transport text says GPUDirect RDMA is used ({@code GDRDMA}) */
        public boolean gdr() {
            return transport.contains("GDRDMA");
        }
    }

    /**
     * NCCL's channel summary at the end of init.
     *
     * @param coll       collective channels (runtime comm.nChannels)
     * @param collnet    CollNet channels, -1 when the line (older NCCL) omits them
     * @param nvls       NVLS channels
     * @param p2p        p2p channels
     * @param p2pPerPeer p2p channels per peer
     * @param line       source line
     */
    public record ChannelCounts(int coll, int collnet, int nvls, int p2p, int p2pPerPeer, int line) {
    }

    /**
     * One ring: "Channel cc/NN : r0 r1 ...".
     *
     * @param channel   channel index
     * @param nChannels total printed after the slash, -1 when the line has none (NCCL 2.4)
     * @param order     ranks in ring order, as far as NCCL printed them: the first 20 ranks to 2.22 ({@code MAXWIDTH 20},
     *                  v2.22.3-1 src/graph/rings.cc dumpLine), a 128-character line ending in "..." from 2.23
     *                  (v2.23.4-1 to v2.28.9-1 src/graph/rings.cc dumpLine; a number the "..." cut into is left out)
     * @param line      source line
     */
    public record RingOrder(int channel, int nChannels, List<Integer> order, int line) {
        /** Defensive copy. */
        public RingOrder {
            order = List.copyOf(order);
        }
    }

    /**
     * A search result printed with NCCL_DEBUG_SUBSYS=GRAPH (NCCL {@code src/graph/search.cc}).
     *
     * @param pattern      graph pattern (1 tree, 2 split tree, 3 tree, 4 ring, 5 NVLS, 6 CollNetDirect)
     * @param crossNic     crossNic flag
     * @param nChannels    search channels
     * @param bwIntra      per-channel intra-host bandwidth, GB/s
     * @param bwInter      per-channel inter-host bandwidth, GB/s
     * @param typeIntra    intra path type name (NVL, PIX, PHB, SYS, ...)
     * @param typeInter    inter path type name
     * @param sameChannels sameChannels flag
     * @param line         source line
     */
    public record GraphLine(int pattern, int crossNic, int nChannels, double bwIntra, double bwInter,
            String typeIntra, String typeInter, int sameChannels, int line) {
    }

    /**
     * One cell of NCCL's TUNING table ("latency/bandwidth" printed as {@code %8.1f/%6.1f}, NCCL
     * {@code src/graph/tuning.cc}).
     *
     * @param function  NCCL function name, e.g. {@code AllReduce}
     * @param algorithm algorithm name, e.g. {@code Ring}
     * @param protocol  protocol name, e.g. {@code LL128}
     * @param latencyUs modelled latency, microseconds
     * @param bandwidth modelled algorithm bandwidth, GB/s
     * @param line      source line
     */
    public record TuningEntry(String function, String algorithm, String protocol, double latencyUs,
            double bandwidth, int line) {
    }

    /**
     * NCCL's choice for one call, printed with NCCL_DEBUG_SUBSYS=TUNING (NCCL {@code src/enqueue.cc}).
     *
     * @param function  function, e.g. {@code AllReduce}
     * @param bytes     bytes of the call
     * @param algorithm chosen algorithm, NCCL spelling
     * @param protocol  chosen protocol, NCCL spelling
     * @param timeUs    NCCL's modelled time, microseconds; NaN when the line gives none (NCCL 2.28 prints
     *                  "Algo RING proto LL channel{Lo..Hi}=..." without a time)
     * @param line      source line
     */
    public record AlgoChoice(String function, long bytes, String algorithm, String protocol, double timeUs,
            int line) {
    }
}
