package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.NcclDevice;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.bound.PhysicalBound;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.NicVendor;
import java.util.Optional;

/**
 * NCCL's internal socket transport (NCCL 2.30.7 {@code src/transport/net_socket.cc}) as it limits the network rate:
 * data crosses kernel TCP streams from host memory (the transport offers {@code NCCL_PTR_HOST} only, no GPUDirect
 * RDMA), and a send moves no faster than its slowest stream times the number of streams it is split over. Stateless.
 *
 * <ul>
 *   <li><b>Streams per connection</b> ({@code ncclNetSocketGetNsockNthread}): NCCL_SOCKET_NTHREADS helper threads,
 *       each with NCCL_NSOCKS_PERTHREAD sockets, per connection (one connection per channel and peer, each with its
 *       own threads and sockets). Unset, they follow the PCI vendor of the interface
 *       ({@link NicVendor}): AWS (0x1d0f) 2 threads x 8 sockets, GCP gVNIC (0x1ae0) 4 x 1, any other vendor 0
 *       threads: the proxy thread itself moves the data over the connection's one control socket. At most
 *       {@value #MAX_THREADS} threads ({@code MAX_THREADS}) and {@value #MAX_SOCKETS} sockets ({@code MAX_SOCKETS});
 *       above that NCCL lowers the sockets per thread to {@code 64 / threads}.</li>
 *   <li><b>Streams per send</b> ({@code ncclNetSocketTest}): a send of {@code size} bytes is cut into tasks of
 *       {@code max(NCCL_SOCKET_MIN_TASKSIZE, ceil(size / sockets))} bytes, NCCL_SOCKET_MIN_TASKSIZE 64 KiB, one per
 *       socket; so a send of at most 64 KiB uses one stream whatever the settings (at NCCL's default buffers an LL
 *       send is 64 KiB on the wire: one stream; LL128 600 KiB: up to 10; a Ring Simple send 1 MiB: up to 16).</li>
 *   <li><b>Rate</b>: each stream at most {@link NetClassProfile#streamGBps}; the streams of a send share its bytes
 *       equally, so the send takes as long as its slowest stream (NVIDIA/nccl-tests#83, NCCL's maintainer: "the
 *       NCCL bandwidth will be the minimum speed of the sockets multiplied by the number of sockets"). A node sends
 *       at most channels x connections per channel x streams per send x the stream rate, in wire bytes (LL carries
 *       8 data bytes per 16, LL128 120 per 128); that rate takes the place of the NIC bandwidth in
 *       {@link PhysicalBound#nicBusBw}.</li>
 * </ul>
 *
 * <p>The copy between GPU and host memory: the transport offers host memory only, so NCCL gives its NICs no GPU
 * Direct RDMA (NCCL 2.28.9 {@code src/graph/topo.cc}: a NIC's {@code gdr} is {@code ptrSupport & NCCL_PTR_CUDA}) and
 * routes every GPU-NIC path through the CPU; the node's network part is then at most what those paths carry
 * ({@code ChannelPlan#nodeNetBw}, in {@link PhysicalBound#interBusBw}). NCCL's NVLS and NVLSTree do not depend on the
 * network transport ({@code src/transport/nvls.cc ncclNvlsInit}: CUDA multicast support only), so NVLSTree runs over
 * sockets: every NVLS head opens its tree connections on every NVLS channel ({@code ncclNvlsTreeConnect}), 16
 * channels x 8 heads = 128 connections per DGX H100 node, each head over its own NIC.
 *
 * <p>Not modelled: the CPU time of the threads. Without helper threads (every vendor but AWS and GCP) the one proxy
 * thread of a rank (one per rank and communicator, NVIDIA/nccl#374) moves the data of all its connections, 16 per
 * GPU for NVLSTree on a DGX H100; no public figure gives one thread's rate over many sockets (in the one public
 * socket run here, 2x1 L40S, one proxy thread moves its rank's 2 connections at 8.1 GB/s), so no bound is charged for
 * it. Also NCCL_SOCKET_MIN_TASKSIZE as a setting (its default only).
 *
 * <p><b>GPUDirect-TCPX</b> ({@link NetworkClass#TCPX}) moves data over kernel TCP streams too, into GPU memory, and its
 * plugin reads the same two variables (google/nccl-plugin-gpudirecttcpx v3.1.9, commit 4b8ea7f2, {@code
 * src/net_tcpx.cc} {@code NSocksPerThread} "NSOCKS_PERTHREAD", {@code NThreads} "SOCKET_NTHREADS", with the
 * {@code NCCL_} prefix of {@code src/adapter/nccl/param.h}): {@link #tcpxSetup}. Each send is cut into chunks of
 * NCCL_DYNAMIC_CHUNK_SIZE, each put on a data socket with a free task slot ({@code tcpxCommProgress},
 * {@code src/flow_mapper.h}); NCCL keeps {@link NetTransport#sendsInFlight} sends of a connection outstanding, so at
 * least min(sockets, sends in flight) streams carry a connection's data at once ({@link #tcpxStreams}).
 */
public final class SocketStreams {

    /** Most helper threads per connection ({@code MAX_THREADS}, {@code net_socket.cc}). */
    public static final int MAX_THREADS = 16;
    /** Most sockets per connection ({@code MAX_SOCKETS}, {@code net_socket.cc}). */
    public static final int MAX_SOCKETS = 64;
    /** NCCL_SOCKET_MIN_TASKSIZE default: the smallest piece of a send given to one socket, bytes. */
    public static final long MIN_TASK_BYTES = 64L << 10;

    /** Most data sockets per GPUDirect-TCPX connection ({@code MAX_SOCKETS}, the plugin's {@code src/macro.h}). */
    public static final int TCPX_MAX_SOCKETS = 8;

    /** NCCL_SOCKET_NTHREADS in GCP's GPUDirect-TCPX scripts ({@link #tcpxSetup}). */
    public static final int GCP_SCRIPT_THREADS = 1;

    /** NCCL_NSOCKS_PERTHREAD in GCP's GPUDirect-TCPX scripts ({@link #tcpxSetup}). */
    public static final int GCP_SCRIPT_SOCKS_PER_THREAD = 4;

    private static final int AUTO = -2;

    private SocketStreams() {
    }

    /**
     * The helper threads and sockets of one connection.
     *
     * @param threads helper threads, 0..16 (0: the proxy thread moves the data)
     * @param sockets data sockets, 0..64 (0: the connection's control socket carries the data, one stream)
     */
    public record Setup(int threads, int sockets) {

        /** @return TCP streams one connection can use at once: its sockets, or 1 with none */
        public int streams() {
            return Math.max(1, sockets);
        }
    }

    /**
     * NCCL's choice, {@code ncclNetSocketGetNsockNthread}: settings first, the vendor's defaults for the unset ones.
     *
     * @param v the PCI vendor of the socket interface
     * @param s the settings (NCCL_SOCKET_NTHREADS, NCCL_NSOCKS_PERTHREAD)
     * @return threads and sockets per connection
     */
    public static Setup setup(NicVendor v, NcclSettings s) {
        int threads = Math.min(MAX_THREADS, s.socketNThreads().orElse(AUTO));
        int perThread = s.nSocksPerThread().orElse(AUTO);
        if (threads == AUTO) {
            threads = v == NicVendor.AWS ? 2 : v == NicVendor.GCP ? 4 : 0;
        }
        if (perThread == AUTO) {
            perThread = v == NicVendor.AWS ? 8 : 1;
        }
        if (perThread * threads > MAX_SOCKETS) {
            perThread = MAX_SOCKETS / threads;
        }
        return new Setup(threads, perThread * threads);
    }

    /**
     * The GPUDirect-TCPX plugin's data sockets per connection ({@code src/connect.cc tcpxGetNsockNthread},
     * {@code src/flags.cc}): NCCL_SOCKET_NTHREADS threads (1 where unset or out of 1..16) x NCCL_NSOCKS_PERTHREAD
     * sockets each (1 where unset or out of 1..8), at most {@value #TCPX_MAX_SOCKETS} in all ({@code src/macro.h}
     * MAX_SOCKETS; above it the sockets per thread become 8 / threads). Where neither is set, GCP's own setting:
     * the plugin runs only under GCP's scripts (its receive-data-path manager and {@code run-nccl.sh}), and every
     * public version of them sets NCCL_SOCKET_NTHREADS=1 NCCL_NSOCKS_PERTHREAD=4
     * ({@value #GCP_SCRIPT_THREADS} x {@value #GCP_SCRIPT_SOCKS_PER_THREAD}: GoogleCloudPlatform/
     * container-engine-accelerators {@code gpudirect-tcpx/nccl-config.yaml}, Cluster Toolkit
     * {@code examples/gke-a3-highgpu/nccl-config.yaml}), so a prediction for an A3 High cluster with no socket
     * settings is the deployment GCP documents; a run that sets them is taken as set.
     *
     * @param s the settings
     * @return threads and sockets per connection
     */
    public static Setup tcpxSetup(NcclSettings s) {
        if (s.socketNThreads().isEmpty() && s.nSocksPerThread().isEmpty()) {
            return new Setup(GCP_SCRIPT_THREADS, GCP_SCRIPT_THREADS * GCP_SCRIPT_SOCKS_PER_THREAD);
        }
        int threads = s.socketNThreads().filter(t -> t >= 1 && t <= MAX_THREADS).orElse(1);
        int perThread = s.nSocksPerThread().filter(n -> n >= 1 && n <= TCPX_MAX_SOCKETS).orElse(1);
        if (perThread * threads > TCPX_MAX_SOCKETS) {
            perThread = Math.max(1, TCPX_MAX_SOCKETS / threads);
        }
        return new Setup(threads, perThread * threads);
    }

    /**
     * @return TCP streams a GPUDirect-TCPX connection keeps busy: min(sockets, sends in flight); at least one send
     *         per socket is outstanding once NCCL has that many sends in flight (the class comment)
     */
    static int tcpxStreams(NcclSettings s, Algorithm a, Protocol p, Collective func) {
        return Math.min(tcpxSetup(s).streams(), NetTransport.sendsInFlight(a, p, func));
    }

    /**
     * @param setup     the connection's threads and sockets
     * @param wireBytes bytes of one send on the wire
     * @return the streams that send is cut over: ceil(size / max(64 KiB, ceil(size / sockets))), 1 without sockets
     */
    public static int streamsPerSend(Setup setup, double wireBytes) {
        if (setup.sockets() == 0) {
            return 1;
        }
        double task = Math.max(MIN_TASK_BYTES, Math.ceil(wireBytes / setup.sockets()));
        return (int) Math.max(1, Math.min(setup.sockets(), Math.ceil(wireBytes / task)));
    }

    /** @return wire bytes per data byte of a protocol: LL 2 (8-byte flag per 8 data), LL128 16/15, Simple 1 */
    static double wirePerData(Protocol p) {
        return 1 / NcclDevice.dataPerLineByte(p);
    }

    /**
     * The most one rank sends across nodes over the socket streams in a point-to-point call, GB/s of wire bytes (the
     * caller's protocol efficiency takes LL's flags off): connections x streams per send x the stream rate. A p2p
     * send is one chunk (at most NCCL_P2P_NET_CHUNKSIZE, 128 KiB by default), so on AWS it uses 2 of its 16 sockets.
     *
     * @param plan        the channel plan (network class, NIC vendor, nodes)
     * @param s           settings
     * @param pp          parameters (the class's {@link NetClassProfile#streamGBps})
     * @param connections network connections the rank keeps busy
     * @param message     data bytes of one send
     * @param p           protocol of the sends
     * @return GB/s; infinite on one node and for a class without a stream rate
     */
    public static double rankGBps(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, int connections,
            double message, Protocol p) {
        double stream = pp.netProfile(plan.netClass()).streamGBps();
        if (plan.nNodes() < 2 || stream <= 0) {
            return Double.POSITIVE_INFINITY;
        }
        int streams = plan.netClass() == NetworkClass.TCPX ? tcpxSetup(s).streams()
                : streamsPerSend(setup(plan.nicVendor(), s), message * wirePerData(p));
        return connections * streams * stream;
    }

    /**
     * The bus bandwidth the socket streams allow this call, GB/s: {@link PhysicalBound#nicBusBw} with channels x
     * connections per channel x streams per send x the stream rate (data bytes) as the node's bandwidth.
     *
     * @param plan     the channel plan (network class, NIC vendor, ranks, nodes)
     * @param s        settings
     * @param pp       parameters (the class's {@link NetClassProfile#streamGBps})
     * @param func     collective
     * @param a        algorithm
     * @param p        protocol
     * @param nBytes   bytes NCCL selects on
     * @param channels channels of the call (may be fractional, >= 1)
     * @return GB/s; infinite on one node, for a class without a stream rate, and for NVLS and CollNet (their
     *         network part is switch-side)
     */
    public static double busBwCap(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, Collective func,
            Algorithm a, Protocol p, long nBytes, double channels) {
        double stream = pp.netProfile(plan.netClass()).streamGBps();
        boolean viaProxy = a == Algorithm.RING || a == Algorithm.TREE || a == Algorithm.PAT
                || a == Algorithm.NVLS_TREE;
        if (plan.nNodes() < 2 || stream <= 0 || !viaProxy) {
            return Double.POSITIVE_INFINITY;
        }
        double wire = NetTransport.messageBytes(a, p, func, s, nBytes, channels, plan) * wirePerData(p);
        int streams = plan.netClass() == NetworkClass.TCPX ? tcpxStreams(s, a, p, func)
                : streamsPerSend(setup(plan.nicVendor(), s), wire);
        double node = channels * NetTransport.connectionsPerChannel(a, plan) * streams * stream / wirePerData(p);
        double perNode = (double) plan.nRanks() / plan.nNodes();
        return PhysicalBound.nicBusBw(func, a == Algorithm.RING, plan.nRanks(), plan.nNodes(), perNode, node);
    }

    /**
     * The most bus bandwidth the socket streams allow a collective whatever its size, GB/s, for the bound column: over
     * the algorithms that can run it between nodes and NCCL_ALGO allows (Ring; Tree and, with NVLS, NVLSTree for
     * AllReduce; PAT for AllGather and ReduceScatter), {@link PhysicalBound#nicBusBw} with the node's streams at their
     * most: runtime channels (NVLS channels for NVLSTree) x connections per channel x every socket of a connection
     * ({@link Setup#streams}) x the stream rate, Simple's wire bytes (1 per data byte). For AllToAll, SendRecv, Gather
     * and Scatter, {@link PhysicalBound#interBusBw} with q ranks per node each at p2p channels x every socket x the
     * stream rate, the most {@link #rankGBps} gives a rank.
     *
     * @param plan  the channel plan
     * @param s     settings (socket threads and sockets, NCCL_ALGO)
     * @param pp    parameters (the class's stream rate)
     * @param func  collective
     * @return GB/s; infinite on one node and off the socket transport
     */
    public static double boundBusBw(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, Collective func) {
        double stream = pp.netProfile(plan.netClass()).streamGBps();
        if (plan.nNodes() < 2 || stream <= 0) {
            return Double.POSITIVE_INFINITY;
        }
        boolean reduce = func == Collective.ALL_REDUCE;
        boolean gather = func == Collective.ALL_GATHER || func == Collective.REDUCE_SCATTER;
        int streams = plan.netClass() == NetworkClass.TCPX ? tcpxSetup(s).streams()
                : setup(plan.nicVendor(), s).streams();
        if (!func.hasNcclTuningModel()) {
            // p2p: a rank keeps at most its p2p channels' connections busy ({@link #rankGBps}), q ranks per node
            double node = plan.ppn() * plan.p2pChannels() * streams * stream;
            return PhysicalBound.interBusBw(func, plan.nRanks(), plan.nNodes(), node);
        }
        if (!reduce && !gather && func != Collective.BROADCAST && func != Collective.REDUCE) {
            return Double.POSITIVE_INFINITY;
        }
        double best = 0;
        for (Algorithm a : new Algorithm[] {Algorithm.RING, Algorithm.TREE, Algorithm.PAT, Algorithm.NVLS_TREE}) {
            boolean runs = a == Algorithm.RING || a == Algorithm.TREE && reduce || a == Algorithm.PAT && gather
                    || a == Algorithm.NVLS_TREE && reduce && plan.nvlsSupport();
            if (!runs || !s.algo().allows(func, a)) {
                continue;
            }
            int channels = a == Algorithm.NVLS_TREE ? plan.nvlsChannels() : plan.runtimeChannels();
            double node = channels * NetTransport.connectionsPerChannel(a, plan) * streams * stream;
            best = Math.max(best, PhysicalBound.nicBusBw(func, a == Algorithm.RING, plan.nRanks(), plan.nNodes(),
                    plan.ppn(), node));
        }
        return best > 0 ? best : Double.POSITIVE_INFINITY;
    }

    /**
     * What the socket settings do on this communicator, for the header: on the socket transport the streams per
     * connection ({@link #setup}); elsewhere, when NCCL_SOCKET_NTHREADS or NCCL_NSOCKS_PERTHREAD is set, that NCCL
     * ignores them (they act only in {@code src/transport/net_socket.cc}). On GPUDirect-TCPX the note gives the
     * plugin's own streams per connection ({@link #tcpxSetup}), which the prediction uses; on GPUDirect-TCPXO that
     * its plugin reads neither (it has NCCL_FASTRAK_NUM_FLOWS, google/nccl-plugin-gpudirect-tcpxo
     * {@code tcpdirect_plugin/fastrak_offload/const_params.h}).
     *
     * @param plan the channel plan (network class, NIC vendor, nodes)
     * @param s    the settings
     * @return the note; empty on one node, or off the socket transport without socket settings
     */
    public static Optional<String> note(ChannelPlan plan, NcclSettings s) {
        boolean set = s.socketNThreads().isPresent() || s.nSocksPerThread().isPresent();
        if (plan.nNodes() < 2 || plan.netClass() != NetworkClass.SOCKET && !set) {
            return Optional.empty();
        }
        if (plan.netClass() == NetworkClass.TCPX) {
            Setup st = tcpxSetup(s);
            return Optional.of(st.streams() + " TCP stream(s) per connection (GPUDirect-TCPX: " + st.threads()
                    + " thread(s) x " + st.sockets() / st.threads() + " socket(s), NCCL_SOCKET_NTHREADS x"
                    + " NCCL_NSOCKS_PERTHREAD as its plugin reads them; GCP's scripts' 1 x 4 where neither is set)");
        }
        if (plan.netClass() == NetworkClass.TCPXO) {
            return Optional.of("NCCL_SOCKET_NTHREADS/NCCL_NSOCKS_PERTHREAD: this cluster runs "
                    + plan.netClass().label() + ", whose plugin reads neither (its flows per connection are"
                    + " NCCL_FASTRAK_NUM_FLOWS), so they change nothing in the prediction");
        }
        if (plan.netClass() != NetworkClass.SOCKET) {
            return Optional.of("NCCL_SOCKET_NTHREADS/NCCL_NSOCKS_PERTHREAD act only on NCCL's socket transport"
                    + " (--network socket); this cluster runs " + plan.netClass().label() + ", so they change nothing");
        }
        Setup st = setup(plan.nicVendor(), s);
        if (st.threads() == 0) {
            return Optional.of("1 TCP stream per connection (no helper threads: the proxy thread sends on the"
                    + " connection's own socket; NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD is 0 x 0, NCCL's default"
                    + " for this NIC's vendor where unset)");
        }
        return Optional.of(st.streams() + " TCP stream(s) per connection (" + st.threads() + " helper thread(s), "
                + st.sockets() + " data socket(s): NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD, NCCL's default for"
                + " this NIC's vendor where unset)");
    }
}
